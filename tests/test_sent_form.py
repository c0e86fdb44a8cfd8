"""The form a tool is sent in without strict: the original with the fewest rewrites its provider accepts (toolcast.sendable), each reported; the root read as an object in every form."""

from __future__ import annotations

import copy

import pytest
from rule_facts import unsupported_format

import toolcast
from toolcast.providers import EMITTERS

JSON_SCHEMA_TARGETS = [("openai", "responses"), ("openai", "chat"), ("anthropic", None), ("gemini", "json-schema"),
                       ("vertex", "json-schema")]
MODES = ["auto", False]


def _schema(res):
    return EMITTERS[res.rules.split("@")[0].split("-")[0]].schema_of(res.tool)


def _changes(res, applied=True):
    return {(t.code, t.path) for t in res.transformations if t.applied is applied}


def _compile(schema, target, api, strict="auto"):
    tool = {"name": "t", "description": "d", "inputSchema": schema}
    before = copy.deepcopy(tool)
    res = toolcast.compile_tool(tool, target=target, api=api, strict=strict)
    assert tool == before  # never mutated
    return res


UNION = {"anyOf": [
    {"type": "object", "properties": {"a": {"type": "string"}, "n": {"type": "integer"}}, "required": ["a", "n"]},
    {"type": "object", "properties": {"b": {"type": "string"}, "n": {"type": "number"}}, "required": ["b", "n"]},
    {"type": "string"}]}


@pytest.mark.parametrize("target,api", JSON_SCHEMA_TARGETS)
@pytest.mark.parametrize("strict", MODES)
def test_a_root_union_goes_out_as_one_object(target, api, strict):
    """Cloudflare's and Meta Ads' servers, pydantic unions at the top: every provider rejects a root
    anyOf/oneOf whatever the strict flag; it goes out as one object, lossy, said so."""
    for key in ("anyOf", "oneOf"):
        res = _compile({key: UNION["anyOf"]}, target, api, strict)
        assert res.status == "non-strict"
        sent = _schema(res)
        assert sent["type"] == "object" and not {"anyOf", "oneOf", "allOf"} & set(sent)
        assert list(sent["properties"]) == ["a", "n", "b"]
        assert sent["properties"]["n"] == {"anyOf": [{"type": "integer"}, {"type": "number"}]}
        assert sent["required"] == ["n"]  # required where every object branch requires it
        lifted = [t for t in res.transformations if t.code == "merged-root-combinator"]
        assert [(t.path, t.lossy, t.applied) for t in lifted] == [(f"#/{key}", True, True)]
        assert "1 that admit no object left out" in lifted[0].detail


@pytest.mark.parametrize("target,api", [("openai", "responses"), ("gemini", "json-schema")])
def test_root_keywords_the_provider_refuses_are_dropped(target, api):
    res = _compile({"type": "object", "properties": {"a": {"type": "string"}}, "not": {"required": ["a"]},
                    "enum": [{"a": "x"}]}, target, api, strict=False)
    sent = _schema(res)
    assert "not" not in sent and "enum" not in sent
    assert {("dropped-root-keyword", "#/not"), ("dropped-root-keyword", "#/enum")} <= _changes(res)


def test_a_root_all_of_is_merged_and_what_a_part_adds_is_reported_lost():
    res = _compile({"allOf": [{"$ref": "#/$defs/A"}, {"properties": {"b": {"type": "integer"}}, "minProperties": 1}],
                    "$defs": {"A": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}}},
                   "anthropic", None, strict=False)
    sent = _schema(res)
    assert "allOf" not in sent and sent["properties"] == {"a": {"type": "string"}, "b": {"type": "integer"}}
    assert sent["required"] == ["a"]
    assert ("merged-root-all-of", "#/allOf") in _changes(res)
    lost = [t for t in res.transformations if t.code == "dropped-root-keyword"]
    assert [(t.path, t.lossy) for t in lost] == [("#/allOf/1/minProperties", True)]


