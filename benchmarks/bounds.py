"""The time and memory bounds the tests used to assert on a wall clock (issue 43, item 8).

A test that asserts "under N seconds" fails a correct build on a loaded machine (the suite failed
`test_50mb_file_is_handled_in_bounded_time_and_memory` on a busy two-core machine, where it took
more than its 240 s; alone it takes about 97 s). The tests now check the results only (with
generous timeouts so nothing hangs); this script measures what they bounded and compares each
with the bound the test had, so a regression shows as a number on a quiet machine:

    python benchmarks/bounds.py              # every case
    python benchmarks/bounds.py --only 50mb  # one (50mb, enum, nesting, alias-bomb, impact)

Each CLI case runs `python -m toolcast.cli.main` in a subprocess under a 1.5 GiB address-space limit, as
tests/test_hostile.py runs it; the wall time and the child's peak RSS are printed.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
MEM_LIMIT = 1536 * 1024 * 1024


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT, MEM_LIMIT))


def tool_json(schema: dict) -> str:
    return json.dumps({"name": "t", "description": "d", "inputSchema": schema})


def cli(*args: str, timeout: float = 600) -> tuple[float, int, int]:
    """(wall seconds, exit status, peak RSS of the child in MiB)."""
    start = time.monotonic()
    p = subprocess.run([PY, "-m", "toolcast.cli.main", *args], capture_output=True, timeout=timeout, preexec_fn=_limits)
    wall = time.monotonic() - start
    if b"Traceback" in p.stderr:
        raise SystemExit(p.stderr.decode(errors="replace")[-2000:])
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    return wall, p.returncode, rss


def case_50mb(tmp: Path) -> tuple[float, str]:
    f = tmp / "big.jsonl"
    line = tool_json({"type": "object", "properties": {"q": {"type": "string", "description": "x" * 1000}}}) + "\n"
    with f.open("w") as fh:
        fh.write(line * (50 * 1024 * 1024 // len(line) + 1))
    wall, code, rss = cli("check", str(f), "--fail-on", "never")
    return wall, f"exit {code}, peak RSS of the runs so far {rss} MiB (limit {MEM_LIMIT >> 20})"


def case_enum(tmp: Path) -> tuple[float, str]:
    import toolcast

    start = time.monotonic()
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"a": {"type": "integer", "enum": list(range(1_000_000))}}, "required": ["a"]}})
    return time.monotonic() - start, f"in process, {res.status}"


def case_nesting(tmp: Path) -> tuple[float, str]:
    n = 100_000
    f = tmp / "deep.json"
    f.write_text('{"name":"t","description":"d","inputSchema":' + '{"type":"object","properties":{"a":' * n
                 + '{"type":"string"}' + "}}" * n + "}")
    wall, code, _ = cli("compile", str(f), "--format", "json")
    return wall, f"exit {code}"


def case_alias_bomb(tmp: Path) -> tuple[float, str]:
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    lines.append("name: t\ninputSchema: {type: object, properties: {b: {enum: *a9}}}")
    f = tmp / "bomb.yaml"
    f.write_text("\n".join(lines) + "\n")
    wall, code, _ = cli("compile", str(f))
    return wall, f"exit {code}"


def case_impact(tmp: Path) -> tuple[float, str]:
    paths = sorted(str(p) for p in (ROOT / "tests" / "corpus").glob("*.jsonl"))
    wall, code, _ = cli("rules", "diff", "2024-08-06", "latest", "--impact", *paths, "--format", "json")
    return wall, f"exit {code}, {len(paths)} corpus files"


# name: (function, the bound the test asserted in seconds, what it was)
CASES = {
    "50mb": (case_50mb, 240, "tests/test_hostile.py: a 50 MB JSON Lines file, check"),
    "enum": (case_enum, 20, "tests/test_hostile.py: a million-value enum, compile_tool"),
    "nesting": (case_nesting, 30, "tests/test_hostile.py: 100,000 levels of nesting, compile --format json"),
    "alias-bomb": (case_alias_bomb, 20, "tests/test_hostile.py: a YAML alias bomb, compile"),
    "impact": (case_impact, 15, "tests/test_rules_cli.py: rules diff --impact over the corpus"),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=list(CASES), action="append", help="run only this case (repeatable)")
    args = ap.parse_args(argv)
    import toolcast

    print(f"# {toolcast.build_info()}")
    over = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or list(CASES):
            fn, bound, what = CASES[name]
            wall, note = fn(Path(tmp))
            flag = "" if wall < bound else "  OVER the old bound"
            over += wall >= bound
            print(f"{name:<11} {wall:7.1f} s (old test bound {bound} s){flag}  {what}; {note}", flush=True)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
