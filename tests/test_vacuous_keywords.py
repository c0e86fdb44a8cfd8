"""Policy type_keywords `per-type` (DeepSeek): a keyword that constrains one JSON type only is dropped from
the strict form where the node's settled type excludes it, as an exact fix, and a type list where it constrains
some of the types only is split into `anyOf` of one branch per type, exact too; providers without the policy
send it as written."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from oracles import deepseek as deepseek_oracle
from spec_folder import openai_only_spec

from toolcast.compile import compile_tool
from toolcast.nulls import strip_nulls
from toolcast.rules import Rules
from toolcast.walk import actions

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_tables  # noqa: E402
import speclib  # noqa: E402

NEW = "9999-12-31"  # a version no maintainer will date (extends OpenAI's 2026-10-17)


def _tool(schema: dict) -> dict:
    return {"name": "t", "description": "d", "parameters": schema}


def _deepseek(schema: dict):
    res = compile_tool(_tool(schema), target="deepseek")
    return res, res.tool["function"]


def _found(res) -> tuple[set, set]:
    """(diagnostic codes, transformation codes) with their places."""
    return ({(d.code, d.path) for d in res.diagnostics}, {(t.code, t.path) for t in res.transformations})


def _obj(**props) -> dict:
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


def test_a_merged_all_of_root_loses_its_number_bounds_exactly():
    # JSON-Schema-Test-Suite allOf[2]: the root reads as an object, where minimum/maximum constrain nothing.
    schema = {"allOf": [{"maximum": 30}, {"minimum": 20}]}
    res, fn = _deepseek(schema)
    assert res.status == "strict" and fn["strict"] is True
    params = fn["parameters"]
    assert params["type"] == "object" and "minimum" not in params and "maximum" not in params
    diags, trans = _found(res)
    assert {("deepseek/keyword-not-for-type", "#/minimum"), ("deepseek/keyword-not-for-type", "#/maximum")} <= diags
    assert {("dropped-vacuous-keyword", "#/minimum"), ("dropped-vacuous-keyword", "#/maximum")} <= trans
    assert not any(t.lossy for t in res.transformations)
    assert deepseek_oracle.tool_violations(res.tool, res.rules) == []
    assert schema == {"allOf": [{"maximum": 30}, {"minimum": 20}]}  # the input is not changed


@pytest.mark.parametrize(("sub", "kept"), [
    ({"type": "string", "minimum": 3}, {"type": "string"}),
    ({"type": ["string", "null"], "maximum": 3, "pattern": "^x"}, {"type": ["string", "null"], "pattern": "^x"}),
    ({"type": "integer", "pattern": "^1", "minimum": 0}, {"type": "integer", "minimum": 0}),
    ({"type": "number", "multipleOf": 2, "exclusiveMaximum": 9}, {"type": "number", "multipleOf": 2, "exclusiveMaximum": 9}),
    ({"type": "boolean", "exclusiveMinimum": 1}, {"type": "boolean"}),
    ({"type": "object", "properties": {}, "required": [], "additionalProperties": False, "minimum": 1},
     {"type": "object", "properties": {}, "required": [], "additionalProperties": False}),
])
def test_only_the_keywords_the_type_excludes_are_dropped(sub, kept):
    # (each shape alone, as a property: the walk's planned path for a leaf or an object; in an array's
    #  items; and in a definition behind a $ref)
    for schema, at in (
        (_obj(a=sub), ("properties", "a")),
        (_obj(a={"type": "array", "items": sub}), ("properties", "a", "items")),
        ({**_obj(a={"$ref": "#/$defs/A"}), "$defs": {"A": sub}}, ("$defs", "A")),
    ):
        res, fn = _deepseek(copy.deepcopy(schema))
        node = fn["parameters"]
        for step in at:
            node = node[step]
        assert node == kept, (schema, node)
        dropped = {p.rsplit("/", 1)[1] for c, p in _found(res)[1] if c == "dropped-vacuous-keyword"}
        assert dropped == set(sub) - set(kept)
        assert res.status == "strict"
        assert deepseek_oracle.tool_violations(res.tool, res.rules) == []


def test_a_keyword_vacuous_on_its_type_is_no_loss_even_where_the_provider_lacks_it():
    # minLength is unsupported by DeepSeek (dropped, lossy), but on an integer it constrains nothing: the
    # tool stays strict.
    res, fn = _deepseek(_obj(n={"type": "integer", "minLength": 2}, s={"type": "string", "minLength": 2}))
    trans = _found(res)[1]
    assert ("dropped-vacuous-keyword", "#/properties/n/minLength") in trans
    assert ("dropped-unsupported-keyword", "#/properties/s/minLength") in trans  # on a string it is a loss
    assert res.status != "strict"  # (the string's loss: sent as written, without strict)
    res, fn = _deepseek(_obj(n={"type": "integer", "minLength": 2}))
    assert res.status == "strict" and fn["strict"] is True
    assert fn["parameters"]["properties"]["n"] == {"type": "integer"}


def test_keywords_merged_in_from_a_ref_and_in_any_of_branches():
    schema = {**_obj(a={"$ref": "#/$defs/S", "minimum": 1},
                     b={"anyOf": [{"type": "string", "maximum": 4}, {"type": "integer", "maximum": 4}]}),
              "$defs": {"S": {"type": "string"}}}
    res, fn = _deepseek(schema)
    props = fn["parameters"]["properties"]
    assert "minimum" not in str(props["a"])
    assert props["b"]["anyOf"][0] == {"type": "string"} and props["b"]["anyOf"][1]["maximum"] == 4
    assert deepseek_oracle.tool_violations(res.tool, res.rules) == []


def test_providers_without_the_policy_send_the_keyword_as_written():
    schema = _obj(a={"type": "string", "minimum": 3})
    for target in ("openai", "xai", "anthropic"):
        res = compile_tool(_tool(copy.deepcopy(schema)), target=target)
        codes = {t.code for t in res.transformations} | {d.code.split("/")[1] for d in res.diagnostics}
        assert "dropped-vacuous-keyword" not in codes and "keyword-not-for-type" not in codes, target
    res = compile_tool(_tool(copy.deepcopy(schema)), target="openai")
    assert res.tool["parameters"]["properties"]["a"]["minimum"] == 3


# -- the policy is data: a YAML edit turns it on for another provider; the generator refuses what the
#    walk cannot do with it
@pytest.fixture
def openai_spec(tmp_path) -> Path:
    return openai_only_spec(tmp_path)


def _new_version(spec: Path, body: str) -> None:
    (spec / "openai" / f"{NEW}.yaml").write_text(
        f'provider: openai\nversion: "{NEW}"\nreviewed: "2026-12-01"\nextends: "2026-10-17"\nsummary: test\n{body}',
        encoding="utf-8")


_PER_TYPE = "policy:\n  type_keywords: {rule: per-type, cite: [O-SO]}\n"
_ACTIVE = ("diagnostics:\n  openai/keyword-not-for-type: {status: active}\n"
           "transformations:\n  dropped-vacuous-keyword: {status: active}\n  split-type-list-to-any-of: {status: active}\n")


def test_a_yaml_edit_gives_another_provider_the_policy(openai_spec, tmp_path):
    import importlib.util

    _new_version(openai_spec, _PER_TYPE + _ACTIVE)
    out = tmp_path / "tables"
    assert gen_tables.main(["--spec", str(openai_spec), "--out", str(out), "--docs", str(tmp_path / "codes.md")]) == 0
    module = gen_tables.module_name("openai", NEW)
    loaded = importlib.util.spec_from_file_location(f"tc_{module}_{tmp_path.name}", out / f"{module}.py")
    m = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(m)
    rules = Rules(m)
    res = compile_tool(_tool(_obj(a={"type": "string", "minimum": 3})), rules=rules)
    assert res.tool["parameters"]["properties"]["a"] == {"type": "string"}
    assert ("openai/keyword-not-for-type", "#/properties/a/minimum") in _found(res)[0]


def test_the_policy_with_its_codes_left_reserved_is_refused(openai_spec):
    # (the catalogue reserves both codes: only a provider stating the policy emits them)
    _new_version(openai_spec, _PER_TYPE)
    with pytest.raises(speclib.SpecError) as info:
        gen_tables.build(openai_spec)
    assert info.value.path == "diagnostics.openai/keyword-not-for-type"
    assert "marked reserved (never emitted), but the walk reports pattern 'keyword-not-for-type'" in info.value.message


def test_the_policy_is_refused_where_the_walk_has_no_action_for_it(openai_spec, monkeypatch):
    monkeypatch.setitem(actions.OPTIONAL_POLICY, "type_keywords", ("any",))
    _new_version(openai_spec, _PER_TYPE + _ACTIVE)
    with pytest.raises(speclib.SpecError) as info:
        gen_tables.build(openai_spec)
    assert info.value.path == "policy.type_keywords.rule"
    assert "no action for policy.type_keywords 'per-type'" in info.value.message


# -- a keyword of one type beside a type list that also holds another: not vacuous, so not dropped; the
#    list is split into anyOf, one branch per type with its own type's keywords (exact)
_VALUES = (None, True, False, 0, 1, 2, 3, 4, 5, 2.5, -1, -2.5, "", "a", "ab", "ba", "abc", [], ["x"], [1], ["x", "y"],
           {}, {"q": 1}, {"q": "x"}, {"q": 1, "r": 2})


@pytest.mark.parametrize("sub", [
    {"type": ["integer", "string"], "minimum": 1},
    {"type": ["string", "number"], "maximum": 3, "exclusiveMinimum": -1, "multipleOf": 1, "pattern": "^a"},
    {"type": ["integer", "string", "null"], "minimum": 1, "pattern": "b", "description": "either"},
    {"type": ["number", "string", "boolean"], "maximum": 3, "enum": [1, 5, 2.5, "a", True, None]},
    {"type": ["array", "integer"], "items": {"type": "string"}, "multipleOf": 2},
    {"type": ["object", "string"], "properties": {"q": {"type": "integer"}}, "required": ["q"],
     "additionalProperties": False, "pattern": "^a"},
])
def test_a_type_list_with_a_keyword_of_some_of_its_types_is_split_into_any_of(sub):
    # (JSON Schema reads `minimum` beside `type: [integer, string]` as "an integer at least 1, or any string";
    #  DeepSeek takes `minimum` only on a number/integer schema: its oracle's `number-keyword`.)
    for schema, at in (
        (_obj(a=sub), ("properties", "a")),
        (_obj(a={"type": "array", "items": sub}), ("properties", "a", "items")),
        ({**_obj(a={"$ref": "#/$defs/A"}), "$defs": {"A": sub}}, ("$defs", "A")),
    ):
        given = copy.deepcopy(schema)
        res, fn = _deepseek(given)
        assert given == schema  # (the input is not changed)
        assert res.status == "strict" and fn["strict"] is True and not res.lossy, _found(res)
        assert deepseek_oracle.tool_violations(res.tool, res.rules) == []
        assert ("split-type-list-to-any-of", "#/" + "/".join((*at, "type"))) in _found(res)[1]
        node = fn["parameters"]
        for step in at:
            node = node[step]
        assert "type" not in node and [b["type"] for b in node["anyOf"]] == [
            t for t in sub["type"] if "enum" not in sub or any(
                Draft202012Validator({"type": t}).is_valid(v) for v in sub["enum"])]
        # the form sent accepts exactly the values the original does
        sent, original = Draft202012Validator(fn["parameters"]), Draft202012Validator(schema)
        for v in _VALUES:
            value = {"a": [v]} if "items" in at else {"a": v}
            assert sent.is_valid(value) == original.is_valid(value), (schema, v, fn["parameters"])


def test_an_optional_property_of_such_a_type_list_gets_a_null_branch():
    res, fn = _deepseek({"type": "object", "properties": {"a": {"type": ["integer", "string"], "minimum": 1}}})
    assert res.status == "strict" and deepseek_oracle.tool_violations(res.tool, res.rules) == []
    assert fn["parameters"]["properties"]["a"] == {
        "anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}, {"type": "null"}]}
    assert res.null_paths  # (null stands for "left out", stripped at run time as for any optional property)


@pytest.mark.parametrize("sub", [
    {"type": ["integer", "number"], "minimum": 1},  # number keywords constrain both
    {"type": ["string", "null"], "pattern": "^a"},  # null beside one type: the nullable reading (C-P7)
    {"type": ["integer", "string"], "description": "no keyword of one type"},
])
def test_a_type_list_every_keyword_of_which_fits_every_type_stays_a_list(sub):
    res, fn = _deepseek(_obj(a=copy.deepcopy(sub)))
    assert fn["parameters"]["properties"]["a"] == sub
    assert "split-type-list-to-any-of" not in {c for c, _ in _found(res)[1]}
    assert deepseek_oracle.tool_violations(res.tool, res.rules) == []


def test_providers_without_the_policy_keep_the_type_list():
    schema = _obj(a={"type": ["integer", "string"], "minimum": 1})
    for target in ("openai", "xai"):
        res = compile_tool(_tool(copy.deepcopy(schema)), target=target)
        assert res.tool is not None and "split-type-list-to-any-of" not in {t.code for t in res.transformations}
        params = res.tool["function"]["parameters"] if "function" in res.tool else res.tool["parameters"]
        assert params["properties"]["a"]["type"] == ["integer", "string"], target


def test_the_split_is_recorded_alike_whether_or_not_the_walk_builds_the_form():
    # (a refusal first, an open map: the walk stops building the form; the findings stay those of a
    #  walk that builds it, as tests/test_walk_builds.py checks for the other rules)
    props = {"map": {"type": "object", "additionalProperties": {"type": "string"}},
             "n": {"type": ["integer", "string"], "minimum": 1},
             "o": {"type": ["object", "string"], "properties": {"q": {"type": "integer"}}},
             "l": {"type": ["array", "integer"], "items": {"type": "string"}}}
    found = _walked_both_ways(props)
    assert sum(t[0] == "split-type-list-to-any-of" for t in found[1]) == 3


def _walked_both_ways(props: dict) -> tuple:
    """The findings (diagnostics, changes, counts) of DeepSeek's walk of an object of `props`, the same
    whether the walk builds the form or stopped building it at its refusal (`map`, an open map)."""
    from toolcast.rules import get_rules
    from toolcast.walk import Walk, walk_schema

    schema = {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}
    found = []
    for builds_refused in (True, False):
        w = Walk(get_rules("deepseek@latest"))
        w.builds_refused = builds_refused
        walk_schema(w, copy.deepcopy(schema))
        assert w.refusals and w.builds is builds_refused  # (the second walk stopped building at `map`)
        found.append((w.diags, w.trans, w.n_props, w.n_enum))
    assert found[0] == found[1]
    return found[0]


# -- a node with no `type` and a keyword of one type: beside an enum or const it gets its members' types, else
#    the type its keywords imply (a reported narrowing); and keywords merged parts give different values where
#    the merged type is another
_MORE_VALUES = (*_VALUES, 6, 9, 10, 2.0, -4, "x", "xa", "ab", "b", "cab", [2], [-1], {"q": -1})


def _places(sub: dict):
    """(schema, where the node is, the argument a value of the node stands in, whether it is optional)"""
    yield _obj(a=sub), ("properties", "a"), lambda v: {"a": v}
    yield _obj(a={"type": "array", "items": sub}), ("properties", "a", "items"), lambda v: {"a": [v]}
    yield {**_obj(a={"$ref": "#/$defs/A"}), "$defs": {"A": sub}}, ("$defs", "A"), lambda v: {"a": v}
    yield _obj(a={"anyOf": [sub, {"type": "boolean"}]}), ("properties", "a", "anyOf", 0), lambda v: {"a": v}
    yield _obj(a={"type": "object", "properties": {"b": sub}, "additionalProperties": False}), (
        "properties", "a", "properties", "b"), lambda v: {"a": {"b": v}}  # (optional: sent nullable)


def _narrowed(schema: dict, res) -> dict:
    """`schema` with each type the walk reported inferring from a keyword (`inferred-type`, note `(number)`)
    written where it inferred it. A type read from an enum's members says no more than the enum: left out."""
    out = copy.deepcopy(schema)
    for t in res.transformations:
        kind = t.detail.rsplit("(", 1)[-1].rstrip(")") if t.code == "inferred-type" else ""
        if kind not in ("string", "number", "integer", "boolean", "object", "array", "null"):
            continue
        node = out
        for token in t.tokens:
            node = node[token]
        node.setdefault("type", kind)
    return out


