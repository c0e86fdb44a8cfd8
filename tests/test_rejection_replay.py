"""Replay of the real rejections in provider-facts §8 and §9 (and issue "Every tool toolcast sends is
accepted"): for each, a small schema of the shape that produced the message.

For every case and every provider form it names:
* the oracle (tests/oracles/sent.py) flags the schema sent as it is, with the rule the message is
  about (so the oracle knows the rejection);
* what toolcast sends for it now, under strict "auto", True and False, passes that oracle (or
  nothing is sent: refusing is allowed where no acceptable form exists).

A raw `parameters` form (Gemini/Vertex OpenAPI subset) is the schema with its type names in
capitals and nothing else changed: what a naive converter sends.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from oracles.sent import sent_violations
from sent_support import MODES, Checker, label

OPENAI = (("openai", "responses"), ("openai", "chat"))
JSON_SCHEMA = (("gemini", "json-schema"), ("vertex", "json-schema"))
PARAMETERS = (("gemini", "parameters"), ("vertex", "parameters"))


@dataclass(frozen=True)
class Case:
    id: str
    source: str  # provider-facts section and the public report it cites
    message: str  # the provider's words, as reported
    schema: dict  # the tool's input schema as its author wrote it
    expect: dict  # {(target, api): rule ids the oracle must report on the raw form}
    strict: bool = False  # the raw OpenAI / Anthropic form is sent with strict: true


def _each(forms: tuple, rules: set[str]) -> dict:
    return {form: frozenset(rules) for form in forms}


def _objects(*names: str) -> list[dict]:
    return [{"type": "object", "properties": {n: {"type": "string"}}, "required": [n]} for n in names]


CASES = [
    Case("root-anyOf-beside-object",
         "PF §8 E cloudflare/mcp-server-cloudflare#224, redhat-et/ripwire#48; §9 E anthropics/claude-code#56174, "
         "langchain-ai/langchainjs#9804; §8 E BerriAI/litellm#41639",
         "input_schema does not support oneOf, allOf, or anyOf at the top level / 400 Invalid schema for "
         "function '…': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at "
         "the top level.",
         {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
          "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
         {**_each(OPENAI, {"root-keyword"}), ("anthropic", None): {"root-combinator"},
          **_each(JSON_SCHEMA, {"root-keyword"}), **_each(PARAMETERS, {"root-keyword"})}),
    Case("root-oneOf-of-objects",
         "PF §8 E cloudflare/mcp-server-cloudflare#224; §9 E langchain-ai/langchainjs#9804; §8 E BerriAI/litellm#41639",
         "input_schema does not support oneOf, allOf, or anyOf at the top level / schema must have type 'object' "
         "and not have 'oneOf'/… at the top level / parameters schema should be of type OBJECT",
         {"oneOf": _objects("a", "b")},
         {**_each(OPENAI, {"root-not-object", "root-keyword"}),
          ("anthropic", None): {"root-not-object", "root-combinator"},
          **_each(JSON_SCHEMA, {"root-not-object", "root-keyword"}),
          **_each(PARAMETERS, {"root-not-object"})}),
    Case("root-allOf-of-objects",
         "PF §8 E redhat-et/ripwire#48; §9 E anthropics/claude-code#58841, langchain-ai/langchainjs#9804",
         "input_schema does not support oneOf, allOf, or anyOf at the top level",
         {"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"b": {"type": "integer"}}}]},
         {**_each(OPENAI, {"root-keyword"}), ("anthropic", None): {"root-combinator"},
          **_each(JSON_SCHEMA, {"root-keyword"})}),
    Case("root-not-and-enum",
         "PF §9 E langchain-ai/langchainjs#9804",
         "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level",
         {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
          "not": {"required": ["a", "b"]}},
         _each(OPENAI + JSON_SCHEMA, {"root-keyword"})),
    Case("root-nullable-object-strict",
         "PF §9 D OpenAI structured outputs guide; §1.4",
         "root objects must not be anyOf and must be an object (a root admitting null is not an object root)",
         {"type": "object", "nullable": True, "properties": {"q": {"type": "string"}}, "required": ["q"],
          "additionalProperties": False},
         {**_each(OPENAI, {"root-admits-null"}), **_each(PARAMETERS, {"root-admits-null"})},
         strict=True),
    Case("root-type-list-with-null",
         "PF §9 D OpenAI structured outputs guide; §8 E anomalyco/opencode#11888",
         "a type list such as [\"object\",\"null\"] at the root is not an object root / properties: only "
         "allowed for OBJECT type",
         {"type": ["object", "null"], "properties": {"q": {"type": "string"}}},
         {**_each(OPENAI, {"root-not-object", "root-admits-null"}),
          ("anthropic", None): {"root-not-object"}, **_each(JSON_SCHEMA, {"root-not-object", "root-admits-null"}),
          **_each(PARAMETERS, {"root-not-object"})}),
    Case("ref-with-description-and-default",
         "PF §3.3 P googleapis generative_service.proto 429-466 (G-API-GEN), Vertex content.proto 532",
         "If `$ref` is set on a sub-schema, no other properties, except for those starting as a `$`, may be set.",
         {"type": "object", "$defs": {"Color": {"title": "Color", "type": "string", "enum": ["red", "green"]}},
          "properties": {"color": {"$ref": "#/$defs/Color", "default": "red", "description": "The colour."}}},
         _each(JSON_SCHEMA, {"ref-siblings"})),
    Case("recursion-through-required-nullable",
         "PF §3.3 P G-API-GEN; §5 C-10",
         "Cyclic references are unrolled to a limited degree and, as such, may only be used within "
         "non-required properties. (Nullable properties are not sufficient.)",
         {"type": "object", "properties": {"head": {"$ref": "#/$defs/Node"}}, "required": ["head"],
          "$defs": {"Node": {"type": "object", "required": ["value", "next"], "properties": {
              "value": {"type": "integer"}, "next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}}}}},
         _each(JSON_SCHEMA, {"recursion-through-required"})),
    Case("ref-by-id-to-embedded-resource",
         "PF §1.7 S openai-node transform.ts:555; §2.3 D A-SO; §8 MCP 2026-07-28",
         "External `$ref`: unsupported / an unresolved external reference should be rejected rather than "
         "treated as permissive",
         {"type": "object", "properties": {"address": {"$ref": "https://example.com/address"}},
          "$defs": {"Address": {"$id": "https://example.com/address", "type": "object",
                                "properties": {"city": {"type": "string"}}}}},
         {**_each(OPENAI, {"ref-not-local"}), ("anthropic", None): {"ref-not-local"},
          **_each(JSON_SCHEMA, {"ref-not-local"})}),
    Case("draft-04-boolean-exclusive-minimum",
         "PF §8 E Dokploy/mcp#74 (Anthropic; applied to every JSON Schema form, conservatively)",
         "JSON schema is invalid. It must match JSON Schema draft 2020-12",
         {"type": "object", "properties": {"port": {"type": "integer", "minimum": 0, "exclusiveMinimum": True}}},
         {**_each(OPENAI, {"not-draft-2020-12"}), ("anthropic", None): {"not-draft-2020-12"},
          **_each(JSON_SCHEMA, {"not-draft-2020-12"})}),
    Case("number-enum",
         "PF §9 E weave-os/router#65; §3.2",
         "Invalid value at '…enum[0]' (TYPE_STRING), 7",
         {"type": "object", "properties": {"ratio": {"type": "number", "enum": [1.5, 2]}}},
         _each(PARAMETERS, {"enum-type"})),
    Case("integer-enum",
         "PF §9 E weave-os/router#65; §3.2 (Vertex: INTEGER enums given as strings)",
         "Invalid value at '…enum[0]' (TYPE_STRING), 7",
         {"type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2, 7]}}},
         _each(PARAMETERS, {"enum-type"})),
    Case("anyOf-with-siblings",
         "PF §8 E anomalyco/opencode#14788 (Vertex AI)",
         "When using anyOf, it must be the only field set",
         {"type": "object", "properties": {"v": {"description": "A value.", "anyOf": [{"type": "string"}, {"type": "integer"}]}}},
         {("vertex", "json-schema"): {"any-of-not-alone"}, ("vertex", "parameters"): {"any-of-not-alone"}}),
    Case("property-key-xgafv",
         "PF §8 E anthropics/claude-code#34771; §3.1 P G-VTX tool.proto:241 (Vertex parameter names)",
         "Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'",
         {"type": "object", "properties": {"$.xgafv": {"type": "string", "enum": ["1", "2"]}, "alt": {"type": "string"}}},
         {("anthropic", None): {"property-key"}, ("vertex", "json-schema"): {"parameter-name"},
          ("vertex", "parameters"): {"parameter-name"}}),
]


def as_is_parameters(node: object) -> object:
    """The `parameters` Schema a naive converter sends: type names in capitals, nothing else changed."""
    if isinstance(node, list):
        return [as_is_parameters(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k == "type":
            out[k] = [t.upper() for t in v] if isinstance(v, list) else v.upper() if isinstance(v, str) else v
        elif k in ("properties", "$defs") and isinstance(v, dict):
            out[k] = {n: as_is_parameters(s) for n, s in v.items()}
        elif k in ("items", "anyOf", "oneOf", "allOf", "not", "additionalProperties"):
            out[k] = as_is_parameters(v)
        else:
            out[k] = v
    return out


def raw_tool(case: Case, target: str, api: str | None) -> dict:
    """The case's schema sent as it is, in the form of `target` and `api`."""
    name, description = f"replay_{case.id.replace('-', '_')}", "Replays a reported rejection."
    if target == "openai":
        fn = {"name": name, "description": description, "parameters": case.schema, "strict": case.strict}
        return {"type": "function", **fn} if api == "responses" else {"type": "function", "function": fn}
    if target == "anthropic":
        return {"name": name, "description": description, "input_schema": case.schema,
                **({"strict": True} if case.strict else {})}
    if api == "parameters":
        return {"name": name, "description": description, "parameters": as_is_parameters(case.schema)}
    return {"name": name, "description": description, "parametersJsonSchema": case.schema}


