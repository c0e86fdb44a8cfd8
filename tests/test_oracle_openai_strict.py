"""Tests for the independent OpenAI strict-mode oracle (tests/oracles/openai_strict.py)."""

from __future__ import annotations

import copy
import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

try:
    from oracles import openai_strict as oracle
except ImportError:  # pragma: no cover - when tests/ becomes a package
    from tests.oracles import openai_strict as oracle

from referencing.exceptions import Unresolvable

violations = oracle.violations
tool_violations = oracle.tool_violations


def obj(props: dict | None = None, **extra) -> dict:
    """A strict-valid object schema around ``props``."""
    props = props or {}
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
        **extra,
    }


def rules(schema, **kw) -> set[str]:
    return {v.rule for v in violations(schema, **kw)}


def only(schema, rule, **kw):
    vs = violations(schema, **kw)
    assert {v.rule for v in vs} == {rule}, vs
    return vs


S = {"type": "string"}

# --------------------------------------------------------------------------
# Known-good schemas (OpenAI's documented examples)
# --------------------------------------------------------------------------

WEATHER_PARAMS = {
    "type": "object",
    "properties": {
        "location": {"type": "string", "description": "City and country e.g. Bogotá, Colombia"},
        "units": {
            "type": ["string", "null"],
            "enum": ["celsius", "fahrenheit"],
            "description": "Units the temperature will be returned in.",
        },
    },
    "required": ["location", "units"],
    "additionalProperties": False,
}

LINKED_LIST = {
    "type": "object",
    "properties": {"linked_list": {"$ref": "#/$defs/linked_list_node"}},
    "$defs": {
        "linked_list_node": {
            "type": "object",
            "properties": {
                "value": {"type": "number"},
                "next": {"anyOf": [{"$ref": "#/$defs/linked_list_node"}, {"type": "null"}]},
            },
            "additionalProperties": False,
            "required": ["next", "value"],
        }
    },
    "additionalProperties": False,
    "required": ["linked_list"],
}

UI = {
    "type": "object",
    "properties": {
        "type": {
            "type": "string",
            "description": "The type of the UI component",
            "enum": ["div", "button", "header", "section", "field", "form"],
        },
        "label": {
            "type": "string",
            "description": "The label of the UI component, used for buttons or form fields",
        },
        "children": {
            "type": "array",
            "description": "Nested UI components",
            "items": {"$ref": "#"},
        },
        "attributes": {
            "type": "array",
            "description": "Arbitrary attributes for the UI component, suitable for any element",
            "items": {
                "type": "object",
                "properties": {
                    "name": {
                        "type": "string",
                        "description": "The name of the attribute, for example onClick or className",
                    },
                    "value": {"type": "string", "description": "The value of the attribute"},
                },
                "additionalProperties": False,
                "required": ["name", "value"],
            },
        },
    },
    "required": ["type", "label", "children", "attributes"],
    "additionalProperties": False,
}

KITCHEN_SINK = obj(
    {
        "when": {
            "type": "string",
            "format": "date-time",
            "pattern": "^2",
            "minLength": 1,
            "maxLength": 40,
        },
        "n": {
            "type": "integer",
            "minimum": 0,
            "maximum": 9,
            "exclusiveMinimum": -1,
            "exclusiveMaximum": 10,
            "multipleOf": 1,
        },
        "tags": {
            "type": ["array", "null"],
            "items": S,
            "minItems": 0,
            "maxItems": 3,
            "title": "Tags",
        },
        "kind": {"enum": ["a", 1, 2.5, True, None]},
        "fixed": {"const": "x"},
        "maybe": {"anyOf": [obj({"q": S}), {"type": "null"}]},
        "empty": obj(),
    },
    description="params",
)


@pytest.mark.parametrize(
    "schema",
    [WEATHER_PARAMS, LINKED_LIST, UI, KITCHEN_SINK],
    ids=["weather", "linked-list", "ui", "kitchen-sink"],
)
def test_documented_examples_pass(schema):
    assert violations(schema) == []


