"""Keywords a declared dialect does not define are ignored by it, and so by the compile.

Found by attacking the "strict and not lossy" promise: draft-04 has no `const` (draft-06 added
it), so in a draft-04 schema `{"oneOf": [{"const": 1}, {"const": 2}]}` is a oneOf of two schemas
that accept everything, and `{"type": "integer", "const": 1}` accepts 2. The walk read `const` as
2020-12 does: it proved that oneOf exclusive (a compiled schema wider than the original) and
narrowed the integer, with no finding either time. Each value check below is jsonschema's
validator for the declared dialect against the compiled schema.
"""

from __future__ import annotations

import jsonschema
import pytest

from toolcast import compile_tool

D4 = "http://json-schema.org/draft-04/schema#"
D6 = "http://json-schema.org/draft-06/schema#"
D7 = "http://json-schema.org/draft-07/schema#"
TARGETS = ("openai", "anthropic", "gemini", "vertex")


def _tool(x: dict, dialect: str | None) -> dict:
    schema = {"type": "object", "properties": {"x": x}, "required": ["x"], "additionalProperties": False}
    if dialect:
        schema["$schema"] = dialect
    return {"name": "t", "description": "d", "inputSchema": schema}


def _params(res) -> dict:
    out = res.tool
    for key in ("function",):
        if key in out:
            out = out[key]
    for key in ("parameters", "input_schema", "parametersJsonSchema", "parameters_json_schema"):
        if key in out:
            return out[key]
    raise AssertionError(f"no schema in {res.tool!r}")


def _codes(res) -> list[str]:
    return [d.code.split("/", 1)[1] for d in res.diagnostics]


@pytest.mark.parametrize("target", TARGETS)
def test_draft04_const_is_ignored_as_draft04_ignores_it(target):
    res = compile_tool(_tool({"type": "integer", "const": 1}, D4), target=target)
    assert res.status == "strict" or target in ("gemini", "vertex")  # (they cannot close an object)
    found = [d for d in res.diagnostics if d.code == f"{target.split('-')[0]}/keyword-not-in-dialect"]
    assert len(found) == 1 and found[0].path == "#/properties/x/const"
    assert "draft-04" in found[0].message
    assert any(t.code == "dropped-keyword-not-in-dialect" for t in res.transformations)
    assert "const" not in _params(res)["properties"]["x"]
    if target in ("openai", "anthropic"):  # (Gemini's default form is its OpenAPI subset)
        original = jsonschema.Draft4Validator(_tool({"type": "integer", "const": 1}, D4)["inputSchema"])
        compiled = jsonschema.Draft202012Validator(_params(res))
        for value in ({"x": 1}, {"x": 2}, {"x": -7}):
            assert original.is_valid(value) and compiled.is_valid(value), value


def test_draft04_oneof_of_consts_is_not_proved_exclusive():
    x = {"oneOf": [{"const": 1}, {"const": 2}]}
    res = compile_tool(_tool(x, D4))
    # In draft-04 both branches accept everything: the oneOf accepts nothing, and no anyOf is exact.
    assert "one-of-exclusive-converted" not in _codes(res)
    assert "one-of-converted-to-any-of" in _codes(res)
    assert res.status != "strict"
    assert not jsonschema.Draft4Validator(_tool(x, D4)["inputSchema"]).is_valid({"x": 1})


def test_const_keeps_its_meaning_where_the_dialect_defines_it():
    for dialect in (None, D6, D7):
        res = compile_tool(_tool({"type": "integer", "const": 1}, dialect))
        assert res.status == "strict"
        assert "keyword-not-in-dialect" not in _codes(res)
        compiled = jsonschema.Draft202012Validator(_params(res))
        assert compiled.is_valid({"x": 1}) and not compiled.is_valid({"x": 2}), dialect
    res = compile_tool(_tool({"oneOf": [{"type": "integer", "const": 1}, {"type": "integer", "const": 2}]}, D7))
    assert "one-of-exclusive-converted" in _codes(res)


