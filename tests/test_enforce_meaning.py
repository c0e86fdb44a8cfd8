"""The run-time check of enforce=True judges what the tool means, the schema the compile's comparison is made
against: the original with the narrowings the walk makes (a type inferred from a node's keywords, an object
closed), and every format the validator checks that the original names, dropped (the run time checks it) or
kept (the provider does). Under `oneOf` both decide which branches a value meets: a narrowed branch, or a
branch with its format checked, meets fewer values, and `oneOf` then accepts more.

These are the two kinds tests/test_fidelity_enforce.py found (issue 41), written out, with the places where
the same kinds sit (a `$ref`, `items`, merged `allOf`)."""

from __future__ import annotations

import pytest
from rule_facts import SAMPLES, bad_value, good_value, rules_of, unsupported_format

import toolcast
from toolcast.enforce import argument_check
from toolcast.validation import ArgumentCheck

# Targets whose strict forms have no `oneOf`: its exclusivity is what the check enforces.
TARGETS = (("openai", None), ("anthropic", None), ("gemini", "parameters"), ("gemini", None))


def _check(schema: dict, target: str = "openai", api: str | None = None):
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, target=target, api=api,
                                enforce=True)
    check = argument_check(res)
    assert res.status == "strict" and check is not None, (res.status, res.enforced)
    return check


def _obj(**props: dict) -> dict:
    return {"type": "object", "properties": props, "required": list(props)}


@pytest.mark.parametrize(("target", "api"), TARGETS)
def test_a_branch_typed_by_inference_is_judged_with_its_type(target, api):
    # {"properties": ...} alone accepts a string; the compile sends it as `type: object`, and means that.
    schema = _obj(b={"oneOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}, {"type": "string"}]})
    check = _check(schema, target, api)
    assert check.problems({"b": ""}) == []
    assert check.problems({"b": {"a": "x"}}) == []
    assert check.problems({"b": 3})


@pytest.mark.parametrize(("target", "api"), TARGETS)
def test_inferred_types_count_in_items_and_in_a_reference(target, api):
    # `minLength` makes a string of the first branch: a number meets only the second.
    schema = {"type": "object", "$defs": {"short": {"minLength": 1}},
              "properties": {"l": {"type": "array", "items": {"oneOf": [{"minLength": 1}, {"type": "number"}]}},
                             "r": {"oneOf": [{"$ref": "#/$defs/short"}, {"type": "integer"}]}},
              "required": ["l", "r"]}
    check = _check(schema, target, api)
    assert check.problems({"l": [5, "x"], "r": 7}) == []
    assert check.problems({"l": [""], "r": 7})
    assert check.problems({"l": [5], "r": ""})


def test_a_closed_branch_is_judged_closed():
    # Open, {"a": "x"} meets both branches (`b` is optional); the compile closes them, and then it meets one.
    schema = _obj(v={"oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}},
                               {"type": "object", "properties": {"b": {"type": "string"}}}]})
    check = _check(schema)
    assert check.problems({"v": {"a": "x"}}) == []
    assert check.problems({"v": {"b": "x"}}) == []
    assert check.problems({"v": {}})  # (both, still)
    assert check.problems({"v": {"a": "x", "b": "y"}})


def test_a_merged_all_of_is_judged_as_merged_then_closed():
    # The walk merges `allOf` and closes the merged object: its branches' properties are all declared.
    schema = {"type": "object", "allOf": [{"properties": {"p": {"properties": {"q": {"type": "string"}}}}},
                                          {"properties": {"z": {"type": "string"}}}],
              "properties": {"b": {"oneOf": [{"allOf": [{"properties": {"a": {"type": "string"}}}]},
                                             {"type": "string"}]}}}
    check = _check(schema)
    assert check.problems({"p": {"q": "x"}, "z": "y", "b": ""}) == []
    assert check.problems({"p": {"q": "x"}, "z": "y", "b": {"a": "x"}}) == []
    assert check.problems({"z": "y", "extra": 1})
    assert check.problems({"b": {"a": "x", "extra": 1}})


@pytest.mark.parametrize(("target", "api"), TARGETS)
def test_a_kept_format_decides_between_branches_as_a_dropped_one_does(target, api):
    dropped = unsupported_format(target, api)
    of_dropped = ArgumentCheck({"format": dropped}, (dropped,))
    # a format the rules keep whose good value is not of the dropped format (a URI is an IRI)
    kept = next(f for f in SAMPLES if f in rules_of(target, api).formats and of_dropped.problems(good_value(f)))
    schema = _obj(b={"oneOf": [{"type": "string", "format": dropped}, {"type": "string", "format": kept}]})
    check = _check(schema, target, api)
    assert check.problems({"b": good_value(dropped)}) == []
    assert check.problems({"b": good_value(kept)}) == []
    # a value of neither format meets no branch (with the kept format unchecked it met the second)
    assert check.problems({"b": bad_value(kept)})
    assert check.problems({"b": "✓ neither ✓"})


def test_the_ci_counterexamples():
    # tests/test_fidelity_enforce.py, CI run 6b: (b) under Gemini's `parameters` form, (a) under openai@2026-10-17
    b = {"type": "object", "properties": {
        "a": {"anyOf": [{"type": "string", "description": "some text", "title": "some text"}]},
        "b": {"oneOf": [{"type": "string", "format": "uuid"},
                        {"type": "string", "pattern": "^[a-z]+$", "format": "date-time"},
                        {"type": "string", "format": "date-time"}], "description": "some text", "title": "some text"},
        "id": {"type": "array", "items": {"type": "null"}}}, "required": ["a", "b"]}
    assert _check(b, "gemini", "parameters").problems({"a": "", "b": "0✓b✓y✓"})
    a = {"type": "object", "properties": {
        "a": {"properties": {"a": {"type": "string"}}},
        "b": {"oneOf": [{"properties": {"a": {"type": "string", "pattern": "^[a-z]+$", "format": "date-time"}},
                         "required": ["a"]}, {"type": "string"}]},
        "id": {"type": "string", "pattern": "^[a-z]+$", "format": "date-time"}},
        "required": ["b"], "additionalProperties": False}
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": a}, rules="openai@2026-10-17",
                                target="openai", enforce=True)
    assert res.status == "strict" and argument_check(res).problems({"b": ""}) == []