def test_weather_tool_passes_both_apis():
    responses = {
        "type": "function",
        "name": "get_weather",
        "description": "Retrieves current weather for the given location.",
        "parameters": WEATHER_PARAMS,
        "strict": True,
    }
    chat = {"type": "function", "function": {k: v for k, v in responses.items() if k != "type"}}
    assert tool_violations(responses, api="responses") == []
    assert tool_violations(chat, api="chat") == []


def test_documented_instances_validate():
    assert oracle.validate_instance(
        LINKED_LIST, {"linked_list": {"value": 1, "next": {"value": 2, "next": None}}}
    )
    assert not oracle.validate_instance(LINKED_LIST, {"linked_list": {"value": 1}})
    ui = {
        "type": "div",
        "label": "x",
        "attributes": [],
        "children": [{"type": "form", "label": "y", "children": [], "attributes": []}],
    }
    assert oracle.validate_instance(UI, ui)
    bad = copy.deepcopy(ui)
    bad["children"][0]["type"] = "blink"
    assert oracle.instance_errors(UI, bad)


def test_validate_instance_never_retrieves_remote_refs():
    schema = {"type": "object", "properties": {"a": {"$ref": "https://example.invalid/x.json"}}}
    assert oracle.validate_instance(schema, {})  # ref not reached
    with pytest.raises(Unresolvable):
        oracle.validate_instance(schema, {"a": 1})


def test_validate_instance_formats_opt_in():
    schema = {"type": "string", "format": "email"}
    assert oracle.validate_instance(schema, "nope")
    assert not oracle.validate_instance(schema, "nope", check_formats=True)


# --------------------------------------------------------------------------
# One minimal failing schema per rule
# --------------------------------------------------------------------------

DEFS_A = {"A": S}

