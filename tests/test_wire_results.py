"""Tool results written from the wire data (`wire.apis.<api>.parts`): the generic loop writes an image
in a result as the target's wire says (the built-in providers' hand-written shapes, byte for byte, and
a provider from a spec folder), and a placeholder where the wire states no way (issue 40)."""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from spec_folder import loaded_spec_folder

import toolcast
from toolcast.providers import EMITTERS, loop
from toolcast.providers import anthropic as hand_anthropic
from toolcast.providers import gemini as hand_gemini
from toolcast.providers import openai as hand_openai
from toolcast.toolset import ToolSet

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from servers.openai_stub import openai_stub, responses_response  # noqa: E402 - after the path insert

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n-a-tiny-image").decode()
IMAGE = {"type": "image", "mimeType": "image/png", "data": PNG}
RESULTS: list[Any] = [
    "ok", "", None, ValueError("boom"), ValueError(""),
    {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
    {"content": [IMAGE]},
    {"content": [{"type": "text", "text": "a"}, IMAGE, {"type": "text", "text": "b"}, {"type": "text", "text": "c"}]},
    {"content": [{**IMAGE, "mimeType": "image/gif"}], "isError": True},
    {"content": [{**IMAGE, "mimeType": "image/bmp"}]},
    {"content": [{**IMAGE, "mimeType": "IMAGE/PNG", "data": PNG[:8] + "\n" + PNG[8:]}]},
    {"content": [{**IMAGE, "data": "!!!"}]},
    {"content": [{**IMAGE, "data": ""}]},
    {"content": [{"type": "audio", "mimeType": "audio/wav", "data": PNG}]},
    {"content": [{"type": "resource", "resource": {"uri": "file:///x", "text": "hi"}}]},
    {"content": [], "structuredContent": {"a": 1}},
    {"content": [{**IMAGE, "mimeType": "image/webp"}], "structuredContent": {"a": 1}},
    {"content": [], "isError": True},
]


def _hand_written(target: str, api: str, result: Any, structured: str) -> Any:
    if target == "openai":
        return hand_openai.tool_output("c1", result, api=api, structured=structured)
    if target == "anthropic":
        return hand_anthropic.tool_output("c1", result, structured=structured)
    return hand_gemini.tool_output({"name": "t", "id": "c1"}, result, structured=structured)


@pytest.mark.parametrize("target,api", [(t, a) for t in ("openai", "anthropic", "gemini", "vertex")
                                        for a in EMITTERS[t].APIS])
@pytest.mark.parametrize("structured", ["auto", "append"])
def test_the_generic_loop_writes_results_as_the_hand_written_loops_do(target, api, structured):
    for result in RESULTS:
        mine = loop.tool_output({"id": "c1", "name": "t"}, result, target=target, api=api, structured=structured)
        theirs = _hand_written(target, api, result, structured)
        assert json.dumps(mine) == json.dumps(theirs), result  # the key order too


def test_an_image_is_written_where_the_wire_says_how_and_a_placeholder_where_it_does_not():
    anthropic = loop.tool_output({"id": "c1"}, {"content": [IMAGE]}, target="anthropic")
    assert anthropic["content"] == [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}]
    chat = loop.tool_output({"id": "c1"}, {"content": [IMAGE]}, target="xai")  # chat states no parts
    assert chat["content"].startswith("[image: image/png, ")
    bedrock = loop.tool_output({"id": "c1"}, {"content": [{"type": "text", "text": "see"}, IMAGE]}, target="bedrock")
    assert bedrock == {"toolResult": {"toolUseId": "c1", "content": [
        {"text": "see"}, {"image": {"format": "png", "source": {"bytes": base64.b64decode(PNG)}}}]}}


@pytest.mark.parametrize("data", ["", " \n"])
def test_an_empty_image_is_a_placeholder_on_every_target(data):
    """No image to send: an empty one would make the provider refuse the whole next request."""
    empty = {"content": [{"type": "text", "text": "shot:"}, {**IMAGE, "data": data}]}
    outputs = [hand_openai.tool_output("c1", empty, api="responses"), hand_anthropic.tool_output("c1", empty),
               hand_gemini.tool_output({"name": "t", "id": "c1"}, empty),
               loop.tool_output({"id": "c1"}, empty, target="bedrock")]
    for out in outputs:
        text = json.dumps(out, default=repr)
        assert "[image: image/png, 0 bytes]" in text and "base64" not in text and "inlineData" not in text, text
        assert "input_image" not in text and "'bytes'" not in text and '"image"' not in text.replace('"type": "image"', ""), text


