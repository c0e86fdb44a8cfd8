"""What the proxy tells a client about a tool it could not compile strict: a `_meta` note for every
target and, where the target's wire says so (`proxy.mark_non_strict`: OpenAI's), a mark in the schema
that keeps a client's own strict conversion off it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["META_STRICT", "META_WHY", "NOT_STRICT_DEF", "mark_non_strict"]

#: `_meta` keys of a listed tool the proxy sent non-strict: False, and why (the blocking codes).
META_STRICT = "toolcast/strict"
META_WHY = "toolcast/not-strict-because"
#: The `$defs` entry that marks an OpenAI tool non-strict. Nothing refers to it, so it changes no
# value the schema accepts; it is an open object, which a strict conversion (openai-agents'
# ensure_strict_json_schema, openai-node's transform) refuses, so such a client sends the tool
# non-strict, as the proxy does, instead of making it strict with constraints it cannot carry.
NOT_STRICT_DEF = "toolcast-not-strict"


def _codes(result: Any) -> list[str]:
    return sorted({str(d.code) for d in result.diagnostics if d.outcome in ("refuses", "lossy")})


def _marks(target: str) -> bool:
    from toolcast.providers import EMITTERS

    emitter = EMITTERS.get(target)
    return emitter is not None and emitter.marks_non_strict


def mark_non_strict(entry: dict[str, Any], result: Any, target: str) -> None:
    """Mark the listed tool ``entry`` (an MCP tool dict) as sent non-strict, in place."""
    codes = _codes(result)
    why = ", ".join(codes) or f"status {result.status}"
    meta = dict(entry["_meta"]) if isinstance(entry.get("_meta"), Mapping) else {}
    meta[META_STRICT] = False
    meta[META_WHY] = codes or [f"status {result.status}"]
    entry["_meta"] = meta
    schema = entry.get("inputSchema")
    if not isinstance(schema, Mapping) or not _marks(target):
        return
    defs = schema.get("$defs")
    if defs is not None and not isinstance(defs, Mapping):
        return  # (not a schema's $defs: left as it is)
    schema = dict(schema)
    schema["$defs"] = {**(defs or {}), NOT_STRICT_DEF: {
        "type": "object",
        "additionalProperties": True,
        "description": f"Unused. toolcast sent this tool non-strict ({why}): do not convert it to strict.",
    }}
    entry["inputSchema"] = schema
