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


D4, D7 = "http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-07/schema#"
# The red-team's second fuzz of the twelfth session: what surrounds the merge.
AROUND = {
    # a chain of root `$ref`s whose middle link says more: it was skipped on the way to the end
    "chain-with-a-constraint": ({"$ref": "#/$defs/A", "$defs": {
        "A": {"$ref": "#/$defs/B", "required": ["x"]},
        "B": {"type": ["object", "null"], "properties": {"x": {"type": "integer"}}}}}, [{}, {"x": 1}, {"x": None}]),
    # a definition with a base of its own, inlined at the root, moved its base there
    "definition-with-its-own-id": ({"$ref": "#/$defs/A", "$defs": {
        "X": {"type": "integer"},
        "A": {"$id": "http://example.com/a.json", "type": ["object", "null"], "properties": {"q": {"$ref": "#/$defs/X"}},
              "$defs": {"X": {"type": "string"}}}}}, [{"q": "s"}, {"q": 5}]),
    # before 2019-09 a `$ref`'s siblings are ignored: not merged
    "draft-07-siblings-ignored": ({"$schema": D7, "$ref": "#/definitions/A", "required": ["b"], "definitions": {
        "A": {"type": ["object", "null"], "properties": {"a": {"type": "integer"}}}}}, [{"a": 1}, {"a": "x"}, {}]),
    # a root read through an anchor: its `type: ["object"]` as a root's is written
    "anchor-to-a-type-list": ({"$ref": "#ra", "$defs": {"R": {"$anchor": "ra", "type": ["object"],
                                                              "properties": {"a": {"type": "integer"}}}}},
                              [{"a": 1}, {"a": "x"}]),
    # a draft-04 `id` below the root is the base of the references under it
    "draft-04-base-below-the-root": ({"$schema": D4, "type": "object", "properties": {"p": {"$ref": "#/definitions/S"}},
                                     "definitions": {"Z": {"type": "integer"}, "S": {
                                         "id": "http://example.com/sub.json", "type": "object",
                                         "properties": {"q": {"$ref": "#/definitions/Z"}},
                                         "definitions": {"Z": {"type": "string"}}}}},
                                     [{"p": {"q": "s"}}, {"p": {"q": 1}}]),
    # beside `$ref`, draft-04 reads no `id`
    "draft-04-id-beside-ref": ({"$schema": D4, "type": "object", "properties": {
        "p": {"id": "http://example.com/o.json", "$ref": "#/definitions/Z"}, "r": {"$ref": "#x"}},
        "definitions": {"Z": {"type": "integer"}, "X": {"id": "#x", "type": "string"}}},
        [{"p": 1, "r": "s"}, {"p": "s"}, {"r": 1}]),
    # `dependencies` below the root, for a provider that reads every schema as 2020-12
    "draft-07-dependencies-below-the-root": ({"$schema": D7, "type": "object", "properties": {
        "p": {"type": "object", "dependencies": {"a": ["b"]}}}}, [{"p": {"a": 1}}, {"p": {"a": 1, "b": 2}}]),
}


@pytest.mark.parametrize("case", sorted(AROUND))
def test_what_is_sent_means_what_the_original_meant_around_the_merge(case):
    from toolcast.rules import get_rules

    schema, samples = AROUND[case]
    original = jsonschema.validators.validator_for(schema)(schema)
    wrong = []
    for target, api in JSON_SCHEMA_FORMS:
        checker = {mode: Checker(target, api, mode) for mode in MODES}
        for mode in MODES:
            checker[mode].check(_tool(schema), case)
            wrong += [(label(target, api, mode), "oracle", found) for _, found in checker[mode].rejected]
            res = toolcast.compile_tool(_tool(schema), target=target, api=api, strict=mode)
            if res.tool is None or res.lossy:
                continue
            sent = _sent(res)
            reads = get_rules(target).policy.get("sent_metaschema")
            if res.status == "non-strict" and reads != "2020-12" and "$schema" in sent:
                if reads not in (None, "declared"):
                    continue  # (a provider that validates another draft's metaschema: not what it reads arguments as)
                check = jsonschema.validators.validator_for(sent)(sent)
            else:
                check = jsonschema.Draft202012Validator(sent)
            for x in samples:
                if check.is_valid(x) and not original.is_valid(toolcast.strip_nulls(x, res.null_paths)):
                    wrong.append((label(target, api, mode), res.status, "accepts", x))
                if res.status == "non-strict" and original.is_valid(x) and not check.is_valid(x):
                    wrong.append((label(target, api, mode), res.status, "rejects", x))
    assert not wrong, wrong
