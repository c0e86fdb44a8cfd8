"""What one pass over an input set costs the machine, counted, not timed: instructions, simulated
L1 instruction and data cache misses and mispredicted branches per pass (valgrind's cachegrind),
for toolcast's compile_tool, the json round trip and each peer.

Wall and CPU times on a shared machine move by as much as the gaps between toolcast and a peer
(see README.md); these counts are the same on every run of the same code, inputs and hash seed,
whatever else the machine is doing. Each subject runs in a fresh process twice, over 1 and over 3
passes after a warm-up pass, and the difference is divided by 2: start-up, imports and loading the
set drop out. The counts are a model (cachegrind simulates one cache level per kind and a simple
branch predictor), good for comparing subjects and builds, not a measured cycle count.

Usage: python benchmarks/cachesim.py [--set "large x10"] [SUBJECT ...]
  SUBJECT: toolcast (this Python's build), baseline, openai, agents, pydantic-ai, langchain
  (the peers run with benchmarks/.peers-venv/bin/python; `bash benchmarks/setup_peers.sh` first)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEERS_PY = HERE / ".peers-venv" / "bin" / "python"
PEERS = {"openai": "openai (deepcopy", "agents": "openai-agents", "pydantic-ai": "pydantic-ai", "langchain": "langchain-core"}
# cachegrind's summary lines, by what this script calls them
COUNTS = {"instructions": "I   refs", "I1 misses": "I1  misses", "D1 misses": "D1  misses", "mispredicts": "Mispredicts"}

# The child: warm up on every tool, then N passes of the subject over the set.
CHILD = """
import sys
sys.path.insert(0, {here!r})
import common
subject, name, passes = sys.argv[1], sys.argv[2], int(sys.argv[3])
tools = common.load_set(name)
if subject == "toolcast":
    from toolcast import compile_tool as fn
elif subject == "baseline":
    fn = common.baseline
else:
    import peers
    fn = peers.guarded(next(f for k, f in peers.adapters().items() if k.startswith({peers!r}[subject])), {{}}, subject)
for t in tools:
    fn(t)
for _ in range(passes):
    for t in tools:
        fn(t)
"""


def counts(python: str, subject: str, name: str, passes: int) -> dict[str, int]:
    """cachegrind's totals for a child that makes `passes` passes (after its warm-up pass)."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes", "--cachegrind-out-file=/dev/null",
           python, "-c", CHILD.format(here=str(HERE), peers=PEERS), subject, name, str(passes)]
    err = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True).stderr
    out = {}
    for key, label in COUNTS.items():
        m = re.search(rf"^==\d+== {re.escape(label)}:\s+([\d,]+)", err, re.MULTILINE)
        if m is None:
            raise SystemExit(f"cachesim: no '{label}' in cachegrind's summary for {subject}:\n{err[-2000:]}")
        out[key] = int(m.group(1).replace(",", ""))
    return out


def per_pass(python: str, subject: str, name: str) -> dict[str, float]:
    one, three = counts(python, subject, name, 1), counts(python, subject, name, 3)
    return {k: (three[k] - one[k]) / 2 for k in COUNTS}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="large x10", help="an input set of common.SETS (default: large x10)")
    ap.add_argument("subjects", nargs="*", default=["toolcast", "baseline"])
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("cachesim: valgrind is not installed (Debian: apt-get install valgrind)")
    unknown = [s for s in args.subjects if s not in ("toolcast", "baseline", *PEERS)]
    if unknown:
        raise SystemExit(f"cachesim: unknown subject(s) {', '.join(unknown)}")
    if any(s in PEERS for s in args.subjects) and not PEERS_PY.exists():
        raise SystemExit(f"cachesim: {PEERS_PY} missing; run `bash benchmarks/setup_peers.sh` first")
    rows = {}
    for s in args.subjects:
        rows[s] = per_pass(str(PEERS_PY) if s in PEERS else sys.executable, s, args.set)
        print(f"cachesim: {s} done", file=sys.stderr, flush=True)
    base = rows.get("baseline")
    print(f"per pass over {args.set!r}, in millions" + (" (÷ the round trip's in brackets)" if base else ""))
    print("| subject | " + " | ".join(COUNTS) + " |")
    print("|---|" + "---|" * len(COUNTS))
    for s, row in rows.items():
        cells = [f"{row[k] / 1e6:.2f}" + (f" ({row[k] / base[k]:.2f}×)" if base and base[k] else "") for k in COUNTS]
        print(f"| {s} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
