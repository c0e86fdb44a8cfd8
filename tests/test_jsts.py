"""JSON-Schema-Test-Suite (draft 2020-12): a strict, non-lossy compile keeps every test's verdict.

Each test group's schema is compiled as a tool's parameters under every rule version. A group
is *used* when it compiles ``strict`` and not lossy; then, for every test instance:

* valid (per the suite): what the model would send -- ``fill_nulls`` at the null paths, plus
  ``None`` at optional properties that already accepted null -- is accepted by the compiled
  schema, unless a reported narrowing excludes the instance (see tests/strategies.py);
* every candidate the model could send for it (the instance itself and its null-filled
  forms) that the compiled schema accepts is, after ``strip_nulls``, accepted by the
  original. So an invalid instance stays rejected.

Every other group is *left out* and shown as a skip whose reason is the first code that
blocked it (``pytest -rs`` lists them; docs/corpus-report.md tabulates them). Formats are
annotations (no format checker), as in 2020-12 by default.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from oracles.openai_strict import violations
from referencing.exceptions import Unresolvable
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from corpus_report import block_reason  # the report and this test leave out the same groups

ROOT = Path(__file__).resolve().parent.parent
JSTS = ROOT.parent / "shared" / "corpus" / "jsts"
if not JSTS.is_dir():  # CI lays shared/ beside the clone
    JSTS = Path("/work/shared/corpus/jsts")

pytestmark = pytest.mark.skipif(not JSTS.is_dir(), reason="JSON-Schema-Test-Suite corpus not found")


def groups():
    out = []
    if not JSTS.is_dir():
        return out
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


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("group", _params())
def test_jsts_group_keeps_verdicts(group, rules):
    fname, idx, g = group
    schema = g["schema"]
    result = compile_group(schema, rules)
    reason = block_reason(result)
    if reason:
        pytest.skip(f"left out: {result.status} ({reason})")
    compiled = result.tool["parameters"]
    assert violations(compiled, profile=PROFILE_OF[rules]) == []
    orig, comp = Judge(schema), Judge(compiled)
    close, infer = narrowing_of(result)
    narrow = Judge(narrowed(schema, close=close, infer=infer))
    for test in g["tests"]:
        try:
            verdict = orig.valid(test["data"])
        except Unresolvable:
            pytest.skip("left out: harness (a remote $ref the validator never fetches)")
        if verdict != test["valid"]:
            pytest.skip(f"left out: harness (jsonschema disagrees with the suite on {test['description']!r})")
    for test in g["tests"]:
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
