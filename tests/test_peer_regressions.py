"""Peers' known bugs (reference/peers.md §4 battery, upstream.md §2 and §5 P5) pinned to what toolcast does instead.

Each case names the peer bug, the input that triggers it, and toolcast's behaviour: the
outcome, the codes that must be reported, and where it is sent strict, that the oracle
accepts it and that it keeps the semantics the peer lost.
"""

from __future__ import annotations

import copy
import json

import pytest
from golden_support import sent_original, sent_rewrites
from oracles import facts
from oracles.openai_strict import tool_violations, validate_instance, violations

import toolcast

NODE_DEFS = {
    "Node": {
        "type": "object",
        "properties": {
            "value": {"type": "integer"},
            "parent": {"$ref": "#/$defs/Node", "description": "Parent node"},
        },
        "required": ["value"],
    }
}


def run(schema, **kw):
    tool = {"name": "t", "description": "d", "parameters": schema}
    before = copy.deepcopy(tool)
    res = toolcast.compile_tool(tool, **kw)
    assert tool == before, "input mutated"
    if res.status == "strict":
        assert tool_violations(res.tool, "responses") == []
    return res


def codes(res):
    return {d.code for d in res.diagnostics} | {t.code for t in res.transformations}


def params(res):
    return res.tool["parameters"]


