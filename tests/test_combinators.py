"""Merges and inlining (walk.combinators): a definition met again inside its own inlining is refused
at once, and the work a compile does for its merges stays linear in the schema's size."""

from __future__ import annotations

import pytest

import toolcast
from toolcast.rules import get_rules
from toolcast.walk import Walk, walk_schema
from toolcast.walk.combinators import _merge, _restated

# (target, api) -> the code a definition reaching itself through its own inlining gets when it never
# descends into a property or an item first, and when it does (where recursion is allowed, the
# inlining itself has no end).
RECURSION_CODES = {
    ("openai", None): ("openai/infinite-recursion", "openai/inlined-schema-too-large"),
    ("gemini", "parameters"): ("gemini/recursive-schema", "gemini/recursive-schema"),
    ("vertex", "parameters"): ("vertex/recursive-schema", "vertex/recursive-schema"),
    ("gemini", "json-schema"): ("gemini/recursive-schema", "gemini/recursive-schema"),
}


def compile_params(schema: dict, target: str = "openai", api: str | None = None) -> toolcast.CompileResult:
    return toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, target=target, api=api)


def _records(res: toolcast.CompileResult) -> int:
    return len(res.diagnostics) + len(res.transformations)


# A definition inlined with a sibling (it cannot stay a bare `$ref`) whose content leads back to the
# same `$ref`: written out, it never ends. Each used to be unfolded until the nesting guard (48 levels
# of findings, schema-too-deep), or, with two such branches, without end (2**depth nodes).
SELF_INLINING = {
    "anyOf of itself, a sibling beside the $ref": (False, {
        "type": "object", "properties": {"b": {"$ref": "#/$defs/A", "maxLength": 2}}, "required": ["b"],
        "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]}}}),
    "allOf of itself, under an anyOf with a sibling": (False, {
        "type": "object", "properties": {"b": {"anyOf": [{"allOf": [{"$ref": "#/$defs/A"}]}], "maxLength": 2}},
        "required": ["b"],
        "$defs": {"A": {"anyOf": [{"allOf": [{"$ref": "#/$defs/A"}]}, {"type": "string"}], "minLength": 1}}}),
    "a property that is the definition with a sibling": (True, {
        "type": "object", "properties": {"b": {"$ref": "#/$defs/R"}}, "required": ["b"],
        "$defs": {"R": {"type": "object", "required": ["x"], "properties": {
            "x": {"anyOf": [{"$ref": "#/$defs/R", "required": ["x", "y"]}, {"type": "null"}]},
            "y": {"type": "string"}}}}}),
    "an item that is an allOf of the definition with a sibling": (True, {
        "type": "object", "properties": {"b": {"$ref": "#/$defs/R"}}, "required": ["b"],
        "$defs": {"R": {"type": "array", "items": {"allOf": [{"$ref": "#/$defs/R"}], "maxItems": 3}}}}),
}


@pytest.mark.parametrize("target", list(RECURSION_CODES), ids=lambda t: "-".join(filter(None, t)))
@pytest.mark.parametrize("case", list(SELF_INLINING))
def test_a_definition_met_again_inside_its_own_inlining_is_refused_at_once(case, target):
    descends, schema = SELF_INLINING[case]
    res = compile_params(schema, *target)
    codes = [d.code for d in res.diagnostics]
    assert res.status != "strict"
    assert RECURSION_CODES[target][descends] in codes, codes
    # Found at the first repeat: a level or two of findings, not one per level of an unfolding.
    assert _records(res) < 30, codes
    assert not any(c.endswith("/schema-too-deep") for c in codes), codes


def test_a_definition_inlined_twice_side_by_side_is_no_recursion():
    """The same `$ref` with siblings at two places, neither inside the other, and a definition inlined
    inside another definition's inlining: written out, each is finite, and the tool stays strict."""
    schema = {"type": "object", "required": ["a", "b", "c"], "properties": {
        "a": {"$ref": "#/$defs/S", "enum": ["x", "y"]}, "b": {"$ref": "#/$defs/S", "enum": ["y"]},
        "c": {"$ref": "#/$defs/O", "required": ["p"]}},
        "$defs": {"S": {"type": "string"}, "O": {"type": "object", "properties": {
            "p": {"$ref": "#/$defs/S", "enum": ["p"]}, "q": {"$ref": "#/$defs/S", "enum": ["q"]}},
            "required": ["q"]}}}
    for target in RECURSION_CODES:
        res = compile_params(schema, *target)
        assert res.status == "strict", (target, [d.code for d in res.diagnostics])


def _legacy_chain(n: int) -> dict:
    """n definitions (legacy `definitions`), each the allOf of the next named twice, once with a
    description and once with a title beside the `$ref`."""
    defs = {f"D{i}": {"allOf": [{"$ref": f"#/definitions/D{i + 1}", "description": "a"},
                                {"$ref": f"#/definitions/D{i + 1}", "title": "b"}],
                      "properties": {f"x{i}": {"type": "string"}}} for i in range(n)}
    defs[f"D{n}"] = {"type": "object", "properties": {"z": {"type": "string"}}}
    return {"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#/definitions/D0"}}, "definitions": defs}


