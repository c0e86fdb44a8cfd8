"""`toolcast proxy` lists its tools as one request: a client sends the listing with each model
request, so the target's request budgets apply across it in the listing's order (OpenAI: 128 tools;
Anthropic: 20 strict tools, 24 optional parameters over the strict ones), at start and on each relist."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
from test_proxy import ECHO, run, text_of
from test_proxy import proxied as _proxied

# The echo server's own tools, before the extra ones: echo (4 optional properties), fail, crash,
# hang, garbage; then the extra tools in the file's order, then reload.
OWN = ["echo", "fail", "crash", "hang", "garbage"]
FIVE_OPTIONAL = json.dumps({"type": "object", "properties": {k: {"type": "string"} for k in "abcde"}})


def proxied(*options: str, seen: list | None = None, errlog: Any = None) -> Any:
    """test_proxy's client, with the whole environment: the proxy runs the toolcast this test
    imports (PYTHONPATH included)."""
    return _proxied(*options, seen=seen, errlog=errlog, env=dict(os.environ))


def _extras(path: Path, lines: list[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return f"echo={ECHO} --extra-tools {path}"


def _strict(tool) -> bool:
    return (tool.meta or {}).get("toolcast/strict", True) is not False


def test_openai_lists_at_most_128_tools_and_says_which_are_left_out(tmp_path):
    server = _extras(tmp_path / "extra.txt", [f"x{i}" for i in range(130)])
    errlog = tmp_path / "err.txt"

    async def go():
        with errlog.open("w") as log:
            async with proxied("--target", "openai", "--server", server, errlog=log) as session:
                tools = (await session.list_tools()).tools
                called = await session.call_tool("echo__x129", {})
                return tools, called

    tools, called = run(go())
    names = [f"echo__{n}" for n in (*OWN, *(f"x{i}" for i in range(130)), "reload")]
    assert [t.name for t in tools] == names[:128]  # the first 128, in the listing's order
    assert all(_strict(t) for t in tools)
    assert called.is_error and "unknown tool 'echo__x129'" in text_of(called)
    err = errlog.read_text(encoding="utf-8")
    assert "136 tool(s): 128 strict, 0 non-strict, 8 left out" in err, err
    for name in names[128:]:
        assert (f"{name} (echo/{name[6:]}) left out: refused (openai/too-many-tools): "
                "past the listing's request budget max_tools (129 > 128)") in err, err


@pytest.mark.parametrize("strict", ["auto", "true"])
def test_anthropic_tools_past_a_strict_budget_are_listed_non_strict_or_left_out(tmp_path, strict):
    # echo has 4 optional properties, each x 5: x4 would make 29 > 24 optional parameters. The y
    # have none: y0..y10 make 20 strict tools with the 9 before them, y11 on are past 20.
    lines = [f"x{i} {FIVE_OPTIONAL}" for i in range(5)] + [f"y{i}" for i in range(21)]
    server = _extras(tmp_path / "extra.txt", lines)
    errlog = tmp_path / "err.txt"

    async def go():
        with errlog.open("w") as log:
            async with proxied("--target", "anthropic", "--strict", strict, "--server", server,
                               errlog=log) as session:
                return {t.name: t for t in (await session.list_tools()).tools}

    tools = run(go())
    err = errlog.read_text(encoding="utf-8")
    strict_ones = [f"echo__{n}" for n in (*OWN, "x0", "x1", "x2", "x3", *(f"y{i}" for i in range(11)))]
    assert all(_strict(tools[n]) for n in strict_ones) and len(strict_ones) == 20
    past = {"echo__x4": ("anthropic/too-many-optional-parameters", "max_optional_parameters (29 > 24)")}
    past.update({f"echo__{n}": ("anthropic/too-many-strict-tools", "max_strict_tools (21 > 20)")
                 for n in (*(f"y{i}" for i in range(11, 21)), "reload")})
    for name, (code, budget) in past.items():
        said = f"past the listing's request budget {budget}"
        if strict == "auto":
            assert tools[name].meta == {"toolcast/strict": False, "toolcast/not-strict-because": [code]}
            assert f"{name} (echo/{name[6:]}) sent non-strict ({code}): {said}" in err, err
        else:
            assert name not in tools
            assert f"{name} (echo/{name[6:]}) left out: refused ({code}): {said}" in err, err
    listed, left = (32, 0) if strict == "auto" else (20, 12)
    assert len(tools) == listed
    assert f"32 tool(s): 20 strict, {listed - 20} non-strict, {left} left out" in err, err


def test_a_relist_applies_the_budgets_to_the_new_tools(tmp_path):
    extra = tmp_path / "extra.txt"
    server = _extras(extra, ["x0", "x1"])
    errlog = tmp_path / "err.txt"

    async def go():
        seen: list = []
        with errlog.open("w") as log:
            async with proxied("--target", "openai", "--server", server, seen=seen, errlog=log) as session:
                before = (await session.list_tools()).tools
                extra.write_text("".join(f"x{i}\n" for i in range(130)), encoding="utf-8")
                await session.call_tool("echo__reload", {})
                for _ in range(100):  # the notification comes after the call's answer
                    if any("ToolListChanged" in type(m).__name__ or "list_changed" in repr(m) for m in seen):
                        break
                    await asyncio.sleep(0.05)
                after = (await session.list_tools()).tools
                return before, after

    before, after = run(go())
    assert len(before) == 8
    assert [t.name for t in after] == [f"echo__{n}" for n in (*OWN, *(f"x{i}" for i in range(123)))]
    err = errlog.read_text(encoding="utf-8")
    assert "server 'echo': its tools changed" in err, err
    assert "136 tool(s): 128 strict, 0 non-strict, 8 left out" in err, err
    assert ("echo__reload (echo/reload) left out: refused (openai/too-many-tools): "
            "past the listing's request budget max_tools (129 > 128)") in err, err


def test_a_tool_left_out_for_its_own_reason_uses_none_of_the_budget(monkeypatch):
    # In process: 130 tools, the sixth with no schema to list (as a target's compiled tool may
    # hold none): it uses nothing, so 128 of the other 129 are listed and one is past the budget.
    import io

    from toolcast import proxy as proxy_module

    proxy = proxy_module.Proxy([proxy_module.parse_server("m=python server.py")], target="openai",
                               err=io.StringIO())
    proxy.tools_by_server["m"] = [{"name": f"t{i}", "inputSchema": {"type": "object"}} for i in range(130)]
    calls = iter(range(1000))
    parameters = proxy_module._parameters
    monkeypatch.setattr(proxy_module, "_parameters",
                        lambda target, emitted: None if next(calls) == 5 else parameters(target, emitted))
    listing = proxy._build()
    assert [t.name for t in listing.tools] == [f"m__t{i}" for i in range(130) if i not in (5, 129)]
    assert listing.lines == ["m__t5 (m/t5) left out: its compiled openai tool holds no JSON Schema to list",
                             "m__t129 (m/t129) left out: refused (openai/too-many-tools): "
                             "past the listing's request budget max_tools (129 > 128)"]
