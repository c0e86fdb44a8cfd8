"""The run-time loop's fast paths give what its careful paths give: decoding, copying, stripping."""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolcast import anthropic as tc_anthropic
from toolcast import gemini as tc_gemini
from toolcast import openai as tc_openai
from toolcast._runtime import loop as _loop
from toolcast._runtime.json_limits import (
    JsonLimitError,
    _few_openers,
    _plain_json,
    loads_bounded,
    plain_json,
)
from toolcast.model import ITEMS
from toolcast.nulls import compiled_paths, strip_nulls, strip_owned
from toolcast.toolset import ToolSet

sys.path.insert(0, str(Path(__file__).parent))
from strategies import examples

KEYS = ["a", "b", "c", "null", "\u00e9", "\ud83d\ude00"]
SCALARS = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
    | st.sampled_from(["", "null", "x\\u", "\u00e9", "\ud800", "a\udc00b", "\ud83d\ude00"])
)  # fmt: skip
VALUES = st.recursive(
    SCALARS,
    lambda kids: st.lists(kids, max_size=3)
    | st.tuples(kids)
    | st.dictionaries(st.sampled_from(KEYS) | st.integers(0, 2), kids, max_size=4),
    max_leaves=20,
)
PATHS = st.lists(
    st.lists(st.sampled_from(["a", "b", "c", ITEMS]), min_size=1, max_size=3).map(tuple),
    max_size=5,
)


def _outcome(fn, *args, **kwargs):
    try:
        return "ok", fn(*args, **kwargs)
    except ValueError as exc:  # JsonLimitError and json's decode error
        return "error", str(exc)


def _same(a, b) -> bool:
    """Equal as data, NaN equal to itself (json.dumps spells both the same)."""
    return json.dumps(a, sort_keys=True, default=repr) == json.dumps(b, sort_keys=True, default=repr)


@examples(300)
@given(VALUES, st.integers(0, 4))
def test_plain_json_fast_copy_is_the_careful_one(value, depth):
    fast, careful = _outcome(plain_json, value, max_depth=depth), _outcome(
        _plain_json, value, max_depth=depth
    )
    assert fast[0] == careful[0] and _same(fast[1], careful[1])


def test_plain_json_copies_every_container_and_refuses_what_is_not_json():
    inner = {"b": [1, {"c": None}]}
    value = {"a": inner}
    copy = plain_json(value, max_depth=10)
    assert copy == value and copy["a"] is not inner and copy["a"]["b"] is not inner["b"]
    assert plain_json({"t": (1, 2)}, max_depth=5) == {"t": [1, 2]}
    for bad, words in [
        ({1: "x"}, "has a key of type int"),
        ({"x": math.nan}, "non-finite"),
        ({"\ud800": 1}, "lone surrogate"),
        ({"x": ["a\udfffb"]}, "lone surrogate"),
        ({"x": object()}, "no JSON form"),
        ({"x": {"y": {}}}, "nested more than 2"),
    ]:
        with pytest.raises(JsonLimitError, match=words):
            plain_json(bad, max_depth=2)


TEXTS = st.one_of(
    VALUES.map(lambda v: json.dumps(v, ensure_ascii=False, default=str)),
    VALUES.map(lambda v: " " + json.dumps(v) + "\n"),
    st.text(alphabet='{}[]",:0123456789nul \\ud8', max_size=30),
)


@examples(300)
@given(TEXTS)
def test_loads_bounded_is_json_loads_with_its_bounds(text):
    got = _outcome(loads_bounded, text, max_depth=3, max_bytes=200)
    try:
        expected = ("ok", json.loads(text))
    except (ValueError, RecursionError):
        expected = ("error", None)
    if got[0] == "ok":
        assert expected[0] == "ok" and _same(got[1], expected[1])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"a": "\\ud800"}', "lone surrogate"),
        ('{"a": "\ud800"}', "lone surrogate"),
        ("[" * 4 + "]" * 4, "nested more than 3"),
        ("[" * 4, "nested more than 3"),  # short and unbalanced: refused as too deep, as before
        ('[{"a": [[1]]}]', "nested more than 3"),
        ('{"a": 1} x', "Extra data"),
        ('{"a": NaN}', "NaN"),
        ('{"a": 1e400}', "out of range"),
    ],
)
def test_loads_bounded_refuses_after_the_fast_scan_too(text, words):
    with pytest.raises(ValueError, match=words):
        loads_bounded(text, max_depth=3, max_bytes=1000)