def _sent_each_way(schema: dict, wrap=lambda v: {"a": v}):
    """The results of `schema` compiled for DeepSeek in each mode, each checked: the input unchanged, the tool
    accepted by DeepSeek's oracle, and, where it is sent strict without a loss, a form that accepts exactly the
    values the original does once narrowed as reported (`wrap(v)`: the arguments value `v` of the node stands in;
    a null where the form sent put one for a left-out property aside; DESIGN: a narrowing is never lossy but is
    reported, so a type the walk inferred from a keyword is the tool's meaning)."""
    results = []
    for mode in ({}, {"allow_lossy": True}, {"strict": True}, {"strict": False}):
        given = copy.deepcopy(schema)
        res = compile_tool(_tool(given), target="deepseek", **mode)
        assert given == schema
        results.append(res)
        if res.tool is None:
            continue
        assert deepseek_oracle.tool_violations(res.tool, res.rules) == [], (schema, mode, res.tool)
        fn = res.tool["function"]
        if fn["strict"] is True and not res.lossy:
            sent, original = Draft202012Validator(fn["parameters"]), Draft202012Validator(_narrowed(schema, res))
            for v in _MORE_VALUES:
                value = wrap(v)
                ok = original.is_valid(value) or original.is_valid(strip_nulls(value, res.null_paths))
                assert sent.is_valid(value) == ok, (schema, value, fn["parameters"])
    return results


