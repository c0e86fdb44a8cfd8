"""Run-time cost: tool_calls + null stripping per target against json.loads, and the proxy's overhead.

    .venv/bin/python benchmarks/runtime.py            # both parts
    .venv/bin/python benchmarks/runtime.py --only calls
    .venv/bin/python benchmarks/runtime.py --only proxy --calls 200

Targets: tool_calls at most 1.5x json.loads of the same arguments (median of several runs,
one process); the proxy at most 2 ms per call over a direct stdio call (median over 200
calls to tests/servers/echo_server.py). Exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ECHO = ROOT / "tests" / "servers" / "echo_server.py"
CALLS_RATIO_TARGET = 1.5
PROXY_MS_TARGET = 2.0

SCHEMA = {
    "type": "object",
    "properties": {
        "query": {"type": "string"},
        "limit": {"type": "integer"},
        "offset": {"type": "integer"},
        "sort": {"type": "string", "enum": ["asc", "desc"]},
        "filter": {
            "type": "object",
            "properties": {
                "lang": {"type": "string"},
                "since": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "string"}},
            },
        },
    },
    "required": ["query"],
}


def _arguments(i: int) -> dict:
    """A model's arguments under strict mode: every optional property sent, some as null."""
    return {
        "query": f"find item {i} in the archive",
        "limit": 20 if i % 2 else None,
        "offset": None,
        "sort": "desc" if i % 3 else None,
        "filter": {"lang": None, "since": "2026-01-01", "tags": ["a", "b", f"t{i}"]}
        if i % 4
        else None,
    }


def _responses(n: int) -> dict[str, tuple[object, list[str]]]:
    """Per target, a response holding n calls and the argument strings json.loads reads."""
    texts = [json.dumps(_arguments(i)) for i in range(n)]
    name = "docs__search"
    openai = {"output": [{"type": "function_call", "call_id": f"c{i}", "name": name,
                          "arguments": t} for i, t in enumerate(texts)]}
    # Anthropic and Gemini SDKs hand over parsed objects; the baseline still parses the text.
    anthropic = {"type": "message", "content": [
        {"type": "tool_use", "id": f"t{i}", "name": name, "input": json.loads(t)}
        for i, t in enumerate(texts)]}
    gemini = {"candidates": [{"content": {"parts": [
        {"functionCall": {"id": f"g{i}", "name": name, "args": json.loads(t)}}
        for i, t in enumerate(texts)]}}]}
    return {"openai": (openai, texts), "anthropic": (anthropic, texts), "gemini": (gemini, texts)}


def _median_time(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_calls(n: int, runs: int) -> bool:
    from toolcast import anthropic, gemini
    from toolcast import openai as tc_openai
    from toolcast.toolset import ToolSet

    toolset, _ = ToolSet.build({"docs": [{"name": "search", "inputSchema": SCHEMA}]})
    _, report = tc_openai.tools(toolset)
    null_paths = report.null_paths
    readers = {"openai": tc_openai.tool_calls, "anthropic": anthropic.tool_calls,
               "gemini": gemini.tool_calls}
    ok = True
    print(f"tool_calls + null stripping, {n} calls per response, median of {runs} runs")
    print(f"{'target':<10} {'µs/call':>8} {'json.loads µs/call':>19} {'ratio':>6}")
    for target, (response, texts) in _responses(n).items():
        read = readers[target]
        calls, rejected = read(response, toolset, null_paths)
        assert len(calls) == n and not rejected and "offset" not in calls[0].arguments
        ours = _median_time(lambda read=read, response=response: read(response, toolset, null_paths), runs)
        base = _median_time(lambda texts=texts: [json.loads(t) for t in texts], runs)
        ratio = ours / base
        ok &= ratio <= CALLS_RATIO_TARGET
        print(f"{target:<10} {ours / n * 1e6:8.2f} {base / n * 1e6:19.2f} {ratio:6.2f}"
              f"{'' if ratio <= CALLS_RATIO_TARGET else '  MISSED'}")
    return ok


async def _latencies(command: list[str], tool: str, n: int) -> list[float]:
    from toolcast.mcp_runtime import stdio_session

    args = {"text": "ping", "count": None, "options": None}
    async with stdio_session(command, startup_timeout=60) as session:
        for _ in range(10):  # warm up: imports, first compile, caches
            await session.call_tool(tool, dict(args))
        out = []
        for _ in range(n):
            start = time.perf_counter()
            await session.call_tool(tool, dict(args))
            out.append(time.perf_counter() - start)
        return out


def bench_proxy(n: int) -> bool:
    py = sys.executable
    direct = asyncio.run(_latencies([py, str(ECHO)], "echo", n))
    proxied = asyncio.run(_latencies(
        [py, "-m", "toolcast.cli", "proxy", "--server", f"echo={py} {ECHO}"], "echo__echo", n))
    d, p = statistics.median(direct) * 1e3, statistics.median(proxied) * 1e3
    over = p - d
    print(f"proxy overhead, median over {n} calls to the echo server")
    print(f"direct {d:.3f} ms   through the proxy {p:.3f} ms   overhead {over:.3f} ms"
          f"{'' if over <= PROXY_MS_TARGET else '  MISSED'}")
    return over <= PROXY_MS_TARGET


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["calls", "proxy"])
    parser.add_argument("--calls", type=int, default=200, help="calls per proxy measurement")
    parser.add_argument("--batch", type=int, default=100, help="calls per response (tool_calls)")
    parser.add_argument("--runs", type=int, default=51, help="runs per tool_calls median")
    args = parser.parse_args()
    ok = True
    if args.only in (None, "calls"):
        ok &= bench_calls(args.batch, args.runs)
    if args.only in (None, "proxy"):
        ok &= bench_proxy(args.calls)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
