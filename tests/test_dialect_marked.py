"""A document that declares a dialect before 2020-12 is rewritten in 2020-12 terms twice on its way to
being sent without strict: for the walk (walk.document._dialect) and, where the sent form must change
its terms, for what is sent (sent_dialect.as_2020_12). Where the document scan's pass made the copy
sent without strict, each rewrite looks only at the schema objects that pass marked
(sent_copy.Seen.marked, Rewrite.rewrite_at): what the walk reads, what is sent and every finding are
what the rewrite of every schema object gives."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import examples, schemas

import toolcast
from toolcast.providers import EMITTERS
from toolcast.rules import get_rules
from toolcast.sent_copy import looked_copy, scanned_copy
from toolcast.sent_dialect import as_2020_12
from toolcast.sent_refs import _refs_to
from toolcast.walk.dialect import Rewrite, nodes_with, schema_nodes

DIALECTS = {"draft-04": "http://json-schema.org/draft-04/schema#", "draft-06": "http://json-schema.org/draft-06/schema#",
            "draft-07": "http://json-schema.org/draft-07/schema#", "2019-09": "https://json-schema.org/draft/2019-09/schema"}
SHARED = {"$ref": "#/definitions/s", "description": "shared", "minimum": 1}  # (one object at two places)


def _doc(dialect: str) -> dict:
    """What each rewrite changes, at the root, deep, below what it drops, and where its descent does
    not go (a dict an `allOf` holds), with a tuple `items` so that the sent form is rewritten too."""
    return {
        "$schema": DIALECTS[dialect], "type": "object", "id": "https://example.com/root",
        "properties": {
            "ref": {"$ref": "#/definitions/s", "title": "t", "type": "string", "minLength": 1},
            "below": {"$ref": "#/definitions/o", "properties": {"x": {"$ref": "#/definitions/s", "maxLength": 3}},
                      "items": {"const": 1, "$ref": "#/definitions/s"}},
            "late": {"type": "object", "dependentSchemas": {"a": {"$ref": "#/definitions/s", "pattern": "x"}},
                     "if": {"properties": {"k": {"const": "v"}}}, "then": {"required": ["k"]},
                     "propertyNames": {"maxLength": 4}, "contains": {"type": "integer"}},
            "pair": {"type": "array", "items": [{"type": "string", "nullable": True}, SHARED],
                     "additionalItems": {"$ref": "#/definitions/s", "default": "d"}},
            "deps": {"type": "object", "dependencies": {"a": ["b"], "c": {"properties": {"d": SHARED}}}},
            "odd": {"allOf": {"$ref": "#/definitions/s", "type": "string"}},
            "num": {"type": "number", "minimum": 1, "exclusiveMinimum": True, "maximum": 9, "exclusiveMaximum": 3},
            "named": {"$ref": "#n"}, "idd": {"id": "#m", "type": "string"}, "c": {"const": 2},
            "low": {"type": "integer", "minimum": 0, "exclusiveMinimum": True},
            "pre": {"type": "array", "prefixItems": [{"type": "string"}], "$dynamicRef": "#x"}},
        "definitions": {"s": {"type": "string"}, "o": {"type": "object", "$id": "#n"},
                        "p": {"type": "boolean", "$anchor": "p", "unevaluatedProperties": False}},
        "required": ["ref"]}


def _unscanned(doc: dict) -> dict:
    """`doc` with one array a tuple: the same JSON, which the scan's copy does not take (so neither
    pass looks at marked objects: every schema object is rewritten)."""
    out = dict(doc)
    out["examples"] = ({"ref": "a"},)
    return out


def _scanned(doc: dict) -> dict:
    out = dict(doc)
    out["examples"] = [{"ref": "a"}]
    return out


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
@pytest.mark.parametrize("target", sorted(EMITTERS))
def test_a_declared_dialect_is_read_and_sent_alike_with_and_without_the_marked_objects(dialect, target):
    doc = _scanned(_doc(dialect))
    copied = scanned_copy(doc)
    assert copied is not None and copied[1].marks and copied[1].marked  # (the marked objects are taken)
    assert scanned_copy(_unscanned(doc)) is None
    _alike_scanned_or_not(doc, target)


def _alike_scanned_or_not(doc: dict, target: str) -> None:
    """`doc` (whose copy the scan's pass makes) and the same document that pass does not take give
    the same result in modes auto and false, neither mutated."""
    for strict in ("auto", False):
        results = []
        for schema in (doc, _unscanned(doc)):
            before = copy.deepcopy(schema)
            res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target,
                                        strict=strict)
            assert schema == before  # never mutated, though the sent form was rewritten from its copy
            results.append(json.dumps(res.to_dict(), sort_keys=True))
        assert results[0] == results[1], (target, strict)


def _records(rw: Rewrite) -> tuple:
    return rw.ignored, rw.bounds, rw.anchors, rw.dropped, rw.unread, rw.invalid


def _both(doc: dict, dialect: str, kept: frozenset, foreign: frozenset) -> None:
    copied, seen = looked_copy(doc)
    assert seen is not None and seen.marks
    whole = Rewrite(dialect, kept, True, foreign)
    expected = whole.rewrite(doc, ())
    for which, base in ((1, doc), (2, copied)):
        rw = Rewrite(dialect, kept, True, foreign)
        assert rw.rewrite_at(base, seen.marked, which) == expected
        assert _records(rw) == _records(whole)
    before = copy.deepcopy(doc)
    Rewrite(dialect, kept, True, foreign).rewrite_at(doc, seen.marked, 1)
    assert doc == before  # (copy on write: the original is never changed)


@examples(150)
@given(schemas(), st.sampled_from(sorted(DIALECTS)), st.sampled_from([frozenset(), frozenset({"description"})]),
       st.booleans())
def test_the_marked_objects_are_every_one_the_rewrite_changes(schema: dict, dialect: str, kept: frozenset,
                                                              nullable: bool) -> None:
    foreign = frozenset({"nullable"}) if nullable else frozenset()
    odd = {"$ref": "#/definitions/d", "const": 1, "nullable": True, "id": "#i", "exclusiveMinimum": True}
    for doc in (schema,
                {"allOf": [schema, odd], "not": schema, "items": [odd, schema], "definitions": {"d": schema}},
                {"$ref": "#/definitions/d", "properties": {"p": schema, "q": odd}, "if": schema, "$id": "#r",
                 "dependencies": {"a": schema, "b": ["c"]}, "allOf": odd}):
        _both({**doc, "$schema": DIALECTS[dialect]}, dialect, kept, foreign)


# What the sent rewrite changes where it stands (the scan's copy is the compile's own): each part of
# a document with neither a tuple `items`, nor a boolean bound, nor `dependencies` (so the copy's
# reference places are taken after the rewrite, sent_dialect._seen_after).
_PARTS = {
    # References in slots the rewrite leaves out beside `$ref` (gone), and beside them one kept.
    "refs-left-out": {"properties": {
        "a": {"$ref": "#/definitions/s", "properties": {"x": {"$ref": "#/definitions/t"}},
              "items": {"$ref": "#/definitions/u", "minimum": 1}, "description": "kept"},
        "b": {"$ref": "#/definitions/t"}}},
    # A resource below the root, in a slot left out: gone with it.
    "resource-left-out": {"properties": {
        "c": {"$ref": "#/definitions/s", "properties": {"y": {"$id": "https://example.com/y", "type": "string"}}}}},
    # A resource below the root that stays, its reference read against it (draft-04 has no `$id`: its
    # reference names the root's `e`), beside a keyword left out.
    "resource-kept": {"properties": {
        "d": {"$id": "https://example.com/d/", "definitions": {"e": {"type": "boolean"}},
              "allOf": [{"$ref": "#/definitions/e"}]}, "d2": {"$ref": "#/definitions/s", "maxLength": 2}}},
    # Draft-04's `id` below the root: an `$id` once rewritten, read so before (the others' unknown `id`).
    "draft-04-id": {"properties": {
        "f": {"id": "https://example.com/f/", "definitions": {"e": {"type": "boolean"}},
              "allOf": [{"$ref": "#/definitions/e"}]}, "f2": {"$ref": "#/definitions/s", "maxLength": 2}}},
    # A percent-escaped reference to a definition, beside a keyword left out.
    "escaped": {"properties": {"k": {"$ref": "#/%64efinitions/s", "maxLength": 2}}},
    # Keywords the older dialect does not define, holding references.
    "later": {"properties": {"m": {"type": "object", "dependentSchemas": {"n": {"$ref": "#/definitions/t"}},
                                   "unevaluatedProperties": {"$ref": "#/definitions/u"}}}},
    # `dependencies`, split as 2019-09 split it (what was below it is below another key), beside a
    # keyword left out.
    "dependencies": {"properties": {
        "p": {"type": "object", "dependencies": {"a": {"properties": {"q": {"$ref": "#/definitions/t"}}}, "b": ["c"]},
              "properties": {"r": {"$ref": "#/definitions/u"}}}, "p2": {"$ref": "#/definitions/s", "maxLength": 2}}},
}
# A fragment-only `$id` (an anchor before 2019-09, which reads no such `$id`): alone, as it is refused there.
_ANCHOR = {"properties": {"g": {"$id": "#m", "type": "string"}, "h": {"$ref": "#m"},
                          "h2": {"$ref": "#/definitions/s", "maxLength": 2}}}


def _cut_doc(dialect: str, parts: list) -> dict:
    props: dict = {}
    for part in parts:
        props.update((_ANCHOR if part == "anchor" else _PARTS[part])["properties"])
    return {"$schema": DIALECTS[dialect], "type": "object", "properties": props,
            "definitions": {"s": {"type": "string"}, "t": {"type": "integer"}, "u": {"type": "number"},
                            "e": {"type": "null"}}}


@pytest.mark.parametrize("parts", [[p] for p in sorted(_PARTS)] + [["anchor"], sorted(_PARTS)], ids="+".join)
@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_the_sent_rewrite_in_place_sends_and_records_what_the_rewrite_of_a_copy_does(dialect, parts):
    doc = _scanned(_cut_doc(dialect, parts))
    copied = scanned_copy(doc)
    assert copied is not None and copied[1].marks and not (copied[1].tuples or copied[1].bounds)
    for target in sorted(EMITTERS):
        _alike_scanned_or_not(doc, target)


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_the_rewrite_in_place_changes_the_copy_where_it_stands(dialect):
    doc = _cut_doc(dialect, sorted(_PARTS))
    copied, seen = looked_copy(doc)
    inner = copied["properties"]["b"]  # (an object the rewrite leaves as it is)
    whole = Rewrite(dialect, frozenset(), True)
    expected = whole.rewrite(doc, ())
    rw = Rewrite(dialect, frozenset(), True)
    assert rw.rewrite_at(copied, seen.marked, 2, True) is copied
    assert copied == expected and _records(rw) == _records(whole)
    assert copied["properties"]["b"] is inner
    if dialect != "2019-09":  # (which reads what is beside `$ref`)
        assert ("properties", "a", "properties") in rw.left_out and ("properties", "c", "properties") in rw.left_out


@pytest.mark.parametrize("parts", [[p] for p in sorted(_PARTS)] + [["anchor"], sorted(_PARTS)], ids="+".join)
@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_what_the_copy_found_stays_true_of_it_rewritten_where_it_stands(dialect, parts):
    """After the sent rewrite in place, the copy's reference places are those of the copy as it now
    is, and a resource below the root is found where one is (or the places are not known: None).
    Each part of _PARTS (and the anchor) makes one of these fail where sent_dialect._seen_after
    leaves out what it mends."""
    sent, seen = looked_copy(_cut_doc(dialect, parts))
    out = as_2020_12(sent, dialect, get_rules(), [], seen)
    assert out is sent
    ids: list = []
    places = _refs_to(out, "", ids)
    if seen.ref_places is not None:
        assert [(p, id(n)) for p, n in seen.ref_places] == [(p, id(n)) for p, n in places]
        assert seen.nested == bool(ids)
    else:  # (not known only where a split moved places, or a resource may have gone)
        assert any("dependentSchemas" in node for _, node in schema_nodes(out)) or seen.nested
    if seen.tuple_places is not None:  # (the tuples _tuple_items writes next, where they stand)
        assert [(p, id(n)) for p, n in seen.tuple_places if type(n.get("items")) is list] == [
            (p, id(n)) for p, n in nodes_with(out, "items", list)]
