"""Gemini and Vertex AI `api="parameters"` (the OpenAPI Schema subset): the default API, the schema form, objects, enums, non-strict tools, the CLI and the rules commands."""

from __future__ import annotations

import io
import json

import pytest
from corpus_paths import JSTS
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from oracles import gemini as gemini_oracle
from sdk_checks import sdk_round_trip
from strategies import SETTINGS, schemas

import toolcast
from toolcast.cli.main import main
from toolcast.compile import compile_request
from toolcast.rules import get_rules
from toolcast.walk.state import Walk
from toolcast.walk.subset import to_subset


def _tool(schema: dict, name: str = "t") -> dict:
    return {"name": name, "description": "d", "inputSchema": schema}


def _changes(res: toolcast.CompileResult) -> list[tuple[str, str]]:
    return [(t.code, t.path) for t in res.transformations]


def _codes(res: toolcast.CompileResult) -> list[tuple[str, str]]:
    return [(d.code, d.path) for d in res.diagnostics]


def _sent_ok(res: toolcast.CompileResult, target: str = "gemini") -> dict:
    """The declaration's `parameters`, after the oracle and the SDK have taken the declaration."""
    assert gemini_oracle.declaration_violations(res.tool, target) == []
    assert sdk_round_trip(res.tool) == res.tool
    return res.tool["parameters"]


@pytest.mark.parametrize("target", ("gemini", "vertex"))
def test_parameters_is_the_default_api(target):
    res = toolcast.compile_tool(_tool({"type": "object", "properties": {"a": {"type": "string"}}}), target=target)
    assert res.api == "parameters" and res.rules == f"{target}-parameters@" + res.rules.split("@")[1]
    assert set(res.tool) == {"name", "description", "parameters"}
    assert _sent_ok(res, target)["properties"] == {"a": {"type": "STRING"}}
    other = toolcast.compile_tool(_tool({"type": "object", "properties": {"a": {"type": "string"}}}), target=target,
                                  api="json-schema")
    assert "parametersJsonSchema" in other.tool and other.rules.startswith(f"{target}@")


def test_type_list_with_null_is_one_type_plus_nullable():
    schema = {"type": "object", "properties": {"a": {"type": ["string", "null"], "maxLength": 5}}, "required": ["a"]}
    res = toolcast.compile_tool(_tool(schema), target="gemini")
    assert res.status == "strict" and not res.lossy and res.null_paths == ()
    assert _sent_ok(res)["properties"]["a"] == {"type": "STRING", "nullable": True, "maxLength": 5}
    assert ("converted-type-list-to-nullable", "#/properties/a/type") in _changes(res)


def test_type_list_of_two_types_becomes_any_of_with_each_types_keywords():
    schema = {"type": "object", "properties": {"v": {"type": ["string", "integer"], "minLength": 1, "minimum": 0,
                                                     "description": "v"}}}
    res = toolcast.compile_tool(_tool(schema), target="vertex")
    assert res.status == "strict"
    assert _sent_ok(res, "vertex")["properties"]["v"] == {"anyOf": [
        {"type": "STRING", "description": "v", "minLength": 1}, {"type": "INTEGER", "description": "v", "minimum": 0}]}


def test_null_branch_of_any_of_becomes_nullable():
    schema = {"type": "object", "properties": {"p": {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]}},
              "$defs": {"P": {"type": "object", "properties": {"x": {"type": "integer"}}}}}
    res = toolcast.compile_tool(_tool(schema), target="gemini")
    assert res.status == "strict"
    assert _sent_ok(res)["properties"]["p"] == {"type": "OBJECT", "nullable": True,
                                                "properties": {"x": {"type": "INTEGER"}}}


def test_non_recursive_references_are_inlined_exactly_and_reported():
    addr = {"type": "object", "properties": {"street": {"type": "string"}, "zip": {"type": "string"}},
            "required": ["street"]}
    schema = {"type": "object", "properties": {"to": {"$ref": "#/$defs/addr"}, "from": {"$ref": "#/$defs/addr"}},
              "required": ["to"], "$defs": {"addr": addr}}
    res = toolcast.compile_tool(_tool(schema), target="gemini")
    assert res.status == "strict" and not res.lossy
    params = _sent_ok(res)
    inlined = {"type": "OBJECT", "properties": {"street": {"type": "STRING"}, "zip": {"type": "STRING"}},
               "required": ["street"], "propertyOrdering": ["street", "zip"]}
    assert params["properties"] == {"to": inlined, "from": inlined} and "$defs" not in params
    assert [c for c in _changes(res) if c[0] == "inlined-reference"] == [
        ("inlined-reference", "#/properties/to/$ref"), ("inlined-reference", "#/properties/from/$ref")]
    assert "$ref" not in json.dumps(params)


