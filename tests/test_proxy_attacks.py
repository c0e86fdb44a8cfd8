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


@pytest.mark.parametrize(("given", "said"), [("0", "--memory-budget 0: give a number of MiB above 0"),
                                            ("1e308", "--memory-budget 1e+308: too large to count in bytes")])
def test_memory_budget_must_be_above_zero_and_a_number_of_bytes(given, said):
    # (1e308: found by a red team, "internal error: OverflowError")
    proc = subprocess.run([*PROXY, "--server", f"a={ATTACK}", "--memory-budget", given],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and said in proc.stderr and "internal error" not in proc.stderr, proc.stderr


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
    assert failed.is_error is True and "on the next call" not in text_of(failed)
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
    assert "h__echo" in first and failed.is_error is True and "a new session is opened" in text_of(failed)
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
    # (an HTTP server is not started by the proxy: the message says what it does, red team s13h note)
    assert failed.is_error is True and "a new session is opened with the server on the next call" in text_of(failed), \
        text_of(failed)
    assert echo.is_error is not True and text_of(echo) == "ok"


# ---------------------------------------------------------------- 4. signals


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is dead, not reaped
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc") or os.name != "posix", reason="needs /proc and signals")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
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


# ---------------------------------------------------------------- 9. red team s13h


def _stderr(log: Any) -> str:
    log.seek(0)
    return log.read()


def test_bedrock_lists_every_tool_non_strict_from_its_tool_spec(tmp_path):
    # Found by a red team: the proxy looked for the schema under other targets' keys, missed
    # Bedrock's toolSpec.inputSchema.json, and left every tool out, naming the strict budget.
    from toolcast import compile_tool

    log = (tmp_path / "stderr").open("w+")

    async def go():
        async with proxied("--target", "bedrock", "--server", f"a={ATTACK}", errlog=log) as session:
            tools = {t.name: t for t in (await session.list_tools()).tools}
            return tools, await session.call_tool("a__echo", {"x": 1})

    tools, called = run(go())
    stderr = _stderr(log)
    assert "a__echo" in tools and "left out:" not in stderr, stderr
    sent = compile_tool({"name": "echo", "inputSchema": {"type": "object"}}, target="bedrock")
    listed = {k: v for k, v in tools["a__echo"].input_schema.items() if k != "$defs"}  # (the non-strict mark)
    assert listed == sent.tool["toolSpec"]["inputSchema"]["json"]
    assert called.is_error is not True and json.loads(text_of(called))["arguments"] == {"x": 1}
    assert "a__echo (a/echo) sent non-strict (bedrock/" in stderr


def test_one_malformed_tool_is_left_out_alone_with_its_reason(tmp_path):
    # Found by a red team: one entry the SDK could not read made the whole server unavailable
    # (a multi-line pydantic message), its good tools unknown.
    tools_file = tmp_path / "tools.txt"
    tools_file.write_text("\n".join(json.dumps(t) for t in [
        {"description": "no name", "inputSchema": {"type": "object"}},
        {"name": "strschema", "inputSchema": "object"},
        {"name": "typeless", "inputSchema": {"properties": {"s": {"type": "string"}}}},
        {"name": "uniq", "inputSchema": {"type": "object", "properties": {
            "x": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}}, "required": ["x"]}},
    ]) + "\n")
    results = {}
    for extra in ([], ["--allow-lossy"]):
        log = (tmp_path / f"stderr{len(extra)}").open("w+")

        async def go(extra=extra, log=log):
            async with proxied(*extra, "--server", f"a={ATTACK} --tools-file {tools_file}", errlog=log) as session:
                names = {t.name for t in (await session.list_tools()).tools}
                return names, await session.call_tool("a__echo", {})

        names, called = run(go())
        results[bool(extra)] = (names, called, _stderr(log))
    names, called, stderr = results[False]
    assert {"a__echo", "a__typeless", "a__uniq"} <= names and "a__strschema" not in names, stderr
    assert called.is_error is not True
    assert "unavailable" not in stderr and "pydantic" not in stderr, stderr
    assert "a__strschema (a/strschema) left out: refused (openai/" in stderr
    assert "a/(unnamed): dropped (missing or empty tool name)" in stderr
    # Every report line names the reason by its code (red team finding 10).
    assert "a__uniq (a/uniq) sent non-strict (openai/unsupported-keyword)" in stderr
    assert "a__uniq (a/uniq) sent strict with a loss: openai/unsupported-keyword" in results[True][2]