RULE_CASES = [
    (
        "root-not-object",
        {
            "type": ["object", "null"],
            "properties": {},
            "required": [],
            "additionalProperties": False,
        },
    ),
    ("root-not-object", {"type": "string"}),
    ("root-not-object", ["not", "a", "dict"]),
    ("root-any-of", obj(anyOf=[obj()])),
    ("not-a-schema", obj({"a": "string"})),
    ("not-a-schema", obj({"a": {"anyOf": [None, S]}})),
    ("boolean-schema", obj({"a": {"type": "array", "items": True}})),
    ("boolean-schema", obj({"a": {"anyOf": [False, S]}})),
    ("missing-type", obj({"a": {"description": "no type"}})),
    ("missing-type", obj({"a": {"anyOf": [{"minimum": 1}, S]}})),
    ("invalid-type", obj({"a": {"type": "float"}})),
    ("invalid-type", obj({"a": {"type": []}})),
    ("invalid-type", obj({"a": {"type": ["string", "string"]}})),
    ("invalid-type", obj({"a": {"type": 5}})),
    ("additional-properties-not-false", {"type": "object", "properties": {}, "required": []}),
    ("additional-properties-not-false", obj({"a": {**obj(), "additionalProperties": True}})),
    ("additional-properties-not-false", obj({"a": {**obj(), "additionalProperties": S}})),
    ("additional-properties-not-false", obj({"a": {**obj(), "additionalProperties": 0}})),
    (
        "additional-properties-not-false",
        obj(
            {
                "a": {
                    "anyOf": [
                        {"type": "object", "properties": {}, "required": []},
                        {"type": "null"},
                    ]
                }
            }
        ),
    ),
    ("missing-properties", {"type": "object", "required": [], "additionalProperties": False}),
    (
        "missing-properties",
        obj({"a": {"type": ["object", "null"], "required": [], "additionalProperties": False}}),
    ),
    (
        "required-mismatch",
        {"type": "object", "properties": {"a": S}, "required": [], "additionalProperties": False},
    ),
    (
        "required-mismatch",
        {"type": "object", "properties": {"a": S}, "additionalProperties": False},
    ),
    (
        "required-mismatch",
        {"type": "object", "properties": {}, "required": ["ghost"], "additionalProperties": False},
    ),
    (
        "required-mismatch",
        {
            "type": "object",
            "properties": {"a": S},
            "required": ["a", "a"],
            "additionalProperties": False,
        },
    ),
    ("required-mismatch", {"type": "object", "properties": {}, "additionalProperties": False}),
    ("array-missing-items", obj({"a": {"type": "array"}})),
    ("items-not-single-schema", obj({"a": {"type": "array", "items": [S]}})),
    ("anyof-invalid", obj({"a": {"anyOf": []}})),
    ("anyof-invalid", obj({"a": {"anyOf": S}})),
    ("enum-invalid", obj({"a": {"type": "string", "enum": []}})),
    ("enum-invalid", obj({"a": {"type": "string", "enum": "abc"}})),
    ("enum-value-not-scalar", obj({"a": {"enum": [{"x": 1}]}})),
    ("enum-value-not-scalar", obj({"a": {"enum": ["ok", [1]]}})),
    ("enum-value-not-scalar", obj({"a": {"type": "number", "enum": [float("nan")]}})),
    ("const-not-scalar", obj({"a": {"const": [1]}})),
    ("format-unsupported", obj({"a": {"type": "string", "format": "uri"}})),
    ("unsupported-keyword", obj({"a": {"type": "string", "oneOf": [S]}})),
    ("unlisted-keyword", obj({"a": {"type": "string", "default": "x"}})),
    ("unlisted-keyword", obj({"a": {"type": "string", "nullable": True}})),
    ("unlisted-keyword", obj(**{"$schema": "https://json-schema.org/draft/2020-12/schema"})),
    ("unlisted-keyword", obj(definitions={"A": S})),
    ("invalid-keyword-value", obj({"a": {"type": "string", "pattern": 5}})),
    ("invalid-keyword-value", obj({"a": {"type": "string", "description": None}})),
    ("invalid-keyword-value", obj({"a": {"type": "string", "minLength": -1}})),
    ("invalid-keyword-value", obj({"a": {"type": "array", "items": S, "maxItems": True}})),
    ("invalid-keyword-value", obj({"a": {"type": "number", "minimum": "0"}})),
    ("invalid-keyword-value", obj({"a": {"type": "number", "multipleOf": 0}})),
    ("invalid-keyword-value", obj({"a": {"type": "string", "format": 1}})),
    ("invalid-keyword-value", obj({"a": {"type": "string", "additionalProperties": True}})),
    ("invalid-keyword-value", obj(**{"$defs": []})),
    (
        "invalid-keyword-value",
        {"type": "object", "properties": [], "required": [], "additionalProperties": False},
    ),
    ("defs-not-at-root", obj({"a": obj(**{"$defs": {}})})),
    ("ref-not-local", obj({"a": {"$ref": "https://example.com/a.json"}})),
    ("ref-not-local", obj({"a": {"$ref": "#/properties/b"}, "b": S})),
    (
        "ref-not-local",
        obj({"a": {"$ref": "#/$defs/A/properties/x"}}, **{"$defs": {"A": obj({"x": S})}}),
    ),
    ("ref-not-local", obj({"a": {"$ref": "#/definitions/A"}})),
    ("ref-not-local", obj({"a": {"$ref": 7}})),
    ("ref-unresolvable", obj({"a": {"$ref": "#/$defs/Nope"}})),
    ("ref-siblings", obj({"a": {"$ref": "#/$defs/A", "description": "x"}}, **{"$defs": DEFS_A})),
    ("ref-siblings", obj({"a": {"$ref": "#/$defs/A", "type": "string"}}, **{"$defs": DEFS_A})),
    (
        "ref-cycle",
        obj(
            {"a": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}},
            **{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}},
        ),
    ),
    (
        "no-finite-instance",
        obj(
            {"n": {"$ref": "#/$defs/N"}}, **{"$defs": {"N": obj({"parent": {"$ref": "#/$defs/N"}})}}
        ),
    ),
    ("no-finite-instance", obj({"self": {"$ref": "#"}})),
    ("no-finite-instance", obj({"a": {"type": "array", "minItems": 1, "items": {"$ref": "#"}}})),
]