@pytest.mark.parametrize("root", [
    {"type": "object", "nullable": True, "properties": {"a": {"type": "string"}}, "required": ["a"]},
    {"type": ["object", "null"], "properties": {"a": {"type": "string"}}, "required": ["a"]},
    {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, {"type": "null"}]},
])
@pytest.mark.parametrize("target,api", [*JSON_SCHEMA_TARGETS, ("gemini", "parameters"), ("vertex", "parameters")])
def test_a_root_that_admits_null_is_the_object_alone_in_every_form(root, target, api):
    """OpenAPI request bodies: `nullable: true` at the root compiled strict to ["object", "null"],
    which OpenAI rejects. The object alone is read, a narrowing (not lossy), in every form."""
    for strict in ("auto", True, False):
        res = _compile(root, target, api, strict)
        assert res.status != "refused", (target, api, strict)
        sent = _schema(res)
        assert sent["type"] in ("object", "OBJECT") and "nullable" not in sent and "anyOf" not in sent
        narrowed = [t for t in res.transformations if t.code == "narrowed-root-to-object"]
        assert narrowed and all(t.applied and not t.lossy for t in narrowed)
    assert _compile(root, target, api).status == "strict"


def test_nullable_beside_a_declared_dialect_is_no_narrowing():
    res = _compile({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "nullable": True,
                    "properties": {}}, "openai", "responses")
    assert not any(t.code == "narrowed-root-to-object" for t in res.transformations)


GEMINI = [("gemini", "json-schema"), ("vertex", "json-schema")]


@pytest.mark.parametrize("target,api", GEMINI)
def test_annotations_beside_ref_are_dropped_and_constraints_wrapped(target, api):
    """Every pydantic Enum field with a default: `{"$ref", "default", "description"}`; Gemini takes
    only `$` keywords beside `$ref`."""
    res = _compile({"type": "object", "properties": {
        "color": {"$ref": "#/$defs/Color", "default": "red", "description": "The color.", "$comment": "kept"},
        "code": {"$ref": "#/$defs/Code", "maxLength": 3, "title": "Code"},
        "page": {"type": "string", "format": unsupported_format(target, api)}},  # (not strict: the sent form is the original's)
        "$defs": {"Color": {"type": "string", "enum": ["red", "blue"]}, "Code": {"type": "string"}}},
        target, api)
    assert res.status == "non-strict"
    props = _schema(res)["properties"]
    assert props["color"] == {"$ref": "#/$defs/Color", "$comment": "kept"}
    assert props["code"] == {"allOf": [{"$ref": "#/$defs/Code"}, {"maxLength": 3}]}
    changes = _changes(res)
    assert {("dropped-ref-sibling-annotation", "#/properties/color/default"),
            ("dropped-ref-sibling-annotation", "#/properties/color/description"),
            ("dropped-ref-sibling-annotation", "#/properties/code/title"),
            ("wrapped-ref-siblings-in-all-of", "#/properties/code/$ref")} <= changes
    assert not any(t.lossy for t in res.transformations if t.applied and t.code.endswith("ref-sibling-annotation"))


def test_openai_keeps_what_it_takes_beside_ref():
    lost = unsupported_format("openai", "responses")  # (not strict: the sent form is the original's)
    res = _compile({"type": "object", "properties": {"c": {"$ref": "#/$defs/C", "default": "x"},
                                                      "u": {"type": "string", "format": lost}},
                    "$defs": {"C": {"type": "string"}}}, "openai", "responses")
    assert _schema(res)["properties"]["c"] == {"$ref": "#/$defs/C", "default": "x"}


