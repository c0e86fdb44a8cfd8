"""Compile fuzzing and the regressions of issue 17 items 2, 3, 4, 6 and 7: references, dialects, bad input."""

from __future__ import annotations

import json
import math

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import examples, instances, schemas

from toolcast import InvalidToolError, compile_tool, compile_tools
from toolcast.loader import _ParseError, parse_json
from toolcast.model import ToolcastError
from toolcast.openai import strict_schema
from toolcast.rules import available, get_rules

STATUSES = {"strict", "non-strict", "refused"}
VERSIONS = available("openai")


def _compile(schema, **opts):
    return compile_tool({"name": "t", "description": "d", "inputSchema": schema}, **opts)


def _codes(r):
    return [d.code for d in r.diagnostics]


def _valid(schema, instance):
    return jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)(schema).is_valid(instance)


# -- 17.2: $id moves the base of $ref --------------------------------------------------------------

def test_nested_id_resolves_its_own_defs_not_the_roots():
    schema = {"type": "object", "required": ["p"], "$defs": {"X": {"type": "integer"}},
              "properties": {"p": {"$id": "https://example.com/p", "$defs": {"X": {"type": "string"}}, "$ref": "#/$defs/X"}}}
    r = _compile(schema)
    assert r.status == "strict", _codes(r)
    compiled = r.tool["parameters"]
    assert _valid(schema, {"p": "s"}) and _valid(compiled, {"p": "s"})
    assert not _valid(compiled, {"p": 1})


def test_absolute_uri_and_anchor_reach_an_embedded_resource():
    schema = {"$id": "https://example.com/root.json", "type": "object", "required": ["a", "b", "c"],
              "properties": {
                  "a": {"$ref": "https://example.com/things/item.json"},
                  "b": {"$ref": "things/item.json#/$defs/code"},
                  "c": {"$ref": "#flag"}},
              "$defs": {"item": {"$id": "things/item.json", "type": "object", "required": ["n"],
                                 "properties": {"n": {"$ref": "#/$defs/code"}}, "additionalProperties": False,
                                 "$defs": {"code": {"type": "string", "maxLength": 3}}},
                        "code": {"type": "integer"},
                        "f": {"$anchor": "flag", "type": "boolean"}}}
    r = _compile(schema)
    assert r.status == "strict", _codes(r)
    compiled = r.tool["parameters"]
    good = {"a": {"n": "abc"}, "b": "xyz", "c": True}
    assert _valid(schema, good) and _valid(compiled, good)
    for bad in ({"a": {"n": 1}, "b": "xyz", "c": True}, {"a": {"n": "abc"}, "b": 1, "c": True},
                {"a": {"n": "abc"}, "b": "xyz", "c": 1}):
        assert not _valid(schema, bad) and not _valid(compiled, bad), bad


def test_a_ref_missing_from_its_resource_never_falls_back_to_the_root():
    schema = {"type": "object", "$defs": {"X": {"type": "integer"}},
              "properties": {"p": {"$id": "https://example.com/p", "$ref": "#/$defs/X"}}}
    r = _compile(schema)
    assert r.status != "strict"
    assert "openai/unresolvable-ref" in _codes(r)


@examples(40)
@given(inner=schemas(max_leaves=5), data=st.data())
def test_an_embedded_resource_keeps_its_meaning(inner, data):
    """Any generated schema moved into a resource of its own (its definitions with it), beside a
    root definition of the same name, compiles to what the same schema compiles to as a plain
    document (which test_fidelity judges against the original): same outcome, same null paths,
    and the two compiled schemas accept the same instances (jsonschema, drawn from both)."""
    body = {k: v for k, v in inner.items() if k not in ("$defs", "definitions")}
    store = {k: v for k, v in inner.items() if k == "definitions"}
    store["$defs"] = {**inner.get("$defs", {}), "Body": body}
    resource = {"$id": "https://example.com/r", **store, "$ref": "#/$defs/Body"}
    embedded = {"type": "object", "properties": {"p": resource}, "required": ["p"], "additionalProperties": False,
                "$defs": {"Body": {"type": "null"}}}
    plain = {"type": "object", "properties": {"p": {"$ref": "#/$defs/Body"}}, "required": ["p"],
             "additionalProperties": False, **store}
    a, b = _compile(embedded), _compile(plain)
    assert a.status == b.status and a.null_paths == b.null_paths, (_codes(a), _codes(b))
    if a.status != "strict":
        return
    ca, cb = a.tool["parameters"], b.tool["parameters"]
    for _ in range(3):
        for y in (data.draw(instances(ca)), data.draw(instances(cb))):
            assert _valid(ca, y) == _valid(cb, y), (y, ca, cb)


