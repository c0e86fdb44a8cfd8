"""A tool sent as written is a schema: toolcast.sent_valid checks every keyword value in the form sent
without strict against the metaschema its provider validates it with (policy sent_metaschema), the
places the walk never reads included (a definition nothing names, a keyword it drops unread, a
subschema under one), and a value that metaschema rejects refuses the tool (invalid-keyword-value),
which the provider would reject whatever the strict flag."""

from __future__ import annotations

import json
import random

import jsonschema
import pytest
from oracles.sent import sent_violations
from sent_support import MODES, TARGETS, label

from toolcast import compile_tool
from toolcast.sent_valid import _VALID_TYPES, KEYWORDS, invalid_places

VALIDATORS = {"2020-12": jsonschema.Draft202012Validator, "2019-09": jsonschema.Draft201909Validator,
              "draft-07": jsonschema.Draft7Validator, "draft-06": jsonschema.Draft6Validator,
              "draft-04": jsonschema.Draft4Validator}
META = {d: v(v.META_SCHEMA) for d, v in VALIDATORS.items()}  # (no format checker: as the providers' oracles)
# Values that one keyword or another takes or rejects: empty, repeated, mixed, integral floats,
# anchors and fragments, nested schemas.
VALUES = [[], [1], ["a", "a"], ["a"], [{}], [True], {}, {"a": 1}, {"a": "b"}, {"a": ["b", "b"]}, {"a": ["b"]},
          {"a": []}, {"a": {}}, {"a": True}, -1, 1.5, 0, 2.0, -2.0, "x", "#", "#a", "a#", "a#b", "_a", "1a", "a:b",
          True, False, None, ["string", "string"], ["string", "null"], "string", "strin", [1, 1.0], [1, True],
          [{"a": 1}, {"a": 1.0}], [[1], [1]]]
KEYS = sorted(set().union(*KEYWORDS.values()) | {"x-extension", "nullable"})


def _generated(rng: random.Random, depth: int) -> dict | bool:
    if rng.random() < 0.05:
        return rng.choice([True, False])
    node: dict = {}
    for _ in range(rng.randint(0, 3)):
        key = rng.choice(KEYS)
        if depth and rng.random() < 0.4:
            shape = rng.random()
            node[key] = (_generated(rng, depth - 1) if shape < 0.5 else
                         [_generated(rng, depth - 1) for _ in range(rng.randint(0, 2))] if shape < 0.8 else
                         {"p": _generated(rng, depth - 1)})
        else:
            node[key] = rng.choice(VALUES)
    return node


@pytest.mark.parametrize("dialect", sorted(VALIDATORS))
def test_agrees_with_the_metaschema(dialect: str) -> None:
    """Over generated documents, invalid_places finds a place exactly when the dialect's metaschema
    (jsonschema's own) finds an error."""
    rng = random.Random(f"sent-valid-{dialect}")
    disagree = []
    for _ in range(2500):
        doc = _generated(rng, 3)
        if type(doc) is not dict:
            continue
        if bool(next(META[dialect].iter_errors(doc), None)) != bool(invalid_places(doc, dialect)):
            disagree.append(json.dumps(doc))
    assert not disagree, f"{len(disagree)} documents, e.g. {disagree[:3]}"


@pytest.mark.parametrize(("doc", "dialect", "place"), [
    ({"$defs": {"a": 1}}, "2020-12", ("$defs", "a")),
    ({"properties": {"a": {"not": {"minLength": -1}}}}, "2020-12", ("properties", "a", "not", "minLength")),
    ({"required": ["a", "a"]}, "2020-12", ("required",)),
    ({"dependentRequired": {"a": "b"}}, "2019-09", ("dependentRequired",)),
    ({"dependencies": {"a": ["b", "b"]}}, "draft-07", ("dependencies", "a")),
    ({"dependencies": {"a": {"maxItems": 1.5}}}, "draft-06", ("dependencies", "a", "maxItems")),
    ({"$id": "#frag"}, "2020-12", ("$id",)),
    ({"$anchor": "1a"}, "2020-12", ("$anchor",)),
    ({"allOf": []}, "2020-12", ("allOf",)),
    ({"items": [1]}, "draft-07", ("items", 0)),
    ({"items": [{}]}, "2020-12", ("items",)),
    ({"exclusiveMinimum": True}, "2020-12", ("exclusiveMinimum",)),
    ({"exclusiveMinimum": True}, "draft-04", ("exclusiveMinimum",)),  # (without `minimum` beside it)
    ({"properties": {"a": True}}, "draft-04", ("properties", "a")),  # (draft-04 has no boolean schemas)
    ({"maxLength": 2.0}, "draft-04", ("maxLength",)),  # (draft-04's integers are not 2.0)
    ({"enum": [1, 1.0]}, "draft-04", ("enum",)),  # (one value twice, as JSON compares)
    ({"examples": {}}, "2020-12", ("examples",)),
    ({"deprecated": "yes"}, "2019-09", ("deprecated",)),
])
def test_names_the_place(doc: dict, dialect: str, place: tuple) -> None:
    assert [found[0] for found in invalid_places(doc, dialect)] == [place]


