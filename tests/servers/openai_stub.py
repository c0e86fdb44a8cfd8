"""A loopback HTTP stub of the OpenAI API for tests, plus canned response bodies with tool calls."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def chat_completion(
    tool_calls: Sequence[tuple[str, str, str | None]], content: str | None = None
) -> dict:
    """A Chat Completion whose first choice calls ``(call_id, name, arguments)`` in order."""
    message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None}
    if tool_calls:
        message["tool_calls"] = [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}
            for cid, name, args in tool_calls
        ]
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "gpt-test",
        "choices": [
            {"index": 0, "finish_reason": "tool_calls", "logprobs": None, "message": message}
        ],
    }


def responses_response(
    tool_calls: Sequence[tuple[str, str, str | None]], with_noise: bool = True
) -> dict:
    """A Responses response with reasoning and a message around ``(call_id, name, arguments)``."""
    output: list[dict[str, Any]] = []
    if with_noise:
        output.append({"type": "reasoning", "id": "rs_1", "summary": []})
    for i, (cid, name, args) in enumerate(tool_calls):
        output.append(
            {
                "type": "function_call",
                "id": f"fc_{i}",
                "call_id": cid,
                "name": name,
                "arguments": args,
                "status": "completed",
            }
        )
    if with_noise:
        output.append(
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "calling tools", "annotations": []}],
            }
        )
    return {
        "id": "resp_test",
        "object": "response",
        "created_at": 1_700_000_000,
        "model": "gpt-test",
        "status": "completed",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }


@dataclass
class Stub:
    """Recorded requests (path, parsed JSON body) and the queue of bodies to answer with."""

    port: int = 0
    requests: list[tuple[str, Any]] = field(default_factory=list)
    replies: list[dict] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


@contextmanager
def openai_stub() -> Iterator[Stub]:
    """Serve on an ephemeral loopback port; each POST is recorded and gets the next reply."""
    stub = Stub()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw.decode("utf-8", "replace")
            with stub.lock:
                stub.requests.append((self.path, body))
                reply = stub.replies.pop(0) if stub.replies else None
            if reply is None:
                payload = json.dumps({"error": {"message": "no canned reply", "type": "test"}})
                status = 500
            else:
                payload, status = json.dumps(reply), 200
            data = payload.encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stub.port = server.server_address[1]
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield stub
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
