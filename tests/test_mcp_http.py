"""MCP over Streamable HTTP: a loopback server of the official SDK, through the API and the CLI."""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolcast.cli.main import main
from toolcast.mcp_runtime import (
    McpServerError,
    http_session,
    list_tools_http,
    list_tools_http_sync,
)

HERE = Path(__file__).parent
SERVER = HERE / "servers" / "http_server.py"


def _start(mode: str, *extra: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, str(SERVER), "--mode", mode, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    url = proc.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), url
    return proc, url


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, str]]:
    """One loopback server per mode; the URL of each."""
    started = {mode: _start(mode) for mode in ("ok", "500", "garbage", "hang")}
    started["auth"] = _start("ok", "--require-auth", "Bearer abc123")
    yield {mode: url for mode, (_, url) in started.items()}
    for proc, _ in started.values():
        proc.kill()
        proc.wait()


def test_lists_the_tools_of_an_http_server(servers):
    tools = list_tools_http_sync(servers["ok"], timeout=10)
    assert sorted(t["name"] for t in tools) == ["echo", "whoami"]
    echo = next(t for t in tools if t["name"] == "echo")
    assert echo["inputSchema"]["properties"]["text"]["type"] == "string"


def test_the_authorization_header_reaches_the_server(servers):
    async def run() -> str:
        headers = {"Authorization": "Bearer s3cret"}
        async with http_session(servers["ok"], headers=headers, timeout=10) as session:
            result = await session.call_tool("whoami", {})
            return result.content[0].text

    assert asyncio.run(run()) == "Bearer s3cret"


def test_a_session_calls_tools(servers):
    async def run() -> str:
        async with http_session(servers["ok"], timeout=10) as session:
            result = await session.call_tool("echo", {"text": "hi", "count": 2})
            return result.content[0].text

    assert json.loads(asyncio.run(run())) == {"count": 2, "text": "hi"}


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://127.0.0.1/mcp", r"^MCP server URL 'ftp://127.0.0.1/mcp' is not an http:// or https:// URL$"),
        ("nonsense", r"^MCP server URL 'nonsense' is not an http:// or https:// URL$"),
        ("http://127.0.0.1:notaport/mcp", r"is not a valid URL"),
        ("", r"must be a non-empty string"),
    ],
)
def test_a_bad_url_is_one_line_error(url, message):
    with pytest.raises(McpServerError, match=message):
        list_tools_http_sync(url, timeout=5)


def test_a_refused_connection_names_the_url_without_secrets():
    # Port 1 on loopback: nothing listens there.
    with pytest.raises(McpServerError) as info:
        list_tools_http_sync("http://user:pw@127.0.0.1:1/mcp?token=abc", timeout=5)
    text = str(info.value)
    assert text.startswith("MCP server at 'http://127.0.0.1:1/mcp' failed:")
    assert "pw" not in text and "abc" not in text and "\n" not in text


def test_a_server_answering_500_is_an_error(servers):
    with pytest.raises(McpServerError, match=r"^MCP server at 'http://127\.0\.0\.1:\d+/mcp' failed: "):
        list_tools_http_sync(servers["500"], timeout=5)


def test_a_server_answering_garbage_is_an_error(servers):
    with pytest.raises(McpServerError) as info:
        list_tools_http_sync(servers["garbage"], timeout=5)
    text = str(info.value)
    assert "JSON" in text and "\n" not in text and len(text) < 400


def test_a_hanging_server_times_out(servers):
    with pytest.raises(McpServerError, match=r"did not answer within 1 s$"):
        asyncio.run(list_tools_http(servers["hang"], timeout=1))


# --------------------------------------------------------------------------- the CLI


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_compiles_the_tools_of_an_http_server(servers):
    code, out, err = _cli("check", "--mcp-url", servers["ok"], "--format", "json", "--fail-on", "never")
    assert code == 0, err
    doc = json.loads(out)
    names = sorted(t["name"] for t in doc["results"])
    assert names == ["echo", "whoami"]


