"""The run-time loop end to end, offline: MCP tools -> OpenAI tools -> a model's calls -> MCP -> outputs.

Run: python examples/loop.py   (needs the `mcp` extra and `mcp-server-time`: pip install -e '.[test]')
The model's response is canned here; in an application it comes from `client.responses.create(...)`.
"""

import asyncio
import json
import sys

import toolcast
from toolcast import openai as tc_openai
from toolcast.mcp_runtime import execute_tool_calls, list_tools, stdio_session


async def main() -> None:
    async with stdio_session(f"{sys.executable} -m mcp_server_time --local-timezone UTC") as session:
        toolset, _naming = toolcast.ToolSet.build({"time": await list_tools(session)})
        tools, report = tc_openai.tools(toolset, api="responses")
        print("tools sent:", [t["name"] for t in tools], "strict:", [t["strict"] for t in tools])
        print("null paths:", dict(report.null_paths))

        # What a model sends back (Responses API): one good call, one unknown tool.
        response = {
            "output": [
                {"type": "reasoning", "id": "rs_1", "summary": []},
                {"type": "function_call", "call_id": "call_1", "name": "time__convert_time",
                 "arguments": json.dumps({"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"})},
                {"type": "function_call", "call_id": "call_2", "name": "time__get_weather", "arguments": "{}"},
            ]
        }
        calls, rejected = tc_openai.tool_calls(response, toolset, report)
        outputs = await execute_tool_calls(calls, {"time": session}, api="responses", timeout=20)
        for item in rejected + outputs:
            print(json.dumps(item)[:200])


if __name__ == "__main__":
    asyncio.run(main())
