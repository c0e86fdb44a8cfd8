"""A dropped keyword that limits where a kept neighbour applies (`prefixItems` before `items`, `patternProperties` beside
`additionalProperties`, `minContains: 0` beside `contains`) takes the neighbour with it or reports the narrowing; the
enforce note never stands beside `$ref`; the run-time check reads a pattern's class escapes as ECMA-262 does."""

from __future__ import annotations

import jsonschema
import pytest
from oracles.sent import sent_violations

import toolcast
from toolcast.ecma_classes import as_ecma
from toolcast.validation import ArgumentCheck

TARGETS = [("openai", "responses"), ("openai", "chat"), ("anthropic", None), ("gemini", "json-schema"),
           ("gemini", "parameters"), ("vertex", "json-schema"), ("vertex", "parameters"), ("mcp", None),
           ("deepseek", None), ("xai", None), ("mistral", None), ("bedrock", None)]
PREFIX = {"type": "object", "properties": {"x": {"type": "array", "prefixItems": [{"type": "integer"}],
                                                 "items": {"type": "string"}}}, "required": ["x"]}
PATTERNS = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"],
            "patternProperties": {"^x_": {"type": "integer"}}, "additionalProperties": False}
MIN_CONTAINS = {"type": "object", "properties": {"x": {"type": "array", "items": {"type": "integer"},
                                                       "contains": {"const": 1}, "minContains": 0}}, "required": ["x"]}
# (a valid argument the sent form must not reject unless a narrowing says so)
VALID = [(PREFIX, {"x": [1, "a"]}), (PATTERNS, {"a": 1, "x_1": 5}), (MIN_CONTAINS, {"x": [2]})]


def _compile(schema, target, api, **kw):
    return toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, api=api, **kw)


def _sent(result, target, api):
    tool = result.tool
    if target == "openai":
        return tool["parameters"] if api == "responses" else tool["function"]["parameters"]
    if target == "anthropic":
        return tool["input_schema"]
    if target in ("gemini", "vertex"):
        return tool.get("parametersJsonSchema") if api == "json-schema" else None
    if target == "mcp":
        return tool["inputSchema"]
    if target == "bedrock":
        return tool["toolSpec"]["inputSchema"]["json"]
    return tool["function"]["parameters"]


@pytest.mark.parametrize("target,api", TARGETS)
@pytest.mark.parametrize("mode", ["auto", True, False])
@pytest.mark.parametrize("enforce", [False, True])
def test_no_unreported_narrowing(target, api, mode, enforce):
    for schema, valid in VALID:
        r = _compile(schema, target, api, strict=mode, enforce=enforce)
        if r.tool is None:
            continue
        sent = _sent(r, target, api)
        if sent is None:
            continue  # (Gemini's OpenAPI form: see test_prefix_items_take_items_along)
        narrowed = any(t.code == "closed-open-object" for t in r.transformations)
        assert narrowed or jsonschema.Draft202012Validator(sent).is_valid(toolcast.fill_nulls(valid, r.null_paths, sent)), (
            schema, target, api, mode, sent)


def test_prefix_items_take_items_along():
    r = _compile(PREFIX, "openai", "responses", enforce=True)
    assert r.status != "strict"  # (an array without `items` has no strict form)
    assert ("dropped-unsupported-keyword", "#/properties/x/items") in [(t.code, t.path) for t in r.transformations]
    r = _compile(PREFIX, "gemini", "parameters")
    assert r.tool is None or "items" not in r.tool["parameters"]["properties"]["x"]
    same = {"type": "object", "properties": {"x": {"type": "array", "prefixItems": [{"type": "string"}],
                                                   "items": {"type": "string"}}}, "required": ["x"]}
    r = _compile(same, "openai", "responses", enforce=True)  # (`items` says all the tuple says: kept, exact)
    assert r.status == "strict" and r.tool["parameters"]["properties"]["x"]["items"] == {"type": "string"}


def test_pattern_keys_closing_reported_or_left_open():
    r = _compile(PATTERNS, "openai", "responses", enforce=True)
    assert ("closed-open-object", "#/additionalProperties") in [(t.code, t.path) for t in r.transformations]
    for target, api in (("vertex", "parameters"), ("mcp", None)):
        r = _compile(PATTERNS, target, api, enforce=True)
        sent = r.tool["parameters"] if target == "vertex" else r.tool["inputSchema"]
        assert "additionalProperties" not in sent and r.lossy, (target, sent)


@pytest.mark.parametrize("mode", ["auto", False])
def test_min_contains_zero_takes_contains_along(mode):
    # (xAI's form sent without strict drops `minContains` wherever it stands: toolcast.sent_rules)
    for target in ("xai", "openai") if mode == "auto" else ("xai",):  # (OpenAI without strict: the original)
        r = _compile(MIN_CONTAINS, target, None if target == "xai" else "responses", enforce=True, strict=mode)
        x = _sent(r, target, None if target == "xai" else "responses")["properties"]["x"]
        assert "contains" not in x and r.lossy, (target, x)


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_enforce_note_not_beside_ref(api):
    schema = {"type": "object", "$defs": {"D": {"type": "array", "items": {"type": "string"}}},
              "properties": {"x": {"$ref": "#/$defs/D", "uniqueItems": True}}, "required": ["x"]}
    r = _compile(schema, "openai", api, enforce=True)
    assert r.status == "strict"
    assert sent_violations(r.tool, "openai", api, r.status, r.rules) == []


@pytest.mark.parametrize("pattern,value,valid", [
    # (a lookahead makes the validator's engine read the whole pattern itself, Unicode-aware where ECMA-262 is not)
    ("^\\d+(?!x)$", "\u0661\u0662\u0663", False), ("^\\w+(?!x)$", "\u00e9", False), ("^\\D(?!x)$", "\u0660", True),
    ("^\\s(?!x)", "\ufeff", True), ("^\\s(?!x)", "\u0085", False), ("^\\S(?!x)", "\u0085", True),
    ("^[a\\D](?!x)$", "5", False), ("^[^\\s](?!x)$", "\u2028", False), ("^a.b(?!x)$", "a\u2028b", False),
    ("^a.b$", "a\u0085b", True), ("^[[]$", "[", True), ("^\\\\d$", "\\d", True), ("^[]$", "", False), ("^[^]$", "\n", True),
])
def test_check_reads_patterns_as_ecma(pattern, value, valid):
    check = ArgumentCheck({"type": "object", "properties": {"v": {"type": "string", "pattern": pattern}}})
    assert check.ready() and (check.message("t", {"v": value}) is None) == valid
    pp = ArgumentCheck({"type": "object", "patternProperties": {pattern: {"type": "integer"}}})
    assert (pp.message("t", {value: "s"}) is not None) == valid  # (a key the pattern matches must hold an integer)


def test_ecma_rewrite_leaves_plain_patterns_and_shows_the_written_one():
    assert as_ecma("^[a-z]+$") == "^[a-z]+$" and as_ecma("\\u0041\\x41") == "\\u0041\\x41"
    check = ArgumentCheck({"type": "object", "properties": {"v": {"type": "string", "pattern": "^\\d+$"}}})
    assert '"^\\\\d+$"' in check.message("t", {"v": "x"})