def _forms():
    return [pytest.param(c, t, a, id=f"{c.id}-{label(t, a)}") for c in CASES for t, a in c.expect]


@pytest.mark.parametrize("case,target,api", _forms())
def test_the_oracle_flags_the_raw_form(case: Case, target: str, api: str | None) -> None:
    status = "strict" if case.strict and target in ("openai", "anthropic") else "non-strict"
    found = {rule for rule, _ in sent_violations(raw_tool(case, target, api), target, api, status)}
    missing = case.expect[(target, api)] - found
    assert not missing, f"{case.id} ({case.source}: {case.message!r}): oracle missed {missing}; found {found}"


@pytest.mark.parametrize("mode", MODES, ids=lambda m: f"strict={str(m).lower()}")
@pytest.mark.parametrize("case,target,api", _forms())
def test_what_toolcast_sends_is_accepted(case: Case, target: str, api: str | None, mode: object) -> None:
    checker = Checker(target, api, mode)
    tool = {"name": f"replay_{case.id.replace('-', '_')}", "description": "Replays a reported rejection.",
            "inputSchema": case.schema}
    checker.check(tool, case.id)
    if checker.rejected:
        pytest.fail(f"{checker.report(case.id)}\n  replays {case.source}: {case.message!r}", pytrace=False)


