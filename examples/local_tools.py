"""Local Python functions beside an MCP server, in one ToolSet and one loop, offline.

Run: python examples/local_tools.py   (needs the `mcp` and `pydantic` extras and `mcp-server-time`:
pip install -e '.[test]'). The model's response is canned here; in an application it comes from
`client.responses.create(..., tools=tools)`.
"""

import asyncio
import datetime
import json
import sys
from enum import StrEnum

from pydantic import BaseModel

import toolcast
from toolcast import openai as tc_openai
from toolcast.mcp_runtime import execute_tool_calls, list_tools, stdio_session


class Priority(StrEnum):
    LOW = "low"
    HIGH = "high"


class Reminder(BaseModel):
    """What to remind of, and when."""

    text: str
    at: datetime.datetime
    priority: Priority = Priority.LOW


@toolcast.tool
def set_reminder(reminder: Reminder, repeat_days: int | None = None) -> dict:
    """Set a reminder.

    Args:
        reminder: what to remind of, and when
        repeat_days: repeat it every this many days
    """
    # The arguments arrive as the hints say: a Reminder holding a datetime and a Priority.
    assert isinstance(reminder.at, datetime.datetime) and isinstance(reminder.priority, Priority)
    return {"id": 1, "at": reminder.at.isoformat(), "priority": reminder.priority.value, "repeat_days": repeat_days}


async def weather(city: str) -> str:
    """Today's weather in a city."""
    raise RuntimeError(f"no weather service for {city} in this example")


async def main() -> None:
    async with stdio_session(f"{sys.executable} -m mcp_server_time --local-timezone UTC") as session:
        toolset, _ = toolcast.ToolSet.build([("time", await list_tools(session)), set_reminder, weather])
        tools, report = tc_openai.tools(toolset, api="responses")
        print("tools sent:", [(t["name"], t["strict"]) for t in tools])

        reminder = {"text": "call Ada", "at": "2026-12-07T09:00:00Z", "priority": "high"}
        response = {"output": [  # what a model sends back (Responses API)
            {"type": "function_call", "call_id": "call_1", "name": "time__get_current_time",
             "arguments": json.dumps({"timezone": "Asia/Tokyo"})},
            {"type": "function_call", "call_id": "call_2", "name": "set_reminder",
             "arguments": json.dumps({"reminder": reminder, "repeat_days": None})},
            {"type": "function_call", "call_id": "call_3", "name": "weather", "arguments": '{"city": "Paris"}'},
        ]}
        calls, rejected = tc_openai.tool_calls(response, toolset, report)
        outputs = await execute_tool_calls(calls, {"time": session}, timeout=20)
        for item in rejected + outputs:
            print(json.dumps(item)[:200])


if __name__ == "__main__":
    asyncio.run(main())
