"""enforce=True measured: the share of tools sent strict per target and API with and without it, and what
checking a call's arguments costs in tool_calls beside json.loads of the same arguments.

Usage: python benchmarks/enforce.py coverage [--markdown]   (bfcl, mcp, agent_tools and the large schemas)
       python benchmarks/enforce.py calls [--runs N]        (µs per call, small and large arguments)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

TARGETS = (("openai", "responses"), ("openai", "chat"), ("anthropic", "messages"), ("gemini", "parameters"),
           ("gemini", "json-schema"), ("vertex", "parameters"), ("vertex", "json-schema"))
SETS = ("bfcl", "mcp", "agent_tools", "large")


def _tools(source: str) -> list[dict]:
    if source == "agent_tools":
        with open(common.CORPUS / "agent_tools.jsonl", encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]
    return common.load_set(source)


def coverage(markdown: bool) -> int:
    import toolcast

    rows = []
    for source in SETS:
        tools = [{k: v for k, v in t.items() if k in ("name", "description", "inputSchema")} for t in _tools(source)]
        for target, api in TARGETS:
            counts = []
            for enforce in (False, True):
                results = [toolcast.compile_tool(t, target=target, api=api, enforce=enforce) for t in tools]
                counts.append((sum(r.status == "strict" for r in results), sum(bool(r.enforced) for r in results)))
            rows.append((source, len(tools), target, api, counts[0][0], counts[1][0], counts[1][1]))
    head = ("set", "tools", "target", "api", "strict", "strict with enforce", "of which enforced")
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    for source, n, target, api, plain, enforced, by_enforce in rows:
        cells = (source, str(n), target, api, f"{plain} ({100 * plain / n:.1f}%)",
                 f"{enforced} ({100 * enforced / n:.1f}%)", str(by_enforce))
        print(("| " + " | ".join(cells) + " |") if markdown else "  ".join(f"{c:<18}" for c in cells))
    return 0


def _args(n: int) -> dict:
    """Arguments for SCHEMA with `n` items in `pages` (small: 1, large: thousands)."""
    return {"url": "https://example.com/a?b=1", "tag": "final", "size": 2.5,
            "pages": [{"url": f"https://example.com/p/{i}", "title": f"Page {i}", "rank": i} for i in range(n)]}


SCHEMA = {
    "type": "object",
    "properties": {
        "url": {"type": "string", "format": "uri"},
        "tag": {"type": "string", "not": {"const": "draft"}},
        "size": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 1}]},
        "pages": {"type": "array", "items": {"type": "object", "properties": {
            "url": {"type": "string", "format": "uri"}, "title": {"type": "string"}, "rank": {"type": "integer"}},
            "required": ["url", "title", "rank"]}},
    },
    "required": ["url", "tag", "size", "pages"],
}


def _per_call(fn, runs: int, inner: int) -> float:
    best = []
    for _ in range(runs):
        t0 = time.perf_counter_ns()
        for _ in range(inner):
            fn()
        best.append((time.perf_counter_ns() - t0) / inner / 1000)
    return common.median(best)


def calls(runs: int) -> int:
    from toolcast import ToolSet
    from toolcast import openai as tc

    toolset, _ = ToolSet.build({"": [{"name": "fetch", "description": "Fetch.", "inputSchema": SCHEMA}]})
    _, plain_report = tc.tools(toolset)
    _, report = tc.tools(toolset, enforce=True)
    assert report.checks, "nothing enforced"
    check = report.checks["fetch"]
    print("size    bytes     json.loads µs  tool_calls µs  tool_calls+enforce µs  ratio to loads  "
          "check alone µs  validator build ms")
    for label, n in (("small", 1), ("large", 2000)):
        text = json.dumps(_args(n))
        item = [{"type": "function_call", "call_id": "c", "name": "fetch", "arguments": text}]
        loads = _per_call(lambda text=text: json.loads(text), runs, 2000 if n == 1 else 20)
        plain = _per_call(lambda item=item: tc.tool_calls(item, toolset, plain_report), runs, 2000 if n == 1 else 20)
        fresh = type(check)(check.schema, check.formats)  # the first call builds the validator
        t0 = time.perf_counter_ns()
        fresh.problems(_args(1))
        first = (time.perf_counter_ns() - t0) / 1e6
        enforced = _per_call(lambda item=item: tc.tool_calls(item, toolset, report), runs, 2000 if n == 1 else 20)
        value = json.loads(text)
        only = _per_call(lambda value=value: check.problems(value), runs, 2000 if n == 1 else 20)
        assert tc.tool_calls(item, toolset, report)[1] == []
        print(f"{label:<7} {len(text):<9} {loads:<14.2f} {plain:<14.2f} {enforced:<22.2f} "
              f"{enforced / loads:<15.2f} {only:<15.2f} {first:.2f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="what", required=True)
    c = sub.add_parser("coverage")
    c.add_argument("--markdown", action="store_true")
    k = sub.add_parser("calls")
    k.add_argument("--runs", type=int, default=7)
    args = p.parse_args(argv)
    common.require_corpus()
    return coverage(args.markdown) if args.what == "coverage" else calls(args.runs)


if __name__ == "__main__":
    raise SystemExit(main())
