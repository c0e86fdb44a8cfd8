"""Three kinds of sent tool the provider would not take as the tool means it (issue 41, helper P):

- a string holding an unpaired UTF-16 surrogate (a key, a description, an enum value, a pattern, a
  definition's name...) given through the Python API: no UTF-8 request can carry it, so the tool is
  refused in every mode (non-json-value), as the CLI loader refuses it (loader.text_only);
- a document declaring an older dialect that holds later keywords (or a constraint beside `$ref`),
  sent to a provider that reads every schema as 2020-12 (policy sent_metaschema 2020-12): written in
  2020-12 terms first, so that the provider does not apply what the declared dialect ignores;
- a `pattern` (or `patternProperties` name) Python's `re` cannot compile, sent to Mistral, whose
  Draft7Validator.check_schema asserts `format: regex` (policy sent_metaschema_formats asserted).
"""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft7Validator, Draft202012Validator, SchemaError
from oracles.sent import sent_violations
from sent_support import MODES, TARGETS, label

import toolcast

S = "ab\ud800cd"  # an unpaired (high) surrogate
LOW = "\udc00"

SURROGATE_PLACES = {
    "property-name": {"type": "object", "properties": {"a" + S: {"type": "string"}}},
    "description": {"type": "object", "properties": {"a": {"type": "string", "description": S}}},
    "root-description": {"type": "object", "description": S, "properties": {"a": {"type": "string"}}},
    "title": {"type": "object", "properties": {"a": {"type": "string", "title": LOW}}},
    "enum-value": {"type": "object", "properties": {"a": {"type": "string", "enum": ["x", S]}}},
    "const": {"type": "object", "properties": {"a": {"type": "string", "const": S}}},
    "default": {"type": "object", "properties": {"a": {"type": "string", "default": S}}},
    "examples": {"type": "object", "properties": {"a": {"type": "string", "examples": [S]}}},
    "pattern": {"type": "object", "properties": {"a": {"type": "string", "pattern": S}}},
    "format": {"type": "object", "properties": {"a": {"type": "string", "format": S}}},
    "unknown-keyword": {"type": "object", "properties": {"a": {"type": "string", "x-" + S: 1}}},
    "annotation-value-key": {"type": "object", "properties": {"a": {"type": "string", "x-meta": {S: 1}}}},
    "required-name": {"type": "object", "required": [S], "properties": {"a": {"type": "string"}}},
    "definition-name": {"type": "object", "properties": {"a": {"$ref": "#/$defs/" + S}}, "$defs": {S: {"type": "string"}}},
    "in-definition": {"type": "object", "properties": {"a": {"$ref": "#/$defs/d"}},
                      "$defs": {"d": {"type": "string", "description": S}}},
    "declared-dialect": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                         "properties": {"a": {"type": "string", "description": S}}},
    "in-any-of": {"type": "object", "properties": {"a": {"anyOf": [{"type": "string", "enum": [S]}, {"type": "null"}]}}},
    "additional-properties": {"type": "object", "additionalProperties": {"type": "string", "description": S}},
    "comment": {"type": "object", "$comment": S, "properties": {}},
    "items-enum": {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string", "enum": [S]}}}},
}


def _utf8(value: object) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@pytest.mark.parametrize("place", sorted(SURROGATE_PLACES))
def test_unpaired_surrogate_is_never_sent(place):
    schema = SURROGATE_PLACES[place]
    for target, api in TARGETS:
        for mode in MODES:
            res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema},
                                        target=target, api=api, strict=mode)
            where = f"{place}: {label(target, api, mode)}"
            assert res.status == "refused", where
            assert res.tool is None, where
            codes = [d.code.split("/", 1)[1] for d in res.diagnostics]
            assert "non-json-value" in codes, (where, codes)
            # (the report itself is text: its messages and paths can be written as UTF-8)
            assert _utf8(res.to_dict()), where


def test_surrogate_refusal_names_the_place_and_quotes_around_it():
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": SURROGATE_PLACES["description"]},
                                target="anthropic")
    found = [d for d in res.diagnostics if d.code == "anthropic/non-json-value"]
    assert found and found[0].path == "#/properties/a/description"
    assert "\\ud800" in found[0].message and "unpaired UTF-16 surrogate" in found[0].message


def test_paired_surrogates_and_other_text_are_sent():
    schema = {"type": "object", "properties": {"a\U0001f600": {"type": "string", "description": "caf\u00e9 \U0001f600",
                                                             "enum": ["\u4e2d\u6587", "x"]}}}
    for target, api in TARGETS:
        res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, api=api)
        assert res.status != "refused" or not any(d.code.endswith("/non-json-value") for d in res.diagnostics)


# ---------------------------------------------------------------------------------------------
# An older dialect sent to a provider that reads every schema as 2020-12
# ---------------------------------------------------------------------------------------------

