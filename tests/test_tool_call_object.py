"""The ToolCall a reader returns, as a value users keep: equality (arguments compare as JSON), repr,
hash, the dataclass functions, frozen fields, copies and pickling, and the per-call `local` of a local
function. The same for a call built by tool_calls and one built by hand, in every provider's class."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

import toolcast
from toolcast import anthropic as tc_anthropic
from toolcast import gemini as tc_gemini
from toolcast import openai as tc_openai
from toolcast._runtime import loop as _loop
from toolcast.providers import loop as tc_wire
from toolcast.toolset import ToolSet

TOOLSET, _ = ToolSet.build({"d": [{"name": "s", "inputSchema": {"type": "object"}}]})


@toolcast.tool(description="Add.")
def add(a: int, b: int = 0) -> int:
    return a + b


def _read() -> dict[str, _loop.ToolCall]:
    """One call read by each provider's tool_calls, arguments {"q": "a", "n": 1}."""
    text = '{"q": "a", "n": 1}'
    (responses,), _ = tc_openai.tool_calls(
        [{"type": "function_call", "call_id": "c", "name": "d__s", "arguments": text}], TOOLSET)
    (chat,), _ = tc_openai.tool_calls(
        [{"id": "c", "type": "function", "function": {"name": "d__s", "arguments": text}}], TOOLSET)
    (claude,), _ = tc_anthropic.tool_calls(
        [{"type": "tool_use", "id": "t", "name": "d__s", "input": {"q": "a", "n": 1}}], TOOLSET)
    (gem,), _ = tc_gemini.tool_calls([{"functionCall": {"id": "g", "name": "d__s", "args": {"q": "a", "n": 1}}}], TOOLSET)
    return {"responses": responses, "chat": chat, "anthropic": claude, "gemini": gem}


def _by_hand() -> dict[str, _loop.ToolCall]:
    args = {"q": "a", "n": 1}
    return {
        "responses": tc_openai.ToolCall("c", "d__s", "d", "s", dict(args), "responses"),
        "chat": tc_openai.ToolCall("c", "d__s", "d", "s", dict(args), api="chat"),
        "anthropic": tc_anthropic.ToolCall("t", "d__s", "d", "s", dict(args)),
        "gemini": tc_gemini.ToolCall("g", "d__s", "d", "s", dict(args)),
    }


SHAPES = ("responses", "chat", "anthropic", "gemini")


@pytest.mark.parametrize("shape", SHAPES)
def test_a_read_call_is_the_call_built_by_hand(shape):
    read, made = _read()[shape], _by_hand()[shape]
    assert type(read) is type(made) and isinstance(read, _loop.ToolCall)
    assert read == made and (read != made) is False
    assert hash(read) == hash(made) and repr(read) == repr(made)
    assert read.local is None and made.local is None


def test_the_repr_and_the_fields_are_the_dataclass_ones():
    calls = _read()
    assert repr(calls["responses"]) == (
        "ToolCall(call_id='c', name='d__s', server='d', tool='s', arguments={'q': 'a', 'n': 1}, api='responses')")
    assert repr(calls["anthropic"]) == "ToolCall(call_id='t', name='d__s', server='d', tool='s', arguments={'q': 'a', 'n': 1})"
    assert [f.name for f in dataclasses.fields(calls["chat"])] == ["call_id", "name", "server", "tool", "arguments", "api"]
    assert [f.name for f in dataclasses.fields(calls["gemini"])] == ["call_id", "name", "server", "tool", "arguments"]
    assert dataclasses.asdict(calls["chat"]) == {
        "call_id": "c", "name": "d__s", "server": "d", "tool": "s", "arguments": {"q": "a", "n": 1}, "api": "chat"}
    assert dataclasses.astuple(calls["anthropic"]) == ("t", "d__s", "d", "s", {"q": "a", "n": 1})