@pytest.mark.parametrize("sub", [
    {"multipleOf": 2, "enum": [1, 2, 4, "x"]},
    {"minimum": 0, "const": "x"},
    {"minimum": 0, "const": 3, "description": "three"},
    {"exclusiveMaximum": 3, "enum": [1, 2.5, 5, "a", True, None]},
    {"maximum": 2, "pattern": "^a", "enum": [1, 3, "ab", "ba"]},
    {"multipleOf": 2, "enum": [2.0, 3, -4]},
])
def test_a_typeless_node_with_a_keyword_of_some_types_gets_its_enum_members_types(sub):
    # (the type the enum or const allows is exact; drop_vacuous and split_types then give each type its keywords)
    for schema, at, wrap in _places(sub):
        results = _sent_each_way(schema, wrap)
        res = results[0]
        assert res.status == "strict" and not res.lossy, (schema, _found(res))
        assert ("inferred-type", "#/" + "/".join(map(str, at))) in _found(res)[1]


@pytest.mark.parametrize("sub", [
    {"minimum": 0},
    {"multipleOf": 2, "description": "even, or anything else"},
    {"exclusiveMinimum": 0, "maximum": 9},
    {"pattern": "^a"},
])
def test_a_typeless_node_with_a_keyword_of_one_type_is_given_that_type_as_for_every_provider(sub):
    # (DESIGN: a narrowing is never lossy but is reported; `{"minimum": 0}` reads as a number under every
    #  provider's rules, DeepSeek's per-type keyword lists included, and the form sent carries its keyword)
    for schema, at, wrap in _places(sub):
        res = _sent_each_way(schema, wrap)[2]
        assert res.status == "strict" and not res.lossy, (schema, _found(res))
        assert ("inferred-type", "#/" + "/".join(map(str, at))) in _found(res)[1]


