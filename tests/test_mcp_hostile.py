"""Hostile stdio MCP servers (tests/servers/hostile_server.py): noise, floods, children, crashes, hangs."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from toolcast.mcp_runtime import (
    McpServerError,
    execute_tool_calls,
    list_tools,
    list_tools_stdio_sync,
    stdio_session,
)
from toolcast.providers.openai import tool_calls
from toolcast.toolset import ToolSet

HERE = Path(__file__).parent
PY = sys.executable
HOSTILE = [PY, str(HERE / "servers" / "hostile_server.py")]
# Every test here is bounded: a hang fails at this limit instead of blocking the suite.
LIMIT = 60


def cmd(*flags: str) -> str:
    return shlex.join([*HOSTILE, *flags])


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, LIMIT))


def gone(pid: int) -> bool:
    """The process has exited (a zombie waiting for its reaper counts as exited)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return any(line.split()[1:2] == ["Z"] for line in f if line.startswith("State:"))
    except FileNotFoundError:
        return True


def wait_gone(pid: int) -> bool:
    for _ in range(100):  # a condition waited for, not a duration measured
        if gone(pid):
            return True
        time.sleep(0.05)
    return gone(pid)


def kill_quietly(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, 9)


def test_non_json_stdout_lines_are_reported_one_line_each_and_listing_goes_on():
    problems: list[str] = []
    tools = list_tools_stdio_sync(cmd("--noise", "14"), timeout=LIMIT, on_problem=problems.append)
    assert [t["name"] for t in tools] == ["echo", "deep"]
    assert len(problems) == 11 and all("\n" not in p and len(p) < 400 for p in problems)
    assert "printed a line that is not a JSON-RPC message on stdout, skipped: " in problems[0]
    assert problems[0].endswith("'Starting hostile server v1.0'")
    assert problems[1].endswith("'{not json'") and problems[2].endswith("""'{"hello": "world"}'""")
    assert problems[3].endswith("x…'")  # the 5,000-character line, cut
    assert problems[-1].endswith(": 4 more such lines on stdout, skipped")


def test_an_overlong_stdout_line_is_skipped_and_reported(monkeypatch):
    from toolcast._runtime import mcp_stdio as _mcp_stdio

    # 64 KiB here instead of 64 MiB: the same code path, without a 64 MiB pipe in a test.
    monkeypatch.setattr(_mcp_stdio, "MAX_LINE_BYTES", 64 * 1024)
    problems: list[str] = []
    tools = list_tools_stdio_sync(
        cmd("--long-line", "600"), timeout=LIMIT, on_problem=problems.append
    )
    assert [t["name"] for t in tools] == ["echo", "deep"]
    assert (
        len(problems) == 1
        and "printed a line over 65536 bytes on stdout, skipped: 'LLL" in problems[0]
    )