RESOLVED = {
    "relative $id chain": ({"$id": "https://e.com/a/root.json", "type": "object", "required": ["x", "y"],
                            "properties": {"x": {"$ref": "b/item.json"}, "y": {"$ref": "https://e.com/a/c.json"}},
                            "$defs": {"i": {"$id": "b/item.json", "type": "string",
                                            "$defs": {"c": {"$id": "../c.json", "type": "integer"}}}}},
                           {"x": "s", "y": 1}, [{"x": 1, "y": 1}, {"x": "s", "y": "s"}]),
    "relative $id, no root $id": ({"type": "object", "required": ["x"], "properties": {"x": {"$ref": "item.json"}},
                                   "$defs": {"i": {"$id": "item.json", "type": "string"}}}, {"x": "s"}, [{"x": 1}]),
    "# inside a resource is the resource": (
        {"type": "object", "required": ["p"], "properties": {"p": {
            "$id": "https://e.com/p", "type": "object", "required": ["n", "kid"], "additionalProperties": False,
            "properties": {"n": {"type": "integer"}, "kid": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}}}},
        {"p": {"n": 1, "kid": {"n": 2, "kid": None}}}, [{"p": {"n": 1, "kid": {"m": 2}}}, {"p": {"n": 1, "kid": 5}}]),
    "draft-07 fragment $id is an anchor": (
        {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": ["x"],
         "properties": {"x": {"$ref": "#foo"}}, "definitions": {"s": {"$id": "#foo", "type": "string"}}}, {"x": "s"}, [{"x": 1}]),
    "a pointer into nested $defs": ({"type": "object", "required": ["x"], "properties": {"x": {"$ref": "#/$defs/A/$defs/B"}},
                                     "$defs": {"A": {"type": "object", "$defs": {"B": {"type": "string"}}}}}, {"x": "s"}, [{"x": 1}]),
}


@pytest.mark.parametrize("name", list(RESOLVED))
def test_references_resolve_as_2020_12_does(name):
    schema, good, bad = RESOLVED[name]
    r = _compile(schema)
    assert r.status == "strict", _codes(r)
    compiled = r.tool["parameters"]
    assert _valid(schema, good) and _valid(compiled, good)
    for b in bad:
        assert not _valid(schema, b) and not _valid(compiled, b), b


def test_an_embedded_resource_in_another_dialect_is_refused():
    r = _compile({"type": "object", "properties": {"x": {"$id": "https://e.com/x", "type": "string",
                                                        "$schema": "http://json-schema.org/draft-07/schema#"}}})
    assert r.status != "strict" and "openai/unsupported-dialect" in _codes(r)


# -- 17.3: the declared dialect decides the meaning ------------------------------------------------

@pytest.mark.parametrize("dialect", ["http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-06/schema#",
                                     "http://json-schema.org/draft-04/schema"])
def test_keywords_beside_ref_are_ignored_before_2019_09(dialect):
    schema = {"$schema": dialect, "type": "object", "required": ["x"],
              "properties": {"x": {"$ref": "#/definitions/s", "maxLength": 3}}, "definitions": {"s": {"type": "string"}}}
    r = _compile(schema)
    assert r.status == "strict", _codes(r)
    assert "openai/ref-sibling-ignored" in _codes(r)
    assert _valid(schema, {"x": "longer"}) and _valid(r.tool["parameters"], {"x": "longer"})


def test_a_description_beside_an_ignored_ref_stays():
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": ["x"],
              "properties": {"x": {"$ref": "#/definitions/s", "description": "kept", "minLength": 9}},
              "definitions": {"s": {"type": "string"}}}
    r = _compile(schema)
    assert r.status == "strict" and "kept" in json.dumps(r.tool) and "minLength" not in json.dumps(r.tool)


def test_draft4_boolean_exclusive_bounds_become_numeric():
    schema = {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "required": ["x"],
              "properties": {"x": {"type": "number", "minimum": 0, "exclusiveMinimum": True,
                                   "maximum": 1, "exclusiveMaximum": False}}}
    r = _compile(schema)
    assert r.status == "strict", _codes(r)
    compiled = r.tool["parameters"]
    for v, ok in ((0, False), (0.5, True), (1, True), (1.5, False)):
        assert _valid(schema, {"x": v}) is ok and _valid(compiled, {"x": v}) is ok, v


@pytest.mark.parametrize("strict", ["auto", True])
def test_an_unknown_dialect_is_refused_with_a_code(strict):
    r = _compile({"$schema": "https://example.com/dialect", "type": "object", "properties": {}}, strict=strict)
    assert r.status != "strict" and "openai/unsupported-dialect" in _codes(r)


