"""OpenAI's tool shapes: a function tool for the Responses API and for Chat Completions."""

from __future__ import annotations

from typing import Any, Literal

Api = Literal["responses", "chat"]
APIS = ("responses", "chat")
DEFAULT_API = "responses"
# Input shapes whose schema already sits where this provider wants it (no rename is recorded).
NATIVE_SHAPES = ("openai", "chat")


def emit(name: str, description: str | None, parameters: Any, strict: bool, api: str) -> dict:
    """The tool in the API's shape; `strict` is always present, false included."""
    fn: dict = {"name": name} if api == "chat" else {"type": "function", "name": name}
    if description is not None:
        fn["description"] = description
    fn["parameters"] = parameters
    fn["strict"] = strict
    return {"type": "function", "function": fn} if api == "chat" else fn


def schema_of(tool: dict) -> Any:
    """The parameters schema of a tool this module emitted (either API)."""
    return tool["function"]["parameters"] if "function" in tool else tool["parameters"]


def request_tools(tools: list[dict]) -> list[dict]:
    """The request's `tools` value for these emitted tools."""
    return list(tools)