@pytest.mark.parametrize("sub", [
    {"items": {"type": "string"}, "minItems": 1},  # `items` implies the type, as for every provider
    {"format": "email", "pattern": "@"},
])
def test_a_keyword_outside_the_per_type_table_still_implies_the_type(sub):
    res, _ = _deepseek(_obj(a=copy.deepcopy(sub)))
    assert ("inferred-type", "#/properties/a") in _found(res)[1]
    assert deepseek_oracle.tool_violations(res.tool, res.rules) == []


@pytest.mark.parametrize("sub", [
    {"type": ["integer", "null"], "pattern": "b$", "anyOf": [{"pattern": "^a"}, {"minimum": 2}]},
    {"type": ["string", "number"], "multipleOf": 3, "anyOf": [{"type": "string", "multipleOf": 2}, {"type": "integer"}]},
    {"type": ["null", "integer"], "exclusiveMinimum": 1, "multipleOf": 3,
     "anyOf": [{"multipleOf": 2, "maximum": 9, "type": "string"}, {}]},
    {"type": ["boolean", "integer"], "pattern": "b$", "anyOf": [{"pattern": "^a", "minimum": 1}, {"type": "boolean"}]},
    {"allOf": [{"type": ["boolean", "string"], "multipleOf": 2}, {"multipleOf": 3, "pattern": "^a"}]},
])
def test_a_merge_drops_the_keywords_its_parts_clash_on_where_the_merged_type_excludes_them(sub):
    # (before the policy's reading, two `pattern`s or `multipleOf`s were a conflict, and the tool refused: the
    #  siblings of an anyOf are merged into each branch, and an allOf's parts into one node)
    for schema, _, wrap in _places(sub):
        res = _sent_each_way(schema, wrap)[2]
        assert res.status == "strict" and not res.lossy, (schema, _found(res))
        # (dropped where the branch is kept; a branch of no type in common is left out, as without a clash)
        assert {"dropped-vacuous-keyword", "removed-false-subschema"} & {c for c, _ in _found(res)[1]}