def test_loads_bounded_takes_surrounding_whitespace_and_a_surrogate_pair():
    assert loads_bounded(' {"a": [1]}\n', max_depth=3, max_bytes=100) == {"a": [1]}
    assert loads_bounded("[[[]]]", max_depth=3, max_bytes=100) == [[[]]]
    assert loads_bounded('{"a": "\\ud83d\\ude00"}', max_depth=3, max_bytes=100) == {"a": "\U0001f600"}


@examples(300)
@given(st.text(alphabet="{[]}x", max_size=40), st.integers(0, 12))
def test_few_openers_is_the_bracket_count(text, limit):
    assert _few_openers(text, limit) == (text.count("[") + text.count("{") <= limit)


def test_a_long_text_is_refused_as_too_deep_whatever_opens_its_levels():
    deep = '{"a": ' * 60 + "[" * 41 + "]" * 41 + "}" * 60  # 101 levels, 2 kinds of bracket
    with pytest.raises(JsonLimitError, match="nested more than 100"):
        loads_bounded(deep, max_depth=100, max_bytes=10**6)
    ok = '{"a": ' * 60 + "[" * 40 + "]" * 40 + "}" * 60
    assert loads_bounded(ok + " " * 300, max_depth=100, max_bytes=10**6)["a"]["a"]


@examples(300)
@given(VALUES, PATHS)
def test_strip_owned_strips_in_place_what_strip_nulls_strips(value, paths):
    if not _plainable(value):
        return
    owned = plain_json(value, max_depth=100)
    expected = strip_nulls(owned, paths)  # a copy: owned itself is left as it is
    assert _same(strip_owned(owned, compiled_paths(paths)), expected)


@examples(300)
@given(VALUES, PATHS, st.integers(0, 4), st.none() | st.integers(0, 120))
def test_plain_json_with_null_paths_is_the_copy_then_the_strip(value, paths, depth, max_bytes):
    # The copy leaves the nulls out as it copies (read_calls' arguments handed over decoded); the
    # same copy, then strip_owned: the same arguments, or the same error (a size is value's own).
    node = compiled_paths(paths)
    fused = _outcome(plain_json, value, depth, max_bytes, node)
    plain = _outcome(plain_json, value, depth, max_bytes)
    assert fused[0] == plain[0]
    if plain[0] == "ok":
        assert _same(fused[1], strip_owned(plain[1], node))
    else:
        assert fused[1] == plain[1]


def test_plain_json_with_null_paths_leaves_the_value_given_as_it_was():
    value = {"a": None, "b": {"a": None, "c": 1}, "c": [{"a": None}, (None,)], "\ud800": None}
    node = compiled_paths([("a",), ("b", "a"), ("c", ITEMS, "a"), ("c", ITEMS, ITEMS)])
    before = json.dumps(value)
    with pytest.raises(JsonLimitError, match="lone surrogate"):  # (the careful copy's error)
        plain_json(value, 10, None, node)
    del value["\ud800"]
    assert plain_json(value, 10, None, node) == {"b": {"c": 1}, "c": [{}, [None]]}  # (an item is no key)
    assert json.dumps(value) == before.replace(', "\\ud800": null', "")
    # Over the size limit with the nulls counted, under it without: refused, as a text would be.
    args = {"q": "x" * 20, "a": None}
    assert len(json.dumps(args, separators=(",", ":"))) == 37
    with pytest.raises(JsonLimitError, match="is larger than 36 bytes"):
        plain_json(args, 10, 36, compiled_paths([("a",)]))
    assert plain_json(args, 10, 37, compiled_paths([("a",)])) == {"q": "x" * 20}


def test_a_null_path_too_long_to_follow_is_refused_not_a_crash():
    from toolcast.nulls import MAX_PATH_STEPS, NullPathError, fill_nulls

    long = ("a",) * (MAX_PATH_STEPS + 1)
    for fn in (strip_nulls, fill_nulls):
        with pytest.raises(NullPathError, match=r"null_paths\[1\]: longer than 200 steps"):
            fn({"a": None}, [("a",), long])
    assert strip_nulls({"a": None}, [("a",) * MAX_PATH_STEPS, ("a",)]) == {}