@pytest.mark.parametrize(
    "rule,schema", RULE_CASES, ids=[f"{r}-{i}" for i, (r, _) in enumerate(RULE_CASES)]
)
def test_rule_minimal_failure(rule, schema):
    only(schema, rule)


@pytest.mark.parametrize(
    "kw,value",
    [
        ("allOf", [S]),
        ("oneOf", [S]),
        ("not", S),
        ("if", S),
        ("then", S),
        ("else", S),
        ("dependentRequired", {}),
        ("dependentSchemas", {}),
        ("dependencies", {}),
        ("patternProperties", {}),
        ("propertyNames", S),
        ("minProperties", 1),
        ("maxProperties", 1),
        ("unevaluatedProperties", False),
        ("prefixItems", [S]),
        ("uniqueItems", True),
        ("contains", S),
        ("$anchor", "x"),
        ("$dynamicRef", "#x"),
    ],
)
def test_each_unsupported_keyword(kw, value):
    vs = only(obj({"a": {"type": "string", kw: value}}), "unsupported-keyword")
    assert vs[0].path == f"#/properties/a/{kw}"


@pytest.mark.parametrize(
    "kw", ["default", "examples", "$comment", "readOnly", "$id", "nullable", "x-foo"]
)
def test_each_unlisted_keyword(kw):
    only(obj({"a": {"type": "string", kw: "v"}}), "unlisted-keyword")


@pytest.mark.parametrize("fmt", sorted(oracle.SUPPORTED_FORMATS))
def test_supported_formats_pass(fmt):
    assert violations(obj({"a": {"type": "string", "format": fmt}})) == []


@pytest.mark.parametrize(
    "fmt", ["uri", "uri-reference", "date-time ", "DATE", "ipv4-address", "regex"]
)
def test_other_formats_fail(fmt):
    only(obj({"a": {"type": "string", "format": fmt}}), "format-unsupported")


def test_paths_are_json_pointers():
    schema = obj({"a/b~c": obj({"x": {"type": "array"}})})
    (v,) = violations(schema)
    assert v.path == "#/properties/a~1b~0c/properties/x" and v.rule == "array-missing-items"
    (v,) = violations(obj({"a": {"anyOf": [S, {"type": "wat"}]}}))
    assert v.path == "#/properties/a/anyOf/1/type"


def test_violation_is_frozen():
    v = oracle.Violation("#", "x", "y")
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.rule = "z"  # type: ignore[misc]


def test_defs_are_checked_even_if_unreferenced():
    (v,) = violations(
        obj(**{"$defs": {"Loose": {"type": "object", "properties": {}, "required": []}}})
    )
    assert (v.path, v.rule) == ("#/$defs/Loose", "additional-properties-not-false")


def test_ref_to_escaped_def_name_resolves():
    assert violations(obj({"a": {"$ref": "#/$defs/a~1b"}}, **{"$defs": {"a/b": S}})) == []
    assert violations(obj({"a": {"$ref": "#/$defs/A%20B"}}, **{"$defs": {"A B": S}})) == []


def test_recursive_ref_through_optional_is_satisfiable():
    tree = obj({"kids": {"type": "array", "items": {"$ref": "#"}}})
    assert violations(tree) == []
    maybe = obj({"parent": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}})
    assert violations(maybe) == []