def _sent_means(res: toolcast.CompileResult, target: str) -> Draft202012Validator:
    """What the sent `parameters` Schema accepts, read as the oracle reads it (tests/oracles/gemini.py)."""
    return Draft202012Validator(gemini_oracle.parameters_as_json_schema(_sent_ok(res, target)))


@pytest.mark.parametrize("target", ("gemini", "vertex"))
def test_a_reference_is_percent_decoded_before_it_is_read_as_a_pointer(target):
    schema = {"type": "object", "required": ["f", "g"],
              "properties": {"f": {"$ref": "#/$defs/p%25q"}, "g": {"$ref": "#/$defs/a~1b%20c"}},
              "$defs": {"p%q": {"type": "string", "maxLength": 1}, "a/b c": {"type": "integer"}}}
    res = toolcast.compile_tool(_tool(schema), target=target)
    assert res.status == "strict" and not res.lossy
    assert _sent_ok(res, target)["properties"] == {"f": {"type": "STRING", "maxLength": 1}, "g": {"type": "INTEGER"}}
    assert not _sent_means(res, target).is_valid({"f": 12345, "g": 1})
    # JSON-Schema-Test-Suite, ref.json "escaped pointer ref": every verdict kept.
    group = next(g for g in json.loads((JSTS / "ref.json").read_text(encoding="utf-8"))
                 if g["description"] == "escaped pointer ref")
    res = toolcast.compile_tool(_tool(group["schema"]), target=target)
    assert res.status == "strict" and not res.lossy
    sent = _sent_means(res, target)
    assert [sent.is_valid(t["data"]) for t in group["tests"]] == [t["valid"] for t in group["tests"]]


def test_a_reference_the_subset_cannot_inline_is_refused_not_left_out():
    walk = Walk(get_rules("gemini-parameters"))
    schema = {"type": "object", "properties": {"f": {"$ref": "#/$defs/q"}}, "$defs": {"p": {"type": "string"}}}
    to_subset(walk, schema)
    assert walk.refusals
    assert [(d[0], d[2]) for d in walk.diags] == [("gemini/unresolvable-ref", ("properties", "f", "$ref"))]


# JSON values to compare what a node accepts before and after (numbers as JSON compares them).
_VALUES = (None, True, False, 0, 1, 1.0, 2.5, -3, "", "x", "1", "True", [], ["x"], {}, {"k": "x"})


@pytest.mark.parametrize("target", ("gemini", "vertex"))
@pytest.mark.parametrize("node", (
    {"type": "string", "enum": ["x", None]},  # the type rejects null: the enum's null is no value
    {"type": ["string", "null"], "enum": ["x"]},  # the enum rejects null: the type's null is no value
    {"type": ["string", "null"], "enum": ["x", None]},
    {"type": ["string", "null"], "enum": [None]},
    {"type": ["string", "integer", "null"], "enum": ["x", None]},
    {"type": ["string", "integer", "null"], "enum": ["x", 1]},
    {"type": ["string", "integer"], "enum": ["x", 1, None]},
    {"type": ["string", "integer", "null"], "enum": [None]},
    {"type": "integer", "enum": ["1", 1, True]},  # "1" and true are no integers
    {"type": "number", "enum": [2.5, 1, None]},
    {"type": "boolean", "enum": ["True", None]},  # no value (as written: BOOLEAN reads strings as strings)
    {"enum": ["x", None]},
    {"type": ["integer", "null"], "anyOf": [{"type": "integer"}, {"const": None}]},
    {"type": "array", "items": {"type": "string", "enum": ["x", None]}},
))
def test_what_a_node_says_about_null_and_its_enum_survives_exactly(node, target):
    schema = {"type": "object", "required": ["a"], "properties": {"a": node}}
    res = toolcast.compile_tool(_tool(schema), target=target, strict="false")
    assert res.tool is not None, _codes(res)  # each has a form
    sent, original = _sent_means(res, target), Draft202012Validator(schema)
    wider = [v for v in _VALUES if sent.is_valid({"a": v}) and not original.is_valid({"a": v})]
    narrower = [v for v in _VALUES if original.is_valid({"a": v}) and not sent.is_valid({"a": v})]
    assert not narrower and (not wider or res.lossy), (wider, narrower, res.tool)


