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


# --------------------------------------------------------------------------- a format the validator cannot check

# Targets whose rules keep formats the validator cannot check (OpenAPI's `int32`, ...): the validator reads one as
# always met. Where that only makes the check accept more, the provider (which keeps the format) holds the rest; where
# it can turn a verdict the other way (a `oneOf` of two branches, a `not`, an `if` beside a `then`, a `contains` beside
# a `maxContains`), or where the format is in a subschema the sent schema drops (no provider checks it there), the
# tool is not enforced.
UNCHECKED_TARGETS = (("gemini", "parameters"), ("vertex", "parameters"))


def _kept_unchecked(target: str, api: str) -> str:
    from toolcast.formats import CHECKED_FORMATS

    kept = sorted(f for f in rules_of(target, api).formats if f not in CHECKED_FORMATS)
    if not kept:
        pytest.skip("the rules keep no format the validator cannot check")
    return kept[0]


_ONE_OF = {"oneOf": [{"type": "string"}, {"type": "integer", "minimum": 2}, {"type": "integer", "maximum": 5}]}


def _placements(f: str) -> tuple[dict, dict]:
    """(name -> (properties, `$defs`, a value the tool accepts)) where the format cannot turn a verdict, and (name ->
    (properties, `$defs`)) where it can, or is dropped; `n` holds the format, `m` what might turn it."""
    n = {"type": "integer", "format": f}
    defs = {"i": n}
    unrelated = {
        "beside a oneOf": ({"n": n, "m": _ONE_OF}, {}, {"n": 1, "m": 7}),
        "beside a not": ({"n": n, "m": {"type": "string", "not": {"const": "x"}}}, {}, {"n": 1, "m": "y"}),
        "beside an if": ({"n": n, "m": {"type": "integer", "if": {"minimum": 3}, "then": {"multipleOf": 2}}}, {},
                         {"n": 1, "m": 4}),
        "in an anyOf branch": ({"n": {"anyOf": [n, {"type": "string"}]}, "m": _ONE_OF}, {}, {"n": 1, "m": 7}),
        "in a oneOf of one branch": ({"n": {"oneOf": [n]}, "m": _ONE_OF}, {}, {"n": 1, "m": 7}),
        "in an allOf piece": ({"n": {"allOf": [n, {"minimum": 0}]}, "m": _ONE_OF}, {}, {"n": 1, "m": 7}),
        "in items beside a not": ({"n": {"type": "array", "items": n}, "m": {"type": "integer", "not": {"minimum": 4}}},
                                  {}, {"n": [1, 2], "m": 3}),
        "in a definition referenced beside a oneOf": ({"n": {"$ref": "#/$defs/i"}, "m": _ONE_OF}, defs, {"n": 1, "m": 7}),
        "in a definition another branch does not reference": (
            {"n": {"$ref": "#/$defs/i"}, "m": {"oneOf": [{"type": "string"}, {"type": "integer", "minimum": 2},
                                                         {"type": "integer", "maximum": 5}]}}, defs, {"n": 1, "m": "s"}),
    }
    related = {
        "in a oneOf branch": ({"n": {"oneOf": [n, {"type": "integer", "minimum": 3}]}}, {}),
        "deep in a oneOf branch": ({"n": {"oneOf": [{"type": "object", "properties": {"x": n}}, {"type": "string"}]}}, {}),
        "in an allOf piece of a oneOf branch": (
            {"n": {"oneOf": [{"allOf": [{"type": "object"}, {"properties": {"x": n}}]}, {"type": "string"}]}}, {}),
        "in a definition a oneOf branch references": ({"n": {"oneOf": [{"$ref": "#/$defs/i"}, {"type": "string"}]}}, defs),
        "in a definition referenced both ways": ({"n": {"$ref": "#/$defs/i"}, "m": {"type": "integer",
                                                                                 "not": {"$ref": "#/$defs/i"}}}, defs),
        "under a not": ({"n": {"type": "integer", "not": n}}, {}),
        "under two nots, dropped": ({"n": {"type": "integer", "not": {"not": n}}}, {}),
        "in an if beside a then": ({"n": {"type": "integer", "if": n, "then": {"minimum": 1}}}, {}),
        "in an if beside an else, dropped": ({"n": {"type": "integer", "if": n, "else": {"minimum": 1}}}, {}),
        "in a then, dropped": ({"n": {"type": "integer", "if": {"minimum": 3}, "then": n}}, {}),
        "in a contains beside a maxContains": ({"n": {"type": "array", "items": {"type": "integer"}, "contains": n,
                                                      "maxContains": 1}}, {}),
    }
    return unrelated, related


