"""A small seeded instance generator for strict-mode schemas (the subset toolcast emits)."""

from __future__ import annotations

import random
import re
from typing import Any

FORMAT_EXAMPLES = {
    "date-time": "2026-11-30T04:05:06Z",
    "date": "2026-11-30",
    "time": "04:05:06Z",
    "duration": "P3D",
    "email": "a@example.com",
    "hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "uuid": "123e4567-e89b-42d3-a456-426614174000",
    # Not in OpenAI's list today; here so that a rule version adding one still gets valid values.
    "uri": "https://example.com/a",
    "uri-reference": "/a?b=1",
}
STRINGS = ["", "a", "abc", "hello world", "x" * 20, "A1", "zz"]


class Skip(Exception):
    """The generator cannot produce a value for this schema (e.g. an odd pattern)."""


def generate(schema: dict, rng: random.Random, root: dict | None = None, depth: int = 0) -> Any:
    root = root if root is not None else schema
    if depth > 12:
        raise Skip("too deep")
    if "$ref" in schema:
        ref = schema["$ref"]
        target = root if ref == "#" else root["$defs"][ref.split("/")[-1].replace("~1", "/").replace("~0", "~")]
        return generate(target, rng, root, depth + 1)
    if "anyOf" in schema:
        branches = list(schema["anyOf"])
        if depth > 4:  # prefer the shortest way out of recursion
            branches.sort(key=lambda b: b.get("type") != "null")
            return generate(branches[0], rng, root, depth + 1)
        return generate(rng.choice(branches), rng, root, depth + 1)
    if "const" in schema:
        return schema["const"]
    types = schema.get("type", [])
    types = types if isinstance(types, list) else [types]
    if "enum" in schema:
        values = [v for v in schema["enum"] if not types or _json_type(v) in types or (_json_type(v) == "integer" and "number" in types)]
        if not values:
            raise Skip("no enum value fits the type")
        return rng.choice(values)
    t = "null" if depth > 4 and "null" in types else rng.choice(types)
    if t == "null":
        return None
    if t == "boolean":
        return rng.random() < 0.5
    if t in ("integer", "number"):
        lo = schema.get("minimum", schema.get("exclusiveMinimum", -50))
        hi = schema.get("maximum", schema.get("exclusiveMaximum", 50))
        for _ in range(50):
            v = rng.randint(int(lo) - 1, int(hi) + 1) if t == "integer" else round(rng.uniform(lo, hi), 2)
            if _number_ok(schema, v):
                return v
        raise Skip("no number")
    if t == "string":
        if "format" in schema and schema["format"] not in FORMAT_EXAMPLES:
            raise Skip(f"no example value for format {schema['format']!r}")
        candidates = [FORMAT_EXAMPLES[schema["format"]]] if "format" in schema else STRINGS + ["".join(rng.choice("abcxyz019") for _ in range(rng.randint(1, 8)))]
        rng.shuffle(candidates)
        for c in candidates:
            if "pattern" in schema and not re.search(schema["pattern"], c):
                continue
            if len(c) < schema.get("minLength", 0) or len(c) > schema.get("maxLength", 10**9):
                continue
            return c
        raise Skip("no string")
    if t == "array":
        lo, hi = schema.get("minItems", 0), min(schema.get("maxItems", 3), 3 if depth < 3 else 1)
        if lo > hi:
            hi = lo
        return [generate(schema["items"], rng, root, depth + 1) for _ in range(rng.randint(lo, hi))]
    if t == "object":
        return {k: generate(v, rng, root, depth + 1) for k, v in schema.get("properties", {}).items()}
    raise Skip(f"type {t}")


def _number_ok(schema: dict, v: float) -> bool:
    if "minimum" in schema and v < schema["minimum"]:
        return False
    if "maximum" in schema and v > schema["maximum"]:
        return False
    if "exclusiveMinimum" in schema and v <= schema["exclusiveMinimum"]:
        return False
    if "exclusiveMaximum" in schema and v >= schema["exclusiveMaximum"]:
        return False
    m = schema.get("multipleOf")
    return not m or abs(v / m - round(v / m)) < 1e-9


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "integer" if v.is_integer() else "number"
    if isinstance(v, str):
        return "string"
    return "array" if isinstance(v, list) else "object"
