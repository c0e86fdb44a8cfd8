"""`toolcast proxy` read by a client writing its own JSON-RPC lines: a request the MCP SDK cannot read
(JSON nested past its parser's limit, a lone surrogate escape, a number out of range, a method that
is not a string) is answered with a JSON-RPC error for its id, not dropped while the client waits;
arguments JSON cannot carry (NaN, Infinity, which the SDK's parser reads) are an error result, never
forwarded as the null the SDK would write for them. Time bounds are generous timeouts only."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
PY = sys.executable
ATTACK = f"{PY} {HERE / 'servers' / 'proxy_attack_server.py'}"
WAIT = 60.0


class _Client:
    """A proxy process spoken to in raw lines; its answers by id."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([PY, "-m", "toolcast.cli.main", "proxy", "--server", f"a={ATTACK}"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env=dict(os.environ))
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            self.lines.put(line)
        self.lines.put(None)

    def send(self, line: str | dict) -> None:
        text = line if isinstance(line, str) else json.dumps(line)
        self.proc.stdin.write(text.encode("utf-8") + b"\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]

    def answer(self, ident: Any) -> dict:
        while True:
            line = self.lines.get(timeout=WAIT)
            assert line is not None, "the proxy closed its output"
            message = json.loads(line)
            if message.get("id") == ident and ("result" in message or "error" in message):
                return message

    def close(self) -> None:
        self.proc.stdin.close()  # type: ignore[union-attr]
        try:
            self.proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def client():
    c = _Client()
    c.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}})
    assert "result" in c.answer(0)
    c.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    c.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert any(t["name"] == "a__echo" for t in c.answer(1)["result"]["tools"])
    yield c
    c.close()


def _call(ident: Any, arguments: str) -> str:
    return '{"jsonrpc":"2.0","id":' + json.dumps(ident) + ',"method":"tools/call","params":{"name":"a__echo","arguments":' + (
        arguments + "}}")


UNREADABLE = {  # (the line, its id, the error code, what the message says)
    "nested past the parser's limit": (_call(10, '{"a":' + "[" * 300 + "]" * 300 + "}"), 10, -32700, "recursion limit"),
    "a lone surrogate escape": (_call("s-11", '{"a":"\\ud800"}'), "s-11", -32700, "hex escape"),
    "a number out of range": (_call(12, '{"a":' + "9" * 5000 + "}"), 12, -32700, "number out of range"),
    "its id written last": ('{"jsonrpc":"2.0","method":"tools/call","params":{"name":"a__echo","arguments":{"a":'
                            + "[" * 300 + "]" * 300 + '}},"id":13}', 13, -32700, "recursion limit"),
    "a method that is no string": ('{"jsonrpc":"2.0","id":14,"method":5}', 14, -32600, ""),
}


@pytest.mark.parametrize("case", sorted(UNREADABLE))
def test_a_request_the_sdk_cannot_read_is_answered_with_an_error_for_its_id(client, case):
    line, ident, code, said = UNREADABLE[case]
    client.send(line)
    got = client.answer(ident)
    assert got["error"]["code"] == code
    assert got["error"]["message"].startswith("toolcast proxy: the request could not be read") and said in got["error"]["message"]
    client.send({"jsonrpc": "2.0", "id": 99, "method": "ping"})  # (and the proxy goes on)
    assert client.answer(99)["result"] == {}


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_arguments_json_cannot_carry_are_an_error_result_not_a_forwarded_null(client, literal):
    client.send(_call(20, '{"a":{"b":[1,' + literal + "]}}"))
    result = client.answer(20)["result"]
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert "JSON cannot carry" in text and "arguments['a']['b'][1]" in text
    client.send(_call(21, '{"a":{"b":[1,2]}}'))  # (a call JSON can carry is forwarded as it was)
    echoed = client.answer(21)["result"]
    assert echoed.get("isError") is not True and json.loads(echoed["content"][0]["text"])["arguments"] == {"a": {"b": [1, 2]}}
