"""`toolcast proxy` end to end: the official MCP SDK client on stdio against the proxy in front of
our echo server, mcp-server-time, mcp-server-git and a loopback Streamable HTTP server."""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from toolcast.cli.main import main

HERE = Path(__file__).parent
PY = sys.executable
ECHO = f"{PY} {HERE / 'servers' / 'echo_server.py'}"
HTTP_SERVER = HERE / "servers" / "http_server.py"
TIME = f"{PY} -m mcp_server_time --local-timezone UTC"


@asynccontextmanager
async def proxied(*options: str, seen: list | None = None, errlog: Any = None,
                  env: dict[str, str] | None = None, initialize: bool = True) -> AsyncIterator[ClientSession]:
    """The official SDK's stdio client and session, connected to `toolcast proxy OPTIONS` (and
    initialized, unless `initialize` is false). The proxy gets the SDK's default environment, `env`
    and this process's PYTHONPATH, so that it runs the toolcast under test (not an installed one)."""
    path = {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
    params = StdioServerParameters(command=PY, args=["-m", "toolcast.cli.main", "proxy", *options],
                                   env={**path, **(env or {})})

    async def on_message(message: Any) -> None:
        if seen is not None:
            seen.append(message)

    log = errlog if errlog is not None else open(os.devnull, "w")  # noqa: SIM115
    try:
        async with (
            stdio_client(params, errlog=log) as (read, write),
            ClientSession(read, write, message_handler=on_message) as session,
        ):
            if initialize:
                await session.initialize()
            yield session
    finally:
        if errlog is None:
            log.close()


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 120))


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content)


def test_lists_tools_compiled_strict_with_toolset_names():
    async def go():
        async with proxied("--server", f"echo={ECHO}") as session:
            return {t.name: t for t in (await session.list_tools()).tools}

    tools = run(go())
    assert sorted(tools) == ["echo__crash", "echo__echo", "echo__fail", "echo__garbage", "echo__hang"]
    schema = tools["echo__echo"].input_schema
    assert schema["additionalProperties"] is False
    assert sorted(schema["required"]) == ["count", "options", "text"]  # strict: every property
    assert schema["properties"]["count"]["type"] == ["integer", "null"]
    assert schema["properties"]["options"]["properties"]["loud"]["type"] == ["boolean", "null"]


def test_strips_exactly_the_nulls_the_compile_added():
    async def go():
        async with proxied("--server", f"echo={ECHO}") as session:
            a = await session.call_tool(
                "echo__echo", {"text": "hi", "count": None, "options": {"loud": None, "lang": "en"}}
            )
            # text is required in the original: a null there is the model's, and is kept.
            b = await session.call_tool("echo__echo", {"text": None, "count": 2, "options": None})
            return a, b

    a, b = run(go())
    assert json.loads(text_of(a)) == {"text": "hi", "options": {"lang": "en"}}
    assert a.structured_content == {"received": {"text": "hi", "options": {"lang": "en"}}}
    assert json.loads(text_of(b)) == {"text": None, "count": 2}


def test_returns_results_unchanged_including_is_error():
    async def go():
        async with proxied("--server", f"echo={ECHO}") as session:
            return await session.call_tool("echo__fail", {})

    result = run(go())
    assert result.is_error is True
    assert text_of(result) == "it failed on purpose"  # no prefix: the server's own result


def test_a_crash_is_an_error_result_and_the_server_is_restarted():
    async def go():
        async with proxied("--server", f"echo={ECHO}") as session:
            crashed = await session.call_tool("echo__crash", {})
            after = await session.call_tool("echo__echo", {"text": "again", "count": None, "options": None})
            return crashed, after

    crashed, after = run(go())
    assert crashed.is_error is True
    assert "tool 'crash' on server 'echo' failed" in text_of(crashed)
    assert "exit status 3" in text_of(crashed)
    assert after.is_error is not True and json.loads(text_of(after)) == {"text": "again"}


def test_a_hang_times_out_without_holding_up_other_calls():
    # (the server's timeout bounds its start too: 2 s was too short for a Python server starting on
    # a loaded machine, and the proxy then had no tools to call)
    async def go():
        async with proxied("--server", f"echo={ECHO}", "--server-timeout", "echo=5") as session:
            hang = asyncio.ensure_future(session.call_tool("echo__hang", {}))
            echo = await session.call_tool("echo__echo", {"text": "meanwhile", "count": None, "options": None})
            assert not hang.done()  # answered while the hung call still waits
            return await hang, echo

    hang, echo = run(go())
    assert hang.is_error is True and "did not answer within 5 s" in text_of(hang)
    assert json.loads(text_of(echo)) == {"text": "meanwhile"}


