"""Local Python functions beside an MCP server in one ToolSet, through the OpenAI, Anthropic and Gemini
loops: typed arguments arrive as the function's types, an exception is that call's error output, a
hanging function times out alone, and every return value becomes an output in each provider's shape."""

from __future__ import annotations

import argparse
import asyncio
import datetime
import enum
import inspect
import json
import math
import sys
import threading
import typing
from pathlib import Path

import pydantic
import pytest
from pydantic import BaseModel, TypeAdapter

import toolcast
from toolcast import anthropic as tc_anthropic
from toolcast import gemini as tc_gemini
from toolcast import openai as tc_openai
from toolcast.mcp_runtime import execute_tool_calls, list_tools, stdio_session
from toolcast.toolset import ToolSet

anthropic_types = pytest.importorskip("anthropic.types")
genai_types = pytest.importorskip("google.genai.types")

ECHO = f"{sys.executable} {Path(__file__).resolve().parent / 'servers' / 'echo_server.py'}"
ANTHROPIC_BLOCK = TypeAdapter(anthropic_types.ToolResultBlockParam)
GEMINI_PART = TypeAdapter(genai_types.Part)


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Contact(BaseModel):
    name: str
    email: str | None = None


class Receipt(BaseModel):
    order: str
    total: float


RECEIVED: list[tuple] = []
RELEASE = threading.Event()  # what the hanging function waits for (set when a test ends)


@toolcast.tool(description="Book a meeting.")
def book(when: datetime.datetime, color: Color, who: Contact, minutes: int = 30) -> Receipt:
    """Ignored: the decorator's description wins."""
    RECEIVED.append((when, color, who, minutes, threading.current_thread() is threading.main_thread()))
    return Receipt(order=f"{who.name}-{when:%H%M}", total=minutes * 1.5)


async def boom(reason: str) -> str:
    """Always fails."""
    raise ValueError(f"cannot: {reason}")


def hang() -> str:
    """Never answers (until the test releases it)."""
    RELEASE.wait(30)
    return "late"


@pytest.fixture(autouse=True)
def _released():
    RECEIVED.clear()
    RELEASE.clear()
    yield
    RELEASE.set()  # the worker thread of a timed-out call ends with the test


ARGS = {"when": "2026-12-06T09:30:00Z", "color": "blue", "who": {"name": "ada", "email": None}}
CALLS = [("c1", "echo__echo", {"text": "hi"}),
         ("c2", "book", ARGS), ("c3", "boom", {"reason": "no stock"}), ("c4", "hang", {})]


def _openai(calls):
    return {"output": [{"type": "function_call", "call_id": c, "name": n, "arguments": json.dumps(a)}
                       for c, n, a in calls]}


def _anthropic(calls):
    return {"role": "assistant", "content": [{"type": "tool_use", "id": c, "name": n, "input": a} for c, n, a in calls]}


def _gemini(calls):
    parts = [{"functionCall": {"id": c, "name": n, "args": a}} for c, n, a in calls]
    return {"candidates": [{"content": {"role": "model", "parts": parts}}]}


def _read_openai(out):
    return out["output"], out["output"].startswith("Error: ")


def _read_anthropic(out):
    ANTHROPIC_BLOCK.validate_python(out)
    content = out.get("content")
    text = content if isinstance(content, str) else "\n".join(b["text"] for b in content or [] if b["type"] == "text")
    return text, bool(out.get("is_error"))


def _read_gemini(out):
    GEMINI_PART.validate_python(out)
    response = out["functionResponse"]["response"]
    return (response["error"], True) if "error" in response else (response["output"], False)


PROVIDERS = {
    "openai": (tc_openai, _openai, _read_openai),
    "anthropic": (tc_anthropic, _anthropic, _read_anthropic),
    "gemini": (tc_gemini, _gemini, _read_gemini),
}


