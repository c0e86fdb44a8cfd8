"""JSON value semantics: equality as JSON Schema means it, merges that keep both sides, oneOf proofs
that cover every value, and limits counted on what is sent (issue 17 items 1 and 5, issue 21 items 1
and 2)."""

from __future__ import annotations

import pytest
from strategies import RULES, Judge

import toolcast


def compiled(schema: dict, rules: str | None = None, **opts):
    return toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, rules=rules, **opts)


def prop(x: dict, **extra) -> dict:
    """A root object whose one required property `x` has schema `x`."""
    return {"type": "object", "properties": {"x": x}, "required": ["x"], **extra}


def codes(result) -> set:
    return {d.code.split("/", 1)[1] for d in result.diagnostics}


def assert_exact(schema: dict, result, values: list) -> None:
    """`result` is strict and not lossy, and its compiled schema accepts {"x": v} exactly when the
    original does, for each of `values`."""
    assert result.status == "strict" and not result.lossy, (result.status, codes(result))
    orig, comp = Judge(schema), Judge(result.tool["parameters"])
    for v in values:
        assert orig.valid({"x": v}) == comp.valid({"x": v}), (v, result.tool["parameters"])


# The values JSON equality tells apart (true is not 1, 1 is 1.0) and some others.
SCALARS = [True, False, 1, 1.0, 0, 0.0, 2, "a", "b", "1", "true", None, [1], [True], {"a": 1}, {"a": True}]


# -- 17.1: JSON equality is not Python equality ------------------------------------------------

@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("parts", [
    [{"enum": [1, "a"]}, {"enum": [True, "a"]}],
    [{"enum": [True, "a"]}, {"enum": [1, "a"]}],
    [{"enum": [0, "a"]}, {"enum": [False, "a"]}],
    [{"enum": [1, 2]}, {"enum": [1.0, 2.0]}],
    [{"const": 1}, {"const": True}],
    [{"const": 1}, {"enum": [True, 1.0]}],
    [{"enum": [False, 0]}, {"const": 0.0}],
], ids=repr)
def test_all_of_values_compare_as_json(parts, rules):
    schema = prop({"allOf": parts})
    r = compiled(schema, rules)
    if not any(Judge(schema).valid({"x": v}) for v in SCALARS):
        assert r.status != "strict", r.tool  # unsatisfiable: refused, never sent as something wider
        return
    assert_exact(schema, r, SCALARS)


@pytest.mark.parametrize("rules", RULES)
def test_property_schemas_that_python_calls_equal_are_both_kept(rules):
    # {"const": 1} == {"const": True} in Python: the merge must not take one for the other.
    schema = prop({"allOf": [
        {"type": "object", "properties": {"k": {"enum": [1, 2]}}, "required": ["k"], "additionalProperties": False},
        {"type": "object", "properties": {"k": {"enum": [True, 2]}}, "required": ["k"], "additionalProperties": False},
    ]})
    r = compiled(schema, rules)
    assert r.status == "strict" and not r.lossy
    orig, comp = Judge(schema), Judge(r.tool["parameters"])
    for v in SCALARS:
        assert orig.valid({"x": {"k": v}}) == comp.valid({"x": {"k": v}}), v


@pytest.mark.parametrize("rules", RULES)
def test_ref_sibling_enum_compares_as_json(rules):
    schema = prop({"$ref": "#/$defs/C", "enum": [True, "a"]}, **{"$defs": {"C": {"enum": [1, "a"]}}})
    r = compiled(schema, rules)
    assert_exact(schema, r, SCALARS)


def test_json_key_is_the_one_equality():
    from toolcast.walk.semantics import json_equal, json_key

    same = [(1, 1.0), ([1, {"a": 2.0}], [1.0, {"a": 2}]), ({"a": [0]}, {"a": [0.0]}), ("x", "x"), (None, None)]
    different = [(1, True), (0, False), ([1], [True]), ({"a": 1}, {"a": True}), (None, False), ("1", 1), ([1, 2], [2, 1])]
    for a, b in same:
        assert json_key(a) == json_key(b) and json_equal(a, b), (a, b)
    for a, b in different:
        assert json_key(a) != json_key(b) and not json_equal(a, b), (a, b)


# -- 21.2: a merge keeps every constraint of both sides ----------------------------------------

@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("node, defs", [
    ({"$ref": "#/$defs/C", "enum": ["a", "b"]}, {"C": {"const": "b"}}),
    ({"$ref": "#/$defs/C", "const": "b"}, {"C": {"enum": ["a", "b"]}}),
    ({"$ref": "#/$defs/C", "enum": ["a"]}, {"C": {"const": "z"}}),
    ({"$ref": "#/$defs/C", "const": "a"}, {"C": {"const": "z"}}),
    ({"$ref": "#/$defs/C", "const": 1}, {"C": {"const": True}}),
    ({"allOf": [{"$ref": "#/$defs/C"}, {"enum": ["a", "b"]}]}, {"C": {"const": "b"}}),
    ({"$ref": "#/$defs/C", "type": "integer"}, {"C": {"type": "number", "minimum": 1}}),
    ({"$ref": "#/$defs/C", "type": "string"}, {"C": {"type": "string", "nullable": True}}),
    ({"$ref": "#/$defs/C", "nullable": True}, {"C": {"type": "string"}}),
    ({"allOf": [{"type": ["string", "null"]}, {"type": "string", "nullable": True}]}, {}),
    ({"allOf": [{"type": "string", "nullable": True}, {"type": "integer", "nullable": True}]}, {}),
    ({"allOf": [{"type": "string"}, {"type": "integer"}]}, {}),
], ids=repr)
def test_merge_keeps_both_sides(node, defs, rules):
    schema = prop(node, **({"$defs": defs} if defs else {}))
    r = compiled(schema, rules)
    # The original as toolcast reads it (OpenAPI `nullable: true` admits null) is the judge.
    from test_semantics_spot import openapi_nullable

    orig = Judge(openapi_nullable(schema))
    if not any(orig.valid({"x": v}) for v in SCALARS):
        assert r.status != "strict", r.tool  # unsatisfiable: refused, never sent as something wider
        assert "unsatisfiable-schema" in codes(r)
        return
    if r.status != "strict":
        # Sent as the original for a reason of the rule version (a keyword it lacks), not the merge.
        assert codes(r).isdisjoint({"ref-sibling-conflict", "unsatisfiable-schema"}), codes(r)
        return
    assert not r.lossy, codes(r)
    comp = Judge(r.tool["parameters"])
    for v in SCALARS + [1.5, 0.5, "z", ""]:
        assert orig.valid({"x": v}) == comp.valid({"x": v}), (v, r.tool["parameters"])
