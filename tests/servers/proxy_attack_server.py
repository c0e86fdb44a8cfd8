"""A raw stdio JSON-RPC MCP server (no SDK) that attacks the proxy in front of it (tests/test_proxy_attacks.py).

Tools: ``echo`` (its arguments back as text); ``flood`` (answers with one line of ``mib`` MiB, the id
first, then empty top-level members: the slowest text for a scanner that steps in Python);
``big`` (a valid answer of ``mib`` MiB, written in two halves ``pause`` seconds apart, so that
several are held at once); ``tools/list`` adds the lines of ``--tools-file FILE`` (a tool's name, or a whole tool as JSON), and
``reload`` reads it again and sends ``notifications/tools/list_changed``.
``getenv`` answers the value of the environment variable ``name`` (``<unset>``). ``--need-env VAR``:
exit 1 at start when VAR is not set. ``burst`` sends ``n`` ``notifications/tools/list_changed`` at once, then its answer.
``--wait-file FILE``: ``initialize`` is answered only once FILE exists (a server slow to start).
``--list-log FILE``: each ``tools/list`` adds a line to FILE. ``--relist-error``: every ``tools/list``
after the first is answered with a JSON-RPC error ("busy reindexing"). ``--list-exit``: exit 5 on ``tools/list``.
``--deep-tool LEVELS``: ``tools/list`` also lists ``deep``, whose inputSchema nests LEVELS levels
(``--deep-field FIELD``: whose FIELD does, its inputSchema plain).
``--child FILE``: start a grandchild (``sleep 300``, in our process group, not holding our pipes)
and write its pid to FILE.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

ARGS = sys.argv[1:]
LISTED = [0]  # the tools/list requests answered so far
OUT = sys.stdout.buffer


def flag(name: str) -> str | None:
    return ARGS[ARGS.index(name) + 1] if name in ARGS else None


def send(message: dict) -> None:
    OUT.write(json.dumps(message).encode() + b"\n")
    OUT.flush()


def tools() -> list[dict]:
    names = ["echo", "flood", "big", "reload", "burst", "getenv"]
    path = flag("--tools-file")
    if path:
        with open(path) as f:
            lines = [line.strip() for line in f if line.strip()]
        names += [line for line in lines if not line.startswith("{")]
        whole = [json.loads(line) for line in lines if line.startswith("{")]  # a whole tool, as JSON
    else:
        whole = []
    return [{"name": n, "inputSchema": {"type": "object"}} for n in names] + whole


def call(request_id: int, name: str, arguments: dict) -> None:
    mib = int(arguments.get("mib", 1))
    if name == "flood":
        # Top-level members `"": ""` one after another: the old scanner stepped through them token
        # by token in Python, at about 1.3 MiB/s, on the event loop.
        head = b'{"jsonrpc": "2.0", "id": %d, "result": {"content": []}' % request_id
        OUT.write(head + b',"":""' * (mib * 1024 * 1024 // 6) + b"}\n")
        OUT.flush()
        return
    if name == "big":
        text = "b" * (mib * 1024 * 1024)
        line = json.dumps({"jsonrpc": "2.0", "id": request_id,
                           "result": {"content": [{"type": "text", "text": text}]}}).encode() + b"\n"
        half = len(line) // 2
        OUT.write(line[:half])
        OUT.flush()
        time.sleep(float(arguments.get("pause", 1)))
        OUT.write(line[half:])
        OUT.flush()
        return
    if name == "getenv":
        text = os.environ.get(str(arguments.get("name")), "<unset>")
        send({"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": text}]}})
        return
    if name == "burst":
        for _ in range(int(arguments.get("n", 100))):
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        send({"jsonrpc": "2.0", "id": request_id, "result": {"content": []}})
        return
    if name == "reload":
        send({"jsonrpc": "2.0", "id": request_id, "result": {"content": []}})
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        return
    text = json.dumps({"tool": name, "arguments": arguments}, sort_keys=True)
    send({"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": text}]}})


def answer(message: dict) -> None:
    method, request_id = message.get("method"), message["id"]
    params = message.get("params") or {}
    if method == "initialize":
        wait = flag("--wait-file")
        while wait and not os.path.exists(wait):
            time.sleep(0.05)
        send({"jsonrpc": "2.0", "id": request_id, "result": {
            "protocolVersion": params.get("protocolVersion"), "capabilities": {"tools": {"listChanged": True}},
            "serverInfo": {"name": "attack", "version": "1"}}})
    elif method == "tools/list":
        if "--list-exit" in ARGS:
            sys.exit(5)
        log = flag("--list-log")
        if log:
            with open(log, "a") as f:
                f.write("list\n")
        LISTED[0] += 1
        if "--relist-error" in ARGS and LISTED[0] > 1:
            send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32603, "message": "busy reindexing"}})
            return
        deep = flag("--deep-tool")
        if deep:  # (written as text: json.dumps cannot nest that deep)
            levels = int(deep) // 2
            schema = '{"type": "object", "properties": {"x": ' * levels + '{"type": "string"}' + "}}" * levels
            field = flag("--deep-field") or "inputSchema"
            plain = '"inputSchema": {"type": "object"}, ' if field != "inputSchema" else ""
            listed = json.dumps(tools())[:-1] + ', {"name": "deep", ' + plain + json.dumps(field) + ": " + schema + "}]"
            OUT.write(b'{"jsonrpc": "2.0", "id": %d, "result": {"tools": %s}}\n' % (request_id, listed.encode()))
            OUT.flush()
            return
        send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": tools()}})
    elif method == "tools/call":
        call(request_id, params.get("name"), params.get("arguments") or {})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": request_id, "result": {}})
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": str(method)}})


def main() -> None:
    need = flag("--need-env")
    if need and need not in os.environ:
        sys.exit(f"{need} is not set")
    pid_file = flag("--child")
    if pid_file:
        child = subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        with open(pid_file + ".tmp", "w") as f:
            f.write(str(child.pid))
        os.replace(pid_file + ".tmp", pid_file)
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if "id" in message and "method" in message:
            answer(message)


if __name__ == "__main__":
    main()
