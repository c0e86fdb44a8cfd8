"""Peak memory of the `toolcast` command on a large tools file, per output mode, against the file's size.

Usage: python benchmarks/memory.py [--mb 50] [--shapes many,one] [--modes json,check-json,text,out] [--keep DIR]

Builds tools files of about --mb megabytes, in two shapes: "many" (the bfcl and mcp corpora
cycled, names made unique) and "one" (a single tool with that many bytes of properties). Runs
`toolcast compile`/`check` on each in a fresh process per mode with stdout sent to /dev/null,
and reads each child's peak resident set size from `os.wait4` (the kernel's ru_maxrss, so
every allocation counts, C included). The constant is a child that only imports toolcast's
CLI. Prints one JSON document; exit 1 when a run exceeds 8 x its file plus the constant
(issue 22, item 5).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common

TARGET_RATIO = 8
MODES = {
    "json": ["compile", "{file}", "--format", "json"],
    "check-json": ["check", "{file}", "--format", "json"],
    "text": ["compile", "{file}"],
    "out": ["compile", "{file}", "--format", "json", "--out", "{out}"],
}


def build_one_tool(path: Path, megabytes: float) -> int:
    """Write a single tool whose schema has about `megabytes` MB of properties; returns the size."""
    prop = {"type": "string", "description": "A property of a very large tool. " * 3}
    n = int(megabytes * 1_000_000) // (len(json.dumps(prop)) + 12)
    props = {f"p{i}": prop for i in range(n)}
    tool = {"name": "big", "description": "One very large tool.", "inputSchema": {"type": "object", "properties": props}}
    path.write_text(json.dumps(tool), encoding="utf-8")
    return path.stat().st_size


def build_tools_file(path: Path, megabytes: float) -> int:
    """Write a `{"tools": [...]}` file of at least `megabytes` MB; returns its size in bytes."""
    common.require_corpus()
    recs = common.load_set("bfcl") + common.load_set("mcp")
    budget = int(megabytes * 1_000_000)
    size = 0
    with path.open("w", encoding="utf-8") as fh:
        fh.write('{"tools": [')
        i = 0
        while size < budget:
            r = recs[i % len(recs)]
            name = re.sub(r"[^A-Za-z0-9_-]", "_", r["name"])[:48] + f"_{i}"
            text = json.dumps({"name": name, "description": r["description"], "inputSchema": r["inputSchema"]})
            fh.write(("," if i else "") + text)
            size += len(text) + 1
            i += 1
        fh.write("]}\n")
    return path.stat().st_size


def peak_rss(argv: list[str]) -> tuple[int, int]:
    """Run argv with its output to /dev/null; returns (exit status, peak RSS in bytes)."""
    with open(os.devnull, "wb") as sink:
        proc = subprocess.Popen(argv, stdout=sink, stderr=sink)
        # wait4 gives this child's own rusage (RUSAGE_CHILDREN would keep the maximum of all).
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return proc.returncode, usage.ru_maxrss * scale


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=50.0, help="size of the tools file in MB (default 50)")
    ap.add_argument("--shapes", default="many,one", help="comma-separated: many (tools), one (a single big tool)")
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated: " + ", ".join(MODES))
    ap.add_argument("--keep", metavar="DIR", help="build the file in DIR and keep it (default: a temporary directory)")
    args = ap.parse_args(argv)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="toolcast-memory-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        py = [sys.executable, "-m", "toolcast.cli.main"]
        _, constant = peak_rss([sys.executable, "-c", "import toolcast.cli.main, toolcast.render, toolcast.outdir"])
        report: dict = {"constant_bytes": constant, "target": f"peak <= {TARGET_RATIO} x file + constant", "shapes": {}}
        failed = False
        for shape in args.shapes.split(","):
            tools = work / f"{shape}.json"
            size = (build_one_tool if shape == "one" else build_tools_file)(tools, args.mb)
            runs: dict = {}
            report["shapes"][shape] = {"file_bytes": size, "modes": runs}
            for mode in args.modes.split(","):
                out = work / "out"
                shutil.rmtree(out, ignore_errors=True)
                code, peak = peak_rss(py + [a.format(file=tools, out=out) for a in MODES[mode]])
                ratio = (peak - constant) / size
                failed |= ratio > TARGET_RATIO
                runs[mode] = {"command": "toolcast " + " ".join(MODES[mode]), "exit": code,
                              "peak_bytes": peak, "ratio_to_file": round(ratio, 2)}
                print(f"{shape:<4} {mode:<11} peak {peak / 1e6:8.1f} MB  ({ratio:5.2f} x the file above the constant)"
                      f"  exit {code}", file=sys.stderr)
        print(json.dumps(report, indent=2))
        return 1 if failed else 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
