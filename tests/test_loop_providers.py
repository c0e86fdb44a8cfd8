"""The Anthropic and Gemini loops: calls from dicts and the official SDKs' objects, outputs the
SDKs' own types accept, and execute_tool_calls running calls of every target on one session."""

from __future__ import annotations

import asyncio
import base64
import functools
import json
import sys
from types import MappingProxyType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from toolcast import anthropic as tc_anthropic
from toolcast import gemini as tc_gemini
from toolcast import openai as tc_openai
from toolcast._runtime.json_limits import JsonLimitError, plain_json
from toolcast._runtime.loop import MAX_ARGUMENTS_BYTES, MAX_JSON_DEPTH, ResponseShapeError
from toolcast.mcp_runtime import execute_tool_calls
from toolcast.toolset import ToolSet

anthropic_types = pytest.importorskip("anthropic.types")
genai_types = pytest.importorskip("google.genai.types")

TOOLS = [
    {
        "name": "search",
        "description": "search",
        "inputSchema": {
            "type": "object",
            "properties": {"q": {"type": "string"}, "limit": {"type": "integer"},
                           "filter": {"type": "object", "properties": {"lang": {"type": "string"}}}},
            "required": ["q"],
        },
    }
]
TOOLSET, _ = ToolSet.build({"docs": TOOLS})
# As a strict compile reports them: the optional properties were made nullable.
NULL_PATHS = {"docs__search": (("limit",), ("filter",), ("filter", "lang"))}
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()
RESULT = {"content": [{"type": "text", "text": "found 2"},
                      {"type": "image", "mimeType": "image/png", "data": PNG}]}
ERROR = {"content": [{"type": "text", "text": "index offline"}], "isError": True}

ANTHROPIC_BLOCK = TypeAdapter(anthropic_types.ToolResultBlockParam)
GEMINI_PART = TypeAdapter(genai_types.Part)


def anthropic_valid(block: dict) -> dict:
    checked = ANTHROPIC_BLOCK.validate_python(block)
    if "content" in checked:
        list(checked["content"])  # the SDK's type validates its content lazily
    return block


# --------------------------------------------------------------------------- Anthropic


def anthropic_message(*blocks: dict) -> dict:
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
            "content": list(blocks), "stop_reason": "tool_use", "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1}}


USE = {"type": "tool_use", "id": "toolu_1", "name": "docs__search",
       "input": {"q": "x", "limit": None, "filter": {"lang": None}}}


@pytest.mark.parametrize("sdk", [False, True], ids=["dict", "sdk"])
def test_anthropic_calls_from_a_message(sdk):
    message = anthropic_message({"type": "text", "text": "let me look"}, USE)
    if sdk:
        message = anthropic_types.Message.model_validate(message)
    calls, rejected = tc_anthropic.tool_calls(message, TOOLSET, NULL_PATHS)
    assert rejected == []
    assert [(c.call_id, c.server, c.tool, c.arguments) for c in calls] == [
        ("toolu_1", "docs", "search", {"q": "x", "filter": {}})
    ]


def test_anthropic_calls_from_content_list_and_a_single_block():
    calls, _ = tc_anthropic.tool_calls([USE], TOOLSET, NULL_PATHS)
    assert calls[0].arguments == {"q": "x", "filter": {}}
    calls, _ = tc_anthropic.tool_calls(USE, TOOLSET)  # no null paths: nothing is stripped
    assert calls[0].arguments == {"q": "x", "limit": None, "filter": {"lang": None}}


def test_anthropic_rejections_are_tool_result_errors():
    unknown = {"type": "tool_use", "id": "toolu_2", "name": "docs__serch", "input": {}}
    not_object = {"type": "tool_use", "id": "toolu_3", "name": "docs__search", "input": "[1]"}
    calls, rejected = tc_anthropic.tool_calls(anthropic_message(unknown, not_object), TOOLSET)
    assert calls == []
    assert [r["tool_use_id"] for r in rejected] == ["toolu_2", "toolu_3"]
    assert all(r["is_error"] is True for r in rejected)
    assert "Did you mean 'docs__search'?" in rejected[0]["content"][0]["text"]
    assert "must be a JSON object, got an array" in rejected[1]["content"][0]["text"]
    for block in rejected:
        anthropic_valid(block)


