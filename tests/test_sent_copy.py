"""The copy of a tool's original sent without strict (toolcast.sent_copy) notes, in the same traversal,
what sendable's passes rewrite or check; a pass whose keys occur nowhere in the copy is skipped, and
that gives exactly what running it gives."""

from __future__ import annotations

import collections
import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import examples, schemas

import toolcast
from toolcast import compile as compile_mod
from toolcast.sendable import _refs_to
from toolcast.sent_copy import looked_copy
from toolcast.tool_input import copy_json
from toolcast.walk.dialect import schema_nodes

FREE = {"type": "object"}  # a free-form object: no target sends it strict, so the original is sent
CASES = {
    "plain": {"type": "object", "properties": {"a": {"type": "string"}, "x": FREE}},
    "draft-04 bound": {"type": "object", "properties": {
        "n": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
        "m": {"type": "number", "exclusiveMaximum": False}, "x": FREE}},
    "tuple items": {"type": "object", "properties": {
        "p": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": False}, "x": FREE}},
    "deep pointer": {"type": "object", "properties": {
        "a": {"type": "object", "properties": {"b": {"type": "string"}}}, "c": {"$ref": "#/properties/a/properties/b"},
        "x": FREE}},
    "nested resource": {"type": "object", "properties": {
        "r": {"$id": "https://example.com/r", "type": "object", "properties": {"s": {"$ref": "#/$defs/t"}},
              "$defs": {"t": {"type": "string"}}}, "x": FREE}},
    "missing definition": {"type": "object", "properties": {"a": {"$ref": "#/$defs/nowhere"}, "x": FREE}},
    "definitions renamed": {"type": "object", "definitions": {"d": {"type": "string"}},
                            "properties": {"a": {"$ref": "#/definitions/d"}, "x": FREE}},
    "definitions, no reference to them": {"type": "object", "definitions": {"d": {"type": "string"}},
                                          "properties": {"a": {"$ref": "#/$defs/nowhere"}, "x": FREE}},
    "definitions named in a value only": {"type": "object", "definitions": {"d": {"type": "string"}},
                                          "properties": {"a": {"type": "object", "default": {"$ref": "#/definitions/d"}},
                                                         "b": {"items": [{"$ref": "#/definitions/d"}]}, "x": FREE}},
    "keys in a value": {"type": "object", "properties": {
        "a": {"type": "object", "default": {"$ref": "#/x/y", "items": [1], "exclusiveMinimum": True, "$id": "v"}},
        "x": FREE}},
    "bad property name": {"type": "object", "properties": {"a b": {"type": "string"}, "x": FREE}},
    "bad name in a definition": {"type": "object", "$defs": {"d": {"type": "object", "properties": {"é": FREE}}},
                                 "properties": {"a": {"$ref": "#/$defs/d"}}},
    "bad name where the walk does not go": {"type": "object", "properties": {"x": FREE},
                                            "$defs": {"unused": {"type": "object", "properties": {"a b": FREE}}},
                                            "not": {"type": "object", "properties": {"c d": FREE}}},
}
TARGETS = [("openai", "responses"), ("openai", "chat"), ("anthropic", None), ("gemini", "json-schema"),
           ("vertex", "json-schema")]


def _compile(schema: dict, target: str, api: str | None) -> dict:
    tool = {"name": "t", "description": "d", "inputSchema": schema}
    before = copy.deepcopy(tool)
    res = toolcast.compile_tool(tool, target=target, api=api)
    assert tool == before  # never mutated
    return res.to_dict()


@pytest.mark.parametrize("target,api", TARGETS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_skipped_pass_gives_what_running_it_gives(case: str, target: str, api: str | None,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    schema = CASES[case]
    looked = _compile(schema, target, api)
    # Every pass run, as before the copy looked: (a copy, nothing seen).
    monkeypatch.setattr(compile_mod, "looked_copy", lambda s: (copy_json(s), None))
    assert looked == _compile(schema, target, api)


def test_the_copy_notes_what_the_passes_look_for() -> None:
    plain, seen = looked_copy(CASES["plain"])
    assert plain == CASES["plain"] and plain is not CASES["plain"]
    assert plain["properties"]["a"] is not CASES["plain"]["properties"]["a"]
    assert seen is not None and not (seen.bounds or seen.tuples or seen.resources or seen.refs)
    assert not seen.may_bundle(plain)
    assert looked_copy(CASES["draft-04 bound"])[1].bounds
    assert looked_copy(CASES["tuple items"])[1].tuples
    assert looked_copy(CASES["nested resource"])[1].may_bundle(CASES["nested resource"])
    assert looked_copy(CASES["deep pointer"])[1].may_bundle(CASES["deep pointer"])
    assert looked_copy(CASES["missing definition"])[1].may_bundle(CASES["missing definition"])
    renamed = CASES["definitions renamed"]
    assert not looked_copy(renamed)[1].may_bundle(renamed)  # a root definition: nothing to bundle


def test_a_container_copy_json_converts_is_copied_by_it_and_every_pass_runs() -> None:
    schema = {"type": "object", "properties": collections.OrderedDict(a={"type": "string"})}
    copied, seen = looked_copy(schema)
    assert seen is None and copied == copy_json(schema) and type(copied["properties"]) is dict


@examples(200)
@given(schemas(), st.sampled_from(["#/definitions/", "#/$defs/", "#", "", None]))
def test_refs_to_finds_what_the_schema_nodes_loop_finds(schema: dict, prefix: str | None) -> None:
    odd = {"not": [schema], "items": [schema], "properties": [schema], "allOf": schema, "default": schema,
           "$defs": {"a": schema, "b": [schema]}, "anyOf": [1, schema, {"$ref": 2}]}
    for doc in (schema, odd):
        expected = [(place, id(node)) for place, node in schema_nodes(doc) if prefix is None
                    or (type(node.get("$ref")) is str and node["$ref"].startswith(prefix))]
        assert [(place, id(node)) for place, node in _refs_to(doc, prefix)] == expected