@pytest.mark.parametrize(("doc", "dialect"), [
    ({"maxLength": 2.0, "enum": [1, True], "required": []}, "2020-12"),
    ({"exclusiveMinimum": True, "minimum": 0, "enum": [1, "1"]}, "draft-04"),
    ({"prefixItems": [1], "$defs": {"a": 1}, "then": {"minLength": -1}}, "draft-06"),  # (unknown there)
    ({"x-extension": {"minLength": -1}, "enum": [], "const": {}}, "2020-12"),
    ({"items": [{}], "additionalItems": False, "$comment": "c"}, "draft-07"),
])
def test_valid_documents_pass(doc: dict, dialect: str) -> None:
    assert next(META[dialect].iter_errors(doc), None) is None  # (the premise)
    assert invalid_places(doc, dialect) == []


@pytest.mark.parametrize("dialect", sorted(VALIDATORS))
def test_a_value_passed_by_its_type_alone_is_valid(dialect: str) -> None:
    """invalid_places passes a value of some keywords by its type alone (for `type`, by its name),
    looking no further (sent_valid._VALID_TYPES): every such value of VALUES, and every such name,
    is one the dialect's metaschema accepts there, nested values and all."""
    passed = []
    for key, valid in _VALID_TYPES[dialect].items():
        names = [v for v in valid if type(v) is str]
        for v in VALUES + names:
            if type(v) in valid or (type(v) is str and v in valid):
                passed.append(key)
                assert next(META[dialect].iter_errors({key: v}), None) is None, (key, v)
    assert {"description", "type", "maximum", "uniqueItems"} <= set(passed)  # (the common keywords pass so)


# Keyword values no metaschema allows, each at places the walk reads and places it does not.
INVALID = [("$comment", 3), ("deprecated", []), ("readOnly", "x"), ("writeOnly", 1), ("examples", {}),
           ("contentEncoding", []), ("contentMediaType", 1), ("contentSchema", 3), ("$anchor", "1a"), ("$id", []),
           ("dependentRequired", {"a": "b"}), ("dependentRequired", {"a": ["b", "b"]}), ("dependencies", {"a": 1}),
           ("dependencies", {"a": {"minLength": -1}}), ("required", ["a", "a"]), ("allOf", []),
           ("prefixItems", [1]), ("patternProperties", {"^a": 1}), ("not", {"maxItems": 1.5}),
           ("if", {"exclusiveMinimum": True}), ("$vocabulary", {"a": 1}), ("$defs", {"a": {"type": "nothing"}})]


def _places(k: str, v: object):
    node = {k: v}
    yield "root", {"type": "object", **node}
    yield "property", {"type": "object", "properties": {"c": node}}
    yield "typed property", {"type": "object", "properties": {"c": {"type": "string", **node}}, "required": ["c"],
                             "additionalProperties": False}
    yield "items", {"type": "object", "properties": {"c": {"type": "array", "items": {"type": "integer", **node}}},
                    "required": ["c"], "additionalProperties": False}
    yield "definition", {"type": "object", "properties": {"c": {"$ref": "#/$defs/D"}}, "required": ["c"],
                         "additionalProperties": False, "$defs": {"D": {"type": "string", **node}}}
    yield "unused definition", {"type": "object", "properties": {"c": {"type": "string"}}, "required": ["c"],
                                "additionalProperties": False, "$defs": {"D": {"type": "string", **node}}}
    yield "dropped keyword", {"type": "object", "properties": {"c": {"type": "string", "not": node}}}


@pytest.mark.parametrize(("target", "api"), [pytest.param(t, a, id=label(t, a)) for t, a in TARGETS])
def test_every_tool_sent_is_a_schema(target: str, api: str | None) -> None:
    """No invalid value reaches a provider, in any form or mode: each tool sent is accepted by the
    provider's oracle (which checks the metaschema), and the others are refused."""
    rejected = []
    for k, v in INVALID:
        for where, schema in _places(k, v):
            for mode in MODES:
                res = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, api=api,
                                   strict=mode)
                if res.tool is None:
                    continue
                found = sent_violations(res.tool, target, api, res.status, res.rules)
                if found:
                    rejected.append((k, v, where, mode, found[:2]))
    assert not rejected, f"{len(rejected)} tools sent and rejected, e.g. {rejected[:4]}"