@pytest.mark.parametrize(("target", "api"), TARGETS)
def test_a_deep_reference_target_is_judged_at_its_own_place(target, api):
    # The walk copies `#/definitions/w/properties/y` into `$defs` and narrows the copy; the check finds it
    # where the original holds it.
    schema = {"type": "object", "definitions": {"w": {"type": "object", "properties": {
        "y": {"properties": {"x": {"type": "string"}}, "required": ["x"]}}}},
        "properties": {"b": {"oneOf": [{"$ref": "#/definitions/w/properties/y"}, {"type": "string"}]}},
        "required": ["b"]}
    check = _check(schema, target, api)
    assert check.problems({"b": ""}) == []
    assert check.problems({"b": {"x": "v"}}) == []
    assert check.problems({"b": 1})


@pytest.mark.parametrize("target", ["openai", "anthropic"])
def test_a_value_only_an_open_branch_admitted_is_rejected_where_the_compile_closes_it(target):
    # The second branch, open in the original, admits {"a": "0"}; the compile closes it (a reported
    # narrowing), so only the first could, and its dropped `not` says no. (Gemini's form closes nothing.)
    schema = {"type": "object", "properties": {"v": {"anyOf": [
        {"properties": {"a": {"type": "string", "not": {"const": "0"}}}, "required": ["a"]},
        {"properties": {"b": {"type": "string"}}}]}}, "required": ["v"]}
    check = _check(schema, target)
    assert check.problems({"v": {"a": "0"}})
    assert check.problems({"v": {"a": "1"}}) == [] and check.problems({"v": {"b": "1"}}) == []
    assert _check(schema, "gemini").problems({"v": {"a": "0"}}) == []


def test_a_kept_format_the_validator_cannot_check_keeps_a_one_of_from_being_enforced():
    # Gemini keeps OpenAPI's integer formats; the validator reads them as always met, so every integer would
    # meet both branches and the check would reject every call: the loss is not checkable, the tool goes as
    # without enforce.
    from toolcast.formats import CHECKED_FORMATS

    kept = sorted(f for f in rules_of("gemini", "parameters").formats if f not in CHECKED_FORMATS)
    if len(kept) < 2:
        pytest.skip("the rules keep fewer than two formats the validator cannot check")
    schema = _obj(n={"oneOf": [{"type": "integer", "format": kept[0]}, {"type": "integer", "format": kept[1]}]})
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, target="gemini",
                                api="parameters", enforce=True)
    assert argument_check(res) is None and not res.enforced
    # beside no `oneOf`, `not` or `if` such a format is an annotation the provider checks: still enforced
    other = _obj(n={"type": "integer", "format": kept[0]}, u={"type": "string", "format": unsupported_format("gemini")})
    assert _check(other, "gemini", "parameters").problems({"n": 1, "u": bad_value(unsupported_format("gemini"))})
