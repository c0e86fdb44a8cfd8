"""What is sent is a schema of the dialect it declares (issue 40): the form sent without strict writes
draft-04's boolean bounds and the tuple form of `items` in 2020-12 terms, so its `$schema` says 2020-12;
and MCP's `inputSchema` root, combinators beside `type: "object"` included, is what the MCP schema
accepts (2025-11-25 and 2026-07-28 `Tool.inputSchema`)."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

import toolcast
from toolcast.providers import EMITTERS
from toolcast.rules import get_rules

DRAFT4 = "http://json-schema.org/draft-04/schema#"
DRAFT7 = "http://json-schema.org/draft-07/schema#"
BOUNDS = {"$schema": DRAFT4, "type": "object", "properties": {
    "n": {"type": "number", "minimum": 1, "exclusiveMinimum": True},
    "m": {"type": "number", "maximum": 5, "exclusiveMaximum": False}}}
TUPLE = {"$schema": DRAFT7, "type": "object", "properties": {
    "pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": False}}}
TARGETS = [t for t in EMITTERS if t not in ("gemini", "vertex")]  # (their default API sends no JSON Schema)


def _sent(schema: dict, target: str) -> dict:
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, strict=False)
    assert res.tool is not None, res.diagnostics
    return EMITTERS[target].schema_of(res.tool)


@pytest.mark.parametrize("target", TARGETS)
def test_draft_04_bounds_are_sent_under_the_dialect_they_are_written_in(target):
    sent = _sent(BOUNDS, target)
    assert sent["properties"]["n"] == {"type": "number", "exclusiveMinimum": 1}
    validator = jsonschema.validators.validator_for(sent)
    validator.check_schema(sent)  # valid in the dialect it declares (draft-04 wants a boolean flag)
    check = validator(sent)
    assert not check.is_valid({"n": 1}) and check.is_valid({"n": 1.5, "m": 5})


@pytest.mark.parametrize("target", TARGETS)
def test_a_tuple_keeps_its_meaning_under_the_dialect_it_declares(target):
    sent = _sent(TUPLE, target)
    check = jsonschema.validators.validator_for(sent)(sent)
    assert not check.is_valid({"pair": [1, "a"]}) and not check.is_valid({"pair": ["a", 1, 2]})
    assert check.is_valid({"pair": ["a", 1]})


# A draft-07 tuple beside what draft-07 reads otherwise than 2020-12: `dependencies`, a sibling of
# `$ref` (ignored), a keyword draft-07 does not define (ignored), a fragment-only `$id` (a name).
MIXED = {"$schema": DRAFT7, "type": "object", "properties": {
    "pair": {"type": "array", "items": [{"type": "string"}], "additionalItems": False},
    "code": {"$ref": "#/definitions/code", "type": "integer"},
    "card": {"type": "object", "dependencies": {"number": ["cvc"], "bank": {"required": ["iban"]}}},
    "late": {"type": "array", "prefixItems": [{"type": "integer"}], "dependentRequired": {"a": ["b"]}},
    "named": {"$ref": "#named"}},
    "definitions": {"code": {"type": "string"}, "n": {"$id": "#named", "type": "boolean"}}}
INSTANCES = [{"pair": ["a"]}, {"pair": ["a", "b"]}, {"pair": [1]}, {"code": "x"}, {"code": 1},
             {"card": {"number": 1}}, {"card": {"number": 1, "cvc": 2}}, {"card": {"bank": 1}},
             {"card": {"bank": 1, "iban": 2}}, {"late": ["s"]}, {"late": {"a": 1}}, {"named": True},
             {"named": 1}]


@pytest.mark.parametrize("target", TARGETS)
def test_the_whole_body_means_in_2020_12_what_it_meant_in_its_own_dialect(target):
    """Once the sent form declares 2020-12, every value the original accepted under draft-07 is
    accepted, and every value it rejected is rejected (jsonschema's validators for each dialect)."""
    sent = _sent(MIXED, target)
    assert sent["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(sent)
    before, after = jsonschema.Draft7Validator(MIXED), jsonschema.Draft202012Validator(sent)
    assert [before.is_valid(i) for i in INSTANCES] == [after.is_valid(i) for i in INSTANCES]
    assert not all(after.is_valid(i) for i in INSTANCES) and any(after.is_valid(i) for i in INSTANCES)


@pytest.mark.parametrize("declared", [DRAFT4, "http://json-schema.org/draft-06/schema#", DRAFT7])
@pytest.mark.parametrize("target", TARGETS)
def test_dependencies_alone_mean_what_they_meant(target, declared):
    """`dependencies` with nothing else to rewrite (no tuple, no boolean bound): a provider that reads
    every schema as 2020-12 would ignore it (2020-12 has dependentRequired and dependentSchemas), so
    the body is written in 2020-12 terms there, and kept as declared where the provider reads the
    declared dialect (the red-team's fuzz of the twelfth session, its P2: sent unchanged, `{"a": 1}` let through)."""
    schema = {"$schema": declared, "type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
              "dependencies": {"a": ["b"], "c": {"required": ["b"]}}}
    sent = _sent(schema, target)
    read_as = jsonschema.validators.validator_for(sent)  # (what the sent form declares)
    if get_rules(target).policy.get("sent_metaschema") == "2020-12":
        read_as = jsonschema.Draft202012Validator  # (whatever it declares)
    check, before = read_as(sent), jsonschema.validators.validator_for(schema)(schema)
    instances = [{"a": 1}, {"a": 1, "b": 2}, {"c": 1}, {"c": 1, "b": 2}, {}]
    assert [check.is_valid(i) for i in instances] == [before.is_valid(i) for i in instances] == [False, True, False, True, True]


# Draft-04 names a resource and an anchor with `id` (a URI, `#name`), where later dialects have `$id`
# and `$anchor`: a reference by either was called external in the form sent without strict, which
# refused the tool that the strict form resolved and sent (the red-team's fuzz of the twelfth session, P3).
DRAFT4_IDS = {"$schema": DRAFT4, "type": "object", "required": ["a"], "properties": {
    "a": {"$ref": "http://example.com/sub.json#/definitions/Y"}, "b": {"$ref": "#foo"}},
    "definitions": {"S": {"id": "http://example.com/sub.json", "definitions": {"Y": {"type": "string"}}},
                    "F": {"id": "#foo", "type": "integer"}}}


@pytest.mark.parametrize("target", TARGETS)
def test_draft_04_ids_resolve_in_the_form_sent_without_strict(target):
    sent = _sent(DRAFT4_IDS, target)
    read_as = jsonschema.Draft202012Validator if get_rules(target).policy.get("sent_metaschema") == "2020-12" \
        else jsonschema.validators.validator_for(sent)
    check, before = read_as(sent), jsonschema.Draft4Validator(DRAFT4_IDS)
    instances = [{"a": "x"}, {"a": 1}, {"a": "x", "b": 2}, {"a": "x", "b": "2"}, {}]
    assert [check.is_valid(i) for i in instances] == [before.is_valid(i) for i in instances] == [True, False, True, False, False]
    assert all(ref.startswith("#") for ref in re.findall(r'"\$ref": "([^"]*)"', json.dumps(sent)))  # (all local)


def test_a_2020_12_or_undeclared_schema_keeps_what_it_says():
    plain = {**BOUNDS}
    del plain["$schema"]
    assert "$schema" not in _sent(plain, "mcp")
    declared = {**TUPLE, "$schema": "https://json-schema.org/draft/2020-12/schema"}
    assert _sent(declared, "mcp")["$schema"] == declared["$schema"]
    untouched = {"$schema": DRAFT7, "type": "object", "properties": {"a": {"type": "string"}}}
    assert _sent(untouched, "mcp")["$schema"] == DRAFT7  # nothing rewritten: the dialect stays


# MCP's schema.json, `Tool.inputSchema` (modelcontextprotocol/modelcontextprotocol schema/2025-11-25 and
# schema/2026-07-28; docs/provider-facts-more.md MCP-2511-SCHEMA, MCP-2607-SCHEMA): an object whose
# `type` is "object"; 2025-11-25 types `properties` values as objects; neither closes the object.
MCP_INPUT_SCHEMA = {
    "2025-11-25": {"type": "object", "required": ["type"], "properties": {
        "$schema": {"type": "string"}, "type": {"const": "object", "type": "string"},
        "properties": {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": True,
                                                                  "properties": {}}},
        "required": {"type": "array", "items": {"type": "string"}}}},
    "2026-07-28": {"type": "object", "required": ["type"], "additionalProperties": {}, "properties": {
        "$schema": {"type": "string"}, "type": {"const": "object", "type": "string"}}},
}
ROOTS = [
    {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
               {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]}]},
    {"type": "object", "properties": {"a": {"type": "string"}}, "oneOf": [{"required": ["a"]}, {"not": {}}]},
    {"properties": {"a": {"type": "string"}, "b": True}, "if": {"required": ["a"]}, "then": {"required": ["b"]}},
    {"not": {"required": ["x"]}},
    {"oneOf": [{"type": "object", "properties": {"a": {}}}, {"type": "null"}]},
]


@pytest.mark.parametrize("version", sorted(MCP_INPUT_SCHEMA))
@pytest.mark.parametrize("strict", ["auto", "false"])
def test_an_mcp_root_with_combinators_is_one_the_mcp_schema_accepts(version, strict):
    meta = jsonschema.Draft7Validator(MCP_INPUT_SCHEMA[version])
    for root in ROOTS:
        res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": root}, target="mcp",
                                    rules=f"mcp@{version}", strict=strict)
        sent = res.tool["inputSchema"]
        assert sent["type"] == "object" and not list(meta.iter_errors(sent)), (root, sent)
        if root is not ROOTS[-1]:  # (a null branch beside the object is left out: arguments are an object)
            assert set(root) - {"type", "properties"} <= set(sent)  # the combinators are sent, not dropped