@pytest.mark.parametrize("strict", ["auto", False])
def test_an_invalid_value_nothing_reads_refuses_the_tool(strict: object) -> None:
    """A definition nothing names is sent with the original (the free-form property keeps the tool
    from strict); its invalid value refuses the tool, named at its place, where it used to be sent
    (and rejected by the provider)."""
    schema = {"type": "object", "properties": {"a": {}}, "$defs": {"unused": {"minLength": -1}}}
    res = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target="anthropic", strict=strict)
    assert res.status == "refused" and res.tool is None
    invalid = [d for d in res.diagnostics if d.code == "anthropic/invalid-keyword-value"]
    assert [d.path for d in invalid] == ["#/$defs/unused/minLength"]
    assert "-1" in invalid[0].message and "non-negative integer" in invalid[0].message


UNUSED_INVALID = [({"$defs": {"D": {"anyOf": []}}}, "#/$defs/D/anyOf"),
                  ({"$defs": {"D": {"maxLength": -1}}}, "#/$defs/D/maxLength"),
                  ({"definitions": {"D": {"maxLength": -1}}}, "#/definitions/D/maxLength"),
                  ({"$defs": {"D": 5}}, "#/$defs/D"),
                  ({"$defs": {"D": {"type": "array", "items": [{"type": "string"}, {"minItems": -1}]}}},
                   "#/$defs/D/items/1/minItems"),
                  ({"$defs": {"D": {"type": "array", "items": []}}}, "#/$defs/D/items")]


@pytest.mark.parametrize(("target", "api"), [pytest.param(t, a, id=label(t, a)) for t, a in TARGETS])
@pytest.mark.parametrize(("defs", "place"), UNUSED_INVALID, ids=[p for _, p in UNUSED_INVALID])
def test_an_invalid_unused_definition_refuses_in_every_mode(target: str, api: str | None, defs: dict,
                                                           place: str) -> None:
    """A document with a keyword value no schema may have is no schema, wherever the value stands: a
    definition nothing names refuses the tool in every mode (docs/ci-gate.md, first row), as the
    form sent without strict does, where the strict form used to leave it out and go strict."""
    schema = {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"],
              "additionalProperties": False, **defs}
    for mode in MODES:
        res = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, api=api,
                           strict=mode)
        assert res.status == "refused" and res.tool is None, (mode, res.status)
        assert place in [d.path for d in res.diagnostics if d.code.endswith("/invalid-keyword-value")], mode


@pytest.mark.parametrize(("target", "api"), [pytest.param(t, a, id=label(t, a)) for t, a in TARGETS])
@pytest.mark.parametrize("defs", [
    {"$defs": {"D": {"type": "array", "items": [{"type": "string"}]}}},
    {"$defs": {"D": {"type": "number", "minimum": 1, "exclusiveMinimum": True}}},
    {"$schema": "http://json-schema.org/draft-04/schema#",
     "definitions": {"D": {"type": "number", "minimum": 1, "exclusiveMinimum": True}}},
    {"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"D": {"items": [{"type": "string"}]}}},
], ids=["tuple items", "draft-04 bound", "declared draft-04", "declared draft-07 tuple"])
def test_an_unused_definition_read_as_the_walk_reads_it_is_no_refusal(target: str, api: str | None,
                                                                     defs: dict) -> None:
    """What the walk reads in a used place (a tuple `items`, draft-04's boolean bounds, a declared
    dialect's own forms) refuses nothing in a definition nothing names either."""
    schema = {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"],
              "additionalProperties": False, **defs}
    res = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, api=api, strict=False)
    assert res.status == "non-strict", res.diagnostics
    assert not [d for d in res.diagnostics if d.code.endswith("/invalid-keyword-value")]


