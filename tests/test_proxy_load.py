"""`toolcast proxy` under load with faults, at a size for CI: 240 calls, 24 at once, over four servers
(two stdio SDK servers, one raw stdio server, one Streamable HTTP SDK server whose every third answer
is cut off by a relay), with crashes, unreadable answers and error results mixed in. Every call gets
exactly one answer of the kind its tool and fault allow, the nulls strict mode forced are stripped
exactly, and no server's tools vanish. Time bounds are generous timeouts only."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_proxy_attacks import proxied, text_of

HERE = Path(__file__).parent
PY = sys.executable
ECHO = f"{PY} {HERE / 'servers' / 'echo_server.py'}"
ATTACK = f"{PY} {HERE / 'servers' / 'proxy_attack_server.py'}"
CALLS, AT_ONCE = 240, 24
CUT_EVERY = 3
EXPECTED = {"echo__echo", "crashy__crash", "raw__echo", "web__echo"}  # one tool of each server, listed at the end
FORCED = {"text": "t", "count": None, "options": {"loud": None, "lang": "en"}}  # what a strict model sends


def _call(i: int) -> tuple[str, dict]:
    """The i-th call of the load: tool and arguments (a fixed mix)."""
    if i % 40 == 39:
        return "crashy__crash", {}
    if i % 12 == 5:
        return "crashy__garbage", {}
    if i % 12 == 7:
        return "crashy__fail", {}
    if i % 2 == 1:
        return "web__echo", {"text": f"w{i}", "count": i}
    if i % 4 == 2:
        return "raw__echo", {"i": i}
    return "echo__echo", {**FORCED, "text": f"e{i}"}


def _check(i: int, tool: str, result) -> str:
    """The kind of answer (for the tally); fails when it is not one the call allows."""
    text = text_of(result)
    if tool == "echo__echo":  # never faulted: the arguments arrive without the forced nulls
        assert result.is_error is not True, text
        assert json.loads(text) == {"text": f"e{i}", "options": {"lang": "en"}}
        return "ok"
    if tool == "raw__echo":
        assert result.is_error is not True and json.loads(text)["arguments"] == {"i": i}, text
        return "ok"
    if tool == "web__echo":
        if result.is_error is not True:
            assert json.loads(text) == {"text": f"w{i}", "count": i}
            return "ok"
        # Its own answer was cut (before or after its headers): it fails alone, the session goes on.
        assert "tool 'echo' on server 'web' answered with an error: " in text, text
        assert "the HTTP request failed" in text or "SSE stream ended without a response" in text, text
        return "cut"
    assert result.is_error is True, text  # crashy: crash, garbage, fail, or in flight when it crashed
    return "error"


@pytest.mark.skipif(sys.platform == "win32", reason="posix process groups")
def test_load_with_faults_every_call_gets_exactly_one_right_answer():
    server = subprocess.Popen([PY, str(HERE / "servers" / "http_server.py")], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    host = server.stdout.readline().strip().split("//")[1].split("/")[0]
    relay = subprocess.Popen([PY, str(HERE / "servers" / "cutting_relay.py"), host, "--cut-every", str(CUT_EVERY),
                              "--cut-at", "start"], stdout=subprocess.PIPE, text=True)
    url = relay.stdout.readline().strip()

    async def go():
        async with proxied("--timeout", "60", "--server", f"echo={ECHO}", "--server", f"crashy={ECHO}",
                           "--server", f"raw={ATTACK}", "--server", f"web={url}") as session:
            gate = asyncio.Semaphore(AT_ONCE)

            async def one(i: int):
                tool, arguments = _call(i)
                async with gate:
                    return i, tool, await session.call_tool(tool, arguments)

            results = await asyncio.gather(*(one(i) for i in range(CALLS)))
            # A stdio server that crashed is left out of a listing until it is up again (the proxy
            # answers tools/list after LIST_RETRY_WAIT and notifies the change later): on a busy
            # machine its restart can take longer, so the listing is asked again until every
            # server's tools are back (the outer wait_for bounds it).
            while True:
                listed = {t.name for t in (await session.list_tools()).tools}
                if listed >= EXPECTED:
                    return results, listed
                await asyncio.sleep(0.5)

    try:
        results, listed = asyncio.run(asyncio.wait_for(go(), 400))
    finally:
        for proc in (relay, server):
            proc.kill()
            proc.wait()
    assert sorted(i for i, _, _ in results) == list(range(CALLS))  # one answer per call
    kinds = [(tool, _check(i, tool, result)) for i, tool, result in results]
    assert all(kind == "ok" for tool, kind in kinds if tool in ("echo__echo", "raw__echo"))
    web = [kind for tool, kind in kinds if tool == "web__echo"]
    assert "ok" in web  # (the cut ones are each the call whose own answer was cut)
    assert listed >= EXPECTED
