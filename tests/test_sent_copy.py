"""The copy of a tool's original sent without strict (toolcast.sent_copy) notes, in the same traversal,
what sendable's passes rewrite or check; a pass whose keys occur nowhere in the copy is skipped, and
that gives exactly what running it gives."""

from __future__ import annotations

import collections

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sent_support import TARGETS as ALL_TARGETS
from sent_support import compiled_unmutated, label
from strategies import examples, schemas

from toolcast import compile as compile_mod
from toolcast import compile_tool
from toolcast.sent_copy import looked_copy, names_other, scanned_copy
from toolcast.sent_refs import _refs_to, _renamed_places
from toolcast.tool_input import MAX_COPY_DEPTH, copy_json
from toolcast.walk import document as document_mod
from toolcast.walk import walker as walker_mod
from toolcast.walk.dialect import nodes_with, schema_nodes
from toolcast.walk.values import _plain_flags, non_json

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
    # Where the places the copy found stay true through a pass that changes it, and where not (a
    # `$ref` below what a split or the tuple form moved, a split below another): each compiled
    # alike whether the places are kept or looked for again.
    "draft-07 split beside references, a tuple beside them": {
        "$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
        "definitions": {"d": {"type": "string"}, "e": {"$id": "#anchor", "type": "integer"}},
        "properties": {"a": {"$ref": "#/definitions/d"}, "b": {"type": "object", "dependencies": {"a": ["c"]},
                                                               "properties": {"c": {"$ref": "#/definitions/d"}}},
                       "t": {"type": "array", "items": [{"type": "string"}], "additionalItems": {"type": "integer"}},
                       "u": {"$ref": "#/definitions/e"}, "x": FREE}},
    "draft-07 references below a split and a tuple": {
        "$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
        "definitions": {"d": {"type": "string"}},
        "properties": {"b": {"type": "object", "dependencies": {"a": {"properties": {"q": {"$ref": "#/definitions/d"}}}}},
                       "t": {"type": "array", "items": [{"$ref": "#/definitions/d"}],
                             "additionalItems": {"$ref": "#/definitions/d"}},
                       "z": {"$ref": "#/definitions/d"}, "x": FREE}},
    "draft-07 a split below a split, tuples below a tuple": {
        "$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
        "properties": {"b": {"type": "object", "dependencies": {"a": {"dependencies": {"q": {"required": ["r"]}},
                                                                      "items": [{"type": "string"}]}}},
                       "t": {"type": "array", "items": [{"type": "array", "items": [{"$ref": "#/properties/z"}]}]},
                       "z": {"type": "string"}, "x": FREE}},
    "draft-07 a split and a tuple beside an ignored $ref sibling": {
        "$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
        "definitions": {"d": {"type": "object"}},
        "properties": {"b": {"$ref": "#/definitions/d", "dependencies": {"a": {"required": ["r"]}},
                             "items": [{"type": "string"}]},
                       "c": {"$ref": "#/definitions/d", "properties": {"q": {
                           "type": "array", "dependencies": {"a": ["r"]}, "items": [{"type": "string"}]}}},
                       "x": FREE}},
    "bounds beside references and a tuple": {
        "type": "object", "definitions": {"d": {"type": "number", "minimum": 1, "exclusiveMinimum": True}},
        "properties": {"a": {"$ref": "#/definitions/d"}, "n": {"type": "number", "maximum": 2, "exclusiveMaximum": True},
                       "t": {"type": "array", "items": [{"type": "string"}]}, "z": {"$ref": "#/definitions/d"},
                       "x": FREE}},
    "references below a tuple": {
        "type": "object", "definitions": {"d": {"type": "string"}},
        "properties": {"a": {"$ref": "#/definitions/d"},
                       "t": {"type": "array", "items": [{"$ref": "#/definitions/d"}, {"type": "integer"}],
                             "additionalItems": {"$ref": "#/definitions/d"}},
                       "z": {"$ref": "#/definitions/d"}, "x": FREE}},
    "a tuple beside a resource to bundle": {
        "type": "object", "properties": {
            "t": {"type": "array", "items": [{"type": "string"}]},
            "r": {"$id": "https://example.com/r", "type": "object", "properties": {"s": {"$ref": "#/$defs/t"}},
                  "$defs": {"t": {"type": "string"}}}, "x": FREE}},
    "definitions and $defs sharing names": {
        "type": "object", "$defs": {"A": {"type": "integer"}, "A_2": {"type": "null"}},
        "properties": {"a": {"$ref": "#/definitions/A"}, "b": {"$ref": "#/definitions/B"}, "c": {"$ref": "#/$defs/A"}},
        "definitions": {"A": {"type": "object", "properties": {"m": {"$ref": "#/definitions/B"}}},
                        "B": {"type": "object", "properties": {"n": {"$ref": "#/definitions/A"}}}}},
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
    # Every pass run, as before the copy looked: (a copy, nothing seen), made after the walk.
    monkeypatch.setattr(compile_mod, "looked_copy", lambda s: (copy_json(s), None))
    monkeypatch.setattr(document_mod, "scanned_copy", lambda s: None)
    monkeypatch.setattr(walker_mod, "scanned_copy", lambda s: None)  # (a document walked before its scan)
    assert looked == _compile(schema, target, api)


