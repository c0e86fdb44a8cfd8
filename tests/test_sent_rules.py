"""The form sent without strict meets what a provider rejects in any form (policy sent_keywords,
sent_property_schemas, sent_empty; toolcast.sent_rules), and the generator refuses a value of them the
interpreter has no action for."""

from __future__ import annotations

import sys
from pathlib import Path

import jsonschema
import pytest
from spec_folder import openai_only_spec

import toolcast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_tables  # noqa: E402
import speclib  # noqa: E402

NEW = "9999-12-31"


@pytest.fixture
def openai_spec(tmp_path) -> Path:
    return openai_only_spec(tmp_path)


def _version(spec: Path, policy: str) -> Path:
    f = spec / "openai" / f"{NEW}.yaml"
    f.write_text(f'provider: openai\nversion: "{NEW}"\nreviewed: "2026-12-01"\nextends: "2026-10-17"\n'
                 f"summary: test\npolicy:\n{policy}", encoding="utf-8")
    return f


def _refusal(spec: Path) -> speclib.SpecError:
    with pytest.raises(speclib.SpecError) as info:
        gen_tables.build(spec)
    return info.value


@pytest.mark.parametrize(("policy", "path", "says"), [
    ("  sent_keywords: {drop: [maxContains, $ref], cite: [O-SO]}\n", "policy.sent_keywords.drop[1]", "cannot drop it"),
    ("  sent_keywords: {drop: [properties], cite: [O-SO]}\n", "policy.sent_keywords.drop[0]", "cannot drop it"),
    ("  sent_keywords: {drop: [noSuchKeyword], cite: [O-SO]}\n", "policy.sent_keywords.drop[0]", "is not a keyword"),
    ("  sent_keywords: {drop: [not], cite: [O-SO]}\n  sent_property_schemas: {rule: objects, cite: [O-SO]}\n",
     "policy.sent_property_schemas.rule", "drops `not`"),
    ("  sent_enum_values: {rule: typed, cite: [O-SO]}\n", "policy.sent_enum_values.rule", "names none"),
    ("  sent_any_of: {rule: any, keywords: [anyOf, oneOf], cite: [O-SO]}\n", "policy.sent_any_of.keywords",
     "rule 'alone' only"),
])
def test_a_sent_policy_the_interpreter_cannot_apply_is_refused(openai_spec, policy: str, path: str, says: str) -> None:
    f = _version(openai_spec, policy)
    err = _refusal(openai_spec)
    assert err.file == str(f) and err.path == path, (err.path, err.message)
    assert says in err.message


@pytest.mark.parametrize("policy", [
    "  sent_empty: {refuse: [allOf], cite: [O-SO]}\n",  # (an empty allOf says nothing: never unsatisfiable)
    "  sent_property_schemas: {rule: everywhere, cite: [O-SO]}\n",
    "  sent_any_of: {rule: alone, keywords: [allOf], cite: [O-SO]}\n",  # (only what is read as anyOf)
])
def test_a_sent_policy_value_outside_the_meta_schema_is_refused(openai_spec, policy: str) -> None:
    _version(openai_spec, policy)
    assert _refusal(openai_spec).file.endswith(f"{NEW}.yaml")


def test_a_sent_policy_the_interpreter_applies_is_generated(openai_spec) -> None:
    _version(openai_spec, "  sent_keywords: {drop: [maxContains, minContains], cite: [O-SO]}\n"
                          "  sent_property_schemas: {rule: objects, cite: [O-SO]}\n"
                          "  sent_empty: {refuse: [enum, anyOf], cite: [O-SO]}\n"
                          "  sent_any_of: {rule: alone, keywords: [anyOf, oneOf], cite: [O-SO]}\n")
    _, files = gen_tables.build(openai_spec)
    text = "\n".join(v for k, v in files.items() if "9999" in str(k))
    assert "SENT_DROP = ('maxContains', 'minContains')" in text and "SENT_EMPTY = ('enum', 'anyOf')" in text
    assert "'sent_property_schemas': 'objects'" in text and "SENT_ALONE = ('anyOf', 'oneOf')" in text


def _tool(schema: dict) -> dict:
    return {"name": "t", "description": "d", "inputSchema": schema}


