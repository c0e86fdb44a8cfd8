"""Golden cases: read them, build their inputs (including generated large schemas) and compile them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import toolcast
from toolcast.model import null_path_to_json
from toolcast.rules import get_rules

GOLDEN = Path(__file__).resolve().parent / "golden"
TOPICS = ("tools", "objects", "nullability", "keywords", "composition", "refs", "subschemas", "limits")


def generate(spec: dict) -> dict:
    """Large schemas described in a line, so that limit goldens stay small and readable."""
    kind, n = spec["kind"], spec["count"]
    if kind == "properties":
        return {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(n)},
                "required": [f"p{i}" for i in range(n)], "additionalProperties": False}
    if kind == "depth":
        # n levels of objects: the root is level 1.
        node: dict = {"type": "string"}
        node = {"type": "object", "properties": {"leaf": node}, "required": ["leaf"], "additionalProperties": False}
        for _ in range(n - 1):
            node = {"type": "object", "properties": {"c": node}, "required": ["c"], "additionalProperties": False}
        return node
    if kind == "enum":
        return {"type": "object", "properties": {"e": {"type": "integer", "enum": list(range(n))}},
                "required": ["e"], "additionalProperties": False}
    if kind == "large-enum":
        chars = spec["chars"]
        base, extra = divmod(chars, n)
        values = [f"{i:04d}".ljust(base + (1 if i < extra else 0), "x") for i in range(n)]
        assert sum(map(len, values)) == chars and len(set(values)) == n
        return {"type": "object", "properties": {"e": {"type": "string", "enum": values}},
                "required": ["e"], "additionalProperties": False}
    if kind == "chars":
        # property names of 100 characters each plus one name for the remainder
        names = []
        total = 0
        i = 0
        while total < n:
            size = min(100, n - total)
            name = f"{i:06d}".ljust(size, "n") if size >= 6 else "abcdefghij"[:size] + ""
            names.append(name)
            total += len(name)
            i += 1
        assert total == n and len(set(names)) == len(names)
        return {"type": "object", "properties": {k: {"type": "boolean"} for k in names},
                "required": names, "additionalProperties": False}
    raise ValueError(f"unknown generator {kind!r}")


def case_tools(case: dict) -> list:
    if "tools" in case:
        return case["tools"]
    if "tool" in case:
        return [case["tool"]]
    schema = generate(case["generate"]) if "generate" in case else case["schema"]
    return [{"name": "t", "description": "Golden case.", "parameters": schema}]


def actual(case: dict, version: str, provider: str = "openai") -> Any:
    opts = case.get("options", {})
    r = get_rules(f"{provider}@{version}")  # a rule family compiles its own target and API
    if r.api is not None:
        opts = {**opts, "api": r.api}
    results = toolcast.compile_tools(case_tools(case), target=r.target, rules=r.id, **opts)
    out = [summarise(r, keep_tool="generate" not in case) for r in results]
    return out if "tools" in case else out[0]


def summarise(r: toolcast.CompileResult, keep_tool: bool = True) -> dict:
    d = {
        "status": r.status,
        "null_paths": [null_path_to_json(p) for p in r.null_paths],
        "diagnostics": [[x.code, x.path] for x in r.diagnostics],
        "transformations": [[x.code, x.path, x.lossy] for x in r.transformations],
    }
    if keep_tool:
        d["tool"] = r.tool
    return d


def load_file(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def write_file(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def sent_rewrites(result) -> list:
    """The rewrites a non-strict result records as applied to its sent schema (toolcast.sendable: the
    original made acceptable to the provider), beside the rename of its field and a typed root."""
    return [t for t in result.transformations if t.applied and t.code not in
            ("renamed-input-schema-to-parameters", "inferred-type", "narrowed-root-to-object")]


def sent_original(schema):
    """The original schema as a non-strict tool is sent with it: as it was, but for a root that says no
    `type`, which gains `type: object` (README, Policy)."""
    if schema is True:
        return {"type": "object", "properties": {}}
    if isinstance(schema, dict) and "type" not in schema:
        return {"type": "object", **schema}
    return schema
