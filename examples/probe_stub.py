"""A loopback stand-in for OpenAI's Responses API and Anthropic's Messages API, to try `toolcast probe` offline.

Run: python examples/probe_stub.py            (a probe session against the stub, printed; sends nothing out)
     python examples/probe_stub.py --serve     (serve on 127.0.0.1:8765 and print the environment that points
                                                the SDKs at it; ^C stops it), then in another shell:
     toolcast probe examples/refund_order.json --target openai,anthropic

It answers every Responses request with a call whose `amount` is -5 (the original schema says
minimum 0: the probe reports invalid arguments), and every Messages request with a call that
satisfies the schema. The shapes are the APIs' own; the keys it prints are not real.
"""

from __future__ import annotations

import contextlib
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ARGUMENTS = {"order_id": "A-1001", "amount": -5, "reason": "late", "items": None}


def answer(path: str, body: dict) -> dict:
    if path.endswith("/responses"):
        name = body["tool_choice"]["name"]
        return {"id": "resp_1", "object": "response", "created_at": 1765000000, "model": body["model"],
                "status": "completed", "parallel_tool_calls": True, "tool_choice": body["tool_choice"], "tools": [],
                "output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": name,
                            "arguments": json.dumps(ARGUMENTS), "status": "completed"}]}
    name = body["tool_choice"]["name"]
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"],
            "content": [{"type": "tool_use", "id": "toolu_1", "name": name,
                         "input": {"order_id": "A-1001", "reason": "damaged"}}],
            "stop_reason": "tool_use", "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
        data = json.dumps(answer(self.path, body)).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def serve(port: int = 0) -> ThreadingHTTPServer:
    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


def environment(server: ThreadingHTTPServer) -> dict[str, str]:
    url = f"http://127.0.0.1:{server.server_port}"
    return {"OPENAI_BASE_URL": url + "/v1", "OPENAI_API_KEY": "sk-stub", "ANTHROPIC_BASE_URL": url,
            "ANTHROPIC_API_KEY": "sk-ant-stub"}


def session() -> int:
    """Serve on a free port, point the SDKs here, and run the documented probe."""
    import os
    import threading
    from pathlib import Path

    from toolcast.cli.main import main

    server = serve()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    os.environ.update(environment(server))
    tools = Path(__file__).resolve().parent / "refund_order.json"
    try:
        code = main(["probe", str(tools), "--target", "openai,anthropic"])
    finally:
        server.shutdown()
        server.server_close()
    print(f"exit status {code} (1: the OpenAI call's arguments are invalid against the original schema)")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] != ["--serve"]:
        sys.exit(session())
    server = serve(int(sys.argv[2]) if len(sys.argv) > 2 else 8765)
    for name, value in environment(server).items():
        print(f"export {name}={value}")
    sys.stdout.flush()
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