def test_the_provider_metaschema_decides() -> None:
    """sent_metaschema: MCP validates the dialect a schema declares, Mistral draft-07 and OpenAI
    2020-12 whatever it declares; the same document is sent to one as it is, and to the other in
    2020-12 terms (sent_dialect: what draft-07 does not define, and so ignores, is dropped, exactly)."""
    # `prefixItems` is no keyword of draft-07: whatever its value, a draft-07 reading ignores it.
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
              "properties": {"a": {}, "t": {"prefixItems": [1]}}}
    tool = {"name": "t", "description": "d", "inputSchema": schema}
    for target in ("mcp", "mistral"):
        res = compile_tool(tool, target=target, strict=False)
        assert res.status == "non-strict", target
        assert not sent_violations(res.tool, target, None, res.status, res.rules), target
    res = compile_tool(tool, target="openai", strict=False)
    assert res.status == "non-strict"
    assert res.tool["parameters"]["properties"]["t"] == {}
    assert res.tool["parameters"]["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert [t.path for t in res.transformations if t.code == "converted-dialect-keyword"] == [
        "#/properties/t/prefixItems", "#/$schema"]
    assert not sent_violations(res.tool, "openai", "responses", res.status, res.rules)
    # In 2020-12 itself `prefixItems` holds schemas: a value that is none refuses the tool there.
    res = compile_tool({**tool, "inputSchema": {**schema, "$schema": "https://json-schema.org/draft/2020-12/schema"}},
                       target="openai", strict=False)
    assert res.status == "refused"
    assert [d.path for d in res.diagnostics if d.code == "openai/invalid-keyword-value"] == ["#/properties/t/prefixItems/0"]


@pytest.mark.parametrize(("target", "api"), [pytest.param(t, a, id=label(t, a)) for t, a in TARGETS])
@pytest.mark.parametrize("root", [{"enum": [{"a": "x"}]}, {"const": "x"}, {"const": {"a": "x"}}, {"enum": ["x", 1]},
                                  {"not": {"required": ["a"]}}], ids=["enum", "const", "object const", "mixed enum", "not"])
def test_a_root_keyword_the_provider_refuses_is_never_sent(target: str, api: str | None, root: dict) -> None:
    """policy sent_root_keywords holds whatever the strict flag: the strict form refuses a root
    `enum` (or a `const` the rules write as one, or a kept `not`) where the provider rejects it, and
    the form sent without strict is rid of it; every tool sent is accepted."""
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
              "additionalProperties": False, **root}
    for mode in MODES:
        res = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, api=api, strict=mode)
        if res.tool is not None:
            assert not sent_violations(res.tool, target, api, res.status, res.rules), (mode, res.tool)


@pytest.mark.parametrize("where", ["definition", "property", "items"])
def test_an_integral_float_count_is_sent_as_the_integer(where: str) -> None:
    """`maxLength: 2.0` is the integer 2 (JSON compares them equal); the strict form writes it as
    one, which a provider that takes only integers there reads (OpenAI's strict grammar)."""
    leaf = {"type": "string", "maxLength": 2.0, "minLength": 1.0}
    schema = {"type": "object", "properties": {"a": leaf}, "required": ["a"], "additionalProperties": False}
    if where == "items":
        schema["properties"]["a"] = {"type": "array", "items": leaf, "maxItems": 3.0}
    elif where == "definition":
        schema = {**schema, "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": leaf}}
    res = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target="openai")
    assert res.status == "strict"
    text = json.dumps(res.tool)
    assert ".0" not in text
    assert not sent_violations(res.tool, "openai", "responses", res.status, res.rules)


NESTED_INVALID = {
    "in-a-used-definition": {"type": "object", "$defs": {"B": {"$defs": {"C": {"minLength": -1}}, "type": "string"}},
                             "properties": {"a": {"$ref": "#/$defs/B"}}},
    "under-a-property": {"type": "object", "properties": {"a": {"type": "string", "$defs": {"C": {"minLength": -1}}}}},
    "empty-all-of-at-the-root": {"type": "object", "allOf": [], "properties": {}},
    "empty-all-of-below": {"type": "object", "properties": {"a": {"type": "string", "allOf": []}}},
}


@pytest.mark.parametrize("name", list(NESTED_INVALID))
def test_a_value_no_schema_may_hold_refuses_in_every_mode_where_the_walk_does_not_read_it(name: str) -> None:
    # Found by a red team: nested definitions the walk leaves out unread, and an empty allOf, were sent
    # strict under auto and refused only under strict false.
    tool = {"name": "t", "description": "d", "inputSchema": NESTED_INVALID[name]}
    for target in ("openai", "anthropic", "gemini", "xai", "mcp"):
        for mode in ("auto", True, False):
            res = compile_tool(tool, target=target, strict=mode)
            assert res.status == "refused", (target, mode, res.status)
            assert any(d.code.endswith("/invalid-keyword-value") for d in res.diagnostics), (target, mode)
