"""Spot checks of meaning: strict, non-lossy compiles accept what the original did, and no more.

For golden cases and corpus tools that compile strict without loss: instances generated from the
compiled schema are valid there; after strip_nulls they are valid under the original schema
(nothing wider was sent); filling the nulls back in gives an instance the compiled schema
accepts (the original's instance survives the round trip). The fuller property-based proof
lives in test_fidelity.py.
"""

from __future__ import annotations

import json
import random

import pytest
from corpus_paths import BFCL, MCP
from golden_support import TOPICS, case_tools, resolved
from instances import Skip, generate
from oracles.openai_strict import validate_instance

import toolcast
from toolcast.compile import read_tool


def _golden_tools():
    for topic in TOPICS:
        if topic == "limits":
            continue
        for case in resolved("openai", "2026-10-17", topic).values():  # every case, as that version has it
            opts = case.data.get("options", {})
            if opts.get("strict") is False:
                continue
            for tool in case_tools(case.data):
                yield pytest.param(tool, opts, id=f"{topic}:{case.description[:50]}")


def openapi_nullable(schema):
    """The original as OpenAPI 3.0.3 defines it: `nullable: true` admits null only beside an
    explicit `type` (not beside `$ref`), and an `enum` or `const` without null still rejects it."""
    if isinstance(schema, list):
        return [openapi_nullable(x) for x in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: openapi_nullable(v) for k, v in schema.items()}
    if out.pop("nullable", None) is True and "$ref" not in out:
        t = out.get("type")
        enum_rejects = isinstance(out.get("enum"), list) and None not in out["enum"]
        const_rejects = "const" in out and out["const"] is not None
        if not (enum_rejects or const_rejects):
            if isinstance(t, str):
                out["type"] = [t, "null"]
            elif isinstance(t, list) and "null" not in t:
                out["type"] = [*t, "null"]
    return out


def _check(tool: dict, opts: dict, samples: int = 12) -> int:
    r = toolcast.compile_tool(tool, **{k: v for k, v in opts.items() if k != "api"})
    if r.status != "strict" or r.lossy:
        return 0
    original = openapi_nullable(read_tool(tool)[2] or {"type": "object"})
    compiled = r.tool["parameters"]
    rng = random.Random(20261130)
    checked = 0
    for _ in range(samples):
        try:
            sent = generate(compiled, rng)
        except Skip:
            continue
        assert validate_instance(compiled, sent), (sent, compiled)
        received = toolcast.strip_nulls(sent, r.null_paths)
        assert validate_instance(original, received), ("stripped instance rejected by the original", sent, received)
        refilled = toolcast.fill_nulls(received, r.null_paths)
        assert validate_instance(compiled, refilled), ("original instance not sendable", received, refilled)
        checked += 1
    return checked


@pytest.mark.parametrize("tool,opts", list(_golden_tools()))
def test_golden_tools_keep_their_meaning(tool: dict, opts: dict) -> None:
    _check(tool, opts)


def test_corpus_tools_keep_their_meaning() -> None:
    checked = 0
    rng = random.Random(7)
    lines = MCP.read_text(encoding="utf-8").splitlines() + rng.sample(BFCL.read_text(encoding="utf-8").splitlines(), 400)
    for line in lines:
        checked += _check(json.loads(line), {}, samples=3)
    assert checked > 800


@pytest.mark.parametrize("values, exclusive", [
    ([1, 1.0], False),  # one JSON value: it matches both branches, so oneOf rejects it and anyOf would not
    ([[1], [1.0]], False),
    ([{"a": 1}, {"a": 1.0}], False),
    ([1, True], True),  # true is not 1
    (["1", 1], True),
    ([{"a": 1}, {"a": 2}], True),
])
def test_one_of_consts_are_exclusive_only_when_their_values_differ_as_json(values: list, exclusive: bool) -> None:
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"v": {"oneOf": [{"const": x} for x in values]}}, "required": ["v"],
        "additionalProperties": False}})
    codes = {d.code for d in res.diagnostics}
    assert ("openai/one-of-exclusive-converted" in codes) is exclusive
    assert ("openai/one-of-converted-to-any-of" in codes) is not exclusive