async def _loop(provider: str, calls, timeout: float) -> tuple[list, list, ToolSet]:
    module, response_of, _ = PROVIDERS[provider]
    async with stdio_session(ECHO) as session:
        toolset, naming = ToolSet.build([("echo", await list_tools(session)), book, boom, hang])
        assert not naming.renames and toolset.names[-3:] == ("book", "boom", "hang")
        tools, report = module.tools(toolset)
        calls_read, rejected = module.tool_calls(response_of(calls), toolset, report.null_paths)
        outputs = await execute_tool_calls(calls_read, {"echo": session}, timeout=timeout)
    return tools, rejected + outputs, toolset


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_a_local_function_and_an_mcp_server_in_one_loop(provider):
    tools, outputs, _ = asyncio.run(_loop(provider, CALLS, timeout=1.0))
    read = PROVIDERS[provider][2]
    echoed, booked, failed, hung = (read(o) for o in outputs)
    # The server's tool, beside them.
    assert echoed == ('{"text": "hi"}', False)
    # The local function: typed arguments, called in a worker thread, its model returned as JSON.
    (when, color, who, minutes, on_main), = RECEIVED
    assert when == datetime.datetime(2026, 12, 6, 9, 30, tzinfo=datetime.UTC)
    assert color is Color.BLUE and who == Contact(name="ada") and minutes == 30 and not on_main
    assert json.loads(booked[0]) == {"order": "ada-0930", "total": 45.0} and booked[1] is False
    # Its exception and its hang are those calls' own error outputs.
    assert failed[1] is True and "tool 'boom' failed: ValueError: cannot: no stock" in failed[0]
    assert hung[1] is True and "tool 'hang' did not answer within 1 s" in hung[0]
    if provider == "openai":
        sent = {t["name"]: t for t in tools}
        assert sent["book"]["strict"] is True and sent["book"]["description"] == "Book a meeting."


def test_arguments_that_do_not_fit_are_an_error_and_the_function_is_not_called():
    toolset, _ = ToolSet.build([book])
    bad = {**ARGS, "color": "green", "when": "not a time"}
    calls, _ = tc_openai.tool_calls(_openai([("c1", "book", bad)]), toolset)
    (out,) = asyncio.run(execute_tool_calls(calls, {}))
    assert out["output"].startswith("Error: arguments for tool 'book' do not fit its parameters: ")
    assert "when: " in out["output"] and "color: " in out["output"]
    assert RECEIVED == []


def test_a_hanging_async_function_times_out_alone():
    async def stuck() -> str:
        await asyncio.Event().wait()
        return "never"

    def quick(x: int) -> int:
        return x + 1

    toolset, _ = ToolSet.build([stuck, quick])
    calls, _ = tc_anthropic.tool_calls(_anthropic([("a", "stuck", {}), ("b", "quick", {"x": "41"})]), toolset)
    stuck_out, quick_out = asyncio.run(execute_tool_calls(calls, {}, timeout=0.5))
    assert stuck_out["is_error"] is True and "did not answer within 0.5 s" in _read_anthropic(stuck_out)[0]
    assert _read_anthropic(quick_out) == ("42", False)  # "41" converted to the int the hint asks for


def test_sys_exit_in_a_function_fails_its_call_alone():
    """argparse calls sys.exit() on a value it cannot read: that call fails, the batch's other
    outputs stay (a sync function runs in a worker thread, where no KeyboardInterrupt is the user's)."""

    def cli(argv: str) -> str:
        parser = argparse.ArgumentParser(prog="cli")
        parser.add_argument("--n", type=int, required=True)
        return str(parser.parse_args(argv.split()).n)

    def interrupted() -> str:
        raise KeyboardInterrupt

    async def exits() -> str:
        sys.exit(3)

    def quick(x: int) -> int:
        return x + 1

    toolset, _ = ToolSet.build([cli, interrupted, exits, quick])
    calls, _ = tc_openai.tool_calls(_openai([("c1", "cli", {"argv": "--n notanumber"}), ("c2", "interrupted", {}),
                                             ("c3", "exits", {}), ("c4", "quick", {"x": 41})]), toolset)
    outs = asyncio.run(execute_tool_calls(calls, {}, timeout=10))
    assert [o["output"] for o in outs] == ["Error: tool 'cli' failed: SystemExit: 2",
                                          "Error: tool 'interrupted' failed: KeyboardInterrupt: KeyboardInterrupt",
                                          "Error: tool 'exits' failed: SystemExit: 3", "42"]


def test_a_task_the_function_awaited_cancelled_fails_its_call_alone():
    async def fetch() -> str:
        helper = asyncio.ensure_future(asyncio.sleep(30))
        asyncio.get_running_loop().call_later(0.05, helper.cancel)
        await helper  # (cancelled by someone else: CancelledError here)
        return "never"

    def quick(x: int) -> int:
        return x + 1

    toolset, _ = ToolSet.build([fetch, quick])
    calls, _ = tc_openai.tool_calls(_openai([("c1", "fetch", {}), ("c2", "quick", {"x": 1})]), toolset)
    outs = asyncio.run(execute_tool_calls(calls, {}, timeout=10))
    assert [o["output"] for o in outs] == ["Error: tool 'fetch' failed: a task it awaited was cancelled", "2"]