# --------------------------------------------------------------------------
# Profiles
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prop",
    [
        {"type": "string", "minLength": 1},
        {"type": "string", "maxLength": 3},
        {"type": "string", "const": "x"},
        {"type": "string", "title": "T"},
    ],
)
def test_profile_2026_08_20_drops_keywords(prop):
    schema = obj({"a": prop})
    assert violations(schema) == []
    assert violations(schema, profile="2026-10-17") == []
    only(schema, "unlisted-keyword", profile="2026-08-20")


def test_profile_2026_08_20_typeless_const_is_missing_type():
    assert rules(obj({"a": {"const": "x"}}), profile="2026-08-20") == {
        "unlisted-keyword",
        "missing-type",
    }


def test_unknown_profile_raises():
    with pytest.raises(ValueError):
        violations(obj(), profile="1999-01-01")


# --------------------------------------------------------------------------
# Limits: N passes, N+1 fails
# --------------------------------------------------------------------------


def nest_objects(levels: int) -> dict:
    """``levels`` nested objects, root included (so depth == levels)."""
    node = obj({"leaf": S})
    for _ in range(levels - 1):
        node = obj({"a": node})
    return node


def nest_arrays(levels: int) -> dict:
    """A root object holding arrays nested so the total depth == levels."""
    node: dict = {"type": "array", "items": S}
    for _ in range(levels - 2):
        node = {"type": "array", "items": node}
    return obj({"a": node})


@pytest.mark.parametrize("builder", [nest_objects, nest_arrays])
def test_depth_limit(builder):
    assert oracle.nesting_depth(builder(10)) == 10
    assert violations(builder(10)) == []
    assert oracle.nesting_depth(builder(11)) == 11
    only(builder(11), "too-deep")


def test_depth_counting_conventions():
    assert oracle.nesting_depth(obj()) == 1
    assert oracle.nesting_depth(obj({"s": S})) == 1  # scalar leaves add no level
    assert oracle.nesting_depth(obj({"s": S}), count_scalars=True) == 2
    assert oracle.nesting_depth(obj({"o": obj()})) == 2
    assert oracle.nesting_depth(obj({"l": {"type": "array", "items": S}})) == 2
    assert oracle.nesting_depth(obj({"l": {"type": "array", "items": obj()}})) == 3
    # anyOf branches stay at the level of the anyOf node, however deeply anyOf nests
    wrapped: dict = obj()
    for _ in range(20):
        wrapped = {"anyOf": [wrapped, {"type": "null"}]}
    assert oracle.nesting_depth(obj({"a": wrapped})) == 2
    # $ref is not followed; $defs are measured from their own root
    deep_def = nest_objects(10)
    schema = obj({"x": obj({"y": {"$ref": "#/$defs/D"}})}, **{"$defs": {"D": deep_def}})
    assert oracle.nesting_depth(schema) == 10
    assert violations(schema) == []
    schema["$defs"]["D"] = nest_objects(11)
    only(schema, "too-deep")
    assert violations(schema)[0].path.startswith("#/$defs/D/")


def test_property_limit():
    five_k = obj({f"p{i}": S for i in range(5000)})
    assert oracle.schema_stats(five_k).properties == 5000
    assert violations(five_k) == []
    only(obj({f"p{i}": S for i in range(5001)}), "too-many-properties")


def test_property_limit_counts_nested_and_defs():
    schema = obj({f"p{i}": S for i in range(2000)})
    schema["properties"]["o"] = obj({f"q{i}": S for i in range(1999)})
    schema["required"].append("o")
    schema["$defs"] = {"D": obj({f"r{i}": S for i in range(1000)})}
    assert oracle.schema_stats(schema).properties == 5000
    assert violations(schema) == []
    schema["$defs"]["D"] = obj({f"r{i}": S for i in range(1001)})
    only(schema, "too-many-properties")


def _chars_schema(extra: int) -> dict:
    # 30,000 chars each from a property name, a $defs name, a string enum value and a string const value
    name = "n" * 30_000
    return obj(
        {
            name: {"type": "string", "enum": ["e" * 30_000, 12345]},
            "c": {"const": "k" * (30_000 - 1 + extra)},
        },
        **{"$defs": {"d" * 30_000: S}},
    )