def test_recursion_through_an_optional_property_is_accepted() -> None:
    """The recursion rule is not blind either way: the same list whose `next` is left out of
    `required` is what §3.3 allows ("may only be used within non-required properties")."""
    schema = {"type": "object", "properties": {"head": {"$ref": "#/$defs/Node"}}, "required": ["head"],
              "$defs": {"Node": {"type": "object", "required": ["value"], "properties": {
                  "value": {"type": "integer"}, "next": {"$ref": "#/$defs/Node"}}}}}
    for provider in ("gemini", "vertex"):
        tool = {"name": "t", "description": "d", "parametersJsonSchema": schema}
        assert sent_violations(tool, provider, "json-schema", "non-strict") == []


def test_vertex_takes_an_integer_enum_written_as_strings() -> None:
    """PF §3.2/§9: Vertex takes an INTEGER enum given as strings; the Gemini API takes none."""
    decl = {"name": "t", "description": "d",
            "parameters": {"type": "OBJECT", "properties": {"level": {"type": "INTEGER", "format": "enum", "enum": ["1", "7"]}}}}
    assert sent_violations(decl, "vertex", "parameters", "non-strict") == []
    assert ("enum-type", "parameters/properties/level") in sent_violations(decl, "gemini", "parameters", "non-strict")
