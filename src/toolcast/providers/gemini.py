"""Gemini API and Vertex AI function declarations: name, description and parametersJsonSchema, in a `functionDeclarations` tool."""

from __future__ import annotations

from typing import Any

# The JSON Schema dialect (`parametersJsonSchema`); the OpenAPI `parameters` Schema is not built yet.
APIS = ("json-schema",)
DEFAULT_API = "json-schema"
# Input shapes whose schema already sits where this provider wants it (no rename is recorded).
NATIVE_SHAPES: tuple[str, ...] = ()


def emit(name: str, description: str | None, parameters: Any, strict: bool, api: str) -> dict:
    """One function declaration. There is no per-tool strict flag (function calling mode VALIDATED
    enforces a schema); the description is always sent, since the Gemini API requires it."""
    return {"name": name, "description": description if description is not None else "",
            "parametersJsonSchema": parameters}


def schema_of(tool: dict) -> Any:
    """The parameters schema of a declaration this module emitted."""
    return tool["parametersJsonSchema"]


def request_tools(tools: list[dict]) -> list[dict]:
    """The request's `tools` value: one tool holding every function declaration."""
    return [{"functionDeclarations": list(tools)}] if tools else []