def test_the_copy_notes_what_the_passes_look_for() -> None:
    plain, seen = looked_copy(CASES["plain"])
    assert plain == CASES["plain"] and plain is not CASES["plain"]
    assert plain["properties"]["a"] is not CASES["plain"]["properties"]["a"]
    assert seen is not None and not (seen.bounds or seen.tuples or seen.resources or seen.refs)
    assert not seen.may_bundle(plain)
    assert looked_copy(CASES["draft-04 bound"])[1].bounds
    assert looked_copy(CASES["tuple items"])[1].tuples
    assert looked_copy(CASES["draft-07 tuples, dependencies split"])[1].dependents
    assert not looked_copy(CASES["draft-07 tuples, no dependencies"])[1].dependents
    assert looked_copy(CASES["nested resource"])[1].may_bundle(CASES["nested resource"])
    assert looked_copy(CASES["deep pointer"])[1].may_bundle(CASES["deep pointer"])
    assert looked_copy(CASES["missing definition"])[1].may_bundle(CASES["missing definition"])
    renamed = CASES["definitions renamed"]
    assert not looked_copy(renamed)[1].may_bundle(renamed)  # a root definition: nothing to bundle


def _scanned_first(schema: dict) -> dict:
    """`schema` with a root `$ref` (and the definition it names) beside it: scanned before the walk
    (walker._first), so the scan's pass makes the copy sent without strict (walk.document)."""
    return {**schema, "$ref": "#/$defs/base", "$defs": {"base": {"type": "object"}}}


_NAN = float("nan")


def _shared(levels: int) -> dict:
    node: dict = {"type": "string"}
    for _ in range(levels):
        node = {"anyOf": [node, node]}  # (each level doubles the places below it)
    return {"type": "object", "properties": {"a": node}}


def _cycle() -> dict:
    doc: dict = {"type": "object", "properties": {}}
    doc["properties"]["self"] = doc
    return doc


def _deep(levels: int) -> dict:
    doc: dict = {"type": "string"}
    for _ in range(levels):
        doc = {"type": "object", "properties": {"a": doc}}
    return doc


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_scans_copy_is_the_copy_and_its_flags_are_the_scans(case: str) -> None:
    for doc in (CASES[case], _scanned_first(CASES[case])):
        got = scanned_copy(doc)
        assert got is not None
        copied, seen = got
        looked, expected = looked_copy(doc)
        assert copied == looked == doc and copied is not doc
        assert seen.flags == _plain_flags(doc)  # what the document scan gives it
        for name in ("bounds", "tuples", "resources", "nested", "refs", "names"):
            assert getattr(seen, name) == getattr(expected, name), name
        assert [(place, id(node)) for place, node in seen.ref_places] == [
            (place, id(node)) for place, node in _refs_to(copied, "")]
        # (the schema objects the tuple and `dependencies` passes rewrite, where they stand)
        assert [(place, id(node)) for place, node in seen.tuple_places] == [
            (place, id(node)) for place, node in nodes_with(copied, "items", list)]
        assert [(place, id(node)) for place, node in seen.dependents] == [
            (place, id(node)) for place, node in schema_nodes(copied) if "dependencies" in node]
        assert [place for place, _ in expected.dependents] == [place for place, _ in seen.dependents]


