"""A stdio MCP server for `toolcast proxy --enforce` tests: `fetch` echoes its arguments and counts its
calls; `calls` answers how many `fetch` calls reached the server."""

from __future__ import annotations

import json
import sys

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

# The `url` format: the test passes the one tests/test_enforce.py uses (a format the rules drop).
FORMAT = sys.argv[1] if len(sys.argv) > 1 else "uri"
SCHEMA = {
    "type": "object",
    "properties": {
        "url": {"type": "string", "format": FORMAT},
        "labels": {"type": "object", "properties": {"main": {"type": "string"}},
                   "patternProperties": {"^[a-z]+$": {"type": "string"}}, "additionalProperties": False},
        "tag": {"type": "string", "not": {"const": "draft"}},
        "size": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 1}]},
    },
    "required": ["url", "labels", "tag", "size"],
}
TOOLS = [types.Tool(name="fetch", description="Fetch a page.", input_schema=SCHEMA),
         types.Tool(name="calls", description="How many fetch calls arrived.", input_schema={"type": "object"})]
SEEN: list = []


async def list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name == "calls":
        return types.CallToolResult(content=[types.TextContent(text=str(len(SEEN)))])
    SEEN.append(params.arguments)
    return types.CallToolResult(content=[types.TextContent(text=json.dumps(params.arguments, sort_keys=True))])


server = Server("toolcast-enforce-test", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
