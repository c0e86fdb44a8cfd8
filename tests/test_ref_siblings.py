"""Siblings of `$ref` that the target already implies are dropped; the target is not inlined.

A sibling is *redundant* when the target states the same keyword with the same meaning, and
*vacuous* when it constrains only instance types that the target's `type` excludes. When every
constraining sibling is one or the other, `{"$ref": T, ...}` means `{"$ref": T}`: it is kept as a
reference (wrapped in a one-branch `anyOf` when annotations remain). Any sibling that really
constrains still merges the target into the node, as before.
"""

from __future__ import annotations

import json

import pytest
from corpus_paths import LARGE
from jsonschema import Draft202012Validator
from oracles.openai_strict import tool_violations, validate_instance

from toolcast import compile_tool

RENOVATE = LARGE / "schemastore-renovate-43.json"


def _compile(schema: dict):
    return compile_tool({"name": "t", "description": "d", "parameters": schema})


def _codes(r) -> list[tuple[str, str]]:
    return [(d.code, d.path) for d in r.diagnostics] + [(t.code, t.path) for t in r.transformations]


def _accepted(r) -> None:
    """Sent strict and acceptable to the independent oracle."""
    assert r.status == "strict"
    assert tool_violations(r.tool, "responses") == []
    Draft202012Validator.check_schema(r.tool["parameters"])


def test_renovate_shape_keeps_the_root_ref() -> None:
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "ansible": {"anyOf": [{"$ref": "#/definitions/ansible"}, {"type": "null"}]},
        },
        "required": ["name", "ansible"],
        "definitions": {
            "ansible": {
                "$ref": "#",
                "description": "Configuration object for the ansible manager",
                "markdownDescription": "Configuration object for the *ansible* manager",
                "type": "object",
                "default": {"name": "x"},
                "items": {"allOf": [{"type": "object", "properties": {"description": {"type": "string"}}}]},
            }
        },
    }
    r = _compile(schema)
    _accepted(r)
    params = r.tool["parameters"]
    assert params == {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "ansible": {"anyOf": [{"$ref": "#/$defs/ansible"}, {"type": "null"}]},
        },
        "required": ["name", "ansible"],
        "additionalProperties": False,
        "$defs": {"ansible": {"description": "Configuration object for the ansible manager", "anyOf": [{"$ref": "#"}]}},
    }
    codes = _codes(r)
    assert ("dropped-redundant-ref-sibling", "#/definitions/ansible/type") in codes
    assert ("dropped-vacuous-ref-sibling", "#/definitions/ansible/items") in codes
    assert ("wrapped-ref-with-siblings", "#/definitions/ansible") in codes
    assert ("openai/ref-with-siblings", "#/definitions/ansible") in codes
    assert not any(c == "merged-ref-siblings" for c, _ in codes)
    assert not r.lossy
    vacuous = next(t for t in r.transformations if t.code == "dropped-vacuous-ref-sibling")
    assert vacuous.detail.endswith("(applies only to array values; the target's type is object)")
    # The same meaning: a nested override is accepted as the root is, and the recursion stays.
    assert validate_instance(params, {"name": "a", "ansible": {"name": "b", "ansible": None}})
    assert not validate_instance(params, {"name": "a", "ansible": {"name": "b"}})


def test_vacuous_sibling_beside_a_string_definition() -> None:
    schema = {
        "type": "object",
        "properties": {"code": {"$ref": "#/definitions/Code", "minItems": 1, "maxItems": 3}},
        "required": ["code"],
        "definitions": {"Code": {"type": "string", "minLength": 2}},
    }
    r = _compile(schema)
    _accepted(r)
    assert r.tool["parameters"]["properties"] == {"code": {"$ref": "#/$defs/Code"}}
    assert r.tool["parameters"]["$defs"] == {"Code": {"type": "string", "minLength": 2}}
    codes = _codes(r)
    assert ("dropped-vacuous-ref-sibling", "#/properties/code/minItems") in codes
    assert ("dropped-vacuous-ref-sibling", "#/properties/code/maxItems") in codes
    assert not any(c in ("wrapped-ref-with-siblings", "merged-ref-siblings") for c, _ in codes)
    # The reference is resolved once for the output: its repointing is reported once.
    assert codes.count(("rewrote-definitions-reference", "#/properties/code/$ref")) == 1
    assert [c for c, _ in codes].count("rewrote-definitions-reference") == 1


def test_a_wrapped_ref_reports_its_repointing_where_it_ends_up() -> None:
    schema = {
        "type": "object",
        "properties": {"code": {"$ref": "#/definitions/Code", "description": "A code.", "minItems": 1}},
        "required": ["code"],
        "definitions": {"Code": {"type": "string"}},
    }
    r = _compile(schema)
    _accepted(r)
    assert r.tool["parameters"]["properties"] == {"code": {"description": "A code.", "anyOf": [{"$ref": "#/$defs/Code"}]}}
    repointed = [t.path for t in r.transformations if t.code == "rewrote-definitions-reference"]
    assert repointed == ["#/properties/code/anyOf/0/$ref"]


