"""Independent oracle: would Anthropic accept this emitted tool (strict tool use), and this request?

Written only from ``/work/shared/reference/provider-facts.md`` §2 (cited "PF §2.x") and §8
(property keys, top-level combinators, draft 2020-12). It imports nothing from toolcast, so it
can disagree with the compiler's rule tables.

``tool_violations(tool)`` -> list of (rule, path) for one emitted Messages API tool: its shape
and name always; for a tool with ``strict: true`` its ``input_schema`` under the strict subset.
``request_violations(tools)`` -> the request budgets (PF §2.4) over the tools sent strict.
Readings where the sheet is silent are the strictest ones: ``oneOf``, ``not``, ``if`` and the
``*Properties`` keywords are unlisted (the SDKs move them into the description), so a strict
schema holding them is a violation here.

The facts that a docs change can move (name and property-key rules, the tool's keys, the strict
subset's keywords, formats, `minItems` values, regex features, recursion, the budgets) are read from
``facts.py`` for the rule version the tool was compiled under: every entry point takes ``version``
(a date or "anthropic@date", a CompileResult's ``rules``; None is the newest reading).
"""

from __future__ import annotations

import re
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from . import facts as _facts
from .regex_features import uses_any

TYPES = {"object", "array", "string", "integer", "number", "boolean", "null"}


def _facts_of(version: str | None) -> _facts.Facts:
    return _facts.reading("anthropic", version)