def test_cli_sends_the_authorization_header_from_the_environment(servers, monkeypatch):
    monkeypatch.setenv("TC_TOKEN", "abc123")  # no scheme: sent as "Bearer abc123"
    code, out, err = _cli("check", "--mcp-url", servers["auth"], "--mcp-auth-env", "TC_TOKEN",
                          "--format", "json", "--fail-on", "never")
    assert code == 0, out + err
    assert sorted(t["name"] for t in json.loads(out)["results"]) == ["echo", "whoami"]
    monkeypatch.setenv("TC_TOKEN", "Bearer wrong")  # a value with a scheme is sent as it is
    code, out, _ = _cli("check", "--mcp-url", servers["auth"], "--mcp-auth-env", "TC_TOKEN",
                        "--format", "json")
    assert code == 2 and json.loads(out)["errors"], out
    assert "wrong" not in out  # the header's value never appears in the report


def test_cli_without_the_header_the_server_refuses(servers):
    code, out, _ = _cli("check", "--mcp-url", servers["auth"], "--format", "json")
    assert code == 2
    assert json.loads(out)["errors"][0]["source"].startswith("mcp:http://127.0.0.1:")


def test_cli_auth_env_without_a_url_is_a_usage_error(tmp_path):
    code, _, err = _cli("check", str(tmp_path), "--mcp-auth-env", "TC_TOKEN")
    assert code == 2 and "--mcp-auth-env needs --mcp-url" in err


def test_cli_missing_auth_variable_is_a_usage_error(servers, monkeypatch):
    monkeypatch.delenv("TC_NO_SUCH_VAR", raising=False)
    code, _, err = _cli("check", "--mcp-url", servers["ok"], "--mcp-auth-env", "TC_NO_SUCH_VAR")
    assert code == 2
    assert "TC_NO_SUCH_VAR" in err and "not set" in err and "Traceback" not in err


def test_cli_a_bad_server_is_an_input_error_and_the_others_still_compile(servers):
    code, out, err = _cli(
        "check", "--mcp-url", servers["500"], "--mcp-url", servers["ok"], "--format", "json"
    )
    assert code == 2
    doc = json.loads(out)
    assert sorted(t["name"] for t in doc["results"]) == ["echo", "whoami"]
    assert any("failed" in e["message"] for e in doc["errors"]), doc["errors"]
    assert "Traceback" not in err


def _dropping() -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, str(HERE / "servers" / "dropping_http_server.py")],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return proc, proc.stdout.readline().strip()


def _calls(*tools: str) -> list:
    from toolcast.providers.openai import ToolCall

    return [ToolCall(call_id=t, name=f"h__{t}", server="h", tool=t, arguments={}) for t in tools]


def test_a_call_whose_connection_fails_fails_alone():
    # A dropped connection (no answer), or an answer cut off midway, ended the whole session:
    # an ExceptionGroup(RemoteProtocolError) from the SDK's transport, every call's output lost.
    from toolcast.mcp_runtime import execute_tool_calls

    async def go():
        async with http_session(url, timeout=30) as session:
            outputs = await execute_tool_calls(_calls("drop", "cut", "echo"), {"h": session}, timeout=30)
            return outputs, (await session.call_tool("echo", {})).content[0].text

    proc, url = _dropping()
    try:
        (drop, cut, echo), again = asyncio.run(asyncio.wait_for(go(), 60))
    finally:
        proc.kill()
        proc.wait()
    assert drop["output"] == ("Error: tool 'drop' on server 'h' failed: the HTTP request failed: "
                              "Server disconnected without sending a response.")
    assert cut["output"].startswith("Error: tool 'cut' on server 'h' failed: ")
    assert "its answer was cut off: peer closed connection" in cut["output"]
    assert echo["output"] == "ok" and again == "ok"


def test_a_server_that_dies_mid_call_fails_that_call_and_the_next():
    from toolcast.mcp_runtime import execute_tool_calls

    async def go():
        async with http_session(url, timeout=30) as session:
            first = await execute_tool_calls(_calls("exit"), {"h": session}, timeout=30)
            return first + await execute_tool_calls(_calls("echo"), {"h": session}, timeout=30)

    proc, url = _dropping()
    try:
        died, after = asyncio.run(asyncio.wait_for(go(), 60))
    finally:
        proc.kill()
        proc.wait()
    assert died["output"].startswith("Error: tool 'exit' on server 'h' failed: the HTTP request failed: ")
    assert after["output"].startswith("Error: tool 'echo' on server 'h' failed: the HTTP request failed: ")
