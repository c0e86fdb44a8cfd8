"""`toolcast proxy` attacked through its upstream servers (issue 42): a flooding server, a memory
hog, names built to collide, cut HTTP connections, signals, a server slow to start, credentials in a
URL, and a client that makes tools strict itself. The hostile servers are scripts in tests/servers/.
Time bounds are generous timeouts only: nothing here measures speed."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from test_proxy import proxied as _proxied
from test_proxy import text_of

from toolcast.cli.main import main

HERE = Path(__file__).parent
PY = sys.executable
ATTACK = f"{PY} {HERE / 'servers' / 'proxy_attack_server.py'}"
DROPPING = HERE / "servers" / "dropping_http_server.py"
PROXY = [PY, "-m", "toolcast.cli.main", "proxy"]


def proxied(*options: str, seen: list | None = None, errlog: Any = None,
            initialize: bool = True) -> Any:
    """test_proxy's client, with the whole environment: the proxy runs the toolcast this test
    imports (PYTHONPATH included)."""
    return _proxied(*options, seen=seen, errlog=errlog, env=dict(os.environ), initialize=initialize)


def run(coro: Any, seconds: float = 180) -> Any:
    return asyncio.run(asyncio.wait_for(coro, seconds))


@asynccontextmanager
async def http_server(*flags: str) -> AsyncIterator[str]:
    proc = subprocess.Popen([PY, str(DROPPING), *flags], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        yield proc.stdout.readline().strip()
    finally:
        proc.kill()
        proc.wait()


# ---------------------------------------------------------------- 1. one server's flood


def test_a_server_flooding_one_long_line_does_not_hold_up_another_servers_calls():
    # 65 MiB of `[],` on one line: the old reader scanned it bracket by bracket on the event loop
    # (about 1 MiB/s), and every other server's calls waited for it.
    async def go():
        async with proxied("--server", f"flood={ATTACK}", "--server", f"other={ATTACK}") as session:
            flood = asyncio.ensure_future(session.call_tool("flood__flood", {"mib": 65}))
            answered = 0
            while not flood.done():
                echo = await asyncio.wait_for(session.call_tool("other__echo", {"n": answered}), 20)
                assert echo.is_error is not True and json.loads(text_of(echo))["arguments"] == {"n": answered}
                answered += 1
                await asyncio.sleep(0.2)
            return await flood, answered

    flood, answered = run(go())
    assert answered >= 1
    assert flood.is_error is True
    assert "toolcast could not read the server's answer: it is over 67108864 bytes" in text_of(flood)


# ---------------------------------------------------------------- 5. the memory budget


def test_answers_over_the_memory_budget_fail_alone_with_a_clear_error(tmp_path):
    # Three servers answer 4 MiB each, in two halves 3 s apart: all first halves are held at once.
    # The budget holds 5 MiB of answers (each byte counts AnswerBudget.COPIES times, for its copies):
    # the answers that would take the total over it fail, one by one; the rest arrive whole.
    from toolcast._runtime.stdio_lines import AnswerBudget

    budget = 5 * AnswerBudget.COPIES
    servers = [arg for i in range(3) for arg in ("--server", f"s{i}={ATTACK}")]

    async def go():
        async with proxied(*servers, "--memory-budget", str(budget)) as session:
            calls = [session.call_tool(f"s{i}__big", {"mib": 4, "pause": 3}) for i in range(3)]
            results = await asyncio.gather(*calls)
            after = await session.call_tool("s0__echo", {})
            return results, after

    results, after = run(go())
    whole = [r for r in results if r.is_error is not True]
    failed = [text_of(r) for r in results if r.is_error is True]
    assert len(whole) + len(failed) == 3 and whole and failed
    assert all(text_of(r) == "b" * 4 * 1024 * 1024 for r in whole)
    assert all(f"the answers held at once would exceed the proxy's memory budget of {budget} MiB" in f for f in failed)
    assert after.is_error is not True  # the server, and its session, go on


def test_memory_budget_must_be_above_zero():
    proc = subprocess.run([*PROXY, "--server", f"a={ATTACK}", "--memory-budget", "0"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--memory-budget 0: give a number of MiB above 0" in proc.stderr


# ---------------------------------------------------------------- 2. names


@pytest.mark.parametrize(("first", "second"), [("a", "a_"), ("gh", "gh__x"), ("a", "_a")])
def test_server_names_that_could_collide_are_refused(first: str, second: str):
    # `a` + tool `_x` and `a_` + tool `x` were both `a___x`: the name passed from one to the other.
    proc = subprocess.run([*PROXY, "--server", f"{first}={ATTACK}", "--server", f"{second}={ATTACK}"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert f"toolcast proxy: server name {second!r}: use letters, digits, '-' and single '_'" in proc.stderr


def test_an_exposed_name_never_changes_owner_while_the_proxy_runs(tmp_path):
    # `a.b` is exposed as s__a_b. When the server later lists `a_b` too, that tool would win the
    # name (it needs no change): the old proxy then sent calls to s__a_b to another tool.
    tools = tmp_path / "tools"
    tools.write_text("a.b\n")
    seen: list = []

    async def go():
        with open(tmp_path / "stderr", "w") as err:
            async with proxied("--server", f"s={ATTACK} --tools-file {tools}", seen=seen, errlog=err) as session:
                before = await session.call_tool("s__a_b", {})
                tools.write_text("a.b\na_b\n")
                await session.call_tool("s__reload", {})
                for _ in range(600):
                    if any("list_changed" in repr(m) for m in seen):
                        break
                    await asyncio.sleep(0.05)
                listed = {t.name for t in (await session.list_tools()).tools}
                after = await session.call_tool("s__a_b", {})
                return before, listed, after

    before, listed, after = run(go())
    assert json.loads(text_of(before))["tool"] == "a.b"
    assert '"tool": "a_b"' not in text_of(after)  # never rerouted to the newcomer
    assert "s__a_b" not in listed or json.loads(text_of(after))["tool"] == "a.b"
    stderr = (tmp_path / "stderr").read_text()
    assert "s__a_b (s/a_b) left out: the name belongs to s/a.b while the proxy runs" in stderr
    assert stderr.count("left out: the name belongs to") == 1  # said once


# ---------------------------------------------------------------- 3. HTTP cuts


@pytest.mark.parametrize("pings", ["1", "1000"])
def test_http_a_cut_request_and_a_cut_ping_fail_only_that_request(pings: str):
    # The request's connection is cut, then the ping that asks whether the server is alive is
    # dropped too (once, or every time): the old proxy took the server for dead and ended the
    # session, failing the five calls in flight. A server that accepted the connection is there:
    # only a server that cannot be reached at all, or that does not know the session, is gone.
    async def go(url: str):
        async with proxied("--server", f"h={url}") as session:
            slow = [asyncio.ensure_future(session.call_tool("h__slow", {"seconds": 4})) for _ in range(5)]
            await asyncio.sleep(1)
            failed = await session.call_tool("h__drop", {})
            return failed, await asyncio.gather(*slow), await session.call_tool("h__echo", {})

    async def both():
        async with http_server("--drop-pings", pings) as url:
            return await go(url)

    failed, slow, echo = run(both())
    assert failed.is_error is True and "started again" not in text_of(failed)
    assert [text_of(r) for r in slow] == ["slow"] * 5 and not any(r.is_error for r in slow)
    assert echo.is_error is not True and text_of(echo) == "ok"


def test_http_a_failed_relist_keeps_the_servers_tools_and_is_tried_again():
    # The server forgets its sessions as it cuts a call (as a server restarted would): the session
    # is ended, and the listing after the restart is dropped twice. The old proxy let the server's
    # tools vanish from the listing.
    async def go():
        async with (http_server("--sessions", "--drop-lists", "2") as url,
                    proxied("--server", f"h={url}") as session):
            first = {t.name for t in (await session.list_tools()).tools}
            failed = await session.call_tool("h__drop", {})
            echo = await session.call_tool("h__echo", {})
            return first, failed, echo, {t.name for t in (await session.list_tools()).tools}

    first, failed, echo, listed = run(go())
    assert "h__echo" in first and failed.is_error is True and "started again" in text_of(failed)
    assert echo.is_error is not True and text_of(echo) == "ok"
    assert listed == first


def test_http_a_session_the_server_does_not_know_is_started_again():
    # The server forgot the session (HTTP 404 to its requests): the old proxy took the 404 for an
    # answer from a live session, kept it, and every later call failed the same way.
    async def go():
        async with http_server("--sessions") as url, proxied("--server", f"h={url}") as session:
            forgot = await session.call_tool("h__forget", {})
            return forgot, await session.call_tool("h__echo", {}), await session.call_tool("h__echo", {})

    forgot, failed, echo = run(go())
    assert forgot.is_error is not True and text_of(forgot) == "ok"
    assert failed.is_error is True and "started again" in text_of(failed), text_of(failed)
    assert echo.is_error is not True and text_of(echo) == "ok"


# ---------------------------------------------------------------- 4. signals


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is dead, not reaped
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc") or os.name != "posix", reason="needs /proc and signals")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_the_proxy_with_its_servers_and_their_children(tmp_path, signum: int):
    # The client stays idle with stdin open. After SIGINT the old proxy stopped its servers but
    # did not exit; after SIGTERM it died at once, and a server's child outlived it.
    pid_file = tmp_path / "child.pid"
    with open(tmp_path / "stderr", "w") as err:
        proc = subprocess.Popen([*PROXY, "--server", f"a={ATTACK} --child {pid_file}"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
    try:
        for _ in range(600):
            if pid_file.exists():
                break
            time.sleep(0.05)
        child = int(pid_file.read_text())
        assert _alive(child)
        time.sleep(0.5)  # the proxy has its signal handlers by now (they come before the servers)
        proc.send_signal(signum)
        code = proc.wait(timeout=60)
        for _ in range(200):
            if not _alive(child):
                break
            time.sleep(0.05)
        assert code == 128 + signum
        assert not _alive(child)
        assert f"toolcast proxy: stopping on {signal.Signals(signum).name}" in (tmp_path / "stderr").read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if pid_file.exists() and _alive(int(pid_file.read_text())):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)


# ---------------------------------------------------------------- 7. what the client is told


def test_initialize_is_answered_before_the_servers_have_started(tmp_path):
    # The server answers `initialize` only once the file exists: the old proxy answered the
    # client's `initialize` only after every server had started.
    ready = tmp_path / "ready"

    async def go():
        async with proxied("--timeout", "120", "--server", f"late={ATTACK} --wait-file {ready}",
                           initialize=False) as session:
            await asyncio.wait_for(session.initialize(), 60)
            ready.write_text("")
            return {t.name for t in (await session.list_tools()).tools}

    assert "late__echo" in run(go())


def test_a_base_install_gets_the_install_hint():
    # No anyio (nor the MCP SDK): `pip install toolcast` without the mcp extra.
    code = ("import sys; sys.modules['anyio'] = None; sys.modules['mcp'] = None\n"
            "from toolcast.cli.main import main; sys.exit(main(['proxy', '--server', 'a=x']))")
    proc = subprocess.run([PY, "-c", code], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "toolcast proxy needs the official MCP SDK (pip install 'toolcast[mcp]')" in proc.stderr
    assert "internal error" not in proc.stderr


@pytest.mark.parametrize("argv", [
    ["proxy", "--server", "web=http://alice:s3cret@127.0.0.1:9/mcp", "--auth-env", "web=TC_ATTACK_TOKEN"],
    ["compile", "--mcp-url", "http://alice:s3cret@127.0.0.1:9/mcp", "--mcp-auth-env", "TC_ATTACK_TOKEN"],
])
def test_user_info_in_a_url_with_a_token_is_refused_and_never_printed(argv, monkeypatch):
    # httpx sent the URL's user info as Basic auth in place of the token, without a word.
    monkeypatch.setenv("TC_ATTACK_TOKEN", "tok-1")
    if argv[0] == "proxy":
        proc = subprocess.run([PY, "-m", "toolcast.cli.main", *argv], stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=60)
        code, output = proc.returncode, proc.stdout + proc.stderr
    else:
        out, err = io.StringIO(), io.StringIO()
        code = main(argv, stdout=out, stderr=err)
        output = out.getvalue() + err.getvalue()
    assert code != 0
    assert "'http://127.0.0.1:9/mcp' carries user info (user:password@) and a token is given" in output
    assert "s3cret" not in output and "alice" not in output


def test_a_tool_sent_non_strict_says_so_and_openai_agents_keeps_it_non_strict(tmp_path):
    # `uniqueItems` cannot be strict: the proxy lists the tool non-strict. The old listing did not
    # say so, and openai-agents made it strict itself (its conversion keeps uniqueItems). (The keyword
    # is one the default rules name unsupported, uniqueItems while they do: tests/rule_facts.py.)
    pytest.importorskip("agents.mcp")
    from agents.mcp import MCPServerStdio, MCPUtil
    from rule_facts import unsupported_keyword

    tools = tmp_path / "tools"
    _, prop = unsupported_keyword()
    tool = {"name": "tags", "inputSchema": {"type": "object", "required": ["tags"], "properties": {"tags": prop}}}
    tools.write_text(json.dumps(tool) + "\n")
    params = {"command": PY, "args": [*PROXY[1:], "--server", f"s={ATTACK} --tools-file {tools}"],
              "env": dict(os.environ)}

    async def go():
        async with MCPServerStdio(params, client_session_timeout_seconds=60, name="proxy") as server:
            listed = {t.name: t for t in await server.list_tools()}
            return listed, {n: MCPUtil.to_function_tool(t, server, convert_schemas_to_strict=True).strict_json_schema
                            for n, t in listed.items()}

    listed, strict = run(go())
    assert strict["s__tags"] is False and strict["s__echo"] is True
    meta = listed["s__tags"].meta
    assert meta["toolcast/strict"] is False and meta["toolcast/not-strict-because"] == ["openai/unsupported-keyword"]
    assert "toolcast/strict" not in (listed["s__echo"].meta or {})
    schema = listed["s__tags"].input_schema
    assert schema["properties"] == tool["inputSchema"]["properties"]  # the mark changes nothing it accepts