@pytest.mark.parametrize("argv", [
    ["proxy", "--server", "web=http://127.0.0.1:9/mcp", "--auth-env", "web=TC_ATTACK_TOKEN"],
    ["compile", "--mcp-url", "http://127.0.0.1:9/mcp", "--mcp-auth-env", "TC_ATTACK_TOKEN"],
])
@pytest.mark.parametrize("token", ["Bearer SECRETabc\nX: 1", "SECRET\rabc", "SECRET\x7fabc", "SECRETé"])
def test_a_token_a_header_cannot_carry_is_refused_naming_the_variable_only(argv, token, monkeypatch):
    # Found by a red team: the HTTP client's error quoted the header, token included, on stderr
    # and (through the proxy) in a tool result the model reads.
    monkeypatch.setenv("TC_ATTACK_TOKEN", token)
    err = io.StringIO()
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    assert "TC_ATTACK_TOKEN" in err.getvalue() and "SECRET" not in err.getvalue(), err.getvalue()
    assert err.getvalue().count("\n") == 1


def test_http_session_refuses_such_a_header_without_showing_it():
    from toolcast.mcp_runtime import McpServerError, http_session

    async def go():
        async with http_session("http://127.0.0.1:9/mcp", headers={"Authorization": "Bearer SECRET\nX: 1"}):
            pass

    with pytest.raises(McpServerError) as info:
        run(go(), 60)
    assert "Authorization" in str(info.value) and "SECRET" not in str(info.value)


def test_a_burst_of_list_changed_is_coalesced_and_keeps_the_tools(tmp_path):
    # Found by a red team: each notice started its own relist and recompile, all at once; the
    # proxy starved, relists timed out and the live server's tools were withdrawn.
    lists = tmp_path / "lists"
    log = (tmp_path / "stderr").open("w+")

    async def go():
        async with proxied("--server", f"a={ATTACK} --list-log {lists}", errlog=log) as session:
            await session.list_tools()
            before = len(lists.read_text().splitlines())
            await session.call_tool("a__burst", {"n": 200})
            called = await session.call_tool("a__echo", {"y": 2})
            for _ in range(600):  # until the burst's first relist reached the server
                if len(lists.read_text().splitlines()) > before:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(1)  # (uncoalesced, the other relists are under way by now)
            after = len(lists.read_text().splitlines())
            names = {t.name for t in (await session.list_tools()).tools}
            return before, after, called, names

    before, after, called, names = run(go())
    stderr = _stderr(log)
    assert called.is_error is not True and "a__echo" in names
    assert 1 <= after - before <= 3, (before, after)  # one relist running, one more after it
    assert "unavailable" not in stderr and "its tools changed" not in stderr, stderr


def test_a_server_slow_to_start_does_not_hold_up_the_first_listing(tmp_path):
    # Found by a red team: the first tools/list waited for every server's start (its whole
    # --timeout for one that never answers initialize), the others' tools with it.
    ready = tmp_path / "ready"
    log = (tmp_path / "stderr").open("w+")

    async def go():
        seen: list = []
        async with proxied("--server", f"a={ATTACK}", "--server", f"late={ATTACK} --wait-file {ready}",
                           "--server-timeout", "late=600", errlog=log, seen=seen) as session:
            first = {t.name for t in (await session.list_tools()).tools}  # (600 s without the bound)
            called = await session.call_tool("a__echo", {})
            ready.write_text("")
            for _ in range(1200):
                if any("ToolListChanged" in type(m).__name__ for m in seen):
                    break
                await asyncio.sleep(0.05)
            later = {t.name for t in (await session.list_tools()).tools}
            return first, called, later

    first, called, later = run(go())
    stderr = _stderr(log)
    assert "a__echo" in first and not any(n.startswith("late__") for n in first)
    assert called.is_error is not True
    assert "late__echo" in later and "a__echo" in later
    assert "still starting: server 'late'" in stderr and "unavailable" not in stderr, stderr


