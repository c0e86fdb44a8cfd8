"""Real corpora: every tool in tests/corpus compiles under every rule version without a crash,
every strict output passes the independent oracle, and docs/corpus-report.md is up to date."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from corpus_paths import CORPUS
from oracles.openai_strict import tool_violations

import toolcast

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("corpus_report", ROOT / "tools" / "corpus_report.py")
corpus_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus_report)


@pytest.fixture(scope="module")
def stats():
    return corpus_report.collect(CORPUS)


def test_every_corpus_and_rule_version_is_covered(stats):
    names = {name for name, _ in stats}
    assert {"bfcl.jsonl", "mcp.jsonl", "agent_tools.jsonl", "large/"} <= names
    assert {rules for _, rules in stats} == set(corpus_report.RULES)
    assert sum(s["n"] for (n, r), s in stats.items() if r == corpus_report.RULES[0]) >= 3990


def test_no_crashes(stats):
    crashes = {k: s["crashes"] for k, s in stats.items() if s["crashes"]}
    assert crashes == {}


def test_every_strict_output_passes_the_oracle(stats):
    rejected = {k: s["rejected"] for k, s in stats.items() if s["rejected"]}
    assert rejected == {}


def test_strict_outputs_are_never_lossy(stats):
    assert {k: s["lossy_strict"] for k, s in stats.items() if s["lossy_strict"]} == {}


def test_most_corpus_tools_go_strict(stats):
    """A floor, so a regression that sends everything non-strict does not pass silently."""
    for (name, rules), s in stats.items():
        if name in ("mcp.jsonl", "agent_tools.jsonl"):
            assert s["outcomes"]["strict"] >= (0.85 if rules == corpus_report.RULES[0] else 0.6) * s["n"], (name, rules, s["outcomes"])
        if name == "bfcl.jsonl":
            # 1,302 BFCL names have dots etc. and are refused in every mode (SOURCES.md).
            assert s["outcomes"]["refused"] >= 1302
            assert s["outcomes"]["strict"] >= 0.95 * (s["n"] - 1302), s["outcomes"]


@pytest.mark.parametrize("rules", corpus_report.RULES)
def test_chat_api_outputs_pass_the_oracle_too(rules):
    bad = []
    for f in sorted(CORPUS.glob("*.jsonl")):
        for tool in corpus_report.load_jsonl(f):
            res = toolcast.compile_tool(tool, rules=rules, api="chat")
            if res.status == "strict":
                v = tool_violations(res.tool, "chat", profile=corpus_report.PROFILE[rules])
                if v:
                    bad.append((f.name, tool["name"], sorted({x.rule for x in v})))
            elif res.status == "non-strict":
                assert res.tool["function"]["strict"] is False
    assert bad == []


def test_compile_is_deterministic_on_the_corpus():
    tools = corpus_report.load_jsonl(CORPUS / "mcp.jsonl")
    a = [json.dumps(toolcast.compile_tool(t).to_dict()) for t in tools]
    b = [json.dumps(toolcast.compile_tool(t).to_dict()) for t in tools]
    assert a == b


def test_committed_report_is_current(stats):
    committed = (ROOT / "docs" / "corpus-report.md").read_text(encoding="utf-8")
    fresh = corpus_report.render(CORPUS, stats)
    assert committed == fresh, "docs/corpus-report.md is stale: run python tools/corpus_report.py"
