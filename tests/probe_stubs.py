"""Loopback stubs of the Responses, Chat Completions, Messages and generateContent APIs for `toolcast probe` tests.

Each answer is a real response shape; errors carry the providers' real error documents and
messages (quoted in the team's provider fact sheet, shared/reference/provider-facts.md and
upstream.md). A test queues answers per path kind; every request is kept (path, headers, body).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# Rejections, as the providers word them.
OPENAI_ROOT = ("Invalid schema for function 'refund_order': schema must have type 'object' and not have "
               "'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level.")
ANTHROPIC_DRAFT = ("tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 "
                   "(https://json-schema.org/draft/2020-12).")
GEMINI_STATES = ("The specified schema produces a constraint that has too many states for serving. Typical causes "
                 "of this error are schemas with lots of text (for example, very long property or enum names), "
                 "schemas with long array length limits (especially when nested), or schemas using complex value "
                 "matchers (for example, integers or numbers with minimum/maximum bounds or strings with complex "
                 "formats like date-time)")
VERTEX_ANYOF = "Unable to submit request because it has an invalid value. When using anyOf, it must be the only field set."


def openai_error(status: int, message: str, kind: str, code: str | None = None, param: str | None = None) -> tuple:
    return status, {"error": {"message": message, "type": kind, "param": param, "code": code}}


def anthropic_error(status: int, kind: str, message: str) -> tuple:
    return status, {"type": "error", "error": {"type": kind, "message": message}, "request_id": "req_stub"}


def google_error(status: int, state: str, message: str, details: list | None = None) -> tuple:
    return status, {"error": {"code": status, "message": message, "status": state, **({"details": details} if details else {})}}


def responses_call(name: str, arguments: str, model: str = "gpt-5-mini-2025-08-07") -> tuple:
    return 200, {
        "id": "resp_stub", "object": "response", "created_at": 1765000000, "model": model, "status": "completed",
        "output": [
            {"type": "reasoning", "id": "rs_stub", "summary": []},
            {"type": "function_call", "id": "fc_stub", "call_id": "call_stub", "name": name, "arguments": arguments,
             "status": "completed"}],
        "parallel_tool_calls": True, "tool_choice": {"type": "function", "name": name}, "tools": [],
        "usage": {"input_tokens": 80, "output_tokens": 40, "total_tokens": 120,
                  "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 16}}}


def responses_text(text: str, status: str = "incomplete") -> tuple:
    return 200, {
        "id": "resp_stub", "object": "response", "created_at": 1765000000, "model": "gpt-5-mini-2025-08-07",
        "status": status, "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete" else None,
        "output": [{"type": "message", "id": "msg_stub", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]}],
        "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}


def chat_call(name: str, arguments: str) -> tuple:
    return 200, {
        "id": "chatcmpl-stub", "object": "chat.completion", "created": 1765000000, "model": "gpt-5-mini-2025-08-07",
        "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None, "message": {
            "role": "assistant", "content": None, "refusal": None,
            "tool_calls": [{"id": "call_stub", "type": "function", "function": {"name": name, "arguments": arguments}}]}}],
        "usage": {"prompt_tokens": 80, "completion_tokens": 20, "total_tokens": 100}}


def messages_call(name: str, arguments: dict) -> tuple:
    return 200, {
        "id": "msg_stub", "type": "message", "role": "assistant", "model": "claude-haiku-4-5-20251001",
        "content": [{"type": "tool_use", "id": "toolu_stub", "name": name, "input": arguments}],
        "stop_reason": "tool_use", "stop_sequence": None, "usage": {"input_tokens": 300, "output_tokens": 40}}


def gemini_call(name: str, arguments: dict) -> tuple:
    return 200, {
        "candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": name, "args": arguments}}]},
                        "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 60, "candidatesTokenCount": 12, "totalTokenCount": 72},
        "modelVersion": "gemini-2.5-flash", "responseId": "stub"}


CUT = "cut"  # an answer: close the connection without a response


class Stub:
    """A loopback HTTP server. `answers[kind]` is a list of (status, document[, headers]) or CUT,
    taken in order (the last one repeats); kind is responses, chat, messages, generate or token."""

    def __init__(self) -> None:
        self.answers: dict[str, list] = {}
        self.requests: list[tuple[str, dict, Any]] = []
        self.delay, self.in_flight, self.most_in_flight, self.lock = 0.0, 0, 0, threading.Lock()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

            def do_POST(self) -> None:
                n = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(n)
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                stub.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                with stub.lock:
                    stub.in_flight += 1
                    stub.most_in_flight = max(stub.most_in_flight, stub.in_flight)
                try:
                    time.sleep(stub.delay)  # (held, so that requests under way at once overlap)
                    self._answer(stub._next(self.path))
                finally:
                    with stub.lock:
                        stub.in_flight -= 1

            def _answer(self, answer: Any) -> None:
                if answer == CUT:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                status, doc, *rest = answer
                data = json.dumps(doc).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                for k, v in (rest[0] if rest else {}).items():
                    self.send_header(k, v)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def _next(self, path: str) -> Any:
        kind = ("chat" if path.endswith("/chat/completions") else "responses" if path.endswith("/responses")
                else "messages" if path.endswith("/messages") else "generate" if "generateContent" in path
                else "token")
        queue = self.answers.get(kind) or [(500, {"error": {"message": f"stub: no answer for {kind}"}})]
        return queue.pop(0) if len(queue) > 1 else queue[0]

    def env(self, tmp_path: Any = None) -> dict[str, str]:
        """Environment variables that point every SDK here, with keys that are not real."""
        env = {"OPENAI_API_KEY": "sk-test-not-a-real-key-0001", "OPENAI_BASE_URL": self.url + "/v1",
               "ANTHROPIC_API_KEY": "sk-ant-test-not-a-real-key", "ANTHROPIC_BASE_URL": self.url,
               "GEMINI_API_KEY": "gemini-test-not-a-real-key", "GOOGLE_GEMINI_BASE_URL": self.url,
               "GOOGLE_VERTEX_BASE_URL": self.url}
        if tmp_path is not None:  # Vertex AI: Application Default Credentials whose token comes from here
            # A service account's file names its token endpoint (an authorized user's is fixed to
            # Google's), so the SDK's real credential path runs against this stub.
            from cryptography.hazmat.primitives import serialization
            from cryptography.hazmat.primitives.asymmetric import rsa

            key = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
            adc = tmp_path / "adc.json"
            adc.write_text(json.dumps({"type": "service_account", "project_id": "stub-project",
                                       "private_key_id": "stub", "private_key": key.decode(),
                                       "client_email": "probe@stub-project.iam.gserviceaccount.com",
                                       "client_id": "1", "token_uri": self.url + "/token"}))
            env.update({"GOOGLE_APPLICATION_CREDENTIALS": str(adc), "GOOGLE_CLOUD_PROJECT": "stub-project",
                        "GOOGLE_CLOUD_LOCATION": "us-central1"})
            self.answers.setdefault("token", [(200, {"access_token": "ya29.stub", "expires_in": 3600,
                                                     "token_type": "Bearer"})])
        return env

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
