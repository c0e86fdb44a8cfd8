"""What the walk sends must be what the provider accepts, read as the tool means it ("Every tool
toolcast sends is accepted").

Two holes found in the sent form:

1. Vertex `parameters` (policy `number_enums: as-strings`) wrote every numeric enum as strings,
   NUMBER included: `{"type": "NUMBER", "enum": ["1.5", "2"]}`, reported strict. Vertex takes an
   `enum` on STRING, and on INTEGER written as strings only ("Invalid value at '…enum[0]'
   (TYPE_STRING), 7", weave-os/router#65). An enum on NUMBER whose values are all integers (as JSON
   compares: 2.0 is one, true is not) is written as an INTEGER enum, exactly; any other is dropped,
   a lossy change.
2. `nullable` is OpenAPI's keyword. Beside a declared JSON Schema dialect (`$schema` 2020-12,
   2019-09, draft-07, draft-06, draft-04) it is no keyword: it constrains nothing, so it is dropped
   as an unknown keyword, not turned into a null type (and reported as a fix).
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

import toolcast

# -- helpers --------------------------------------------------------------------------------------


def _tool(props: dict, **extra: Any) -> dict:
    return {"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": props, **extra}}


def _params(res: toolcast.CompileResult) -> dict:
    tool = res.tool
    assert tool is not None, [d.code for d in res.diagnostics]
    tool = tool.get("function", tool)
    for key in ("parameters", "input_schema", "parametersJsonSchema"):
        if key in tool:
            return tool[key]
    raise AssertionError(f"no schema in {tool!r}")


def _codes(res: toolcast.CompileResult) -> list[tuple[str, str]]:
    return [(d.code, d.path) for d in res.diagnostics]


def _changes(res: toolcast.CompileResult) -> list[tuple[str, str, bool]]:
    return [(t.code, t.path, t.lossy) for t in res.transformations]


def _nodes(schema: Any):
    """Every schema object of a sent OpenAPI-subset schema (properties, items, anyOf)."""
    stack = [schema]
    while stack:
        n = stack.pop()
        if type(n) is not dict:
            continue
        yield n
        stack.extend((n.get("properties") or {}).values())
        stack.extend(n.get("anyOf") or [])
        for k in ("items", "additionalProperties"):
            if type(n.get(k)) is dict:
                stack.append(n[k])


def _enums_vertex_takes(schema: dict) -> None:
    """Every `enum` sent on Vertex `parameters` is a list of strings on STRING or INTEGER."""
    for n in _nodes(schema):
        if "enum" in n:
            assert n.get("type") in ("STRING", "INTEGER"), n
            assert all(type(v) is str for v in n["enum"]), n
        if n.get("type") == "INTEGER" and "enum" in n:  # (as the Schema's own example: format enum)
            assert all(str(int(v)) == v for v in n["enum"]) and n.get("format") == "enum", n


# -- 1. Vertex `parameters`: an enum on NUMBER ----------------------------------------------------

# (property schema, the sent property, the place of the enum dropped)
FRACTION_ENUMS = [
    pytest.param({"type": "number", "enum": [1.5, 2]}, {"type": "NUMBER"}, "#/properties/x/enum", id="number"),
    # pydantic's Literal[1.5]
    pytest.param({"type": "number", "const": 1.5}, {"type": "NUMBER"}, "#/properties/x/enum", id="const"),
    # pydantic's Literal[1, 2.5]: an enum without a type (an integer is a number)
    pytest.param({"enum": [1, 2.5]}, {"type": "NUMBER"}, "#/properties/x/enum", id="untyped-mixed"),
    pytest.param({"type": ["number", "null"], "enum": [1.5, None]}, {"type": "NUMBER", "nullable": True},
                 "#/properties/x/enum", id="type-list-null"),
    pytest.param({"type": "number", "nullable": True, "enum": [0.25, None]}, {"type": "NUMBER", "nullable": True},
                 "#/properties/x/enum", id="openapi-nullable"),
    pytest.param({"anyOf": [{"type": "number", "enum": [0.5]}, {"type": "string"}]},
                 {"anyOf": [{"type": "NUMBER"}, {"type": "STRING"}]}, "#/properties/x/anyOf/0/enum", id="any-of-branch"),
    pytest.param({"type": ["number", "string"], "enum": [1.5, "a"]},
                 {"anyOf": [{"type": "NUMBER"}, {"type": "STRING", "enum": ["a"]}]}, "#/properties/x/anyOf/0/enum",
                 id="type-list-split"),
    pytest.param({"type": "number", "enum": [1, 2, 3.75]}, {"type": "NUMBER"}, "#/properties/x/enum",
                 id="one-fraction-among-integers"),
]


@pytest.mark.parametrize(("prop", "sent", "place"), FRACTION_ENUMS)
def test_vertex_number_enum_with_a_fraction_is_dropped_as_lossy(prop, sent, place):
    res = toolcast.compile_tool(_tool({"x": prop}), target="vertex")
    assert res.api == "parameters"
    assert res.status == "non-strict" and res.lossy
    params = _params(res)
    assert params["properties"]["x"] == sent
    _enums_vertex_takes(params)
    assert ("vertex/enum-values-not-strings", place) in _codes(res)
    assert ("dropped-non-string-enum", place, True) in _changes(res)
    assert not any(c == "converted-number-enum-to-strings" for c, _, _ in _changes(res))
    # Under strict=true the lossy drop refuses the tool; allow_lossy sends it (the loss reported).
    assert toolcast.compile_tool(_tool({"x": prop}), target="vertex", strict="true").status == "refused"
    allowed = toolcast.compile_tool(_tool({"x": prop}), target="vertex", allow_lossy=True)
    assert allowed.status == "strict" and _params(allowed)["properties"]["x"] == sent


# (property schema, the sent property, the place of the change)
INTEGER_VALUED_ENUMS = [
    pytest.param({"type": "number", "enum": [1, 2.0]}, {"type": "INTEGER", "enum": ["1", "2"], "format": "enum"},
                 "#/properties/x/enum", id="number"),
    pytest.param({"type": "number", "const": 3}, {"type": "INTEGER", "enum": ["3"], "format": "enum"}, "#/properties/x/enum",
                 id="const"),
    pytest.param({"type": "number", "minimum": 0, "description": "n", "enum": [10, 20]},
                 {"type": "INTEGER", "description": "n", "enum": ["10", "20"], "minimum": 0, "format": "enum"}, "#/properties/x/enum",
                 id="with-bound"),
    # (float and double are NUMBER's formats: the enum fixes the values, so they say nothing more;
    # format enum replaces them)
    pytest.param({"type": "number", "format": "double", "enum": [7]}, {"type": "INTEGER", "enum": ["7"], "format": "enum"},
                 "#/properties/x/enum", id="number-format"),
    pytest.param({"type": ["number", "null"], "enum": [1, 2, None]},
                 {"type": "INTEGER", "nullable": True, "enum": ["1", "2"], "format": "enum"}, "#/properties/x/enum", id="type-list-null"),
    pytest.param({"anyOf": [{"type": "number", "enum": [3]}, {"type": "null"}]},
                 {"type": "INTEGER", "nullable": True, "enum": ["3"], "format": "enum"}, "#/properties/x/anyOf/0/enum",
                 id="any-of-null-branch"),
    pytest.param({"type": ["number", "string"], "enum": [2.0, "a"]},
                 {"anyOf": [{"type": "INTEGER", "enum": ["2"], "format": "enum"}, {"type": "STRING", "enum": ["a"]}]},
                 "#/properties/x/anyOf/0/enum", id="type-list-split"),
]


@pytest.mark.parametrize(("prop", "sent", "place"), INTEGER_VALUED_ENUMS)
def test_vertex_number_enum_of_integers_is_sent_as_an_integer_enum(prop, sent, place):
    res = toolcast.compile_tool(_tool({"x": prop}), target="vertex")
    assert res.status == "strict" and not res.lossy
    params = _params(res)
    assert params["properties"]["x"] == sent
    _enums_vertex_takes(params)
    assert ("converted-number-enum-to-integer", place, False) in _changes(res)
    assert not any(c.endswith("/enum-values-not-strings") for c, _ in _codes(res))


def test_vertex_number_enum_of_integers_in_a_definition_is_converted_once_at_its_place():
    tool = _tool({"a": {"$ref": "#/$defs/Level"}, "b": {"$ref": "#/$defs/Level"}},
                 **{"$defs": {"Level": {"type": "number", "enum": [1, 2]}}})
    res = toolcast.compile_tool(tool, target="vertex")
    assert res.status == "strict"
    params = _params(res)
    assert params["properties"]["a"] == params["properties"]["b"] == {"type": "INTEGER", "enum": ["1", "2"], "format": "enum"}
    assert [p for c, p, _ in _changes(res) if c == "converted-number-enum-to-integer"] == ["#/$defs/Level/enum"]


@pytest.mark.parametrize("prop", [
    {"type": "integer", "enum": [1, 2]},
    {"type": "integer", "enum": [1.0, 2]},
    {"enum": [2.0, 3]},  # (typed by its values: integers, as JSON compares)
    {"type": ["integer", "null"], "enum": [1, None]},
    {"type": "integer", "format": "int64", "enum": [1, 2]},  # (format enum in its place: the values are fixed)
])
def test_vertex_integer_enum_is_written_as_strings_on_integer(prop):
    res = toolcast.compile_tool(_tool({"x": prop}), target="vertex")
    assert res.status == "strict" and not res.lossy
    x = _params(res)["properties"]["x"]
    assert x["type"] == "INTEGER" and x["format"] == "enum" and all(type(v) is str for v in x["enum"])
    assert ("converted-number-enum-to-strings", "#/properties/x/enum", False) in _changes(res)
    assert not any(c == "converted-number-enum-to-integer" for c, _, _ in _changes(res))


def test_gemini_parameters_drops_every_number_enum_and_types_a_mixed_one():
    # number_enums: drop. An untyped enum of integers and fractions (pydantic's Literal[1, 2.5]) is a
    # number enum: dropped as lossy, not refused as a type union.
    res = toolcast.compile_tool(_tool({"x": {"enum": [1, 2.5]}, "y": {"type": "number", "enum": [1, 2]}}),
                                target="gemini")
    assert res.status == "non-strict"
    assert _params(res)["properties"] == {"x": {"type": "NUMBER"}, "y": {"type": "NUMBER"}}
    for place in ("#/properties/x/enum", "#/properties/y/enum"):
        assert ("gemini/enum-values-not-strings", place) in _codes(res)
        assert ("dropped-non-string-enum", place, True) in _changes(res)
    assert not any(c.startswith("converted-number-enum") for c, _, _ in _changes(res))


@pytest.mark.parametrize(("target", "api"), [("openai", None), ("anthropic", None), ("gemini", "json-schema"),
                                             ("vertex", "json-schema")])
def test_json_schema_apis_keep_number_enums_as_numbers(target, api):
    res = toolcast.compile_tool(_tool({"x": {"type": "number", "enum": [1.5, 2]}}, required=["x"]), target=target,
                                api=api)
    assert res.status == "strict" and not res.lossy
    assert _params(res)["properties"]["x"] == {"type": "number", "enum": [1.5, 2]}
    assert not any("enum" in c for c, _, _ in _changes(res))


# -- 2. `nullable` beside a declared dialect ------------------------------------------------------

DIALECTS = {
    "2020-12": ("https://json-schema.org/draft/2020-12/schema", jsonschema.Draft202012Validator),
    "2019-09": ("https://json-schema.org/draft/2019-09/schema", jsonschema.Draft201909Validator),
    "draft-07": ("http://json-schema.org/draft-07/schema#", jsonschema.Draft7Validator),
    "draft-06": ("http://json-schema.org/draft-06/schema#", jsonschema.Draft6Validator),
    "draft-04": ("http://json-schema.org/draft-04/schema#", jsonschema.Draft4Validator),
}
TARGETS = [
    pytest.param("openai", None, id="openai"),
    pytest.param("openai", "chat", id="openai-chat"),
    pytest.param("anthropic", None, id="anthropic"),
    pytest.param("gemini", "parameters", id="gemini-parameters"),
    pytest.param("gemini", "json-schema", id="gemini-json-schema"),
    pytest.param("vertex", "parameters", id="vertex-parameters"),
    pytest.param("vertex", "json-schema", id="vertex-json-schema"),
]


def _prefix(target: str) -> str:
    return target + "/"


def _no_null(node: dict) -> bool:
    """Whether typed schema node `node` rejects null by its type (a list with null, or `nullable`)."""
    t = node.get("type")
    return node.get("nullable") is not True and t not in ("null", "NULL") and not (type(t) is list and "null" in t)


@pytest.mark.parametrize("dialect", list(DIALECTS))
@pytest.mark.parametrize(("target", "api"), TARGETS)
def test_nullable_beside_a_declared_dialect_is_an_unknown_keyword(target, api, dialect):
    uri, validator = DIALECTS[dialect]
    schema = {"$schema": uri, "type": "object", "properties": {"x": {"type": "string", "nullable": True}},
              "required": ["x"]}
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, api=api)
    assert res.status == "strict" and not res.lossy and res.null_paths == ()
    x = _params(res)["properties"]["x"]
    assert x in ({"type": "string"}, {"type": "STRING"}) and _no_null(x)
    assert (_prefix(target) + "unknown-keyword", "#/properties/x/nullable") in _codes(res)
    assert ("dropped-unknown-keyword", "#/properties/x/nullable", False) in _changes(res)
    assert not any(c.endswith("/nullable-keyword-converted") for c, _ in _codes(res))
    assert not any(c == "converted-nullable-to-type-union" for c, _, _ in _changes(res))
    if api != "parameters":  # the sent JSON Schema rejects null as the declared dialect's validator does
        original, compiled = validator(schema), jsonschema.Draft202012Validator(_params(res))
        for value in ({"x": None}, {"x": "a"}):
            assert original.is_valid(value) == compiled.is_valid(value), value


@pytest.mark.parametrize(("target", "api"), TARGETS)
def test_nullable_without_a_declared_dialect_is_still_openapi(target, api):
    res = toolcast.compile_tool(_tool({"x": {"type": "string", "nullable": True}}, required=["x"]), target=target,
                                api=api)
    assert res.status == "strict"
    x = _params(res)["properties"]["x"]
    assert x in ({"type": ["string", "null"]}, {"type": "STRING", "nullable": True})
    assert (_prefix(target) + "nullable-keyword-converted", "#/properties/x/nullable") in _codes(res)
    assert not any(c.endswith("/unknown-keyword") for c, _ in _codes(res))


# Nested places: items, an anyOf branch, allOf parts, a definition, `nullable: false`, beside `$ref`.
NESTED = [
    pytest.param({"type": "array", "items": {"type": "integer", "nullable": True}},
                 ["#/properties/x/items/nullable"], id="items"),
    pytest.param({"anyOf": [{"type": "integer", "nullable": True}, {"type": "string"}]},
                 ["#/properties/x/anyOf/0/nullable"], id="any-of-branch"),
    pytest.param({"allOf": [{"type": "string", "nullable": True}, {"description": "s", "nullable": True}]},
                 ["#/properties/x/allOf/0/nullable", "#/properties/x/allOf/1/nullable"], id="all-of-parts"),
    pytest.param({"type": "string", "nullable": False}, ["#/properties/x/nullable"], id="false"),
    # (read as OpenAPI, it has no effect beside an enum without null: nullable-without-effect)
    pytest.param({"type": "string", "enum": ["a", "b"], "nullable": True}, ["#/properties/x/nullable"],
                 id="beside-enum"),
    pytest.param({"$ref": "#/$defs/S"}, ["#/$defs/S/nullable"], id="in-a-definition"),
]


@pytest.mark.parametrize(("prop", "places"), NESTED)
@pytest.mark.parametrize(("target", "api"), TARGETS)
def test_nullable_anywhere_beside_a_declared_dialect_adds_no_null(target, api, prop, places):
    schema = {"$schema": DIALECTS["2020-12"][0], "type": "object", "properties": {"x": prop}, "required": ["x"]}
    if "$ref" in prop:
        schema["$defs"] = {"S": {"type": "string", "nullable": True}}
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, api=api)
    assert res.status == "strict", _codes(res)
    found = [p for c, p in _codes(res) if c == _prefix(target) + "unknown-keyword"]
    assert found == places
    assert [p for c, p, _ in _changes(res) if c == "dropped-unknown-keyword"] == places
    assert not any(c.endswith("/nullable-keyword-converted") or c.endswith("/nullable-without-effect")
                   for c, _ in _codes(res))
    params = _params(res)
    defs = params.get("$defs") or {}
    for node in [*_nodes(params["properties"]["x"]), *(n for d in defs.values() for n in _nodes(d))]:
        assert "nullable" not in node or node["nullable"] is not True, node
        if "type" in node:
            assert _no_null(node), node
    if api != "parameters":
        compiled = jsonschema.Draft202012Validator(params)
        assert not compiled.is_valid({"x": None})


def test_a_property_named_nullable_is_a_property_beside_a_declared_dialect():
    schema = {"$schema": DIALECTS["2020-12"][0], "type": "object", "required": ["nullable"],
              "properties": {"nullable": {"type": "boolean"}}}
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target="openai")
    assert res.status == "strict"
    assert _params(res)["properties"] == {"nullable": {"type": "boolean"}}
    assert not any(c.endswith("/unknown-keyword") for c, _ in _codes(res))


@pytest.mark.parametrize("dialect", ["draft-07", "draft-04"])
def test_nullable_beside_ref_in_an_old_dialect_is_an_ignored_sibling(dialect):
    # Before 2019-09 every keyword beside `$ref` is ignored: reported as such, not as unknown, and no null.
    uri = DIALECTS[dialect][0]
    schema = {"$schema": uri, "type": "object", "required": ["x"],
              "properties": {"x": {"$ref": "#/definitions/S", "nullable": True}},
              "definitions": {"S": {"type": "string"}}}
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target="openai")
    assert res.status == "strict" and res.null_paths == ()
    assert ("openai/ref-sibling-ignored", "#/properties/x/nullable") in _codes(res)
    assert not any(c.endswith("/nullable-keyword-converted") for c, _ in _codes(res))
    assert not jsonschema.Draft202012Validator(_params(res)).is_valid({"x": None})
