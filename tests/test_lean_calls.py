"""OpenAI's lean reading of a response's calls (toolcast._runtime.lean_calls) gives what the careful reading
gives, for Chat `tool_calls` and Responses `output` items alike, errors and their places included."""

from __future__ import annotations

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
    optional={"call_id": FIELD, "name": FIELD, "arguments": FIELD, "id": FIELD})
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