def test_number_keywords_apply_to_integer_targets() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"$ref": "#/$defs/Count", "maximum": 9}},
        "required": ["n"],
        "$defs": {"Count": {"type": "integer"}},
    }
    r = _compile(schema)
    assert r.tool["parameters"]["properties"]["n"] == {"type": "integer", "maximum": 9}
    assert ("merged-ref-siblings", "#/properties/n") in _codes(r)


def test_redundant_siblings_equal_to_the_target() -> None:
    target = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
              "required": ["a", "b"], "additionalProperties": False}
    schema = {
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/P", "title": "The p", "type": "object", "required": ["a"],
                             "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
                             "additionalProperties": False}},
        "required": ["p"],
        "$defs": {"P": target},
    }
    r = _compile(schema)
    _accepted(r)
    assert r.tool["parameters"]["properties"] == {"p": {"title": "The p", "anyOf": [{"$ref": "#/$defs/P"}]}}
    assert r.tool["parameters"]["$defs"] == {"P": target}
    dropped = [t.path for t in r.transformations if t.code == "dropped-redundant-ref-sibling"]
    assert dropped == ["#/properties/p/type", "#/properties/p/required", "#/properties/p/properties",
                       "#/properties/p/additionalProperties"]
    assert ("wrapped-ref-with-siblings", "#/properties/p") in _codes(r)


def test_only_redundant_siblings_leave_a_bare_ref() -> None:
    schema = {
        "type": "object",
        "properties": {"e": {"$ref": "#/$defs/E", "type": ["string", "null"], "enum": ["x", None]}},
        "required": ["e"],
        "$defs": {"E": {"type": ["null", "string"], "enum": ["x", None]}},
    }
    r = _compile(schema)
    _accepted(r)
    assert r.tool["parameters"]["properties"] == {"e": {"$ref": "#/$defs/E"}}
    assert [t.code for t in r.transformations if "ref" in t.code] == ["dropped-redundant-ref-sibling"] * 2


@pytest.mark.parametrize(
    "node,target,merged",
    [
        # a real constraint on the target's own type
        ({"minLength": 3}, {"type": "string"}, {"type": "string", "minLength": 3}),
        # a required property the target does not require
        ({"required": ["a", "b"]}, {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
                                     "required": ["a"]}, None),
        # the target has no type: nothing can be shown vacuous
        ({"type": "object", "minItems": 1}, {"properties": {"a": {"type": "string"}}, "required": ["a"]}, None),
        # additionalProperties without the target's properties beside it closes more
        ({"additionalProperties": False}, {"type": "object", "properties": {"a": {"type": "string"}},
                                           "required": ["a"], "additionalProperties": False}, None),
        # format is not shown vacuous (OpenAPI gives formats to numbers)
        ({"format": "int64"}, {"type": "integer"}, None),
        # (OpenAPI `nullable` beside `$ref` has no effect, as OpenAPI 3.0.3 reads it: it is dropped
        # before the siblings are judged, see tests/test_nulls_semantics.py.)
    ],
)
def test_constraining_siblings_still_merge(node: dict, target: dict, merged: dict | None) -> None:
    schema = {"type": "object", "properties": {"v": {"$ref": "#/$defs/T", **node}}, "required": ["v"],
              "$defs": {"T": target}}
    r = _compile(schema)
    codes = _codes(r)
    assert ("merged-ref-siblings", "#/properties/v") in codes
    assert not any(c.startswith(("dropped-redundant", "dropped-vacuous")) for c, _ in codes)
    if merged is not None:
        _accepted(r)
        assert r.tool["parameters"]["properties"]["v"] == merged
        assert "$defs" not in r.tool["parameters"]


@pytest.mark.parametrize("sibling_type", ["object", ["integer", "null"]])
def test_a_type_that_shares_nothing_is_unsatisfiable(sibling_type: object) -> None:
    # Both types apply and no value has both: nothing is sent that the original rejects.
    schema = {"type": "object", "properties": {"v": {"$ref": "#/$defs/T", "type": sibling_type}},
              "required": ["v"], "$defs": {"T": {"type": "string"}}}
    r = _compile(schema)
    codes = _codes(r)
    assert r.status == "non-strict"
    assert ("openai/unsatisfiable-schema", "#/properties/v/type") in codes
    assert not any(c.startswith(("dropped-redundant", "dropped-vacuous")) for c, _ in codes)
    assert r.tool["parameters"] == schema


