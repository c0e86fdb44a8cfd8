"""A stdio MCP server for proxy tests (the SDK's low-level Server): echoes, crashes, hangs on request.

Tools: ``echo`` (its arguments back, as JSON text and as structuredContent; its schema has
optional properties, so a strict compile adds nulls), ``fail`` (an ``isError`` result),
``crash`` (exits at once, status 3), ``hang`` (never answers), ``garbage`` (answers with a
line the SDK cannot read). ``--extra-tools FILE``: one more tool per line of FILE (``NAME``, or
``NAME SCHEMA`` with a JSON input schema), read at start (a test edits FILE and crashes the server
to change the tool list), and a ``reload`` tool that reads FILE again and sends
``notifications/tools/list_changed``. ``--nan-tool``: one more tool, ``nan``, whose result's
structuredContent is ``{"v": NaN}`` (written raw: not JSON).
"""

from __future__ import annotations

import json
import os
import sys

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

ECHO_SCHEMA = {
    "type": "object",
    "properties": {
        "text": {"type": "string"},
        "count": {"type": "integer"},
        "options": {
            "type": "object",
            "properties": {"loud": {"type": "boolean"}, "lang": {"type": "string"}},
        },
    },
    "required": ["text"],
}
NAMES = ("fail", "crash", "hang", "garbage") + (("nan",) if "--nan-tool" in sys.argv else ())
# The SDK's stdio_server points fd 1 at stderr while it serves; garbage goes to the real wire.
WIRE = os.dup(1)


def _extra() -> list[str]:
    if "--extra-tools" not in sys.argv:
        return []
    path = sys.argv[sys.argv.index("--extra-tools") + 1]
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def _tools() -> list[types.Tool]:
    extra = _extra()
    if "--extra-tools" in sys.argv:
        extra.append("reload")
    tools = [types.Tool(name="echo", description="its arguments back", input_schema=ECHO_SCHEMA)]
    # (a line NAME SCHEMA gives the tool that JSON input schema)
    lines = [(line.partition(" ")[0], json.loads(line.partition(" ")[2] or '{"type": "object"}'))
             for line in (*NAMES, *extra)]
    return tools + [types.Tool(name=name, description=name, input_schema=schema) for name, schema in lines]


TOOLS = _tools()


async def list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    args = params.arguments or {}
    if params.name == "crash":
        os._exit(3)
    if params.name == "hang":
        await anyio.sleep_forever()
    if params.name == "garbage":
        # A response for this request that no MCP client can validate, then silence.
        line = {"jsonrpc": "2.0", "id": ctx.request_id, "result": {"content": 5}}
        os.write(WIRE, (json.dumps(line) + "\n").encode())
        await anyio.sleep_forever()
    if params.name == "nan":
        line = '{"jsonrpc": "2.0", "id": %s, "result": {"content": [], "structuredContent": {"v": NaN}}}'
        os.write(WIRE, (line % json.dumps(ctx.request_id) + "\n").encode())
        await anyio.sleep_forever()
    if params.name == "reload":
        TOOLS[:] = _tools()
        await ctx.session.send_tool_list_changed()
        return types.CallToolResult(content=[types.TextContent(text="reloaded")])
    if params.name == "fail":
        return types.CallToolResult(
            content=[types.TextContent(text="it failed on purpose")], is_error=True
        )
    text = json.dumps(args, sort_keys=True)
    return types.CallToolResult(
        content=[types.TextContent(text=text)], structured_content={"received": args}
    )


server = Server("toolcast-echo-test", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