DRAFT_07 = "http://json-schema.org/draft-07/schema#"
OLD = {
    "$schema": DRAFT_07,
    "type": "object",
    "properties": {
        "a": {"type": "array", "prefixItems": [{"type": "string"}]},
        "b": {"type": "string"},
        "c": {"$ref": "#/definitions/short", "maxLength": 2},
        "d": {"type": "object", "dependentSchemas": {"x": {"required": ["y"]}}},
        "e": {"type": "object", "properties": {"f": {"type": "integer"}}, "unevaluatedProperties": False},
    },
    "dependentRequired": {"a": ["b"]},
    "definitions": {"short": {"type": "string"}},
}
# Accepted by the document as draft-07 reads it (the later keywords, and `maxLength` beside `$ref`,
# are ignored there); a provider that read the sent form's keywords as 2020-12 would reject each.
ACCEPTED = [{"a": [1]}, {"a": ["x"]}, {"c": "longer"}, {"d": {"x": 1}}, {"e": {"g": 1}}]
def _reads_2020(target, api):
    from toolcast.compile import resolve_target

    return resolve_target(target, api, None)[2].policy.get("sent_metaschema") == "2020-12"


def _schema_of(tool, target):
    """The schema in a sent tool (each target's envelope): the object that declares `$schema`."""
    stack = [tool]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if "$schema" in v:
                return v
            stack.extend(v.values())
    raise AssertionError(f"no schema declaring a dialect in {tool}")


def test_old_dialect_later_keywords_are_not_applied_by_a_2020_12_reader():
    for value in ACCEPTED:
        assert Draft7Validator(OLD).is_valid(value)
    checked = 0
    for target, api in TARGETS:
        if api == "parameters" or not _reads_2020(target, api):
            continue
        for mode in ("auto", False):
            res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": OLD},
                                        target=target, api=api, strict=mode)
            if res.status != "non-strict":
                continue
            sent = _schema_of(res.tool, target)
            assert sent["$schema"] == "https://json-schema.org/draft/2020-12/schema", label(target, api, mode)
            reader = Draft202012Validator(sent)
            for value in ACCEPTED:
                assert reader.is_valid(value), (label(target, api, mode), value, sent)
            assert sent_violations(res.tool, target, api, res.status, res.rules) == []
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize("declared", ["http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-06/schema#",
                                      "http://json-schema.org/draft-04/schema#", "https://json-schema.org/draft/2019-09/schema"])
def test_each_older_dialect_keyword_it_does_not_define_is_dropped_exactly(declared):
    later = {"prefixItems": [{"type": "string"}]} if "2019" in declared else {"dependentRequired": {"a": ["b"]}}
    schema = {"$schema": declared, "type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
              **later}
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target="anthropic",
                                strict=False)
    sent = res.tool["input_schema"]
    assert not set(later) & set(sent), sent
    dropped = [t for t in res.transformations if t.code == "converted-dialect-keyword" and t.path.endswith(next(iter(later)))]
    assert dropped and not any(t.lossy for t in dropped)


def test_a_declaring_provider_keeps_the_document_as_declared():
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": OLD}, target="mcp", strict=False)
    assert res.tool["inputSchema"]["$schema"] == DRAFT_07
    assert "dependentRequired" in res.tool["inputSchema"]


# ---------------------------------------------------------------------------------------------
# Mistral: check_schema asserts `format: regex`
# ---------------------------------------------------------------------------------------------

NOT_PYTHON_RE = ["(?<year>[0-9]{4})", "\\p{Lu}+", "\\cJ", "[\\d-z]", "\\k<q>", "(", "a{2,1}"]


@pytest.mark.parametrize("pattern", NOT_PYTHON_RE)
@pytest.mark.parametrize("where", ["pattern", "patternProperties", "nested"])
def test_mistral_refuses_a_pattern_pythons_re_cannot_compile(pattern, where):
    if where == "pattern":
        schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": pattern}}}
    elif where == "patternProperties":
        schema = {"type": "object", "patternProperties": {pattern: {"type": "string"}}}
    else:
        schema = {"type": "object", "properties": {"a": {"type": "array", "items": {"anyOf": [
            {"type": "string", "pattern": pattern}, {"type": "integer"}]}}}}
    tool = {"name": "t", "description": "d", "inputSchema": schema}
    with pytest.raises(SchemaError):  # what Mistral's own validator says of it ("... is not a 'regex'")
        Draft7Validator.check_schema(schema)
    for mode in MODES:
        res = toolcast.compile_tool(tool, target="mistral", strict=mode)
        assert res.status == "refused", (mode, res.status)
        assert res.tool is None
    if where != "patternProperties":  # (another provider's check is not Python's: sent there)
        assert toolcast.compile_tool(tool, target="mcp", strict=False).status == "non-strict"


def test_mistral_sends_a_pattern_python_compiles():
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z]+\\d{2,3}$"}},
              "patternProperties": {"^x-": {"type": "string"}}}
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target="mistral")
    assert res.status == "non-strict"
    assert sent_violations(res.tool, "mistral", None, res.status, res.rules) == []


def test_the_mistral_oracle_asserts_the_regex_format():
    tool = {"type": "function", "function": {"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"a": {"type": "string", "pattern": "(?<n>a)"}}}}}
    assert ("not-draft-07", "#/properties/a/pattern") in sent_violations(tool, "mistral", None, "non-strict")
