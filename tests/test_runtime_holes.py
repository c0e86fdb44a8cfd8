"""Run-time holes found by attacking the loop as a user and an adversary would; each test fails on
the code before its fix."""

from __future__ import annotations

import asyncio

import pytest
from google.genai import types as gt

import toolcast
from toolcast import anthropic as tca
from toolcast import gemini as tcg
from toolcast import openai as tco
from toolcast._runtime.results import ToolResultError
from toolcast.mcp_runtime import execute_tool_calls


@pytest.fixture(scope="module")
def toolset():
    ts, _ = toolcast.ToolSet.build({"m": [{"name": "echo", "inputSchema": {"type": "object"}}],
                                     "n": [{"name": "echo", "inputSchema": {"type": "object"}}]})
    return ts


@pytest.mark.parametrize("response", [
    gt.GenerateContentResponse(prompt_feedback=gt.GenerateContentResponsePromptFeedback(block_reason="SAFETY")),
    gt.GenerateContentResponse(),
    gt.Content(role="model"),
    {"promptFeedback": {"blockReason": "SAFETY"}},
    {"role": "model"},
    {"candidates": None, "usageMetadata": {"promptTokenCount": 3}},
], ids=["sdk-blocked", "sdk-empty", "sdk-content-no-parts", "dict-blocked", "dict-content-no-parts", "dict-null-candidates"])
def test_a_gemini_answer_without_candidates_or_parts_holds_no_call(response, toolset):
    # A blocked prompt or an empty answer is a normal SDK shape, not a malformed one.
    assert tcg.tool_calls(response, toolset) == ([], [])


def test_a_gemini_part_and_a_foreign_object_still_read_as_before(toolset):
    part = gt.Part(function_call=gt.FunctionCall(name="m__echo", args={"a": 1}))
    calls, rejected = tcg.tool_calls(part, toolset)
    assert [c.arguments for c in calls] == [{"a": 1}] and rejected == []
    with pytest.raises(tcg.ResponseShapeError):
        tcg.tool_calls({"foo": 1}, toolset)


class _GeminiCall:
    name, call_id = "m__echo", "c"


@pytest.mark.parametrize("shape", [
    lambda r: tco.tool_output("c", r)["output"],
    lambda r: tco.tool_output("c", r, api="chat")["content"],
    lambda r: tca.tool_output("c", r)["content"][0]["text"],
    lambda r: tcg.tool_output(_GeminiCall(), r)["functionResponse"]["response"]["error"],
], ids=["responses", "chat", "anthropic", "gemini"])
def test_a_json_rpc_error_answer_is_an_error_output_not_an_empty_success(shape):
    assert shape({"error": {"code": -32603, "message": "disk full"}}) == "Error: disk full"


def test_a_bare_content_block_is_its_text_and_anything_else_is_refused():
    assert tco.tool_output("c", {"type": "text", "text": "hi"})["output"] == "hi"
    for result in ({"foo": 1}, {}):
        with pytest.raises(ToolResultError, match="expected a CallToolResult"):
            tca.tool_output("c", result)
    assert tco.tool_output("c", {"isError": True})["output"].startswith("Error: ")  # (an error flag alone)


def test_a_session_error_answer_reaches_the_model_as_an_error(toolset):
    calls, _ = tco.tool_calls([{"type": "function_call", "call_id": "a", "name": "m__echo", "arguments": "{}"}], toolset)

    class Erring:
        async def call_tool(self, name, args):
            return {"error": {"code": -32000, "message": "backend down"}}

    out = asyncio.run(execute_tool_calls(calls, {"m": Erring()}))
    assert out[0]["output"] == "Error: backend down"


class _Fine:
    async def call_tool(self, name, args):
        return {"content": [{"type": "text", "text": "fine"}]}


@pytest.mark.parametrize("raised,needle", [
    (BaseExceptionGroup("tg", [asyncio.CancelledError()]), "was cancelled by its session"),
    (BaseExceptionGroup("outer", [BaseExceptionGroup("inner", [asyncio.CancelledError()])]), "was cancelled by its session"),
    (ExceptionGroup("tg", [ValueError("boom")]), "failed: boom"),
], ids=["cancel-group", "nested-cancel-group", "exception-group"])
def test_one_session_group_failure_fails_its_call_alone(raised, needle, toolset):
    # anyio task groups wrap a session's own cancellation in a BaseExceptionGroup: it escaped
    # gather and no call got an output.
    calls, _ = tco.tool_calls([{"type": "function_call", "call_id": "a", "name": "m__echo", "arguments": "{}"},
                               {"type": "function_call", "call_id": "b", "name": "n__echo", "arguments": "{}"}], toolset)

    class Broken:
        async def call_tool(self, name, args):
            raise raised

    out = asyncio.run(execute_tool_calls(calls, {"m": Broken(), "n": _Fine()}))
    assert needle in out[0]["output"] and out[0]["output"].startswith("Error: ")
    assert out[1]["output"] == "fine"


