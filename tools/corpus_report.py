"""Compile the vendored corpora (tests/corpus) under every rule version and write docs/corpus-report.md (deterministic).

Usage:
    python tools/corpus_report.py            write docs/corpus-report.md
    python tools/corpus_report.py --check    exit 1 (with a diff) when the committed report is stale
    python tools/corpus_report.py --corpus DIR --out FILE

What it reports, per corpus file and rule version: outcomes (strict / non-strict / refused),
crashes (exceptions out of compile_tool: must be zero), strict outputs the independent
oracle (tests/oracles/openai_strict.py) rejects (must be zero), the most frequent codes
(counted once per tool), and for the JSON-Schema-Test-Suite the groups used and left out
with their reasons. Nothing in it depends on time, machine or dict order.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

from oracles.openai_strict import tool_violations  # noqa: E402

import toolcast  # noqa: E402

# Every shipped rule version, newest first; the oracle checks each against the documented facts of
# its date (tests/oracles/facts.py: the newest reading on or before it).
RULES = tuple(f"openai@{v}" for v in sorted(__import__("toolcast.rules").rules.available("openai"), reverse=True))
PROFILE = {r: r.split("@")[1] for r in RULES}
DEFAULT_CORPUS = ROOT / "tests" / "corpus"  # vendored: see tests/corpus/SOURCES.md
DEFAULT_OUT = ROOT / "docs" / "corpus-report.md"
TOP = 10


def default_corpus() -> Path:
    """The corpus the report is made from: the copy vendored in tests/corpus."""
    return DEFAULT_CORPUS


def load_jsonl(path: Path) -> list[dict]:
    tools = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rec = json.loads(line)
            tools.append({"name": rec.get("name"), "description": rec.get("description"), "inputSchema": rec.get("inputSchema")})
    return tools


def load_large(path: Path) -> list[dict]:
    out = []
    for f in sorted(path.glob("*.json")):
        schema = json.loads(f.read_text(encoding="utf-8"))
        name = "".join(c if c.isalnum() or c in "_-" else "_" for c in f.stem)[:64]
        out.append({"name": name, "description": f"{f.name} as tool parameters", "parameters": schema})
    return out


def compile_all(tools: list[dict], rules: str, api: str = "responses") -> dict:
    """Outcome counts, per-code tool counts, crashes and oracle rejections for one rule version."""
    outcomes: Counter = Counter()
    codes: Counter = Counter()
    crashes: list[str] = []
    rejected: list[str] = []
    lossy_strict = 0
    for i, tool in enumerate(tools):
        try:
            res = toolcast.compile_tool(tool, rules=rules, api=api)
        except Exception as exc:
            crashes.append(f"#{i} {tool.get('name')!r}: {type(exc).__name__}: {exc}")
            outcomes["crash"] += 1
            continue
        outcomes[res.status] += 1
        for code in sorted({d.code for d in res.diagnostics}):
            codes[code] += 1
        if res.status == "strict":
            lossy_strict += res.lossy
            bad = tool_violations(res.tool, api, profile=PROFILE[rules])
            if bad:
                rejected.append(f"#{i} {tool.get('name')!r}: " + ", ".join(sorted({v.rule for v in bad})))
    return {"outcomes": outcomes, "codes": codes, "crashes": crashes, "rejected": rejected, "lossy_strict": lossy_strict, "n": len(tools)}


def jsts_summary(jsts: Path, rules: str) -> tuple[int, int, Counter, list[str]]:
    """(groups, used, reasons of the left-out, left-out group ids with reasons)."""
    reasons: Counter = Counter()
    left: list[str] = []
    n = used = 0
    for f in sorted(jsts.glob("*.json")):
        for i, g in enumerate(json.loads(f.read_text(encoding="utf-8"))):
            n += 1
            res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": g["schema"]}, rules=rules)
            reason = block_reason(res)
            if reason:
                reasons[reason] += 1
                left.append(f"{f.stem}[{i}] {g['description']!r}: {reason}")
            else:
                used += 1
    return n, used, reasons, left


def block_reason(result) -> str:
    """Why a suite group is left out: the first refusing code, else the first lossy change."""
    if result.status == "strict" and not result.lossy:
        return ""
    for d in result.diagnostics:
        if d.outcome == "refuses" and d.code not in ("openai/sent-non-strict", "openai/lossy-change-refused"):
            return d.code
    for t in result.transformations:
        if t.lossy:
            return t.code
    return result.status


def _table(rows: list[list], header: list[str]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out


def corpus_sets(corpus: Path) -> list[tuple[str, list[dict]]]:
    sets = [(f.name, load_jsonl(f)) for f in sorted(corpus.glob("*.jsonl"))]
    if (corpus / "large").is_dir():
        sets.append(("large/", load_large(corpus / "large")))
    return sets


def collect(corpus: Path) -> dict:
    """Every statistic the report shows: {(corpus name, rules): compile_all(...)}."""
    return {(name, rules): compile_all(tools, rules) for name, tools in corpus_sets(corpus) for rules in RULES}


def render(corpus: Path, stats: dict | None = None) -> str:
    lines = [
        "# Corpus report",
        "",
        "Generated by `python tools/corpus_report.py` -- do not edit; `--check` fails when stale.",
        f"toolcast {toolcast.__version__}; Responses API; `strict=auto`, `allow_lossy=false`. Codes are counted",
        "once per tool. *Oracle rejections* are strict outputs that the independent checker",
        "(`tests/oracles/openai_strict.py`) rejects; *crashes* are exceptions out of `compile_tool`. Both must be 0.",
        "",
    ]
    stats = stats if stats is not None else collect(corpus)
    summary_rows = []
    details: list[str] = []
    for name in dict.fromkeys(n for n, _ in stats):
        for rules in RULES:
            s = stats[(name, rules)]
            o = s["outcomes"]
            summary_rows.append([f"`{name}`", rules, s["n"], o["strict"], o["non-strict"], o["refused"], s["lossy_strict"], len(s["crashes"]), len(s["rejected"])])
            details.append(f"### `{name}` under {rules}")
            details.append("")
            top = sorted(s["codes"].items(), key=lambda kv: (-kv[1], kv[0]))[:TOP]
            details += _table([[f"`{c}`", n] for c, n in top], ["code", "tools"])
            for label, items in (("Crashes", s["crashes"]), ("Oracle rejections", s["rejected"])):
                if items:
                    details.append("")
                    details.append(f"{label}:")
                    details += [f"- {x}" for x in items[:50]]
            details.append("")
    lines.append("## Outcomes")
    lines.append("")
    lines += _table(summary_rows, ["corpus", "rules", "tools", "strict", "non-strict", "refused", "strict+lossy", "crashes", "oracle rejections"])
    lines.append("")
    lines.append(f"## Most frequent codes (top {TOP} per corpus and rule version)")
    lines.append("")
    lines += details
    jsts = corpus / "jsts"
    if jsts.is_dir():
        lines.append("## JSON-Schema-Test-Suite (draft 2020-12)")
        lines.append("")
        lines.append("A group is *used* by `tests/test_jsts.py` when its schema compiles strict and not lossy; the")
        lines.append("others are left out for the first code that blocked them, and the test asserts that they")
        lines.append("are sent non-strict with their original schema or refused. (Its validator is given the")
        lines.append("suite's remote documents; the instances it cannot judge are listed in the test's VALIDATOR_GAPS.)")
        lines.append("")
        for rules in RULES:
            n, used, reasons, left = jsts_summary(jsts, rules)
            lines.append(f"### {rules}: {used} of {n} groups used, {n - used} left out")
            lines.append("")
            lines += _table([[f"`{r}`", c] for r, c in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))], ["reason", "groups"])
            lines.append("")
            if rules == RULES[0]:  # the full list for the default version only (the others differ little)
                lines.append("<details><summary>Left-out groups</summary>")
                lines.append("")
                lines += [f"- {x}" for x in left]
                lines.append("")
                lines.append("</details>")
                lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="fail when the committed report differs")
    p.add_argument("--corpus", type=Path, default=None, help="the corpus folder (default: tests/corpus)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args(argv)
    corpus = args.corpus or default_corpus()
    if not corpus.is_dir():
        print(f"corpus_report: {corpus} is not a directory (it should hold bfcl.jsonl, mcp.jsonl, large/ and jsts/)",
              file=sys.stderr)
        return 2
    text = render(corpus)
    if args.check:
        old = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if old != text:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True), str(args.out), "regenerated"))
            print(f"\n{args.out} is stale: run python tools/corpus_report.py", file=sys.stderr)
            return 1
        return 0
    if not args.out.exists() or args.out.read_text(encoding="utf-8") != text:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