def test_a_ref_sibling_that_clashes_with_its_target_where_their_type_excludes_it():
    schema = {**_obj(a={"$ref": "#/$defs/B", "multipleOf": 2}), "$defs": {"B": {"type": ["string", "boolean"], "multipleOf": 3}}}
    res = _sent_each_way(schema)[2]
    assert res.status == "strict" and not res.lossy, _found(res)


@pytest.mark.parametrize("sub", [
    {"type": ["integer", "string"], "multipleOf": 2, "anyOf": [{"multipleOf": 3}, {"pattern": "^a"}]},
    {"type": ["integer", "string"], "pattern": "^a", "anyOf": [{"pattern": "b$"}, {"minimum": 3}]},
])
def test_a_clash_on_a_type_the_merged_node_keeps_is_still_a_conflict(sub):
    res = _sent_each_way(_obj(a=sub))[2]
    assert res.status == "refused" and "deepseek/ref-sibling-conflict" in {c for c, _ in _found(res)[0]}


@pytest.mark.parametrize("sub", [
    {"type": ["number", "null", "boolean"], "minimum": 3, "maximum": 5, "const": "a", "description": "d"},
    {"type": ["integer", "string"], "multipleOf": 2, "enum": [True, None]},
    {"minimum": 1, "enum": []},
])
def test_a_node_no_value_of_whose_type_is_in_its_enum_is_sent_in_a_form_deepseek_takes(sub):
    # (it admits nothing: the keywords that do not apply to each of its types constrain nothing, and go)
    for schema, _, wrap in _places(sub):
        _sent_each_way(schema, wrap)


