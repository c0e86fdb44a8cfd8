"""OpenAI's lean reading of a response's calls (toolcast._runtime.lean_calls) gives what the careful reading
gives, for Chat `tool_calls` and Responses `output` items alike, errors and their places included."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolcast._runtime.lean_calls import openai_raws
from toolcast._runtime.loop import ResponseShapeError
from toolcast.providers.openai import _raw_from_item, tool_calls
from toolcast.toolset import ToolSet

FIELD = st.none() | st.sampled_from(["c1", "", "git__status", '{"n": 1}', "function", "function_call", "message"]) \
    | st.integers(0, 2) | st.just({"name": "git__status", "arguments": "{}"})
CHAT = st.fixed_dictionaries(
    {"id": FIELD, "function": st.fixed_dictionaries({"name": FIELD, "arguments": FIELD}) | FIELD},
    optional={"type": st.sampled_from(["function", "custom", None]) | FIELD})
RESPONSES = st.fixed_dictionaries(
    {"type": st.sampled_from(["function_call", "message", "reasoning"]) | FIELD},
    optional={"call_id": FIELD, "name": FIELD, "arguments": FIELD, "id": FIELD,
              "status": st.sampled_from(["completed", "in_progress", "incomplete"]) | FIELD})
ITEM = CHAT | RESPONSES | FIELD


def _careful(items: list, path: str) -> tuple:
    raws = []
    for i, item in enumerate(items):
        try:
            raw = _raw_from_item(item, f"{path}[{i}]")
        except ResponseShapeError as exc:
            return tuple(raws), str(exc)
        if raw is not None:
            raws.append(tuple(raw))
    return tuple(raws), None


def _lean(items: list, path: str) -> tuple:
    raws: list = []
    try:  # (a generator: a bad item raises when it is reached)
        for raw in openai_raws(items, path, _raw_from_item):
            raws.append(tuple(raw))
    except ResponseShapeError as exc:
        return tuple(raws), str(exc)
    return tuple(raws), None


@given(st.lists(ITEM, max_size=4))
def test_the_lean_reading_is_the_careful_one(items):
    lean, careful = _lean(items, "response.tool_calls"), _careful(items, "response.tool_calls")
    assert lean == careful  # the same calls, up to the same error at the same place


def test_a_chat_completion_of_plain_dicts_is_read_by_the_lean_path_with_its_api():
    toolset, _ = ToolSet.build({"git": [{"name": "status", "inputSchema": {"type": "object"}}]})
    message = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "git__status", "arguments": "{}"}},
        {"id": "b", "function": {"name": "git__status", "arguments": '{"x": 1}'}}]}  # (`type` left out)
    calls, rejected = tool_calls({"choices": [{"message": message}]}, toolset)
    assert not rejected
    assert [(c.call_id, c.name, c.arguments, c.api) for c in calls] == [
        ("a", "git__status", {}, "chat"), ("b", "git__status", {"x": 1}, "chat")]
    assert calls[0].output("done") == {"role": "tool", "tool_call_id": "a", "content": "done"}


PURGE = {"name": "purge", "inputSchema": {"type": "object", "properties": {"scope": {"type": "string", "default": "all"}}}}
MOVE = {"name": "move", "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]}}


def _response(status, arguments, sdk):
    body = {"id": "r", "object": "response", "created_at": 0, "model": "m", "status": "incomplete",
            "output": [{"type": "function_call", "call_id": "c1", "name": "purge", "arguments": arguments,
                        "id": "fc1", "status": status}], "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
    if sdk:
        from openai.types.responses import Response

        return Response.model_validate(body)
    return body


@pytest.mark.parametrize("sdk", [False, True], ids=["dict", "sdk"])
@pytest.mark.parametrize("status", ["in_progress", "incomplete"])
@pytest.mark.parametrize("arguments", ["", '{"scope": "temp"}'])
def test_a_responses_call_that_is_not_whole_is_not_run(status, arguments, sdk):
    toolset, _ = ToolSet.build([PURGE])
    calls, rejected = tool_calls(_response(status, arguments, sdk), toolset)
    assert calls == [] and rejected == [{"type": "function_call_output", "call_id": "c1", "output": (
        f"Error: the call to tool 'purge' is not complete (its status is {status!r}); it was not run. "
        "Call the tool again with all its arguments.")}]
    calls, rejected = tool_calls(_response("completed", arguments, sdk), toolset)  # a whole call: run
    assert rejected == [] and calls[0].arguments == json.loads(arguments or "{}")


@pytest.mark.parametrize("sdk", [False, True], ids=["dict", "sdk"])
def test_a_chat_call_left_empty_by_the_length_limit_is_not_run(sdk):
    toolset, _ = ToolSet.build([PURGE])
    message = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "purge", "arguments": '{"scope": "x"}'}},
        {"id": "b", "type": "function", "function": {"name": "purge", "arguments": ""}}]}
    completion = {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                  "choices": [{"index": 0, "finish_reason": "length", "message": message}]}
    if sdk:
        from openai.types.chat import ChatCompletion

        completion = ChatCompletion.model_validate(completion)
    calls, rejected = tool_calls(completion, toolset)
    assert [(c.call_id, c.arguments) for c in calls] == [("a", {"scope": "x"})]
    assert [r["tool_call_id"] for r in rejected] == ["b"] and "finish_reason 'length'" in rejected[0]["content"]
    completion = json.loads(json.dumps(completion if not sdk else completion.model_dump(mode="json")))
    completion["choices"][0]["finish_reason"] = "tool_calls"  # a whole response: "" is a zero-argument call
    calls, rejected = tool_calls(completion, toolset)
    assert rejected == [] and [c.arguments for c in calls] == [{"scope": "x"}, {}]


@pytest.mark.parametrize("empty", ["", "  ", None])
def test_no_arguments_for_a_tool_that_requires_some_are_rejected(empty):
    from toolcast import anthropic as tc_anthropic
    from toolcast import gemini as tc_gemini

    toolset, _ = ToolSet.build([MOVE, PURGE])
    calls, rejected = tool_calls({"output": [
        {"type": "function_call", "call_id": c, "name": n, "arguments": empty} for c, n in (("c1", "move"), ("c2", "purge"))]},
        toolset)
    assert [c.name for c in calls] == ["purge"]
    assert rejected[0]["output"] == ("Error: arguments for tool 'move' are empty, but it requires 'to': "
                                     "the call was not run. Call the tool again with its arguments.")
    if empty is None:  # (decoded arguments left out: Anthropic's input, Gemini's args)
        calls, rejected = tc_anthropic.tool_calls({"content": [{"type": "tool_use", "id": "t", "name": "move"}]}, toolset)
        assert calls == [] and "requires 'to'" in rejected[0]["content"][0]["text"]
        calls, rejected = tc_gemini.tool_calls({"parts": [{"functionCall": {"name": "move"}}]}, toolset)
        assert calls == [] and "requires 'to'" in json.dumps(rejected)
