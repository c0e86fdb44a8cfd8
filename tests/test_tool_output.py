"""tool_output: MCP results shaped as Chat tool messages and Responses function_call_output items."""

from __future__ import annotations

import base64

import pytest

from toolcast.providers.openai import tool_output

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(1016)).decode()  # 1024 bytes decoded
WAV = base64.b64encode(b"RIFF" + bytes(96)).decode()  # 100 bytes


def text(t: str) -> dict:
    return {"type": "text", "text": t}


def image(mime: str = "image/png", data: str = PNG) -> dict:
    return {"type": "image", "mimeType": mime, "data": data}


def test_text_result_in_both_apis():
    result = {"content": [text("hello"), text("world")], "isError": False}
    assert tool_output("c1", result, api="chat") == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "hello\nworld",
    }
    assert tool_output("c1", result) == {
        "type": "function_call_output",
        "call_id": "c1",
        "output": "hello\nworld",
    }


def test_plain_string_and_none():
    assert tool_output("c", "done", api="chat")["content"] == "done"
    assert tool_output("c", "done")["output"] == "done"
    assert tool_output("c", None)["output"] == ""


def test_image_in_chat_becomes_placeholder_with_decoded_size():
    out = tool_output("c", {"content": [text("shot:"), image()]}, api="chat")
    assert out["content"] == "shot:\n[image: image/png, 1024 bytes]"


@pytest.mark.parametrize("mime", ["image/png", "image/jpeg", "image/gif", "image/webp"])
def test_supported_image_in_responses_becomes_input_image_data_uri(mime):
    out = tool_output("c", {"content": [text("shot:"), image(mime)]}, api="responses")
    assert out == {
        "type": "function_call_output",
        "call_id": "c",
        "output": [
            {"type": "input_text", "text": "shot:"},
            {"type": "input_image", "image_url": f"data:{mime};base64,{PNG}"},
        ],
    }


def test_other_image_types_and_audio_become_input_text_placeholders_in_responses():
    out = tool_output(
        "c",
        {"content": [image("image/bmp"), {"type": "audio", "mimeType": "audio/wav", "data": WAV}]},
    )
    assert out["output"] == "[image: image/bmp, 1024 bytes]\n[audio: audio/wav, 100 bytes]"
    # Next to a real image the placeholders are input_text items in order.
    out = tool_output(
        "c", {"content": [{"type": "audio", "mimeType": "audio/wav", "data": WAV}, image()]}
    )
    assert out["output"][0] == {"type": "input_text", "text": "[audio: audio/wav, 100 bytes]"}
    assert out["output"][1]["type"] == "input_image"


def test_invalid_base64_image_is_not_sent_as_data_uri():
    out = tool_output("c", {"content": [image(data="not base64!!")]})
    assert out["output"] == "[image: image/png, invalid base64 data]"


def test_resources_and_links_become_placeholders():
    blob = base64.b64encode(b"12345").decode()
    result = {
        "content": [
            {
                "type": "resource",
                "resource": {"uri": "file:///a.bin", "mimeType": "application/zip", "blob": blob},
            },
            {
                "type": "resource",
                "resource": {"uri": "file:///n.txt", "mimeType": "text/plain", "text": "notes"},
            },
            {
                "type": "resource_link",
                "uri": "file:///doc.pdf",
                "name": "doc",
                "mimeType": "application/pdf",
            },
            {"type": "mystery"},
        ]
    }
    assert tool_output("c", result, api="chat")["content"].split("\n") == [
        "[resource: file:///a.bin, application/zip, 5 bytes]",
        "[resource: file:///n.txt, text/plain]",
        "notes",
        "[resource link: doc, file:///doc.pdf, application/pdf]",
        "[unsupported content: mystery]",
    ]


def test_is_error_gets_prefix_once_and_custom_prefix():
    result = {"content": [text("disk full")], "isError": True}
    assert tool_output("c", result, api="chat")["content"] == "Error: disk full"
    assert tool_output("c", result)["output"] == "Error: disk full"
    already = {"content": [text("Error: disk full")], "isError": True}
    assert tool_output("c", already)["output"] == "Error: disk full"
    lower = {"content": [text("error: disk full")], "isError": True}
    assert tool_output("c", lower)["output"] == "error: disk full"
    assert (
        tool_output("c", result, error_prefix="TOOL FAILED: ")["output"] == "TOOL FAILED: disk full"
    )
    # Without isError there is no prefix.
    assert tool_output("c", {"content": [text("disk full")]})["output"] == "disk full"


def test_error_without_content_still_says_error():
    assert tool_output("c", {"content": [], "isError": True})["output"] == (
        "Error: the tool reported an error without details"
    )


def test_error_with_leading_image_puts_prefix_first_in_responses():
    out = tool_output("c", {"content": [image(), text("partial")], "isError": True})
    assert out["output"][0] == {"type": "input_text", "text": "Error:"}
    assert out["output"][1]["type"] == "input_image"


def test_exceptions_and_error_objects_are_errors():
    assert tool_output("c", RuntimeError("boom"), api="chat")["content"] == "Error: boom"
    assert tool_output("c", TimeoutError())["output"] == "Error: TimeoutError"
    assert tool_output("c", {"code": -32602, "message": "Unknown tool: x"})["output"] == (
        "Error: Unknown tool: x"
    )


