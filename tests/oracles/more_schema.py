"""Schema helpers shared by the oracles of the providers added in issue 40 (mcp, deepseek, xai, bedrock,
mistral). Written from JSON Schema itself (2020-12 and draft-07 metaschemas, RFC 6901 pointers); imports
nothing from toolcast, so the oracles built on it can disagree with the compiler.

``walk(schema)`` yields (JSON pointer, node) for every dict subschema through every applicator;
``ref_violations(schema, allow)`` checks each ``$ref`` is a local pointer that resolves;
``metaschema_violations(schema, draft)`` checks the schema against the 2020-12 or draft-07 metaschema.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

from jsonschema import (
    Draft4Validator,
    Draft6Validator,
    Draft7Validator,
    Draft201909Validator,
    Draft202012Validator,
)

_MAPS = ("properties", "patternProperties", "$defs", "definitions", "$def", "dependentSchemas")
_ONE = ("additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
        "unevaluatedProperties", "unevaluatedItems", "additionalItems")
_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_META = {name: cls(cls.META_SCHEMA) for name, cls in (
    ("2020-12", Draft202012Validator), ("2019-09", Draft201909Validator), ("draft-07", Draft7Validator),
    ("draft-06", Draft6Validator), ("draft-04", Draft4Validator))}
# The same, with the metaschema's `format`s asserted, as jsonschema's check_schema does since 4.17
# (the draft-07 and 2020-12 metaschemas give `pattern` and `patternProperties` names `format: regex`).
_META_FORMATS = {name: cls(cls.META_SCHEMA, format_checker=cls.FORMAT_CHECKER) for name, cls in (
    ("2020-12", Draft202012Validator), ("draft-07", Draft7Validator))}
_VERDICTS: dict[tuple[str, str, bool], list[tuple[str, str]]] = {}
_MISSING = object()


def esc(token: Any) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def walk(schema: Any, path: str = "#") -> Iterator[tuple[str, dict]]:
    """(pointer, node) for every dict subschema, the root included."""
    stack = [(path, schema)]
    while stack:
        at, node = stack.pop()
        if not isinstance(node, dict):
            continue
        yield at, node
        for key in _MAPS:
            if isinstance(node.get(key), dict):
                stack += [(f"{at}/{esc(key)}/{esc(k)}", v) for k, v in node[key].items()]
        for key in _ONE:
            if isinstance(node.get(key), dict):
                stack.append((f"{at}/{key}", node[key]))
        for key in _LISTS:
            if isinstance(node.get(key), list):
                stack += [(f"{at}/{key}/{i}", v) for i, v in enumerate(node[key])]
        items = node.get("items")
        if isinstance(items, dict):
            stack.append((f"{at}/items", items))
        elif isinstance(items, list):
            stack += [(f"{at}/items/{i}", v) for i, v in enumerate(items)]


def types_of(node: dict) -> set:
    t = node.get("type")
    return set(t) if isinstance(t, list) else ({t} if isinstance(t, str) else set())


def properties_of(node: dict) -> dict:
    p = node.get("properties")
    return p if isinstance(p, dict) else {}


def resolve(doc: Any, ref: str) -> Any:
    """The node a `#` / `#/...` pointer names in `doc`, or _MISSING."""
    node = doc
    for token in ref[2:].split("/") if ref != "#" else []:
        token = urllib.parse.unquote(token).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return _MISSING
    return node if isinstance(node, (dict, bool)) else _MISSING


def ref_violations(schema: Any) -> list[tuple[str, str]]:
    """Every `$ref` a local JSON pointer (`#` or `#/...`) that names a schema in this document."""
    out = []
    for at, node in walk(schema):
        if "$ref" not in node:
            continue
        ref = node["$ref"]
        if not (isinstance(ref, str) and (ref == "#" or ref.startswith("#/"))):
            out.append(("ref-not-local", at))
        elif resolve(schema, ref) is _MISSING:
            out.append(("ref-unresolvable", at))
    return out


def metaschema_violations(schema: Any, draft: str = "2020-12", formats: bool = False) -> list[tuple[str, str]]:
    """The first metaschema error of `schema` under `draft` ("2020-12" or "draft-07"), as (rule, pointer);
    with `formats`, the metaschema's formats asserted (jsonschema's check_schema: `pattern` must compile)."""
    try:
        key = (draft, json.dumps(schema, sort_keys=True, allow_nan=False), formats)
    except (TypeError, ValueError):
        return [(f"not-{draft}", "#")]
    found = _VERDICTS.get(key)
    if found is None:
        error = next(iter((_META_FORMATS if formats else _META)[draft].iter_errors(schema)), None)
        found = [] if error is None else [(f"not-{draft}", "#" + "".join(f"/{esc(p)}" for p in error.absolute_path))]
        _VERDICTS[key] = found
    return found


def reference_graph_cycle(schema: dict) -> bool:
    """Whether some local reference target reaches itself through `$ref`s (the root, `#`, included)."""
    edges: dict[str, set[str]] = {}
    targets = {"#": schema}
    for _, node in walk(schema):
        ref = node.get("$ref")
        if isinstance(ref, str) and (ref == "#" or ref.startswith("#/")):
            targets.setdefault(ref, resolve(schema, ref))
    for ref, target in targets.items():
        if target is _MISSING:
            continue
        found = set()
        for _, node in walk(target):
            r = node.get("$ref")
            if isinstance(r, str) and (r == "#" or r.startswith("#/")):
                found.add(r)
        edges[ref] = found
    for start in edges:
        seen, todo = set(), list(edges[start])
        while todo:
            n = todo.pop()
            if n == start:
                return True
            if n not in seen:
                seen.add(n)
                todo += edges.get(n, ())
    return False
