"""OpenAI's tool shapes: a function tool for the Responses API and for Chat Completions."""

from __future__ import annotations

from typing import Any, Literal

Api = Literal["responses", "chat"]
APIS = ("responses", "chat")


def emit(name: str, description: str | None, parameters: Any, strict: bool, api: str) -> dict:
    """The tool in the API's shape; `strict` is always present, false included."""
    fn: dict = {"name": name} if api == "chat" else {"type": "function", "name": name}
    if description is not None:
        fn["description"] = description
    fn["parameters"] = parameters
    fn["strict"] = strict
    return {"type": "function", "function": fn} if api == "chat" else fn
