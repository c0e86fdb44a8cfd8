"""A loopback Streamable HTTP MCP server (stdlib, JSON answers) that fails mid-call; prints its URL first.

Tools: ``echo`` (answers "ok"), ``drop`` (closes the connection without an answer), ``cut``
(announces a longer body than it sends, then closes), ``exit`` (the process exits, unanswered) and
``slow`` (answers "slow" after ``seconds``, 4 unless given). ``--drop-pings N`` drops the first N
pings as ``drop`` does; ``--drop-lists N`` drops N ``tools/list`` requests after the first.
``--sessions`` gives each session an ``Mcp-Session-Id``, and ``forget`` (answers "ok") and ``drop``
forget them all, as a server restarted would: a request in a forgotten session is answered 404.
``--bad-tool`` lists one more entry the MCP SDK cannot read (an ``inputSchema`` that is a string).
``big`` answers a text of ``mib`` MiB (1 unless given).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOOLS = [{"name": name, "inputSchema": {"type": "object"}} for name in ("echo", "drop", "cut", "exit", "slow", "forget", "big")]
ARGS = sys.argv[1:]
DROPS = {"ping": int(ARGS[ARGS.index("--drop-pings") + 1]) if "--drop-pings" in ARGS else 0,
         "tools/list": int(ARGS[ARGS.index("--drop-lists") + 1]) if "--drop-lists" in ARGS else 0}
LISTS = [0]
LOCK = threading.Lock()
SESSIONS_ON = "--sessions" in ARGS
SESSIONS: set[str] = set()


def dropped(method: str) -> bool:
    """Whether this request is one to drop (counted down)."""
    with LOCK:
        if method == "tools/list":
            LISTS[0] += 1
            if LISTS[0] == 1:
                return False
        if DROPS.get(method, 0) > 0:
            DROPS[method] -= 1
            return True
    return False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def answer(self, status: int, body: bytes = b"", length: int | None = None, session: str = "") -> None:
        self.send_response(status)
        if session:
            self.send_header("Mcp-Session-Id", session)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self.answer(405)

    def do_DELETE(self) -> None:
        self.answer(200)

    def do_POST(self) -> None:
        message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        request_id, params = message.get("id"), message.get("params") or {}
        known = self.headers.get("Mcp-Session-Id")
        if SESSIONS_ON and known is not None and known not in SESSIONS:
            self.answer(404)
            return
        if request_id is None:  # a notification
            self.answer(202)
            return
        tool = params.get("name") if message["method"] == "tools/call" else None
        if tool == "exit":
            os._exit(0)
        if tool == "drop" or dropped(message["method"]):
            if tool == "drop":
                SESSIONS.clear()
            self.close_connection = True
            self.connection.close()
            return
        session = ""
        if message["method"] == "initialize":
            if SESSIONS_ON:
                session = f"s{len(SESSIONS)}-{time.monotonic_ns()}"
                SESSIONS.add(session)
            result = {"protocolVersion": params["protocolVersion"], "capabilities": {"tools": {}},
                      "serverInfo": {"name": "dropping", "version": "1"}}
        elif message["method"] == "tools/list":
            result = {"tools": [*TOOLS, {"name": "bad", "inputSchema": "object"}] if "--bad-tool" in ARGS else TOOLS}
        elif tool == "forget":
            SESSIONS.clear()
            result = {"content": [{"type": "text", "text": "ok"}]}
        elif tool == "big":
            mib = float((params.get("arguments") or {}).get("mib", 1))
            result = {"content": [{"type": "text", "text": "x" * int(mib * 1024 * 1024)}]}
        elif tool == "slow":
            time.sleep(float((params.get("arguments") or {}).get("seconds", 4)))
            result = {"content": [{"type": "text", "text": "slow"}]}
        else:
            result = {"content": [{"type": "text", "text": "ok"}]}
        body = json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}).encode()
        if tool == "cut":
            self.close_connection = True
            self.answer(200, body[:20], length=len(body))
            return
        self.answer(200, body, session=session)


def main() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}/mcp", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
