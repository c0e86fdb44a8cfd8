"""The copy of a tool's original sent without strict (toolcast.sent_copy) notes, in the same traversal,
what sendable's passes rewrite or check; a pass whose keys occur nowhere in the copy is skipped, and
that gives exactly what running it gives."""

from __future__ import annotations

import collections

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sent_support import compiled_unmutated
from strategies import examples, schemas

from toolcast import compile as compile_mod
from toolcast.sent_copy import looked_copy
from toolcast.sent_refs import _needs_bundle, _refs_to, _renamed_places
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
    "definitions beside $defs, referring to each other": {
        "type": "object", "$defs": {"e": {"$ref": "#/definitions/d"}},
        "properties": {"a": {"$ref": "#/definitions/d"}, "b": {"$ref": "#/$defs/e"}, "x": FREE},
        "definitions": {"d": {"type": "object", "properties": {"n": {"$ref": "#/definitions/f"}}},
                        "f": {"type": "string"}},
        "anyOf": [{"$ref": "#/definitions/f"}, FREE]},
    "definitions first, a root $ref among them": {
        "definitions": {"d": {"type": "object", "properties": {"n": {"$ref": "#/definitions/d"}}}},
        "$ref": "#/definitions/d", "properties": {"x": FREE, "y": {"items": {"$ref": "#/definitions/d"}}}},
    "bundled, then renamed": {
        "type": "object", "definitions": {"d": {"type": "string"}},
        "properties": {"a": {"$ref": "#/definitions/d"}, "b": {"$ref": "#/properties/c"}, "c": {"type": "integer"},
                       "r": {"$id": "https://example.com/r", "properties": {"s": {"$ref": "#/definitions/t"}},
                             "definitions": {"t": {"type": "string"}}}, "x": FREE}},
    "draft-07 tuples, dependencies split": {
        "$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
        "properties": {"p": {"type": "array", "items": [{"type": "string"}]}, "x": FREE},
        "dependencies": {"p": ["x"], "x": {"required": ["p"]}}},
    "draft-07 tuples, no dependencies": {
        "$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
        "properties": {"p": {"type": "array", "items": [{"type": "string"}], "additionalItems": FREE}, "x": FREE}},
    "bad property name": {"type": "object", "properties": {"a b": {"type": "string"}, "x": FREE}},
    "bad name in a definition": {"type": "object", "$defs": {"d": {"type": "object", "properties": {"é": FREE}}},
                                 "properties": {"a": {"$ref": "#/$defs/d"}}},
    "bad name where the walk does not go": {"type": "object", "properties": {"x": FREE},
                                            "$defs": {"unused": {"type": "object", "properties": {"a b": FREE}}},
                                            "not": {"type": "object", "properties": {"c d": FREE}}},
}
TARGETS = [("openai", "responses"), ("openai", "chat"), ("anthropic", None), ("gemini", "json-schema"),
           ("vertex", "json-schema")]


_compile = compiled_unmutated


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
    assert looked_copy(CASES["draft-07 tuples, dependencies split"])[1].dependencies
    assert not looked_copy(CASES["draft-07 tuples, no dependencies"])[1].dependencies
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


def _renamed(doc: dict) -> dict:
    """`doc` with its root `definitions` joined to its `$defs`, in place, as sent_refs._defs_renamed does."""
    doc["$defs"] = {**doc.get("$defs", {}), **doc.pop("definitions")}
    return doc


@examples(200)
@given(schemas(), st.sampled_from(["#/definitions/", "#/$defs/", ""]))
def test_the_copy_finds_the_references_the_passes_look_for(schema: dict, prefix: str) -> None:
    # The copy's own notes stand in for three passes over it: the references (_refs_to(copy, "")),
    # whether bundling has anything to do, and the references after draft-07's `definitions` are
    # renamed `$defs` (their places and document order as a pass over the renamed copy finds them).
    ref = {"$ref": "#/definitions/d"}
    docs = [schema,
            {"not": [schema], "items": [schema], "properties": [schema], "allOf": schema, "default": schema,
             "$defs": {"a": schema, "b": [schema]}, "anyOf": [1, schema, {"$ref": 2}]},
            {"$ref": "#/definitions/d", "$defs": {"a": schema, "b": ref}, "properties": {"p": schema, "q": ref},
             "definitions": {"d": schema, "e": ref}, "allOf": [ref, schema]},
            {"$defs!": {}, "definitions": {"d": ref, "e": schema}, "properties": {"p": ref}, "items": ref}]
    for doc in docs:
        copied, seen = looked_copy(doc)
        assert seen is not None
        assert [(p, id(n)) for p, n in seen.ref_places] == [(p, id(n)) for p, n in _refs_to(copied, "")]
        assert seen.bundles(copied) == any(_needs_bundle(p, n, copied) for p, n in schema_nodes(copied))
        if type(copied.get("definitions")) is dict and type(copied.get("$defs", {})) is dict:
            renamed = _renamed(copied)
            assert ([(p, id(n)) for p, n in _renamed_places(renamed, seen.ref_places, prefix)]
                    == [(p, id(n)) for p, n in _refs_to(renamed, prefix)])
