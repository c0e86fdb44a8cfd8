"""Merges and inlining (walk.combinators): a definition met again inside its own inlining is refused
at once, and the work a compile does for its merges stays linear in the schema's size."""

from __future__ import annotations

import pytest

import toolcast

# (target, api) -> the code a definition reaching itself through its own inlining gets when it never
# descends into a property or an item first, and when it does (where recursion is allowed, the
# inlining itself has no end).
RECURSION_CODES = {
    ("openai", None): ("openai/infinite-recursion", "openai/inlined-schema-too-large"),
    ("gemini", "parameters"): ("gemini/recursive-schema", "gemini/recursive-schema"),
    ("vertex", "parameters"): ("vertex/recursive-schema", "vertex/recursive-schema"),
    ("gemini", "json-schema"): ("gemini/recursive-schema", "gemini/recursive-schema"),
}


def compile_params(schema: dict, target: str = "openai", api: str | None = None) -> toolcast.CompileResult:
    return toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, target=target, api=api)


def _records(res: toolcast.CompileResult) -> int:
    return len(res.diagnostics) + len(res.transformations)


# A definition inlined with a sibling (it cannot stay a bare `$ref`) whose content leads back to the
# same `$ref`: written out, it never ends. Each used to be unfolded until the nesting guard (48 levels
# of findings, schema-too-deep), or, with two such branches, without end (2**depth nodes).
SELF_INLINING = {
    "anyOf of itself, a sibling beside the $ref": (False, {
        "type": "object", "properties": {"b": {"$ref": "#/$defs/A", "maxLength": 2}}, "required": ["b"],
        "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]}}}),
    "allOf of itself, under an anyOf with a sibling": (False, {
        "type": "object", "properties": {"b": {"anyOf": [{"allOf": [{"$ref": "#/$defs/A"}]}], "maxLength": 2}},
        "required": ["b"],
        "$defs": {"A": {"anyOf": [{"allOf": [{"$ref": "#/$defs/A"}]}, {"type": "string"}], "minLength": 1}}}),
    "a property that is the definition with a sibling": (True, {
        "type": "object", "properties": {"b": {"$ref": "#/$defs/R"}}, "required": ["b"],
        "$defs": {"R": {"type": "object", "required": ["x"], "properties": {
            "x": {"anyOf": [{"$ref": "#/$defs/R", "required": ["x", "y"]}, {"type": "null"}]},
            "y": {"type": "string"}}}}}),
    "an item that is an allOf of the definition with a sibling": (True, {
        "type": "object", "properties": {"b": {"$ref": "#/$defs/R"}}, "required": ["b"],
        "$defs": {"R": {"type": "array", "items": {"allOf": [{"$ref": "#/$defs/R"}], "maxItems": 3}}}}),
}


@pytest.mark.parametrize("target", list(RECURSION_CODES), ids=lambda t: "-".join(filter(None, t)))
@pytest.mark.parametrize("case", list(SELF_INLINING))
def test_a_definition_met_again_inside_its_own_inlining_is_refused_at_once(case, target):
    descends, schema = SELF_INLINING[case]
    res = compile_params(schema, *target)
    codes = [d.code for d in res.diagnostics]
    assert res.status != "strict"
    assert RECURSION_CODES[target][descends] in codes, codes
    # Found at the first repeat: a level or two of findings, not one per level of an unfolding.
    assert _records(res) < 30, codes
    assert not any(c.endswith("/schema-too-deep") for c in codes), codes


def test_a_definition_inlined_twice_side_by_side_is_no_recursion():
    """The same `$ref` with siblings at two places, neither inside the other, and a definition inlined
    inside another definition's inlining: written out, each is finite, and the tool stays strict."""
    schema = {"type": "object", "required": ["a", "b", "c"], "properties": {
        "a": {"$ref": "#/$defs/S", "enum": ["x", "y"]}, "b": {"$ref": "#/$defs/S", "enum": ["y"]},
        "c": {"$ref": "#/$defs/O", "required": ["p"]}},
        "$defs": {"S": {"type": "string"}, "O": {"type": "object", "properties": {
            "p": {"$ref": "#/$defs/S", "enum": ["p"]}, "q": {"$ref": "#/$defs/S", "enum": ["q"]}},
            "required": ["q"]}}}
    for target in RECURSION_CODES:
        res = compile_params(schema, *target)
        assert res.status == "strict", (target, [d.code for d in res.diagnostics])
