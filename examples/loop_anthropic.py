"""The Anthropic loop end to end, offline: MCP tools -> a Message's tool_use blocks -> MCP -> tool_result.

Run: python examples/loop_anthropic.py   (needs the `mcp` extra and `mcp-server-time`)
The model's Message is canned here; in an application it comes from
`anthropic.Anthropic().messages.create(..., tools=tools)`.
"""

import asyncio
import json
import sys

import toolcast
from toolcast import anthropic as tc_anthropic
from toolcast.mcp_runtime import execute_tool_calls, list_tools, stdio_session


async def main() -> None:
    async with stdio_session(f"{sys.executable} -m mcp_server_time --local-timezone UTC") as session:
        toolset, _ = toolcast.ToolSet.build({"time": await list_tools(session)})
        tools, report = tc_anthropic.tools(toolset)
        print("tools sent:", [t["name"] for t in tools])

        message = {  # what Claude answers: text, one good call, one call to a tool that is not there
            "type": "message", "role": "assistant",
            "content": [
                {"type": "text", "text": "Let me convert that."},
                {"type": "tool_use", "id": "toolu_1", "name": "time__convert_time",
                 "input": {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}},
                {"type": "tool_use", "id": "toolu_2", "name": "time__get_weather", "input": {}},
            ],
        }
        calls, rejected = tc_anthropic.tool_calls(message, toolset, report)
        outputs = await execute_tool_calls(calls, {"time": session}, timeout=20)
        # The next user message's content: one tool_result block per tool_use.
        for block in rejected + outputs:
            print(json.dumps(block)[:200])


if __name__ == "__main__":
    asyncio.run(main())
