"""A stdio MCP server for tests that lists its tools two per page (``--stuck``: repeats its cursor)."""

from __future__ import annotations

import sys

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

TOOLS = [
    types.Tool(name=f"tool.{i}", description=f"tool number {i}", input_schema={"type": "object"})
    for i in range(5)
]
STUCK = "--stuck" in sys.argv


async def list_tools(ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    start = int(params.cursor) if params is not None and params.cursor else 0
    if STUCK:
        return types.ListToolsResult(tools=TOOLS[:1], next_cursor="0")
    end = start + 2
    return types.ListToolsResult(
        tools=TOOLS[start:end], next_cursor=str(end) if end < len(TOOLS) else None
    )


async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=f"called {params.name}")])


server = Server("toolcast-paged-test", on_list_tools=list_tools, on_call_tool=call_tool)


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