def test_string_chars_limit():
    # property names "n"*30000 + "c" (1) + def name 30000 + enum 30000 + const 29999 == 120,000
    assert oracle.schema_stats(_chars_schema(0)).string_chars == 120_000
    assert violations(_chars_schema(0)) == []
    only(_chars_schema(1), "too-many-string-chars")


def test_string_chars_ignore_non_string_enum_and_descriptions():
    schema = obj({"a": {"type": "integer", "enum": list(range(10)), "description": "d" * 200_000}})
    assert oracle.schema_stats(schema).string_chars == 1
    assert violations(schema) == []


def test_enum_total_limit():
    ok = obj({"a": {"type": "integer", "enum": list(range(500))}, "b": {"enum": list(range(500))}})
    assert oracle.schema_stats(ok).enum_values == 1000
    assert violations(ok) == []
    bad = obj({"a": {"type": "integer", "enum": list(range(500))}, "b": {"enum": list(range(501))}})
    only(bad, "too-many-enum-values")


def _big_enum(count: int, total_chars: int) -> list:
    """``count`` distinct strings totalling exactly ``total_chars`` (needs total_chars >= 3*count)."""
    base = [f"{i:03d}" for i in range(count)]
    spare = total_chars - 3 * count
    base[0] += "x" * spare
    assert sum(map(len, base)) == total_chars
    return base


def test_big_string_enum_limit():
    ok = obj({"a": {"type": "string", "enum": _big_enum(251, 15_000)}})
    assert violations(ok) == []
    vs = only(
        obj({"a": {"type": "string", "enum": _big_enum(251, 15_001)}}), "enum-string-too-long"
    )
    assert vs[0].path == "#/properties/a/enum"


def test_big_string_enum_threshold_is_more_than_250_values():
    assert violations(obj({"a": {"type": "string", "enum": _big_enum(250, 20_000)}})) == []
    only(obj({"a": {"type": "string", "enum": _big_enum(251, 20_000)}}), "enum-string-too-long")


# --------------------------------------------------------------------------
# Tool-level checks
# --------------------------------------------------------------------------


def rtool(**over):
    t = {
        "type": "function",
        "name": "get_weather",
        "description": "d",
        "parameters": WEATHER_PARAMS,
        "strict": True,
    }
    t.update(over)
    return {k: v for k, v in t.items() if v is not DROP}


def ctool(**over):
    fn = {"name": "get_weather", "description": "d", "parameters": WEATHER_PARAMS, "strict": True}
    fn.update(over)
    return {"type": "function", "function": {k: v for k, v in fn.items() if v is not DROP}}


DROP = object()


def trules(tool, api="responses"):
    return {v.rule for v in tool_violations(tool, api=api)}


def test_tool_shape_rules():
    assert trules(ctool(), "responses") >= {"tool-shape"}
    assert trules(rtool(), "chat") >= {"tool-shape"}
    assert trules(rtool(type="custom")) == {"tool-shape"}
    assert trules(rtool(parameters=DROP, strict=False)) == {"tool-shape"}
    assert trules("nope") == {"tool-shape"}
    assert trules({"type": "function"}, "chat") == {"tool-shape"}


def test_tool_optional_responses_fields_allowed():
    assert (
        tool_violations(rtool(defer_loading=True, allowed_callers=["direct"], output_schema=None))
        == []
    )


def test_tool_unknown_key():
    assert trules(rtool(extra=1)) == {"tool-unknown-key"}
    t = ctool()
    t["function"]["defer_loading"] = True
    assert trules(t, "chat") == {"tool-unknown-key"}


@pytest.mark.parametrize("api,make", [("responses", rtool), ("chat", ctool)])
def test_tool_strict_rules(api, make):
    assert trules(make(strict=DROP), api) == {"strict-missing"}
    assert trules(make(strict=None), api) == {"strict-not-bool"}
    assert trules(make(strict="true"), api) == {"strict-not-bool"}
    assert tool_violations(make(strict=False), api) == []


