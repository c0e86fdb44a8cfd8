"""End to end over stdio: real MCP servers (time, git, our media/paged helpers) through the loop."""

from __future__ import annotations

import asyncio
import base64
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from toolcast.mcp_runtime import (
    McpServerError,
    execute_tool_calls,
    list_tools,
    list_tools_stdio,
    list_tools_stdio_sync,
    stdio_session,
)
from toolcast.providers.openai import tool_calls
from toolcast.toolset import ToolSet

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from servers.openai_stub import chat_completion, responses_response  # noqa: E402 - after the path insert

PY = sys.executable
TIME_CMD = [PY, "-m", "mcp_server_time", "--local-timezone", "UTC"]
MEDIA_CMD = [PY, str(HERE / "servers" / "media_server.py")]
PAGED_CMD = [PY, str(HERE / "servers" / "paged_server.py")]


def git_cmd(repo: Path) -> list[str]:
    return [PY, "-m", "mcp_server_git", "--repository", str(repo)]


def core(name: str):
    """A name from the compiler core; skip (only) while the core does not provide it yet."""
    try:
        module = __import__("toolcast", fromlist=[name])
        return getattr(module, name)
    except (ImportError, AttributeError) as exc:
        pytest.skip(f"toolcast.{name} not available yet: {exc}")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with one commit, one modified file and one untracked file."""
    path = tmp_path / "repo"
    path.mkdir()

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid", *args],
            cwd=path,
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    (path / "tracked.txt").write_text("one\ntwo\nthree\n")
    git("add", "tracked.txt")
    git("commit", "-q", "-m", "first")
    (path / "tracked.txt").write_text("one\nTWO CHANGED\nthree\n")
    (path / "untracked_note.md").write_text("new\n")
    return path


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 45))


# --------------------------------------------------------------------------- listing


def test_list_tools_stdio_real_servers_and_toolset(repo):
    time_tools = list_tools_stdio_sync(shlex.join(TIME_CMD), timeout=20)
    git_tools = list_tools_stdio_sync(shlex.join(git_cmd(repo)), timeout=20)
    assert {t["name"] for t in time_tools} == {"get_current_time", "convert_time"}
    assert {"git_status", "git_diff_unstaged", "git_log"} <= {t["name"] for t in git_tools}
    assert all(isinstance(t, dict) and "inputSchema" in t for t in time_tools + git_tools)
    convert = next(t for t in time_tools if t["name"] == "convert_time")
    assert set(convert["inputSchema"]["required"]) == {"source_timezone", "time", "target_timezone"}
    ts, report = ToolSet.build({"time": time_tools, "git": git_tools})
    assert ts["time__convert_time"].tool == "convert_time"
    assert ts["git__git_status"].server == "git"
    assert not report


def test_list_tools_follows_pagination_cursors():
    tools = list_tools_stdio_sync(shlex.join(PAGED_CMD), timeout=20)
    assert [t["name"] for t in tools] == [f"tool.{i}" for i in range(5)]
    assert tools[3] == {
        "name": "tool.3",
        "description": "tool number 3",
        "inputSchema": {"type": "object"},
    }


def test_list_tools_stdio_failures_are_one_line_errors(tmp_path):
    with pytest.raises(
        McpServerError, match=r"^MCP server command not found: no-such-mcp-server-xyz$"
    ):
        list_tools_stdio_sync("no-such-mcp-server-xyz --flag")
    with pytest.raises(McpServerError, match="cannot parse"):
        list_tools_stdio_sync("'unbalanced")
    with pytest.raises(McpServerError, match="empty"):
        list_tools_stdio_sync("   ")
    with pytest.raises(McpServerError, match="not found or not executable"):
        list_tools_stdio_sync(str(tmp_path / "missing-server"))
    exits = shlex.join([PY, "-c", "import sys; print('bad config', file=sys.stderr); sys.exit(3)"])
    with pytest.raises(McpServerError) as info:
        list_tools_stdio_sync(exits, timeout=10)
    message = str(info.value)
    assert "\n" not in message and "exited or closed its output" in message
    assert "stderr: bad config" in message
    assert info.value.__cause__ is None and info.value.__suppress_context__
    # A git server pointed at a non-repository exits with its own explanation.
    with pytest.raises(McpServerError, match="not a valid Git repository"):
        list_tools_stdio_sync(shlex.join(git_cmd(tmp_path)), timeout=10)
    stuck = shlex.join([*PAGED_CMD, "--stuck"])
    with pytest.raises(McpServerError, match="repeated pagination cursor '0'"):
        list_tools_stdio_sync(stuck, timeout=10)


def test_list_tools_stdio_times_out_on_a_silent_process():
    silent = shlex.join([PY, "-c", "import time; time.sleep(30)"])
    # The timeout ends the wait (the error says so), never the 30 s sleep.
    with pytest.raises(McpServerError, match=r"did not answer within 0.5 s"):
        run(list_tools_stdio(silent, timeout=0.5))


# --------------------------------------------------------------------------- the loop


def test_parse_execute_and_output_against_time_and_git_servers(repo):
    """Both API shapes, unknown tool and broken JSON, executed on the real servers."""

    async def scenario():
        async with stdio_session(TIME_CMD) as time_s, stdio_session(git_cmd(repo)) as git_s:
            ts, _ = ToolSet.build(
                {"time": await list_tools(time_s), "git": await list_tools(git_s)}
            )
            sessions = {"time": time_s, "git": git_s}
            convert = json.dumps(
                {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Kolkata"}
            )
            status = json.dumps({"repo_path": str(repo)})
            calls_spec = [
                ("c_time", "time__convert_time", convert),
                ("c_status", "git__git_status", status),
                ("c_unknown", "git__git_stat", status),
                ("c_broken", "time__convert_time", '{"source_timezone": "UTC",'),
            ]
            chat_calls, chat_rejected = tool_calls(chat_completion(calls_spec), ts, {})
            resp_calls, resp_rejected = tool_calls(responses_response(calls_spec), ts, {})
            chat_out = await execute_tool_calls(chat_calls, sessions, timeout=20)
            resp_out = await execute_tool_calls(resp_calls, sessions, timeout=20)
            return chat_calls, chat_rejected, chat_out, resp_calls, resp_rejected, resp_out

    chat_calls, chat_rejected, chat_out, resp_calls, resp_rejected, resp_out = run(scenario())

    assert [c.tool for c in chat_calls] == ["convert_time", "git_status"]
    assert [(c.tool, c.api) for c in resp_calls] == [
        ("convert_time", "responses"),
        ("git_status", "responses"),
    ]
    assert [r["tool_call_id"] for r in chat_rejected] == ["c_unknown", "c_broken"]
    assert "Did you mean 'git__git_status'?" in chat_rejected[0]["content"]
    assert "not valid JSON" in chat_rejected[1]["content"]
    assert [r["call_id"] for r in resp_rejected] == ["c_unknown", "c_broken"]

    assert [o["tool_call_id"] for o in chat_out] == ["c_time", "c_status"]
    assert [o["call_id"] for o in resp_out] == ["c_time", "c_status"]
    for time_text, status_text in (
        (chat_out[0]["content"], chat_out[1]["content"]),
        (resp_out[0]["output"], resp_out[1]["output"]),
    ):
        converted = json.loads(time_text)
        assert converted["target"]["datetime"].endswith("T17:30:00+05:30")
        assert converted["time_difference"] == "+5.5h"
        assert "untracked_note.md" in status_text and "tracked.txt" in status_text
        assert not status_text.startswith("Error")


def test_null_for_omitted_optional_is_stripped_before_the_git_server_sees_it(repo):
    """Compile with tools(), let the 'model' send null for an omitted optional, run git."""
    tools_fn = _tools_or_skip()

    async def scenario():
        async with stdio_session(git_cmd(repo)) as git_s:
            ts, _ = ToolSet.build({"git": await list_tools(git_s)})
            outputs = {}
            for api in ("chat", "responses"):
                sent, report = tools_fn(ts, api=api)
                names = [t["name"] if api == "responses" else t["function"]["name"] for t in sent]
                assert "git__git_diff_unstaged" in names
                assert ("context_lines",) in report.null_paths["git__git_diff_unstaged"]
                args = json.dumps({"repo_path": str(repo), "context_lines": None})
                spec = [("c_diff", "git__git_diff_unstaged", args)]
                response = chat_completion(spec) if api == "chat" else responses_response(spec)
                calls, rejected = tool_calls(response, ts, report.null_paths)
                assert rejected == []
                assert calls[0].arguments == {"repo_path": str(repo)}
                outputs[api] = (await execute_tool_calls(calls, {"git": git_s}, timeout=20))[0]
            # Without stripping, the same null is refused by the server: the strip matters.
            raw = await git_s.call_tool(
                "git_diff_unstaged", {"repo_path": str(repo), "context_lines": None}
            )
            return outputs, raw

    outputs, raw = run(scenario())
    for text in (outputs["chat"]["content"], outputs["responses"]["output"]):
        assert "-two" in text and "+TWO CHANGED" in text
        assert not text.startswith("Error")
    assert raw.is_error


def _tools_or_skip():
    core("compile_tool")
    from toolcast.providers.openai import tools

    return tools


def test_media_server_results_in_both_apis():
    async def scenario():
        async with stdio_session(MEDIA_CMD) as media:
            ts, _ = ToolSet.build({"media": await list_tools(media)})
            spec = [
                ("c_img", "media__snapshot", '{"caption": "the chart"}'),
                ("c_audio", "media__beep", ""),
                ("c_fail", "media__fail", '{"reason": "no disk"}'),
                ("c_stats", "media__stats", '{"values": [2, 3, 5]}'),
            ]
            chat_calls, _ = tool_calls(chat_completion(spec), ts)
            resp_calls, _ = tool_calls(responses_response(spec), ts)
            return (
                await execute_tool_calls(chat_calls, {"media": media}),
                await execute_tool_calls(resp_calls, {"media": media}),
                await execute_tool_calls(resp_calls[3:], {"media": media}, structured="ignore"),
            )

    chat, resp, ignored = run(scenario())
    png = base64.b64encode(_png()).decode()
    assert chat[0] == {
        "role": "tool",
        "tool_call_id": "c_img",
        "content": f"the chart\n[image: image/png, {len(_png())} bytes]",
    }
    assert resp[0]["output"] == [
        {"type": "input_text", "text": "the chart"},
        {"type": "input_image", "image_url": f"data:image/png;base64,{png}"},
    ]
    assert chat[1]["content"] == resp[1]["output"] == "[audio: audio/wav, 64 bytes]"
    assert chat[2]["content"] == resp[2]["output"] == "Error: cannot comply: no disk"
    assert chat[3]["content"] == resp[3]["output"] == '{"count":3,"total":10}'
    assert ignored[0]["output"] == ""


def _png() -> bytes:
    from servers.media_server import png_bytes

    return png_bytes()


def test_failures_stay_with_their_call_and_order_is_kept():
    """A timeout, a crash and a missing session never lose the other calls' results."""

    async def scenario():
        async with stdio_session(TIME_CMD) as time_s, stdio_session(MEDIA_CMD) as media:
            ts, _ = ToolSet.build(
                {
                    "time": await list_tools(time_s),
                    "media": await list_tools(media),
                    "ghost": [{"name": "boo", "inputSchema": {"type": "object"}}],
                }
            )
            convert = json.dumps(
                {"source_timezone": "UTC", "time": "00:15", "target_timezone": "Asia/Tokyo"}
            )
            first, _ = tool_calls(
                responses_response(
                    [
                        ("c_slow", "media__slow", '{"seconds": 20}'),
                        ("c_time", "time__convert_time", convert),
                        ("c_ghost", "ghost__boo", "{}"),
                        ("c_quick", "media__slow", '{"seconds": 0}'),
                    ]
                ),
                ts,
            )
            timed = await execute_tool_calls(first, {"time": time_s, "media": media}, timeout=1.0)
            second, _ = tool_calls(
                chat_completion(
                    [
                        ("c_crash", "media__crash", ""),
                        ("c_time2", "time__get_current_time", '{"timezone": "UTC"}'),
                    ]
                ),
                ts,
            )
            crashed = await execute_tool_calls(second, {"time": time_s, "media": media}, timeout=10)
            return timed, crashed

    timed, crashed = run(scenario())
    assert [o["call_id"] for o in timed] == ["c_slow", "c_time", "c_ghost", "c_quick"]
    assert timed[0]["output"] == "Error: tool 'slow' on server 'media' did not answer within 1 s"
    assert json.loads(timed[1]["output"])["target"]["datetime"].endswith("T09:15:00+09:00")
    assert timed[2]["output"] == "Error: no connection to server 'ghost' for tool 'boo'"
    assert timed[3]["output"] == "slept 0.0"
    # The slow call (20 s) was cut at its 1 s timeout, and the quick calls answered (their time: not a test).
    assert [o["tool_call_id"] for o in crashed] == ["c_crash", "c_time2"]
    assert crashed[0]["content"].startswith("Error: tool 'crash' on server 'media' failed: ")
    assert json.loads(crashed[1]["content"])["timezone"] == "UTC"