def test_2019_09_and_2020_12_read_as_today():
    for uri in ("https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2019-09/schema"):
        r = _compile({"$schema": uri, "type": "object", "properties": {"x": {"$ref": "#/$defs/s", "maxLength": 3}},
                      "required": ["x"], "$defs": {"s": {"type": "string"}}})
        assert r.status == "strict" and not _valid(r.tool["parameters"], {"x": "longer"})


# -- 17.4: $ref fragments are URI fragments --------------------------------------------------------

def test_percent_encoded_and_escaped_refs_resolve():
    schema = {"type": "object", "required": ["a", "b", "c"],
              "properties": {"a": {"$ref": "#/$defs/a%20b"}, "b": {"$ref": "#/$defs/c~1d"}, "c": {"$ref": "#/$defs/e%25f"}},
              "$defs": {"a b": {"type": "string"}, "c/d": {"type": "integer"}, "e%f": {"type": "boolean"}}}
    r = _compile(schema)
    assert r.status == "strict", _codes(r)
    compiled = r.tool["parameters"]
    assert _valid(compiled, {"a": "s", "b": 1, "c": True}) and not _valid(compiled, {"a": "s", "b": "s", "c": True})


def test_the_exclusivity_proof_reads_refs_as_pointers():
    # `#/$defs/a~1b` names "a/b" (a string), not the definition spelt "a~1b": the branches overlap.
    schema = {"type": "object", "required": ["x"],
              "properties": {"x": {"oneOf": [{"$ref": "#/$defs/a~1b"}, {"type": "string"}]}},
              "$defs": {"a/b": {"type": "string"}, "a~1b": {"type": "integer"}}}
    r = _compile(schema)
    assert "converted-exclusive-one-of-to-any-of" not in [t.code for t in r.transformations]
    assert r.status != "strict"


# -- 17.6 / 17.7: bad input from Python ------------------------------------------------------------

def test_a_list_as_ref_inside_allof_is_reported_not_raised():
    r = _compile({"type": "object", "properties": {"x": {"allOf": [{"$ref": ["a"]}]}}})
    assert r.status != "strict" and "openai/invalid-keyword-value" in _codes(r)


NON_JSON = [float("nan"), float("inf"), -float("inf"), {1, 2}, b"bytes", object(), {1: "a"}, {None: 1}]


@pytest.mark.parametrize("strict", ["auto", True, False])
@pytest.mark.parametrize("value", NON_JSON, ids=lambda v: "object()" if type(v) is object else repr(v))  # (ids the same in every pytest-xdist worker)
def test_a_value_json_cannot_carry_refuses_the_tool(value, strict):
    for schema in ({"type": "object", "properties": {"x": {"type": "number", "maximum": value}}},
                   {"type": "object", "properties": {"x": {"enum": ["a", value]}}},
                   {"type": "object", "properties": {"x": value}}):
        r = _compile(schema, strict=strict)
        assert r.status == "refused" and "openai/non-json-value" in _codes(r)
        assert r.tool is None


def test_a_property_named_by_a_non_string_is_refused():
    r = _compile({"type": "object", "properties": {1: {"type": "string"}}})
    assert r.status == "refused" and "openai/non-json-value" in _codes(r)


def test_tuples_are_read_as_arrays():
    r = _compile({"type": "object", "properties": {"x": {"enum": ("a", "b")}}, "required": ("x",)})
    assert r.status == "strict", _codes(r)
    assert r.tool["parameters"]["properties"]["x"]["enum"] == ["a", "b"]


@pytest.mark.parametrize("keyword", ["minLength", "maxItems", "minimum", "multipleOf", "exclusiveMinimum"])
def test_numbers_beyond_a_float_are_numbers(keyword):
    r = _compile({"type": "object", "properties": {"x": {keyword: 10**400}}})
    assert r.status in STATUSES
    json.dumps(r.tool, allow_nan=False)


def test_a_json_literal_beyond_a_float_is_an_input_error():
    # json.loads reads 1e400 as infinity, which would be written out as `Infinity` (not JSON).
    with pytest.raises(_ParseError) as info:
        parse_json('{"name": "t", "parameters": {"type": "number", "maximum": 1e400}}', "tool.json")
    assert "1e400" in str(info.value.error)


# -- fuzzing: arbitrary JSON-like and SDK-shaped input ---------------------------------------------

