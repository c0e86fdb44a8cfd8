"""The matrix column of a target that sends no tool strict (a strict-tools budget of 0: Mistral,
Bedrock) describes what it sends, the form without strict, never the strict form it never sends."""

from __future__ import annotations

import pytest

import toolcast
from toolcast import matrix
from toolcast.rules import PROVIDERS, available, get_rules

# A keyword and a value to try it with, on a string property.
PROBES = {"minLength": 2, "pattern": "^a", "format": "email", "title": "T", "default": "x", "$comment": "c",
          "maxContains": 2, "contentEncoding": "base64", "x-vendor": 1}


def _never_strict_versions() -> list[str]:
    return [f"{p}@{v}" for p in PROVIDERS for v in available(p) if matrix.never_strict(get_rules(f"{p}@{v}"))]


def test_the_never_strict_targets_are_found_from_their_budgets():
    found = {v.split("@")[0] for v in _never_strict_versions()}
    assert {"mistral", "bedrock"} <= found
    assert not {"openai", "anthropic", "xai", "mcp"} & found


@pytest.mark.parametrize("version", _never_strict_versions())
def test_a_never_strict_column_says_kept_for_nothing_and_matches_what_is_sent(version):
    m = matrix.of_all()
    cells = {k: row[version] for k, row in m["keywords"].items()}
    assert not [k for k, c in cells.items() if c["state"] == "kept"]  # nothing is enforced
    provider = version.split("@")[0]
    for keyword, value in PROBES.items():
        tool = {"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {
            "a": {"type": "string", keyword: value}}}}
        res = toolcast.compile_tool(tool, target=provider, rules=version)
        assert res.status == "non-strict"
        sent = toolcast.providers.EMITTERS[provider].schema_of(res.tool)["properties"]["a"]
        state = cells.get(keyword, cells["(unknown keyword)"])["state"]
        assert (keyword in sent) == (state == "kept-not-enforced"), (keyword, state, sent)


def test_a_keyword_the_sent_form_drops_shows_as_lost_there():
    r = get_rules("xai")  # (sends strict, but states keywords its sent form drops)
    assert "maxContains" in r.sent_drop
    assert matrix.sent_cell(r, "maxContains", {"state": "kept", "detail": ""})["state"] == "dropped-with-loss"
    assert matrix.sent_cell(r, "definitions", {"state": "converted", "detail": ""})["state"] == "converted"
    assert matrix.sent_cell(r, "minLength", {"state": "kept", "detail": ""})["state"] == "kept-not-enforced"