def test_anthropic_output_text_image_and_error():
    call = tc_anthropic.tool_calls(USE, TOOLSET)[0][0]
    out = anthropic_valid(call.output(RESULT))
    assert out == {"type": "tool_result", "tool_use_id": "toolu_1", "content": [
        {"type": "text", "text": "found 2"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
    ]}
    err = anthropic_valid(tc_anthropic.tool_output("toolu_1", ERROR))
    assert err["is_error"] is True and err["content"] == [{"type": "text", "text": "Error: index offline"}]
    audio = anthropic_valid(tc_anthropic.tool_output("t", {"content": [
        {"type": "audio", "mimeType": "audio/wav", "data": PNG}]}))
    assert audio["content"][0]["text"].startswith("[audio: audio/wav,")


def test_anthropic_bad_shapes_name_the_place():
    with pytest.raises(ResponseShapeError, match=r"^response\.content: expected a list, got int$"):
        tc_anthropic.tool_calls({"type": "message", "content": 5}, TOOLSET)
    with pytest.raises(ResponseShapeError, match=r"^response\.content\[0\]\.type: expected a string"):
        tc_anthropic.tool_calls({"content": [{"id": "x"}]}, TOOLSET)


# --------------------------------------------------------------------------- Gemini


def gemini_response(*parts: dict) -> dict:
    return {"candidates": [{"content": {"role": "model", "parts": list(parts)}}]}


CALL = {"functionCall": {"id": "fc_1", "name": "docs__search",
                         "args": {"q": "x", "limit": None, "filter": None}}}


@pytest.mark.parametrize("sdk", [False, True], ids=["dict", "sdk"])
def test_gemini_calls_from_a_response(sdk):
    response = gemini_response({"text": "looking"}, CALL)
    if sdk:
        response = genai_types.GenerateContentResponse.model_validate(response)
    calls, rejected = tc_gemini.tool_calls(response, TOOLSET, NULL_PATHS)
    assert rejected == []
    assert [(c.call_id, c.name, c.tool, c.arguments) for c in calls] == [
        ("fc_1", "docs__search", "search", {"q": "x"})
    ]


def test_gemini_calls_from_content_parts_and_snake_case_without_id():
    part = {"function_call": {"name": "docs__search", "args": {"q": "y", "limit": 3}}}
    content = genai_types.Content.model_validate({"role": "model", "parts": [part]})
    for response in (content, [part], part):
        calls, _ = tc_gemini.tool_calls(response, TOOLSET, NULL_PATHS)
        assert [(c.call_id, c.arguments) for c in calls] == [("", {"q": "y", "limit": 3})]


def test_gemini_rejections_are_function_response_errors():
    unknown = {"functionCall": {"id": "fc_2", "name": "nope", "args": {}}}
    calls, rejected = tc_gemini.tool_calls(gemini_response(unknown), TOOLSET)
    assert calls == []
    body = rejected[0]["functionResponse"]
    assert body["name"] == "nope" and body["id"] == "fc_2"
    assert body["response"]["error"].startswith("Error: unknown tool 'nope'.")
    GEMINI_PART.validate_python(rejected[0])


def test_gemini_output_text_media_and_error():
    call = tc_gemini.tool_calls(CALL, TOOLSET)[0][0]
    out = call.output(RESULT)
    GEMINI_PART.validate_python(out)
    assert out == {"functionResponse": {
        "name": "docs__search", "id": "fc_1", "response": {"output": "found 2"},
        "parts": [{"inlineData": {"mimeType": "image/png", "data": PNG}}],
    }}
    no_id = tc_gemini.ToolCall("", "docs__search", "docs", "search", {})
    err = tc_gemini.tool_output(no_id, ERROR)
    GEMINI_PART.validate_python(err)
    assert err == {"functionResponse": {"name": "docs__search",
                                        "response": {"error": "Error: index offline"}}}
    structured = tc_gemini.tool_output(no_id, {"content": [], "structuredContent": {"n": 2}})
    assert json.loads(structured["functionResponse"]["response"]["output"]) == {"n": 2}


def test_gemini_bad_shapes_name_the_place():
    with pytest.raises(ResponseShapeError, match=r"^response\.candidates\[0\]\.content\.parts: expected a list"):
        tc_gemini.tool_calls({"candidates": [{"content": {"parts": 3}}]}, TOOLSET)
    with pytest.raises(ResponseShapeError, match=r"^response: expected a GenerateContentResponse"):
        tc_gemini.tool_calls({"something": 1}, TOOLSET)
    # (a candidate that is no object was named as its content, and a null one read as no call)
    for candidate, got in ((5, "int"), ([CALL], "list"), (None, "None")):
        with pytest.raises(ResponseShapeError,
                           match=rf"^response\.candidates\[0\]: expected an object \(a candidate\), got {got}$"):
            tc_gemini.tool_calls({"candidates": [candidate]}, TOOLSET)


# Chunks of a call streamed piece by piece (Vertex AI's stream_function_call_arguments): no call
# until the chunks are put together (read as it stands, the tool would run with arguments missing).
STREAMED = {
    "the first chunk": {"name": "docs__search", "willContinue": True},
    "a chunk of arguments": {"name": "docs__search", "partialArgs": [{"jsonPath": "$.q", "stringValue": "x"}],
                             "willContinue": True},
    "the last chunk": {"name": "docs__search", "partialArgs": [{"jsonPath": "$.q", "stringValue": "y"}],
                       "willContinue": False},
    "the end of the stream": {"name": "docs__search", "willContinue": False},
}


@pytest.mark.parametrize("sdk", [False, True], ids=["dict", "sdk"])
@pytest.mark.parametrize("chunk", sorted(STREAMED))
def test_gemini_a_streamed_calls_chunk_is_no_call(chunk, sdk):
    response = gemini_response({"functionCall": STREAMED[chunk]})
    if sdk:
        response = genai_types.GenerateContentResponse.model_validate(response)
    with pytest.raises(ResponseShapeError, match=r"function_call: expected a whole function call"):
        tc_gemini.tool_calls(response, TOOLSET)
    # (a whole call that says it is the last, its `args` given, is one)
    whole = gemini_response({"functionCall": {"name": "docs__search", "args": {"q": "z"}, "willContinue": False}})
    if sdk:
        whole = genai_types.GenerateContentResponse.model_validate(whole)
    assert [c.arguments for c in tc_gemini.tool_calls(whole, TOOLSET)[0]] == [{"q": "z"}]


# --------------------------------------------------------------------------- execution


class EchoSession:
    async def call_tool(self, name, arguments):
        if arguments.get("q") == "boom":
            raise RuntimeError("backend down")
        return {"content": [{"type": "text", "text": json.dumps(arguments, sort_keys=True)}]}


def test_execute_tool_calls_takes_calls_of_every_target():
    from toolcast.openai import tool_calls as openai_calls

    a = tc_anthropic.tool_calls(USE, TOOLSET, NULL_PATHS)[0]
    g = tc_gemini.tool_calls({"functionCall": {"name": "docs__search", "args": {"q": "boom"}}},
                             TOOLSET)[0]
    o = openai_calls({"type": "function_call", "call_id": "c1", "name": "docs__search",
                      "arguments": '{"q": "z"}'}, TOOLSET)[0]
    outputs = asyncio.run(execute_tool_calls([*a, *g, *o], {"docs": EchoSession()}))
    assert anthropic_valid(outputs[0])["content"][0]["text"] == '{"filter": {}, "q": "x"}'
    GEMINI_PART.validate_python(outputs[1])
    assert outputs[1]["functionResponse"]["response"]["error"].startswith("Error: tool 'search'")
    assert "backend down" in outputs[1]["functionResponse"]["response"]["error"]
    assert outputs[2] == {"type": "function_call_output", "call_id": "c1", "output": '{"q": "z"}'}


def test_null_paths_as_lists_or_tuples_strip_the_same_and_bad_paths_still_raise():
    from toolcast.nulls import NullPathError

    as_lists = {"docs__search": [["limit"], ["filter"], ["filter", "lang"]]}
    for paths in (NULL_PATHS, as_lists, NULL_PATHS):  # the second tuple run reads the cached trie
        calls, _ = tc_anthropic.tool_calls(USE, TOOLSET, paths)
        assert calls[0].arguments == {"q": "x", "filter": {}}
    with pytest.raises(NullPathError, match=r"null_paths\[0\]\[0\]: expected a property name"):
        tc_anthropic.tool_calls(USE, TOOLSET, {"docs__search": ((5,),)})


# --------------------------------------------------------------------------- argument size


def _json_size(value) -> int:
    """The size README's 4 MiB is of: compact JSON text, non-ASCII unescaped, in UTF-8."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _arguments_of_size(size: int, shape: str) -> dict:
    """Arguments whose JSON text is exactly ``size`` bytes: characters of 1 to 4 bytes in UTF-8
    and ones JSON escapes in 2 or 6 ("\x01" is "\\u0001"), in one long string or in many short
    ones, and floats and big integers beside them."""
    mixed = "a\u00e9\u20ac\U0001f600\n\x01\"\\"
    if shape == "one string":
        value = {"q": mixed * 50_000, "filter": {"lang": "\u2028"}}
    elif shape == "many values":  # their punctuation is most of the text
        value = {"q": "", "filter": {"lang": "x", "tags": ["\x01", -2.2250738585072014e-308, 10**40, True] * 40_000}}
    else:  # integers of 4,001 digits
        value = {"q": "", "filter": {"lang": "x", "tags": [-(10**4000)] * 1000}}
    value["q"] += "a" * (size - _json_size(value))
    assert _json_size(value) == size
    return value


def _chat(*calls: tuple[str, object]) -> dict:
    tool_calls = [{"id": cid, "type": "function", "function": {"name": "docs__search", "arguments": args}}
                  for cid, args in calls]
    return {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": tool_calls}}]}


def _read(target: str, sdk: bool, *calls: tuple[str, object]) -> tuple[dict, dict]:
    """``({id: arguments}, {id: error text})`` of decoded ``calls`` as ``target`` returns them."""
    if target == "anthropic":
        message = anthropic_message(*({"type": "tool_use", "id": cid, "name": "docs__search", "input": args}
                                      for cid, args in calls))
        got, rejected = tc_anthropic.tool_calls(
            anthropic_types.Message.model_validate(message) if sdk else message, TOOLSET)
        return ({c.call_id: c.arguments for c in got},
                {r["tool_use_id"]: r["content"][0]["text"] for r in rejected})
    if target == "gemini":
        response = gemini_response(*({"functionCall": {"id": cid, "name": "docs__search", "args": args}}
                                     for cid, args in calls))
        got, rejected = tc_gemini.tool_calls(
            genai_types.GenerateContentResponse.model_validate(response) if sdk else response, TOOLSET)
        return ({c.call_id: c.arguments for c in got},
                {r["functionResponse"]["id"]: r["functionResponse"]["response"]["error"] for r in rejected})
    got, rejected = tc_openai.tool_calls(_chat(*calls), TOOLSET)
    return {c.call_id: c.arguments for c in got}, {r["tool_call_id"]: r["content"] for r in rejected}


@pytest.mark.parametrize("shape", ["one string", "many values", "long integers"])
@pytest.mark.parametrize(("target", "sdk"), [("anthropic", False), ("anthropic", True), ("gemini", False),
                                             ("gemini", True), ("chat", False)])
def test_decoded_arguments_over_4_mib_as_json_are_rejected_as_json_text_is(target, sdk, shape):
    limit = MAX_ARGUMENTS_BYTES
    at, over = _arguments_of_size(limit, shape), _arguments_of_size(limit + 1, shape)
    proxied = MappingProxyType(_arguments_of_size(limit + 1, shape))  # a mapping, not a dict
    calls = [("before", {"q": "a"}), ("at", at), ("over", over), ("proxied", proxied), ("after", {"q": "b"})]
    refused = ["over", "proxied"]
    if target == "chat":  # the same arguments as the JSON text a model sends
        calls.append(("text", json.dumps(over, ensure_ascii=False, separators=(",", ":"))))
        refused.append("text")
    accepted, rejected = _read(target, sdk, *calls)
    assert accepted == {"before": {"q": "a"}, "at": at, "after": {"q": "b"}}
    error = f"Error: arguments for tool 'docs__search' are refused: the JSON text is larger than {limit} bytes"
    assert rejected == dict.fromkeys(refused, error)


@pytest.mark.parametrize(("target", "sdk"), [("anthropic", False), ("anthropic", True), ("gemini", False),
                                             ("gemini", True), ("chat", False)])
def test_a_decoded_integer_past_pythons_digit_limit_is_rejected_as_its_text_is(target, sdk):
    # The same number as text cannot be decoded (json.loads refuses it); decoded, it passed, and
    # writing the arguments out again (a proxy, a log) raised ValueError.
    huge = 10 ** (sys.get_int_max_str_digits() + 1)
    calls = [("alone", {"n": huge}), ("listed", {"n": [1, huge]}), ("nested", {"o": {"n": -huge}}),
             ("long but fine", {"n": 10 ** 4000}), ("after", {"q": "b"})]
    accepted, rejected = _read(target, sdk, *calls)
    assert accepted == {"long but fine": {"n": 10 ** 4000}, "after": {"q": "b"}}
    assert sorted(rejected) == ["alone", "listed", "nested"]
    assert all("digits, past Python's limit" in e for e in rejected.values()), rejected


# Characters of every UTF-8 length and every kind of JSON escape; the longest floats; big integers.
_TEXT = st.lists(st.sampled_from(["a", "\u00e9", "\u2028", "\U0001f600", "\x01", "\n", '"', "\\"]),
                 max_size=3).map("".join) | st.sampled_from(["\x01", "\u00e9"]).map(lambda c: c * 60)
_VALUES = st.recursive(
    st.none() | st.booleans() | _TEXT | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([-2.2250738585072014e-308, 1e16, 0.0]) | st.integers() | st.integers(-10**200, 10**200),
    lambda kids: st.lists(kids, max_size=4) | st.tuples(kids) | st.dictionaries(_TEXT, kids, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_TEXT, _VALUES, max_size=4), st.integers(0, 2000))
def test_decoded_arguments_are_refused_exactly_when_their_json_text_is_over_the_limit(value, limit):
    try:
        copy = plain_json(value, max_depth=MAX_JSON_DEPTH, max_bytes=limit)
    except JsonLimitError as exc:
        assert str(exc) == f"is larger than {limit} bytes"
        assert _json_size(value) > limit
    else:
        assert json.dumps(copy) == json.dumps(value) and _json_size(value) <= limit


# --------------------------------------------------------------------------- tools()


def test_anthropic_tools_are_accepted_by_the_sdk_and_close_the_loop():
    tools, report = tc_anthropic.tools(TOOLSET)
    assert [t["name"] for t in tools] == ["docs__search"]
    TypeAdapter(list[anthropic_types.ToolParam]).validate_python(tools)
    assert tools[0]["input_schema"]["additionalProperties"] is False
    assert set(report.null_paths) == {"docs__search"} and report.fallbacks == () and report.excluded == ()
    # Anthropic's strict mode keeps optional properties optional: no null was added, none stripped.
    assert report.null_paths["docs__search"] == ()
    calls, _ = tc_anthropic.tool_calls(USE, TOOLSET, report)
    assert calls[0].arguments == USE["input"]


@pytest.mark.parametrize("target", ["gemini", "vertex"])
def test_gemini_tools_are_accepted_by_the_sdk(target):
    tools, report = tc_gemini.tools(TOOLSET, target=target)
    declarations = tools[0]["functionDeclarations"]
    assert [d["name"] for d in declarations] == ["docs__search"]
    genai_types.Tool.model_validate(tools[0])
    assert "parameters" in declarations[0]  # the default API: the OpenAPI Schema subset
    json_tools, _ = tc_gemini.tools(TOOLSET, target=target, api="json-schema")
    assert "parametersJsonSchema" in json_tools[0]["functionDeclarations"][0]
    assert "docs__search" in report.null_paths or report.fallbacks


def test_gemini_tools_an_api_the_target_does_not_offer_is_a_clear_error():
    with pytest.raises(ValueError, match=r"unknown api 'responses' for target 'gemini'"):
        tc_gemini.tools(TOOLSET, api="responses")
    with pytest.raises(ValueError, match=r"target must be 'gemini' or 'vertex'"):
        tc_gemini.tools(TOOLSET, target="openai")


def test_the_toolset_is_one_request_budgets_apply_across_it():
    # Anthropic takes at most 20 strict tools per request: over 21 one-property tools, each
    # strict on its own, the 21st is sent non-strict, and the report says why.
    one = [{"name": "get", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}},
                                           "required": ["id"]}}]
    many, _ = ToolSet.build({f"s{i:02d}": one for i in range(21)})
    tools, report = tc_anthropic.tools(many)
    assert [t["name"] for t in tools] == list(many.names)
    assert sum(1 for t in tools if t.get("strict")) == 20
    assert [f.name for f in report.fallbacks] == ["s20__get"]
    assert report.fallbacks[0].codes == ("anthropic/too-many-strict-tools",)
    assert "max_strict_tools (21 > 20)" in report.fallbacks[0].reason
    assert "s20__get" not in report.null_paths


# --------------------------------------------------------------------------- Tools left out of the request

LEFT_OUT = [{"name": "ok", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}},
            {"name": "delete_rows", "inputSchema": {"type": "object", "properties": {
                "where": {"$ref": "https://example.com/where.json"}}}},  # (an external $ref: refused everywhere)
            {"name": "wipe", "inputSchema": {"type": "object", "minProperties": 1,  # (not strict-ready)
                                             "properties": {"where": {"type": "string"}}}}]


@pytest.mark.parametrize("target", ["openai", "anthropic", "gemini", "mistral"])
def test_a_call_to_a_tool_left_out_of_the_request_is_rejected(target):
    from toolcast.providers import loop as generic

    module = {"openai": tc_openai, "anthropic": tc_anthropic, "gemini": tc_gemini}.get(target)
    toolset, _ = ToolSet.build(LEFT_OUT)
    options = {"strict": True} if target == "openai" else {}
    _, report = module.tools(toolset, **options) if module else generic.tools(toolset, target=target)
    left = {issue.name for issue in report.excluded}
    assert "delete_rows" in left and "ok" not in left
    names = ["ok", *sorted(left)]
    if target == "anthropic":
        response = {"content": [{"type": "tool_use", "id": f"c{i}", "name": n, "input": {}} for i, n in enumerate(names)]}
    elif target == "gemini":
        response = {"candidates": [{"content": {"parts": [{"functionCall": {"id": f"c{i}", "name": n, "args": {}}}
                                                          for i, n in enumerate(names)]}}]}
    else:
        response = {"choices": [{"message": {"role": "assistant", "tool_calls": [
            {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": "{}"}}
            for i, n in enumerate(names)]}}]}
    read = module.tool_calls if module else functools.partial(generic.tool_calls, target=target)
    calls, rejected = read(response, toolset, report)
    assert [c.name for c in calls] == ["ok"]
    assert len(rejected) == len(left)
    text = json.dumps(rejected)
    sent = ", ".join(n for n in toolset.names if n not in left)
    assert "'delete_rows' was not offered in this request" in text and f"Valid tools: {sent}." in text
    # Given the null paths alone (no report), the loop knows nothing of the request: the call is read.
    calls, rejected = read(response, toolset, report.null_paths)
    assert [c.name for c in calls] == names and rejected == []


def test_an_unknown_name_is_never_told_to_try_a_tool_left_out():
    toolset, _ = ToolSet.build(LEFT_OUT)
    _, report = tc_openai.tools(toolset, strict=True)
    response = {"output": [{"type": "function_call", "call_id": "c1", "name": "wipes", "arguments": "{}"}]}
    _, (out,) = tc_openai.tool_calls(response, toolset, report)
    assert out["output"] == "Error: unknown tool 'wipes'. Valid tools: ok."
    _, (out,) = tc_openai.tool_calls(response, toolset, report.null_paths)
    assert "Did you mean 'wipe'?" in out["output"]


@pytest.mark.parametrize("sdk", [False, True], ids=["dict", "sdk"])
def test_anthropic_a_tool_use_the_message_ends_with_at_max_tokens_is_not_run(sdk):
    message = {"id": "m", "type": "message", "role": "assistant", "model": "m", "stop_reason": "max_tokens",
               "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
               "content": [{"type": "tool_use", "id": "a", "name": "docs__search", "input": {"q": "x"}},
                           {"type": "tool_use", "id": "b", "name": "docs__search", "input": {"q": "y"}}]}
    read = anthropic_types.Message.model_validate if sdk else dict
    calls, rejected = tc_anthropic.tool_calls(read(message), TOOLSET)
    assert [c.call_id for c in calls] == ["a"] and [r["tool_use_id"] for r in rejected] == ["b"]
    assert "stop_reason 'max_tokens'" in anthropic_valid(rejected[0])["content"][0]["text"]
    for other in ({"stop_reason": "tool_use"}, {"content": [*message["content"], {"type": "text", "text": "..."}]}):
        calls, rejected = tc_anthropic.tool_calls(read({**message, **other}), TOOLSET)  # whole calls
        assert [c.call_id for c in calls] == ["a", "b"] and rejected == []


PURGE_TOOLS = [{"name": "purge", "inputSchema": {"type": "object", "properties": {"scope": {"type": "string"}}}}]


@pytest.mark.parametrize(("target", "reason"), [
    ("mistral", "length"), ("mistral", "model_length"), ("deepseek", "length"),
    ("deepseek", "insufficient_system_resource"), ("xai", "length"), ("openai", "length")])
def test_the_generic_loop_rejects_a_call_a_choice_cut_off_at_its_length_limit_left_unfinished(target, reason):
    """The generic loop reads `finish_reason` as the wire's `calls.cut` says: a call left with empty
    arguments, or JSON text cut part-way, is not run; a whole call of the same choice is."""
    from toolcast.providers import loop as generic

    toolset, _ = ToolSet.build(PURGE_TOOLS)
    texts = {"a": '{"scope": "x"}', "b": "", "c": '{"scope": "ca'}
    message = {"role": "assistant", "content": None, "tool_calls": [
        {"id": i, "type": "function", "function": {"name": "purge", "arguments": t}} for i, t in texts.items()]}
    response = {"id": "r", "choices": [{"index": 0, "finish_reason": reason, "message": message}]}
    read = functools.partial(generic.tool_calls, target=target)
    for part in (response, response["choices"][0]):  # the whole response, or its choice
        calls, rejected = read(part, toolset)
        assert [(c.call_id, c.arguments) for c in calls] == [("a", {"scope": "x"})]
        assert [r["tool_call_id"] for r in rejected] == ["b", "c"]
        for r in rejected:
            assert r["content"] == (f"Error: the call to tool 'purge' is not complete (the response was cut off, "
                                    f"finish_reason {reason!r}); it was not run. Call the tool again with all its arguments.")
    response["choices"][0]["finish_reason"] = "tool_calls"  # a whole response: "" is a zero-argument call
    calls, rejected = read(response, toolset)
    assert [c.call_id for c in calls] == ["a", "b"] and [r["tool_call_id"] for r in rejected] == ["c"]
    assert "not valid JSON" in rejected[0]["content"]


def test_openai_chat_a_call_cut_part_way_at_the_length_limit_is_said_to_be_not_complete():
    toolset, _ = ToolSet.build(PURGE_TOOLS)
    message = {"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "purge", "arguments": '{"scope": "ca'}}]}
    _, (out,) = tc_openai.tool_calls({"choices": [{"finish_reason": "length", "message": message}]}, toolset)
    assert "the call to tool 'purge' is not complete" in out["content"]


@pytest.mark.parametrize("reason", ["max_tokens", "model_context_window_exceeded"])
@pytest.mark.parametrize("loop", ["anthropic", "generic-anthropic", "generic-bedrock"])
def test_the_tool_use_a_message_cut_off_ends_with_is_not_run(loop, reason):
    """Anthropic and Bedrock say a message was cut off in its stop reason (max_tokens, or the
    context window): the tool use it ends with was cut short, whatever input it holds."""
    from toolcast.providers import loop as generic

    toolset, _ = ToolSet.build(PURGE_TOOLS)
    if loop == "generic-bedrock":
        blocks = [{"toolUse": {"toolUseId": i, "name": "purge", "input": {"scope": i}}} for i in ("a", "b")]
        response = {"output": {"message": {"role": "assistant", "content": blocks}}, "stopReason": reason}
        read, key = functools.partial(generic.tool_calls, target="bedrock"), ("toolResult", "toolUseId")
    else:
        blocks = [{"type": "tool_use", "id": i, "name": "purge", "input": {"scope": i}} for i in ("a", "b")]
        response = {"id": "m", "type": "message", "role": "assistant", "content": blocks, "stop_reason": reason}
        read = tc_anthropic.tool_calls if loop == "anthropic" else functools.partial(generic.tool_calls, target="anthropic")
        key = ("tool_use_id",)
    calls, rejected = read(response, toolset)
    assert [c.call_id for c in calls] == ["a"]
    assert [functools.reduce(lambda d, k: d[k], key, r) for r in rejected] == ["b"]
    assert "is not complete (the response was cut off" in json.dumps(rejected) and repr(reason) in json.dumps(rejected)
    response["stopReason" if loop == "generic-bedrock" else "stop_reason"] = "tool_use"  # a whole response
    calls, rejected = read(response, toolset)
    assert [c.call_id for c in calls] == ["a", "b"] and rejected == []
