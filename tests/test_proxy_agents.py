"""The OpenAI Agents SDK's MCPServerStdio, pointed at `toolcast proxy`, converts every tool strict.

MCPServerStdio lists the proxy's tools and MCPUtil.to_function_tool runs the SDK's own strict
conversion (convert_schemas_to_strict=True) on each; then a whole Agent run against a loopback
stub of the Responses API sends them to the "model" and runs the call it answers with.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

agents_mcp = pytest.importorskip("agents.mcp")
from agents.mcp import MCPServerStdio, MCPUtil  # noqa: E402 - after the importorskip

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
PY = sys.executable
ECHO = f"{PY} {HERE / 'servers' / 'echo_server.py'}"
TIME = f"{PY} -m mcp_server_time --local-timezone UTC"


def _convert(params: dict) -> dict[str, bool]:
    """Each listed tool's name and whether the SDK made it strict."""

    async def go() -> dict[str, bool]:
        server = MCPServerStdio(params, client_session_timeout_seconds=60, name="under-test")
        async with server:
            tools = await server.list_tools()
            out = {}
            for tool in tools:
                converted = MCPUtil.to_function_tool(tool, server, convert_schemas_to_strict=True)
                out[tool.name] = converted.strict_json_schema
            return out

    return asyncio.run(asyncio.wait_for(go(), 120))


def test_every_proxied_tool_converts_strict(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    git = f"{PY} -m mcp_server_git --repository {repo}"
    args = ["-m", "toolcast.cli.main", "proxy", "--server", f"echo={ECHO}",
            "--server", f"time={TIME}", "--server", f"git={git}"]
    strict = _convert({"command": PY, "args": args})
    assert len(strict) > 10 and any(n.startswith("git__") for n in strict)
    assert [name for name, ok in strict.items() if not ok] == []


def test_without_the_proxy_open_tools_fall_back():
    # The contrast that makes the test above mean something: the same server, direct. Its
    # tools with a bare {"type": "object"} schema are sent non-strict by the SDK.
    strict = _convert({"command": PY, "args": [str(HERE / "servers" / "echo_server.py")]})
    assert sorted(name for name, ok in strict.items() if not ok) == ["crash", "fail", "garbage", "hang"]


def test_an_agent_run_against_a_model_stub_sends_strict_tools_and_the_server_gets_no_forced_nulls():
    # The whole loop of an Agents SDK user: Runner -> model (a loopback Responses API stub) ->
    # function call with the nulls strict mode forces -> MCPServerStdio -> proxy -> echo server.
    agents = pytest.importorskip("agents")
    from openai import AsyncOpenAI
    from servers.openai_stub import openai_stub, responses_response

    from toolcast import openai as tc_openai
    from toolcast.mcp_runtime import list_tools_stdio_sync
    from toolcast.toolset import ToolSet

    toolset, _ = ToolSet.build({"echo": list_tools_stdio_sync(ECHO)})
    compiled = {t["name"]: t["parameters"] for t in tc_openai.tools(toolset, strict=True)[0]}
    forced = {"text": "hi", "count": None, "options": {"loud": None, "lang": "en"}}

    async def go(stub) -> Any:
        client = AsyncOpenAI(base_url=stub.base_url, api_key="test-key", max_retries=0)
        model = agents.OpenAIResponsesModel(model="gpt-test", openai_client=client)
        params = {"command": PY, "args": ["-m", "toolcast.cli.main", "proxy", "--server", f"echo={ECHO}"]}
        async with MCPServerStdio(params, client_session_timeout_seconds=60, name="proxy") as server:
            agent = agents.Agent(name="a", instructions="use the tools", model=model,
                                 mcp_servers=[server], mcp_config={"convert_schemas_to_strict": True})
            return await agents.Runner.run(agent, "echo hi", max_turns=3,
                                           run_config=agents.RunConfig(tracing_disabled=True))

    with openai_stub() as stub:
        stub.replies += [
            responses_response([("call_1", "echo__echo", json.dumps(forced))]),
            responses_response([]),
        ]
        result = asyncio.run(asyncio.wait_for(go(stub), 120))
        requests = [body for _, body in stub.requests]

    assert result.final_output == "calling tools" and len(requests) == 2
    sent = {t["name"]: t for t in requests[0]["tools"]}
    assert sorted(sent) == sorted(compiled)
    for name, tool in sent.items():
        assert tool["strict"] is True, name
        assert tool["parameters"] == compiled[name], name
    outputs = [i for i in requests[1]["input"] if i.get("type") == "function_call_output"]
    assert [o["call_id"] for o in outputs] == ["call_1"]
    # The echo server answers with the arguments it received: the forced nulls are gone.
    output = outputs[0]["output"]
    texts = [output] if isinstance(output, str) else [p["text"] for p in output if p.get("type") == "input_text"]
    assert json.loads(texts[0]) == {"text": "hi", "options": {"lang": "en"}}