def test_the_pass_reads_subschemas_after_their_parent_s_changes() -> None:
    # `contains` is no keyword xAI drops; what it holds is read as a schema, and a boolean property
    # schema inside a dropped-keyword parent's other slots is still written as an object
    schema = {"type": "object", "properties": {"l": {"type": "array", "maxContains": 1, "contains": {
        "type": "object", "properties": {"x": True}, "minContains": 2}}}}
    res = toolcast.compile_tool(_tool(schema), target="xai", strict=False)
    sent = res.tool["function"]["parameters"]["properties"]["l"]
    assert sent == {"type": "array", "contains": {"type": "object", "properties": {"x": {}}, "additionalProperties": True}}
    assert schema["properties"]["l"]["maxContains"] == 1  # (the caller's schema is never changed)


def test_providers_without_the_policies_send_the_original_unchanged() -> None:
    schema = {"type": "object", "properties": {"a": True, "b": {"type": "array", "maxContains": 1},
                                               "c": {"type": "string", "enum": []}}}
    for target in ("openai", "anthropic", "deepseek", "mistral", "bedrock"):
        res = toolcast.compile_tool(_tool(schema), target=target, strict=False)
        if res.tool is not None:
            codes = {str(t.code) for t in res.transformations}
            assert not codes & {"dropped-sent-keyword", "wrote-boolean-property-schema"}, target


def test_xai_sent_form_states_open_objects_open() -> None:
    # xAI reads every tool closed ("additionalProperties defaults to false and must be set to true
    # explicitly"), the form sent without strict too: an object that says nothing of other keys states
    # them open (policy sent_open_objects explicit), exactly; one that says something is left alone.
    schema = {"type": "object", "properties": {
        "free": {"type": "object", "description": "free-form filters"},
        "typed": {"type": "object", "properties": {"a": {"type": "string"}}},
        "closed": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False},
        "map": {"type": "object", "additionalProperties": {"type": "integer"}},
        "uneval": {"type": "object", "properties": {"a": {}}, "unevaluatedProperties": False},
        "maybe": {"type": ["object", "null"]},
        "text": {"type": "string"}}}
    res = toolcast.compile_tool(_tool(schema), target="xai")
    assert res.status == "non-strict"
    sent = res.tool["function"]["parameters"]
    props = sent["properties"]
    assert sent["additionalProperties"] is True
    assert props["free"]["additionalProperties"] is True and props["typed"]["additionalProperties"] is True
    assert props["maybe"]["additionalProperties"] is True
    assert props["closed"]["additionalProperties"] is False and props["map"]["additionalProperties"] == {"type": "integer"}
    assert "additionalProperties" not in props["uneval"] and "additionalProperties" not in props["text"]
    stated = sorted(t.path for t in res.transformations if t.code == "stated-open-object")
    assert stated == ["#/additionalProperties", "#/properties/free/additionalProperties",
                      "#/properties/maybe/additionalProperties", "#/properties/typed/additionalProperties"]
    assert all(not t.lossy for t in res.transformations if t.code == "stated-open-object")
    for target in ("openai", "anthropic", "deepseek", "mistral"):  # (they read an object open as written)
        other = toolcast.compile_tool(_tool(schema), target=target, strict=False)
        assert not any(t.code == "stated-open-object" for t in other.transformations), target


_D = {"type": "object", "properties": {"a": {"type": "string"}}}
# (a property whose keys an `unevaluatedProperties` reads through an in-place applicator or a `$ref`)
READ_BY_UNEVALUATED = [
    pytest.param({"x": {"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}],
                        "unevaluatedProperties": False}}, id="allOf-part"),
    pytest.param({"x": {"type": "object", "anyOf": [{"properties": {"a": {"type": "string"}}}],
                        "unevaluatedProperties": False}}, id="anyOf-branch"),
    pytest.param({"x": {"$ref": "#/$defs/D", "unevaluatedProperties": False}}, id="ref-target"),
    pytest.param({"x": {"$ref": "#/$defs/D", "unevaluatedProperties": False}, "y": {"$ref": "#/$defs/D"}},
                 id="ref-target-used-twice"),
    pytest.param({"x": {"type": "object", "allOf": [{"anyOf": [{"$ref": "#/$defs/D"}]}],
                        "unevaluatedProperties": False}}, id="ref-below-two-applicators"),
    pytest.param({"x": {"type": "object", "if": {"properties": {"a": {"const": "1"}}},
                        "then": {"properties": {"b": {"type": "string"}}}, "unevaluatedProperties": False}},
                 id="if-then"),
    pytest.param({"x": {"type": "object", "properties": {"a": {}}, "unevaluatedProperties": False,
                        "dependentSchemas": {"a": {"properties": {"b": {"type": "string"}}}}}}, id="dependentSchemas"),
]


