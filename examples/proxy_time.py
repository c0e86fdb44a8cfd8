"""Run `toolcast proxy` in front of mcp-server-time and call it with the official MCP client.

    pip install 'toolcast[mcp]' mcp-server-time
    python examples/proxy_time.py

The same proxy, for any MCP client configuration (Claude Desktop, an IDE, the OpenAI Agents
SDK's MCPServerStdio), is the command:

    toolcast proxy --target openai --server time="python -m mcp_server_time --local-timezone UTC"
"""

from __future__ import annotations

import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

TIME = f"{sys.executable} -m mcp_server_time --local-timezone UTC"


async def main() -> None:
    proxy = StdioServerParameters(
        command=sys.executable,
        args=["-m", "toolcast.cli.main", "proxy", "--target", "openai", "--server", f"time={TIME}"],
    )
    # The proxy's stderr (its compile summary) goes to ours.
    async with stdio_client(proxy) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for tool in (await session.list_tools()).tools:
            print(f"{tool.name}: {json.dumps(tool.input_schema, sort_keys=True)[:120]}...")
        result = await session.call_tool("time__get_current_time", {"timezone": "Europe/Paris"})
        print("time__get_current_time ->", result.content[0].text)


if __name__ == "__main__":
    asyncio.run(main())