def test_annotated_refs_to_one_definition_are_merged_once_per_place():
    """Annotations beside a `$ref` do not change what its target means: the target merged at a place
    is taken from the memo whatever annotations stand beside the `$ref` (it was merged again for each,
    2**n merges for n levels). Each resolution of a legacy `definitions` reference is recorded (as
    rewrote-definitions-reference, before the result drops repeats): their count is the merges'."""
    counts = []
    for n in (8, 16):
        walk = Walk(get_rules(None))
        walk_schema(walk, _legacy_chain(n))
        counts.append(sum(1 for t in walk.trans if t[0] == "rewrote-definitions-reference"))
        assert counts[-1] <= 2 * n, counts
    res = compile_params(_legacy_chain(16))
    assert res.status == "strict"
    assert set(res.tool["parameters"]["$defs"]["D0"]["properties"]) == {f"x{i}" for i in range(16)} | {"z"}


# -- keywords whose meaning depends on others beside them ----------------------------------------------

# (parts of an allOf, the keyword a merge would change the meaning of, or None: the merge is exact)
DEPENDENT_MERGES = {
    "items beside another part's prefixItems": (
        [{"type": "array", "prefixItems": [{"type": "integer"}]}, {"items": {"type": "string"}}], "items"),
    "prefixItems and items in one part, prefixItems again": (
        [{"prefixItems": [{"type": "integer"}], "items": {"type": "string"}}, {"prefixItems": [{"type": "integer"}]}],
        None),
    "additionalItems beside another part's items": (
        [{"additionalItems": {"type": "string"}}, {"items": [{"type": "integer"}]}], "additionalItems"),
    "minContains without contains": ([{"contains": {"type": "integer"}}, {"minContains": 2}], "contains"),
    "contains beside minContains 0": (
        [{"contains": {"type": "integer"}}, {"contains": {"type": "integer"}, "minContains": 0}], "contains"),
    "maxContains with the same contains": (
        [{"contains": {"type": "integer"}, "maxContains": 2}, {"minItems": 1}], None),
    "else without if": ([{"if": {"minimum": 0}, "then": {"maximum": 9}}, {"else": {"const": -1}}], "else"),
    "then and else under the same if": (
        [{"if": {"minimum": 0}, "then": {"maximum": 9}}, {"if": {"minimum": 0}, "else": {"const": -1}}], None),
    "unevaluatedProperties beside another part's properties": (
        [{"properties": {"a": {}}, "unevaluatedProperties": False}, {"properties": {"b": {}}}], "unevaluatedProperties"),
    "unevaluatedItems beside another part's items": (
        [{"prefixItems": [{}], "unevaluatedItems": False}, {"minItems": 1, "items": {"type": "integer"}}],
        "unevaluatedItems"),
    "additionalProperties beside another part's properties": (
        [{"additionalProperties": {"type": "integer"}}, {"properties": {"a": {"type": "string"}}}],
        "additionalProperties"),
    "additionalProperties beside another part's patternProperties": (
        [{"patternProperties": {"^x": {"type": "string"}}}, {"additionalProperties": {"type": "integer"}}],
        "additionalProperties"),
    "a closed part's patterns beside another part's property": (
        [{"properties": {"a": {}}, "patternProperties": {"^x": {"type": "string"}}, "additionalProperties": False},
         {"properties": {"xb": {"type": "integer"}}}], "additionalProperties"),
    "additionalProperties beside the same names": (
        [{"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}},
         {"properties": {"a": {"minLength": 1}}}], None),
}
WITNESSES = [None, -1, 0, 5, 10, "", "x", [], [0], ["x"], [0, "x"], [0, 0], [1, 2, 3], [-1, "x", 2], {}, {"a": "s"},
             {"a": ""}, {"a": 1}, {"b": 1}, {"xb": "s"}, {"xb": 1}, {"a": "s", "c": 2}, {"a": "s", "c": "t"}]


@pytest.mark.parametrize("case", list(DEPENDENT_MERGES))
def test_a_merge_keeps_what_each_keyword_reads_beside_it_or_is_refused(case, monkeypatch):
    """A keyword whose meaning depends on others beside it (JSON Schema 2020-12: `items` applies
    after `prefixItems`, `then` follows `if`, ...) merged beside another part's keywords would mean
    something else there; such a merge is refused as a conflict, and every other one accepts
    exactly what the allOf does (checked with rules that keep every keyword)."""
    from jsonschema import Draft202012Validator

    from toolcast.rules import Rules

    parts, conflict = DEPENDENT_MERGES[case]
    monkeypatch.setattr(Rules, "dropped", lambda self, keyword: False)
    walk = Walk(get_rules(None))
    merged = _merge(walk, list(parts), ("allOf",))
    conflicts = [dict(d[3])["keyword"] for d in walk.diags if d[0] == "openai/ref-sibling-conflict"]
    if conflict is not None:
        assert merged is None and conflicts == [conflict], (merged, walk.diags)
        return
    assert merged is not None and not conflicts, walk.diags
    both, one = Draft202012Validator({"allOf": parts}), Draft202012Validator(merged)
    assert [w for w in WITNESSES if both.is_valid(w) != one.is_valid(w)] == [], merged


_PREFIXED = {"type": "array", "prefixItems": [{"type": "integer"}]}
_ALL_STRINGS = {"type": "array", "items": {"type": "string"}}
# (the property's schema) -> a `$ref` to _PREFIXED is #/$defs/P, one to _ALL_STRINGS #/$defs/S
PREFIX_SPLITS = {
    "allOf": {"allOf": [_PREFIXED, {"items": {"type": "string"}}]},
    "items beside a $ref": {"$ref": "#/$defs/P", "items": {"type": "string"}},
    "prefixItems beside a $ref": {"$ref": "#/$defs/S", "prefixItems": [{"type": "integer"}]},
    "items beside an anyOf": {"type": "array", "items": {"type": "string"}, "anyOf": [{"prefixItems": [{"type": "integer"}]}]},
    # JSON-Schema-Test-Suite items.json, "items does not look in applicators, valid case", as a property
    "the suite's items in applicators": {"allOf": [{"prefixItems": [{"minimum": 3}]}], "items": {"minimum": 5}},
}


@pytest.mark.parametrize("target", ["gemini", "vertex"])
@pytest.mark.parametrize("case", list(PREFIX_SPLITS))
def test_items_and_another_parts_prefix_items_are_not_merged_into_one_object(case, target):
    """In the original the part with `items` constrains every element; merged beside another part's
    `prefixItems` it constrained only those after it ({"a": [0, "x"]} was accepted strict). Where
    prefixItems is kept (api json-schema), the merge is refused as a conflict."""
    schema = {"type": "object", "required": ["a"], "properties": {"a": PREFIX_SPLITS[case]},
              "$defs": {"P": _PREFIXED, "S": _ALL_STRINGS}}
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, target=target, api="json-schema")
    assert res.status != "strict"
    assert f"{target}/ref-sibling-conflict" in {d.code for d in res.diagnostics}