def test_a_seeded_sweep_of_typeless_nodes_type_lists_and_anyof_is_sent_as_promised():
    # (the shapes above mixed: each place, each mode; what is sent DeepSeek takes, and strict without a loss is exact)
    import random

    rng = random.Random(41)
    values = {"minimum": (0, 1, 3), "maximum": (3, 5), "multipleOf": (1, 2), "exclusiveMinimum": (-1, 0),
              "pattern": ("^a", "b"), "enum": None, "const": (2, "a", None, 4), "description": ("d",)}

    def shape(depth: int) -> dict:
        s: dict = {}
        if rng.random() < 0.6:
            types = rng.sample(["integer", "number", "string", "boolean", "null"], rng.randint(1, 3))
            s["type"] = types[0] if len(types) == 1 and rng.random() < 0.5 else types
        for k, choices in values.items():
            if rng.random() < 0.25:
                s[k] = rng.sample([1, 2, 4, 2.5, "a", "ab", "x", True, None], rng.randint(1, 4)) if choices is None \
                    else rng.choice(choices)
        if depth == 0 and rng.random() < 0.35:
            s["anyOf"] = [shape(1), shape(1)]
        return s

    for _ in range(30):
        for schema, _, wrap in _places(shape(0)):
            _sent_each_way(schema, wrap)


def test_the_new_readings_are_recorded_alike_whether_or_not_the_walk_builds_the_form():
    props = {"map": {"type": "object", "additionalProperties": {"type": "string"}},
             "e": {"multipleOf": 2, "enum": [1, 2, "x"]},
             "n": {"minimum": 0, "const": "x"},
             "v": {"type": ["integer", "null"], "pattern": "b$", "anyOf": [{"pattern": "^a"}, {"minimum": 2}]},
             "u": {"type": ["number", "boolean"], "minimum": 3, "enum": ["a"]}}
    codes = [t[0] for t in _walked_both_ways(props)[1]]
    assert codes.count("inferred-type") == 2 and codes.count("dropped-vacuous-keyword") >= 3
