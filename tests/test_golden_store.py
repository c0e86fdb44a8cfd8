"""How goldens are stored (each topic once, each version as its difference) and what premises check."""

from __future__ import annotations

import json

import golden_support as gs
import pytest
from golden_premises import failures
from oracles import facts
from oracles import openai_strict as oracle
from spec_versions import VERSIONS

from toolcast.rules import PROVIDERS, available, get_rules

FIRST, SECOND = VERSIONS[0], VERSIONS[1]  # openai's first version and the one that extends it


def _expect(status: str, code: str = "openai/x") -> dict:
    return {"status": status, "null_paths": [], "diagnostics": [[code, "#"]], "transformations": []}


@pytest.fixture
def golden(tmp_path, monkeypatch):
    monkeypatch.setattr(gs, "GOLDEN", tmp_path)
    return tmp_path


def _write(root, family, version, topic, cases):
    gs.write_file(root / family / version / f"{topic}.json", {"topic": topic, "cases": cases})


def test_a_later_version_stores_only_what_it_changes(golden) -> None:
    _write(golden, "openai", FIRST, "keywords", [
        {"description": "a", "schema": {"type": "object"}, "expect": _expect("non-strict")},
        {"description": "b", "schema": {"type": "object"}, "expect": _expect("strict")},
    ])
    _write(golden, "openai", SECOND, "keywords", [{"description": "a", "expect": {"status": "strict"}}])
    first, second, last = (gs.resolve("openai", v, "keywords") for v in (FIRST, SECOND, VERSIONS[-1]))
    assert first["a"].expect["status"] == "non-strict"
    assert second["a"].expect == {**_expect("non-strict"), "status": "strict"}
    assert last["a"].expect["status"] == "strict"  # inherited by every later version
    assert list(last) == ["a", "b"] and last["b"].expect == _expect("strict")


def test_a_change_to_a_case_no_parent_has_is_an_error(golden) -> None:
    _write(golden, "openai", SECOND, "keywords", [{"description": "nowhere", "expect": {"status": "strict"}}])
    with pytest.raises(AssertionError, match="changes a case no version it extends has"):
        gs.resolve("openai", SECOND, "keywords")


def test_retired_and_replaced_cases(golden) -> None:
    _write(golden, "openai", FIRST, "keywords", [
        {"description": "a", "schema": {"type": "object"}, "expect": _expect("strict")},
        {"description": "b", "schema": {"type": "object"}, "expect": _expect("strict")},
    ])
    _write(golden, "openai", SECOND, "keywords", [
        {"description": "a", "retired": "its premise is gone"},
        {"description": "b", "schema": {"type": "string"}, "expect": _expect("refused")},
    ])
    later = gs.resolve("openai", SECOND, "keywords")
    assert list(later) == ["b"] and later["b"].data["schema"] == {"type": "string"}
    assert later["b"].defined_at == ("openai", SECOND)


def test_difference_and_merge_are_inverse() -> None:
    base = _expect("non-strict")
    got = {**base, "status": "strict", "diagnostics": []}
    assert gs.difference(base, got) == {"status": "strict", "diagnostics": []}
    assert gs.merge(base, gs.difference(base, got)) == got
    assert gs.difference(base, base) == {}
    listed = [base, base, base]
    changed = [base, got, base]
    assert gs.difference(listed, changed) == {"1": {"status": "strict", "diagnostics": []}}
    assert gs.merge(listed, gs.difference(listed, changed)) == changed


def test_codes_follow_the_target_across_providers() -> None:
    renamed = gs.rename_codes(_expect("strict", "openai/unsupported-string-format"), "openai", "groq")
    assert renamed["diagnostics"] == [["groq/unsupported-string-format", "#"]]


def test_update_records_only_the_changed_fields(golden) -> None:
    _write(golden, "openai", FIRST, "keywords", [
        {"description": "a", "schema": {"type": "object"}, "expect": _expect("non-strict")}])
    case = gs.resolve("openai", SECOND, "keywords")["a"]
    gs.record("openai", SECOND, "keywords", case, {**_expect("non-strict"), "status": "strict"}, _expect("non-strict"))
    path = golden / "openai" / SECOND / "keywords.json"
    assert json.loads(path.read_text())["cases"] == [{"description": "a", "expect": {"status": "strict"}}]
    # The same behaviour as the parent again: the entry, then the file, goes.
    gs.record("openai", SECOND, "keywords", case, _expect("non-strict"), _expect("non-strict"))
    assert not path.exists()