def test_execute_with_fake_sessions_covers_exceptions_and_api_override():
    class Session:
        def __init__(self, behaviour):
            self.behaviour = behaviour
            self.seen = []

        async def call_tool(self, name, arguments):
            self.seen.append((name, arguments))
            return self.behaviour(name, arguments)

    def boom(name, arguments):
        raise RuntimeError("server said no\nsecond line")

    ok = Session(lambda name, args: {"content": [{"type": "text", "text": f"{name}:{args['x']}"}]})
    bad = Session(boom)
    ts, _ = ToolSet.build({"ok": [{"name": "t.1"}], "bad": [{"name": "t2"}]})
    calls, _ = tool_calls(chat_completion([("a", "ok__t_1", '{"x": 1}'), ("b", "bad__t2", "")]), ts)
    outputs = run(
        execute_tool_calls(calls, {"ok": ok, "bad": bad}, api="responses", error_prefix="E! ")
    )
    assert ok.seen == [("t.1", {"x": 1})] and bad.seen == [("t2", {})]
    assert outputs == [
        {"type": "function_call_output", "call_id": "a", "output": "t.1:1"},
        {
            "type": "function_call_output",
            "call_id": "b",
            "output": "E! tool 't2' on server 'bad' failed: server said no second line",
        },
    ]
    assert run(execute_tool_calls([], {})) == []
    odd = Session(lambda name, args: 12345)  # not a tool result at all
    (out,) = run(execute_tool_calls(calls[:1], {"ok": odd}))
    assert out["tool_call_id"] == "a"
    assert out["content"].startswith("Error: tool 't.1' on server 'ok' returned cannot turn int")