@pytest.mark.parametrize("name", ["", "a" * 65, "srv.tool", "has space", "naïve", "a\n", None, 3])
def test_tool_name_invalid(name):
    assert trules(rtool(name=name)) == {"name-invalid"}
    assert trules(ctool(name=name), "chat") == {"name-invalid"}


@pytest.mark.parametrize("name", ["a", "A" * 64, "get_weather-2", "0_-"])
def test_tool_name_valid(name):
    assert tool_violations(rtool(name=name)) == []


def test_tool_name_missing():
    assert trules(rtool(name=DROP)) == {"name-invalid"}


def test_tool_description_rules():
    assert tool_violations(rtool(description=DROP)) == []
    assert trules(rtool(description=None)) == {"description-invalid"}
    assert trules(rtool(description=["x"])) == {"description-invalid"}
    assert tool_violations(rtool(description="a" * 4096)) == []
    assert trules(rtool(description="a" * 4097)) == {"description-too-long"}
    assert tool_violations(rtool(description="é" * 2048)) == []  # 4096 bytes
    assert trules(rtool(description="é" * 2048 + "a")) == {"description-too-long"}


@pytest.mark.parametrize(
    "ch",
    [
        "\u200b",
        "\u200c",
        "\u200d",
        "\u2060",
        "\ufeff",
        "\u200e",
        "\u200f",
        "\u202e",
        "\u2066",
        "\u2069",
        "\U000e0000",
        "\U000e0041",
        "\U000e007f",
    ],
)
def test_tool_description_invisible_chars(ch):
    assert trules(rtool(description=f"Get weather{ch} now")) == {"description-invisible-chars"}


def test_tool_description_visible_unicode_ok():
    assert tool_violations(rtool(description="Température à Bogotá — 東京 ✓")) == []


def test_tool_parameters_checked_only_when_strict():
    bad = {"type": "object", "properties": {"a": S}}
    vs = tool_violations(rtool(parameters=bad))
    assert {(v.path, v.rule) for v in vs} == {
        ("#/parameters", "additional-properties-not-false"),
        ("#/parameters", "required-mismatch"),
    }
    vs = tool_violations(
        ctool(parameters=obj({"u": {"type": "string", "format": "uri"}})), api="chat"
    )
    assert [(v.path, v.rule) for v in vs] == [
        ("#/function/parameters/properties/u/format", "format-unsupported")
    ]
    assert tool_violations(rtool(parameters=bad, strict=False)) == []
    assert tool_violations(ctool(parameters=DROP, strict=False), api="chat") == []


def test_tool_parameters_invalid():
    assert trules(rtool(parameters=None)) == {"parameters-invalid"}
    assert trules(ctool(parameters=DROP), "chat") == {"parameters-invalid"}
    assert trules(rtool(parameters="{}", strict=False)) == {"parameters-invalid"}
    assert tool_violations(rtool(parameters=None, strict=False)) == []


def test_tool_bad_api_raises():
    with pytest.raises(ValueError):
        tool_violations(rtool(), api="assistants")


# --------------------------------------------------------------------------
# Hostile input
# --------------------------------------------------------------------------


@pytest.mark.timeout(300)  # a hang guard, not a speed test
def test_hundred_thousand_levels_of_nesting_is_fast():
    node: dict = {"type": "string"}
    for _ in range(100_000):
        node = {
            "type": "object",
            "properties": {"a": node},
            "required": ["a"],
            "additionalProperties": False,
        }
    got = rules(node)  # (bounded by the walk guard: the timeout marker only stops a hang)
    assert got == {"too-deep", "walk-limit"}
    assert oracle.nesting_depth(node) > 10


def test_deep_anyof_nesting_hits_walk_guard():
    node: dict = {"type": "string"}
    for _ in range(100_000):
        node = {"anyOf": [node]}
    only(obj({"a": node}), "walk-limit")