def test_the_callers_cancellation_still_cancels_the_batch():
    async def slow() -> str:
        await asyncio.sleep(30)
        return "never"

    toolset, _ = ToolSet.build([slow])
    calls, _ = tc_openai.tool_calls(_openai([("c1", "slow", {})]), toolset)

    async def go() -> None:
        task = asyncio.ensure_future(execute_tool_calls(calls, {}, timeout=60))
        await asyncio.sleep(0.1)
        task.cancel()
        await task

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(go())


def test_every_kind_of_return_value_in_every_shape():
    from mcp import types as mt

    png = "iVBORw0KGgo="
    values = {
        "text": "plain text",
        "number": 3,
        "listed": [1, "a", None],
        "mapping": {"ok": True, "when": datetime.date(2026, 12, 6)},
        "model": Receipt(order="x", total=2.5),
        "moment": datetime.datetime(2026, 12, 6, 9, 30),
        "block": mt.TextContent(type="text", text="from a block"),
        "blocks": [mt.TextContent(type="text", text="one"), mt.ImageContent(type="image", data=png, mimeType="image/png")],
        "result": mt.CallToolResult(content=[mt.TextContent(type="text", text="told")], isError=True),
        "nothing": None,
        "nan": math.nan,
        "opaque": object(),
    }

    def returning(value):
        def fn() -> object:
            return value
        return fn

    functions = []
    for name, value in values.items():
        fn = returning(value)
        fn.__name__ = name
        functions.append(fn)
    toolset, _ = ToolSet.build(functions)
    chat = {"role": "assistant", "tool_calls": [
        {"id": n, "type": "function", "function": {"name": n, "arguments": "{}"}} for n in values]}
    calls, _ = tc_openai.tool_calls(chat, toolset)
    outs = {o["tool_call_id"]: o["content"] for o in asyncio.run(execute_tool_calls(calls, {}))}
    assert outs["text"] == "plain text" and outs["number"] == "3" and outs["listed"] == '[1, "a", null]'
    assert json.loads(outs["mapping"]) == {"ok": True, "when": "2026-12-06"}
    assert json.loads(outs["model"]) == {"order": "x", "total": 2.5}
    assert outs["moment"] == "2026-12-06T09:30:00"
    assert outs["block"] == "from a block"
    assert outs["blocks"].startswith("one\n[image: image/png")
    assert outs["result"] == "Error: told"
    assert outs["nothing"] == ""
    assert outs["nan"].startswith("Error: tool 'nan' returned a value that cannot be sent")
    assert outs["opaque"].startswith("Error: tool 'opaque' returned a value that cannot be sent")
    # The same results in the Responses API (an image as input_image) and for Gemini and Anthropic.
    responses = _openai([(n, n, {}) for n in values])
    calls, _ = tc_openai.tool_calls(responses, toolset)
    items = {o["call_id"]: o["output"] for o in asyncio.run(execute_tool_calls(calls, {}))}
    assert items["blocks"][1] == {"type": "input_image", "image_url": f"data:image/png;base64,{png}"}
    for provider in ("anthropic", "gemini"):
        module, response_of, read = PROVIDERS[provider]
        calls, _ = module.tool_calls(response_of([(n, n, {}) for n in values]), toolset)
        got = [read(o) for o in asyncio.run(execute_tool_calls(calls, {}))]
        assert [flag for _, flag in got] == [n in ("result", "nan", "opaque") for n in values], provider


def test_local_names_follow_the_toolset_naming_and_collisions_are_reported():
    def echo__echo(text: str) -> str:
        return text

    server_tool = {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}
    toolset, naming = ToolSet.build([("echo", [server_tool]), echo__echo])
    # The ToolSet's rule decides, as between two servers: ("", "echo__echo") sorts before ("echo", "echo").
    (rename,) = naming.renames
    assert (rename.server, rename.tool, rename.reasons) == ("echo", "echo", ("collision",))
    assert toolset["echo__echo"].local is not None and toolset[rename.exposed].local is None

    def refund(order: str) -> str:
        return order

    toolset, naming = ToolSet.build({"shop": [refund, {"name": "refund", "inputSchema": {"type": "object"}}]})
    assert toolset.names == ("shop__refund",) and naming.dropped[0].reason == "listed twice by the same server"
    calls, _ = tc_gemini.tool_calls(_gemini([("g", "shop__refund", {"order": "o-1"})]), toolset)
    (out,) = asyncio.run(execute_tool_calls(calls, {}))  # no session needed for a local function
    assert out["functionResponse"]["response"] == {"output": "o-1"}