def test_if_then_else_are_ignored_in_draft06_and_read_in_draft07():
    x = {"type": "string", "if": {"minLength": 2}, "then": {"maxLength": 3}}
    d6 = compile_tool(_tool(x, D6))
    assert _codes(d6).count("keyword-not-in-dialect") == 2  # `if` and `then`
    assert d6.status == "strict"
    assert jsonschema.Draft6Validator(_tool(x, D6)["inputSchema"]).is_valid({"x": "abcdef"})
    assert jsonschema.Draft202012Validator(_params(d6)).is_valid({"x": "abcdef"})
    d7 = compile_tool(_tool(x, D7))
    assert "keyword-not-in-dialect" not in _codes(d7)
    assert d7.status == "non-strict"  # draft-07 applies `if`: dropping it would be lossy


def test_a_2019_09_keyword_is_ignored_in_draft07_and_read_without_a_dialect():
    x = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False,
         "dependentRequired": {"a": ["b"]}}
    d7 = compile_tool(_tool(x, D7))
    assert [d.path for d in d7.diagnostics if d.code.endswith("/keyword-not-in-dialect")] == [
        "#/properties/x/dependentRequired"]
    assert d7.status == "strict"
    plain = compile_tool(_tool(x, None))
    assert "keyword-not-in-dialect" not in _codes(plain)
    assert plain.status == "non-strict"


def test_a_later_keyword_in_a_nested_schema_of_a_draft07_document_is_found():
    # No `$ref` and no `$id` anywhere: only the keyword itself tells the scan that a rewrite is due.
    x = {"type": "array", "items": {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "string"}}}
    res = compile_tool(_tool(x, D7))
    assert [d.path for d in res.diagnostics if d.code.endswith("/keyword-not-in-dialect")] == [
        "#/properties/x/items/prefixItems"]


def test_draft04_numeric_exclusive_bound_is_an_invalid_value():
    # Draft-04's exclusiveMinimum is a boolean that modifies `minimum`; a number there is no
    # draft-04 keyword value (as a boolean is none of draft-07's), not 2020-12's numeric bound.
    res = compile_tool(_tool({"type": "number", "minimum": 5, "exclusiveMinimum": 3}, D4))
    bad = [d for d in res.diagnostics if d.code == "openai/invalid-keyword-value"]
    assert [d.path for d in bad] == ["#/properties/x/exclusiveMinimum"]
    assert res.status != "strict"
    mirror = compile_tool(_tool({"type": "number", "minimum": 5, "exclusiveMinimum": True}, D7))
    assert [d.path for d in mirror.diagnostics if d.code == "openai/invalid-keyword-value"] == [
        "#/properties/x/exclusiveMinimum"]
    ok = compile_tool(_tool({"type": "number", "minimum": 5, "exclusiveMinimum": True}, D4))
    assert ok.status == "strict"
    assert _params(ok)["properties"]["x"]["exclusiveMinimum"] == 5


def test_an_inferred_root_type_is_reported_where_a_ref_reads_the_root():
    schema = {"properties": {"c": {"type": "array", "items": {"$ref": "#"}}}, "required": ["c"],
              "additionalProperties": False}
    res = compile_tool({"name": "t", "description": "d", "inputSchema": schema})
    inferred = [d for d in res.diagnostics if d.code == "openai/type-inferred"]
    assert [d.path for d in inferred] == ["#"]
    # What that finding is about: `[5]` was valid at `c` and no longer is.
    assert jsonschema.Draft202012Validator(schema).is_valid({"c": [5]})
    assert not jsonschema.Draft202012Validator(_params(res)).is_valid({"c": [5]})
    # Without a `$ref` to the root, the inferred root type narrows nothing (arguments are objects).
    alone = compile_tool({"name": "t", "description": "d", "inputSchema": {"properties": {"c": {"type": "string"}}}})
    assert "type-inferred" not in _codes(alone)
    typed = compile_tool({"name": "t", "description": "d", "inputSchema": {**schema, "type": "object"}})
    assert "type-inferred" not in _codes(typed)


