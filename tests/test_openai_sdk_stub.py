"""The real openai SDK against a loopback stub: our tools and outputs go out unchanged, calls parse back."""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

import pytest

from toolcast.providers.openai import tool_calls
from toolcast.toolset import ToolSet

sys.path.insert(0, str(Path(__file__).parent))
from servers.openai_stub import chat_completion, openai_stub, responses_response

openai = pytest.importorskip("openai")

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(40)).decode()

SERVERS = {
    "notes": [
        {
            "name": "search.notes",
            "description": "Search notes.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": "integer", "minimum": 1},
                    "filters": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "field": {"type": "string"},
                                "value": {"type": "string"},
                            },
                            "required": ["field"],
                        },
                    },
                },
                "required": ["query"],
            },
        },
        {
            "name": "tag",
            "description": "Attach free-form metadata.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "meta": {"type": "object", "additionalProperties": {"type": "string"}}
                },
                "required": ["meta"],
            },
        },
    ],
    "screen": [
        {"name": "capture", "description": "Screenshot.", "inputSchema": {"type": "object"}}
    ],
}

MODEL_ARGS = json.dumps(
    {"query": "budget", "limit": None, "filters": [{"field": "year", "value": None}]}
)
MODEL_CALLS = [
    ("call_a", "notes__search_notes", MODEL_ARGS),
    ("call_b", "screen__capture", ""),
    ("call_c", "notes__search_note", "{}"),  # hallucinated name
    ("call_d", "notes__tag", '{"meta": '),  # truncated JSON
]

RESULTS = {
    "call_a": {"content": [{"type": "text", "text": "3 notes found"}]},
    "call_b": {
        "content": [
            {"type": "text", "text": "screen"},
            {"type": "image", "mimeType": "image/png", "data": PNG},
        ]
    },
}


@pytest.fixture
def compiled():
    try:
        from toolcast import compile_tool  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"compiler core not available yet: {exc}")
    from toolcast.providers.openai import tools

    ts, _ = ToolSet.build(SERVERS)
    return ts, tools


def make_client(stub):
    # trust_env=False: a proxy set in the environment must never see loopback test traffic.
    return openai.OpenAI(
        base_url=stub.base_url,
        api_key="test",
        max_retries=0,
        timeout=10,
        http_client=openai.DefaultHttpxClient(trust_env=False),
    )


def check_calls(calls, rejected, id_key):
    assert [(c.call_id, c.server, c.tool) for c in calls] == [
        ("call_a", "notes", "search.notes"),
        ("call_b", "screen", "capture"),
    ]
    # limit and filters[].value were optional: their nulls are stripped; nothing else is.
    assert calls[0].arguments == {"query": "budget", "filters": [{"field": "year"}]}
    assert calls[1].arguments == {}
    assert [r[id_key] for r in rejected] == ["call_c", "call_d"]


def test_chat_completions_round_trip(compiled):
    ts, tools = compiled
    sent, report = tools(ts, api="chat")
    assert [t["function"]["strict"] for t in sent] == [True, False, True]
    with openai_stub() as stub:
        stub.replies = [
            chat_completion(MODEL_CALLS),
            chat_completion([], content="Here is your budget note."),
        ]
        client = make_client(stub)
        messages = [{"role": "user", "content": "find my budget note"}]
        completion = client.chat.completions.create(model="gpt-test", messages=messages, tools=sent)
        assert type(completion).__name__ == "ChatCompletion"
        calls, rejected = tool_calls(completion, ts, report.null_paths)
        check_calls(calls, rejected, "tool_call_id")
        assert "Did you mean 'notes__search_notes'?" in rejected[0]["content"]
        outputs = [call.output(RESULTS[call.call_id]) for call in calls]
        assert outputs[1]["content"] == "screen\n[image: image/png, 48 bytes]"
        assistant = completion.choices[0].message.model_dump(exclude_none=True)
        follow_up = [*messages, assistant, *outputs, *rejected]
        final = client.chat.completions.create(model="gpt-test", messages=follow_up, tools=sent)
        assert final.choices[0].message.content == "Here is your budget note."

    (path1, body1), (path2, body2) = stub.requests
    assert path1 == path2 == "/v1/chat/completions"
    assert body1["tools"] == sent  # byte-for-byte our tool dicts, strict false included
    assert body1["messages"] == messages
    assert body2["messages"][2:] == [*outputs, *rejected]
    assert body2["messages"][1]["tool_calls"][0]["id"] == "call_a"


def test_responses_round_trip(compiled):
    ts, tools = compiled
    sent, report = tools(ts, api="responses")
    assert [t["strict"] for t in sent] == [True, False, True]
    assert [f.name for f in report.fallbacks] == ["notes__tag"]
    with openai_stub() as stub:
        stub.replies = [
            responses_response(MODEL_CALLS),
            responses_response([], with_noise=True),
        ]
        client = make_client(stub)
        response = client.responses.create(
            model="gpt-test", input="find my budget note", tools=sent
        )
        assert type(response).__name__ == "Response"
        calls, rejected = tool_calls(response, ts, report.null_paths)
        check_calls(calls, rejected, "call_id")
        outputs = [call.output(RESULTS[call.call_id]) for call in calls]
        assert outputs[1]["output"] == [
            {"type": "input_text", "text": "screen"},
            {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}"},
        ]
        client.responses.create(
            model="gpt-test",
            previous_response_id=response.id,
            input=[*outputs, *rejected],
            tools=sent,
        )

    (path1, body1), (path2, body2) = stub.requests
    assert path1 == path2 == "/v1/responses"
    assert body1["tools"] == sent
    assert body2["input"] == [*outputs, *rejected]
    assert body2["previous_response_id"] == "resp_test"
    assert all(r["type"] == "function_call_output" for r in body2["input"])


def test_sdk_output_items_list_and_message_are_accepted(compiled):
    ts, tools = compiled
    _, report = tools(ts, api="responses")
    with openai_stub() as stub:
        stub.replies = [responses_response(MODEL_CALLS), chat_completion(MODEL_CALLS)]
        client = make_client(stub)
        response = client.responses.create(model="gpt-test", input="x")
        completion = client.chat.completions.create(
            model="gpt-test", messages=[{"role": "user", "content": "x"}]
        )
    check_calls(*tool_calls(response.output, ts, report.null_paths), "call_id")
    check_calls(*tool_calls(completion.choices[0].message, ts, report.null_paths), "tool_call_id")
    check_calls(
        *tool_calls(completion.choices[0].message.tool_calls, ts, report.null_paths), "tool_call_id"
    )