def test_garbage_from_the_server_is_an_error_result():
    async def go():
        async with proxied("--server", f"echo={ECHO}", "--timeout", "10") as session:
            bad = await session.call_tool("echo__garbage", {})
            good = await session.call_tool("echo__echo", {"text": "ok", "count": None, "options": None})
            return bad, good

    bad, good = run(go())
    assert bad.is_error is True and "not a tool result" in text_of(bad)
    assert json.loads(text_of(good)) == {"text": "ok"}


def test_unknown_tool_is_an_error_result():
    async def go():
        async with proxied("--server", f"echo={ECHO}") as session:
            return await session.call_tool("echo__nope", {})

    result = run(go())
    assert result.is_error is True and "unknown tool 'echo__nope'" in text_of(result)


def test_tools_changed_after_a_restart_sends_list_changed(tmp_path):
    extra = tmp_path / "extra.txt"
    extra.write_text("first\n", encoding="utf-8")

    async def go():
        seen: list = []
        async with proxied("--server", f"echo={ECHO} --extra-tools {extra}", seen=seen) as session:
            before = {t.name for t in (await session.list_tools()).tools}
            extra.write_text("second\n", encoding="utf-8")
            await session.call_tool("echo__crash", {})
            await session.call_tool("echo__echo", {"text": "x", "count": None, "options": None})
            for _ in range(50):  # the notification may arrive just after the call's answer
                if _list_changed(seen):
                    break
                await asyncio.sleep(0.05)
            after = {t.name for t in (await session.list_tools()).tools}
            return before, after, seen

    before, after, seen = run(go())
    assert "echo__first" in before and "echo__second" not in before
    assert "echo__second" in after and "echo__first" not in after
    assert any("list_changed" in repr(m) or "ToolListChanged" in type(m).__name__ for m in seen), seen


def _list_changed(seen: list) -> bool:
    return any("list_changed" in repr(m) or "ToolListChanged" in type(m).__name__ for m in seen)


def test_a_server_s_own_list_changed_is_passed_on_with_the_new_tools(tmp_path):
    # No crash this time: the server itself says its tools changed; the proxy lists it again,
    # compiles, and tells its client.
    extra = tmp_path / "extra.txt"
    extra.write_text("first\n", encoding="utf-8")

    async def go():
        seen: list = []
        async with proxied("--server", f"echo={ECHO} --extra-tools {extra}", seen=seen) as session:
            before = {t.name: t for t in (await session.list_tools()).tools}
            extra.write_text("second\n", encoding="utf-8")
            reloaded = await session.call_tool("echo__reload", {})
            for _ in range(100):  # the notification comes after the call's answer
                if _list_changed(seen):
                    break
                await asyncio.sleep(0.05)
            told = _list_changed(seen)
            after = {t.name: t for t in (await session.list_tools()).tools}
            called = await session.call_tool("echo__second", {})
            return before, reloaded, told, after, called

    before, reloaded, told, after, called = run(go())
    assert "echo__first" in before and "echo__second" not in before
    assert text_of(reloaded) == "reloaded" and told
    assert "echo__second" in after and "echo__first" not in after
    assert after["echo__second"].input_schema["additionalProperties"] is False  # compiled
    assert called.is_error is not True


def test_a_server_that_failed_at_start_is_tried_again_on_the_next_list_and_call(tmp_path):
    late = tmp_path / "late_server.py"  # not there yet: the server cannot start
    log = (tmp_path / "stderr.txt").open("w+", encoding="utf-8")

    async def go():
        seen: list = []
        async with proxied("--server", f"echo={ECHO}", "--server", f"late={PY} {late}",
                           errlog=log, seen=seen) as session:
            first = [t.name for t in (await session.list_tools()).tools]
            refused = await session.call_tool("late__echo", {"text": "x"})
            late.write_text((HERE / "servers" / "echo_server.py").read_text(encoding="utf-8"))
            called = await session.call_tool("late__echo", {"text": "x", "count": None, "options": None})
            listed = [t.name for t in (await session.list_tools()).tools]
            return first, refused, called, listed, _list_changed(seen)

    first, refused, called, listed, told = run(go())
    log.seek(0)
    stderr = log.read()
    log.close()
    assert not any(n.startswith("late__") for n in first) and "echo__echo" in first
    assert refused.is_error is True
    assert "unknown tool 'late__echo'; server 'late' is unavailable:" in text_of(refused)
    assert "exited" in text_of(refused)  # the reason, not only that it is down
    assert called.is_error is not True and json.loads(text_of(called)) == {"text": "x"}
    assert "late__echo" in listed and "echo__echo" in listed and told
    assert "server 'late' is unavailable" in stderr and "server 'late' is up" in stderr


