"""Fuzzing the run-time public functions: arbitrary JSON-like and SDK-shaped input, documented outcomes only.

strip_nulls, fill_nulls, tool_calls and tool_output return a result or raise a ToolcastError;
the loaders (toolcast.loader) return a result or raise their own input error (load never
raises). Outputs are JSON (allow_nan=False). Short in CI (tests/strategies.py profiles);
TOOLCAST_FUZZ_EXAMPLES=N for a long run.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import examples

import toolcast
from toolcast import loader
from toolcast.providers.openai import ToolCall, tool_calls, tool_output
from toolcast.toolset import ToolSet

sys.path.insert(0, str(Path(__file__).parent))

TOOLSET, _ = ToolSet.build({"s": [{"name": "t"}, {"name": "u"}]})
NAMES = ["s__t", "s__u", "nope", ""]
KEYS = [
    "choices", "message", "tool_calls", "output", "type", "function", "name", "arguments",
    "call_id", "id", "role", "content", "text", "structuredContent", "isError", "resource",
    "uri", "mimeType", "data", "a", "b",
]  # fmt: skip
TYPES = ["function_call", "function", "message", "reasoning", "custom", "text", "image",
         "audio", "resource", "resource_link", "assistant"]  # fmt: skip


class Odd:
    """A value of a type JSON has no form for, whose str() raises."""

    def __str__(self) -> str:
        raise RuntimeError("no str")


# JSON-like leaves plus the Python values JSON has no form for.
LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),  # NaN and infinities included
    st.text(max_size=8),
    st.sampled_from(NAMES + TYPES + KEYS + ["\ud800", "a\udfffb"]),  # lone surrogates too
    st.binary(max_size=4),
    st.builds(Odd),
    st.sets(st.integers(0, 3), max_size=2),
)
VALUES = st.recursive(
    LEAF,
    lambda kids: st.one_of(
        st.lists(kids, max_size=4),
        st.tuples(kids, kids),
        st.dictionaries(st.sampled_from(KEYS), kids, max_size=5),
        st.dictionaries(st.one_of(st.integers(), st.none()), kids, max_size=2),
    ),
    max_leaves=20,
)
# As VALUES, with string keys only: the openai SDK's model_construct turns nested dicts into
# keyword arguments.
SDK_VALUES = st.recursive(
    LEAF,
    lambda kids: st.one_of(
        st.lists(kids, max_size=4), st.dictionaries(st.sampled_from(KEYS), kids, max_size=5)
    ),
    max_leaves=20,
)


def _deep(n: int, inner: str = "1") -> str:
    return '{"a": ' * n + inner + "}" * n


_ARGUMENT_TEXTS = [
    st.none(),
    st.text(max_size=20),
    VALUES.map(lambda v: json.dumps(v, default=repr)),  # NaN, Infinity and repr() texts
    st.integers(1, 400).map(lambda n: "[" * n),
    st.integers(1, 400).map(lambda n: '{"a":' * n),
    st.integers(90, 110).map(_deep),
    st.sampled_from(
        ['{"a": 1e400}', '{"a": NaN}', '{"a": ' + "7" * 5000 + "}", "{}", "[]", '{"a": "\\ud800"}']
    ),
]
ARGUMENTS = st.one_of(*_ARGUMENT_TEXTS, VALUES)
SDK_ARGUMENTS = st.one_of(*_ARGUMENT_TEXTS, SDK_VALUES)


@st.composite
def _chat_call(draw):
    return {
        "id": draw(st.one_of(st.text(max_size=4), VALUES)),
        "type": draw(st.sampled_from(["function", "custom", None])),
        "function": draw(
            st.one_of(
                st.fixed_dictionaries({"name": st.sampled_from(NAMES), "arguments": ARGUMENTS}),
                VALUES,
            )
        ),
    }


@st.composite
def _responses_item(draw):
    return {
        "type": draw(
            st.sampled_from(["function_call", "message", "reasoning", "custom_tool_call"])
        ),
        "call_id": draw(st.one_of(st.text(max_size=4), VALUES)),
        "name": draw(st.one_of(st.sampled_from(NAMES), VALUES)),
        "arguments": draw(ARGUMENTS),
    }


ITEM = st.one_of(_chat_call(), _responses_item(), VALUES)
DICT_RESPONSE = st.one_of(
    VALUES,
    st.builds(lambda calls: {"choices": [{"message": {"role": "assistant", "tool_calls": calls}}]},
              st.one_of(st.lists(ITEM, max_size=4), VALUES)),
    st.builds(lambda c: {"choices": c}, st.one_of(st.lists(VALUES, max_size=2), VALUES)),
    st.builds(lambda m: {"choices": [{"message": m}]}, VALUES),
    st.builds(lambda out: {"output": out}, st.one_of(st.lists(ITEM, max_size=4), VALUES)),
    st.builds(lambda calls: {"role": "assistant", "tool_calls": calls}, st.lists(ITEM, max_size=4)),
    st.lists(ITEM, max_size=4),
    ITEM,
)  # fmt: skip


@st.composite
def _sdk_response(draw):
    """openai SDK objects built with model_construct (no validation), holding anything."""
    from openai.types.chat import ChatCompletion, ChatCompletionMessage
    from openai.types.chat.chat_completion import Choice
    from openai.types.chat.chat_completion_message_function_tool_call import (
        ChatCompletionMessageFunctionToolCall,
        Function,
    )
    from openai.types.responses import Response, ResponseFunctionToolCall

    def chat_call():
        function = Function.model_construct(
            name=draw(st.one_of(st.sampled_from(NAMES), SDK_VALUES)), arguments=draw(SDK_ARGUMENTS)
        )
        return ChatCompletionMessageFunctionToolCall.model_construct(
            id=draw(st.text(max_size=3)),
            type="function",
            function=draw(st.one_of(st.just(function), SDK_VALUES)),
        )

    def response_call():
        return ResponseFunctionToolCall.model_construct(
            type="function_call",
            call_id=draw(st.one_of(st.text(max_size=3), SDK_VALUES)),
            name=draw(st.sampled_from(NAMES)),
            arguments=draw(SDK_ARGUMENTS),
        )

    kind = draw(st.sampled_from(["completion", "message", "response", "calls"]))
    chat_calls = [chat_call() for _ in range(draw(st.integers(0, 3)))]
    message = ChatCompletionMessage.model_construct(
        role="assistant", tool_calls=draw(st.one_of(st.just(chat_calls), SDK_VALUES))
    )
    if kind == "completion":
        choice = Choice.model_construct(message=draw(st.one_of(st.just(message), SDK_VALUES)))
        return ChatCompletion.model_construct(
            choices=draw(st.one_of(st.just([choice]), SDK_VALUES))
        )
    if kind == "message":
        return message
    items = [response_call() for _ in range(draw(st.integers(0, 3)))]
    if kind == "response":
        return Response.model_construct(output=draw(st.one_of(st.just(items), SDK_VALUES)))
    return items + chat_calls


def _check_outputs(outputs) -> None:
    for out in outputs:
        assert isinstance(out, dict)
        json.dumps(out, allow_nan=False)


NULL_PATHS = st.one_of(
    st.dictionaries(
        st.sampled_from(NAMES),
        st.lists(
            st.lists(st.one_of(st.sampled_from(["a", "b", "x"]), st.none()), max_size=3), max_size=3
        ),
    ),
    VALUES,
)


@examples(100)
@given(
    response=st.one_of(DICT_RESPONSE, _sdk_response()), null_paths=st.one_of(st.none(), NULL_PATHS)
)
def test_tool_calls_returns_calls_or_raises_a_toolcast_error(response, null_paths):
    try:
        calls, rejected = tool_calls(response, TOOLSET, null_paths)
    except toolcast.ToolcastError:
        return
    assert all(isinstance(c, ToolCall) and isinstance(c.arguments, dict) for c in calls)
    for call in calls:
        json.dumps(call.arguments, allow_nan=False)
        assert call.name in TOOLSET
    _check_outputs(rejected)


BLOCK = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES)},
        optional={
            "text": VALUES, "data": st.one_of(st.sampled_from(["aGk=", "!!"]), VALUES),
            "mimeType": st.one_of(st.sampled_from(["image/png", "audio/wav"]), VALUES),
            "uri": VALUES, "name": VALUES, "resource": VALUES,
        },
    ),
    VALUES,
)  # fmt: skip
RESULT = st.one_of(
    VALUES,
    st.fixed_dictionaries(
        {},
        optional={
            "content": st.one_of(st.lists(BLOCK, max_size=4), VALUES),
            "structuredContent": VALUES,
            "isError": VALUES,
            "message": VALUES,
        },
    ),
    st.integers(90, 1200).map(lambda n: {"content": [], "structuredContent": json.loads(_deep(n)) if n < 900 else None}),
    st.builds(lambda v: ValueError(v), VALUES),
)  # fmt: skip


@st.composite
def _sdk_result(draw):
    """mcp CallToolResult objects, validated and built with model_construct."""
    import mcp.types as types

    content = draw(
        st.lists(
            st.sampled_from(
                [
                    types.TextContent(text="hi"),
                    types.ImageContent(data="aGk=", mime_type="image/png"),
                ]
            ),
            max_size=3,
        )
    )
    structured = draw(
        st.one_of(st.none(), st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=3))
    )
    if draw(st.booleans()):
        return types.CallToolResult.model_construct(
            content=draw(st.one_of(st.just(content), VALUES)),
            structured_content=structured,
            is_error=draw(VALUES),
        )
    try:
        return types.CallToolResult(
            content=content, structured_content=structured, is_error=draw(st.booleans())
        )
    except ValueError:  # the SDK refused the drawn structured content itself
        return types.CallToolResult(content=content)


@examples(100)
@given(
    result=st.one_of(RESULT, _sdk_result()),
    api=st.sampled_from(["responses", "chat"]),
    mode=st.sampled_from(["auto", "prefer", "append", "ignore"]),
)
def test_tool_output_returns_an_output_or_raises_a_toolcast_error(result, api, mode):
    try:
        out = tool_output("call_1", result, api=api, structured=mode)
    except toolcast.ToolcastError:
        return
    _check_outputs([out])
    assert out.get("call_id", out.get("tool_call_id")) == "call_1"


@examples(100)
@given(
    args=VALUES,
    paths=st.one_of(
        NULL_PATHS,
        st.lists(
            st.lists(
                st.one_of(st.sampled_from(["a", "b"]), st.none(), st.just(toolcast.ITEMS), VALUES),
                max_size=3,
            ),
            max_size=3,
        ),
    ),
)
def test_strip_and_fill_nulls_return_a_value_or_raise_a_toolcast_error(args, paths):
    for fn in (toolcast.strip_nulls, toolcast.fill_nulls):
        with contextlib.suppress(toolcast.ToolcastError):
            fn(args, paths)


# The loaders: text of every kind, bytes of every kind, and documents of every kind.
YAMLISH = st.lists(st.sampled_from(["name: t", "inputSchema:", "  type: object", "- a", "{", "[", "]", "}", ":",
                                    "&a x", "*a", "!!binary aGk=", "2001-12-14", "x: .nan", "? [a]", "'", '"', "---",
                                    "  - 1", "\t", "key: [1, {a: b}]", "~", "!!python/object:os.system x"]), max_size=8).map("\n".join)  # fmt: skip
TEXTS = st.one_of(st.text(max_size=40), YAMLISH, VALUES.map(lambda v: json.dumps(v, default=repr)))


def _loader_outcome(fn, *args):
    try:
        return fn(*args)
    except loader._ParseError as exc:  # the loaders' own input error, carrying an InputError
        assert isinstance(exc.error, loader.InputError)
        return None


@examples(100)
@given(text=TEXTS, suffix=st.sampled_from([".json", ".jsonl", ".yaml", ".yml", ".txt", ""]))
def test_loader_parsers_return_a_document_or_their_input_error(text, suffix):
    for fn, args in ((loader.parse, (text, "f", suffix)), (loader.parse_json, (text, "f")),
                     (loader.parse_jsonl, (text, "f")), (loader.parse_yaml, (text, "f"))):  # fmt: skip
        doc = _loader_outcome(fn, *args)
        if doc is not None:
            items, errors = loader.tools_of(doc, "f")
            assert all(isinstance(i, loader.Item) for i in items)
            assert all(isinstance(e, loader.InputError) for e in errors)


@examples(100)
@given(
    data=st.one_of(st.binary(max_size=60), TEXTS.map(lambda t: t.encode("utf-8", "surrogatepass")))
)
def test_loader_load_never_raises(data):
    _loader_outcome(loader.decode, data, "f")
    items, errors = loader.load("-", stdin=io.BytesIO(data))
    assert isinstance(items, list) and isinstance(errors, list)


@examples(100)
@given(doc=VALUES)
def test_loader_tools_of_any_document(doc):
    items, errors = loader.tools_of(doc, "f")
    assert all(isinstance(i, loader.Item) for i in items)
    assert all(isinstance(e, loader.InputError) for e in errors)


def test_malformed_null_paths_raise_a_toolcast_error_naming_the_place():
    from toolcast.nulls import NullPathError

    cases = [
        (None, "null_paths: expected a list of null paths, got None"),
        ("ab", "null_paths: expected a list of null paths, got str"),
        ({"tool": [("a",)]}, "null_paths: expected a list of null paths, got dict"),
        ([5], r"null_paths\[0\]: expected a tuple or list of steps, got int"),
        (
            [("a",), ("b", {"c": 1})],
            r"null_paths\[1\]\[1\]: expected a property name or ITEMS, got dict",
        ),
        ([["a", ["b"]]], r"null_paths\[0\]\[1\]: expected a property name or ITEMS, got list"),
    ]
    for paths, message in cases:
        for fn in (toolcast.strip_nulls, toolcast.fill_nulls):
            with pytest.raises(NullPathError, match=f"^{message}$"):
                fn({"a": None}, paths)
    with pytest.raises(toolcast.ToolcastError, match=r"^null_paths: expected a mapping"):
        tool_calls([], TOOLSET, [("a",)])
    assert toolcast.strip_nulls({"a": None, "b": [{"c": None}]}, [["a"], ["b", None, "c"]]) == {
        "b": [{}]
    }
