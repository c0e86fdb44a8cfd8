"""Benchmark inputs and timing shared by run.py (dev venv) and peers.py (peers venv): stdlib only."""

from __future__ import annotations

import gc
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
def _corpus() -> Path:
    """The corpus: $TOOLCAST_CORPUS when set, else the copy vendored in tests/corpus (the tests read
    the same files; see tests/corpus/SOURCES.md)."""
    env = os.environ.get("TOOLCAST_CORPUS")
    return Path(env).resolve() if env else REPO / "tests" / "corpus"


CORPUS = _corpus()


def require_corpus() -> None:
    """Exit with a clear message (status 2) when the corpus is not where the benchmarks read it."""
    missing = [name for name in ("bfcl.jsonl", "mcp.jsonl", "large") if not (CORPUS / name).exists()]
    if missing:
        print(f"benchmarks: the corpus is not at {CORPUS} (missing: {', '.join(missing)}); "
              "set TOOLCAST_CORPUS to the directory that holds bfcl.jsonl, mcp.jsonl and large/", file=sys.stderr)
        raise SystemExit(2)

# name -> (source, inflation factor, sampling stride). Inflated copies of the small corpora are
# sampled so that one run stays a few seconds per converter; `quick` samples harder.
SETS = {
    "bfcl": ("bfcl", 1, 1),
    "mcp": ("mcp", 1, 1),
    "large": ("large", 1, 1),
    "bfcl x10": ("bfcl", 10, 10),
    "mcp x10": ("mcp", 10, 1),
    "large x10": ("large", 10, 1),
    "bfcl x100": ("bfcl", 100, 100),
    "mcp x100": ("mcp", 100, 10),
}
QUICK_STRIDE = {"bfcl": 10, "mcp": 3, "large": 1}


def _records(source: str) -> list[dict]:
    if source == "large":
        out = []
        for path in sorted((CORPUS / "large").glob("*.json")):
            schema = json.loads(path.read_text(encoding="utf-8"))
            name = re.sub(r"[^A-Za-z0-9_-]", "_", path.stem)[:64]
            desc = schema.get("description") or schema.get("title") or f"The {path.stem} schema."
            out.append({"name": name, "description": desc if isinstance(desc, str) else path.stem, "inputSchema": schema})
        return out
    with open(CORPUS / f"{source}.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def inflate(schema: object, factor: int) -> object:
    """The schema with its root properties replicated `factor` times under new names.

    Copies keep their place in `required`; the result is rebuilt through JSON so no subtree is
    shared between copies (converters that mutate in place see distinct objects).
    """
    if factor == 1 or not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return schema
    props = schema["properties"]
    required = schema.get("required")
    new_props: dict = {}
    for c in range(factor):
        for name, sub in props.items():
            new_props[name if c == 0 else f"{name}__{c}"] = sub
    out = dict(schema)
    out["properties"] = new_props
    if isinstance(required, list):
        out["required"] = [
            r if c == 0 else f"{r}__{c}" for c in range(factor) for r in required if isinstance(r, str) and r in props
        ] + [r for r in required if not (isinstance(r, str) and r in props)]
    return json.loads(json.dumps(out))


def load_set(name: str, quick: bool = False) -> list[dict]:
    """Tools {name, description, inputSchema} of one input set."""
    source, factor, stride = SETS[name]
    if quick:
        stride = max(stride, QUICK_STRIDE[source] * (1 if factor == 1 else 2))
    recs = _records(source)[::stride]
    return [
        {"name": r["name"], "description": r.get("description"), "inputSchema": inflate(r["inputSchema"], factor)}
        for r in recs
    ]


def json_bytes(tools: list[dict]) -> int:
    return sum(len(json.dumps(t["inputSchema"], separators=(",", ":"))) for t in tools)


# The clock: wall time (time.perf_counter_ns) by default; `--cpu` switches to this process's CPU
# time (time.process_time_ns), which other load on a shared machine disturbs far less.
CLOCK = {"ns": time.perf_counter_ns, "name": "wall (perf_counter_ns)"}


def use_cpu_clock() -> None:
    CLOCK.update(ns=time.process_time_ns, name="CPU (process_time_ns)")


def interleaved(fns: dict, items: list, runs: int) -> dict[str, list[float]]:
    """Time several callables over the same items, alternating them run by run (drift hits all)."""
    res: dict[str, list[float]] = {k: [] for k in fns}
    for fn in fns.values():  # warm-up
        for x in items[: max(1, len(items) // 10)]:
            fn(x)
    for _ in range(runs):
        for k, fn in fns.items():
            res[k].append(_one_pass(fn, items))
    return res


def _one_pass(fn, items: list) -> float:
    """µs per item for one pass over `items`."""
    gc.collect()
    clock = CLOCK["ns"]
    t0 = clock()
    for x in items:
        fn(x)
    return (clock() - t0) / len(items) / 1000


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def baseline(tool: dict) -> object:
    return json.loads(json.dumps(tool["inputSchema"]))
