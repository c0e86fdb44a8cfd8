"""toolcast's speed budget, measured: compile time vs the json round-trip and the peers, start-up,
import time, memory and linearity; writes docs/benchmarks.md, benchmarks/results.json and
docs/benchmarks.png.

Usage: python benchmarks/run.py [--quick] [--peers] [--runs N] [--only speed,startup,memory,linearity]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

HERE = common.HERE
REPO = common.REPO
PEERS_PY = HERE / ".peers-venv" / "bin" / "python"
RESULTS = HERE / "results.json"
DOC = REPO / "docs" / "benchmarks.md"
PNG = REPO / "docs" / "benchmarks.png"
FORBIDDEN = ("yaml", "lark", "jsonschema", "mcp", "openai", "pydantic", "httpx", "anyio")

# The budget of issue 6, each a ratio measured in the same run.
COMPILE_RATIO = 1.5
STARTUP_FACTOR, STARTUP_EXTRA_MS = 1.3, 60.0
IMPORT_MS = 30.0
MEMORY_RATIO = 2.0
MEMORY_TOOLS = 10_000


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# -- compile speed ---------------------------------------------------------------------------
def bench_speed(quick: bool, runs: int) -> dict:
    import toolcast
    from toolcast.rules import get_rules
    from toolcast.walk import Walk, walk_schema, without_cycle_gc

    out = {}
    for name in common.SETS:
        tools = common.load_set(name, quick=quick)
        statuses: dict[str, int] = {}
        groups: dict[str, list] = {}
        walked = 0
        for t in tools:
            st = toolcast.compile_tool(t).status
            statuses[st] = statuses.get(st, 0) + 1
            groups.setdefault(st, []).append(t)
            # The strict form the walk builds (kept only when the tool goes strict): merging
            # `$ref` siblings and `allOf` inlines definitions, so it can far outgrow the input.
            walked += len(json.dumps(walk_schema(Walk(get_rules()), t["inputSchema"]), separators=(",", ":")))
        # compile_tool pauses the cycle collector while it runs (without_cycle_gc); the baseline
        # is timed as Python runs it, and once more with the collector paused too, for comparison.
        res = common.interleaved({"baseline": common.baseline, "toolcast": toolcast.compile_tool,
                                  "baseline, collector paused": partial(without_cycle_gc, common.baseline)}, tools, runs)
        us = {k: common.median(v) for k, v in res.items()}
        # The same timing per outcome: a tool sent non-strict is walked in full (every finding) and
        # then copied as it was, so its cost differs from a strict one's.
        by_outcome = {}
        for st, items in sorted(groups.items()):
            r = common.interleaved({"baseline": common.baseline, "toolcast": toolcast.compile_tool}, items, runs)
            u = {k: common.median(v) for k, v in r.items()}
            by_outcome[st] = {"count": len(items), "us": u, "ratio": u["toolcast"] / u["baseline"]}
        out[name] = {
            "by_outcome": by_outcome,
            "count": len(tools),
            "bytes_per_schema": common.json_bytes(tools) / len(tools),
            "walked_bytes_per_schema": walked / len(tools),
            "us": us,
            "runs": res,
            "ratio": us["toolcast"] / us["baseline"],
            "ratio_baseline_paused": us["toolcast"] / us["baseline, collector paused"],
            "statuses": statuses,
        }
        log(f"speed: {name:10} n={len(tools):5}  baseline {us['baseline']:9.1f} µs  toolcast {us['toolcast']:9.1f} µs"
            f"  ({out[name]['ratio']:.2f}×; {out[name]['ratio_baseline_paused']:.2f}× with the collector paused in both)")
    return out


def bench_peers(quick: bool, runs: int) -> dict | None:
    if not PEERS_PY.exists():
        log(f"peers: {PEERS_PY} missing; run `bash benchmarks/setup_peers.sh` first")
        return None
    import toolcast

    cmd = [str(PEERS_PY), str(HERE / "peers.py"), "--runs", str(runs)] + (["--quick"] if quick else []) + (
        ["--cpu"] if common.CLOCK["ns"] is time.process_time_ns else [])
    # toolcast is timed in the peers' process too, beside them: the build this run measures, made
    # importable there (and nothing else of this venv) through a directory holding only a link to it.
    with tempfile.TemporaryDirectory(prefix="toolcast-peers-") as where:
        Path(where, "toolcast").symlink_to(Path(toolcast.__file__).resolve().parent, target_is_directory=True)
        cmd += ["--toolcast", where]
        log("peers: " + " ".join(cmd))
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True)
    res = json.loads(proc.stdout)
    if res.get("toolcast_build") != list(toolcast.build_info().compiled):
        # A compiled module built for another Python does not load there: its source would run.
        log("peers: the peers' process ran another build of toolcast than this one "
            f"({res.get('toolcast_build')}); its same-process figures are left out")
        for v in res["sets"].values():
            for key in ("us", "runs"):
                v[key].pop(SAME_PROCESS, None)
        res.pop("toolcast_build", None)
    return res


# -- start-up and import ---------------------------------------------------------------------
# Start-up is measured as installed code runs: with .pyc caches (a session or CI that sets
# PYTHONDONTWRITEBYTECODE would otherwise recompile every module on every start).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _wall_ms(cmd: list[str]) -> float:
    t0 = time.perf_counter_ns()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV)
    return (time.perf_counter_ns() - t0) / 1e6


def _importtime(stmt: str, module: str) -> tuple[float, set[str]]:
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", stmt], capture_output=True, text=True, check=True,
                          env=ENV)
    cumulative, names = math.nan, set()
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
        if not m:
            continue
        names.add(m.group(4))
        if m.group(4) == module:
            cumulative = int(m.group(2)) / 1000
    return cumulative, names


def bench_startup(quick: bool) -> dict:
    n = 8 if quick else 20
    exe = Path(sys.executable).parent / "toolcast"
    cli = [str(exe)] if exe.exists() else [sys.executable, "-c", "import sys; from toolcast.cli.main import main; sys.exit(main())"]
    with tempfile.TemporaryDirectory() as tmp:
        tool = common.load_set("mcp")[0]
        path = Path(tmp) / "tool.json"
        path.write_text(json.dumps(tool))
        cmds = {
            "python -c pass": [sys.executable, "-c", "pass"],
            'python -c "import toolcast"': [sys.executable, "-c", "import toolcast"],
            "toolcast compile tool.json": cli + ["compile", str(path)],
        }
        for cmd in cmds.values():  # warm the page cache and .pyc files
            _wall_ms(cmd)
        times: dict[str, list[float]] = {k: [] for k in cmds}
        for _ in range(n):
            for k, cmd in cmds.items():
                times[k].append(_wall_ms(cmd))
    med = {k: statistics.median(v) for k, v in times.items()}
    imports = {}
    for stmt, module in (("import toolcast", "toolcast"), ("import toolcast.cli.main", "toolcast.cli.main")):
        samples = [_importtime(stmt, module) for _ in range(3 if quick else 7)]
        imported = set().union(*(s[1] for s in samples))
        imports[stmt] = {
            "cumulative_ms": statistics.median(s[0] for s in samples),
            "forbidden": sorted(m for m in imported if m.split(".")[0] in FORBIDDEN),
            "modules": len(samples[0][1]),
        }
    budget = STARTUP_FACTOR * med["python -c pass"] + STARTUP_EXTRA_MS
    res = {"ms": med, "runs": times, "budget_ms": budget, "imports": imports}
    log(f"startup: {json.dumps({k: round(v, 1) for k, v in med.items()})} budget {budget:.1f} ms;"
        f" importtime {json.dumps({k: round(v['cumulative_ms'], 1) for k, v in imports.items()})}")
    return res


# -- memory ----------------------------------------------------------------------------------
def memory_tools(n: int) -> list[dict]:
    recs = common.load_set("bfcl") + common.load_set("mcp")
    tools = []
    for i in range(n):
        r = recs[i % len(recs)]
        name = re.sub(r"[^A-Za-z0-9_-]", "_", r["name"])[:48] + f"_{i}"
        tools.append({"name": name, "description": r["description"], "inputSchema": r["inputSchema"]})
    return tools


def memory_child(n: int) -> None:
    import gc
    import tracemalloc

    import toolcast

    text = json.dumps(memory_tools(n))
    toolcast.compile_tools(json.loads(text)[:50])  # import-time and first-call caches out of the way
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    tools = json.loads(text)
    parsed = tracemalloc.get_traced_memory()[0] - base
    gc.collect()
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    results = toolcast.compile_tools(tools)
    current, peak = tracemalloc.get_traced_memory()
    print(json.dumps({
        "tools": n,
        "json_text_bytes": len(text),
        "parsed_bytes": parsed,
        "peak_bytes": peak - before,
        "retained_bytes": current - before,
        "statuses": {s: sum(r.status == s for r in results) for s in ("strict", "non-strict", "refused")},
    }))


def bench_memory() -> dict:
    proc = subprocess.run([sys.executable, __file__, "--memory-child", str(MEMORY_TOOLS)],
                          stdout=subprocess.PIPE, text=True, check=True)
    res = json.loads(proc.stdout)
    res["ratio"] = res["peak_bytes"] / res["parsed_bytes"]
    log(f"memory: parsed {res['parsed_bytes'] / 1e6:.1f} MB, compile peak {res['peak_bytes'] / 1e6:.1f} MB"
        f" ({res['ratio']:.2f}×), retained {res['retained_bytes'] / 1e6:.1f} MB")
    return res


# -- linearity -------------------------------------------------------------------------------
def _width_schema(k: int) -> dict:
    base = _width_base()
    return common.inflate(base, k)


_BASE: list = []


def _width_base() -> dict:
    if not _BASE:
        # A typical MCP tool: nested objects, arrays, enums, optional properties.
        for t in common.load_set("mcp"):
            s = t["inputSchema"]
            props = s.get("properties") or {}
            nested = any(isinstance(p, dict) and p.get("type") in ("object", "array") for p in props.values())
            # No enum: inflated copies would cross the 1,000-enum-value limit and change outcome.
            if 6 <= len(props) <= 12 and nested and '"enum"' not in json.dumps(s):
                _BASE.append(s)
                break
    return _BASE[0]


def _refs_star(n: int) -> dict:
    """n properties, each a $ref to its own definition, every definition referring to one shared leaf."""
    defs = {"leaf": {"type": "object", "properties": {"id": {"type": "string"}, "note": {"type": "string"}},
                     "required": ["id"]}}
    props = {}
    for i in range(n):
        defs[f"d{i}"] = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"},
                                                          "leaf": {"$ref": "#/$defs/leaf"}}, "required": ["a", "leaf"]}
        props[f"p{i}"] = {"$ref": f"#/$defs/d{i}"}
    return {"type": "object", "properties": props, "required": list(props)[::2], "$defs": defs}


def _refs_chain(n: int) -> dict:
    """A chain of n definitions, each referring to the next; only the last has an optional property."""
    defs = {}
    for i in range(n):
        nxt = {"$ref": f"#/$defs/d{i + 1}"} if i + 1 < n else {"type": "integer"}
        defs[f"d{i}"] = {"type": "object", "properties": {"a": {"type": "string"}, "next": nxt},
                         "required": ["a", "next"] if i + 1 < n else ["a"]}
    return {"type": "object", "properties": {"root": {"$ref": "#/$defs/d0"}}, "required": ["root"], "$defs": defs}


def _deep(d: int) -> dict:
    """Objects nested d levels deep, 10 properties (half optional) at each level."""
    node: dict = {"type": "string"}
    for level in range(d):
        props = {f"f{level}_{j}": {"type": "string", "description": "a field"} for j in range(9)}
        props["child"] = node
        node = {"type": "object", "properties": props, "required": list(props)[::2]}
    return node


def _all_of_parts(n: int) -> dict:
    """One property that is the allOf of n objects with three properties each (merged into one)."""
    parts = [{"type": "object", "properties": {f"p{i}_{j}": {"type": "string"} for j in range(3)},
              "required": [f"p{i}_0"]} for i in range(n)]
    return {"type": "object", "properties": {"a": {"allOf": parts}}, "required": ["a"]}


def _all_of_twice(n: int) -> dict:
    """n definitions, each the allOf of the next named twice (2**n merges if merged naively)."""
    defs = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}],
                      "description": f"level {i}"} for i in range(n)}
    defs[f"d{n}"] = {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}
    return {"type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}, "required": ["a"], "$defs": defs}


def _enum_merge(n: int) -> dict:
    """allOf of two n-value enums that share half their values (an intersection, not a product)."""
    return {"type": "object", "properties": {"a": {"allOf": [
        {"type": "integer", "enum": list(range(n))}, {"enum": list(range(n // 2, n + n // 2))}]}}, "required": ["a"]}


def _one_of_consts(n: int) -> dict:
    """oneOf of n distinct consts (shown exclusive by their values, not pair by pair)."""
    return {"type": "object", "properties": {"a": {"oneOf": [{"const": f"value {i}"} for i in range(n)]}},
            "required": ["a"]}


# Sizes stay within the rule tables' size limits (5,000 properties, ...) at the top end, so a
# curve does not change outcome (strict -> non-strict) part-way; depth is past the 10-level
# limit from 16 on, so its upper half is all one outcome too, and below the walk's structural
# guard (interpret.NEST_GUARD), past which a schema is refused without being walked.
CURVES = {
    "width (root properties ×k)": (_width_schema, (1, 2, 5, 10, 20, 50, 100, 200, 300)),
    "$ref fan-in (n definitions)": (_refs_star, (10, 30, 100, 300, 600, 1200)),
    "$ref chain (n definitions)": (_refs_chain, (10, 30, 100, 300, 1000, 2000)),
    "allOf parts (n parts)": (_all_of_parts, (10, 30, 100, 300, 800, 1500)),
    "allOf of one definition twice (n deep)": (_all_of_twice, (4, 8, 16, 32, 64, 128)),
    "enum merge (two n-value enums)": (_enum_merge, (30, 100, 300, 600, 1000)),
    "oneOf of n consts": (_one_of_consts, (30, 100, 300, 600, 1000)),
    "depth (n nested levels)": (_deep, (2, 4, 8, 16, 24, 32, 40)),
}


def _fastest_interleaved(calls: list[tuple], budget_ns: float = 200e6, runs: int = 9) -> list[float]:
    """µs per call of each (fn, arg) in `calls`: the fastest of `runs` samples (a median still
    moves with the machine's load and tilts the fitted slope). The budget gives the largest sizes
    several calls a sample: with 60 ms they took one, and one slow call at the top of a curve read
    as an exponent of 1.3 for a curve that re-measured at 12.1 → 13.1 µs/KB (width, 50 → 300 root
    properties, compiled build).

    The samples are taken round by round over all the calls (every point of a curve, toolcast and
    the round trip), as the speed section interleaves: a slow spell of the machine then costs one
    sample of each point, not every sample of one. Measured point by point, a spell of a few
    seconds at the top of one curve read as exponents of 1.20–1.52 for curves that re-measured at
    1.00–1.13 (four of five runs, 2026-11-30 17:57–18:08 UTC)."""
    clock = common.CLOCK["ns"]
    reps = []
    for fn, arg in calls:
        t0 = clock()
        fn(arg)
        once = max(clock() - t0, 1)
        reps.append(max(1, int(budget_ns / runs / once)))
    best = [math.inf] * len(calls)
    for _ in range(runs):
        for i, (fn, arg) in enumerate(calls):
            n = reps[i]
            t0 = clock()
            for _ in range(n):
                fn(arg)
            best[i] = min(best[i], (clock() - t0) / n / 1000)
    return best


def bench_linearity(quick: bool) -> dict:
    import toolcast

    out = {}
    for label, (make, sizes) in CURVES.items():
        if quick:
            sizes = sizes[: max(3, len(sizes) - 2)]
        tools = [{"name": "t", "description": "A tool.", "inputSchema": make(n)} for n in sizes]
        us = _fastest_interleaved([(toolcast.compile_tool, t) for t in tools] + [(common.baseline, t) for t in tools])
        points = []
        for i, (n, tool) in enumerate(zip(sizes, tools, strict=True)):
            size = len(json.dumps(tool["inputSchema"], separators=(",", ":")))
            status = toolcast.compile_tool(tool).status
            points.append({"n": n, "bytes": size, "toolcast_us": us[i], "baseline_us": us[len(tools) + i],
                           "status": status})
        # Growth exponent over the upper half of the curve: 1.0 is linear, 2.0 quadratic. The round
        # trip's over the same points is linear work: what it reads above 1.0 is the machine's.
        hi = points[len(points) // 2:]
        slope = _growth_exponent(hi, "toolcast_us")
        per_kb = [p["toolcast_us"] / (p["bytes"] / 1000) for p in points]
        out[label] = {"points": points, "exponent": slope, "baseline_exponent": _growth_exponent(hi, "baseline_us"),
                      "us_per_kb_first_last": (per_kb[0], per_kb[-1])}
        log(f"linearity: {label:28} exponent {slope:.2f} (round trip {out[label]['baseline_exponent']:.2f}); "
            f"µs/KB {per_kb[0]:.1f} → {per_kb[-1]:.1f}")
    return out


def _growth_exponent(points: list[dict], key: str) -> float:
    """The log-log slope of `key` against the JSON size over `points` (least squares)."""
    xs = [math.log(p["bytes"]) for p in points]
    ys = [math.log(p[key]) for p in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


# -- report ----------------------------------------------------------------------------------
SAME_PROCESS = "toolcast"  # toolcast's timings in the peers' process (peers.py --toolcast)
PEER_SHORT = {
    "openai (deepcopy + _ensure_strict_json_schema)": "openai+copy",
    "openai-agents (deepcopy + ensure_strict_json_schema)": "agents+copy",
    "pydantic-ai (_OpenAIJsonSchemaTransformer strict=True)": "pydantic-ai",
    "langchain-core (convert_to_openai_tool strict=True)": "langchain",
}


def targets(res: dict) -> list[tuple[str, str, bool]]:
    out = []
    speed = res.get("speed")
    if speed:
        worst = max(speed.values(), key=lambda v: v["ratio"])
        name = next(k for k, v in speed.items() if v is worst)
        out.append((f"full compile ≤ {COMPILE_RATIO}× json round-trip (every set)",
                    f"worst {worst['ratio']:.2f}× ({name})", all(v["ratio"] <= COMPILE_RATIO for v in speed.values())))
        peers = res.get("peers")
        if peers:
            # toolcast's ratio from the peers' process where it was timed there, beside them (the
            # same passes, so no second process's noise sits between the two); else its own run's.
            behind, pairs, beside = [], 0, False
            for set_name, v in speed.items():
                p = peers["sets"].get(set_name)
                if not p:
                    continue
                base = p["us"]["baseline"]
                mine = v["ratio"]
                if SAME_PROCESS in p["us"]:
                    mine, beside = p["us"][SAME_PROCESS] / base, True
                for peer, us in p["us"].items():
                    if peer in ("baseline", SAME_PROCESS):
                        continue
                    pairs += 1
                    if mine > us / base:
                        behind.append(f"{PEER_SHORT.get(peer, peer)} on {set_name}")
            basis = "timed beside them in their process" if beside else "timed in its own process"
            out.append((f"ahead of every peer (ratio to the baseline, per set and peer; toolcast {basis})",
                        f"ahead in {pairs - len(behind)} of {pairs}" + (f"; behind {', '.join(behind)}" if behind else ""),
                        not behind))
    st = res.get("startup")
    if st:
        cli = st["ms"]["toolcast compile tool.json"]
        out.append((f"`toolcast compile` one tool ≤ {STARTUP_FACTOR}× `python -c pass` + {STARTUP_EXTRA_MS:.0f} ms",
                    f"{cli:.1f} ms vs budget {st['budget_ms']:.1f} ms", cli <= st["budget_ms"]))
        imp = st["imports"]["import toolcast"]
        out.append((f"`import toolcast` < {IMPORT_MS:.0f} ms cumulative (-X importtime)",
                    f"{imp['cumulative_ms']:.1f} ms; heavy modules: {', '.join(imp['forbidden']) or 'none'}",
                    imp["cumulative_ms"] < IMPORT_MS and not imp["forbidden"]))
    lin = res.get("linearity")
    if lin:
        size = {k: v["exponent"] for k, v in lin.items() if not k.startswith("depth")}
        worst = max(size, key=size.get)
        out.append(("compile time linear in schema size: width and `$ref` curves, growth exponent ≤ 1.15",
                    f"worst {size[worst]:.2f} ({worst})", size[worst] <= 1.15))
        worst_all = max(lin, key=lambda k: lin[k]["exponent"])
        out.append(("no quadratic path (`$ref` handling, limit counting, path building): every curve < 1.5",
                    f"worst {lin[worst_all]['exponent']:.2f} ({worst_all})", lin[worst_all]["exponent"] < 1.5))
    mem = res.get("memory")
    if mem:
        out.append((f"peak memory for {mem['tools']:,} tools ≤ {MEMORY_RATIO}× their parsed JSON",
                    f"{mem['ratio']:.2f}×", mem["ratio"] <= MEMORY_RATIO))
    return out


def _build() -> str:
    """Which toolcast this run measures: compiled (TOOLCAST_COMPILE=1 at install) or Python source."""
    import toolcast

    compiled = toolcast.build_info().compiled
    if not compiled:
        return "toolcast run as Python source (no compiled modules)"
    return f"toolcast compiled with Cython: {', '.join(compiled)}"


def _fmt_us(us: float) -> str:
    return f"{us:,.0f}" if us >= 100 else f"{us:.1f}"


def _beside_the_peers(peers: dict, peer_names: list[str]) -> list[str]:
    """The table of toolcast timed in the peers' process, in the same passes as they are (none when
    it was not)."""
    sets = {name: p for name, p in peers["sets"].items() if SAME_PROCESS in p["us"]}
    if not sets:
        return []
    lines = [
        "## Beside the peers, in one process",
        "",
        "The same build of toolcast timed again in the peers' process (`benchmarks/.peers-venv`, with",
        "their modules loaded), pass by pass between them and the round trip: each ratio is to the",
        "baseline of that process, so toolcast and every peer are compared within one process's run.",
        "This is the comparison the peer target below reads.",
        "",
        "| input set | json round-trip | **toolcast** |" + "".join(f" {PEER_SHORT.get(p, p)} |" for p in peer_names),
        "|" + "---|" * (3 + len(peer_names)),
    ]
    for name, p in sets.items():
        bl = p["us"]["baseline"]
        row = f"| {name} | {_fmt_us(bl)} | **{_fmt_us(p['us'][SAME_PROCESS])} ({p['us'][SAME_PROCESS] / bl:.2f}×)** |"
        for peer in peer_names:
            us = p["us"][peer]
            raised = sum(p["raised"].get(peer, {}).values())
            row += f" {_fmt_us(us)} ({us / bl:.2f}×){f' ⚠{raised}' if raised else ''} |"
        lines.append(row)
    return [*lines, ""]


def render_markdown(res: dict) -> str:
    m = res["meta"]
    lines = [
        "# toolcast benchmarks",
        "",
        f"Generated by `{m['command']}` on {m['date']} ({m['machine']}; clock: {m.get('clock', 'wall')},"
        f" median of {m['runs']} runs). {m.get('build', '')}. Do not edit: rerun the command.",
        "",
    ]
    speed, peers = res.get("speed"), res.get("peers")
    if speed:
        lines += [
            "## Compile time per schema",
            "",
            "µs per schema (median of the runs) and, in brackets, the ratio to `json.loads(json.dumps(schema))`",
            "measured in the same process. toolcast is the full `compile_tool` (name, description, schema,",
            "diagnostics, transformations, null paths, emitted tool). Peers run in `benchmarks/.peers-venv`",
            "with their own baseline; each leaves its input intact (openai and agents on a `copy.deepcopy`).",
            "\"walked\" is the size of the strict schema toolcast's walk builds: merging `$ref` siblings and",
            "`allOf` inlines definitions, so on some large schemas it is many times the input.",
            "`compile_tool` pauses Python's cycle collector while it runs (the walk makes no reference cycles);",
            "the baseline and the peers run with it on. The last column times the baseline with the collector",
            "paused as well.",
            "",
        ]
        peer_names = [p for p in (peers["sets"][next(iter(peers["sets"]))]["us"] if peers else {})
                      if p not in ("baseline", SAME_PROCESS)]
        head = "| input set | schemas | KB/schema in → walked | json round-trip | **toolcast** |" + "".join(
            f" {PEER_SHORT.get(p, p)} |" for p in peer_names) + " toolcast ÷ round-trip, collector paused in both |"
        lines += [head, "|" + "---|" * (6 + len(peer_names))]
        for name, v in speed.items():
            kb = f"{v['bytes_per_schema'] / 1000:.1f} → {v.get('walked_bytes_per_schema', 0) / 1000:.1f}"
            row = (f"| {name} | {v['count']} | {kb} | {_fmt_us(v['us']['baseline'])} |"
                   f" **{_fmt_us(v['us']['toolcast'])} ({v['ratio']:.2f}×)** |")
            p = peers["sets"].get(name) if peers else None
            for peer in peer_names:
                if not p:
                    row += " – |"
                    continue
                us, bl = p["us"][peer], p["us"]["baseline"]
                raised = sum(p["raised"].get(peer, {}).values())
                row += f" {_fmt_us(us)} ({us / bl:.2f}×){f' ⚠{raised}' if raised else ''} |"
            paused = v.get("ratio_baseline_paused")
            lines.append(row + (f" {paused:.2f}× |" if paused else " – |"))
        lines.append("")
        lines += [
            "By outcome: the same timing over the tools toolcast sends strict, sends non-strict, and refuses",
            "(count, then µs per schema and the ratio to the baseline over those tools). A tool sent non-strict",
            "is walked in full for its findings, then its schema is copied as it was.",
            "",
            "| input set | strict | non-strict | refused |",
            "|---|---|---|---|",
        ]
        for name, v in speed.items():
            cells = []
            for st in ("strict", "non-strict", "refused"):
                g = v.get("by_outcome", {}).get(st)
                cells.append(f"{g['count']}: {_fmt_us(g['us']['toolcast'])} ({g['ratio']:.2f}×)" if g else "–")
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        lines.append("")
        if peers:
            lines += [
                "⚠N: the peer raised on N schemas of the set (time to raise included; those schemas were not",
                "converted). toolcast never raises on a tool: it reports and decides strict, non-strict or refused.",
                "Peer versions: " + ", ".join(f"{k} {v}" for k, v in peers["versions"].items()) + ".",
                "",
            ]
            lines += _beside_the_peers(peers, peer_names)
        lines += ["toolcast outcomes per set: " + "; ".join(
            f"{k}: " + ", ".join(f"{n} {s}" for s, n in sorted(v["statuses"].items())) for k, v in speed.items()), ""]
    st = res.get("startup")
    if st:
        lines += ["## Start-up and import", "", "| command | median wall time (ms) |", "|---|---|"]
        lines += [f"| `{k}` | {v:.1f} |" for k, v in st["ms"].items()]
        lines += [f"| budget: {STARTUP_FACTOR} × `python -c pass` + {STARTUP_EXTRA_MS:.0f} ms | {st['budget_ms']:.1f} |", ""]
        lines += ["| `python -X importtime -c ...` | cumulative (ms) | modules | heavy modules imported |", "|---|---|---|---|"]
        lines += [f"| `{k}` | {v['cumulative_ms']:.1f} | {v['modules']} | {', '.join(v['forbidden']) or 'none'} |"
                  for k, v in st["imports"].items()]
        lines.append("")
    mem = res.get("memory")
    if mem:
        lines += [
            "## Memory", "",
            f"`compile_tools` over {mem['tools']:,} tools (bfcl + mcp, cycled, names made unique), traced with",
            "`tracemalloc` in a fresh process:", "",
            "| parsed JSON | compile peak (above the input) | ratio | retained results |", "|---|---|---|---|",
            f"| {mem['parsed_bytes'] / 1e6:.1f} MB | {mem['peak_bytes'] / 1e6:.1f} MB | {mem['ratio']:.2f}× |"
            f" {mem['retained_bytes'] / 1e6:.1f} MB |", "",
        ]
    lin = res.get("linearity")
    if lin:
        lines += ["## Linearity", "",
                  "Compile time against schema size (JSON bytes), each point the fastest of 9 samples, taken",
                  "round by round over every point of the curve. The growth exponent is the log-log slope over",
                  "the upper half of each curve: 1.0 is linear, 2.0 quadratic. The largest points are the most",
                  "exposed to other load on the machine (their working set is the largest), so an exponent",
                  "moves by about 0.1 between runs. The last column is the json round trip's exponent over the",
                  "same points, timed in the same rounds: linear work, so what it reads above 1.0 is the",
                  "machine's (a larger working set falls out of the faster caches). Depth grows a little faster than",
                  "size because each finding's path (`tokens`) and each null path is as long as the nesting",
                  "is deep; nesting is capped (the walk refuses past its structural guard; OpenAI allows 10).", "",
                  "| curve | sizes (n) | KB at largest | µs at largest | µs/KB smallest → largest | exponent |"
                  " round trip's exponent |",
                  "|---|---|---|---|---|---|---|"]
        for label, v in lin.items():
            pts = v["points"]
            a, b = v["us_per_kb_first_last"]
            base = v.get("baseline_exponent")
            lines.append(f"| {label} | {pts[0]['n']}…{pts[-1]['n']} | {pts[-1]['bytes'] / 1000:,.0f} |"
                         f" {_fmt_us(pts[-1]['toolcast_us'])} | {a:.1f} → {b:.1f} | {v['exponent']:.2f} |"
                         f" {'–' if base is None else f'{base:.2f}'} |")
        lines.append("")
    lines += ["## Targets (issue 6)", "", "| target | measured | holds |", "|---|---|---|"]
    lines += [f"| {t} | {m_} | {'yes' if ok else '**no**'} |" for t, m_, ok in targets(res)]
    lines += ["", "![benchmarks](benchmarks.png)", ""]
    return "\n".join(lines)


def plot(res: dict) -> None:
    try:
        import matplotlib  # noqa: F401

        py = sys.executable
    except ImportError:
        if not PEERS_PY.exists():
            log("plot: matplotlib not importable here and no peers venv; skipped")
            return
        py = str(PEERS_PY)
    subprocess.run([py, str(HERE / "plot.py"), str(RESULTS), str(PNG)], check=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="sampled inputs, fewer runs (a smoke test, ~1 min)")
    ap.add_argument("--peers", action="store_true", help="also time the peers (needs benchmarks/setup_peers.sh)")
    ap.add_argument("--runs", type=int, default=None, help="timed passes per set (median reported; default 7, quick 3)")
    ap.add_argument("--only", default="speed,startup,memory,linearity")
    ap.add_argument("--cpu", action="store_true", help="time compiles with process CPU time (robust on a busy machine)")
    ap.add_argument("--no-write", action="store_true", help="print only; leave docs/ and results.json alone")
    ap.add_argument("--render", action="store_true", help="rewrite docs/ from benchmarks/results.json, measure nothing")
    ap.add_argument("--memory-child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.memory_child:
        memory_child(args.memory_child)
        return 0
    if args.render:
        res = json.loads(RESULTS.read_text())
        DOC.write_text(render_markdown(res))
        plot(res)
        return 0 if all(ok for _, _, ok in targets(res)) else 1
    common.require_corpus()
    runs = args.runs or (3 if args.quick else 7)
    if args.cpu:
        common.use_cpu_clock()
    only = set(args.only.split(","))
    command = "python benchmarks/run.py" + (" --quick" if args.quick else "") + (" --peers" if args.peers else "") + (
        " --cpu" if args.cpu else "") + (
        f" --runs {args.runs}" if args.runs else "") + (f" --only {args.only}" if args.only != ap.get_default("only") else "")
    res: dict = {"meta": {
        "command": command,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"Python {platform.python_version()}, {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "runs": runs,
        "clock": common.CLOCK["name"],
        "build": _build(),
    }}
    if "speed" in only:
        res["speed"] = bench_speed(args.quick, runs)
        if args.peers:
            res["peers"] = bench_peers(args.quick, runs)
    if "startup" in only:
        res["startup"] = bench_startup(args.quick)
    if "memory" in only:
        res["memory"] = bench_memory()
    if "linearity" in only:
        res["linearity"] = bench_linearity(args.quick)
    md = render_markdown(res)
    print(md)
    if not args.no_write:
        RESULTS.write_text(json.dumps(res, indent=1))
        DOC.write_text(md)
        plot(res)
    return 0 if all(ok for _, _, ok in targets(res)) else 1


if __name__ == "__main__":
    raise SystemExit(main())
