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


def shows(quiet: bool, known: set | None) -> Any:
    """The findings a report lists: with --quiet only what blocks or is lossy; with a baseline
    only findings it does not hold."""
    from toolcast.baseline import key

    def keep(r: CompileResult, d: Any) -> bool:
        if quiet and d.outcome not in ("refuses", "lossy"):
            return False
        return known is None or key(r, d) not in known

    return keep


def place_text(source: str, r: CompileResult, where: Any, d: Any) -> str:
    """`file:line:col` of a finding, or the MCP server and tool it came from ('' if neither)."""
    if where is not None:
        line, col = where.locate(d.base, d.tokens)
        return f"{where.file}:{line}:{col}"
    if source.startswith("mcp:"):
        from toolcast.sarif import mcp_origin

        return f"mcp:{mcp_origin(source)} tool {r.name or '(unnamed)'}"
    return ""


def render_text(
    stream: IO[str],
    results: Sequence[tuple[str, CompileResult]],
    errors: Sequence[InputError],
    *,
    command: str,
    min_severity: str = "info",
    written: Sequence[str] | None = None,
    out_dir: str | None = None,
    places: Sequence[Any] | None = None,
    quiet: bool = False,
    summary: bool = False,
    known: set | None = None,
) -> None:
    from toolcast.baseline import key

    t = Text(stream)
    floor = SEVERITY_RANK[min_severity]
    keep = shows(quiet, known)
    hidden = 0
    for i, (source, r) in enumerate(results):
        where = places[i] if places is not None else None
        shown = [d for d in r.diagnostics if SEVERITY_RANK[d.severity] >= floor and keep(r, d)]
        if known is not None:
            hidden += sum(1 for d in r.diagnostics if key(r, d) in known)
        if quiet and not shown:
            continue
        status = r.status if command == "compile" else _check_verdict(r)
        head = f"{STATUS_MARK.get(r.status, '?')} {r.name or '(unnamed)'}"
        if summary:
            t.line(f"{t.c(STATUS_COLOUR.get(r.status, '0'), head)}  {r.status}  {_counts(r)}  {t.c('2', source)}")
            continue
        t.line(f"{t.c(STATUS_COLOUR.get(r.status, '0'), head)}  {status}  ({r.rules}, {r.api})  {t.c('2', source)}")
        for d in shown:
            handled = HANDLED.get(d.outcome, d.outcome)
            sev = t.c(SEVERITY_COLOUR.get(d.severity, "0"), f"{d.severity:<7}")
            at = place_text(source, r, where, d) if places is not None else ""
            t.line(f"    {sev} {handled:<6} {at + '  ' if at else ''}{d.path}  {d.message}  {t.c('2', '[' + d.code + ']')}")
        lossy = [x for x in r.transformations if x.lossy]
        if lossy and r.status == "strict":
            t.line(f"    {t.c('31', 'lossy changes accepted')}: " + ", ".join(f"{x.code} at {x.path}" for x in lossy))
        if r.null_paths and not quiet:
            t.line("    null paths: " + "; ".join(null_path_text(p) for p in r.null_paths))
    for e in errors:
        t.line(t.c("31", "error: ") + str(e))
    line = summary_line(results, errors, written=written, out_dir=out_dir)
    if known is not None:
        line += f"; {hidden} finding(s) in the baseline not shown"
    t.line(line)


def summary_line(results: Sequence[tuple[str, CompileResult]], errors: Sequence[InputError], *,
                 written: Sequence[str] | None = None, out_dir: str | None = None) -> str:
    counts = {s: sum(1 for _, r in results if r.status == s) for s in ("strict", "non-strict", "refused")}
    summary = f"{len(results)} tool(s): {counts['strict']} strict, {counts['non-strict']} non-strict, {counts['refused']} refused"
    if errors:
        summary += f"; {len(errors)} input error(s)"
    if written is not None:
        summary += f"; wrote {len(written)} file(s) and manifest.json to {out_dir}"
    return summary


def _counts(r: CompileResult) -> str:
    n = {s: sum(1 for d in r.diagnostics if d.severity == s) for s in ("error", "warning", "info")}
    blocks = sum(1 for d in r.diagnostics if d.outcome == "refuses")
    lossy = sum(1 for d in r.diagnostics if d.outcome == "lossy")
    return f"{n['error']} error(s), {n['warning']} warning(s), {n['info']} note(s); {blocks} block(s), {lossy} lossy"


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
    places: Sequence[Any] | None = None,
    known: set | None = None,
) -> dict:
    items = []
    for i, (source, r) in enumerate(results):
        d = r.to_dict()
        d["source"] = source
        if command == "check":
            d.pop("tool")
        if places is not None or known is not None:
            _annotate(d["diagnostics"], r, places[i] if places is not None else None, places is not None, known)
        items.append(d)
    counts = {s: sum(1 for _, r in results if r.status == s) for s in ("strict", "non-strict", "refused")}
    return {
        "command": command,
        **meta,
        "summary": {"tools": len(results), **counts, "input_errors": len(errors)},
        "results": items,
        "errors": [e.to_dict() for e in errors],
    }


def _annotate(out: list[dict], r: CompileResult, where: Any, positions: bool, known: set | None) -> None:
    """Add each finding's line and column (null when it has no file) and, with a baseline,
    whether the baseline holds it ("unchanged") or not ("new")."""
    from toolcast.baseline import key

    for entry, diag in zip(out, r.diagnostics, strict=True):
        if positions:
            line, col = where.locate(diag.base, diag.tokens) if where is not None else (None, None)
            entry["line"], entry["column"] = line, col
        if known is not None:
            entry["baseline"] = "unchanged" if key(r, diag) in known else "new"
