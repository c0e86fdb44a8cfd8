"""policy sent_enum_values `typed` (Gemini's and Vertex's parametersJsonSchema: `enum` is "supported for strings and
numbers", provider-facts §3.3, and the declaration is read in every mode): the form sent without strict holds no enum
value of another type. Null, and true with false, are written as the `type` they fill (exact); a lone boolean, an
object or an array is widened to its type (lossy, reported). Judged by values (jsonschema, 2020-12) and by the
independent oracle (tests/oracles/sent.py, rule enum-type)."""

from __future__ import annotations

import jsonschema
import pytest
from oracles.sent import sent_violations

import toolcast
from toolcast.providers import EMITTERS

_V = jsonschema.Draft202012Validator
VALUES = [True, False, None, "a", "b", 1, 2, 1.5, {}, {"k": 1}, [], [1]]
JSON_SCHEMA = [("gemini", "json-schema"), ("vertex", "json-schema")]

# (the property's schema, whether its rewrite is exact)
CASES = [
    pytest.param({"type": "boolean", "enum": [True, False]}, True, id="both-booleans"),
    pytest.param({"enum": [True, False]}, True, id="both-booleans-untyped"),
    pytest.param({"type": ["string", "null"], "enum": ["a", None]}, True, id="string-or-null"),
    pytest.param({"enum": ["a", 1, True, False, None]}, True, id="mixed-whole"),
    pytest.param({"type": "boolean", "enum": [True]}, False, id="lone-true"),
    pytest.param({"enum": ["a", False]}, False, id="string-or-false"),
    pytest.param({"enum": ["a", {"k": 1}]}, False, id="object-value"),
    pytest.param({"enum": ["a", True], "anyOf": [{"type": "string"}, {"type": "boolean"}]}, False, id="beside-any-of"),
]


def _compiled(prop: dict, target: str, api: str, strict: object):
    schema = {"type": "object", "properties": {"x": prop}, "required": ["x"], "additionalProperties": False}
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, api=api,
                                strict=strict)
    return schema, res


@pytest.mark.parametrize(("target", "api"), JSON_SCHEMA)
@pytest.mark.parametrize(("prop", "exact"), CASES)
@pytest.mark.parametrize("strict", ["auto", False])
def test_an_enum_sent_holds_strings_and_numbers_only(target, api, prop, exact, strict):
    schema, res = _compiled(prop, target, api, strict)
    assert res.status == "non-strict", [d.code for d in res.diagnostics]
    assert sent_violations(res.tool, target, api, res.status, res.rules) == []
    sent = EMITTERS[target].schema_of(res.tool)
    args = [{"x": v} for v in VALUES]
    widened = [a for a in args if _V(sent).is_valid(a) and not _V(schema).is_valid(a)]
    assert [a for a in args if _V(schema).is_valid(a) and not _V(sent).is_valid(a)] == []  # nothing narrowed
    codes = {t.code: t.lossy for t in res.transformations if t.code.endswith("-enum-values-to-types")
             or t.code.startswith("wrote-enum-values")}
    if exact:
        assert widened == [] and codes == {"wrote-enum-values-as-types": False}
    else:
        assert widened and codes == {"widened-enum-values-to-types": True}


@pytest.mark.parametrize(("target", "api"), [("openai", "responses"), ("anthropic", None), ("mcp", None)])
def test_a_provider_that_takes_any_enum_value_gets_it_as_written(target, api):
    prop = {"type": "boolean", "enum": [True]}
    _, res = _compiled({**prop, "description": "d"}, target, api, False)
    assert EMITTERS[target].schema_of(res.tool)["properties"]["x"]["enum"] == [True]
    assert not [t for t in res.transformations if "enum-values" in t.code]
