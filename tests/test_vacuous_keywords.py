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
    from toolcast.rules import get_rules
    from toolcast.walk import Walk, walk_schema

    props = {"map": {"type": "object", "additionalProperties": {"type": "string"}},
             "n": {"type": ["integer", "string"], "minimum": 1},
             "o": {"type": ["object", "string"], "properties": {"q": {"type": "integer"}}},
             "l": {"type": ["array", "integer"], "items": {"type": "string"}}}
    schema = {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}
    found = []
    for builds_refused in (True, False):
        w = Walk(get_rules("deepseek@latest"))
        w.builds_refused = builds_refused
        walk_schema(w, copy.deepcopy(schema))
        assert w.refusals and w.builds is builds_refused  # (the second walk stopped building at `map`)
        found.append((w.diags, w.trans, w.n_props, w.n_enum))
    assert found[0] == found[1]
    assert sum(t[0] == "split-type-list-to-any-of" for t in found[0][1]) == 3
