"""The form sent without strict keeps keywords that are read together in one schema object: a
rewrite that moves keywords (siblings of `anyOf` into its branches, constraints beside `$ref` into
an allOf, the root's allOf parts into the root) never parts `additionalProperties` from the
`properties` it reads, `items` from `prefixItems`, `then` from `if`, `maxContains` from `contains`,
or an `unevaluated*` from the applicators whose results it reads; where it must, the loss is
reported. Judged by values: what the original and the sent form accept (jsonschema, 2020-12)."""

from __future__ import annotations

import jsonschema
import pytest
from oracles.sent import json_schema_violations, sent_violations

import toolcast
from toolcast.providers import EMITTERS

_V = jsonschema.Draft202012Validator


def _sent(schema, target, api=None, strict=False):
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, api=api,
                                strict=strict)
    assert res.status == "non-strict", [d.code for d in res.diagnostics]
    return res, EMITTERS[res.rules.split("@")[0].split("-")[0]].schema_of(res.tool)


def _verdicts(schema, sent, values):
    """(value, the original's verdict, the sent form's) where they differ."""
    return [(v, _V(schema).is_valid(v), _V(sent).is_valid(v)) for v in values
            if _V(schema).is_valid(v) != _V(sent).is_valid(v)]


def _lossy(res):
    return {t.code for t in res.transformations if t.lossy and t.applied}


def _prop(x):
    return {"type": "object", "properties": {"x": x}, "required": ["x"]}


# (the property beside an anyOf, values to judge): Vertex's json-schema takes anyOf alone in its
# node, so the siblings move into the branches, and where a branch holds a keyword they read beside
# them (or that reads them), both go into an allOf instead: exact, no loss.
ANY_OF_PAIRS = [
    pytest.param({"type": "object", "additionalProperties": False,
                  "anyOf": [{"properties": {"b": {"type": "string"}}}, {"required": []}]},
                 [{"x": {"b": "s"}}, {"x": {}}], id="additionalProperties-beside-branch-properties"),
    pytest.param({"type": "object", "additionalProperties": {"type": "integer"},
                  "anyOf": [{"properties": {"b": {"type": "string"}}}, {"required": []}]},
                 [{"x": {"b": "s"}}, {"x": {"b": 1}}, {"x": {}}], id="typed-map-beside-branch-properties"),
    pytest.param({"type": "object", "properties": {"a": {"type": "integer"}},
                  "anyOf": [{"additionalProperties": False}, {"required": ["a"], "minProperties": 2}]},
                 [{"x": {"a": 1}}, {"x": {}}, {"x": {"a": 1, "b": 2}}], id="branch-additionalProperties"),
    pytest.param({"type": "array", "items": {"type": "integer"},
                  "anyOf": [{"prefixItems": [{"type": "string"}]}, {"maxItems": 0}]},
                 [{"x": ["s"]}, {"x": [1]}, {"x": []}], id="items-beside-branch-prefixItems"),
    pytest.param({"type": "integer", "if": {"minimum": 5},
                  "anyOf": [{"then": {"maximum": 7}}, {"then": {"multipleOf": 2}}]},
                 [{"x": 9}, {"x": 6}, {"x": 3}], id="if-beside-branch-then"),
    pytest.param({"type": "array", "contains": {"const": 1},
                  "anyOf": [{"maxContains": 1}, {"minItems": 5}]},
                 [{"x": [1, 1]}, {"x": [1]}, {"x": [2]}], id="contains-beside-branch-maxContains"),
]


@pytest.mark.parametrize("key", ["anyOf", "oneOf"])
@pytest.mark.parametrize(("prop", "values"), ANY_OF_PAIRS)
def test_siblings_of_any_of_moved_into_branches_keep_their_partners(prop, values, key):
    # Vertex reads `oneOf` "the same as anyOf" (PF §3.3), so it stands alone too; moving a sibling
    # into every branch is exact for oneOf as well (it holds, or fails, in each branch alike).
    prop = {(key if k == "anyOf" else k): v for k, v in prop.items()}
    schema = _prop(prop)
    res, sent = _sent(schema, "vertex", "json-schema")
    x = sent["properties"]["x"]
    assert list(x) == [key]  # (what Vertex asks)
    assert _verdicts(schema, sent, values) == []
    assert ("moved-any-of-siblings-into-branches", f"#/properties/x/{key}") in {(t.code, t.path) for t in res.transformations}
    assert not _lossy(res)
    assert sent_violations(res.tool, "vertex", "json-schema", res.status, res.rules) == []


