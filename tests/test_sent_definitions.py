"""The form sent without strict holds no `definitions`: draft-07's name is `$defs` there, where a
name both hold is given a new one, and every reference still names the schema it named (a provider
reads `definitions` as no keyword, so a `$ref` into it names nothing: the oracle's `ref-not-local`)."""

from __future__ import annotations

import copy

import pytest
from oracles.sent import sent_violations
from sent_support import TARGETS, label

import toolcast
from toolcast.sent_refs import as_fresh
from toolcast.tool_input import resolve_target
from toolcast.walk.values import ref_pointer

# `definitions` and `$defs` that share names (one of them also taken by a name made `_2`), a
# definition referring to another, references spelled with percent escapes and JSON-pointer escapes,
# and a reference into `$defs` beside them.
COLLIDING = {
    "type": "object",
    "properties": {
        "a": {"$ref": "#/definitions/A"}, "b": {"$ref": "#/definitions/B"}, "c": {"$ref": "#/$defs/A"},
        "d": {"$ref": "#/definitions/%41"}, "e": {"$ref": "#/definitions/x~1y"}, "f": {"$ref": "#/$defs/A_2"},
        "g": {"type": "object"},
    },
    "required": ["a", "b", "c", "d", "e", "f"],
    "$defs": {"A": {"type": "integer"}, "A_2": {"type": "null"}, "x/y": {"type": "boolean"}},
    "definitions": {"A": {"type": "object", "properties": {"m": {"$ref": "#/definitions/B"}}},
                    "B": {"type": "object", "properties": {"n": {"$ref": "#/definitions/A"}}},
                    "x/y": {"type": "number"}},
}


def _target(root: dict, ref: str) -> object:
    node: object = root
    for token in ref_pointer(ref):
        node = node[token]  # type: ignore[index]
    return node


def _same(root_a: dict, a: object, root_b: dict, b: object, depth: int = 4) -> bool:
    """Whether `a` (in `root_a`) and `b` (in `root_b`) are the same schema, each `$ref` read as
    the schema it names (to `depth` references deep), however it is spelled (an object stated open,
    `additionalProperties: true`, is the same as one that says nothing of other keys)."""
    if isinstance(a, dict) and "$ref" in a and isinstance(b, dict) and "$ref" in b:
        return depth == 0 or _same(root_a, _target(root_a, a["$ref"]), root_b, _target(root_b, b["$ref"]), depth - 1)
    if isinstance(a, dict) and isinstance(b, dict):
        if a.get("additionalProperties") is True and "additionalProperties" not in b:
            a = {k: v for k, v in a.items() if k != "additionalProperties"}  # (stated open: the same schema)
        return a.keys() == b.keys() and all(_same(root_a, a[k], root_b, b[k], depth) for k in a)
    return a == b


def _sent_params(result: toolcast.CompileResult) -> dict:
    tool = result.tool
    for key in ("parameters", "input_schema", "inputSchema", "parametersJsonSchema", "input_schema"):
        if key in tool:
            return tool[key]
        if "function" in tool and key in tool["function"]:
            return tool["function"][key]
    if "toolSpec" in tool:
        return tool["toolSpec"]["inputSchema"]["json"]
    raise AssertionError(f"no parameters in {tool}")


@pytest.mark.parametrize("target,api", TARGETS, ids=[label(t, a) for t, a in TARGETS])
def test_colliding_definitions_are_sent_under_new_names_each_reference_naming_what_it_named(target, api):
    schema = copy.deepcopy(COLLIDING)
    result = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, api=api)
    assert schema == COLLIDING
    rules = resolve_target(target, api, None)[2]
    if not rules.sends_original:  # (the walk refuses the strict form, conflicting-definitions-keywords: nothing else goes)
        assert result.status == "refused"
        return
    assert result.status == "non-strict"
    sent = _sent_params(result)
    if rules.policy.get("sent_references") != "local":
        pytest.skip(f"{label(target, api)} sends references as they are")
    assert "definitions" not in sent
    for name, prop in COLLIDING["properties"].items():
        if "$ref" in prop:
            ref = sent["properties"][name]["$ref"]
            assert ref.startswith("#/$defs/") and len(ref_pointer(ref)) == 2, ref
            assert _same(sent, sent["properties"][name], COLLIDING, prop), name
    assert sent_violations(result.tool, target, api, result.status, result.rules) == []
    # (each repointed reference is recorded where it now stands in the form sent)
    repointed = [t.path for t in result.transformations if t.code == "rewrote-definitions-reference" and t.applied]
    assert len(repointed) == 6 and all(_target(sent, path).startswith("#/$defs/") for path in repointed), repointed
    renamed = [t for t in result.transformations if t.code == "renamed-definitions-to-defs" and t.applied]
    assert len(renamed) == 1 and "'A' as 'A_3'" in renamed[0].detail and "'x/y' as 'x/y_2'" in renamed[0].detail


def test_fresh_names_are_taken_by_neither_map_nor_each_other():
    old = {"A": 1, "A_2": 2, "B": 3, "C": 4}
    defs = {"A": 0, "A_3": 0, "B": 0, "B_2": 0}
    assert as_fresh(old, defs) == {"A": "A_4", "B": "B_3"}
    assert as_fresh({"A": 1}, {"B": 2}) == {}