def tool_violations(tool: Any, version: str | None = None) -> list[tuple[str, str]]:
    f = _facts_of(version)
    out: list[tuple[str, str]] = []
    if not isinstance(tool, dict):
        return [("tool-shape", "")]
    out += [("tool-unknown-key", k) for k in tool if k not in f.tool_keys]
    if not isinstance(tool.get("name"), str) or not re.fullmatch(f.name, tool["name"]):
        out.append(("name-invalid", "name"))
    if "description" in tool and not isinstance(tool["description"], str):
        out.append(("description-invalid", "description"))
    if "strict" in tool and tool["strict"] is not True:
        out.append(("strict-not-true", "strict"))  # toolcast sends strict only as true
    schema = tool.get("input_schema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return out + [("root-not-object", "input_schema")]  # PF §2.1
    try:
        # PF §8: even non-strict tools must be valid 2020-12 (the metaschema; `pattern`'s regex is
        # ECMA-262, which Python's re, jsonschema's format check, does not read: not checked here)
        _error = next(iter(Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(schema)), None)
        if _error is not None:
            raise SchemaError(_error.message)
    except SchemaError:
        out.append(("not-draft-2020-12", "input_schema"))
    out += [("property-key", p) for p, n in _walk(schema, "#") for k in _props(n)
            if not re.fullmatch(f.property_key, k)]
    if tool.get("strict") is True:
        out += violations(schema, version)
    return out


def violations(schema: dict, version: str | None = None) -> list[tuple[str, str]]:
    """What the strict subset of `version`'s reading rejects in an input_schema."""
    f = _facts_of(version)
    out = [("root-combinator", k) for k in ("anyOf", "oneOf", "allOf") if k in schema and k in f.root_combinators]
    defs = schema.get("$defs") or {}
    for path, node in _walk(schema, "#"):
        for k in node:
            if k not in f.allowed:
                out.append(("unsupported-keyword", f"{path}/{k}"))
        t = node.get("type")
        types = set(t) if isinstance(t, list) else {t}
        if "object" in types and node.get("additionalProperties") is not False:
            out.append(("additional-properties-not-false", path))  # PF §2.2
        if "minItems" in node and node["minItems"] not in f.min_items:
            out.append(("min-items", path))  # PF §2.3: only 0 or 1
        if "format" in node and node["format"] not in f.formats:
            out.append(("format", path))
        if isinstance(node.get("pattern"), str) and uses_any(node["pattern"], f.regex_unsupported):
            out.append(("regex-feature", path))
        if "enum" in node and any(isinstance(x, (dict, list)) for x in node["enum"]):
            out.append(("enum-complex", path))  # "Complex types within enums" unsupported
        if isinstance(node.get("items"), list):
            out.append(("items-tuple", path))
        if "allOf" in node and any(isinstance(b, dict) and "$ref" in b for b in node["allOf"]):
            out.append(("all-of-ref", path))  # "allOf with $ref not supported"
        ref = node.get("$ref")
        if ref is not None and not (isinstance(ref, str) and ref.startswith("#/$defs/") and _def_name(ref) in defs):
            out.append(("ref-not-local", path))  # external refs unsupported; `#` itself recurses
    if not f.recursion and _recursive(schema, defs):
        out.append(("recursive", "#"))  # PF §2.3: recursive schemas unsupported
    return out


def request_violations(tools: list[dict], version: str | None = None) -> list[tuple[str, int]]:
    """The request budgets over the strict tools (PF §2.4), with the request's total."""
    budgets = _facts_of(version).budgets
    strict = [t for t in tools if t.get("strict") is True]
    totals = {"strict-tools": len(strict),
              "optional-parameters": sum(optional_count(t["input_schema"]) for t in strict),
              "union-parameters": sum(union_count(t["input_schema"]) for t in strict)}
    return [(k, v) for k, v in totals.items() if v > budgets[k]]


def optional_count(schema: dict) -> int:
    return sum(len([k for k in _props(n) if k not in (n.get("required") or [])]) for _, n in _walk(schema, "#"))


def union_count(schema: dict) -> int:
    return sum(1 for _, n in _walk(schema, "#") if "anyOf" in n or isinstance(n.get("type"), list))


def _props(node: dict) -> list:
    p = node.get("properties")
    return list(p) if isinstance(p, dict) else []


def _walk(node: Any, path: str):
    """(JSON pointer, node) for every dict subschema (properties, items, anyOf/allOf, $defs, ...)."""
    stack = [(path, node)]
    while stack:
        p, n = stack.pop()
        if not isinstance(n, dict):
            continue
        yield p, n
        for key in ("properties", "$defs", "definitions", "patternProperties"):
            if isinstance(n.get(key), dict):
                stack += [(f"{p}/{key}/{k}", v) for k, v in n[key].items()]
        for key in ("items", "additionalProperties", "not", "if", "then", "else", "contains"):
            if isinstance(n.get(key), dict):
                stack.append((f"{p}/{key}", n[key]))
        for key in ("anyOf", "allOf", "oneOf", "prefixItems"):
            if isinstance(n.get(key), list):
                stack += [(f"{p}/{key}/{i}", v) for i, v in enumerate(n[key])]


def _recursive(schema: dict, defs: dict) -> bool:
    """Whether the root or a definition reaches itself through $refs."""
    def refs(n: Any) -> set[str]:
        found = set()
        for _, node in _walk(n, "#"):
            r = node.get("$ref")
            if r == "#":
                found.add("")
            elif isinstance(r, str) and r.startswith("#/$defs/"):
                found.add(_def_name(r))
        return found

    body = {k: v for k, v in schema.items() if k != "$defs"}
    graph = {"": refs(body), **{k: refs(v) for k, v in defs.items()}}
    for start in graph:
        seen, todo = set(), list(graph[start])
        while todo:
            n = todo.pop()
            if n == start:
                return True
            if n not in seen and n in graph:
                seen.add(n)
                todo += graph[n]
    return False


def _def_name(ref: str) -> str:
    """The definition a `#/$defs/...` reference names: its pointer token percent-decoded, then
    unescaped (`~1` is `/`, `~0` is `~`; RFC 6901, as JSON Schema reads a URI fragment)."""
    from urllib.parse import unquote

    return unquote(ref[8:]).replace("~1", "/").replace("~0", "~")
