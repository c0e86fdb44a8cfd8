"""xAI's documented constraint figures (structured outputs, "Constraint limits": guaranteed up to 2,048
for minLength/maxLength, 256 for minItems/maxItems, 64 for minProperties/maxProperties; beyond, "still
accepted, but conformance relies on model behavior") are checked as data: spec/xai's keywords carry
`handler: at-most` with the figure, and a larger value is not called strict (issue 40)."""

from __future__ import annotations

import pytest

import toolcast
from toolcast.rules import get_rules

FIGURES = {"minLength": 2048, "maxLength": 2048, "minItems": 256, "maxItems": 256,
           "minProperties": 64, "maxProperties": 64}
TYPE_OF = {"Length": "string", "Items": "array", "Properties": "object"}


def _tool(keyword: str, value: int) -> dict:
    kind = next(t for suffix, t in TYPE_OF.items() if keyword.endswith(suffix))
    inner = {"array": {"items": {"type": "string"}}, "object": {"properties": {"a": {"type": "string"}}, "required": ["a"],
                                                                 "additionalProperties": False}}.get(kind, {})
    return {"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {
        "p": {"type": kind, **inner, keyword: value}}, "required": ["p"], "additionalProperties": False}}


def test_the_figures_are_the_spec_s_data():
    r = get_rules(None, "xai")
    assert {k: (r.keywords[k].handler, r.keywords[k].most) for k in FIGURES} == {
        k: ("at-most", v) for k, v in FIGURES.items()}
    assert all("X-SO" in r.keywords[k].cite for k in FIGURES)


@pytest.mark.parametrize("keyword", sorted(FIGURES))
def test_a_value_up_to_the_figure_is_strict_and_one_past_it_is_not_guaranteed(keyword):
    figure = FIGURES[keyword]
    at = toolcast.compile_tool(_tool(keyword, figure), target="xai")
    assert at.status == "strict" and at.tool["function"]["parameters"]["properties"]["p"][keyword] == figure
    past = toolcast.compile_tool(_tool(keyword, figure + 1), target="xai")
    assert past.status == "non-strict"
    found = [d for d in past.diagnostics if d.code == "xai/unsupported-keyword"]
    assert [d.outcome for d in found] == ["lossy"] and f"{keyword}: {figure + 1}" in found[0].message
    assert past.tool["function"]["parameters"]["properties"]["p"][keyword] == figure + 1  # sent as written
    lossy = toolcast.compile_tool(_tool(keyword, figure + 1), target="xai", allow_lossy=True)
    assert lossy.status == "strict" and keyword not in lossy.tool["function"]["parameters"]["properties"]["p"]
    assert any(f"only values up to {figure} are guaranteed" in t.detail for t in lossy.transformations)


def test_other_providers_keep_their_own_rules_for_these_keywords():
    # OpenAI's maxLength has no figure; Anthropic's minItems stays 0 or 1 (handler at-most-one).
    assert toolcast.compile_tool(_tool("maxLength", 100_000), target="openai").status == "strict"
    r = get_rules(None, "anthropic")
    assert r.keywords["minItems"].handler == "at-most-one" and r.keywords["minItems"].most is None
    res = toolcast.compile_tool(_tool("minItems", 2), target="anthropic", allow_lossy=True)
    assert any("only 0 or 1 are supported" in t.detail for t in res.transformations)