@pytest.mark.parametrize("props", READ_BY_UNEVALUATED)
@pytest.mark.parametrize("strict", ["auto", False])
def test_xai_states_no_object_open_whose_keys_an_unevaluated_properties_reads(props, strict) -> None:
    # `additionalProperties: true` there would mark every key evaluated and void the
    # `unevaluatedProperties: false` that reads it (red-team s14k F3): such a subschema is sent as written.
    schema = {"type": "object", "properties": props, "required": ["x"]}
    if "$ref" in repr(props):
        schema["$defs"] = {"D": _D}
    res = toolcast.compile_tool(_tool(schema), target="xai", strict=strict)
    sent = res.tool["function"]["parameters"]
    v = jsonschema.Draft202012Validator
    for value in ({"x": {"zz": 1}}, {"x": {"a": "1", "zz": 1}}, {"x": {"a": "1", "b": "2"}}, {"x": {"a": "1"}}):
        assert v(schema).is_valid(value) == v(sent).is_valid(value), (value, sent)
    stated = [t.path for t in res.transformations if t.code == "stated-open-object" and t.applied]
    assert stated == ["#/additionalProperties"]


def test_xai_states_open_what_no_unevaluated_properties_reads() -> None:
    # (`unevaluatedProperties: true` says nothing; an object below a property is another instance)
    schema = {"type": "object", "properties": {
        "x": {"type": "object", "allOf": [{"properties": {"a": {"type": "object"}}}], "unevaluatedProperties": True},
        "y": {"type": "object", "allOf": [{"properties": {"a": {"type": "object"}}}], "unevaluatedProperties": False},
        "z": {"not": {"properties": {"a": {"const": 1}}}, "unevaluatedProperties": False}}}
    res = toolcast.compile_tool(_tool(schema), target="xai", strict=False)
    stated = sorted(t.path for t in res.transformations if t.code == "stated-open-object")
    assert stated == ["#/additionalProperties", "#/properties/x/allOf/0/additionalProperties",
                      "#/properties/x/allOf/0/properties/a/additionalProperties",
                      "#/properties/y/allOf/0/properties/a/additionalProperties",
                      "#/properties/z/not/additionalProperties"]


@pytest.mark.parametrize("strict", ["auto", False])
def test_xai_drops_contains_with_min_contains_zero(strict) -> None:
    # Alone, a kept `contains` would ask for a match `minContains: 0` did not (red-team s14k F4);
    # `maxContains` is dropped anyway, and `minContains: 2` leaves `contains` where it is (a widening).
    schema = {"type": "object", "required": ["x", "y", "z", "w"], "properties": {
        "x": {"type": "array", "items": {"type": "integer"}, "contains": {"const": 1}, "minContains": 0},
        "y": {"type": "array", "contains": {"const": 1}, "minContains": 0, "maxContains": 2},
        "z": {"type": "array", "contains": {"const": 1}, "minContains": 2},
        "w": {"type": "array", "items": {"anyOf": [{"type": "array", "contains": {"const": 1}, "minContains": 0}]}}}}
    res = toolcast.compile_tool(_tool(schema), target="xai", strict=strict)
    props = res.tool["function"]["parameters"]["properties"]
    assert props["x"] == {"type": "array", "items": {"type": "integer"}}
    assert props["y"] == {"type": "array"} and props["w"]["items"]["anyOf"] == [{"type": "array"}]
    assert props["z"] == {"type": "array", "contains": {"const": 1}}
    dropped = {t.path for t in res.transformations if t.code == "dropped-sent-keyword" and t.applied}
    assert {"#/properties/x/contains", "#/properties/y/contains", "#/properties/w/items/anyOf/0/contains"} <= dropped
    v = jsonschema.Draft202012Validator(res.tool["function"]["parameters"])
    assert v.is_valid({"x": [2], "y": [], "z": [1, 1, 1], "w": [[2]]})