STRUCTURED = {"total": 3, "count": 2, "name": "é"}
STRUCTURED_JSON = '{"count":2,"name":"é","total":3}'


@pytest.mark.parametrize(
    ("mode", "content", "expected"),
    [
        ("auto", [], STRUCTURED_JSON),
        ("auto", [text("two items")], "two items"),
        ("prefer", [text("two items")], STRUCTURED_JSON),
        ("append", [text("two items")], "two items\n" + STRUCTURED_JSON),
        ("ignore", [text("two items")], "two items"),
        ("ignore", [], ""),
    ],
)
def test_structured_content_modes(mode, content, expected):
    result = {"content": content, "structuredContent": STRUCTURED}
    assert tool_output("c", result, structured=mode)["output"] == expected
    assert tool_output("c", result, api="chat", structured=mode)["content"] == expected


def test_structured_error_gets_prefix():
    result = {"content": [], "structuredContent": {"why": "x"}, "isError": True}
    assert tool_output("c", result)["output"] == 'Error: {"why":"x"}'


def test_mcp_sdk_call_tool_result_objects():
    types = pytest.importorskip("mcp.types")
    result = types.CallToolResult(
        content=[
            types.TextContent(text="cap"),
            types.ImageContent(data=PNG, mime_type="image/png"),
        ],
        structured_content={"b": 1, "a": [1, 2]},
        is_error=False,
    )
    assert tool_output("c", result, api="chat", structured="append")["content"] == (
        'cap\n[image: image/png, 1024 bytes]\n{"a":[1,2],"b":1}'
    )
    out = tool_output("c", result)
    assert out["output"][1] == {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}"}
    err = types.CallToolResult(content=[types.TextContent(text="bad")], is_error=True)
    assert tool_output("c", err, api="chat")["content"] == "Error: bad"


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError):
        tool_output("c", "x", api="completions")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        tool_output("c", "x", structured="sometimes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tool_output("c", 42)


def _nested(depth: int) -> dict:
    value: dict = {"leaf": 1}
    for _ in range(depth):
        value = {"a": value}
    return value


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_deep_structured_content_becomes_an_error_output_not_a_crash(api):
    key = "output" if api == "responses" else "content"
    deep = {"content": [], "structuredContent": _nested(1000)}
    out = tool_output("c", deep, api=api)
    assert out[key] == (
        "Error: the tool's structured result cannot be sent: it is nested more than 100 levels deep"
    )
    # Content blocks still reach the model, after the error line.
    mixed = {"content": [text("partial")], "structuredContent": _nested(1000)}
    lines = tool_output("c", mixed, api=api, structured="append")[key].split("\n")
    assert lines[0].startswith("Error: the tool's structured result cannot be sent") and lines[
        1:
    ] == ["partial"]
    # Not used, not checked: auto with content, and ignore.
    assert tool_output("c", mixed, api=api)[key] == "partial"
    assert tool_output("c", _nested(99) | {"content": []}, api=api)[key] == ""
    shallow = {"content": [], "structuredContent": _nested(98)}
    assert tool_output("c", shallow, api=api)[key].startswith('{"a":{"a":')


def test_structured_content_that_is_not_json_is_an_error_output():
    for bad, why in (
        ({"x": float("nan")}, "non-finite number nan"),
        ({"x": float("inf")}, "non-finite number inf"),
        ({"x": {1, 2}}, "holds a set"),
        ({"x": {3: "y"}}, "a key of type int"),
    ):
        out = tool_output("c", {"content": [], "structuredContent": bad})["output"]
        assert (
            out.startswith("Error: the tool's structured result cannot be sent: it ") and why in out
        )


def test_deep_structured_content_in_sdk_objects():
    types = pytest.importorskip("mcp.types")
    real = types.CallToolResult(content=[], structured_content=_nested(1000))
    built = types.CallToolResult.model_construct(content=[], structured_content=_nested(1000))
    for result in (real, built):
        out = tool_output("c", result, api="chat")["content"]
        assert out.endswith("nested more than 100 levels deep")


def test_results_that_are_not_results_raise_a_toolcast_error():
    from toolcast import ToolcastError

    for bad in (42, 4.5, [text("x")], b"bytes", object(), {"content": 5}):
        with pytest.raises(ToolcastError):
            tool_output("c", bad)


def test_odd_block_fields_never_crash():
    deep: list = []
    for _ in range(2000):
        deep = [deep]
    odd = {
        "content": [
            {"type": deep},
            {"type": "text", "text": deep},
            {"type": "resource_link", "uri": deep, "name": 5},
            {"type": "resource", "resource": {"uri": {"a": deep}, "text": 3}},
            7,
        ],
        "isError": "yes",  # not a boolean: not an error
    }
    assert tool_output("c", odd, api="chat")["content"] == (
        "[unsupported content: list]\n[resource link: 5, list]\n[resource: dict]\n"
        "[unsupported content: int]"
    )
    exc = ValueError(deep)
    assert tool_output("c", exc)["output"].startswith("Error: ")
