"""JSON-Schema-Test-Suite (draft 2020-12): a strict, non-lossy compile keeps every test's verdict.

Each test group's schema is compiled as a tool's parameters under every rule version. A group
is *used* when it compiles ``strict`` and not lossy; then, for every test instance:

* valid (per the suite): what the model would send -- ``fill_nulls`` at the null paths, plus
  ``None`` at optional properties that already accepted null -- is accepted by the compiled
  schema, unless a reported narrowing excludes the instance (see tests/strategies.py);
* every candidate the model could send for it (the instance itself and its null-filled
  forms) that the compiled schema accepts is, after ``strip_nulls``, accepted by the
  original. So an invalid instance stays rejected.

Every other group is *left out* by design (the first code that blocked it is the reason): that
is an expected outcome, and it is asserted -- the tool is sent non-strict with its original
schema unchanged, or refused with a refusing code -- not skipped. The end of the run prints one
line per reason (tests/conftest.py); docs/corpus-report.md lists the groups. The validator
judging the verdicts is jsonschema, given the suite's remote documents from tests/corpus (no
network); the few instances where it disagrees with the suite are listed in VALIDATOR_GAPS and
left out of the check (a new disagreement fails). Formats are annotations (no format checker),
as in 2020-12 by default.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from corpus_paths import JSTS, JSTS_REMOTES
from golden_support import sent_original, sent_rewrites
from jsonschema import Draft202012Validator
from oracles.openai_strict import violations
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012
from strategies import (
    PROFILE_OF,
    RULES,
    Judge,
    fill_legit_nulls,
    model_forms,
    narrowed,
    narrowing_of,
)

import toolcast
from toolcast.rules import get_rules

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from corpus_report import block_reason  # the report and this test leave out the same groups

# The suite serves its remotes at this address; its draft 2020-12 tests refer to no other.
REMOTE_BASE = "http://localhost:1234/"

# (file, group index, test description) where jsonschema's verdict is not the suite's, and why.
VALIDATOR_GAPS = {
    ("vocabulary", 0, "no validation: invalid number, but it still validates"):
        "jsonschema does not honour a metaschema's $vocabulary (it validates with every vocabulary)",
}


def _remotes() -> Registry:
    resources = []
    for f in sorted(JSTS_REMOTES.rglob("*.json")):
        uri = REMOTE_BASE + f.relative_to(JSTS_REMOTES).as_posix()
        contents = json.loads(f.read_text(encoding="utf-8"))
        resources.append((uri, Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Registry().with_resources(resources).crawl()


REMOTES = _remotes()


class SuiteJudge(Judge):
    """Judge with the suite's remote documents at hand (in memory: nothing is fetched)."""

    def __init__(self, root):
        self.root = root
        self.v = Draft202012Validator(root, registry=REMOTES)


def groups():
    out = []
    for f in sorted(JSTS.glob("*.json")):
        for i, g in enumerate(json.loads(f.read_text(encoding="utf-8"))):
            out.append((f.stem, i, g))
    return out


GROUPS = groups()


def _params():
    out = []
    for f, i, g in GROUPS:
        out.append(pytest.param((f, i, g), id=f"{f}-{i}"))
    return out


def compile_group(schema, rules):
    return toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, rules=rules)


def candidates(x, null_paths, judge_narrow):
    """What the model could send for instance ``x``: its null-filled forms (see model_forms)."""
    x2 = fill_legit_nulls(x, judge_narrow.root, judge_narrow)
    out = []
    for f in model_forms(x, null_paths) + model_forms(x2, null_paths):
        if f not in out:
            out.append(f)
    return out, x2