def test_mcp_results_are_read_by_their_declared_fields_not_fastmcps_camelcase_shims():
    # FastMCP, once imported, gives the MCP SDK's models properties for their old camelCase names
    # that warn (once per name and process) on a read; the loop reads an SDK object's declared
    # snake_case field first, so it never trips one. A model shaped as FastMCP leaves them:
    reads: list[str] = []

    class Result(BaseModel):
        content: list = []
        structured_content: dict | None = None
        is_error: bool = False

    def shim(snake: str) -> property:
        def read(self):
            reads.append(snake)
            return getattr(self, snake)
        return property(read)

    Result.structuredContent = shim("structured_content")
    Result.isError = shim("is_error")
    out = tc_openai.tool_output("c1", Result(structured_content={"n": 1}, is_error=True), api="chat")
    assert out["content"] == 'Error: {"n":1}' and reads == []
    # A declared field that is None is not looked for under its old name either.
    out = tc_openai.tool_output("c2", Result(content=[{"type": "text", "text": "fine"}]), api="chat")
    assert out["content"] == "fine" and reads == []


# -- the red-team's round of the twelfth session: the Python front door ---------------------------


class Booking(BaseModel):
    model_config = {"strict": True}
    when: datetime.datetime
    color: Color
    span: tuple[int, int]
    tags: set[str]


def reserve(b: Booking, at: typing.Annotated[datetime.datetime, pydantic.Strict()]) -> str:
    """Reserve."""
    RECEIVED.append((b, at))
    return "ok"


def test_strict_fields_take_their_values_as_json_writes_them():
    # Validated in pydantic's Python mode, a strict field wanted the Python object (a datetime, an
    # enum member, a tuple), so a call that fits the schema sent never reached the function.
    toolset, _ = ToolSet.build([reserve])
    args = {"b": {"when": "2026-12-07T09:00:00Z", "color": "red", "span": [1, 2], "tags": ["x", "y"]},
            "at": "2026-12-07T10:00:00+01:00"}
    calls, rejected = tc_openai.tool_calls(_openai([("c1", "reserve", args)]), toolset)
    (out,) = asyncio.run(execute_tool_calls(calls, {}))
    assert not rejected and out["output"] == "ok"
    (b, at), = RECEIVED
    assert b.color is Color.RED and b.span == (1, 2) and b.tags == {"x", "y"} and at.hour == 10
    assert b.when == datetime.datetime(2026, 12, 7, 9, tzinfo=datetime.UTC)


def _annotated(name: str, param: str, annotation: object):
    """A function whose parameter `param` is annotated `annotation` as written (this module's
    annotations are strings: `from __future__ import annotations`)."""
    def f(**kwargs: object) -> str:
        return "x"

    f.__name__ = name
    f.__signature__ = inspect.Signature([inspect.Parameter(param, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                           annotation=annotation)])
    f.__annotations__ = {param: annotation}
    return f


@pytest.mark.parametrize("fn, needle", [
    (_annotated("value", "n", 5), "parameter 'n' has an annotation Python's typing cannot take: 5"),
    (_annotated("no_expression", "when", "list["), "parameter 'when' has an annotation Python's typing cannot take: 'list['"),
    (_annotated("class_var", "amount", typing.ClassVar[int]), "parameter 'amount' is annotated ClassVar"),
])
def test_an_annotation_that_is_no_argument_type_names_the_function_and_parameter(fn, needle):
    # Raw SyntaxError/AttributeError from typing.py, or (ClassVar) a parameter left out of the
    # schema and filled with Ellipsis at the call.
    for build in (toolcast.compile_tool, lambda f: toolcast.compile_tools([reserve, f]), lambda f: ToolSet.build([f])):
        with pytest.raises(toolcast.InvalidToolError) as info:
            build(fn)
        assert f"function {fn.__name__!r}" in str(info.value) and needle in str(info.value)


def test_a_mark_given_after_a_compile_is_read():
    def search(q: str) -> str:
        """Search."""
        return q

    assert toolcast.compile_tool(search).name == "search"
    toolcast.tool(search, name="web_search", description="Search the web.")
    res = toolcast.compile_tool(search)
    assert res.name == "web_search" and res.tool["description"] == "Search the web."