# Identifiers are dialect keywords too: draft-04 names a resource with `id` (`$id` means nothing
# there), and before 2019-09 only a fragment-only `$id` (draft-04 `id`) names a location; a
# reference must resolve as the declared dialect resolves it. And `prefixItems` (2020-12) means
# nothing to 2019-09, whose schema-form `items` covers every element. Each pair of witnesses is
# accepted by one of the original and the compiled schema only, on the code before the fix.
_D2019 = "https://json-schema.org/draft/2019-09/schema"
_IDENTIFIER_CASES = {
    "draft-07 $anchor is not an anchor": (
        {"$schema": D7, "type": "object", "properties": {"p": {"$ref": "#foo"}}, "required": ["p"],
         "additionalProperties": False,
         "definitions": {"a": {"$anchor": "foo", "type": "integer"}, "b": {"$id": "#foo", "type": "string"}}},
        jsonschema.Draft7Validator, [{"p": "x"}, {"p": 1}]),
    "draft-04 $id is not a base URI": (
        {"$schema": D4, "type": "object", "properties": {"p": {"$ref": "#/definitions/s"}}, "required": ["p"],
         "additionalProperties": False,
         "definitions": {"w": {"type": "string"},
                         "s": {"$id": "http://e.example/s", "definitions": {"w": {"type": "integer"}},
                               "type": "object", "properties": {"a": {"$ref": "#/definitions/w"}},
                               "required": ["a"], "additionalProperties": False}}},
        jsonschema.Draft4Validator, [{"p": {"a": "x"}}, {"p": {"a": 1}}]),
    "draft-04 fragment $id is not an anchor, fragment id is": (
        {"$schema": D4, "type": "object", "properties": {"p": {"$ref": "#foo"}}, "required": ["p"],
         "additionalProperties": False,
         "definitions": {"a": {"$id": "#foo", "type": "integer"}, "b": {"id": "#foo", "type": "string"}}},
        jsonschema.Draft4Validator, [{"p": "x"}, {"p": 1}]),
    "2019-09 prefixItems is not a keyword": (
        {"$schema": _D2019, "type": "object", "required": ["p"], "additionalProperties": False,
         "properties": {"p": {"type": "array", "items": {"type": "integer"}, "prefixItems": [{"type": "string"}]}}},
        jsonschema.Draft201909Validator, [{"p": [1]}, {"p": ["a"]}, {"p": [1, "a"]}]),
}


@pytest.mark.parametrize("target", ["openai", "anthropic", "gemini-json", "vertex-json"])
@pytest.mark.parametrize("case", sorted(_IDENTIFIER_CASES))
def test_identifiers_and_later_keywords_resolve_as_the_declared_dialect(case, target):
    schema, validator, witnesses = _IDENTIFIER_CASES[case]
    provider, _, json_api = target.partition("-")
    res = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=provider,
                       api="json-schema" if json_api else None)
    assert res.status == "strict", [d.code for d in res.diagnostics]
    assert "keyword-not-in-dialect" in _codes(res)
    original, compiled = validator(schema), jsonschema.Draft202012Validator(_params(res))
    for value in witnesses:
        assert original.is_valid(value) == compiled.is_valid(value), value


def test_a_draft07_anchor_only_reference_does_not_resolve():
    schema = {"$schema": D7, "type": "object", "properties": {"p": {"$ref": "#foo"}}, "required": ["p"],
              "additionalProperties": False, "definitions": {"a": {"$anchor": "foo", "type": "integer"}}}
    res = compile_tool({"name": "t", "description": "d", "inputSchema": schema})
    # (refused in every mode, as every reference that does not resolve is: the form sent without
    # strict used to be the original with `#foo` written `#/$defs/a`, the 2020-12 reading of an
    # anchor draft-07 does not have; a 2020-12 reader now gets the document in 2020-12 terms, where
    # the draft-07 `$anchor` is dropped and `#foo` resolves to nothing)
    assert res.status == "refused" and res.tool is None and "unresolvable-ref" in _codes(res)


@pytest.mark.parametrize("slot", ["$defs", "definitions"])
def test_a_definition_named_by_the_empty_string_is_not_the_root(slot):
    # `#/$defs/` is the definition named "", not the root `#`: it was compiled to `{"$ref": "#"}`
    # and sent strict ({"p": [1]} accepted by the original, rejected by what was sent).
    schema = {"type": "object", "properties": {"p": {"type": "array", "items": {"$ref": f"#/{slot}/"}}},
              "required": ["p"], "additionalProperties": False, slot: {"": {"type": "integer"}}}
    res = compile_tool({"name": "t", "description": "d", "inputSchema": schema})
    # (refused in every mode: a keyword value the rules cannot read is never sent, issue 37)
    assert res.status == "refused" and res.tool is None
    bad = [d for d in res.diagnostics if d.code == "openai/invalid-keyword-value"]
    assert len(bad) == 1 and bad[0].path == f"#/{slot}/" and "empty definition name" in bad[0].message