def test_prefix_items_and_items_of_one_object_stay_strict():
    """`prefixItems` and `items` given together (or merged from parts that agree on prefixItems) keep
    their meaning: sent strict, as before."""
    for a in ({"type": "array", "prefixItems": [{"type": "integer"}], "items": {"type": "string"}},
              {"allOf": [{"type": "array", "prefixItems": [{"type": "integer"}], "items": {"type": "string"}},
                         {"prefixItems": [{"type": "integer"}]}]}):
        schema = {"type": "object", "required": ["a"], "properties": {"a": a}}
        for target in ("gemini", "vertex"):
            res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, target=target,
                                        api="json-schema")
            assert res.status == "strict", (target, [d.code for d in res.diagnostics])


# -- inlining stays linear ---------------------------------------------------------------------------


def _sibling_chain(n: int) -> dict:
    """n definitions, each an anyOf of the next with a sibling (inlined) and bare."""
    defs = {f"D{i}": {"anyOf": [{"$ref": f"#/$defs/D{i + 1}", "minLength": 1}, {"$ref": f"#/$defs/D{i + 1}"}]}
            for i in range(n)}
    defs[f"D{n}"] = {"type": "string"}
    return {"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#/$defs/D0"}}, "$defs": defs}


def _all_of_fan(n: int) -> dict:
    """n definitions, each an anyOf of two allOfs of the next (each merged in, so inlined)."""
    defs = {f"D{i}": {"anyOf": [{"allOf": [{"$ref": f"#/$defs/D{i + 1}"}]},
                                {"allOf": [{"$ref": f"#/$defs/D{i + 1}"}], "title": "b"}]} for i in range(n)}
    defs[f"D{n}"] = {"type": "string"}
    return {"type": "object", "properties": {"a": {"$ref": "#/$defs/D0"}}, "required": ["a"], "$defs": defs}