_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=2**63),
                     st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                     st.sampled_from(["#", "#/$defs/a", "#/$defs/a%20b", "#/definitions/a", "#/properties/a", "#a",
                                      "https://x/y", "string", "object", "array", "null", "integer",
                                      "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-04/schema"]))
_keys = st.sampled_from(["type", "properties", "items", "$ref", "$defs", "definitions", "allOf", "anyOf", "oneOf",
                         "enum", "const", "required", "additionalProperties", "$id", "$anchor", "$schema", "id",
                         "minimum", "exclusiveMinimum", "maxLength", "pattern", "format", "nullable", "not", "a", "a b"])
_python_only = st.one_of(st.just(float("nan")), st.just(float("inf")), st.frozensets(st.integers(), max_size=2),
                         st.binary(max_size=3), st.tuples(st.integers()), st.builds(object))
_json_like = st.recursive(
    st.one_of(_scalars, _python_only),
    lambda kids: st.one_of(st.lists(kids, max_size=3), st.dictionaries(_keys, kids, max_size=4),
                           st.dictionaries(st.one_of(st.integers(), st.none()), kids, max_size=1)),
    max_leaves=12,
)
_schema_like = st.one_of(_json_like, st.dictionaries(_keys, _json_like, max_size=5).map(lambda d: {"type": "object", **d}))
FUZZ = settings(examples(120), suppress_health_check=list(HealthCheck), deadline=None)


def _documented(r, rules):
    assert r.status in STATUSES
    assert all(d.code in rules.diagnostics for d in r.diagnostics)
    assert (r.tool is None) == (r.status == "refused")
    if r.tool is not None:
        json.dumps(r.tool, allow_nan=False)
        json.dumps([list(p) for p in r.null_paths], default=str)


@FUZZ
@given(schema=_schema_like, version=st.sampled_from(VERSIONS), strict=st.sampled_from(["auto", True, False]))
def test_fuzz_compile_tool(schema, version, strict):
    rules = get_rules(f"openai@{version}")
    r = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, rules=rules, strict=strict)
    _documented(r, rules)


@FUZZ
@given(schema=_schema_like, target=st.sampled_from(["gemini", "vertex"]), strict=st.sampled_from(["auto", True, False]))
def test_fuzz_compile_tool_parameters_api(schema, target, strict):
    """Junk through the OpenAPI `parameters` form (the default API of gemini and vertex): documented
    outcomes only, and a sent declaration always carries a `parameters` Schema."""
    r = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, strict=strict)
    _documented(r, get_rules(r.rules))
    if r.tool is not None:
        assert "parameters" in r.tool and "parametersJsonSchema" not in r.tool


@FUZZ
@given(tools=st.lists(st.one_of(_json_like, st.fixed_dictionaries({"name": _scalars, "parameters": _schema_like}),
                                st.fixed_dictionaries({"type": st.just("function"), "function": _json_like})), max_size=3))
def test_fuzz_compile_tools(tools):
    rules = get_rules(None)
    try:
        results = compile_tools(tools)
    except InvalidToolError:
        return
    for r in results:
        _documented(r, rules)


@FUZZ
@given(schema=_schema_like)
def test_fuzz_strict_schema(schema):
    try:
        out, null_paths = strict_schema(schema)
    except ToolcastError:
        return
    json.dumps(out, allow_nan=False)
    assert all(isinstance(p, tuple) for p in null_paths)


@FUZZ
@given(schema=st.dictionaries(_keys, _json_like, max_size=5), name=st.text(min_size=1, max_size=10))
def test_fuzz_sdk_shaped_tools(schema, name):
    """The official SDKs' tool objects: mcp.types.Tool (pydantic) and OpenAI's tool params."""
    mcp_types = pytest.importorskip("mcp.types")
    rules = get_rules(None)
    try:
        tool = mcp_types.Tool(name=name, description="d", inputSchema={"type": "object", **schema})
    except Exception:  # the SDK's own validation refused the value: nothing to compile
        return
    _documented(compile_tool(tool, rules=rules), rules)
    from openai.types.chat import ChatCompletionToolParam
    from openai.types.responses import FunctionToolParam

    chat: ChatCompletionToolParam = {"type": "function", "function": {"name": name, "parameters": schema}}
    resp: FunctionToolParam = {"type": "function", "name": name, "parameters": schema, "strict": True}
    for t in (chat, resp):
        _documented(compile_tool(t, rules=rules), rules)


def test_fuzz_values_are_finite_json():
    """The helper the fuzz tests rely on: json.dumps(allow_nan=False) refuses what JSON cannot carry."""
    with pytest.raises(ValueError):
        json.dumps(math.inf, allow_nan=False)
