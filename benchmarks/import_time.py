"""`import toolcast` now against a git revision (default HEAD), in the same run: interleaved fresh processes.

    .venv/bin/python benchmarks/import_time.py               # the work tree's src/ against HEAD's
    .venv/bin/python benchmarks/import_time.py --rev main~3 --runs 40

Each run is a fresh `python -X importtime -c "import toolcast"` with PYTHONPATH at one of the two
src/ trees (the revision's is extracted with `git archive` into a temporary directory; nothing in
the repository changes), the two taken in turn so a slow spell of the machine hits both. Reported:
the median cumulative import time of `toolcast` (importtime's own figure, µs) and the median wall
time of the process, for each, and their ratio (now ÷ revision). Also checked: which tool libraries
the import loaded (none of pydantic, langchain_core, pydantic_ai, fastmcp, google, mcp, openai,
anthropic may be). Exits 1 when the import got slower than --max-ratio or loaded one of them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARIES = ("pydantic", "pydantic_core", "langchain_core", "pydantic_ai", "fastmcp", "google", "mcp", "mcp_types",
             "openai", "anthropic")
PROBE = ("import sys, toolcast; "
         f"print(','.join(sorted({{m.split('.')[0] for m in sys.modules}} & set({LIBRARIES!r}))))")


def _extract(rev: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "src"],
                             capture_output=True, check=True).stdout
    tar = into / "src.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    return into / "src"


def _once(src: Path) -> tuple[float, float]:
    """(cumulative µs of `toolcast` by -X importtime, wall seconds) of one fresh import."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import toolcast"], env=env,
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    for line in done.stderr.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[2] == "toolcast":
            return float(parts[1]), wall
    raise RuntimeError("no toolcast line in -X importtime's output")


def _loaded(src: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True,
                          check=True).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD", help="the git revision to compare with (default HEAD)")
    parser.add_argument("--runs", type=int, default=30, help="fresh processes per side (default 30)")
    parser.add_argument("--max-ratio", type=float, default=1.10, help="fail above this ratio (default 1.10)")
    args = parser.parse_args(argv)
    now_src = ROOT / "src"
    with tempfile.TemporaryDirectory() as tmp:
        old_src = _extract(args.rev, Path(tmp))
        for src in (old_src, now_src):  # (one unmeasured import each: .pyc files written)
            _once(src)
        samples: dict[str, list[tuple[float, float]]] = {"rev": [], "now": []}
        for _ in range(args.runs):
            samples["rev"].append(_once(old_src))
            samples["now"].append(_once(now_src))
        loaded = _loaded(now_src)
    med = {side: (statistics.median(s[0] for s in runs), statistics.median(s[1] for s in runs))
           for side, runs in samples.items()}
    ratio_cum = med["now"][0] / med["rev"][0]
    ratio_wall = med["now"][1] / med["rev"][1]
    print(f"import toolcast, median of {args.runs} fresh processes each, interleaved ({sys.executable})")
    print(f"  {args.rev:>10}: {med['rev'][0] / 1000:7.2f} ms cumulative (importtime), {med['rev'][1] * 1000:7.1f} ms wall")
    print(f"  {'work tree':>10}: {med['now'][0] / 1000:7.2f} ms cumulative (importtime), {med['now'][1] * 1000:7.1f} ms wall")
    print(f"  ratio (work tree / {args.rev}): {ratio_cum:.3f} cumulative, {ratio_wall:.3f} wall")
    print(f"  tool libraries loaded by import toolcast: {loaded or 'none'}")
    return 0 if ratio_cum <= args.max_ratio and not loaded else 1


if __name__ == "__main__":
    sys.exit(main())
