"""A loopback Streamable HTTP MCP server for tests (the SDK's MCPServer); prints its URL first.

``--mode ok`` (default) serves tools ``echo`` (its arguments back) and ``whoami`` (the
Authorization header the request carried), and with ``--require-auth VALUE`` answers 401 to a
request whose Authorization header is not VALUE; ``--mode 500`` answers every request with HTTP
500, ``--mode garbage`` with 200 and a body that is not JSON, ``--mode hang`` never answers.
"""

from __future__ import annotations

import json
import socket
import sys

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

MODE = sys.argv[sys.argv.index("--mode") + 1] if "--mode" in sys.argv else "ok"
REQUIRED = sys.argv[sys.argv.index("--require-auth") + 1] if "--require-auth" in sys.argv else None
_seen_auth: list[str] = []  # the Authorization header of the request being served


def mcp_app():
    server = MCPServer("toolcast-http-test")

    @server.tool(description="its arguments back, as JSON text")
    def echo(text: str = "", count: int | None = None) -> str:
        return json.dumps({"text": text, "count": count}, sort_keys=True)

    @server.tool(description="the Authorization header the server received")
    def whoami() -> str:
        return _seen_auth[-1] if _seen_auth else "<none>"

    app = server.streamable_http_app()

    async def recording(scope, receive, send):
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            _seen_auth.append(headers.get(b"authorization", b"<none>").decode("latin-1"))
            if REQUIRED is not None and _seen_auth[-1] != REQUIRED:
                await PlainTextResponse("unauthorized", status_code=401)(scope, receive, send)
                return
        await app(scope, receive, send)

    return recording


def broken_app():
    async def answer(request):
        if MODE == "hang":
            await anyio.sleep_forever()
        if MODE == "500":
            return PlainTextResponse("internal trouble", status_code=500)
        return PlainTextResponse("this is not json {", media_type="application/json")

    return Starlette(routes=[Route("/mcp", answer, methods=["GET", "POST", "DELETE"])])


def main() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    app = mcp_app() if MODE == "ok" else broken_app()
    config = uvicorn.Config(app, log_level="warning", lifespan="on" if MODE == "ok" else "off")
    server = uvicorn.Server(config)
    print(f"http://127.0.0.1:{port}/mcp", flush=True)
    server.run(sockets=[sock])


if __name__ == "__main__":
    main()
