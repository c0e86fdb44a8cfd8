"""JSON value semantics: equality as JSON Schema means it, merges that keep both sides, oneOf proofs
that cover every value, and limits counted on what is sent (issue 17 items 1 and 5, issue 21 items 1
and 2)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import RULES, Judge, examples

import toolcast


def compiled(schema: dict, rules: str | None = None, **opts):
    return toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, rules=rules, **opts)


def prop(x: dict, **extra) -> dict:
    """A root object whose one required property `x` has schema `x`."""
    return {"type": "object", "properties": {"x": x}, "required": ["x"], **extra}


def codes(result) -> set:
    return {d.code.split("/", 1)[1] for d in result.diagnostics}


def assert_exact(schema: dict, result, values: list) -> None:
    """`result` is strict and not lossy, and its compiled schema accepts {"x": v} exactly when the
    original does, for each of `values`."""
    assert result.status == "strict" and not result.lossy, (result.status, codes(result))
    orig, comp = Judge(schema), Judge(result.tool["parameters"])
    for v in values:
        assert orig.valid({"x": v}) == comp.valid({"x": v}), (v, result.tool["parameters"])


# The values JSON equality tells apart (true is not 1, 1 is 1.0) and some others.
SCALARS = [True, False, 1, 1.0, 0, 0.0, 2, "a", "b", "1", "true", None, [1], [True], {"a": 1}, {"a": True}]


# -- 17.1: JSON equality is not Python equality ------------------------------------------------

@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("parts", [
    [{"enum": [1, "a"]}, {"enum": [True, "a"]}],
    [{"enum": [True, "a"]}, {"enum": [1, "a"]}],
    [{"enum": [0, "a"]}, {"enum": [False, "a"]}],
    [{"enum": [1, 2]}, {"enum": [1.0, 2.0]}],
    [{"const": 1}, {"const": True}],
    [{"const": 1}, {"enum": [True, 1.0]}],
    [{"enum": [False, 0]}, {"const": 0.0}],
], ids=repr)
def test_all_of_values_compare_as_json(parts, rules):
    schema = prop({"allOf": parts})
    r = compiled(schema, rules)
    if not any(Judge(schema).valid({"x": v}) for v in SCALARS):
        assert r.status != "strict", r.tool  # unsatisfiable: refused, never sent as something wider
        return
    assert_exact(schema, r, SCALARS)


@pytest.mark.parametrize("rules", RULES)
def test_property_schemas_that_python_calls_equal_are_both_kept(rules):
    # {"const": 1} == {"const": True} in Python: the merge must not take one for the other.
    schema = prop({"allOf": [
        {"type": "object", "properties": {"k": {"enum": [1, 2]}}, "required": ["k"], "additionalProperties": False},
        {"type": "object", "properties": {"k": {"enum": [True, 2]}}, "required": ["k"], "additionalProperties": False},
    ]})
    r = compiled(schema, rules)
    assert r.status == "strict" and not r.lossy
    orig, comp = Judge(schema), Judge(r.tool["parameters"])
    for v in SCALARS:
        assert orig.valid({"x": {"k": v}}) == comp.valid({"x": {"k": v}}), v


@pytest.mark.parametrize("rules", RULES)
def test_ref_sibling_enum_compares_as_json(rules):
    schema = prop({"$ref": "#/$defs/C", "enum": [True, "a"]}, **{"$defs": {"C": {"enum": [1, "a"]}}})
    r = compiled(schema, rules)
    assert_exact(schema, r, SCALARS)


def test_json_key_is_the_one_equality():
    from toolcast.walk.semantics import json_equal, json_key

    same = [(1, 1.0), ([1, {"a": 2.0}], [1.0, {"a": 2}]), ({"a": [0]}, {"a": [0.0]}), ("x", "x"), (None, None)]
    different = [(1, True), (0, False), ([1], [True]), ({"a": 1}, {"a": True}), (None, False), ("1", 1), ([1, 2], [2, 1])]
    for a, b in same:
        assert json_key(a) == json_key(b) and json_equal(a, b), (a, b)
    for a, b in different:
        assert json_key(a) != json_key(b) and not json_equal(a, b), (a, b)


# -- 21.2: a merge keeps every constraint of both sides ----------------------------------------

@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("node, defs", [
    ({"$ref": "#/$defs/C", "enum": ["a", "b"]}, {"C": {"const": "b"}}),
    ({"$ref": "#/$defs/C", "const": "b"}, {"C": {"enum": ["a", "b"]}}),
    ({"$ref": "#/$defs/C", "enum": ["a"]}, {"C": {"const": "z"}}),
    ({"$ref": "#/$defs/C", "const": "a"}, {"C": {"const": "z"}}),
    ({"$ref": "#/$defs/C", "const": 1}, {"C": {"const": True}}),
    ({"allOf": [{"$ref": "#/$defs/C"}, {"enum": ["a", "b"]}]}, {"C": {"const": "b"}}),
    ({"$ref": "#/$defs/C", "type": "integer"}, {"C": {"type": "number", "minimum": 1}}),
    ({"$ref": "#/$defs/C", "type": "string"}, {"C": {"type": "string", "nullable": True}}),
    ({"$ref": "#/$defs/C", "nullable": True}, {"C": {"type": "string"}}),
    ({"allOf": [{"type": ["string", "null"]}, {"type": "string", "nullable": True}]}, {}),
    ({"allOf": [{"type": "string", "nullable": True}, {"type": "integer", "nullable": True}]}, {}),
    ({"allOf": [{"type": "string"}, {"type": "integer"}]}, {}),
], ids=repr)
def test_merge_keeps_both_sides(node, defs, rules):
    schema = prop(node, **({"$defs": defs} if defs else {}))
    r = compiled(schema, rules)
    # The original as toolcast reads it (OpenAPI `nullable: true` admits null) is the judge.
    from test_semantics_spot import openapi_nullable

    orig = Judge(openapi_nullable(schema))
    if not any(orig.valid({"x": v}) for v in SCALARS):
        assert r.status != "strict", r.tool  # unsatisfiable: refused, never sent as something wider
        assert "unsatisfiable-schema" in codes(r)
        return
    if r.status != "strict":
        # Sent as the original for a reason of the rule version (a keyword it lacks), not the merge.
        assert codes(r).isdisjoint({"ref-sibling-conflict", "unsatisfiable-schema"}), codes(r)
        return
    assert not r.lossy, codes(r)
    comp = Judge(r.tool["parameters"])
    for v in SCALARS + [1.5, 0.5, "z", ""]:
        assert orig.valid({"x": v}) == comp.valid({"x": v}), (v, r.tool["parameters"])


# -- 21.1: oneOf -> anyOf proofs cover every value a branch accepts ----------------------------

def _kind(v: str, types) -> dict:
    return {"type": types, "properties": {"kind": {"const": v}}, "required": ["kind"]}


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("branches", [
    [_kind("a", ["object", "null"]), _kind("b", ["object", "null"])],
    [{"type": "string", "nullable": True}, {"type": "integer", "nullable": True}],
    [{"type": ["string", "null"]}, {"type": ["integer", "null"]}],
    [{"properties": {"kind": {"const": "a"}}, "required": ["kind"]}, {"properties": {"kind": {"const": "b"}}, "required": ["kind"]}],
    [_kind("a", ["object", "string"]), _kind("b", ["object", "string"])],
    [{"type": "number"}, {"type": "integer"}],
    [{"enum": ["a", 1]}, {"type": "integer"}],
    [{"enum": ["a", 1.0]}, {"enum": [1, "b"]}],
    [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}],
], ids=repr)
def test_one_of_proof_that_does_not_hold_is_lossy(branches, rules):
    schema = prop({"oneOf": branches}, **{"$defs": {"A": _kind("a", ["object", "null"]),
                                                    "B": _kind("b", ["object", "null"])}})
    r = compiled(schema, rules)
    assert "one-of-exclusive-converted" not in codes(r)
    assert any(t.code == "converted-one-of-to-any-of" and t.lossy for t in r.transformations)
    assert r.status != "strict"  # lossy, and lossy changes are not allowed by default


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("branches", [
    [_kind("a", "object"), _kind("b", ["object", "null"])],
    [_kind("a", "object"), _kind("b", "object"), {"type": ["string", "null"]}],
    [{"type": "string", "nullable": True}, {"type": "integer"}],
    [{"enum": ["a", 1.5]}, {"type": "integer"}],
    [{"const": True}, {"const": 1}],
    [{"properties": {"kind": {"const": "a"}}, "required": ["kind"]}, _kind("b", "object")],
    [{"type": "string"}, {"const": None}, {"type": "object", "properties": {}, "additionalProperties": False}],
], ids=repr)
def test_one_of_proof_that_holds_is_exact(branches, rules):
    from test_semantics_spot import openapi_nullable

    schema = prop({"oneOf": branches})
    r = compiled(schema, rules)
    if r.status != "strict":
        assert "one-of-exclusive-converted" in codes(r) or "one-of-converted-to-any-of" not in codes(r)
        return
    assert "one-of-exclusive-converted" in codes(r) and not r.lossy
    orig, comp = Judge(openapi_nullable(schema)), Judge(r.tool["parameters"])
    narrowed = "type-inferred" in codes(r)  # a typeless branch is sent as an object (reported)
    for v in SCALARS + [1.5, {"kind": "a"}, {"kind": "b"}, {}]:
        if comp.valid({"x": v}):
            assert orig.valid({"x": v}), (v, r.tool["parameters"])
        elif not narrowed:
            assert not orig.valid({"x": v}), (v, r.tool["parameters"])


# -- property tests: generated branches and merge pairs, judged by jsonschema ------------------

_VALUES = st.sampled_from([None, True, False, 0, 1, 1.0, 2, 1.5, -1, "", "a", "b", "ab"])
_TYPES = ["null", "boolean", "integer", "number", "string", "object"]


@st.composite
def _one_of_branch(draw) -> dict:
    b: dict = {}
    shape = draw(st.sampled_from(["type", "types", "none"]))
    if shape == "type":
        b["type"] = draw(st.sampled_from(_TYPES))
    elif shape == "types":
        b["type"] = draw(st.lists(st.sampled_from(_TYPES), min_size=1, max_size=3, unique=True))
    if isinstance(b.get("type"), str) and b["type"] != "null" and draw(st.booleans()) and draw(st.booleans()):
        b["nullable"] = True
    # (`nullable` beside const or enum is issue 21 item 3, OpenAPI's reading: not generated here.)
    listed = "none" if "nullable" in b else draw(st.sampled_from(["none", "const", "enum"]))
    if listed == "const":
        b["const"] = draw(_VALUES)
    elif listed == "enum":
        b["enum"] = draw(st.lists(_VALUES, min_size=1, max_size=3))
    if draw(st.booleans()):
        b["properties"] = {"kind": draw(st.sampled_from([{"const": "a"}, {"const": "b"}, {"enum": ["a", "b"]},
                                                         {"type": "string"}]))}
        b["required"] = ["kind"]
    return b


def _instances() -> list:
    return [{"x": v} for v in [None, True, False, 0, 1, 1.0, 2, 1.5, -1, "", "a", "b", "ab",
                               {}, {"kind": "a"}, {"kind": "b"}, {"kind": 1}, [1]]]


@examples(60)
@given(branches=st.lists(_one_of_branch(), min_size=2, max_size=3), rules=st.sampled_from(RULES))
def test_exclusive_one_of_proofs_hold_over_generated_branches(branches, rules):
    """(b) whatever a oneOf rewritten as an exact anyOf sends, the original accepts: a proof that
    missed a value two branches share (null, a non-object beside a discriminator) lets it through."""
    from test_semantics_spot import openapi_nullable

    schema = prop({"oneOf": branches})
    r = compiled(schema, rules)
    assume(r.status == "strict" and "one-of-exclusive-converted" in codes(r))
    orig, comp = Judge(openapi_nullable(schema)), Judge(r.tool["parameters"])
    for x in _instances():
        if comp.valid(x):
            assert orig.valid(x), (x, r.tool["parameters"])


@st.composite
def _leaf(draw) -> dict:
    """A leaf schema of the keywords a merge combines: type, enum, const, bounds, lengths, pattern,
    format (and OpenAPI nullable)."""
    s: dict = {}
    if draw(st.booleans()):
        s["type"] = draw(st.sampled_from(["integer", "number", "string", "boolean", "null",
                                          ["string", "null"], ["integer", "string"], ["number", "null"]]))
        if s["type"] in ("integer", "number", "string") and not draw(st.integers(0, 3)):
            s["nullable"] = True
    for kw, vals in (("minimum", [0, 1, 1.5, 2]), ("maximum", [1, 2, 2.5]), ("exclusiveMinimum", [0, 1]),
                     ("exclusiveMaximum", [2, 3]), ("minLength", [0, 1, 2]), ("maxLength", [1, 2])):
        if not draw(st.integers(0, 4)):
            s[kw] = draw(st.sampled_from(vals))
    listed = "none" if "nullable" in s else draw(st.sampled_from(["none", "none", "const", "enum"]))
    if listed == "const":
        s["const"] = draw(_VALUES)
    elif listed == "enum":
        s["enum"] = draw(st.lists(_VALUES, min_size=1, max_size=4))
    if not draw(st.integers(0, 5)):
        s["pattern"] = draw(st.sampled_from(["^a", "b$"]))
    if not draw(st.integers(0, 5)):
        s["format"] = "date"
    return s


_MERGE_VALUES = [None, True, False, 0, 1, 1.0, 2, 2.5, 3, 1.5, 0.5, -1, "", "a", "b", "ab", "ba", "bab", "z", [1], {}]


@examples(80)
@given(a=_leaf(), b=_leaf(), form=st.sampled_from(["allOf", "ref", "ref-reversed"]), rules=st.sampled_from(RULES))
def test_a_merge_accepts_exactly_the_intersection(a, b, form, rules):
    """For random pairs of leaf schemas, merged by allOf or as a $ref and its siblings, the compiled
    schema accepts exactly what both accept (boundary values included), or the tool is not sent
    strict; never something only one side accepts."""
    from test_semantics_spot import openapi_nullable

    if form == "allOf":
        schema = prop({"allOf": [a, b]})
        sides = [a, b]
    else:
        target, sibling = (a, b) if form == "ref" else (b, a)
        assume(sibling)
        schema = prop({"$ref": "#/$defs/T", **sibling}, **{"$defs": {"T": target}})
        # OpenAPI 3.0.3: a `nullable` beside `$ref` has no effect (the other siblings apply, 2020-12).
        sides = [target, {k: v for k, v in sibling.items() if k != "nullable"}]
    r = compiled(schema, rules)
    assume(r.status == "strict" and not r.lossy)
    # A $ref's siblings apply (2020-12): the original is judged with the target's constraints and
    # the siblings' both, OpenAPI `nullable` as OpenAPI 3.0.3 reads it, each on its own side.
    orig = Judge(prop({"allOf": [openapi_nullable(s) for s in sides]}))
    comp = Judge(r.tool["parameters"])
    narrowing = {"type-inferred"} & codes(r)
    for v in _MERGE_VALUES:
        x = {"x": v}
        if comp.valid(x):
            assert orig.valid(x), (x, r.tool["parameters"])
        elif not narrowing:
            assert not orig.valid(x), (x, r.tool["parameters"])


# -- 17.5: limits count what is sent -----------------------------------------------------------

def _limit(rules: str, counter: str):
    from toolcast.rules import get_rules

    return get_rules(rules).counted(counter)


def _enum_props(sizes: list, optional: bool) -> dict:
    props = {f"p{i}": {"type": "string", "enum": [f"v{i}_{j}" for j in range(n)]} for i, n in enumerate(sizes)}
    return {"type": "object", "properties": props, "required": [] if optional else list(props)}


def _sent_enum_values(tool: dict) -> int:
    n = 0
    stack = [tool]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if isinstance(x.get("enum"), list):
                n += len(x["enum"])
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return n


@pytest.mark.parametrize("rules", RULES)
def test_enum_values_count_the_null_of_optional_enums(rules):
    limit = _limit(rules, "enum-values")
    sizes = [limit.value // 4] * 4  # exactly the limit, as written
    required = compiled(_enum_props(sizes, optional=False), rules)
    assert limit.code not in {d.code for d in required.diagnostics}  # the limit itself is allowed
    assert _sent_enum_values(required.tool["parameters"]) == limit.value
    r = compiled(_enum_props(sizes, optional=True), rules)
    # Four optional enums are sent with null among their values: four values past the limit.
    assert limit.code in {d.code for d in r.diagnostics}
    assert r.status != "strict"


@pytest.mark.parametrize("rules", RULES)
def test_a_large_enum_counts_the_null_it_is_sent_with(rules):
    threshold, max_chars = _limit(rules, "enum-size"), _limit(rules, "enum-chars")
    width = max_chars.value // threshold.value + 1  # threshold values, just over the characters
    values = [f"{j:0{width}d}" for j in range(threshold.value)]
    schema = {"type": "object", "properties": {"p": {"type": "string", "enum": values}}}
    r = compiled(schema, rules)
    assert (max_chars.code, "#/properties/p/enum") in {(d.code, d.path) for d in r.diagnostics}
    schema["required"] = ["p"]  # not nullable: the threshold itself passes
    r = compiled(schema, rules)
    assert (max_chars.code, "#/properties/p/enum") not in {(d.code, d.path) for d in r.diagnostics}


def _rewrites_const(rules: str) -> bool:
    from toolcast.rules import get_rules

    return get_rules(rules).keywords["const"].handler == "const-to-enum"


@pytest.mark.parametrize("rules", [v for v in RULES if _rewrites_const(v)])
def test_a_const_sent_as_an_enum_counts_as_an_enum_value(rules):
    limit = _limit(rules, "enum-values")
    schema = _enum_props([limit.value - 1], optional=False)
    schema["properties"]["c1"] = {"const": "x"}
    schema["properties"]["c2"] = {"const": "y"}
    schema["required"] += ["c1", "c2"]
    r = compiled(schema, rules)
    assert _sent_enum_values(r.tool["parameters"]) == limit.value + 1 or r.status != "strict"
    assert limit.code in {d.code for d in r.diagnostics}


@pytest.mark.parametrize("rules", RULES)
def test_a_ref_merged_with_its_siblings_is_normalized_like_any_node(rules):
    # The target's oneOf, merged with a sibling, was left as oneOf and then dropped (lossy).
    schema = prop({"$ref": "#/$defs/C", "minimum": 1}, **{"$defs": {"C": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}})
    r = compiled(schema, rules)
    assert not [d for d in r.diagnostics if d.path.endswith("/oneOf") and d.code.endswith("/unsupported-keyword")]
    if r.status == "strict":
        assert_exact(schema, r, SCALARS + [0.5, 3, "zz"])
