"""The OpenAI Agents SDK's MCPServerStdio, pointed at `toolcast proxy`, converts every tool strict.

The SDK is driven directly: MCPServerStdio lists the proxy's tools and MCPUtil.to_function_tool
runs the SDK's own strict conversion (convert_schemas_to_strict=True) on each; no model runs.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

agents_mcp = pytest.importorskip("agents.mcp")
from agents.mcp import MCPServerStdio, MCPUtil  # noqa: E402 - after the importorskip

HERE = Path(__file__).parent
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
    args = ["-m", "toolcast.cli", "proxy", "--server", f"echo={ECHO}",
            "--server", f"time={TIME}", "--server", f"git={git}"]
    strict = _convert({"command": PY, "args": args})
    assert len(strict) > 10 and any(n.startswith("git__") for n in strict)
    assert [name for name, ok in strict.items() if not ok] == []


def test_without_the_proxy_open_tools_fall_back():
    # The contrast that makes the test above mean something: the same server, direct. Its
    # tools with a bare {"type": "object"} schema are sent non-strict by the SDK.
    strict = _convert({"command": PY, "args": [str(HERE / "servers" / "echo_server.py")]})
    assert sorted(name for name, ok in strict.items() if not ok) == ["crash", "fail", "garbage", "hang"]
