"""Peer converters timed on the benchmark inputs; runs inside benchmarks/.peers-venv (see setup_peers.sh).

Prints one JSON document: per input set, µs per schema for each peer and for the json
round-trip baseline measured in this same process, plus how many schemas each peer raised on.
With --toolcast DIR, toolcast.compile_tool (imported from DIR: run.py passes the package it
measures itself) is timed in the same passes, interleaved with the peers and the baseline.
Usage (normally via run.py --peers): .peers-venv/bin/python benchmarks/peers.py [--quick] [--runs N] [--toolcast DIR]
"""

from __future__ import annotations

import argparse
import copy
import importlib.metadata as md
import importlib.util
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.setrecursionlimit(3000)  # openai's helper recurses without a guard on recursive $refs

import common  # noqa: E402

PACKAGES = ("openai", "openai-agents", "pydantic-ai-slim", "langchain-core")
TOOLCAST = "toolcast"  # the key of toolcast's timings, beside the peers'


def import_toolcast(where: str):
    """toolcast.compile_tool and its compiled modules (build_info), from the package in directory
    `where` (the build run.py measures; the peers venv does not install toolcast itself). The same
    Python as run.py's is needed for a compiled build's modules to load: run.py compares the lists."""
    if importlib.util.find_spec("lark") is None:  # toolcast's one dependency (its pattern analyser)
        raise SystemExit("peers.py: lark is not installed in this venv; rerun `bash benchmarks/setup_peers.sh`")
    sys.path.insert(0, where)
    import toolcast

    if not Path(toolcast.__file__).resolve().is_relative_to(Path(where, "toolcast").resolve()):
        raise SystemExit(f"peers.py: imported toolcast from {toolcast.__file__}, not from {where}")
    return toolcast.compile_tool, list(toolcast.build_info().compiled)


def adapters() -> dict:
    """name -> callable(tool): each leaves the caller's tool intact (copying first where the peer mutates)."""
    from agents.strict_schema import ensure_strict_json_schema
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from openai.lib._pydantic import _ensure_strict_json_schema

    try:  # what OpenAIProvider selects for non-fine-tuned models
        from pydantic_ai.profiles.openai import _OpenAIJsonSchemaTransformer as PydanticAIOpenAI
    except ImportError:  # pragma: no cover - older/newer layouts
        from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer as PydanticAIOpenAI

    def openai_copy(tool: dict) -> object:
        s = copy.deepcopy(tool["inputSchema"])
        return _ensure_strict_json_schema(s, path=(), root=s)

    def agents_copy(tool: dict) -> object:
        return ensure_strict_json_schema(copy.deepcopy(tool["inputSchema"]))

    def pydantic_ai(tool: dict) -> object:
        return PydanticAIOpenAI(tool["inputSchema"], strict=True).walk()

    def langchain(tool: dict) -> object:
        fn = {"name": tool["name"], "description": tool.get("description") or "", "parameters": tool["inputSchema"]}
        return convert_to_openai_tool(fn, strict=True)

    return {
        "openai (deepcopy + _ensure_strict_json_schema)": openai_copy,
        "openai-agents (deepcopy + ensure_strict_json_schema)": agents_copy,
        "pydantic-ai (_OpenAIJsonSchemaTransformer strict=True)": pydantic_ai,
        "langchain-core (convert_to_openai_tool strict=True)": langchain,
    }


def guarded(fn, errors: dict, key: str):
    def call(tool: dict) -> None:
        try:
            fn(tool)
        except Exception as exc:  # a peer's failure is a data point
            errors.setdefault(key, {}).setdefault(type(exc).__name__, set()).add(id(tool))

    return call


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sets", nargs="*", default=list(common.SETS))
    ap.add_argument("--cpu", action="store_true", help="time with process CPU time instead of wall time")
    ap.add_argument("--toolcast", metavar="DIR", help="also time toolcast, imported from DIR, in this process")
    args = ap.parse_args(argv)
    if args.cpu:
        common.use_cpu_clock()
    peers = adapters()
    out: dict = {"versions": {p: md.version(p) for p in PACKAGES}, "python": sys.version.split()[0],
                 "clock": common.CLOCK["name"], "sets": {}}
    compile_tool = None
    if args.toolcast:
        compile_tool, out["toolcast_build"] = import_toolcast(args.toolcast)
    for name in args.sets:
        tools = common.load_set(name, quick=args.quick)
        errors: dict = {}
        fns = {"baseline": common.baseline}
        if compile_tool is not None:
            fns[TOOLCAST] = compile_tool  # (never raises on a tool: it reports instead)
        fns.update({k: guarded(fn, errors, k) for k, fn in peers.items()})
        runs = common.interleaved(fns, tools, args.runs)
        out["sets"][name] = {
            "count": len(tools),
            "us": {k: common.median(v) for k, v in runs.items()},
            "runs": runs,
            "raised": {k: {e: len(ids) for e, ids in v.items()} for k, v in errors.items()},
        }
        print(f"peers: {name} done", file=sys.stderr, flush=True)
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