def test_cli_mcp_with_a_noisy_server_warns_one_line_per_problem_without_traceback(tmp_path):
    proc = subprocess.run(
        [
            PY,
            "-m",
            "toolcast.cli.main",
            "compile",
            "--mcp",
            cmd("--noise", "3", "--bad-notice"),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=LIMIT,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 4 and all(
        line.startswith("toolcast: warning: MCP server ") for line in lines
    )
    assert lines[0].endswith("skipped: 'Starting hostile server v1.0'")
    assert "Failed to validate notification: notifications/message (ValidationError: " in lines[3]
    assert [r["name"] for r in json.loads(proc.stdout)["results"]] == ["echo", "deep"]


def test_stderr_flood_keeps_only_a_bounded_tail():
    from toolcast._runtime.mcp_stdio import STDERR_TAIL_BYTES, ServerOutput, open_stdio

    async def scenario() -> ServerOutput:
        output = ServerOutput("hostile", None)
        # 20 MiB of stderr, then the server answers nothing and exits with its stdin closed.
        async with open_stdio([*HOSTILE, "--stderr-mb", "20", "--silent"], output) as (
            _read,
            write,
        ):
            await write.aclose()
        return output

    output = run(scenario())
    # At most the cap plus the one chunk that crossed it (pipes deliver at most 64 KiB at once).
    assert output.stderr_bytes <= STDERR_TAIL_BYTES + 65536
    assert output.stderr_tail() == "last stderr line"


def test_a_failing_server_reports_the_end_of_a_flooded_stderr(tmp_path):
    pid_file = tmp_path / "child.pid"
    with pytest.raises(McpServerError) as info:
        list_tools_stdio_sync(cmd("--stderr-mb", "8", "--crash", str(pid_file)), timeout=LIMIT)
    assert str(info.value).endswith("(stderr: fatal: no configuration)")
    kill_quietly(int(pid_file.read_text()))


def test_a_crash_is_seen_at_once_even_while_a_child_holds_stdout(tmp_path):
    """The server exits before answering; its `sleep` child keeps the stdout pipe open."""
    pid_file = tmp_path / "child.pid"
    try:
        with pytest.raises(McpServerError) as info:
            list_tools_stdio_sync(cmd("--crash", str(pid_file)), timeout=LIMIT)
        message = str(info.value)
        # Not "did not answer within 60 s": the exit was noticed, not the timeout.
        assert "exited or closed its output before answering (exit status 4)" in message
        assert message.endswith("(stderr: fatal: no configuration)")
        assert wait_gone(int(pid_file.read_text()))
    finally:
        if pid_file.exists():
            kill_quietly(int(pid_file.read_text()))


@pytest.mark.parametrize("via", ["list_tools_stdio", "stdio_session"])
def test_children_of_a_server_do_not_outlive_it(tmp_path, via):
    pid_file = tmp_path / "child.pid"

    async def in_session():
        async with stdio_session([*HOSTILE, "--child", str(pid_file)]) as session:
            return await list_tools(session)

    try:
        if via == "list_tools_stdio":
            tools = list_tools_stdio_sync(cmd("--child", str(pid_file)), timeout=LIMIT)
        else:
            tools = run(in_session())
        assert [t["name"] for t in tools] == ["echo", "deep"]
        assert wait_gone(int(pid_file.read_text()))
    finally:
        if pid_file.exists():
            kill_quietly(int(pid_file.read_text()))


def test_stdio_session_has_a_startup_timeout():
    async def scenario():
        async with stdio_session([*HOSTILE, "--silent"], startup_timeout=0.5):
            raise AssertionError("a server that never answers initialize cannot start")

    with pytest.raises(McpServerError, match=r"did not answer initialize within 0.5 s") as info:
        run(scenario())
    assert "\n" not in str(info.value)


def test_stdio_session_start_failures_are_one_line_errors():
    async def scenario(argv):
        async with stdio_session(argv):
            raise AssertionError("cannot start")

    with pytest.raises(McpServerError, match=r"exit status 3\) \(stderr: bad config\)$"):
        run(scenario([PY, "-c", "import sys; print('bad config', file=sys.stderr); sys.exit(3)"]))


def test_an_answer_the_sdk_cannot_read_fails_that_call_at_once():
    """A result 1,000 levels deep cannot be parsed; the call fails now, the next one works."""

    async def scenario():
        async with stdio_session(HOSTILE) as session:
            ts, _ = ToolSet.build({"h": await list_tools(session)})
            calls, _ = tool_calls(
                [
                    {"type": "function_call", "call_id": "a", "name": "h__deep", "arguments": "{}"},
                    {
                        "type": "function_call",
                        "call_id": "b",
                        "name": "h__echo",
                        "arguments": '{"x": 1}',
                    },
                ],
                ts,
            )
            return await execute_tool_calls(calls, {"h": session}, timeout=LIMIT)

    deep, echo = run(scenario())
    assert deep["call_id"] == "a" and deep["output"].startswith(
        "Error: tool 'deep' on server 'h' failed: toolcast could not read the server's answer: "
    )
    assert echo == {"type": "function_call_output", "call_id": "b", "output": '{"x": 1}'}


def test_a_request_that_cannot_be_written_fails_alone_and_the_session_goes_on():
    """Arguments the SDK cannot serialise (a lone surrogate) used to end the whole session."""

    async def scenario():
        async with stdio_session(HOSTILE) as session:
            bad = await execute_tool_calls(
                [_call("a", {"x": "\ud800"}), _call("b", {"x": 1})], {"h": session}, timeout=LIMIT
            )
            again = await session.call_tool("echo", {"x": 2})
            return bad, again

    (bad, good), again = run(scenario())
    assert bad["output"].startswith(
        "Error: tool 'echo' on server 'h' failed: toolcast could not send the request: "
    )
    assert good["output"] == '{"x": 1}'
    assert again.content[0].text == '{"x": 2}'


def _call(call_id: str, arguments: dict):
    from toolcast.providers.openai import ToolCall

    return ToolCall(call_id=call_id, name="h__echo", server="h", tool="echo", arguments=arguments)


@pytest.mark.parametrize("flag,needle", [
    ("--refuse-init", "it answered with an error: not today"),
    # Found by a red team: reported as "it exited ... (exit status -15)", the status of toolcast's
    # own stop of the server, the SDK's reason lost.
    ("--old-version", "failed: Unsupported protocol version from the server: 1999-01-01"),
])
def test_a_server_that_answers_wrongly_is_reported_for_its_answer(flag: str, needle: str):
    # Found by testing as a user would: both were reported as "it exited or closed its output
    # before answering", the server's own error message lost (it had answered; it exited later,
    # when the client closed its stdin).
    with pytest.raises(McpServerError) as info:
        list_tools_stdio_sync(cmd(flag), timeout=LIMIT)
    assert needle in str(info.value) and "exited" not in str(info.value)


def test_one_tool_the_sdk_cannot_read_leaves_the_others_listed(tmp_path):
    # Found by a red team: the SDK refuses a tools/list page as a whole for one entry it cannot
    # read; every tool of the server was lost ("its answer is not valid MCP", exit 2). Now the
    # entry is passed on as sent and the compile judges it alone, as it does read from a file.
    tools = list_tools_stdio_sync(cmd("--bad-tool"), timeout=LIMIT)
    assert [t.get("name") for t in tools] == ["echo", "deep", "broken"]
    assert tools[2] == {"name": "broken"}
    import io

    from toolcast.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    code = main(["compile", "--mcp", cmd("--bad-tool"), "--out", str(tmp_path / "o")], stdout=out, stderr=err)
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert code != 2 and "not valid MCP" not in err.getvalue(), err.getvalue()
    assert "echo" in json.dumps(manifest) and "deep" in json.dumps(manifest)


def test_a_nan_in_a_listed_schema_reaches_the_compile_which_refuses_it():
    # Found by testing as a user would: the SDK's JSON dump wrote the NaN as null, and the tool
    # was sent with `"maximum": null` as "the original schema" (exit 0).
    import math

    from toolcast import compile_tool

    tools = {t["name"]: t for t in list_tools_stdio_sync(cmd("--nan"), timeout=LIMIT)}
    assert math.isnan(tools["nan"]["inputSchema"]["properties"]["n"]["maximum"])
    res = compile_tool(tools["nan"])
    assert res.status == "refused" and any(d.code.endswith("/non-json-value") for d in res.diagnostics)
    assert compile_tool(tools["echo"]).status == "strict"


def _raw_call(call_id: str, lines: str):
    from toolcast.providers.openai import ToolCall

    return ToolCall(call_id=call_id, name="h__raw", server="h", tool="raw", arguments={"lines": lines})


def _raw_and_echo(lines: str, problems: list[str]):
    """A call of the hostile server's `raw` tool beside an `echo` call; no call timeout."""

    async def scenario():
        async with stdio_session(HOSTILE, on_problem=problems.append) as session:
            return await execute_tool_calls(
                [_raw_call("a", lines), _call("b", {"x": 1})], {"h": session}, timeout=None
            )

    return run(scenario())


_CONTENT = '"content": [{"type": "text", "text": "%s"}]'
_AFTER = '\n{"jsonrpc": "2.0", "id": RID, "result": {%s}}' % (_CONTENT % "after")


@pytest.mark.parametrize("line,why", [
    # Not UTF-8 (a raw 0xE9): the line was skipped, and its call waited forever.
    ('{"jsonrpc": "2.0", "id": RID, "result": {%s}}' % (_CONTENT % "caf\xe9"),
     "it is not UTF-8 (byte 0xe9 at offset "),
    # Its id last (as the TypeScript SDK writes answers), after a value JSON does not allow.
    ('{"result": {%s, "n": 01}, "jsonrpc": "2.0", "id": RID}' % (_CONTENT % "x"), "Invalid JSON: "),
    # An id with a leading zero (not JSON): the SDK matches it to its request all the same.
    ('{"jsonrpc": "2.0", "id": 0RID, "result": {}}', "Invalid JSON: "),
])
def test_an_answer_that_cannot_be_read_fails_its_call_at_once(line: str, why: str):
    problems: list[str] = []
    bad, echo = _raw_and_echo(line, problems)
    assert bad["output"].startswith(
        f"Error: tool 'raw' on server 'h' failed: toolcast could not read the server's answer: {why}"
    )
    assert echo["output"] == '{"x": 1}'
    assert len(problems) == 1 and "printed an answer to request " in problems[0]


def test_an_overlong_answer_fails_its_call_at_once(monkeypatch):
    from toolcast._runtime import mcp_stdio as _mcp_stdio

    monkeypatch.setattr(_mcp_stdio, "MAX_LINE_BYTES", 64 * 1024)
    text = "y\\\\\\\"" * 30000  # escaped backslashes and quotes, cut anywhere by the pipe
    line = '{"result": {%s}, "jsonrpc": "2.0", "id": RID}' % (_CONTENT % text)
    problems: list[str] = []
    bad, echo = _raw_and_echo(line, problems)
    assert bad["output"] == (
        "Error: tool 'raw' on server 'h' failed: toolcast could not read the server's answer: "
        "it is over 65536 bytes"
    )
    assert echo["output"] == '{"x": 1}'
    assert len(problems) == 1 and "printed a line over 65536 bytes on stdout, skipped: " in problems[0]


@pytest.mark.parametrize("ident", ["1" + "0" * 5000, '"\\ud800"', "1.5", "[RID]", '"RID\\"'])
def test_an_answer_whose_id_cannot_be_read_is_reported_and_the_session_goes_on(ident: str):
    # A long number, a lone surrogate: reading the id raised inside the reader, and the whole
    # session ended (every call's output lost). A number that is not an integer was read as one.
    problems: list[str] = []
    bad, echo = _raw_and_echo('{"jsonrpc": "2.0", "id": ' + ident + ', "result": {"n": 01}}' + _AFTER, problems)
    assert bad["output"] == "after" and echo["output"] == '{"x": 1}'
    assert len(problems) == 1
    assert "printed a line that is not a JSON-RPC message on stdout, skipped: " in problems[0]


@pytest.mark.parametrize("levels", [300, 5000])
def test_a_tool_nested_past_the_sdks_json_reader_is_refused_alone_by_compile_mcp(tmp_path, levels):
    # Found by a red team: the SDK's JSON reader (about 200 levels) refused the whole listing.
    import io

    from toolcast.cli.main import main

    attack = shlex.join([PY, str(HERE / "servers" / "proxy_attack_server.py"), "--deep-tool", str(levels)])
    tools = list_tools_stdio_sync(attack, timeout=LIMIT)
    assert [t["name"] for t in tools][-2:] == ["getenv", "deep"]
    out, err = io.StringIO(), io.StringIO()
    code = main(["compile", "--mcp", attack, "--target", "mcp", "--out", str(tmp_path / "o")], stdout=out, stderr=err)
    manifest = json.dumps(json.loads((tmp_path / "o" / "manifest.json").read_text()))
    assert '"echo"' in manifest and "recursion" not in err.getvalue(), err.getvalue()
    if levels == 300:  # (read whole: judged as from a file, where MCP states no depth limit)
        assert code == 0 and '"deep"' in manifest, err.getvalue()
    else:  # (past the compile's depth: refused alone)
        assert code == 1 and "mcp/schema-too-deep" in out.getvalue(), err.getvalue()
