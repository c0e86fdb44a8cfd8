"""strip_nulls / fill_nulls: exactly the nulls at the null paths, nothing else, inputs untouched."""

from __future__ import annotations

import copy

import pytest

from toolcast import ITEMS, fill_nulls, strip_nulls


def test_conduit_doctest_d3() -> None:
    args = {"q": "x", "limit": None, "tags": [{"k": None}]}
    assert strip_nulls(args, [("limit",), ("tags", ITEMS, "k")]) == {"q": "x", "tags": [{}]}


def test_json_style_paths_use_none_for_items() -> None:
    assert strip_nulls({"a": [{"b": None}, {"b": 1}]}, [["a", None, "b"]]) == {"a": [{}, {"b": 1}]}


def test_only_nulls_at_paths_are_removed() -> None:
    args = {"a": None, "b": None, "c": {"a": None}, "d": 0, "e": "", "f": False, "g": []}
    out = strip_nulls(args, [("a",), ("d",), ("e",), ("f",), ("g",)])
    assert out == {"b": None, "c": {"a": None}, "d": 0, "e": "", "f": False, "g": []}


def test_input_is_not_mutated_and_unchanged_parts_are_shared() -> None:
    args = {"keep": {"deep": [1, 2]}, "x": {"y": None}}
    before = copy.deepcopy(args)
    out = strip_nulls(args, [("x", "y")])
    assert args == before
    assert out == {"keep": {"deep": [1, 2]}, "x": {}}
    assert out["keep"] is args["keep"]
    assert strip_nulls(args, [("nope",)]) is args


def test_paths_through_non_containers_are_ignored() -> None:
    # A null path into an object that the model sent as another branch (e.g. a string).
    assert strip_nulls({"a": "text", "b": [1, None]}, [("a", "z"), ("b", ITEMS, "c")]) == {"a": "text", "b": [1, None]}


def test_items_fan_out_and_nest() -> None:
    args = {"m": [[{"v": None}], [{"v": 2}, {"v": None}]]}
    assert strip_nulls(args, [("m", ITEMS, ITEMS, "v")]) == {"m": [[{}], [{"v": 2}, {}]]}


def test_items_sentinel_is_a_singleton_that_survives_copies() -> None:
    import pickle

    assert copy.deepcopy(ITEMS) is ITEMS
    assert pickle.loads(pickle.dumps(ITEMS)) is ITEMS
    assert repr(ITEMS) == "ITEMS"


@pytest.mark.parametrize(
    "args",
    [{"q": "x"}, {"q": "x", "limit": 3}, {"q": "x", "tags": [{"k": "a"}, {}]}, {"q": "x", "tags": []}],
)
def test_fill_then_strip_round_trips(args: dict) -> None:
    paths = [("limit",), ("tags",), ("tags", ITEMS, "k")]
    filled = fill_nulls(args, paths)
    assert "limit" in filled and "tags" in filled
    assert strip_nulls(filled, paths) == args


def _anyof_objects_tool() -> dict:
    # Issue 21 item 5: null paths name properties, not branches.
    return {"type": "object", "required": ["x"], "properties": {"x": {"anyOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {"type": "object", "properties": {"b": {"type": "integer"}, "c": {"$ref": "#/$defs/C"}}}]}},
        "$defs": {"C": {"type": "object", "properties": {"d": {"type": "boolean"}}}}}


@pytest.mark.parametrize("args", [{"x": {}}, {"x": {"b": 3}}, {"x": {"a": "s"}}, {"x": {"c": {}}}])
def test_fill_nulls_with_the_compiled_schema_fills_the_branch_the_value_fits(args: dict) -> None:
    import jsonschema

    import toolcast

    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": _anyof_objects_tool()})
    compiled = res.tool["parameters"]
    assert res.status == "strict" and ("x", "a") in res.null_paths and ("x", "b") in res.null_paths
    filled = fill_nulls(args, res.null_paths, schema=compiled)
    assert jsonschema.Draft202012Validator(compiled).is_valid(filled), filled
    assert strip_nulls(filled, res.null_paths) == args
    if args == {"x": {}}:
        assert filled == {"x": {"a": None}}
        # Without the schema every omitted property at a null path is filled: neither branch fits.
        assert not jsonschema.Draft202012Validator(compiled).is_valid(fill_nulls(args, res.null_paths))


def test_fill_nulls_with_a_schema_keeps_json_equality_and_items() -> None:
    schema = {"type": "object", "properties": {"k": {"anyOf": [
        {"type": "object", "properties": {"v": {"enum": [1]}, "p": {"type": ["string", "null"]}},
         "required": ["v", "p"], "additionalProperties": False},
        {"type": "object", "properties": {"v": {"enum": [True]}, "q": {"type": ["string", "null"]}},
         "required": ["v", "q"], "additionalProperties": False}]}},
        "required": ["k"], "additionalProperties": False}
    paths = [("k", "p"), ("k", "q")]
    assert fill_nulls({"k": {"v": True}}, paths, schema=schema) == {"k": {"v": True, "q": None}}
    assert fill_nulls({"k": {"v": 1.0}}, paths, schema=schema) == {"k": {"v": 1.0, "p": None}}
    listed = {"type": "array", "items": schema["properties"]["k"]}
    wrap = {"type": "object", "properties": {"l": listed}, "required": ["l"], "additionalProperties": False}
    assert fill_nulls({"l": [{"v": 1}, {"v": True}]}, [("l", ITEMS, "p"), ("l", ITEMS, "q")], schema=wrap) == {
        "l": [{"v": 1, "p": None}, {"v": True, "q": None}]}