def test_one_of_beside_any_of_both_stand_alone_on_vertex():
    # (the report's F5 shape, with an anyOf in the same schema: the oneOf moves into the anyOf's
    # branches, and is then alone in each of them)
    x = {"type": "object", "description": "dd", "properties": {"a": {"type": "string"}, "b": {"type": "integer"},
                                                                "c": {"type": "boolean"}},
         "anyOf": [{"required": ["a"]}, {"required": ["c"]}],
         "oneOf": [{"required": ["a"]}, {"required": ["b"], "description": "q"}]}
    schema = _prop(x)
    values = [{"x": v} for v in ({}, {"a": "1"}, {"b": 1}, {"c": True}, {"a": "1", "b": 1}, {"b": 1, "c": True},
                                 {"a": "1", "c": True}, {"a": 1}, {"a": "1", "b": 1, "c": True})]
    for strict in ("auto", False):
        res, sent = _sent(schema, "vertex", "json-schema", strict)
        assert sent_violations(res.tool, "vertex", "json-schema", res.status, res.rules) == []
        assert _verdicts(schema, sent, values) == []
    _, sent = _sent(schema, "gemini", "json-schema")  # (Gemini states no such rule: sent as written)
    assert sent["properties"]["x"] == x


def test_oracle_flags_one_of_beside_other_keywords_on_vertex():
    schema = {"type": "object", "properties": {"x": {"type": "object", "oneOf": [{"required": ["a"]}]}}}
    assert json_schema_violations(schema, "vertex") == [("any-of-not-alone", "#/properties/x")]
    assert json_schema_violations(schema, "gemini") == []


def test_unevaluated_beside_any_of_is_dropped_as_a_reported_loss():
    # (moved into a branch, or beside it in an allOf, it reads less than the anyOf's branches evaluated)
    schema = _prop({"type": "object", "unevaluatedProperties": False,
                    "anyOf": [{"properties": {"b": {"type": "string"}}}, {"required": []}]})
    res, sent = _sent(schema, "vertex", "json-schema")
    assert "unevaluatedProperties" not in repr(sent)
    assert _verdicts(schema, sent, [{"x": {"b": "s"}}]) == []  # nothing the tool accepts is rejected
    assert "dropped-unevaluated-keyword" in _lossy(res)


@pytest.mark.parametrize("target", ["gemini", "vertex"])
@pytest.mark.parametrize("keyword,target_schema,values", [
    ("unevaluatedProperties", {"type": "object", "properties": {"a": {"type": "integer"}}},
     [{"x": {"a": 1}}, {"x": {"z": 1}}]),
    ("unevaluatedItems", {"type": "array", "prefixItems": [{"type": "integer"}]}, [{"x": [1]}, {"x": [1, 2]}]),
])
def test_unevaluated_beside_ref_is_dropped_not_parted_from_it(target, keyword, target_schema, values):
    # Only `$` keywords beside `$ref` there: the constraints go into an allOf with it, where an
    # unevaluated* would read nothing the `$ref` evaluated and reject what the tool accepts.
    schema = {"type": "object", "$defs": {"D": target_schema},
              "properties": {"x": {"$ref": "#/$defs/D", keyword: False, "minProperties": 0}}, "required": ["x"]}
    res, sent = _sent(schema, target, "json-schema")
    assert keyword not in repr(sent)
    assert [v for v, orig, now in _verdicts(schema, sent, values) if orig] == []  # no narrowing
    assert "dropped-unevaluated-keyword" in _lossy(res)
    assert ("dropped-unevaluated-keyword", f"#/properties/x/{keyword}") in {(t.code, t.path) for t in res.transformations}


ROOT_ALL_OF = [
    pytest.param({"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": False,
                  "allOf": [{"properties": {"b": {"type": "string"}}}]},
                 [{"b": "s"}, {"a": 1}, {}], id="closed-root"),
    pytest.param({"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": {"type": "integer"},
                  "allOf": [{"properties": {"b": {"type": "string"}, "c": {"type": "number"}}}]},
                 [{"b": "s"}, {"b": 1}, {"c": 1.5}, {"c": 2}, {"a": 1}], id="typed-map-root"),
    pytest.param({"type": "object", "patternProperties": {"^b": {"minLength": 2}}, "additionalProperties": False,
                  "allOf": [{"properties": {"bx": {"type": "string"}, "c": {"type": "string"}}}]},
                 [{"bx": "ss"}, {"bx": "s"}, {"c": "s"}, {}], id="patterns-beside-closed-root"),
    pytest.param({"type": "object", "properties": {"a": {"type": "integer"}}, "unevaluatedProperties": False,
                  "allOf": [{"properties": {"b": {"type": "string"}}}]},
                 [{"b": "s"}, {"a": 1}, {"z": 1}], id="unevaluated-root"),
]