def test_a_premise_names_the_fact_a_version_lacks() -> None:
    first, last = get_rules(f"openai@{FIRST}"), get_rules(f"openai@{VERSIONS[-1]}")
    assert failures(["keyword pattern tier1", "format date-time unsupported"], first) == {}
    assert failures(["keyword pattern tier1", "format date-time unsupported"], last) == {
        "keyword pattern tier1": "keyword pattern supported",
        "format date-time unsupported": "format date-time supported"}
    with pytest.raises(ValueError, match="three words"):
        failures(["pattern supported"], last)


def test_premise_not_held_lasts_until_the_premise_holds_again(golden) -> None:
    premise = ["keyword pattern supported"]  # not at the first version, from the second on
    _write(golden, "openai", FIRST, "keywords", [
        {"description": "a", "premise": premise, "premise_not_held": premise, "schema": {}, "expect": _expect("x")}])
    assert gs.resolve("openai", FIRST, "keywords")["a"].not_held == frozenset(premise)
    assert gs.resolve("openai", SECOND, "keywords")["a"].not_held == frozenset()


def test_every_stored_premise_holds_or_is_acknowledged() -> None:
    """The stored premises parse and each fact is one the rules can answer (test_golden checks them
    version by version); the copied case of issue 40 says what it assumes."""
    seen = 0
    for family in PROVIDERS:
        for version in available(family):
            for topic in gs.TOPICS:
                for case in gs.resolved(family, version, topic).values():
                    failures(case.premise, get_rules(f"{family}@{version}"))
                    seen += bool(case.premise)
    assert seen
    case = gs.resolved("openai", VERSIONS[-1], "keywords")["an unsupported format is dropped as lossy"]
    # (a format the case's version does not take: `uri` until a version lists it and restates the case)
    (fact,) = [f for f in case.premise if f.startswith("format ")]
    assert fact.endswith(" unsupported") and not failures([fact], get_rules(f"openai@{VERSIONS[-1]}"))


def test_the_oracle_reads_its_facts_by_version() -> None:
    """One mapping from rule version to documented facts (tests/oracles/facts.py): launch limits and
    no `pattern` at the first version, the widening after, a version between readings takes the one
    before it."""
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(101)},
            "required": [f"p{i}" for i in range(101)], "additionalProperties": False}
    assert {v.rule for v in oracle.violations(wide, profile="2024-08-06")} == {"too-many-properties"}
    assert oracle.violations(wide, profile="2025-11-30") == []
    patterned = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^a$"}},
                 "required": ["a"], "additionalProperties": False}
    assert {v.rule for v in oracle.violations(patterned, profile="2024-08-06")} == {"unlisted-keyword"}
    assert oracle.violations(patterned, profile="2025-05-20") == []
    assert facts.openai("2026-09-01") == facts.OPENAI[max(d for d in facts.OPENAI if d <= "2026-09-01")]
    with pytest.raises(ValueError):
        facts.openai("1999-01-01")


def test_the_facts_are_written_from_the_docs_not_read_from_the_spec() -> None:
    source = (gs.GOLDEN.parent / "oracles" / "facts.py").read_text(encoding="utf-8")
    assert "import toolcast" not in source and "from toolcast" not in source
    assert "open(" not in source and "read_text" not in source and "import yaml" not in source


def test_seed_copies_inputs_and_premises_without_expectations(golden) -> None:
    _write(golden, "openai", FIRST, "keywords", [
        {"description": "a", "premise": ["keyword pattern tier1"], "schema": {"type": "object"},
         "expect": _expect("strict")}])
    written = gs.seed("anthropic", "2099-01-01", f"openai@{FIRST}")
    assert written == [golden / "anthropic" / "2099-01-01" / "keywords.json"]
    assert json.loads(written[0].read_text())["cases"] == [
        {"description": "a", "premise": ["keyword pattern tier1"], "schema": {"type": "object"}}]
