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