def test_a_retry_that_hangs_does_not_hold_up_tools_list(tmp_path):
    # Fails at once when the proxy starts; hangs when it is tried again (its timeout is long).
    marker = tmp_path / "tried"
    slow = tmp_path / "slow_server.py"
    slow.write_text(
        "import os, sys, time\n"
        f"marker = {str(marker)!r}\n"
        "if not os.path.exists(marker):\n"
        "    open(marker, 'w').close()\n"
        "    sys.exit(1)\n"
        "time.sleep(600)\n",
        encoding="utf-8",
    )

    async def go():
        async with proxied("--server", f"echo={ECHO}", "--server", f"slow={PY} {slow}",
                           "--server-timeout", "slow=600") as session:
            # Without the bound, this list waits for the retry: 600 s, past run()'s 120.
            first = [t.name for t in (await session.list_tools()).tools]
            again = [t.name for t in (await session.list_tools()).tools]
            called = await session.call_tool("echo__echo", {"text": "x", "count": None, "options": None})
            return first, again, called

    first, again, called = run(go())
    assert "echo__echo" in first and first == again
    assert not any(n.startswith("slow__") for n in first)
    assert json.loads(text_of(called)) == {"text": "x"}


def test_a_server_that_cannot_start_leaves_the_others_working(tmp_path):
    log = (tmp_path / "stderr.txt").open("w+", encoding="utf-8")

    async def go():
        async with proxied("--server", "bad=no-such-mcp-server-xyz", "--server", f"echo={ECHO}",
                           errlog=log) as session:
            tools = [t.name for t in (await session.list_tools()).tools]
            result = await session.call_tool("echo__echo", {"text": "x", "count": None, "options": None})
            return tools, result

    tools, result = run(go())
    log.seek(0)
    stderr = log.read()
    log.close()
    assert "echo__echo" in tools and not any(t.startswith("bad__") for t in tools)
    assert json.loads(text_of(result)) == {"text": "x"}
    assert "server 'bad' is unavailable: MCP server command not found: no-such-mcp-server-xyz" in stderr
    assert "target openai: 1 of 2 server(s) up" in stderr


def test_in_front_of_mcp_server_time_and_git(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    git = f"{PY} -m mcp_server_git --repository {repo}"

    async def go():
        async with proxied("--server", f"time={TIME}", "--server", f"git={git}") as session:
            tools = {t.name: t for t in (await session.list_tools()).tools}
            now = await session.call_tool("time__get_current_time", {"timezone": "UTC"})
            status = await session.call_tool("git__git_status", {"repo_path": str(repo)})
            return tools, now, status

    tools, now, status = run(go())
    assert "time__get_current_time" in tools and "git__git_status" in tools
    assert all(t.input_schema.get("additionalProperties") is False for t in tools.values())
    assert now.is_error is not True and "UTC" in text_of(now)
    assert status.is_error is not True and "branch" in text_of(status).lower()


def test_in_front_of_an_http_server_with_auth_from_the_environment():
    proc = subprocess.Popen([PY, str(HTTP_SERVER), "--require-auth", "Bearer tok-1"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = proc.stdout.readline().strip()

    async def go():
        async with proxied("--server", f"web={url}", "--auth-env", "web=TC_PROXY_TOKEN",
                           env={"TC_PROXY_TOKEN": "tok-1"}) as session:
            tools = sorted(t.name for t in (await session.list_tools()).tools)
            echo = await session.call_tool("web__echo", {"text": "hi", "count": None})
            return tools, echo

    try:
        tools, echo = run(go())
    finally:
        proc.kill()
        proc.wait()
    assert tools == ["web__echo", "web__whoami"]
    assert json.loads(text_of(echo)) == {"count": None, "text": "hi"}  # the server's own default


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["proxy"], "give at least one --server"),
        (["proxy", "--server", "noequals"], "expected NAME=COMMAND or NAME=URL"),
        (["proxy", "--server", "a=x", "--server-timeout", "b=3"], "no --server named 'b'"),
        (["proxy", "--server", "a=x", "--auth-env", "a=V"], "is not a URL"),
        (["proxy", "--server", "a=x", "--target", "nope"], "unknown target 'nope'"),
    ],
)
def test_usage_errors_exit_2_with_one_line(argv, message):
    err = io.StringIO()
    code = main(argv, stdout=io.StringIO(), stderr=err)
    assert code == 2
    assert message in err.getvalue() and err.getvalue().count("\n") == 1


