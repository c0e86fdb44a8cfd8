"""Gemini API and Vertex AI function declarations: name, description and `parameters` (OpenAPI Schema subset) or `parametersJsonSchema`, in a `functionDeclarations` tool."""

from __future__ import annotations

from typing import Any

# `parameters` (the OpenAPI Schema subset, compiled under the <target>-parameters rule family) is
# the default; `json-schema` sends `parametersJsonSchema` (the <target> family).
APIS = ("parameters", "json-schema")
DEFAULT_API = "parameters"
# Input shapes whose schema already sits where this provider wants it (no rename is recorded).
NATIVE_SHAPES: tuple[str, ...] = ()
# The declaration field that carries the schema, by API.
FIELD = {"parameters": "parameters", "json-schema": "parametersJsonSchema"}


def emit(name: str, description: str | None, parameters: Any, strict: bool, api: str) -> dict:
    """One function declaration. There is no per-tool strict flag (function calling mode VALIDATED
    enforces a schema); the description is always sent, since the Gemini API requires it."""
    return {"name": name, "description": description if description is not None else "", FIELD[api]: parameters}


def schema_of(tool: dict) -> Any:
    """The parameters schema of a declaration this module emitted (either field)."""
    return tool["parameters"] if "parameters" in tool else tool["parametersJsonSchema"]


def request_tools(tools: list[dict]) -> list[dict]:
    """The request's `tools` value: one tool holding every function declaration."""
    return [{"functionDeclarations": list(tools)}] if tools else []
