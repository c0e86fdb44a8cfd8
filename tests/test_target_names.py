"""ToolSet names follow the tool-name rule of the target the tools are compiled for (its rules'
`name.pattern` and `name.max_length`), not one provider's rule for every target (issue 40)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from spec_folder import loaded_spec_folder

import toolcast
from toolcast import tool_input
from toolcast.providers import EMITTERS
from toolcast.toolset import NameRule, ToolSet

AWKWARD = ["read.file", "x" * 100, "9lives", "with space", "ünïcode", "a-b_c"]
ACME_NAMES = """\
provider: acme
version: "2026-12-01"
reviewed: "2026-12-01"
extends: openai@2026-10-17
default: true
summary: A made-up host whose tool names are lower case, at most 20 characters.
terms: {provider_name: Acme, docs: "https://acme.invalid/docs/tools"}
catalogue_cite: [ACME-TOOLS]
sources:
  ACME-TOOLS: {title: "Acme, tools (made up)", url: "https://acme.invalid/docs/tools", date: "2026-12", evidence: D}
name: {pattern: "^[a-z0-9_]{1,20}$", max_length: 20, cite: [ACME-TOOLS]}
"""


def _tool(name: str) -> dict:
    return {"name": name, "description": "d", "inputSchema": {"type": "object", "properties": {}}}


def _rules_of(target: str):
    return tool_input.resolve_target(target, None, None)[2]


@pytest.mark.parametrize("target", list(EMITTERS))
def test_every_exposed_name_fits_the_targets_own_rule_and_compiles_there(target):
    r = _rules_of(target)
    toolset, _ = ToolSet.build({"srv.1": [_tool(n) for n in AWKWARD], "": [_tool("9.top")]}, target=target)
    assert len(toolset) == len(AWKWARD) + 1
    assert toolset.name_rule == NameRule(r.name_pattern, r.name_max_length)
    for name in toolset:
        assert re.fullmatch(r.name_pattern, name) and len(name) <= r.name_max_length, (target, name)
        res = toolcast.compile_tool(toolset[name].to_tool(), target=target)
        assert not any(d.code.endswith(("tool-name-invalid", "tool-name-too-long")) for d in res.diagnostics)


def test_a_target_that_allows_dots_and_128_characters_keeps_them():
    long = "t" * 100
    mcp, report = ToolSet.build({"srv": [_tool("read.file"), _tool(long)]}, target="mcp")
    assert mcp.names == ("srv__read.file", f"srv__{long}") and not report
    bedrock, report = ToolSet.build({"srv": [_tool("read.file"), _tool(long)]}, target="bedrock")
    assert bedrock.names[0] == "srv__read_file" and len(bedrock.names[1]) == 64
    assert [r.reasons for r in report.renames] == [("sanitized",), ("truncated",)]


def test_a_rule_whose_first_character_differs_is_kept_at_the_start_only():
    # Vertex's rule: a letter or '_' first, then letters, digits, '_', '.', '-'.
    toolset, report = ToolSet.build([_tool("9lives"), _tool("a9.b")], target="vertex")
    assert toolset.names == ("_lives", "a9.b")
    assert [r.exposed for r in report.renames] == ["_lives"]
    prefixed, _ = ToolSet.build({"srv": [_tool("9lives")]}, target="vertex")
    assert prefixed.names == ("srv__9lives",)  # not the start of the name: kept


def test_the_default_is_the_default_targets_rule_as_compile_tool_s():
    toolset, _ = ToolSet.build({"srv": [_tool("a.b")]})
    r = _rules_of("openai")
    assert toolset.name_rule == NameRule(r.name_pattern, r.name_max_length)
    assert toolset.names == ("srv__a_b",)


def test_a_toolset_refuses_a_name_its_rule_does_not_allow():
    built, _ = ToolSet.build({"srv": [_tool("a.b")]}, target="mcp")
    (tool,) = built.tools
    assert ToolSet([tool], name_rule=built.name_rule).names == ("srv__a.b",)
    with pytest.raises(ValueError, match="invalid exposed name"):
        ToolSet([tool], name_rule=NameRule(r"^[A-Za-z0-9_-]{1,64}$", 64))


@pytest.fixture
def acme(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    yield from loaded_spec_folder(tmp_path, monkeypatch, {"acme/2026-12-01.yaml": ACME_NAMES})


def test_a_provider_from_a_spec_folder_names_tools_by_its_own_rule(acme):
    toolset, report = ToolSet.build({"Srv": [_tool("Get.Weather"), _tool("a_rather_long_tool_name")]}, target="acme")
    short, long = toolset.names
    assert short == "_rv___et__eather"  # upper case and dots are outside [a-z0-9_]
    assert len(long) == 20 and re.fullmatch(r"[a-z0-9_]{1,20}", long)
    for name in toolset:
        assert toolcast.compile_tool(toolset[name].to_tool(), target="acme").status == "strict"
    assert [r.reasons for r in report.renames] == [("sanitized",), ("sanitized", "truncated")]