# What the document scan does not pass as plain JSON (walk.values._plain_flags), nor the copy
# made in its pass: a value JSON cannot carry beside the keys the copy reads, a container that is
# no plain dict or list, or a document shared in place past the scan's budget, a cycle, one too deep.
NOT_VOUCHED = {
    "a key that is no string, with a string value": {"type": "object", "properties": {"a": {"type": "string", 7: "x"}}},
    "a key that is no string, with an object": {"type": "object", "properties": {"a": {"type": "object"}, 7: {}}},
    "NaN": {"type": "object", "properties": {"n": {"type": "number", "minimum": _NAN}}},
    "infinity in a value's list": {"type": "object", "properties": {"n": {"type": "number", "enum": [1.0, float("inf")]}}},
    "bytes": {"type": "object", "properties": {"a": {"type": "string", "description": b"x"}}},
    "a tuple": {"type": "object", "properties": {"a": {"type": "string", "enum": ("x", "y")}}},
    "a dict subclass": {"type": "object", "properties": collections.OrderedDict(a={"type": "string"})},
    "a set in a list": {"type": "object", "properties": {"a": {"examples": [{1}]}}},
    "shared in place past the scan's budget": _shared(17),
    "a cycle": _cycle(),
    "deeper than the copy goes": _deep(MAX_COPY_DEPTH),
}


@pytest.mark.parametrize("case", sorted(NOT_VOUCHED))
def test_the_scans_copy_vouches_for_plain_json_only(case: str) -> None:
    assert scanned_copy(NOT_VOUCHED[case]) is None
    assert scanned_copy(_scanned_first(NOT_VOUCHED[case])) is None


@pytest.mark.parametrize("case", ["a key that is no string, with a string value", "NaN", "infinity in a value's list",
                                  "bytes", "a set in a list"])
def test_a_document_scanned_first_is_still_refused_where_it_is_not_json(case: str) -> None:
    schema = _scanned_first(NOT_VOUCHED[case])
    place = non_json(schema)[0]
    for target in ("openai", "anthropic"):
        res = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target)
        assert res.status == "refused"
        assert [d.code.split("/", 1)[1] for d in res.diagnostics] == ["non-json-value"]
        assert res.diagnostics[0].path == "#" + "".join(f"/{p}" for p in place)


def test_the_copy_sent_is_made_once_in_the_scans_pass_and_owned(monkeypatch: pytest.MonkeyPatch) -> None:
    schema = _scanned_first(CASES["definitions renamed"])
    made = []
    monkeypatch.setattr(compile_mod, "looked_copy", lambda s: made.append(s) or looked_copy(s))
    res = compile_tool({"name": "t", "description": "d", "inputSchema": schema})
    assert res.status == "non-strict" and made == []  # (the scan's copy was taken)
    sent = res.tool["parameters"]
    assert sent["$defs"]["d"] == {"type": "string"} and "definitions" in schema  # renamed in the copy only
    assert sent["properties"]["a"] is not schema["properties"]["a"]
    assert schema == _scanned_first(CASES["definitions renamed"])


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


def _needs_bundle(place: tuple, node: dict, root: dict) -> bool:
    # What bundling resolves at one schema object: a `$ref` naming other than `#` or a root definition
    # that exists, or a resource or anchor of its own below the root.
    ref = node.get("$ref")
    if type(ref) is str and ref != "#" and names_other(ref, root):
        return True
    return bool(place) and ("$id" in node or "$anchor" in node)


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


def _tupled(value: object) -> object:
    """`value` with each list a tuple (as Python code may write a schema)."""
    if isinstance(value, dict):
        return {k: _tupled(v) for k, v in value.items()}
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


def _containers(value: object) -> set:
    if isinstance(value, dict):
        return {dict}.union(*(_containers(v) for v in value.values()))
    if isinstance(value, (list, tuple)):
        return {type(value)}.union(*(_containers(v) for v in value))
    return set()


@pytest.mark.parametrize("strict", ["auto", False])
@pytest.mark.parametrize("target,api", ALL_TARGETS, ids=[label(t, a) for t, a in ALL_TARGETS])
def test_tuples_are_sent_as_the_lists_json_writes(target: str, api: str | None, strict: object) -> None:
    """A schema written with tuples (`required`, `enum`, `anyOf`, the tuple form of `items`) is sent,
    strict or not, exactly as the same schema written with lists: the form sent holds no tuple."""
    lists = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": ["a"],
             "properties": {"a": {"enum": ["x", "y"]}, "b": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                            "c": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]},
                            "x": FREE}}
    tool = {"name": "t", "description": "d", "inputSchema": _tupled(lists)}
    got = compile_tool(tool, target=target, api=api, strict=strict)
    assert tuple not in _containers(got.tool)
    assert got.to_dict() == compile_tool({**tool, "inputSchema": lists}, target=target, api=api,
                                         strict=strict).to_dict()
