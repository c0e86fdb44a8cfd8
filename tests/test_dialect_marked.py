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
from toolcast.sent_copy import looked_copy, scanned_copy
from toolcast.walk.dialect import Rewrite

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
    for strict in ("auto", False):
        results = []
        for schema in (doc, _unscanned(doc)):
            before = copy.deepcopy(schema)
            res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target,
                                        strict=strict)
            assert schema == before  # never mutated, though the sent form was rewritten from its copy
            results.append(json.dumps(res.to_dict(), sort_keys=True))
        assert results[0] == results[1]


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