@pytest.mark.parametrize("target", ["anthropic", "gemini", "vertex"])
def test_other_targets_list_their_compiled_schemas(target):
    async def go():
        async with proxied("--target", target, "--server", f"echo={ECHO}") as session:
            tools = {t.name: t for t in (await session.list_tools()).tools}
            result = await session.call_tool("echo__echo", {"text": "hi", "count": None, "options": None})
            return tools, result

    tools, result = run(go())
    schema = tools["echo__echo"].input_schema
    assert schema["additionalProperties"] is False
    # These targets keep optional properties optional: the compile adds no null, so a null the
    # model sent is its own and reaches the server.
    assert schema["properties"]["count"] == {"type": "integer"} and schema["required"] == ["text"]
    assert json.loads(text_of(result)) == {"text": "hi", "count": None, "options": None}


def test_structured_content_json_cannot_carry_is_an_error_result():
    # Found by testing as a user would: a result whose structuredContent held NaN reached the
    # client as {"v": null} with isError false (the SDK's JSON dump writes NaN as null).
    async def go():
        async with proxied("--server", f"echo={ECHO} --nan-tool", "--timeout", "10") as session:
            bad = await session.call_tool("echo__nan", {})
            good = await session.call_tool("echo__echo", {"text": "ok", "count": None, "options": None})
            return bad, good

    bad, good = run(go())
    assert bad.is_error is True and "JSON cannot carry" in text_of(bad) and "nan at structuredContent" in text_of(bad)
    assert good.is_error is not True and json.loads(text_of(good)) == {"text": "ok"}


HOSTILE = f"{PY} {HERE / 'servers' / 'hostile_server.py'} --answers"


@pytest.mark.parametrize("tool,said", [
    # A live server's JSON-RPC error of code -32000 (the SDK's code for a closed connection too).
    ("busy", "toolcast proxy: tool 'busy' on server 'h' answered with an error: rate limited"),
    # A result the SDK refuses (structuredContent its outputSchema does not allow): a RuntimeError.
    ("typed", "toolcast proxy: tool 'typed' on server 'h' failed: Invalid structured content returned by tool typed"),
])
def test_a_failed_call_on_a_live_server_does_not_restart_it(tool: str, said: str):
    # Both were taken for a crash: the server was ended and started again, and the call in flight
    # on it failed with "Connection closed".
    async def go():
        async with proxied("--server", f"h={HOSTILE}") as session:
            held = asyncio.ensure_future(session.call_tool("h__held", {}))
            failed = await session.call_tool(f"h__{tool}", {})
            echo = await session.call_tool("h__echo", {})  # the server answers `held` after it
            return await held, failed, echo

    held, failed, echo = run(go())
    assert failed.is_error is True and text_of(failed).startswith(said)
    assert "on the next call" not in text_of(failed)
    assert held.is_error is not True and text_of(held) == "held"
    assert echo.is_error is not True and text_of(echo) == "{}"


def test_an_http_answer_cut_off_is_an_error_result_and_one_warning_line(tmp_path):
    # The SDK logs such an answer with its traceback, which reached the proxy's stderr as it was.
    server = subprocess.Popen([PY, str(HERE / "servers" / "dropping_http_server.py")],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = server.stdout.readline().strip()

    async def go():
        with open(tmp_path / "stderr", "w") as err:
            async with proxied("--server", f"h={url}", errlog=err) as session:
                return await session.call_tool("h__cut", {}), await session.call_tool("h__echo", {})

    try:
        cut, echo = run(go())
    finally:
        server.kill()
        server.wait()
    assert cut.is_error is True and "its answer was cut off: peer closed connection" in text_of(cut)
    assert echo.is_error is not True and text_of(echo) == "ok"
    stderr = (tmp_path / "stderr").read_text()
    assert "Traceback" not in stderr
    assert "toolcast proxy: warning: MCP SDK: Error parsing JSON response (StreamError: " in stderr
