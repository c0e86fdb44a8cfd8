"""A raw stdio JSON-RPC MCP server for tests that misbehaves on request (see the flags below).

Written without the MCP SDK so that it can send what the SDK would never send:
``--noise N``      print N lines that are not JSON-RPC messages on stdout before answering;
``--stderr-mb N``  write N MiB to stderr (ending with the line "last stderr line") first;
``--child FILE``   start ``sleep 300`` holding our stdout, write its pid to FILE, then serve;
``--crash FILE``   as --child, then exit with status 4 before answering anything;
``--silent``       read requests, never answer (not even ``initialize``);
``--bad-notice``   after ``initialize``, send a notification the SDK cannot validate;
``--long-line N``  print one line of N KiB (no newline inside) on stdout before answering;
``--refuse-init``  answer ``initialize`` with a JSON-RPC error ("not today");
``--old-version``  answer ``initialize`` with a protocol version no client knows ("1999-01-01");
``--bad-tool``     list a third tool that has no ``inputSchema`` (not a valid MCP tool);
``--nan``          list a third tool whose schema holds NaN (``"maximum": NaN``: not JSON);
``--answers``      list three more tools: ``held`` (answered "held" only once an ``echo`` call has
                   been answered, so that it is in flight meanwhile), ``busy`` (a JSON-RPC error of code
                   -32000, "rate limited") and ``typed`` (structuredContent its outputSchema refuses).
Tools: ``echo`` (its arguments back as text) and ``deep`` (a result 1,000 levels deep); unlisted,
``raw`` prints its argument ``lines`` as they are (each character one byte, latin-1, so that a
line need not be UTF-8), ``RID`` in them replaced by the request's id.
"""

from __future__ import annotations

import json
import subprocess
import sys

ARGS = sys.argv[1:]


def flag(name: str) -> str | None:
    return ARGS[ARGS.index(name) + 1] if name in ARGS else None


TOOLS = [
    {"name": "echo", "description": "echo", "inputSchema": {"type": "object"}},
    {"name": "deep", "description": "a very deep result", "inputSchema": {"type": "object"}},
]
ANSWERS = [
    {"name": "held", "inputSchema": {"type": "object"}},
    {"name": "busy", "inputSchema": {"type": "object"}},
    {"name": "typed", "inputSchema": {"type": "object"},
     "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
]
HELD: list[int] = []  # the ids of `held` calls not answered yet


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def deep_result_line(request_id: int) -> str:
    # Built as text: json.dumps of 1,000 levels would itself hit the recursion limit.
    inner = '{"a": ' * 1000 + "1" + "}" * 1000
    return (
        '{"jsonrpc": "2.0", "result": {"content": [], "structuredContent": ' + inner + "}, "
        f'"id": {request_id}}}'
    )


def text_result(text: str) -> dict:
    return {"content": [{"type": "text", "text": text}]}


def answers_tool(name: str, request_id: int) -> dict | None:
    """The result of one of the --answers tools (None: it was sent, or is held)."""
    if name == "held":
        HELD.append(request_id)
        return None
    if name == "busy":
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32000, "message": "rate limited"}})
        return None
    return {**text_result("typed"), "structuredContent": {"n": "one"}}


def answer(message: dict) -> None:
    method, request_id = message.get("method"), message["id"]
    params = message.get("params") or {}
    if method == "initialize" and "--refuse-init" in ARGS:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32000, "message": "not today"}})
        return
    if method == "initialize":
        result = {
            "protocolVersion": "1999-01-01" if "--old-version" in ARGS else params.get("protocolVersion"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "hostile", "version": "1"},
        }
    elif method == "tools/list":
        result = {"tools": [*TOOLS, {"name": "broken"}] if "--bad-tool" in ARGS else TOOLS}
        if "--answers" in ARGS:
            result["tools"] = [*TOOLS, *ANSWERS]
        if "--nan" in ARGS:
            result["tools"] = [*TOOLS, {"name": "nan", "inputSchema": {"type": "object", "properties": {
                "n": {"type": "number", "maximum": float("nan")}}}}]
    elif method == "tools/call" and params.get("name") == "deep":
        sys.stdout.write(deep_result_line(request_id) + "\n")
        sys.stdout.flush()
        return
    elif method == "tools/call" and params.get("name") in ("held", "busy", "typed"):
        result = answers_tool(params["name"], request_id)
        if result is None:
            return
    elif method == "tools/call" and params.get("name") == "raw":
        raw = params["arguments"]["lines"].replace("RID", str(request_id)).encode("latin-1")
        sys.stdout.buffer.write(raw + b"\n")
        sys.stdout.flush()
        return
    elif method == "tools/call":
        text = json.dumps(params.get("arguments") or {}, sort_keys=True)
        result = text_result(text)
    elif method == "ping":
        result = {}
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": method}})
        return
    send({"jsonrpc": "2.0", "id": request_id, "result": result})


def main() -> None:
    megabytes = flag("--stderr-mb")
    if megabytes:
        block = ("e" * 1023 + "\n").encode()
        for _ in range(int(megabytes) * 1024):
            sys.stderr.buffer.write(block)
        sys.stderr.buffer.write(b"last stderr line\n")
        sys.stderr.flush()
    pid_file = flag("--child") or flag("--crash")
    if pid_file:
        child = subprocess.Popen(["sleep", "300"], stdout=sys.stdout, stdin=subprocess.DEVNULL)
        with open(pid_file, "w") as f:
            f.write(str(child.pid))
        if flag("--crash"):
            print("fatal: no configuration", file=sys.stderr, flush=True)
            sys.exit(4)
    long_line = flag("--long-line")
    if long_line:
        sys.stdout.write("L" * (int(long_line) * 1024) + "\n")
        sys.stdout.flush()
    noise = int(flag("--noise") or 0)
    lines = ["Starting hostile server v1.0", "{not json", '{"hello": "world"}', "x" * 5000]
    for i in range(noise):
        print(lines[i] if i < len(lines) else f"noise line {i}", flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message.get("method") == "notifications/initialized" and "--bad-notice" in ARGS:
            send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": 5}})
        if "--silent" in ARGS or "id" not in message or "method" not in message:
            continue  # notifications, and answers to our (never sent) requests
        answer(message)
        if (message.get("params") or {}).get("name") == "echo":
            for request_id in HELD:
                send({"jsonrpc": "2.0", "id": request_id, "result": text_result("held")})
            HELD.clear()


if __name__ == "__main__":
    main()