def test_a_listing_failure_says_why(tmp_path):
    # Found by a red team: "unavailable: Connection closed", without the exit status.
    log = (tmp_path / "stderr").open("w+")

    async def go():
        async with proxied("--server", f"a={ATTACK}", "--server", f"x={ATTACK} --list-exit",
                           errlog=log) as session:
            names = {t.name for t in (await session.list_tools()).tools}
            await session.list_tools()
            return names

    names = run(go())
    stderr = _stderr(log)
    assert "a__echo" in names
    assert "server 'x' is unavailable: tools/list failed: Connection closed (exit status 5)" in stderr, stderr
    assert stderr.count("server 'x' is unavailable") == 1  # (not again on each retry failing alike)


def test_a_stdio_server_gets_only_the_environment_it_is_given(tmp_path, monkeypatch):
    # Found by a red team: no way to pass a server its token but the command line (`env X=...`),
    # where ps shows it and compile writes it into the manifest.
    monkeypatch.setenv("TC_S13_TOKEN", "tok-value-1")

    async def go(*options):
        async with proxied(*options) as session:
            return text_of(await session.call_tool("a__getenv", {"name": "TC_S13_TOKEN"}))

    assert run(go("--server", f"a={ATTACK}")) == "<unset>"  # (the SDK's default environment)
    assert run(go("--server", f"a={ATTACK}", "--server-env", "a=TC_S13_TOKEN")) == "tok-value-1"
    assert run(go("--server", f"a={ATTACK}", "--pass-environment")) == "tok-value-1"
    err = io.StringIO()
    assert main(["proxy", "--server", f"a={ATTACK}", "--server-env", "a=TC_S13_UNSET"], stdout=io.StringIO(),
                stderr=err) == 2
    assert "--server-env a=TC_S13_UNSET: the environment variable TC_S13_UNSET is not set" in err.getvalue()
    out = tmp_path / "o"
    command = f"{ATTACK} --need-env TC_S13_TOKEN"
    assert main(["compile", "--mcp", command, "--out", str(out)], stdout=io.StringIO(), stderr=io.StringIO()) == 2
    code = main(["compile", "--mcp", command, "--mcp-env", "TC_S13_TOKEN", "--out", str(out)],
                stdout=io.StringIO(), stderr=io.StringIO())
    assert code in (0, 1) and "getenv" in (out / "manifest.json").read_text()
    assert "tok-value-1" not in "".join(p.read_text() for p in out.rglob("*") if p.is_file())


def test_http_one_malformed_tool_leaves_the_others_listed_and_callable(tmp_path):
    from toolcast.mcp_runtime import list_tools_http_sync

    log = (tmp_path / "stderr").open("w+")

    async def go():
        async with http_server("--bad-tool") as url:
            listed = await asyncio.to_thread(list_tools_http_sync, url, timeout=30)
            async with proxied("--server", f"h={url}", errlog=log) as session:
                names = {t.name for t in (await session.list_tools()).tools}
                return listed, names, await session.call_tool("h__echo", {})

    listed, names, called = run(go())
    assert [t["name"] for t in listed][-1] == "bad" and listed[-1]["inputSchema"] == "object"
    assert "h__echo" in names and "h__bad" not in names
    assert called.is_error is not True and text_of(called) == "ok"
    assert "h__bad (h/bad) left out: refused (openai/" in _stderr(log)


def test_a_relist_that_fails_keeps_a_live_stdio_servers_tools(tmp_path):
    # Found by a red team: a live stdio server answered one relist with an error; the proxy
    # withdrew all its tools (list_changed, then "unknown tool") though the server was up.
    log = (tmp_path / "stderr").open("w+")

    async def go():
        async with proxied("--server", f"a={ATTACK} --relist-error", errlog=log) as session:
            await session.list_tools()
            await session.call_tool("a__reload", {})  # (its list_changed: a relist, answered with an error)
            for _ in range(1200):
                if "unavailable" in _stderr(log):
                    break
                await asyncio.sleep(0.05)
            names = {t.name for t in (await session.list_tools()).tools}
            return names, await session.call_tool("a__echo", {"z": 3})

    names, called = run(go())
    assert "server 'a' is unavailable: it answered with an error: busy reindexing" in _stderr(log)
    assert "a__echo" in names
    assert called.is_error is not True and json.loads(text_of(called))["arguments"] == {"z": 3}