@pytest.mark.parametrize("target", ("gemini", "vertex"))
@pytest.mark.parametrize("root", (
    {"minProperties": 1},
    {"maxProperties": 0},
    {"minProperties": 2, "maxProperties": 1},
    {"description": "at least one", "minProperties": 1},
))
def test_a_root_without_type_keeps_what_it_says_of_objects(root, target):
    # Found by testing the strict-and-not-lossy promise: a root without `type` and without
    # `properties` was read as a tool without parameters, and what it said of objects was left out
    # with no finding: {"minProperties": 1} sent strict as {"type": "OBJECT"} accepted {}.
    res = toolcast.compile_tool(_tool(root), target=target)
    assert res.status == "strict" and not res.lossy, _codes(res)
    assert ("inferred-type", "#/type") in _changes(res)
    sent, original = _sent_means(res, target), Draft202012Validator(root)
    for value in ({}, {"a": 1}, {"a": 1, "b": "x"}):
        assert sent.is_valid(value) == original.is_valid(value), (value, res.tool)


@pytest.mark.parametrize("target", ("gemini", "vertex"))
def test_null_is_nullable_only_where_every_constraint_takes_it(target):
    def sent(node: dict) -> dict:
        res = toolcast.compile_tool(_tool({"type": "object", "required": ["a"], "properties": {"a": node}}),
                                    target=target)
        assert res.status == "strict" and not res.lossy
        return _sent_ok(res, target)["properties"]["a"]

    assert sent({"type": "string", "enum": ["x", None]}) == {"type": "STRING", "enum": ["x"]}
    assert sent({"type": ["string", "null"], "enum": ["x"]}) == {"type": "STRING", "enum": ["x"]}
    assert sent({"type": ["string", "null"], "enum": ["x", None]}) == {"type": "STRING", "nullable": True, "enum": ["x"]}
    assert sent({"type": ["string", "integer", "null"], "enum": [None]}) == {"type": "NULL"}
    assert sent({"enum": ["x", None]}) == {"type": "STRING", "nullable": True, "enum": ["x"]}


@pytest.mark.parametrize("target", ("gemini", "vertex"))
@pytest.mark.parametrize(("node", "at"), (
    ({"type": "integer", "enum": [None]}, "#/properties/a/enum"),
    ({"type": "integer", "anyOf": [{"type": "integer"}, {"const": None}]}, "#/properties/a/anyOf/1"),
    ({"type": "integer", "enum": ["1"]}, "#/properties/a/enum"),  # an INTEGER's enum of "1" would mean 1
    ({"type": ["boolean", "null"], "enum": ["True"]}, "#/properties/a/enum"),
))
def test_an_enum_without_a_value_of_its_type_that_cannot_be_written_is_refused(node, at, target):
    res = toolcast.compile_tool(_tool({"type": "object", "required": ["a"], "properties": {"a": node}}),
                                target=target, strict="false")
    assert res.status == "refused" and res.tool is None
    assert any(c == f"{target}/unsatisfiable-schema" and p.startswith(at) for c, p in _codes(res)), _codes(res)


def test_enum_members_of_other_types_go_to_no_branch_of_a_type_list():
    schema = {"type": "object", "required": ["p", "q"], "properties": {
        "p": {"type": "integer", "enum": ["1", 1, 2.0, 2.5]}, "q": {"type": ["string", "integer"], "enum": ["x", 1]}}}
    res = toolcast.compile_tool(_tool(schema), target="vertex")
    assert res.status == "strict" and not res.lossy
    assert _sent_ok(res, "vertex")["properties"] == {
        "p": {"type": "INTEGER", "enum": ["1", "2"], "format": "enum"},
        "q": {"anyOf": [{"type": "STRING", "enum": ["x"]}, {"type": "INTEGER", "enum": ["1"], "format": "enum"}]}}


