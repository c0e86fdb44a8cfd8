"""The form sent without strict meets what a provider rejects in any form (policy sent_keywords,
sent_property_schemas, sent_empty; toolcast.sent_rules), and the generator refuses a value of them the
interpreter has no action for."""

from __future__ import annotations

import sys
from pathlib import Path

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
])
def test_a_sent_policy_the_interpreter_cannot_apply_is_refused(openai_spec, policy: str, path: str, says: str) -> None:
    f = _version(openai_spec, policy)
    err = _refusal(openai_spec)
    assert err.file == str(f) and err.path == path, (err.path, err.message)
    assert says in err.message


@pytest.mark.parametrize("policy", [
    "  sent_empty: {refuse: [allOf], cite: [O-SO]}\n",  # (an empty allOf says nothing: never unsatisfiable)
    "  sent_property_schemas: {rule: everywhere, cite: [O-SO]}\n",
])
def test_a_sent_policy_value_outside_the_meta_schema_is_refused(openai_spec, policy: str) -> None:
    _version(openai_spec, policy)
    assert _refusal(openai_spec).file.endswith(f"{NEW}.yaml")


def test_a_sent_policy_the_interpreter_applies_is_generated(openai_spec) -> None:
    _version(openai_spec, "  sent_keywords: {drop: [maxContains, minContains], cite: [O-SO]}\n"
                          "  sent_property_schemas: {rule: objects, cite: [O-SO]}\n"
                          "  sent_empty: {refuse: [enum, anyOf], cite: [O-SO]}\n")
    _, files = gen_tables.build(openai_spec)
    text = "\n".join(v for k, v in files.items() if "9999" in str(k))
    assert "SENT_DROP = ('maxContains', 'minContains')" in text and "SENT_EMPTY = ('enum', 'anyOf')" in text
    assert "'sent_property_schemas': 'objects'" in text


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