@pytest.mark.parametrize("levels", [300, 5000])
def test_a_tool_nested_past_the_sdks_json_reader_is_left_out_alone(tmp_path, levels):
    # Found by a red team: one tool whose schema nests past the SDK's JSON reader (about 200 levels)
    # made the server's whole listing unreadable ("recursion limit exceeded"), every tool unknown.
    # (5,000 levels: past Python's own JSON reader too.)
    tools_file = tmp_path / "tools.txt"
    tools_file.write_text("plain\n")
    log = (tmp_path / "stderr").open("w+")
    server = f"a={ATTACK} --tools-file {tools_file} --deep-tool {levels}"

    async def go():
        async with proxied("--server", server, errlog=log) as session:
            names = {t.name for t in (await session.list_tools()).tools}
            return names, await session.call_tool("a__echo", {"q": "x"})

    names, called = run(go())
    stderr = _stderr(log)
    assert {"a__echo", "a__plain"} <= names and "a__deep" not in names, stderr
    assert called.is_error is not True and "unavailable" not in stderr, stderr
    assert "a/deep: dropped (its definition nests more than 200 levels deep)" in stderr


@pytest.mark.parametrize("levels", [240, 260, 300])
def test_a_tool_whose_meta_nests_past_the_sdks_serializer_is_left_out_alone(tmp_path, levels):
    # Found by a red team: a _meta read by the SDK but nested past its serializer's depth (about
    # 130 levels of properties) failed the server's whole listing ("Maximum serialization depth exceeded").
    tools_file = tmp_path / "tools.txt"
    tools_file.write_text("plain\n")
    log = (tmp_path / "stderr").open("w+")
    server = f"a={ATTACK} --tools-file {tools_file} --deep-tool {levels} --deep-field _meta"

    async def go():
        async with proxied("--server", server, errlog=log) as session:
            return {t.name for t in (await session.list_tools()).tools}

    names = run(go())
    stderr = _stderr(log)
    assert {"a__echo", "a__plain"} <= names and "a__deep" not in names, stderr
    assert "unavailable" not in stderr, stderr
    assert "a/deep: dropped (its definition nests more than 200 levels deep)" in stderr


def test_an_http_servers_answer_over_the_memory_budget_fails_its_call_alone(tmp_path):
    # Found by a red team: --memory-budget bounded stdio servers' answers only; an HTTP server's
    # plain JSON answer was read whole, whatever its size.
    log = (tmp_path / "stderr").open("w+")

    async def go():
        async with (http_server() as url,
                    proxied("--memory-budget", "4", "--server", f"h={url}", errlog=log) as session):
            over = await session.call_tool("h__big", {"mib": 2})  # (each byte counts 6 times: 12 MiB)
            after = [await session.call_tool("h__big", {"mib": 0.25}) for _ in range(3)]  # (the budget given back)
            return over, after, await session.call_tool("h__echo", {})

    over, after, echo = run(go())
    assert over.is_error is True and "would exceed the proxy's memory budget of 4 MiB" in text_of(over), text_of(over)
    assert [r.is_error for r in after] == [False] * 3 and len(text_of(after[0])) == 256 * 1024
    assert echo.is_error is not True and text_of(echo) == "ok"


def test_an_sse_answer_over_the_memory_budget_fails_its_call_alone(tmp_path):
    # The SDK's own MCPServer answers calls as server-sent events: each counted until it is whole.
    proc = subprocess.Popen([PY, str(HERE / "servers" / "http_server.py")], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    url = proc.stdout.readline().strip()
    log = (tmp_path / "stderr").open("w+")

    async def go():
        async with proxied("--memory-budget", "1", "--server", f"h={url}", errlog=log) as session:
            over = await session.call_tool("h__echo", {"text": "x" * 300_000})  # (1.8 MiB counted)
            after = [await session.call_tool("h__echo", {"text": "y" * 50_000}) for _ in range(5)]
            return over, after

    try:
        over, after = run(go())
    finally:
        proc.kill()
        proc.wait()
    assert over.is_error is True and "would exceed the proxy's memory budget of 1 MiB" in text_of(over), text_of(over)
    assert [r.is_error for r in after] == [False] * 5 and '"y' in text_of(after[-1]), _stderr(log)
