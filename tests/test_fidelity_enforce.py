"""Semantic preservation with enforcement counted: for every generated schema that compiles strict under
enforce=True with constraints enforced (tests/strategies.py, tests/test_fidelity.py for the rules),

(a) every value the original accepts (nulls filled where the model must send them) is accepted by the
    sent schema, and by the run-time check once the nulls are stripped;
(b) every value the sent schema accepts that the original rejects (after strip_nulls) is rejected by
    the run-time check: nothing the original rejects reaches a handler.

"The original" is the tool's meaning: the original schema with the narrowings the compile reports
(``strategies.narrowed``: under `oneOf` or `not` a narrowed branch widens the whole, so the raw original
is not it). ``format`` is an annotation for the original here, as in tests/test_fidelity.py, so (a) uses
the check without format assertions; the check the loop runs asserts every format it can check that the
original names (a kept one decides between `oneOf` branches as much as a dropped one), so (b) and (a)
for that check compare it with the narrowed original under the same formats.
"""

from __future__ import annotations

from hypothesis import event, given, note
from hypothesis import strategies as st
from strategies import (
    RULES,
    SETTINGS,
    Judge,
    fill_legit_nulls,
    instances,
    mutated,
    narrowed,
    narrowing_of,
    schemas,
)
from test_fidelity import TARGET_APIS, _schema_of

import toolcast
from toolcast.enforce import argument_check
from toolcast.formats import CHECKED_FORMATS
from toolcast.validation import ArgumentCheck

CASES = tuple((rules, "openai", None) for rules in RULES) + tuple((None, t, a) for t, a in TARGET_APIS)


@SETTINGS
@given(schema=schemas(), case=st.sampled_from(CASES), data=st.data())
def test_enforced_compile_preserves_semantics(schema, case, data):
    rules, target, api = case
    result = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, rules=rules,
                                   target=target, api=api, enforce=True)
    event(f"{target} {result.status}{' enforced' if result.enforced else ''}")
    if result.status != "strict" or not result.enforced:
        return
    if api == "parameters":
        from oracles.gemini import parameters_as_json_schema

        compiled = parameters_as_json_schema(result.tool["parameters"])
    else:
        compiled = _schema_of(result)
    note(f"compiled={compiled!r} enforced={result.enforced!r}")
    check = argument_check(result)
    plain = ArgumentCheck(check.schema, ())
    comp = Judge(compiled)
    close, infer = narrowing_of(result)
    narrow = Judge(narrowed(schema, close=close, infer=infer))
    meant = ArgumentCheck(narrow.root, tuple(sorted(CHECKED_FORMATS)))  # (the formats it names, asserted)
    xs = [data.draw(instances(schema), label="x") for _ in range(4)]
    xs += [data.draw(mutated(x), label="x'") for x in xs[:3]]
    for x in xs:
        if not narrow.valid(x):
            continue
        x2 = fill_legit_nulls(x, narrow.root, narrow)
        filled = toolcast.fill_nulls(x2, result.null_paths, schema=compiled)
        assert comp.valid(filled), f"(a) the sent schema rejects {filled!r}, which the original accepts"
        stripped = toolcast.strip_nulls(filled, result.null_paths)
        assert plain.problems(stripped) == [], f"(a) the run time rejects {stripped!r}, which the original accepts"
    ys = [data.draw(instances(compiled), label="y") for _ in range(4)]
    ys += [data.draw(mutated(y), label="y'") for y in ys[:3]]
    for y in ys:
        if not comp.valid(y):
            continue
        x = toolcast.strip_nulls(y, result.null_paths)
        if narrow.valid(x):  # (not the raw original: a branch it leaves open the compile closes)
            assert plain.problems(x) == [], f"(a) the run time rejects {x!r}, which the original accepts"
        if meant.problems(x):
            event("(b) a value only the enforcement rejects")
            assert check.problems(x), f"(b) the original rejects {x!r}, the sent schema and the run time accept it"
        else:
            assert check.problems(x) == [], f"(a) the run time rejects {x!r}, which the original accepts (formats checked)"
