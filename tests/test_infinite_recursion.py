"""A definition that reaches itself through `$ref` without a step into the value (anyOf branches,
merged allOf parts) stands for itself again: evaluating it against a value it rejects never ends,
and JSON Schema 2020-12 §9.4.1 leaves its meaning undefined. Found by tests/test_fuzz_compile.py
(jsonschema, checking the compiled schema, recursed without end): such a tool went out strict.
Recursion through a property or an item is the ordinary kind and stays strict."""

from __future__ import annotations

import pytest

import toolcast


def _tool(defs: dict, root_ref: str = "#/$defs/A") -> dict:
    return {"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"p": {"$ref": root_ref}}, "required": ["p"],
        "additionalProperties": False, "$defs": defs}}


def _errors(res) -> list[tuple[str, str]]:
    return [(d.code, d.path) for d in res.diagnostics if d.severity == "error"]


IN_PLACE = {
    "itself in an anyOf branch": {"A": {"anyOf": [{"type": ["string", "null"]}, {"$ref": "#/$defs/A"}]}},
    "itself in a oneOf branch": {"A": {"oneOf": [{"type": "integer"}, {"$ref": "#/$defs/A"}]}},
    "through another definition": {"A": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/B"}]},
                                   "B": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/A"}]}},
    "through a merged allOf part": {"A": {"allOf": [{"$ref": "#/$defs/B"}]},
                                    "B": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/A"}]}},
    "through a bare $ref to one that is not bare": {"A": {"$ref": "#/$defs/B"},
                                                     "B": {"anyOf": [{"type": "boolean"}, {"$ref": "#/$defs/A"}]}},
}


@pytest.mark.parametrize("label", list(IN_PLACE))
def test_recursion_in_place_is_refused_strict(label):
    defs = IN_PLACE[label]
    auto = toolcast.compile_tool(_tool(defs))
    assert auto.status == "non-strict"
    found = [path for code, path in _errors(auto) if code == "openai/infinite-recursion"]
    assert found and all(path.startswith("#/$defs/") for path in found), _errors(auto)
    # only definitions that are not a bare $ref are named (a bare one's cycle runs through the other)
    assert all(not (len(defs[path.split("/")[-1]]) == 1 and "$ref" in defs[path.split("/")[-1]]) for path in found)
    assert toolcast.compile_tool(_tool(defs), strict=True).status == "refused"
    # Every rule version that allows recursion refuses it; one that refuses all recursion reports that.
    for version in ("openai@2024-08-06", "openai@2025-11-30"):
        assert "openai/infinite-recursion" in {c for c, _ in _errors(toolcast.compile_tool(_tool(defs), rules=version))}
    codes = {c for c, _ in _errors(toolcast.compile_tool(_tool(defs), target="anthropic"))}
    assert "anthropic/recursive-schema" in codes and not any(c.endswith("/infinite-recursion") for c in codes)


GUARDED = {
    "a list of itself": {"A": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/A"}}]}},
    "a tree through a property": {"A": {"type": "object", "properties": {
        "kids": {"type": "array", "items": {"$ref": "#/$defs/A"}}}, "required": ["kids"], "additionalProperties": False}},
    "a linked list ending in null": {"A": {"type": "object", "properties": {
        "v": {"type": "integer"}, "next": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}},
        "required": ["v", "next"], "additionalProperties": False}},
    "a branch that descends": {"A": {"anyOf": [{"type": "integer"},
                                               {"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}},
                                                "required": ["x"], "additionalProperties": False}]}},
}


@pytest.mark.parametrize("label", list(GUARDED))
def test_recursion_through_a_property_or_an_item_stays_strict(label):
    res = toolcast.compile_tool(_tool(GUARDED[label]))
    assert "openai/infinite-recursion" not in {c for c, _ in _errors(res)}
    assert res.status == "strict", _errors(res)


def test_the_root_reached_through_a_property_is_ordinary_recursion():
    schema = {"type": "object", "properties": {"p": {"anyOf": [{"type": "string"}, {"$ref": "#"}]}},
              "required": ["p"], "additionalProperties": False}
    assert toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}).status == "strict"


def test_a_cycle_of_bare_refs_stays_unsatisfiable_only():
    res = toolcast.compile_tool(_tool({"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}))
    codes = [c for c, _ in _errors(res)]
    assert "openai/unsatisfiable-schema" in codes and "openai/infinite-recursion" not in codes
