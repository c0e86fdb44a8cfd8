"""A root `$ref` beside keywords of the root's own (the "extend a base" shape): the root is the
definition AND its siblings, as JSON Schema reads it, in every form toolcast sends. Where the root
is inlined (the form sent without strict, where the provider refuses root combinators; the root read
as an object before the walk), a keyword both say is merged (properties met, required joined, types
intersected), never the root's replacing the definition's; what cannot be merged side by side is
reported lossy, or left to the walk's own merge; types no value has both of refuse the tool. Judged
over every target, API and mode by instances (jsonschema, after strip_nulls) and by the oracle.
(The red-team's fuzz of the twelfth session, its P1: the root's `properties` or `required` replaced
the definition's, sent strict or without strict as exact.)"""

from __future__ import annotations

import jsonschema
import pytest
from sent_support import MODES, TARGETS, Checker, label

import toolcast

BASE = {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}
NULLABLE = {"type": ["object", "null"], "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a"]}
CASES = {
    "extend-a-base": {"$ref": "#/$defs/Base", "properties": {"extra": {"type": "string"}}, "required": ["extra"],
                      "$defs": {"Base": BASE}},
    "extend-a-base-in-definitions": {"$ref": "#/definitions/Base", "properties": {"extra": {"type": "string"}},
                                     "definitions": {"Base": BASE}},
    "require-more": {"$ref": "#/$defs/C", "required": ["b"], "$defs": {"C": NULLABLE}},
    "narrow-a-property": {"$ref": "#/$defs/C", "properties": {"a": {"minimum": 0}},
                          "$defs": {"C": {"type": ["object"], "properties": {"a": {"type": "integer"}}, "required": ["a"]}}},
    "same-property-twice": {"$ref": "#/$defs/C", "properties": {"a": {"type": "integer"}}, "required": ["a"],
                            "$defs": {"C": {"type": "object", "properties": {"a": {"type": "integer"}}}}},
    "reopen-a-closed-base": {"$ref": "#/$defs/B", "additionalProperties": True,
                             "$defs": {"B": {**BASE, "additionalProperties": False}}},
    "add-to-a-closed-base": {"$ref": "#/$defs/B", "properties": {"x": {"type": "string"}},
                             "$defs": {"B": {**BASE, "additionalProperties": False}}},
    "bound-twice": {"$ref": "#/$defs/B", "properties": {"n": {"type": "number"}}, "minProperties": 1,
                    "$defs": {"B": {"type": "object", "properties": {"n": {"type": "number"}}, "minProperties": 2}}},
}
SAMPLES = [{}, {"id": 1}, {"extra": "x"}, {"id": 1, "extra": "x"}, {"id": "1", "extra": "x"}, {"a": 1}, {"b": 1},
           {"a": 1, "b": 1}, {"a": -1, "b": 1}, {"a": 1.5, "b": 1}, {"a": 2, "b": 2}, {"x": "s"}, {"id": 1, "x": "s"},
           {"id": 1, "x": 2}, {"n": 1}, {"n": 1, "id": 1}, {"id": 1, "zz": 1}]
# Forms a JSON Schema validator reads as sent (the OpenAPI subset of Gemini's and Vertex's
# `parameters` is not JSON Schema: its instances are the oracle's to judge).
JSON_SCHEMA_FORMS = [(t, a) for t, a in TARGETS if a != "parameters"]


def _tool(schema: dict) -> dict:
    return {"name": "t", "description": "d", "inputSchema": schema}


def _sent(result: toolcast.CompileResult) -> dict:
    tool = result.tool
    tool = tool.get("function") or tool.get("toolSpec") or tool
    schema = tool.get("parameters") or tool.get("input_schema") or tool.get("parametersJsonSchema") or tool["inputSchema"]
    return schema["json"] if "toolSpec" in result.tool else schema


@pytest.mark.parametrize("target, api", JSON_SCHEMA_FORMS, ids=[label(t, a) for t, a in JSON_SCHEMA_FORMS])
def test_the_root_is_its_definition_and_its_own_keywords(target, api):
    wrong = []
    for name, schema in CASES.items():
        original = jsonschema.Draft202012Validator(schema)
        for mode in MODES:
            res = toolcast.compile_tool(_tool(schema), target=target, api=api, strict=mode)
            if res.tool is None:
                continue
            sent = jsonschema.Draft202012Validator(_sent(res))
            lossy = res.lossy
            for x in SAMPLES:
                if not sent.is_valid(x):
                    continue
                if not lossy and not original.is_valid(toolcast.strip_nulls(x, res.null_paths)):
                    wrong.append((name, mode, res.status, "accepts", x))
            if res.status == "non-strict" and not lossy:  # (sent as written otherwise: nothing narrowed)
                wrong += [(name, mode, res.status, "rejects", x) for x in SAMPLES
                          if original.is_valid(x) and not sent.is_valid(x)]
    assert not wrong, wrong


def test_what_cannot_be_merged_side_by_side_is_reported_lossy():
    # A closed base beside the root's new property: the property would be let through (the base
    # rejects it), so the form sent without strict says it lost the base's additionalProperties.
    res = toolcast.compile_tool(_tool(CASES["add-to-a-closed-base"]), target="openai", strict=False)
    assert res.status == "non-strict" and res.lossy
    assert any(t.code == "dropped-root-keyword" and "additionalProperties" in t.note
               for t in res.transformations)
    # Merged side by side, exactly: nothing lossy, and the definition's `required` kept.
    res = toolcast.compile_tool(_tool(CASES["extend-a-base"]), target="openai", strict=False)
    assert not res.lossy and sorted(_sent(res)["required"]) == ["extra", "id"]


def test_types_no_value_has_both_of_refuse_the_tool():
    schema = {"$ref": "#/$defs/C", "type": "object", "$defs": {"C": {"type": "string"}}}
    for target, api in TARGETS:
        for mode in MODES:
            res = toolcast.compile_tool(_tool(schema), target=target, api=api, strict=mode)
            if res.status == "refused":
                assert any(d.code.endswith("/unsatisfiable-schema") for d in res.diagnostics)
            else:  # (MCP: sent as written, the root's `$ref` and all, where nothing is inlined)
                assert api != "parameters" and not res.lossy, label(target, api, mode)
                sent = jsonschema.Draft202012Validator(_sent(res))
                assert not any(sent.is_valid(x) for x in SAMPLES), label(target, api, mode)


@pytest.mark.parametrize("target, api", TARGETS, ids=[label(t, a) for t, a in TARGETS])
def test_every_form_sent_is_accepted(target, api):
    for mode in MODES:
        checker = Checker(target, api, mode)
        for name, schema in CASES.items():
            checker.check(_tool(schema), name)
        assert not checker.rejected, checker.report("root $ref beside the root's keywords")