def _plainable(value) -> bool:
    try:
        plain_json(value, max_depth=100)
    except JsonLimitError:
        return False
    return True


SCHEMA = {
    "type": "object",
    "properties": {
        "q": {"type": "string"},
        "n": {"type": "integer"},
        "f": {"type": "object", "properties": {"x": {"type": "string"}}},
    },
    "required": ["q"],
}
TOOLSET, _ = ToolSet.build({"d": [{"name": "s", "inputSchema": SCHEMA}]})
_, REPORT = tc_openai.tools(TOOLSET)
ARGS = {"q": "x", "n": None, "f": {"x": None}}


def test_the_caller_s_arguments_are_never_stripped_in_place():
    # Anthropic and Gemini hand over objects: the calls get stripped copies, the response keeps its nulls.
    block = {"type": "tool_use", "id": "t1", "name": "d__s", "input": json.loads(json.dumps(ARGS))}
    part = {"functionCall": {"id": "g1", "name": "d__s", "args": json.loads(json.dumps(ARGS))}}
    item = {"type": "function_call", "call_id": "c1", "name": "d__s", "arguments": dict(ARGS)}
    for read, response, held in [
        (tc_anthropic.tool_calls, [block], block["input"]),
        (tc_gemini.tool_calls, [part], part["functionCall"]["args"]),
        (tc_openai.tool_calls, [item], item["arguments"]),
    ]:
        calls, rejected = read(response, TOOLSET, REPORT)
        assert not rejected and calls[0].arguments == {"q": "x", "f": {}}
        assert held == ARGS


def test_a_text_without_null_is_read_as_it_is_and_a_string_null_is_not_stripped():
    item = {"type": "function_call", "call_id": "c", "name": "d__s", "arguments": '{"q": "null"}'}
    calls, _ = tc_openai.tool_calls([item], TOOLSET, REPORT)
    assert calls[0].arguments == {"q": "null"}
    item["arguments"] = '{"q": "a", "f": {"x": null}, "n": 3}'
    calls, _ = tc_openai.tool_calls([item], TOOLSET, REPORT)
    assert calls[0].arguments == {"q": "a", "f": {}, "n": 3}


@pytest.mark.parametrize(
    ("response", "path"),
    [
        ([{"type": "function_call", "call_id": 5, "name": "d__s", "arguments": "{}"}],
         "response[0].call_id"),
        ({"output": [{"type": "function_call", "call_id": "c", "name": 1}]}, "response.output[0].name"),
    ],
)  # fmt: skip
def test_a_badly_typed_field_is_still_reported_with_its_place(response, path):
    with pytest.raises(_loop.ResponseShapeError, match=path.replace("[", r"\[").replace("]", r"\]")):
        tc_openai.tool_calls(response, TOOLSET, REPORT)


def test_one_tool_call_base_and_calls_built_fast_equal_calls_built_plainly():
    item = {"type": "function_call", "call_id": "c", "name": "d__s", "arguments": '{"q": "a"}'}
    (call,), _ = tc_openai.tool_calls([item], TOOLSET, REPORT)
    plain = tc_openai.ToolCall("c", "d__s", "d", "s", {"q": "a"}, "responses")
    assert call == plain and hash(call) == hash(plain) and repr(call) == repr(plain)
    assert dataclasses.replace(call, call_id="z").call_id == "z"
    with pytest.raises(dataclasses.FrozenInstanceError):
        call.name = "x"  # type: ignore[misc]
    block = {"type": "tool_use", "id": "t", "name": "d__s", "input": {"q": "a"}}
    (claude,), _ = tc_anthropic.tool_calls([block], TOOLSET, REPORT)
    (gem,), _ = tc_gemini.tool_calls([{"functionCall": {"name": "d__s", "args": {}}}], TOOLSET, REPORT)
    for c in (call, claude, gem):
        assert isinstance(c, _loop.ToolCall)
    assert claude == tc_anthropic.ToolCall("t", "d__s", "d", "s", {"q": "a"}) != call
    assert gem.output("ok")["functionResponse"]["name"] == "d__s"
    assert claude.output("ok")["tool_use_id"] == "t"