def _with_uri(props: dict, defs: dict, target: str, api: str) -> dict:
    """A tool with `props` and a property of a format the rules drop and the validator checks (enforced)."""
    schema = {"type": "object", "properties": {**props, "u": {"type": "string", "format": unsupported_format(target, api)}},
              "required": list(props)}
    return {**schema, "$defs": defs} if defs else schema


@pytest.mark.parametrize(("target", "api"), UNCHECKED_TARGETS)
@pytest.mark.parametrize("place", list(_placements("f")[0]))
def test_a_format_the_validator_cannot_check_where_it_turns_no_verdict_is_enforced_beside(target, api, place):
    props, defs, value = _placements(_kept_unchecked(target, api))[0][place]
    check = _check(_with_uri(props, defs, target, api), target, api)
    assert check.problems(value) == []
    assert check.problems({**value, "u": bad_value(unsupported_format(target, api))})


@pytest.mark.parametrize(("target", "api"), UNCHECKED_TARGETS)
@pytest.mark.parametrize("place", list(_placements("f")[1]))
def test_a_format_the_validator_cannot_check_where_it_can_turn_a_verdict_stops_enforcement(target, api, place):
    props, defs = _placements(_kept_unchecked(target, api))[1][place]
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": _with_uri(props, defs, target, api)},
                                target=target, api=api, enforce=True)
    assert argument_check(res) is None and not res.enforced


_F = {"format": "int32"}  # (no validator format: always met)
_FLIPS = [
    ({"not": _F}, True),
    ({"not": {"not": _F}}, False),
    ({"not": {"not": {"not": _F}}}, True),
    ({"oneOf": [_F]}, False),
    ({"oneOf": [_F, {}]}, True),
    ({"oneOf": [{"properties": {"a": {"items": _F}}}, {}]}, True),
    ({"anyOf": [_F, {}]}, False),
    ({"allOf": [{"properties": {"a": _F}}]}, False),
    ({"if": _F, "then": {}}, True),
    ({"if": _F, "else": {}}, False),
    ({"if": _F}, False),
    ({"if": {}, "then": _F, "else": _F}, False),
    ({"contains": _F}, False),
    ({"contains": _F, "maxContains": 1}, True),
    ({"propertyNames": _F, "additionalProperties": _F, "patternProperties": {"x": _F}, "dependentSchemas": {"a": _F},
      "unevaluatedProperties": _F, "prefixItems": [_F], "items": _F, "not": {"const": 1}}, False),
    ({"$defs": {"f": _F}, "not": {"$ref": "#/$defs/f"}}, True),
    ({"$defs": {"f": _F}, "properties": {"a": {"$ref": "#/$defs/f"}}, "not": {"const": 1}}, False),
    ({"$defs": {"f": _F}, "oneOf": [{"$ref": "#/$defs/f"}, {}]}, True),
    ({"$defs": {"f": _F}, "properties": {"a": {"$ref": "#/$defs/f"}, "b": {"not": {"$ref": "#/$defs/f"}}}}, True),
    ({"$defs": {"f": _F}, "not": {"const": 1}}, False),  # (a definition nothing references applies nowhere)
    ({"properties": {"a": {"$ref": "#/properties/b/not"}, "b": {"not": _F}}}, True),
    ({"properties": {"a": {"$ref": "#/properties/b/not"}, "b": {"not": {"not": _F}}}}, True),
    ({"properties": {"a": {"$ref": "#/properties/b/not/not"}, "b": {"not": {"not": _F}}}}, False),
    ({"$defs": {"r": {"format": "int32", "properties": {"x": {"$ref": "#/$defs/r"}}}},
      "properties": {"a": {"$ref": "#/$defs/r"}}, "not": {"const": 1}}, False),  # (recursion ends)
    ({"oneOf": [{"enum": [{"format": "int32"}]}, {"examples": [_F]}]}, False),  # (values, not schemas)
    ({"oneOf": [{"format": "date-time"}, {}]}, False),  # (a format the validator checks)
    ({"$defs": {"f": _F}, "properties": {"a": {"$ref": "#f"}}}, None),  # (an anchor: not followed)
]


@pytest.mark.parametrize(("schema", "flips"), _FLIPS)
def test_where_a_format_that_always_passes_turns_a_verdict(schema, flips):
    from toolcast.enforce import _uncheckable_flips

    assert _uncheckable_flips(schema, []) is flips


