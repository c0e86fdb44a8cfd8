"""The Gemini loop end to end, offline: MCP tools -> function_call parts -> MCP -> functionResponse parts.

Run: python examples/loop_gemini.py   (needs the `mcp` extra and `mcp-server-time`)
The model's response is canned here; in an application it comes from
`google.genai.Client().models.generate_content(..., config={"tools": tools})`.
For Vertex AI, compile with `tc_gemini.tools(toolset, target="vertex")`; the rest is the same.
"""

import asyncio
import json
import sys

import toolcast
from toolcast import gemini as tc_gemini
from toolcast.mcp_runtime import execute_tool_calls, list_tools, stdio_session


async def main() -> None:
    async with stdio_session(f"{sys.executable} -m mcp_server_time --local-timezone UTC") as session:
        toolset, _ = toolcast.ToolSet.build({"time": await list_tools(session)})
        tools, report = tc_gemini.tools(toolset)
        print("declared:", [d["name"] for d in tools[0]["functionDeclarations"]])

        response = {  # a GenerateContentResponse: one good call (with an id), one unknown tool
            "candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"id": "fc_1", "name": "time__get_current_time",
                                  "args": {"timezone": "Europe/Paris"}}},
                {"functionCall": {"name": "time__get_weather", "args": {}}},
            ]}}]
        }
        calls, rejected = tc_gemini.tool_calls(response, toolset, report)
        # The next turn's parts (role "user"): one functionResponse per call, in the calls' order
        # (a call without an id is answered by position).
        parts = await execute_tool_calls(calls, {"time": session}, timeout=20, rejected=rejected)
        for part in parts:
            print(json.dumps(part)[:200])


if __name__ == "__main__":
    asyncio.run(main())
