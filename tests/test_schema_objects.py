"""The recursive visit of a schema's objects (walk.dialect.visit_schema_objects, nodes_with) gives
what schema_nodes gives: the same objects, places and order, and a visit that changes an object is
read after the change, as schema_nodes' lazy descent reads it. Where the stack runs out, the loop
takes up. Checked on documents of every slot shape (a map, a list, a schema, each holding the
others' shapes), not only well-formed schemas."""

from __future__ import annotations

import copy
import inspect
import sys
from contextlib import contextmanager
from unittest.mock import patch

from hypothesis import example, given
from hypothesis import strategies as st
from strategies import examples

from toolcast.rules import get_rules
from toolcast.sendable import _tuple_items
from toolcast.sent_dialect import _dependencies
from toolcast.walk.dialect import nodes_with, schema_nodes

# Keys of every slot kind, those the passes look for, and two that are no slot.
_KEYS = st.sampled_from(["properties", "items", "allOf", "anyOf", "dependencies", "$defs", "not", "prefixItems",
                         "additionalItems", "dependentSchemas", "$ref", "x", "a"])
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["s", "t"]))
# Shapes a random draw may miss: a tuple inside a tuple, and `dependencies` inside what a split
# moves, beside another slot (the split object's subschemas are read as it then is).
_NESTED = [{"items": [{"items": [1]}, {"allOf": [{"items": []}]}]},
           {"dependencies": {"k": {"dependencies": {"j": {"items": [{}]}}}, "m": ["n"]},
            "properties": {"p": {"dependencies": {"q": {}}}}}]
DOCS = st.recursive(_SCALARS, lambda kids: st.one_of(st.lists(kids, max_size=3),
                                                    st.dictionaries(_KEYS, kids, max_size=4)), max_leaves=30)


def _no_stack(*args) -> None:
    raise RecursionError


@contextmanager
def _by_the_loop():
    """The passes as schema_nodes' loop runs them (the path visit_schema_objects takes where the
    stack runs out, here at once)."""
    with patch("toolcast.walk.dialect._visit_below", _no_stack):
        yield


@examples(300)
@given(st.dictionaries(_KEYS, DOCS, max_size=5))
@example(_NESTED[0])
@example(_NESTED[1])
def test_nodes_with_finds_what_schema_nodes_finds(doc: dict) -> None:
    for key, kind in (("items", list), ("items", dict), ("dependencies", dict), ("$ref", str), ("anyOf", list),
                      ("x", int)):
        expected = [(p, id(n)) for p, n in schema_nodes(doc) if type(n.get(key)) is kind]
        assert [(p, id(n)) for p, n in nodes_with(doc, key, kind)] == expected


@examples(300)
@given(st.dictionaries(_KEYS, DOCS, max_size=5))
@example(_NESTED[0])
@example(_NESTED[1])
def test_the_passes_change_and_record_what_the_loop_does(doc: dict) -> None:
    r = get_rules()
    code = r.changes["converted-dialect-keyword"]
    for run in (lambda d, t: _tuple_items(d, r, t), lambda d, t: _dependencies(d, code, t)):
        a, b = copy.deepcopy(doc), copy.deepcopy(doc)
        ta: list = []
        tb: list = []
        run(a, ta)
        with _by_the_loop():
            run(b, tb)
        assert a == b and list(map(repr, a)) == list(map(repr, b))  # (key order too)
        assert ta == tb


def _deep(n: int) -> dict:
    doc: dict = {"items": [1], "dependencies": {"a": ["b"]}}
    for _ in range(n):
        doc = {"properties": {"p": doc}, "dependencies": {"c": {"not": {}}}, "items": [{}]}
    return doc


def test_past_the_stack_the_loop_takes_up() -> None:
    r = get_rules()
    code = r.changes["converted-dialect-keyword"]
    doc = _deep(150)
    expected_items = [(p, id(n)) for p, n in schema_nodes(doc) if type(n.get("items")) is list]
    b, a = _deep(150), _deep(150)
    tb: list = []
    ta: list = []
    with _by_the_loop():
        _dependencies(b, code, tb)
    limit = sys.getrecursionlimit()
    depth = len(inspect.stack(0))
    sys.setrecursionlimit(depth + 60)  # (the visit goes a frame a level: it runs out before the 150th)
    try:
        found = [(p, id(n)) for p, n in nodes_with(doc, "items", list)]
        _dependencies(a, code, ta)
    finally:
        sys.setrecursionlimit(limit)
    assert found == expected_items
    assert a == b and ta == tb and len(tb) == 151


# Keys the rules of xAI rewrite anywhere (policy sent_keywords drop, sent_empty, sent_property_schemas).
_RULE_KEYS = st.sampled_from(["properties", "items", "allOf", "anyOf", "enum", "maxContains", "minContains", "not",
                              "$defs", "x"])
RULE_DOCS = st.recursive(_SCALARS, lambda kids: st.one_of(st.lists(kids, max_size=3),
                                                         st.dictionaries(_RULE_KEYS, kids, max_size=4)), max_leaves=30)


@examples(300)
@given(st.dictionaries(_RULE_KEYS, RULE_DOCS, max_size=5))
@example({"properties": {"a": True, "b": {"maxContains": 1, "properties": {"c": False}}}, "anyOf": [{"enum": []}]})
def test_the_rules_pass_changes_refuses_and_records_what_the_loop_does(doc: dict) -> None:
    from toolcast.compile import resolve_target
    from toolcast.sent_rules import sent_rules

    r = resolve_target("xai", None, None)[2]
    a, b = copy.deepcopy(doc), copy.deepcopy(doc)
    da: list = []
    ta: list = []
    db: list = []
    tb: list = []
    out_a = sent_rules(a, r, da, ta)
    with _by_the_loop():
        out_b = sent_rules(b, r, db, tb)
    assert (out_a is None) == (out_b is None)
    assert a == b and (da, ta) == (db, tb)