# (id, peer bug, schema, expected status under strict=auto, codes that must be reported)
CASES = [
    ("recursive-ref-with-sibling", "openai SDK: RecursionError; agents: 'too deeply nested' (battery #36)",
     {"type": "object", "properties": {"node": {"$ref": "#/$defs/Node"}}, "required": ["node"], "$defs": NODE_DEFS},
     "non-strict", {"openai/unbounded-null-paths", "openai/sent-non-strict"}),
    ("additional-properties-empty-schema", "agents PR#3927: `additionalProperties: {}` slipped through (falsy)",
     {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": {}},
     "strict", {"openai/additional-properties-true", "openai/extra-properties-no-longer-accepted", "closed-open-object"}),
    ("additional-properties-true", "pydantic-ai/langchain close it silently (battery #04)",
     {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": True},
     "strict", {"openai/extra-properties-no-longer-accepted"}),
    ("open-map", "pydantic-ai/langchain erase a typed map to {} silently; openai-python PR#2743/#3805 (battery #05)",
     {"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}}, "required": ["labels"]},
     "non-strict", {"openai/open-map"}),
    ("one-of-overlapping", "agents/pydantic-ai merge oneOf into anyOf silently (battery #06)",
     {"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}}, "required": ["v"]},
     "non-strict", {"openai/one-of-converted-to-any-of", "converted-one-of-to-any-of"}),
    ("one-of-exclusive", "the same, where the branches cannot overlap: converted and said so",
     {"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}, "required": ["v"]},
     "strict", {"openai/one-of-exclusive-converted"}),
    ("free-form-nested-object", "openai-agents-js PR#1629 and openai/agents/pydantic-ai: free-form object narrowed to {} (battery #35)",
     {"type": "object", "properties": {"payload": {"type": "object"}}, "required": ["payload"]},
     "non-strict", {"openai/free-form-object"}),
    ("free-form-root", "battery #27: `{type: object}` root",
     {"type": "object"}, "strict", {"openai/empty-parameters"}),
    ("optional-not-nullable", "every converter: optional made required without null (battery #01)",
     {"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["q"]},
     "strict", {"openai/nullable-instead-of-omitted", "converted-optional-property-to-nullable"}),
    ("nested-optional", "dynamiq PR#753: nested optional not made nullable (battery #02)",
     {"type": "object", "properties": {"f": {"type": "object", "properties": {"since": {"type": "string", "format": "date"}}}}, "required": ["f"]},
     "strict", {"openai/nullable-instead-of-omitted"}),
    ("typeless-properties", "agents #4114: typeless {properties} got required but no additionalProperties:false (battery #37)",
     {"type": "object", "properties": {"o": {"properties": {"a": {"type": "string"}}, "required": ["a"]}}, "required": ["o"]},
     "strict", {"openai/type-inferred"}),
    ("ref-sibling-constraint", "agents #4353: parent-wins $ref sibling merge deletes the referent's constraints",
     {"type": "object", "properties": {"n": {"$ref": "#/$defs/N", "minimum": 0}}, "required": ["n"],
      "$defs": {"N": {"type": "integer", "maximum": 10, "minimum": -5}}},
     "strict", {"openai/ref-with-siblings", "merged-ref-siblings"}),
    ("ref-sibling-conflict", "agents #4353: a sibling that contradicts the referent must not win",
     {"type": "object", "properties": {"n": {"$ref": "#/$defs/N", "type": "string"}}, "required": ["n"],
      "$defs": {"N": {"type": "integer"}}},
     "non-strict", {"openai/unsatisfiable-schema"}),  # both apply: no value is a string and an integer
    ("ref-sibling-nullable", "agents: UserError on `$ref` + `nullable` (battery #12)",
     {"type": "object", "properties": {"a": {"$ref": "#/$defs/A", "nullable": True}}, "required": ["a"],
      "$defs": {"A": {"type": "string"}}},
     # OpenAPI 3.0 ignores what stands beside `$ref` (3.0.3, Reference Object): no null here.
     "strict", {"openai/nullable-without-effect", "dropped-ineffective-nullable"}),
    ("boolean-false-optional", "openai/agents: TypeError on a `false` subschema (battery #28)",
     {"type": "object", "properties": {"a": False, "b": {"type": "string"}}, "required": ["b"]},
     "strict", {"openai/boolean-subschema", "removed-false-subschema"}),
    ("boolean-false-required", "pydantic-ai/langchain: unsatisfiable output (battery #28)",
     {"type": "object", "properties": {"a": False}, "required": ["a"]},
     "non-strict", {"openai/unsatisfiable-schema"}),
    ("all-of", "every converter passes multi-branch allOf through (battery #07)",
     {"type": "object", "properties": {"x": {"allOf": [{"type": "integer", "minimum": 1}, {"maximum": 5}]}}, "required": ["x"]},
     "strict", {"openai/all-of-merged"}),
    ("not", "every converter passes `not` through (battery #08)",
     {"type": "object", "properties": {"x": {"type": "string", "not": {"enum": ["a"]}}}, "required": ["x"]},
     "non-strict", {"openai/unsupported-keyword"}),
    ("if-then-else", "every converter passes if/then/else through (battery #09)",
     {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "if": {"properties": {"x": {"const": "a"}}},
      "then": {"required": ["x"]}},
     "non-strict", {"openai/unsupported-keyword"}),
    ("format-uri", "openai/agents/langchain send `format: uri` and get a 400 (battery #18)",
     {"type": "object", "properties": {"u": {"type": "string", "format": "uri"}}, "required": ["u"]},
     "non-strict", {"openai/unsupported-string-format"}),
    # (battery #30 used 1,200 values, #29 11 levels: past the limits then; each is built past the
    # default version's documented limit, _READING below)
    ("enum-over-limit", "no converter enforces the enum limit (battery #30)",
     None, "non-strict", {"openai/too-many-enum-values"}),
    ("deep-over-limit", "no converter enforces the depth limit (battery #29)",
     None, "non-strict", {"openai/schema-too-deep"}),
    ("root-any-of", "openai/pydantic-ai/langchain pass a root anyOf (battery #25)",
     {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object", "properties": {"b": {"type": "string"}}}]},
     "non-strict", {"openai/root-schema-anyof"}),
    ("root-type-array", "battery #26: root `[object, null]`",
     # (read as the object alone, a narrowing: a tool's arguments are an object; issue 37)
     {"type": ["object", "null"], "properties": {"a": {"type": "string"}}}, "strict", {"narrowed-root-to-object"}),
    ("array-without-items", "battery #03: untyped array sent strict",
     {"type": "object", "properties": {"xs": {"type": "array"}}, "required": ["xs"]},
     "non-strict", {"openai/array-missing-items"}),
    ("prefix-items", "battery #32: prefixItems tuple",
     {"type": "object", "properties": {"p": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": {"type": "number"}}}, "required": ["p"]},
     "non-strict", {"openai/unsupported-keyword"}),
    ("unique-items", "battery #31: uniqueItems kept or dropped silently",
     {"type": "object", "properties": {"t": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}}, "required": ["t"]},
     "non-strict", {"dropped-unsupported-keyword"}),
    ("default-dropped", "battery #16: `default` sent (400 on Azure) or kept silently",
     {"type": "object", "properties": {"lang": {"type": "string", "default": "en"}}, "required": ["lang"]},
     "strict", {"openai/default-keyword-dropped"}),
    ("draft07-definitions", "agents MCP path falls back on every $ref (battery #13)",
     {"type": "object", "properties": {"a": {"$ref": "#/definitions/A"}}, "required": ["a"], "definitions": {"A": {"type": "string"}}},
     "strict", {"openai/legacy-definitions-keyword", "rewrote-definitions-reference"}),
    ("recursive-ref-required", "agents MCP path: non-strict on any $ref (battery #11)",
     {"type": "object", "properties": {"tree": {"$ref": "#/$defs/T"}}, "required": ["tree"],
      "$defs": {"T": {"type": "object", "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}}, "required": ["v", "kids"]}}},
     "strict", set()),
    ("root-ref", "agents MCP path breaks root-$ref schemas (battery #38)",
     {"$ref": "#/$defs/Args", "$defs": {"Args": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}},
     "strict", {"merged-ref-siblings"}),
    ("zero-width-description", "nobody strips invisible characters (battery #34)",
     None, "strict", {"openai/description-invisible-characters"}),
    ("odd-property-names", "battery #33: names with spaces, dots, slashes",
     {"type": "object", "properties": {"a b": {"type": "string"}, "x.y": {"type": "string"}, "p/q": {"type": "string"}, "~t": {"type": "string"}}},
     "strict", {"openai/nullable-instead-of-omitted"}),
]


def _deep(n):
    node = {"type": "string"}
    for _ in range(n):
        node = {"type": "object", "properties": {"c": node}, "required": ["c"]}
    return node


# The documents' facts under the default rules (tests/oracles/facts.py, which a docs change updates).
_READING = facts.openai(toolcast.rules.default_version("openai"))
# The fact a case's peer bug needs: `format: uri` is a 400 only while the reading lists no `uri`, and
# dropping `uniqueItems` or `prefixItems` is a loss only while it is not documented. A docs change
# that adds one makes the case's premise false, and the case says so instead of failing.
PREMISES = {
    "format-uri": ("`uri` is a documented format", lambda r: "uri" not in r.formats),
    "unique-items": ("`uniqueItems` is a documented keyword", lambda r: "uniqueItems" not in r.allowlist),
    "prefix-items": ("`prefixItems` is a documented keyword", lambda r: "prefixItems" not in r.allowlist),
}


def _schema(cid: str, schema):
    if cid == "deep-over-limit":
        return _deep(_READING.limits["depth"] + 1)
    if cid == "enum-over-limit":
        return {"type": "object", "properties": {"e": {"type": "integer", "enum": list(range(_READING.limits["enum_values"] + 200))}},
                "required": ["e"]}
    return schema


def _skip_unless_premise_holds(cid: str, bug: str = "") -> None:
    if cid in PREMISES and not PREMISES[cid][1](_READING):
        pytest.skip(f"premise no longer holds under the default rules: {PREMISES[cid][0]} ({bug or cid})")


@pytest.mark.parametrize("cid, bug, schema, status, must", CASES, ids=[c[0] for c in CASES])
def test_peer_bug_pinned(cid, bug, schema, status, must):
    _skip_unless_premise_holds(cid, bug)
    tool = {"name": "t", "description": "d", "parameters": _schema(cid, schema)}
    if cid == "zero-width-description":
        tool = {"name": "t", "description": "Reads\u200b files\u202e", "parameters": {"type": "object", "properties": {}}}
    before = copy.deepcopy(tool)
    res = toolcast.compile_tool(tool)
    assert tool == before
    assert res.status == status, (bug, res.status, sorted(codes(res)))
    assert must <= codes(res), (bug, sorted(must - codes(res)))
    if res.status == "strict":
        assert tool_violations(res.tool, "responses") == []
        assert not res.lossy
    if res.status == "non-strict":
        # The fallback is the caller's own schema, equal but not shared (agents PR#3199).
        assert sent_rewrites(res) or res.tool["parameters"] == sent_original(tool["parameters"])
        assert res.tool["parameters"] is not tool["parameters"]
        assert res.tool["strict"] is False
        assert "openai/sent-non-strict" in codes(res)


@pytest.mark.parametrize("cid", [c[0] for c in CASES if c[3] == "non-strict"])
def test_strict_true_refuses_instead_of_narrowing_or_widening(cid):
    _skip_unless_premise_holds(cid)
    case = next(c for c in CASES if c[0] == cid)
    schema = _schema(cid, case[2])
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, strict=True)
    assert res.status == "refused" and res.tool is None


def test_optional_becomes_nullable_and_is_stripped_back():
    res = run({"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["q"]})
    p = params(res)
    assert p["properties"]["limit"]["type"] == ["integer", "null"]
    assert p["required"] == ["q", "limit"]
    assert res.null_paths == (("limit",),)
    assert toolcast.strip_nulls({"q": "x", "limit": None}, res.null_paths) == {"q": "x"}


def test_ref_sibling_keeps_the_referents_constraints():
    res = run(CASES[[c[0] for c in CASES].index("ref-sibling-constraint")][2])
    p = params(res)
    assert validate_instance(p, {"n": 3})
    assert not validate_instance(p, {"n": 11}), "the referent's maximum was lost (parent-wins merge)"
    assert not validate_instance(p, {"n": -1}), "the sibling's minimum was lost"


def test_exclusive_one_of_keeps_its_accept_set():
    res = run({"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}, "required": ["v"]})
    p = params(res)
    for ok in ({"v": "a"}, {"v": 3}):
        assert validate_instance(p, ok)
    for bad in ({"v": 1.5}, {"v": None}, {"v": []}):
        assert not validate_instance(p, bad)


def test_overlapping_one_of_only_strict_with_allow_lossy_and_flagged():
    schema = CASES[[c[0] for c in CASES].index("one-of-overlapping")][2]
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, allow_lossy=True)
    assert res.status == "strict" and res.lossy
    assert any(t.code == "converted-one-of-to-any-of" and t.lossy for t in res.transformations)


def test_additional_properties_never_injected_on_non_objects():
    """outlines PR#1909: additionalProperties added to non-object nodes."""
    res = run({"type": "object", "properties": {"s": {"type": "string"}, "xs": {"type": "array", "items": {"type": "integer"}},
                                                "u": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}, "required": ["s", "xs", "u"]})

    def walk(node):
        if isinstance(node, dict):
            t = node.get("type")
            types = t if isinstance(t, list) else [t]
            if "additionalProperties" in node:
                assert "object" in types, node
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(params(res))


def test_recursive_ref_compiles_and_is_bounded():
    res = run(CASES[[c[0] for c in CASES].index("recursive-ref-required")][2])
    p = params(res)
    assert "$defs" in p and json.dumps(p).count('"#/$defs/T"') >= 2
    assert validate_instance(p, {"tree": {"v": 1, "kids": [{"v": 2, "kids": []}]}})
    assert not validate_instance(p, {"tree": {"v": 1, "kids": [{"v": 2}]}})


def test_strict_is_always_present_in_both_apis():
    """P3: an omitted `strict` makes Responses normalise silently."""
    for api in ("responses", "chat"):
        for strict in ("auto", True, False):
            res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}, api=api, strict=strict)
            fn = res.tool if api == "responses" else res.tool["function"]
            assert isinstance(fn["strict"], bool)


BUG_REQUIRED_RECURSION = (
    "BUG: a recursive $ref that is required all the way down has no finite instance, yet is "
    "emitted strict (oracle: no-finite-instance); peers.md battery #36 'UNSATISFIABLE'"
)


def test_required_recursion_without_exit_is_not_sent_strict():
    schema = {"type": "object", "properties": {"node": {"$ref": "#/$defs/N"}}, "required": ["node"],
              "$defs": {"N": {"type": "object", "properties": {"value": {"type": "integer"},
                                                               "parent": {"$ref": "#/$defs/N", "description": "Parent node"}},
                              "required": ["value", "parent"]}}}
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema})
    assert res.status != "strict" or violations(res.tool["parameters"]) == []
