"""The document scan's plain pass (values._plain_flags) agrees with the exact, place-by-place pass."""

from __future__ import annotations

import enum

from hypothesis import given, settings
from hypothesis import strategies as st

from toolcast.walk.values import (
    HAS_ANNOTATED_REFS,
    HAS_IDS,
    HAS_LATER_KEYWORDS,
    HAS_OLD_DIALECT_FORMS,
    HAS_OTHER_REFS,
    _exact_scan,
    _plain_flags,
    scan,
)


class _Colour(enum.StrEnum):
    RED = "red"


_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=4),
    st.sampled_from(["#", "#/$defs/a", "#/properties/a", "#a", "https://x/y", _Colour.RED, b"x", 1j]),
)
_keys = st.one_of(st.sampled_from(["type", "$ref", "$id", "id", "$anchor", "$dynamicAnchor", "properties", "enum"]),
                  st.text(max_size=3), st.integers(0, 2), st.none())
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4),
                            st.lists(inner, max_size=3).map(tuple), st.frozensets(st.integers(), max_size=2)),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(_values)
def test_the_plain_pass_answers_as_the_exact_pass_does(doc):
    flags = _plain_flags(doc)
    problem, exact_flags = _exact_scan(doc)
    if flags >= 0:
        # Only a document of plain dicts, lists, str keys and JSON scalars passes, with the same flags.
        assert problem is None and flags == exact_flags
    assert scan(doc) == ((None, flags) if flags >= 0 else (problem, exact_flags))


def test_every_value_kind_the_plain_pass_refuses_sends_the_document_to_the_exact_pass():
    for bad in (float("nan"), float("inf"), {1: "a"}, {None: 1}, {True: 1}, ("a",), {"a"}, b"x", _Colour.RED,
                1.5j, {"enum": [1, float("-inf")]}, [[["x", object()]]], {"a": {"b": [True, {2.0: 1}]}}):
        assert _plain_flags({"type": "object", "default": bad}) == -1, bad
        assert _plain_flags([bad]) == -1, bad


def test_the_flags_of_a_plain_document():
    assert _plain_flags({"$id": "https://x/y", "properties": {"a": {"type": "string"}}}) == 0  # the root's id alone
    assert _plain_flags({"properties": {"a": {"$id": "a.json"}}}) == HAS_IDS
    assert _plain_flags({"properties": {"a": {"id": "a.json"}}}) == HAS_IDS
    assert _plain_flags({"properties": {"id": {"type": "string"}}}) == 0  # a property named id
    assert _plain_flags({"properties": {"a": {"$ref": "#/$defs/a"}}}) == 0
    # What draft-07 and draft-06 would rewrite: a $ref with a sibling, a fragment-only $id; a $ref
    # beside annotations only is noted apart (a provider that takes them there needs no rewrite).
    assert _plain_flags({"properties": {"a": {"$ref": "#/$defs/a", "description": "d"}}}) == HAS_ANNOTATED_REFS
    assert _plain_flags({"properties": {"a": {"$ref": "#/$defs/a", "title": "t", "default": 1}}}) == (
        HAS_ANNOTATED_REFS | HAS_OLD_DIALECT_FORMS)
    assert _plain_flags({"properties": {"a": {"$ref": "#/$defs/a", "$defs": {}}}}) == 0
    assert _plain_flags({"$defs": {"a": {"$id": "#a", "type": "string"}}}) == HAS_IDS | HAS_OLD_DIALECT_FORMS
    # (`$anchor` is 2019-09's: a draft-07 document that holds one is rewritten without it.)
    assert _plain_flags({"properties": {"a": {"$ref": "#/properties/b"}}, "x": [{"$anchor": "a"}]}) == (
        HAS_IDS | HAS_OTHER_REFS | HAS_LATER_KEYWORDS)
    assert _plain_flags([1, 2.5, "x", None, False, [], {}]) == 0
    assert _plain_flags(float("nan")) == -1 and _plain_flags(2.5) == 0


def test_a_shared_subtree_is_scanned_once_past_the_budget():
    # A DAG doubling at every level would be 2**40 containers if each path were followed.
    node: object = {"type": "string"}
    for _ in range(40):
        node = {"allOf": [node, node]}
    assert _plain_flags(node) == 0
    node = {"allOf": [node, {"x": float("nan")}]}
    assert _plain_flags(node) == -1


def test_a_draft_07_document_without_ref_siblings_is_read_as_it_is():
    # The rewrite into 2020-12 terms is skipped when scan saw nothing it changes; the results are
    # those of the rewrite (nothing changed, nothing recorded), and a $ref with siblings still is.
    from toolcast import compile_tool

    plain = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
             "properties": {"a": {"type": "string"}}, "required": ["a"]}
    r = compile_tool({"name": "t", "description": "d", "inputSchema": plain})
    assert r.status == "strict" and r.tool["parameters"]["properties"] == {"a": {"type": "string"}}
    sib = {**plain, "$defs": {"s": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/s", "minLength": 2}}}
    r = compile_tool({"name": "t", "description": "d", "inputSchema": sib})
    assert "openai/ref-sibling-ignored" in [d.code for d in r.diagnostics]