@pytest.mark.parametrize(("target", "api"), [("openai", "responses"), ("anthropic", None), ("gemini", "json-schema"),
                                             ("mistral", None), ("bedrock", None)])
@pytest.mark.parametrize(("schema", "values"), ROOT_ALL_OF)
def test_root_all_of_merged_beside_the_roots_additional_properties_is_exact(target, api, schema, values):
    res, sent = _sent(schema, target, api)
    assert "allOf" not in sent
    assert _verdicts(schema, sent, values) == []
    assert not _lossy(res)
    assert ("merged-root-all-of", "#/allOf") in {(t.code, t.path) for t in res.transformations}


def test_root_unevaluated_properties_goes_with_an_all_of_parts_keyword_left_out():
    # The part's patternProperties is dropped (lossy); the root's unevaluatedProperties read its
    # results, so kept it would reject the pattern's names, which the tool accepts.
    schema = {"type": "object", "unevaluatedProperties": False,
              "allOf": [{"properties": {"b": {"type": "string"}}, "patternProperties": {"^p": {}}}]}
    res, sent = _sent(schema, "openai", "responses")
    assert [v for v, orig, now in _verdicts(schema, sent, [{"b": "s"}, {"p1": 1}, {"z": 1}]) if orig] == []
    assert {"dropped-root-keyword", "dropped-unevaluated-keyword"} <= _lossy(res)


# A root pattern read as ECMA-262 reads it where Python's `re` (ASCII) read otherwise: `\s` holds NBSP, `$` does not
# match before a final newline, `.` does not match CR.
@pytest.mark.parametrize(("pattern", "name", "matches"), [("^\\s", "\u00a0x", True), ("^a$", "a\n", False),
                                                           ("^a.$", "a\r", False), ("^\\S", "\u00a0", False)])
def test_root_all_of_merge_reads_the_roots_patterns_as_ecma(pattern, name, matches):
    schema = {"type": "object", "patternProperties": {pattern: {"type": "string"}}, "additionalProperties": False,
              "allOf": [{"properties": {name: {"minLength": 2}}}]}
    res, sent = _sent(schema, "openai", "responses")
    # A name the pattern matches keeps the part's constraint; one it does not match stays out (the root keeps it out).
    assert (name in sent.get("properties", {})) == matches
    assert not _lossy(res)


def test_root_all_of_merge_never_takes_an_unread_pattern_to_match():
    # `(?<n>...)` is ECMA-262's named group, which Python's `re` does not compile: whether `c` is additional is not
    # known, so the root's `additionalProperties: false` is held to it too (narrowing at most), and said so.
    schema = {"type": "object", "patternProperties": {"^(?<n>b)": {}}, "additionalProperties": False,
              "allOf": [{"properties": {"c": {"type": "string"}}}]}
    res, sent = _sent(schema, "openai", "responses")
    assert not any(_V(sent["properties"]["c"]).is_valid(v) for v in ("s", "", 1, None))
    assert ("merged-root-all-of", "#/allOf/0/properties/c") in {(t.code, t.path) for t in res.transformations}
    assert not _lossy(res)
    schema = {**schema, "additionalProperties": {"type": "integer"}, "allOf": [{"properties": {"c": {"type": "number"}}}]}
    res, sent = _sent(schema, "openai", "responses")
    assert [v for v in (1, 1.5, "s") if _V(sent["properties"]["c"]).is_valid(v)] == [1]


def test_as_python_reads_as_ecma():
    import re

    from toolcast.ecma_classes import as_python
    assert as_python("^[a-z]+_x") == "^[a-z]+_x"
    for pattern, text, found in [("^\\d$", "\u0661", False), ("^\\w$", "\u00e9", False), ("^\\s$", "\u2028", True),
                                 ("^[^\\s]$", "\ufeff", False), ("^a.b$", "a\u2028b", False), ("^a$", "a\n", False),
                                 ("^[$]$", "$", True), ("^\\$$", "$", True), ("^[]", "a", False), ("^[^]$", "\n", True)]:
        assert bool(re.search(as_python(pattern), text)) == found, (pattern, text)