@pytest.mark.parametrize("strict", ("auto", "true", "false"))
def test_recursion_is_refused_in_every_mode(strict):
    schema = {"type": "object", "properties": {"tree": {"$ref": "#/$defs/node"}},
              "$defs": {"node": {"type": "object", "properties": {"kids": {"type": "array",
                                                                            "items": {"$ref": "#/$defs/node"}}}}}}
    res = toolcast.compile_tool(_tool(schema), target="gemini", strict=strict)
    # The original JSON Schema is no parameters Schema, so nothing can be sent.
    assert res.status == "refused" and res.tool is None
    assert ("gemini/recursive-schema", "#/$defs/node") in _codes(res)


def test_gemini_objects_without_additional_properties():
    schema = {"type": "object", "properties": {
        "open": {"type": "object", "properties": {"a": {"type": "string"}}},
        "closed": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}}}
    # An open object loses nothing: the Schema's object accepts other keys too.
    res = toolcast.compile_tool(_tool({"type": "object", "properties": {"open": schema["properties"]["open"]}}),
                                target="gemini")
    assert res.status == "strict" and not res.lossy
    # `additionalProperties: false` cannot be written: the sent schema accepts more (lossy).
    res = toolcast.compile_tool(_tool(schema), target="gemini")
    assert res.status == "non-strict" and res.lossy
    assert ("gemini/additional-properties-unexpressed", "#/properties/closed/additionalProperties") in _codes(res)
    assert "additionalProperties" not in json.dumps(_sent_ok(res))
    res = toolcast.compile_tool(_tool(schema), target="gemini", allow_lossy=True)
    assert res.status == "strict"


def test_vertex_sends_objects_as_written():
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}
    res = toolcast.compile_tool(_tool(schema), target="vertex")
    assert res.status == "strict" and _sent_ok(res, "vertex")["additionalProperties"] is False
    # Open and free-form objects stay open (the json-schema API closes them, and refuses to
    # narrow a free-form object to an empty one).
    schema = {"type": "object", "properties": {"meta": {"type": "object"}, "o": {"type": "object", "properties": {
        "x": {"type": "integer"}}}}}
    res = toolcast.compile_tool(_tool(schema), target="vertex")
    assert res.status == "strict" and not res.lossy
    assert _sent_ok(res, "vertex")["properties"] == {"meta": {"type": "OBJECT"}, "o": {
        "type": "OBJECT", "properties": {"x": {"type": "INTEGER"}}}}
    assert toolcast.compile_tool(_tool(schema), target="vertex", api="json-schema").status == "non-strict"


def test_number_enums_dropped_on_gemini_written_as_strings_on_vertex():
    schema = {"type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2, 3]}}, "required": ["level"]}
    res = toolcast.compile_tool(_tool(schema), target="gemini")
    assert res.status == "non-strict" and ("gemini/enum-values-not-strings", "#/properties/level/enum") in _codes(res)
    assert ("dropped-non-string-enum", "#/properties/level/enum") in _changes(res)
    assert _sent_ok(res)["properties"]["level"] == {"type": "INTEGER"}
    res = toolcast.compile_tool(_tool(schema), target="vertex")
    assert res.status == "strict" and not res.lossy
    assert _sent_ok(res, "vertex")["properties"]["level"] == {"type": "INTEGER", "enum": ["1", "2", "3"], "format": "enum"}


def test_enum_without_type_gets_the_type_of_its_values():
    schema = {"type": "object", "properties": {"k": {"enum": ["a", "b"]}}}
    res = toolcast.compile_tool(_tool(schema), target="gemini")
    assert res.status == "strict" and _sent_ok(res)["properties"]["k"] == {"type": "STRING", "enum": ["a", "b"]}


def test_property_ordering_keeps_the_authors_order():
    props = {"zeta": {"type": "string"}, "alpha": {"type": "string"}, "mid": {"type": "boolean"}}
    res = toolcast.compile_tool(_tool({"type": "object", "properties": props}), target="gemini")
    assert _sent_ok(res)["propertyOrdering"] == ["zeta", "alpha", "mid"]
    assert ("added-property-ordering", "#/properties") in _changes(res)


def test_unsupported_keyword_is_lossy_and_the_tool_still_goes_with_the_converted_schema():
    schema = {"type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": 0}}}
    res = toolcast.compile_tool(_tool(schema), target="gemini")
    assert res.status == "non-strict"
    assert ("gemini/unsupported-keyword", "#/properties/n/exclusiveMinimum") in _codes(res)
    assert _sent_ok(res)["properties"]["n"] == {"type": "NUMBER"}  # never the original JSON Schema
    refused = toolcast.compile_tool(_tool(schema), target="gemini", strict="true")
    assert refused.status == "refused" and refused.tool is None


