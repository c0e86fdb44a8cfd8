"""OpenAI target: its tool shapes (emit) and `strict_schema` here; the run-time loop (tools, tool_calls, tool_output) lazily."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolcast.compile import chosen_walk, optional_null_mode
from toolcast.model import NullPath, StrictSchemaError, ToolcastError, expanded, pointer
from toolcast.providers import target as _target
from toolcast.rules import Rules, get_rules
from toolcast.walk import walk_schema, without_cycle_gc

__all__ = ["APIS", "StrictSchemaError", "WholeToolError", "emit", "strict_schema", "tool_calls", "tool_output", "tools"]

# The APIs spec/openai's `wire:` names, default first.
APIS = _target("openai").APIS  # type: ignore[union-attr]
_RUNTIME = ("tools", "tool_calls", "tool_output", "ToolCall", "ToolsReport", "StrictIssue")


def emit(name: str, description: str | None, parameters: Any, strict: bool, api: str) -> dict:
    """The tool in the API's shape; `strict` is always present, false included."""
    return _target("openai").emit(name, description, parameters, strict, api)  # type: ignore[union-attr]


def strict_schema(schema: Any, rules: str | Rules | None = None,
                  optional_null: str = "value") -> tuple[dict, tuple[NullPath, ...]]:
    """The strict form of a parameters schema and its null paths (`optional_null` as for
    compile_tool: with "omit", the null it strips is a loss this call accepts).

    Raises StrictSchemaError (path, keyword_or_limit, code) when the schema cannot be made
    strict without a refusal or a lossy change; its `diagnostics` lists every finding. The walk
    runs with Python's cycle collector paused, as compile_tool's does for a large schema.

    A whole tool (an MCP, OpenAI, Chat or Anthropic tool, whose schema sits in one of its
    fields) raises WholeToolError: read as a schema, its fields are no keywords, and the
    parameters would vanish without a word.
    """
    _refuse_whole_tool(schema)
    r = get_rules(rules)
    walk = chosen_walk(r, optional_null_mode(optional_null))
    walk.builds_refused = False  # a refused schema raises: its strict form is never returned
    out = without_cycle_gc(walk_schema, walk, schema)
    diags = expanded(walk.diags, r.optional_codes)
    chosen = {r.patterns["explicit-null-stripped"]} if walk.optional_null == "omit" else set()
    blocking = [d for d in diags if r.diagnostics[d[0]][1] in ("refuses", "lossy") and d[0] not in chosen]
    lossy = [t for t in walk.trans if t[0] in walk.lossy_codes]
    if blocking or lossy:
        code, base, tokens, params = blocking[0] if blocking else (lossy[0][0], lossy[0][1], lossy[0][2], ())
        p = dict(params)
        subject = p.get("keyword") or _limit_name(r, code) or (str(tokens[-1]) if tokens else "type")
        message = r.diagnostics[code][2].format_map(_Default(p)) if code in r.diagnostics else r.transformations[code][1]
        raise StrictSchemaError(pointer(base, tokens), subject, code, message, tuple(diags))
    return out, walk.null_paths


class WholeToolError(ToolcastError, TypeError):
    """strict_schema was given a whole tool where it takes the tool's parameters schema."""


# A tool's field that holds its schema, and what to pass instead (a schema has no such keyword).
_TOOL_FIELDS = {"inputSchema": "tool['inputSchema']", "input_schema": "tool['input_schema']",
                "parametersJsonSchema": "tool['parametersJsonSchema']"}


def _refuse_whole_tool(value: Any) -> None:
    if not isinstance(value, Mapping):
        return
    field = next((k for k in _TOOL_FIELDS if k in value), None)
    if field is not None:
        instead = _TOOL_FIELDS[field]
    elif value.get("type") == "function" and isinstance(value.get("function"), Mapping):
        field, instead = "function", "tool['function']['parameters']"
    elif "parameters" in value and "name" in value:
        field, instead = "parameters", "tool['parameters']"
    else:
        return
    raise WholeToolError(
        f"strict_schema takes a parameters schema, and this is a whole tool (its schema is in "
        f"`{field}`): pass {instead}, or compile the tool with toolcast.compile_tool")


def _limit_name(r: Rules, code: str) -> str | None:
    for name, entry in sorted(r.limits.items()):
        if entry.code == code and entry.counts != "enum-size":
            return name
    return None


class _Default(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def __getattr__(name: str) -> Any:
    # The run-time loop lives in its own module so that compiling never imports it.
    if name in _RUNTIME:
        from toolcast.providers import openai as runtime

        return getattr(runtime, name)
    raise AttributeError(f"module 'toolcast.openai' has no attribute {name!r}")
