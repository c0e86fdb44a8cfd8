"""A loopback Streamable HTTP MCP server (stdlib, JSON answers) that fails mid-call; prints its URL first.

Tools: ``echo`` (answers "ok"), ``drop`` (closes the connection without an answer), ``cut``
(announces a longer body than it sends, then closes) and ``exit`` (the process exits, unanswered).
"""

from __future__ import annotations

import json
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOOLS = [{"name": name, "inputSchema": {"type": "object"}} for name in ("echo", "drop", "cut", "exit")]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def answer(self, status: int, body: bytes = b"", length: int | None = None) -> None:
        self.send_response(status)
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
        if request_id is None:  # a notification
            self.answer(202)
            return
        tool = params.get("name") if message["method"] == "tools/call" else None
        if tool == "exit":
            os._exit(0)
        if tool == "drop":
            self.close_connection = True
            self.connection.close()
            return
        if message["method"] == "initialize":
            result = {"protocolVersion": params["protocolVersion"], "capabilities": {"tools": {}},
                      "serverInfo": {"name": "dropping", "version": "1"}}
        elif message["method"] == "tools/list":
            result = {"tools": TOOLS}
        else:
            result = {"content": [{"type": "text", "text": "ok"}]}
        body = json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}).encode()
        if tool == "cut":
            self.close_connection = True
            self.answer(200, body[:20], length=len(body))
            return
        self.answer(200, body)


def main() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}/mcp", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