def test_arguments_compare_as_json_and_calls_of_other_classes_differ():
    call = tc_anthropic.ToolCall("t", "n", "d", "s", {"x": 1, "f": 2.0})
    assert call == tc_anthropic.ToolCall("t", "n", "d", "s", {"x": 1.0, "f": 2})  # 1 is 1.0 in JSON
    assert call != tc_anthropic.ToolCall("t", "n", "d", "s", {"x": True, "f": 2.0})  # true is not 1
    assert call != tc_anthropic.ToolCall("u", "n", "d", "s", {"x": 1, "f": 2.0})
    assert call != tc_gemini.ToolCall("t", "n", "d", "s", {"x": 1, "f": 2.0})  # another provider's call
    assert tc_openai.ToolCall("c", "n", "d", "s", {}) != tc_openai.ToolCall("c", "n", "d", "s", {}, "chat")
    assert call != ("t", "n", "d", "s", {"x": 1, "f": 2.0})


def test_the_hash_leaves_the_arguments_out_so_calls_can_be_kept_in_a_set():
    a = tc_openai.ToolCall("c", "n", "d", "s", {"x": [1]})
    b = tc_openai.ToolCall("c", "n", "d", "s", {"x": [1.0]})
    assert hash(a) == hash(b) and len({a, b}) == 1
    assert hash(a) == hash(tc_openai.ToolCall("c", "n", "d", "s", {"other": 1}))  # equal or not, same hash
    assert {a: "kept"}[b] == "kept"


@pytest.mark.parametrize("shape", SHAPES)
def test_fields_are_frozen_and_replace_makes_a_new_call(shape):
    call = _read()[shape]
    with pytest.raises(dataclasses.FrozenInstanceError):
        call.name = "x"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del call.arguments  # type: ignore[misc]
    other = dataclasses.replace(call, call_id="z")
    assert type(other) is type(call) and other.call_id == "z" and other.arguments == call.arguments
    assert call.call_id != "z" and other != call


@pytest.mark.parametrize("shape", SHAPES)
def test_copies_and_pickles_are_equal_calls(shape):
    call = _read()[shape]
    for twin in (copy.copy(call), copy.deepcopy(call), pickle.loads(pickle.dumps(call))):
        assert type(twin) is type(call) and twin == call and repr(twin) == repr(call)
        assert twin.local is None
    deep = copy.deepcopy(call)
    deep.arguments["q"] = "changed"  # the arguments dict is the call's own, mutable
    assert call.arguments["q"] == "a"


def test_a_local_functions_call_carries_its_local_tool_and_keeps_it_in_a_copy():
    toolset, _ = ToolSet.build([add])
    name = toolset.names[0]
    (call,), rejected = tc_openai.tool_calls(
        [{"type": "function_call", "call_id": "c", "name": name, "arguments": '{"a": 2}'}], toolset)
    assert not rejected
    assert call.local is not None and call.local is toolset[name].local
    assert copy.copy(call).local is call.local
    plain = tc_openai.ToolCall("c", name, call.server, call.tool, {"a": 2})
    assert plain.local is None and "local" not in repr(call)
    (claude,), _ = tc_anthropic.tool_calls([{"type": "tool_use", "id": "t", "name": name, "input": {"a": 2}}], toolset)
    assert claude.local is call.local


def test_the_wire_readers_call_keeps_target_and_api():
    (call,), rejected = tc_wire.tool_calls(
        {"output": [{"type": "function_call", "call_id": "c", "name": "d__s", "arguments": '{"q": "a"}'}]},
        TOOLSET, target="openai", api="responses")
    assert not rejected
    assert isinstance(call, _loop.ToolCall) and (call.target, call.api) == ("openai", "responses")
    assert call == tc_wire.ToolCall("c", "d__s", "d", "s", {"q": "a"}, "openai", "responses")
    assert [f.name for f in dataclasses.fields(call)][-2:] == ["target", "api"]
    assert pickle.loads(pickle.dumps(call)) == call


def test_a_subclass_adds_its_own_fields():
    @dataclasses.dataclass(frozen=True, eq=False)
    class Traced(tc_openai.ToolCall):
        trace: str = ""

    call = Traced("c", "n", "d", "s", {"x": 1}, "chat", trace="t1")
    assert call.trace == "t1" and call.api == "chat" and call.local is None
    assert call == Traced("c", "n", "d", "s", {"x": 1.0}, "chat", trace="t1")
    assert call != Traced("c", "n", "d", "s", {"x": 1}, "chat", trace="t2")
    assert call.output("ok")["tool_call_id"] == "c"