@pytest.mark.parametrize("target,api", GEMINI)
def test_recursion_through_a_required_property_is_made_optional(target, api):
    """"May only be used within non-required properties. (Nullable properties are not sufficient.)\""""
    res = _compile({"type": "object", "properties": {"head": {"$ref": "#/$defs/Node"}}, "required": ["head"],
                    "$defs": {"Node": {"type": "object", "properties": {
                        "value": {"type": "string"},
                        "next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]},
                        "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                        "required": ["value", "next", "kids"]}}}, target, api)
    sent = _schema(res)
    assert sent["required"] == ["head"]  # (the root's property lies on no cycle)
    assert sent["$defs"]["Node"]["required"] == ["value"]
    made = [t for t in res.transformations if t.code == "made-recursive-property-optional"]
    assert sorted(t.path for t in made) == ["#/$defs/Node/properties/kids", "#/$defs/Node/properties/next"]
    assert all(t.lossy and t.applied for t in made)


@pytest.mark.parametrize("target,api", GEMINI)
def test_a_cycle_through_no_property_loses_one_ref(target, api):
    res = _compile({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
                    "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/A"}]}}},
                   target, api)
    cuts = [t for t in res.transformations if t.code == "cut-recursive-reference"]
    assert len(cuts) == 1 and cuts[0].lossy and cuts[0].applied


@pytest.mark.parametrize("target,api", JSON_SCHEMA_TARGETS)
def test_a_ref_by_id_is_made_local_and_an_external_one_refused(target, api):
    doc = {"type": "object", "properties": {"addr": {"$ref": "https://example.com/address.json"},
                                            "u": {"type": "string", "format": "uri", "pattern": "(?=x)"}},
           "$defs": {"A": {"$id": "https://example.com/address.json", "type": "object",
                           "properties": {"city": {"type": "string"}}}}}
    res = _compile(doc, target, api, strict=False)
    sent = _schema(res)
    assert sent["properties"]["addr"] == {"$ref": "#/$defs/A"}
    assert "$id" not in sent["$defs"]["A"]
    doc = {"type": "object", "properties": {"addr": {"$ref": "https://example.com/elsewhere.json"}}}
    for strict in ("auto", False):
        res = _compile(doc, target, api, strict)
        assert res.status == "refused" and res.tool is None
        assert any(d.code.endswith("/external-ref") for d in res.diagnostics)


@pytest.mark.parametrize("target,api", [*JSON_SCHEMA_TARGETS, ("gemini", "parameters"), ("vertex", "parameters")])
def test_a_draft_04_boolean_bound_becomes_its_number(target, api):
    """Dokploy/mcp#74: Anthropic rejects `exclusiveMinimum: true` even without strict."""
    doc = {"type": "object", "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
                                            "m": {"type": "number", "maximum": 9, "exclusiveMaximum": False}},
           "required": ["n", "m"]}
    for strict in ("auto", False):
        res = _compile(doc, target, api, strict)
        assert res.status != "refused", (target, api, strict, [d.code for d in res.diagnostics])
        converted = {t.path for t in res.transformations if t.code == "converted-dialect-keyword" and t.applied}
        assert converted == {"#/properties/n/exclusiveMinimum", "#/properties/m/exclusiveMaximum"}
        if api != "parameters" and res.status == "non-strict":
            assert _schema(res)["properties"] == {"n": {"type": "number", "exclusiveMinimum": 0},
                                                  "m": {"type": "number", "maximum": 9}}


def test_vertex_any_of_stands_alone():
    """Vertex: "When using anyOf, it must be the only field set"."""
    res = _compile({"type": "object", "properties": {
        "v": {"description": "A number or a word.", "anyOf": [{"type": "string"}, {"$ref": "#/$defs/N"}], "minimum": 1},
        "u": {"type": "string", "format": unsupported_format("vertex", "json-schema")}},
        "$defs": {"N": {"type": "integer"}}}, "vertex", "json-schema")
    v = _schema(res)["properties"]["v"]
    assert list(v) == ["anyOf"]
    assert v["anyOf"] == [{"type": "string", "minimum": 1, "description": "A number or a word."},
                          {"allOf": [{"$ref": "#/$defs/N"}, {"minimum": 1}], "description": "A number or a word."}]
    assert ("moved-any-of-siblings-into-branches", "#/properties/v/anyOf") in _changes(res)


@pytest.mark.parametrize("api", ["parameters"])
@pytest.mark.parametrize("target", ["gemini", "vertex"])
def test_the_converted_form_reports_its_changes_applied(target, api):
    """Gemini/Vertex `parameters` send the converted schema strict or not: what it changed is in it."""
    res = _compile({"type": "object", "properties": {"u": {"type": "string", "format": unsupported_format(target, api)},
                                                      "t": {"type": ["string", "null"]}}}, target, api)
    assert res.status == "non-strict"
    sent = _schema(res)
    assert "format" not in sent["properties"]["u"] and sent["properties"]["t"]["type"] == "STRING"
    assert all(t.applied for t in res.transformations)
    assert {"dropped-unsupported-format", "converted-type-list-to-nullable"} <= {t.code for t in res.transformations}
