"""Render results for people (text, colour only on a TTY) and for machines (one JSON document)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import IO, Any

from toolcast.loader import InputError
from toolcast.model import ITEMS, CompileResult

HANDLED = {"fixes": "fixed", "lossy": "lossy", "refuses": "blocks", "reports": "note"}
STATUS_MARK = {"strict": "✓", "non-strict": "~", "refused": "✗"}
STATUS_COLOUR = {"strict": "32", "non-strict": "33", "refused": "31"}
SEVERITY_COLOUR = {"error": "31", "warning": "33", "info": "36"}
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


def use_colour(stream: IO[str]) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def null_path_text(path: tuple) -> str:
    out = ""
    for step in path:
        out += "[*]" if step is ITEMS else (("." if out else "") + step)
    return out or "(root)"


class Text:
    def __init__(self, stream: IO[str]):
        self.stream = stream
        self.colour = use_colour(stream)

    def c(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour else text

    def line(self, text: str = "") -> None:
        self.stream.write(text + "\n")


def render_text(
    stream: IO[str],
    results: Sequence[tuple[str, CompileResult]],
    errors: Sequence[InputError],
    *,
    command: str,
    min_severity: str = "info",
    written: Sequence[str] | None = None,
    out_dir: str | None = None,
) -> None:
    t = Text(stream)
    floor = SEVERITY_RANK[min_severity]
    for source, r in results:
        status = r.status if command == "compile" else _check_verdict(r)
        head = f"{STATUS_MARK.get(r.status, '?')} {r.name or '(unnamed)'}"
        t.line(f"{t.c(STATUS_COLOUR.get(r.status, '0'), head)}  {status}  ({r.rules}, {r.api})  {t.c('2', source)}")
        shown = [d for d in r.diagnostics if SEVERITY_RANK[d.severity] >= floor]
        for d in shown:
            # A fix that is not in what was sent (a non-strict tool's original schema, a refused tool).
            handled = HANDLED.get(d.outcome, d.outcome) if d.applied else "not applied"
            sev = t.c(SEVERITY_COLOUR.get(d.severity, "0"), f"{d.severity:<7}")
            t.line(f"    {sev} {handled:<6} {d.path}  {d.message}  {t.c('2', '[' + d.code + ']')}")
        lossy = [x for x in r.transformations if x.lossy]
        if lossy and r.status == "strict":
            t.line(f"    {t.c('31', 'lossy changes accepted')}: " + ", ".join(f"{x.code} at {x.path}" for x in lossy))
        if r.null_paths:
            t.line("    null paths: " + "; ".join(null_path_text(p) for p in r.null_paths))
    for e in errors:
        t.line(t.c("31", "error: ") + str(e))
    counts = {s: sum(1 for _, r in results if r.status == s) for s in ("strict", "non-strict", "refused")}
    summary = f"{len(results)} tool(s): {counts['strict']} strict, {counts['non-strict']} non-strict, {counts['refused']} refused"
    if errors:
        summary += f"; {len(errors)} input error(s)"
    if written is not None:
        summary += f"; wrote {len(written)} file(s) and manifest.json to {out_dir}"
    t.line(summary)


def _check_verdict(r: CompileResult) -> str:
    worst = max((SEVERITY_RANK[d.severity] for d in r.diagnostics), default=-1)
    n = len(r.diagnostics)
    label = {2: "errors", 1: "warnings", 0: "notes"}.get(worst, "clean")
    return f"{label} ({n} finding{'s' if n != 1 else ''}); compiles {r.status}" if n else f"clean; compiles {r.status}"


def document(
    results: Sequence[tuple[str, CompileResult]],
    errors: Sequence[InputError],
    *,
    command: str,
    meta: dict[str, Any],
) -> dict:
    items = []
    for source, r in results:
        d = r.to_dict()
        d["source"] = source
        if command == "check":
            d.pop("tool")
        items.append(d)
    counts = {s: sum(1 for _, r in results if r.status == s) for s in ("strict", "non-strict", "refused")}
    return {
        "command": command,
        **meta,
        "summary": {"tools": len(results), **counts, "input_errors": len(errors)},
        "results": items,
        "errors": [e.to_dict() for e in errors],
    }