def test_an_interrupt_inside_a_group_is_not_swallowed(toolset):
    calls, _ = tco.tool_calls([{"type": "function_call", "call_id": "a", "name": "m__echo", "arguments": "{}"}], toolset)

    class Interrupted:
        async def call_tool(self, name, args):
            raise BaseExceptionGroup("tg", [KeyboardInterrupt()])

    with pytest.raises(BaseExceptionGroup):
        asyncio.run(execute_tool_calls(calls, {"m": Interrupted()}))


def test_fill_nulls_decides_multiple_of_for_an_integer_beyond_a_float():
    res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": {
        "type": "object", "properties": {"p": {"anyOf": [
            {"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 3}, "note": {"type": "string"}},
             "required": ["n"]},
            {"type": "object", "properties": {"code": {"type": "string"}, "tag": {"type": "string"}}, "required": ["code"]},
        ]}}, "required": ["p"]}})
    params = res.tool["parameters"]
    filled = toolcast.fill_nulls({"p": {"n": 10**400}}, res.null_paths, params)
    assert filled["p"]["n"] == 10**400 and filled["p"].get("note", None) is None
    assert toolcast.fill_nulls({"p": {"n": 10**400 + 1}}, res.null_paths, params)["p"]["n"] == 10**400 + 1


@pytest.mark.parametrize("shape", [
    lambda r: tco.tool_output("c", r),
    lambda r: tco.tool_output("c", r, api="chat"),
    lambda r: tca.tool_output("c", r),
    lambda r: tcg.tool_output(_GeminiCall(), r),
], ids=["responses", "chat", "anthropic", "gemini"])
def test_a_lone_surrogate_in_a_text_result_still_makes_a_sendable_output(shape):
    import json

    for result in ({"content": [{"type": "text", "text": "a\ud800b"}]}, "x\udfffy"):
        out = shape(result)
        text = json.dumps(out, ensure_ascii=False)
        text.encode("utf-8")  # (raised UnicodeEncodeError: the request could not be sent)
        assert "\ufffd" in text


def test_an_unknown_tool_error_does_not_repeat_a_huge_name(toolset):
    calls, rejected = tco.tool_calls([{"type": "function_call", "call_id": "a", "name": "x" * 1_000_000,
                                       "arguments": "{}"}], toolset)
    assert calls == [] and len(rejected[0]["output"]) < 1000 and "(1000000 characters)" in rejected[0]["output"]
    _, rejected = tco.tool_calls([{"type": "function_call", "call_id": "a", "name": "m__ehco", "arguments": "{}"}], toolset)
    assert "Did you mean 'm__echo'?" in rejected[0]["output"]


@pytest.mark.parametrize("response", [
    {"name": "m__echo"},  # a FunctionCall dict of no arguments (the SDK object without args was read)
    [{"function_call": None, "functionCall": {"name": "m__echo", "args": {}}}],  # (the call was dropped)
    [{"functionCall": None, "function_call": {"name": "m__echo"}}],
], ids=["bare-call-no-args", "null-snake-beside-camel", "null-camel-beside-snake"])
def test_a_gemini_call_is_read_whichever_way_its_fields_are_spelt(response, toolset):
    calls, rejected = tcg.tool_calls(response, toolset)
    assert [(c.name, c.arguments) for c in calls] == [("m__echo", {})] and rejected == []


def test_tool_calls_compare_their_arguments_as_json_does(toolset):
    def call(arguments: str):
        return tco.tool_calls([{"type": "function_call", "call_id": "c", "name": "m__echo", "arguments": arguments}],
                              toolset)[0][0]

    assert call('{"s": 1}') != call('{"s": true}')  # (equal before: Python's True == 1)
    assert call('{"s": [0]}') != call('{"s": [false]}')
    assert call('{"s": 1}') == call('{"s": 1.0}') and call('{"s": {"a": [1, null]}}') == call('{"s": {"a": [1, null]}}')
    assert hash(call('{"s": 1}')) == hash(call('{"s": 2}'))  # (hashable as before: arguments are not hashed)
    assert call("{}") != tca.tool_calls([{"type": "tool_use", "id": "c", "name": "m__echo", "input": {}}], toolset)[0][0]