def test_strict_false_sends_the_converted_schema():
    schema = {"type": "object", "properties": {"a": {"type": ["integer", "null"]}}, "additionalProperties": False}
    res = toolcast.compile_tool(_tool(schema), target="gemini", strict="false")
    assert res.status == "non-strict" and "gemini/strict-disabled" in {d.code for d in res.diagnostics}
    assert _sent_ok(res) == {"type": "OBJECT", "properties": {"a": {"type": "INTEGER", "nullable": True}}}


def test_a_tool_without_parameters_sends_an_object_without_empty_properties():
    res = toolcast.compile_tool({"name": "ping", "description": "d"}, target="gemini")
    assert res.status == "strict" and _sent_ok(res) == {"type": "OBJECT"}


def test_inlining_that_multiplies_past_the_cap_is_refused():
    # Each definition uses the next twice: 2**20 copies once written out.
    defs = {f"d{i}": {"type": "object", "properties": {"l": {"$ref": f"#/$defs/d{i + 1}"},
                                                       "r": {"$ref": f"#/$defs/d{i + 1}"}}} for i in range(20)}
    defs["d20"] = {"type": "string"}
    schema = {"type": "object", "properties": {"root": {"$ref": "#/$defs/d0"}}, "$defs": defs}
    res = toolcast.compile_tool(_tool(schema), target="gemini")
    assert res.status == "refused" and ("gemini/inlined-schema-too-large", "#") in _codes(res)
    # The JSON Schema API keeps the references, so it is not affected.
    assert toolcast.compile_tool(_tool(schema), target="gemini", api="json-schema").status == "strict"


def test_request_tools_entry_holds_the_declarations():
    req = compile_request([_tool({"type": "object", "properties": {"a": {"type": "string"}}}, n) for n in "ab"],
                          target="gemini")
    assert req.tools == [{"functionDeclarations": [r.tool for r in req.results]}]
    assert all("parameters" in d for d in req.tools[0]["functionDeclarations"])


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def test_cli_api_choice(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_tool({"type": "object", "properties": {"a": {"type": "string"}}})), encoding="utf-8")
    code, out, _ = _run("compile", str(path), "--target", "gemini", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["api"] == "parameters" and doc["rules"].startswith("gemini-parameters@")
    assert doc["results"][0]["tool"]["parameters"]["properties"]["a"] == {"type": "STRING"}
    code, out, _ = _run("compile", str(path), "--target", "vertex", "--api", "json-schema", "--format", "json")
    assert code == 0 and "parametersJsonSchema" in json.loads(out)["results"][0]["tool"]
    # A rules version of the target's json-schema family picks that API.
    code, out, _ = _run("compile", str(path), "--target", "gemini", "--rules", "gemini@2025-11-05", "--format", "json")
    assert code == 0 and json.loads(out)["api"] == "json-schema"
    code, _, err = _run("compile", str(path), "--target", "gemini", "--api", "responses")
    assert code == 2 and "available: parameters, json-schema" in err


def test_rules_commands_show_the_parameter_families():
    code, out, _ = _run("rules", "list")
    assert code == 0 and "gemini-parameters@" in out and "vertex-parameters@" in out
    code, out, _ = _run("rules", "matrix", "--format", "json")
    m = json.loads(out)
    col = next(c for c in m["columns"] if c.startswith("gemini-parameters@"))
    assert m["keywords"]["$ref"][col]["state"] == "converted"
    assert m["keywords"]["additionalProperties"][col]["state"] == "dropped-with-loss"
    assert m["policy"]["schema_form"][col] == "openapi-subset"
    code, out, _ = _run("rules", "diff", "gemini@2025-11-05", col, "--format", "json")
    assert code == 0 and json.loads(out)


@SETTINGS
@given(schema=schemas(), target=st.sampled_from(("gemini", "vertex")), strict=st.sampled_from(("auto", "true", "false")))
def test_every_sent_parameters_declaration_is_accepted(schema, target, strict):
    """Whatever the input and mode, a declaration that is sent (strict or not) passes the oracle
    and the SDK's typed FunctionDeclaration; one that cannot be written is refused, never sent
    with the original JSON Schema."""
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, target=target, strict=strict)
    if res.tool is None:
        assert res.status == "refused"
        return
    _sent_ok(res, target)