def test_every_call_gets_its_own_output_whatever_another_returned_or_raised():
    """Hostile results (1,000 levels deep, not a result, an own cancellation) stay with their call."""

    deep: dict = {"leaf": 1}
    for _ in range(1000):
        deep = {"a": deep}

    class Bomb(Exception):
        def __str__(self):  # an exception that cannot even be printed
            raise RuntimeError("no")

    class Session:
        async def call_tool(self, name, arguments):
            n = arguments["n"]
            if n == 13:
                return {"content": [], "structuredContent": deep}
            if n == 27:
                return {"content": 5}
            if n == 42:
                raise asyncio.CancelledError()  # a cancel scope leaking out of a session
            if n == 64:
                raise Bomb()
            if n == 77:
                raise TimeoutError("the session's own timeout")
            return {"content": [{"type": "text", "text": f"ok {n}"}]}

    ts, _ = ToolSet.build({"s": [{"name": "t"}]})
    spec = [(f"c{n}", "s__t", json.dumps({"n": n})) for n in range(100)]
    calls, rejected = tool_calls(responses_response(spec), ts)
    assert rejected == [] and len(calls) == 100
    for timeout in (10, None):
        outputs = run(execute_tool_calls(calls, {"s": Session()}, timeout=timeout))
        assert [o["call_id"] for o in outputs] == [f"c{n}" for n in range(100)]
        text = {int(o["call_id"][1:]): o["output"] for o in outputs}
        assert text[13] == (
            "Error: the tool's structured result cannot be sent: it is nested more than 100 levels deep"
        )
        assert text[27].startswith(
            "Error: tool 't' on server 's' returned result.content: expected a list"
        )
        assert text[42] == "Error: tool 't' on server 's' was cancelled by its session"
        assert text[64] == "Error: tool 't' on server 's' failed: Bomb"
        assert text[77] == "Error: tool 't' on server 's' did not answer" + (
            " within 10 s" if timeout else ""
        )
        special = {13, 27, 42, 64, 77}
        assert all(text[n] == f"ok {n}" for n in range(100) if n not in special)