def test_a_format_that_always_passes_in_a_dropped_subschema_turns_the_verdict_wherever_it_stands():
    # (the sent schema drops the subschema: no provider checks the format there, and the check cannot)
    from toolcast.enforce import _uncheckable_flips

    assert _uncheckable_flips({}, [{"properties": {"a": {"allOf": [_F]}}}]) is True
    assert _uncheckable_flips({"$defs": {"f": _F}}, [{"items": {"$ref": "#/$defs/f"}}]) is True
    assert _uncheckable_flips({"$defs": {"f": _F}}, [{"minimum": 1}, {"oneOf": [{"enum": [_F]}]}]) is False


# --------------------------------------------------------------------------- objects merged from pieces

S, N = {"type": "string"}, {"type": "integer"}
_A = {"properties": {"p": {"type": "object", "properties": {"a": S}}}}
_B = {"properties": {"p": {"type": "object", "properties": {"b": S}}}}
# (the first branch of a `oneOf` whose second is a string; `$defs` of the tool; a value it means; one the compile
# closes out, which the check must reject as the sent schema does)
_MERGED = {
    "in two allOf branches": ({"allOf": [_A, _B]}, {}, {"p": {"a": "x", "b": "y"}}, {"p": {"a": "x", "zz": "y"}}),
    "at two levels": ({**_A, "allOf": [_B]}, {}, {"p": {"a": "x", "b": "y"}}, {"p": {"a": "x", "zz": "y"}}),
    "in a nested allOf": ({"allOf": [{"allOf": [_A]}, _B]}, {}, {"p": {"a": "x", "b": "y"}}, {"p": {"b": "y", "zz": 1}}),
    "from a reference's target and a piece": ({"allOf": [{"$ref": "#/$defs/A"}, _B]}, {"A": _A},
                                              {"p": {"a": "x", "b": "y"}}, {"p": {"a": "x", "zz": "y"}}),
    "beside a reference, with its target": ({"$ref": "#/$defs/A", **_B}, {"A": _A}, {"p": {"a": "x", "b": "y"}},
                                            {"p": {"a": "x", "zz": "y"}}),
    "beside an anyOf, in each branch": ({"properties": {"a": S}, "anyOf": [{"properties": {"b": S}},
                                                                          {"properties": {"c": N}}]},
                                        {}, {"a": "x", "b": "y"}, {"a": "x", "zz": "y"}),
    "in items, from two allOf branches": ({"type": "array", "items": {"allOf": [_A, _B]}}, {},
                                          [{"p": {"a": "x", "b": "y"}}], [{"p": {"a": "x", "zz": "y"}}]),
}


@pytest.mark.parametrize("target", ["openai", "anthropic"])
@pytest.mark.parametrize("shape", list(_MERGED))
def test_an_object_merged_from_pieces_is_judged_closed_as_the_compile_closes_it(target, shape):
    branch, defs, meant, closed = _MERGED[shape]
    schema = _obj(v={"oneOf": [branch, {"type": "string"}]})
    schema["properties"]["u"] = {"type": "string", "format": unsupported_format(target)}  # (enforced, whatever else)
    check = _check({**schema, "$defs": defs} if defs else schema, target)
    assert check.problems({"v": meant}) == []  # (every piece's properties are declared)
    assert check.problems({"v": closed})  # (one none declares: the sent schema rejects it)
    assert check.problems({"v": ""}) == []


DIALECTS = ("http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-06/schema#",
            "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2019-09/schema")


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("shape", ["in two allOf branches", "at two levels", "beside an anyOf, in each branch"])
def test_a_merged_object_is_judged_closed_under_an_older_declared_dialect(dialect, shape):
    branch, _, meant, closed = _MERGED[shape]
    check = _check({"$schema": dialect, **_obj(v={"oneOf": [branch, {"type": "string"}]})})
    assert check.problems({"v": meant}) == [] and check.problems({"v": ""}) == []
    assert check.problems({"v": closed})
    # and a reference's target merged with a piece, found where the dialect keeps its definitions
    ref = {"$schema": dialect, "definitions": {"A": _A},
           **_obj(v={"oneOf": [{"allOf": [{"$ref": "#/definitions/A"}, _B]}, {"type": "string"}]})}
    assert _check(ref).problems({"v": {"p": {"a": "x", "b": "y"}}}) == []
    assert _check(ref).problems({"v": {"p": {"a": "x", "zz": "y"}}})