TARGETS = [("openai", None), ("gemini", "parameters"), ("vertex", "parameters"), ("gemini", "json-schema"),
           ("vertex", "json-schema"), ("anthropic", None)]


@pytest.mark.parametrize("make", [_sibling_chain, _all_of_fan], ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("target", TARGETS, ids=lambda t: "-".join(filter(None, t)))
def test_an_inlining_that_doubles_per_definition_is_refused_at_the_cap(make, target):
    """Each definition inlines the next twice: written out, 2**n copies of the last (14 of them gave
    800 KB, 24 took ten minutes). The nodes a compile inlines are counted, and past INLINE_GUARD the
    schema is refused (inlined-schema-too-large) before more work is done."""
    from toolcast.walk import semantics

    res = compile_params(make(14), *target)
    if make is _sibling_chain and get_rules(res.rules).dropped("minLength"):
        pytest.skip("minLength is not kept there: no sibling, nothing inlined")
    assert res.status != "strict"
    assert f"{target[0]}/inlined-schema-too-large" in {d.code for d in res.diagnostics}
    walk = Walk(get_rules(res.rules))
    walk_schema(walk, make(14))
    assert semantics.INLINE_GUARD < walk.n_inlined <= semantics.INLINE_GUARD + 5  # (the last target counted: 5 nodes)
    # Once past the cap nothing more is inlined: the records are those of about 20,000 nodes, not 2**14 levels'.
    assert len(walk.diags) + len(walk.trans) < semantics.INLINE_GUARD


def test_the_inline_cap_counts_exactly(monkeypatch):
    """Under the cap a schema is inlined and sent as before; one node over it, refused."""
    from toolcast.walk import combinators

    walk = Walk(get_rules(None))
    walk_schema(walk, _all_of_fan(6))
    used = walk.n_inlined
    assert compile_params(_all_of_fan(6)).status == "strict"
    monkeypatch.setattr(combinators, "INLINE_GUARD", used)
    assert compile_params(_all_of_fan(6)).status == "strict"
    monkeypatch.setattr(combinators, "INLINE_GUARD", used - 1)
    res = compile_params(_all_of_fan(6))
    assert res.status == "non-strict"
    assert [d.message for d in res.diagnostics if d.code == "openai/inlined-schema-too-large"] == [
        f"Inlining the references gives a schema of more than {used - 1} nodes; it is not sent."]


def test_merges_that_inline_each_definition_once_per_place_stay_linear():
    """The shapes the growth benchmark measures, and a pydantic v1 model whose fields are each an allOf
    of one enum definition: inlined once per place, well under the cap, sent strict."""
    n = 128
    defs = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}],
                      "description": f"level {i}"} for i in range(n)}
    defs[f"d{n}"] = {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}
    twice = {"type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}, "required": ["a"], "$defs": defs}
    fields = {f"f{i}": {"allOf": [{"$ref": "#/definitions/Color"}], "description": f"field {i}"} for i in range(400)}
    pydantic = {"type": "object", "properties": fields, "required": list(fields),
                "definitions": {"Color": {"title": "Color", "enum": ["red", "green"], "type": "string"}}}
    for schema, most in ((twice, 4 * n), (pydantic, 4 * 400)):
        walk = Walk(get_rules(None))
        walk_schema(walk, schema)
        assert 0 < walk.n_inlined <= most
        assert compile_params(schema).status == "strict"


def test_whether_null_is_a_value_is_judged_once_per_definition(monkeypatch):
    """allows_null followed every path of a $ref chain again (2**n for definitions that each refer
    twice to the next, bare: nothing inlined); a target judged with no path cut short at a $ref of
    the chain is remembered."""
    from toolcast.walk import semantics

    calls = 0
    judge = semantics._ref_allows_null

    def counting(*args):
        nonlocal calls
        calls += 1
        return judge(*args)

    monkeypatch.setattr(semantics, "_ref_allows_null", counting)
    n = 20
    defs = {f"D{i}": {"anyOf": [{"$ref": f"#/$defs/D{i + 1}"}, {"$ref": f"#/$defs/D{i + 1}", "description": "x"}]}
            for i in range(n)}
    defs[f"D{n}"] = {"type": "string"}  # (null nowhere: every branch of every level is judged)
    res = compile_params({"type": "object", "properties": {"a": {"$ref": "#/$defs/D0"}}, "$defs": defs})
    assert 0 < calls <= 2 * n
    assert res.status == "strict" and res.null_paths == (("a",),)  # made nullable: its null is stripped


@pytest.mark.parametrize(("k", "s", "target", "restated"), [
    # `contains` beside minContains 0 in the target is void there; beside none it asks for one match.
    ("contains", {"contains": {"type": "integer"}}, {"type": "array", "contains": {"type": "integer"}, "minContains": 0},
     False),
    ("contains", {"contains": {"type": "integer"}}, {"type": "array", "contains": {"type": "integer"}}, True),
    ("then", {"if": {"minimum": 1}, "then": {"maximum": 9}}, {"if": {"minimum": 2}, "then": {"maximum": 9}}, False),
    ("unevaluatedProperties", {"unevaluatedProperties": False},
     {"type": "object", "properties": {"a": {}}, "unevaluatedProperties": False}, False),
    ("additionalProperties", {"additionalProperties": False, "properties": {"a": {"type": "string"}}},
     {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": False}, True),
    ("items", {"items": {"type": "string"}}, {"type": "array", "prefixItems": [{}], "items": {"type": "string"}}, False),
])
def test_a_ref_sibling_is_redundant_only_beside_what_it_reads_in_the_target(k, s, target, restated):
    """A sibling of `$ref` equal to the target's own is dropped as redundant only where what it reads
    beside it (walk.siblings) reads the same in both: `contains` beside the target's `minContains: 0`
    does not repeat a `contains` that asks for one match."""
    assert _restated(k, s[k], s, target) is restated


# Keywords beside an anyOf that some branch contradicts (that branch admits nothing there, as a
# `false` one): the anyOf still admits the other branches' values. Each used to refuse the whole
# tool as unsatisfiable-schema ("the parts admit no type in common").
NARROWED_BY_SIBLINGS = {
    "a null branch beside a type": ({"type": "integer", "anyOf": [{"type": "integer"}, {"type": "null"}]},
                                    [1], [None, "a"]),
    "a type list that keeps one branch": ({"type": ["integer", "string"], "anyOf": [{"type": "integer"},
                                                                                   {"type": "boolean"}]},
                                          [1], ["a", True, None]),
    "a oneOf beside an anyOf": ({"anyOf": [{"type": "integer"}, {"type": "string"}],
                                 "oneOf": [{"type": "integer"}, {"type": "string"}]}, [1, "a"], [True, None]),
}


@pytest.mark.parametrize("target", ["openai", "anthropic"])
@pytest.mark.parametrize("name", sorted(NARROWED_BY_SIBLINGS))
def test_an_any_of_branch_its_siblings_exclude_is_left_out_not_refused(name, target):
    from jsonschema import Draft202012Validator

    prop, accepted, rejected = NARROWED_BY_SIBLINGS[name]
    schema = {"type": "object", "properties": {"x": prop}, "required": ["x"], "additionalProperties": False}
    res = compile_params(schema, target)
    assert res.status == "strict" and not res.lossy, [d.code for d in res.diagnostics]
    assert "removed-false-subschema" in {t.code for t in res.transformations}
    sent = Draft202012Validator(res.tool.get("parameters") or res.tool["input_schema"])
    orig = Draft202012Validator(schema)
    for v in accepted:
        assert sent.is_valid({"x": v}) and orig.is_valid({"x": v}), v
    for v in rejected:
        assert not sent.is_valid({"x": v}) and not orig.is_valid({"x": v}), v


@pytest.mark.parametrize("target", ["openai", "anthropic"])
def test_an_any_of_whose_every_branch_its_siblings_exclude_is_unsatisfiable(target):
    prop = {"type": "integer", "anyOf": [{"type": "string"}, {"type": "null"}]}
    res = compile_params({"type": "object", "properties": {"x": prop}, "required": ["x"], "additionalProperties": False},
                         target)
    assert res.status == "non-strict"
    found = [d for d in res.diagnostics if d.code == f"{target}/unsatisfiable-schema"]
    assert [d.path for d in found] == ["#/properties/x/anyOf"]
