"""The independent oracles read ONE mapping from rule version to documented facts (tests/oracles/facts.py),
for every provider family, at the version a tool was compiled under (spec/README.md, the maintainer
workflow, step 6): a reading inherits the one before it unless it restates a fact, every rule version in
spec/ has a reading on or before it, each oracle's verdict follows the reading of the version it is given,
and no oracle reads toolcast's code or its spec."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from oracles import anthropic, bedrock, deepseek, facts, gemini, mistral, more, sent, xai
from spec_versions import SPEC, versions

import toolcast
from toolcast.rules import target_of

ORACLES = Path(__file__).resolve().parent / "oracles"
FAR = "2999-01-01"  # a synthetic reading, dated after any version a maintainer can add


def _families() -> list[str]:
    return sorted(p.name for p in SPEC.iterdir() if p.is_dir() and list(p.glob("*.yaml")))


@pytest.mark.parametrize("family", _families())
def test_every_rule_version_in_spec_has_documented_facts(family: str) -> None:
    """A new family (or a version older than a family's first reading) needs its facts written here."""
    assert family in facts.FAMILY_CHANGES, f"spec/{family}/ has no readings in tests/oracles/facts.py"
    for version in versions(family):
        got = facts.reading(family, f"{family}@{version}")
        assert got.family == family and got.date <= version


def test_a_reading_inherits_what_it_does_not_restate() -> None:
    changes = {"2020-01-01": {"formats": frozenset({"a", "b"}), "limits": {"x": 1, "y": 2}, "name": "n"},
               "2021-01-01": {"formats+": frozenset({"c"}), "limits": {"y": 3}},
               "2022-01-01": {"formats-": frozenset({"a"}), "name": "m"}}
    facts.FAMILY_CHANGES["test-family"] = changes
    try:
        r = facts.readings("test-family")
        assert r["2021-01-01"].formats == {"a", "b", "c"} and r["2021-01-01"].limits == {"x": 1, "y": 3}
        assert r["2021-01-01"].name == "n"
        assert r["2022-01-01"].formats == {"b", "c"} and r["2022-01-01"].name == "m"
        assert r["2022-01-01"].limits == {"x": 1, "y": 3}
        # a version between readings takes the one before it; None takes the newest
        assert facts.reading("test-family", "2021-06-30").date == "2021-01-01"
        assert facts.reading("test-family").date == "2022-01-01"
        with pytest.raises(ValueError, match="on or before"):
            facts.reading("test-family", "2019-12-31")
        with pytest.raises(ValueError, match="not of family"):
            facts.reading("test-family", "other@2021-06-30")
        with pytest.raises(AttributeError, match="states no fact"):
            _ = r["2020-01-01"].budgets
    finally:
        del facts.FAMILY_CHANGES["test-family"]
    # OpenAI's readings are the same mapping, read either way
    for date, reading in facts.OPENAI.items():
        generic = facts.reading("openai", date)
        assert (generic.allowlist, generic.formats, generic.limits) == (reading.allowlist, reading.formats,
                                                                         reading.limits)


def _strict_anthropic(prop: dict) -> dict:
    return {"name": "t", "strict": True, "input_schema": {"type": "object", "properties": {"p": prop},
                                                          "required": ["p"], "additionalProperties": False}}


def _chat(prop: dict, strict: bool = True) -> dict:
    return {"type": "function", "function": {"name": "t", "strict": strict, "parameters": {
        "type": "object", "properties": {"p": prop}, "required": ["p"], "additionalProperties": False}}}


def _newest(family: str) -> str:
    return max(facts.readings(family))


def _toggle(fact: str, item: object):
    """The change that flips whether `item` is in the set `fact`, whatever the current reading says (so
    the test holds after any real docs change)."""
    return lambda f: {f"{fact}{'-' if item in getattr(f, fact) else '+'}": frozenset({item})}


# (family, the change a synthetic later reading makes, given the newest reading; a check of one tool at a
# version: True == accepted). Every change flips the check's verdict.
CASES = [
    ("anthropic", _toggle("formats", "uri"),
     lambda v: anthropic.tool_violations(_strict_anthropic({"type": "string", "format": "uri"}), v) == []),
    ("anthropic", lambda f: {"budgets": {"strict-tools": 1 if f.budgets["strict-tools"] >= 2 else 2}},
     lambda v: anthropic.request_violations([_strict_anthropic({"type": "string"})] * 2, v) == []),
    ("anthropic", _toggle("allowed", "maxItems"),
     lambda v: sent.sent_violations(_strict_anthropic({"type": "array", "items": {"type": "string"}, "maxItems": 2}),
                                    "anthropic", None, "strict", f"anthropic@{v}") == []),
    ("gemini", _toggle("formats", "email"),
     lambda v: gemini.violations({"type": "object", "properties": {"p": {"type": "string", "format": "email"}}},
                                 "gemini", v) == []),
    ("gemini-parameters", _toggle("schema_formats", "date-time"),
     lambda v: gemini.declaration_violations({"name": "t", "description": "d", "parameters": {
         "type": "OBJECT", "properties": {"p": {"type": "STRING", "format": "date-time"}}}}, "gemini", v) == []),
    ("vertex", lambda f: {"any_of_alone": not f.any_of_alone},
     lambda v: sent.sent_violations({"name": "t", "description": "d", "parametersJsonSchema": {
         "type": "object", "properties": {"p": {"anyOf": [{"type": "string"}], "description": "x"}}}},
         "vertex", "json-schema", "non-strict", f"vertex@{v}") == []),
    ("vertex-parameters", lambda f: {"parameter_name": None if f.parameter_name else r"^[a-zA-Z_][a-zA-Z0-9_]{0,63}$"},
     lambda v: gemini.declaration_violations({"name": "t", "description": "d", "parameters": {
         "type": "OBJECT", "properties": {"a b": {"type": "STRING"}}}}, "vertex", v) == []),
    ("mcp", _toggle("tool_keys", "execution"),
     lambda v: more.violations({"name": "t", "inputSchema": {"type": "object"}, "execution": {}}, "mcp", "strict",
                               f"mcp@{v}") == []),
    ("deepseek", _toggle("formats", "date-time"),
     lambda v: deepseek.tool_violations(_chat({"type": "string", "format": "date-time"}), v) == []),
    ("xai", lambda f: {"limits": {"maxLength": 10 if f.limits.get("maxLength", 10**9) >= 100 else 1000}},
     lambda v: xai.tool_violations(_chat({"type": "string", "maxLength": 100}, strict=False), "strict", v) == []),
    ("mistral", lambda f: {"strict_subset": not f.strict_subset},
     lambda v: mistral.tool_violations(_chat({"type": "string"}), v) == []),
    ("bedrock", lambda f: {"name": r"^[a-z]{1,64}$" if re.fullmatch(f.name, "t_1") else r"^.{1,64}$"},
     lambda v: bedrock.tool_violations({"toolSpec": {"name": "t_1", "inputSchema": {"json": {"type": "object"}}}},
                                       v) == []),
]


@pytest.mark.parametrize(("family", "change", "accepted"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_oracle_follows_the_reading_of_the_version_it_is_given(family, change, accepted) -> None:
    """A docs change done the documented way (a reading dated as the new version, stating only the fact
    that moved) changes the oracle's verdict for that version's tools, and for them only."""
    newest = _newest(family)
    before = accepted(newest)
    moved = change(facts.reading(family, newest))
    facts.FAMILY_CHANGES[family][FAR] = moved
    try:
        assert accepted(FAR) is not before, f"{family}: the verdict at {FAR} ignores the reading {moved}"
        assert accepted(_newest_real(family)) is before, f"{family}: the change leaked into earlier versions"
    finally:
        del facts.FAMILY_CHANGES[family][FAR]


def _newest_real(family: str) -> str:
    return max(d for d in facts.readings(family) if d != FAR)


@pytest.mark.parametrize("family", _families())
def test_a_tool_is_checked_under_the_version_it_was_compiled_under(family: str) -> None:
    """`result.rules` is what the oracles take: every version of every family resolves to its reading, and
    the oracle accepts a plain tool compiled under it."""
    tool = {"name": "get_weather", "description": "Weather for a city.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
    target, api = target_of(family) or (family, None)
    for version in versions(family):
        res = toolcast.compile_tool(tool, target=target, api=api, rules=f"{family}@{version}")
        assert res.rules == f"{family}@{version}" and res.tool is not None
        # one entry point for every target (the issue 40 targets go to tests/oracles/more.py)
        found = sent.sent_violations(res.tool, target, api, res.status, res.rules)
        assert found == [], (res.rules, found)


def test_no_oracle_reads_toolcast_or_its_spec() -> None:
    """Independence: the oracles are written from the fact sheets; importing toolcast, its generated tables
    or reading spec/ would make them agree with the compiler by construction."""
    for path in sorted(ORACLES.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        code = re.sub(r'(?s)""".*?"""', "", text)  # docstrings may name the spec; code may not read it
        code = "\n".join(line.split("#", 1)[0] for line in code.splitlines())
        assert not re.search(r"^\s*(import|from)\s+(tests\.)?toolcast\b", code, re.M), path.name
        assert "_tables" not in code and "import yaml" not in code, path.name
        assert not re.search(r"""["']spec[/"']""", code), path.name
        assert "read_text" not in code and "open(" not in code, path.name