class _Rules:
    """What sent_rules reads of a provider's rules, for a policy no spec states yet."""
    def __init__(self, drop: tuple) -> None:
        self.policy, self.sent_drop, self.sent_empty = {}, drop, ()
        self.changes = {"dropped-sent-keyword": "dropped-sent-keyword"}


def test_a_dropped_keyword_takes_the_neighbour_it_limits_along() -> None:
    # (walk.partners' rule, on the form sent without strict, for any keyword a spec may drop)
    from toolcast.sent_rules import sent_rules
    sent = {"type": "object", "properties": {
        "t": {"type": "array", "prefixItems": [{"type": "integer"}], "items": {"type": "string"}},
        "same": {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "string"}},
        "p": {"type": "object", "patternProperties": {"^x_": {}}, "additionalProperties": False},
        "open": {"type": "object", "patternProperties": {"^x_": {}}, "additionalProperties": True}}}
    trans: list = []
    out = sent_rules(sent, _Rules(("prefixItems", "patternProperties")), [], trans)
    props = out["properties"]
    assert props["t"] == {"type": "array"} and props["same"] == {"type": "array", "items": {"type": "string"}}
    assert props["p"] == {"type": "object"} and props["open"] == {"type": "object", "additionalProperties": True}
    assert {("properties", "t", "items"), ("properties", "p", "additionalProperties")} <= {t[2] for t in trans}


def test_xai_drops_the_unevaluated_items_that_read_a_dropped_contains() -> None:
    # Found by a red team: `minContains: 0` took `contains` along, and the `unevaluatedItems: false`
    # beside it then rejected every item `contains` had evaluated (`["a"]`): a narrowing, said as a widening.
    s = {"type": "object", "properties": {"x": {"type": "array", "contains": {"type": "string"}, "minContains": 0,
                                                "unevaluatedItems": False}}, "required": ["x"]}
    for mode in ("auto", False):
        res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": s}, target="xai", strict=mode)
        x = res.tool["function"]["parameters"]["properties"]["x"]
        assert "contains" not in x and "unevaluatedItems" not in x, x
        assert "#/properties/x/unevaluatedItems" in {t.path for t in res.transformations if t.lossy}


def test_xai_pads_pattern_property_names_as_patterns() -> None:
    # Found by a red team: `pattern` was padded for xAI's whole-string reading, a patternProperties name not.
    s = {"type": "object", "patternProperties": {"^a": {"type": "string"}, "b": {"type": "integer"},
                                                 ".*b.*": {"type": "integer"}}, "additionalProperties": False}
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": s}, target="xai", strict=False)
    names = list(res.tool["function"]["parameters"]["patternProperties"])
    assert names == ["^a.*", "b", ".*.*b.*.*"]  # (`b` padded would spell a name already there: as written)
    assert {t.path for t in res.transformations if t.code == "padded-unanchored-pattern"} == {
        "#/patternProperties/^a", "#/patternProperties/.*b.*"}


def test_an_enum_widened_under_not_says_it_narrows() -> None:
    s = {"type": "object", "properties": {"x": {"not": {"enum": [True]}}}, "required": ["x"]}
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": s}, target="gemini", api="json-schema")
    notes = [t.note for t in res.transformations if t.code == "widened-enum-values-to-types"]
    assert notes and all("narrows" in n for n in notes) and res.lossy


def test_xai_says_which_objects_it_leaves_unstated_and_so_closed() -> None:
    # Found by a red team: an object an unevaluatedProperties reads (here a definition used there and
    # elsewhere) was left unstated, which xAI reads closed, and nothing said so.
    s = {"type": "object", "$defs": {"B": {"type": "object", "properties": {"b": {"type": "integer"}}}},
         "properties": {"x": {"$ref": "#/$defs/B"},
                        "y": {"type": "object", "allOf": [{"$ref": "#/$defs/B"}], "unevaluatedProperties": False}}}
    for mode in ("auto", False):
        res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": s}, target="xai", strict=mode)
        kept = [(t.path, t.lossy) for t in res.transformations if t.code == "kept-object-unstated"]
        assert kept == [("#/$defs/B", True)] and res.lossy, res.transformations
