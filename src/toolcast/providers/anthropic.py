"""Anthropic's tool shape for the Messages API: name, description, input_schema, and `strict` only when sent strict."""

from __future__ import annotations

from typing import Any

APIS = ("messages",)
DEFAULT_API = "messages"
# Input shapes whose schema already sits where this provider wants it (no rename is recorded).
NATIVE_SHAPES = ("anthropic",)


def emit(name: str, description: str | None, parameters: Any, strict: bool, api: str) -> dict:
    """The tool in the Messages API's shape; `strict: true` only for a tool sent strict (absent means off)."""
    tool: dict = {"name": name}
    if description is not None:
        tool["description"] = description
    tool["input_schema"] = parameters
    if strict:
        tool["strict"] = True
    return tool


def schema_of(tool: dict) -> Any:
    """The parameters schema of a tool this module emitted."""
    return tool["input_schema"]


def request_tools(tools: list[dict]) -> list[dict]:
    """The request's `tools` value for these emitted tools."""
    return list(tools)