def test_a_type_that_differs_merges_to_what_both_admit() -> None:
    schema = {"type": "object", "properties": {"v": {"$ref": "#/$defs/T", "type": ["string", "null"]}},
              "required": ["v"], "$defs": {"T": {"type": "string"}}}
    r = _compile(schema)
    assert r.status == "strict"
    assert ("merged-ref-siblings", "#/properties/v") in _codes(r)
    assert r.tool["parameters"]["properties"]["v"] == {"type": "string"}


def test_renovate_no_longer_inlines_its_root() -> None:
    schema = json.loads(RENOVATE.read_text(encoding="utf-8"))
    # Read as 2020-12 (its `$schema` left out), where keywords beside `$ref` apply.
    modern = {k: v for k, v in schema.items() if k != "$schema"}
    r = compile_tool({"name": "renovate", "description": "x", "inputSchema": modern})
    merged = [t.path for t in r.transformations if t.code == "merged-ref-siblings"]
    # encrypted's `type: [object, null]` beside its `$ref: "#"` merges to what both admit (object;
    # it was refused as a conflict before values were merged as intersections). registryAliases
    # has a sibling that constrains, additionalProperties beside no properties: it applies to every
    # property, the root's too, so it cannot be merged beside the root's properties (a conflict).
    assert merged == ["#/definitions/encrypted"]
    assert [d.path for d in r.diagnostics if d.code == "openai/ref-sibling-conflict"] == [
        "#/definitions/registryAliases/additionalProperties"]
    assert sum(t.code == "dropped-vacuous-ref-sibling" for t in r.transformations) == 129
    # The root was walked 129 more times before (about 80,000 findings each of diagnostics and changes).
    assert len(r.diagnostics) < 5000 and len(r.transformations) < 5000
    # As it declares itself, draft-07: what stands beside `$ref` is ignored, so it is dropped
    # (reported), never merged, and the root is not inlined either.
    r = compile_tool({"name": "renovate", "description": "x", "inputSchema": schema})
    assert not [t for t in r.transformations if t.code == "merged-ref-siblings"]
    assert sum(t.code == "dropped-ignored-ref-sibling" for t in r.transformations) > 100
    assert len(r.diagnostics) < 5000 and len(r.transformations) < 5000


# -- unknown keywords are dropped, so they never decide how siblings are treated -------------

A_DEF = {"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"],
                         "additionalProperties": False}}}


def test_unknown_sibling_of_ref_does_not_inline_the_target() -> None:
    r = _compile({"type": "object", "properties": {"a": {"$ref": "#/$defs/A", "x-doc": "kept nowhere"}},
                  "required": ["a"], "additionalProperties": False, **A_DEF})
    _accepted(r)
    assert r.tool["parameters"]["properties"]["a"] == {"$ref": "#/$defs/A"}
    codes = _codes(r)
    assert ("openai/unknown-keyword", "#/properties/a/x-doc") in codes
    assert not any(code in ("merged-ref-siblings", "openai/ref-with-siblings") for code, _ in codes)


def test_unknown_sibling_of_anyof_stays_out_of_the_branches() -> None:
    r = _compile({"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}],
                                                         "markdownDescription": "*v*"}},
                  "required": ["v"], "additionalProperties": False})
    _accepted(r)
    assert r.tool["parameters"]["properties"]["v"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    paths = [p for _, p in _codes(r)]
    assert "#/properties/v/markdownDescription" in paths
    assert not any("/anyOf/" in p for p in paths)


def test_unknown_keywords_with_different_values_do_not_block_an_allof_merge() -> None:
    r = _compile({"type": "object", "properties": {"v": {"allOf": [{"type": "string", "x-ui": "a"},
                                                                   {"maxLength": 3, "x-ui": "b"}]}},
                  "required": ["v"], "additionalProperties": False})
    _accepted(r)
    assert r.tool["parameters"]["properties"]["v"] == {"type": "string", "maxLength": 3}
    assert "openai/ref-sibling-conflict" not in [c for c, _ in _codes(r)]


def test_draft07_annotations_beside_ref_are_kept_only_where_the_provider_takes_them() -> None:
    # The document pass skips the draft-07 rewrite when nothing it would drop is there; a
    # `description` beside `$ref` is kept by OpenAI (ref_siblings) but not by Gemini.
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
              "properties": {"a": {"$ref": "#/definitions/s", "description": "d"}}, "required": ["a"],
              "definitions": {"s": {"type": "string"}}}
    tool = {"name": "t", "inputSchema": schema}
    openai = compile_tool(tool)
    assert not any(d.code.endswith("ref-sibling-ignored") for d in openai.diagnostics)
    gemini = compile_tool(tool, target="gemini")
    ignored = [d for d in gemini.diagnostics if d.code.endswith("ref-sibling-ignored")]
    assert [d.path for d in ignored] == ["#/properties/a/description"], gemini.diagnostics