def test_node_budget(monkeypatch):
    monkeypatch.setattr(oracle, "MAX_NODES", 50)
    only(obj({"a": {"anyOf": [S] * 100}}), "walk-limit")


def test_python_level_cycles_terminate():
    a = obj()
    a["properties"]["self"] = a
    a["required"] = ["self"]
    assert "walk-limit" in rules(a)
    lst: list = []
    lst.append(lst)
    assert rules(obj({"a": {"enum": lst}})) == {"enum-value-not-scalar"}


@pytest.mark.timeout(300)  # a hang guard, not a speed test
def test_shared_subtrees_exponential_dag_is_bounded():
    node: dict = obj()
    for _ in range(60):
        node = obj({"a": node, "b": node})
    got = rules(node)
    assert "walk-limit" in got and "too-deep" in got


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#"},
        obj({"a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": {"$ref": "#/$defs/A"}}}),
        obj(
            {"a": {"$ref": "#/$defs/A"}},
            **{
                "$defs": {f"A{i}": {"$ref": f"#/$defs/A{i + 1}"} for i in range(5000)}
                | {"A": {"$ref": "#/$defs/A0"}, "A5000": {"$ref": "#/$defs/A"}}
            },
        ),
        obj(
            {"a": {"$ref": "#/$defs/A"}},
            **{
                "$defs": {
                    "A": obj({"b": {"$ref": "#/$defs/B"}}),
                    "B": obj({"a": {"$ref": "#/$defs/A"}}),
                }
            },
        ),
    ],
    ids=["root-self", "def-self", "long-chain", "mutual-required"],
)
@pytest.mark.timeout(300)  # a hang guard, not a speed test
def test_ref_cycles_terminate_with_violations(schema):
    vs = violations(schema)
    assert vs
    assert {"ref-cycle", "no-finite-instance"} & {v.rule for v in vs}


def test_weird_python_values_do_not_crash():
    weird = [
        None,
        1,
        "s",
        1.5,
        b"x",
        object(),
        {1: 2},
        {"type": object()},
        {"type": [[], {}]},
        obj(
            {
                "a": {
                    "type": "object",
                    "properties": {1: S},
                    "required": [{"x": 1}],
                    "additionalProperties": False,
                }
            }
        ),
        obj({"a": {"enum": [set(), float("inf"), b"x"]}}),
        obj({"a": {"format": ["uri"]}}),
        obj({"a": {"$ref": {"x": 1}}}),
        obj(**{"$defs": {1: S}}),
        obj({"a": {"type": "string", "pattern": "\ud800"}}),
    ]
    for w in weird:
        assert isinstance(violations(w), list)
        assert isinstance(
            tool_violations({"type": "function", "name": "f", "parameters": w, "strict": True}),
            list,
        )
    assert trules(rtool(description="\ud800")) == {"description-invalid"}


json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=5)
)
keyword = st.sampled_from(
    sorted(oracle.PROFILES["2026-10-17"] | {"allOf", "oneOf", "default", "prefixItems"})
)
json_tree = st.recursive(
    json_leaf,
    lambda kids: st.one_of(
        st.lists(kids, max_size=4),
        st.dictionaries(st.one_of(keyword, st.text(max_size=3)), kids, max_size=5),
    ),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_tree)
def test_fuzz_never_crashes(schema):
    vs = violations(schema)
    assert all(isinstance(v, oracle.Violation) and v.path.startswith("#") for v in vs)
    tool_violations({"type": "function", "name": "f", "parameters": schema, "strict": True})
    oracle.schema_stats(schema)


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.text(min_size=1, max_size=4),
        st.sampled_from([S, {"type": ["integer", "null"]}, {"enum": ["a", None]}]),
        max_size=6,
    )
)
def test_fuzz_flat_strict_objects_pass(props):
    assert violations(obj(props)) == []
