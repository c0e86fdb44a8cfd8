"""What a report costs beside the compile it reports on, for one wide tool (issue 43, item 7).

For a tool of N optional string properties (each one a fix and a note: 2N findings), this times,
in CPU seconds of this process (best of --repeat; CPU time, not wall time, so a busy machine
changes the figures less):

- compile: `compile_tool` of the parsed tool, its findings made (what every report starts from);
- each of `toolcast compile FILE --format text|json|sarif|github` run in this process, output to
  memory: reading the file (with the places of its keys), the compile, and the report.

A report linear in the schema keeps run/compile about constant as N grows; before issue 43 JSON
and SARIF grew with N (json's pure-Python indented encoder, `_jsonout.batched` in a profile).

    python benchmarks/report_scale.py                 # N = 10,000, 40,000 and 100,000
    python benchmarks/report_scale.py --sizes 100000 --repeat 1
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import time
from pathlib import Path

FORMATS = ("text", "json", "sarif", "github")


def wide_tool(n: int) -> dict:
    props = {f"p{i}": {"type": "string"} for i in range(n)}
    return {"name": "wide", "description": "A tool with many optional parameters.",
            "parameters": {"type": "object", "properties": props}}


def cpu(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def measure(n: int, repeat: int, formats: tuple[str, ...]) -> dict:
    from toolcast import compile_tool
    from toolcast.cli.main import main

    tool = wide_tool(n)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "wide.json"
        path.write_text(json.dumps(tool), encoding="utf-8")

        def compile_only() -> None:
            r = compile_tool(tool)
            assert len(r.diagnostics) > 2 * n

        row = {"n": n, "compile": cpu(compile_only, repeat)}
        for fmt in formats:
            def run(fmt: str = fmt) -> None:
                out = io.StringIO()
                main(["compile", str(path), "--format", fmt], stdout=out, stderr=io.StringIO())
                assert out.tell() > n

            row[fmt] = cpu(run, repeat)
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,40000,100000", help="comma-separated N (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many runs (default: %(default)s)")
    ap.add_argument("--formats", default=",".join(FORMATS), help="default: %(default)s")
    args = ap.parse_args(argv)
    formats = tuple(f for f in args.formats.split(",") if f)
    import toolcast

    print(f"# {toolcast.build_info()}; CPU seconds, best of {args.repeat}")
    print(f"{'N':>8} {'compile':>8} " + " ".join(f"{f:>16}" for f in formats))
    for n in (int(x) for x in args.sizes.split(",")):
        row = measure(n, args.repeat, formats)
        cells = " ".join(f"{row[f]:7.2f} ({row[f] / row['compile']:4.1f}x)" for f in formats)
        print(f"{n:>8} {row['compile']:8.2f} {cells}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