def test_an_error_result_carries_its_text_on_every_target():
    for target in EMITTERS:
        if "result" not in EMITTERS[target].wire[EMITTERS[target].DEFAULT_API]:
            continue
        out = loop.tool_output({"id": "c1", "name": "t"}, ValueError("boom"), target=target)
        assert "Error: boom" in json.dumps(out), (target, out)


ACME = """\
provider: acme
version: "2026-12-01"
reviewed: "2026-12-01"
extends: openai@2026-10-17
default: true
summary: A made-up OpenAI-compatible host on the Responses API whose tool results take PNG images only.
terms: {provider_name: Acme, docs: "https://acme.invalid/docs/tools"}
catalogue_cite: [ACME-TOOLS]
sources:
  ACME-TOOLS: {title: "Acme, tools (made up)", url: "https://acme.invalid/docs/tools", date: "2026-12", evidence: D}
wire:
  default_api: responses
  proxy: {api: responses, mark_non_strict: false}
  apis:
    chat: null
    responses:
      tool: {type: function, name: $name, description: "$description?", parameters: $schema, strict: $strict}
      calls:
        in: [output]
        match: {type: function_call}
        id: [call_id]
        name: [name]
        arguments: [arguments]
      result: {type: function_call_output, call_id: $id, output: $content}
      parts:
        text: {type: input_text, text: $text}
        image: {type: input_image, image_url: $data_url}
        image_types: [image/png]
        texts: joined
        cite: [ACME-TOOLS]
      cite: [ACME-TOOLS]
"""


@pytest.fixture
def acme(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    yield from loaded_spec_folder(tmp_path, monkeypatch, {"acme/2026-12-01.yaml": ACME})


def test_a_provider_from_a_spec_folder_sends_an_image_result_through_the_openai_sdk(acme):
    openai_sdk = pytest.importorskip("openai")

    def snapshot(area: str) -> dict:
        """A picture of an area."""
        return {"content": [{"type": "text", "text": f"the {area}"}, {"type": "text", "text": "now"}, IMAGE,
                            {**IMAGE, "mimeType": "image/jpeg"}]}

    toolset, _ = ToolSet.build([toolcast.tool(snapshot)], target="acme")
    tools, report = loop.tools(toolset, target="acme")
    with openai_stub() as stub:
        stub.replies += [responses_response([("call_1", "snapshot", '{"area": "harbour"}')]),
                         responses_response([], with_noise=True)]
        client = openai_sdk.OpenAI(base_url=stub.base_url, api_key="test-key", max_retries=0)
        first = client.responses.create(model="acme-1", input="Show me the harbour", tools=tools)
        calls, rejected = loop.tool_calls(first, toolset, report, target="acme")
        outputs = [call.output(snapshot(**call.arguments)) for call in calls]
        client.responses.create(model="acme-1", input=[*outputs, *rejected], tools=tools)
    (sent,) = stub.requests[1][1]["input"]
    assert sent["type"] == "function_call_output" and sent["call_id"] == "call_1"
    assert sent["output"] == [
        {"type": "input_text", "text": "the harbour\nnow"},  # texts: joined
        {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}"},
        {"type": "input_text", "text": "[image: image/jpeg, 21 bytes]"},  # not in image_types
    ]


def test_the_generic_loop_s_image_result_goes_through_the_anthropic_sdk():
    anthropic_sdk = pytest.importorskip("anthropic")
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
               "stop_reason": "tool_use", "stop_sequence": None,
               "usage": {"input_tokens": 1, "output_tokens": 1},
               "content": [{"type": "tool_use", "id": "tu_1", "name": "s__shot", "input": {}}]}
    toolset, _ = ToolSet.build({"s": [{"name": "shot", "description": "d", "inputSchema": {"type": "object"}}]},
                               target="anthropic")
    tools, report = loop.tools(toolset, target="anthropic")
    with openai_stub() as stub:
        stub.replies += [message, {**message, "stop_reason": "end_turn", "content": [{"type": "text", "text": "ok"}]}]
        client = anthropic_sdk.Anthropic(base_url=f"http://127.0.0.1:{stub.port}", api_key="k", max_retries=0)
        first = client.messages.create(model="claude-test", max_tokens=10, tools=tools,
                                       messages=[{"role": "user", "content": "shot"}])
        (call,), _ = loop.tool_calls(first, toolset, report, target="anthropic")
        block = call.output({"content": [IMAGE]})
        client.messages.create(model="claude-test", max_tokens=10, tools=tools, messages=[
            {"role": "user", "content": "shot"}, {"role": "assistant", "content": first.model_dump()["content"]},
            {"role": "user", "content": [block]}])
    sent = stub.requests[1][1]["messages"][2]["content"][0]
    assert sent == {"type": "tool_result", "tool_use_id": "tu_1", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}]}