def check_left_out(result, schema, rules: str, reason: str) -> None:
    """A left-out group's expected outcome: sent non-strict as it was, or refused for a reason."""
    assert result.status in ("non-strict", "refused"), (result.status, result.lossy, reason)
    if result.status == "non-strict":
        assert result.tool["strict"] is False
        # Its original schema, but for the rewrites its provider needs (recorded as applied).
        assert sent_rewrites(result) or result.tool["parameters"] == sent_original(schema), \
            "a non-strict tool must carry its original schema"
    else:
        assert result.tool is None
        assert any(d.outcome == "refuses" for d in result.diagnostics), reason
    rules_obj = get_rules(rules)
    assert reason in rules_obj.diagnostics or reason in rules_obj.transformations or reason == result.status, reason


def judged_tests(fname: str, idx: int, g: dict, orig: Judge) -> list[dict]:
    """The group's tests whose verdict the validator can judge: every one but VALIDATOR_GAPS."""
    out = []
    for test in g["tests"]:
        try:
            verdict = orig.valid(test["data"])
        except Unresolvable as exc:
            raise AssertionError(f"{fname}[{idx}]: {exc}: add the remote under {JSTS_REMOTES}") from None
        gap = VALIDATOR_GAPS.get((fname, idx, test["description"]))
        if gap:
            assert verdict != test["valid"], f"{fname}[{idx}] {test['description']!r} is judged right now: drop it from VALIDATOR_GAPS"
            continue
        assert verdict == test["valid"], f"{fname}[{idx}]: jsonschema disagrees with the suite on {test['description']!r}"
        out.append(test)
    return out


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("group", _params())
def test_jsts_group_keeps_verdicts(group, rules, expected_outcome):
    fname, idx, g = group
    schema = g["schema"]
    result = compile_group(schema, rules)
    reason = block_reason(result)
    if reason:
        check_left_out(result, schema, rules, reason)
        expected_outcome("JSON-Schema-Test-Suite groups left out by design (asserted: sent non-strict unchanged, or refused)",
                         reason)
        return
    compiled = result.tool["parameters"]
    assert violations(compiled, profile=PROFILE_OF[rules]) == []
    orig, comp = SuiteJudge(schema), SuiteJudge(compiled)
    close, infer = narrowing_of(result)
    narrow = SuiteJudge(narrowed(schema, close=close, infer=infer))
    tests = judged_tests(fname, idx, g, orig)
    if len(tests) < len(g["tests"]):
        expected_outcome("JSON-Schema-Test-Suite instances the validator cannot judge (VALIDATOR_GAPS in tests/test_jsts.py)",
                         f"{fname}[{idx}]", len(g["tests"]) - len(tests))
    for test in tests:
        x = test["data"]
        forms, x2 = candidates(x, result.null_paths, narrow)
        if test["valid"] and narrow.valid(x):
            sendable = model_forms(x2, result.null_paths)
            assert any(comp.valid(y) for y in sendable), (
                f"{fname}[{idx}] {test['description']!r}: valid instance {x!r} is rejected in every form "
                f"the model could send ({sendable[0]!r}, ...) by the compiled schema {compiled!r}"
            )
        for y in forms:
            if comp.valid(y):
                back = toolcast.strip_nulls(y, result.null_paths)
                assert orig.valid(back), (
                    f"{fname}[{idx}] {test['description']!r}: the compiled schema accepts {y!r}, "
                    f"but the original rejects {back!r}; compiled={compiled!r}"
                )


def test_every_validator_gap_is_a_real_suite_test():
    """VALIDATOR_GAPS names tests that exist (a renamed or removed one would leave a stale entry)."""
    names = {(f, i, t["description"]) for f, i, g in GROUPS for t in g["tests"]}
    assert set(VALIDATOR_GAPS) <= names


def test_jsts_coverage_floor():
    """Guard against the harness quietly leaving everything out."""
    used = Counter()
    for _f, _i, g in GROUPS:
        for rules in RULES:
            if not block_reason(compile_group(g["schema"], rules)):
                used[rules] += 1
    assert len(GROUPS) >= 380
    for rules in RULES:
        # Most suite schemas are not objects at the root (refused for a tool); the launch
        # rules (2024-08-06) take far fewer keywords still.
        floor = 25 if rules.endswith("2024-08-06") else 60
        assert used[rules] >= floor, (rules, used[rules])
