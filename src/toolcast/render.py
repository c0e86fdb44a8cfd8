"""Render results for people (text, colour only on a TTY) and for machines (one JSON document)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from typing import IO, Any

from toolcast._jsonout import Lazy, batched, object_chunks
from toolcast.loader import InputError
from toolcast.model import ITEMS, CompileResult, null_path_to_json

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
    results: Iterable[tuple[str, CompileResult]],
    errors: Sequence[InputError],
    *,
    command: str,
    min_severity: str = "info",
    written: Sequence[str] | None = None,
    out_dir: str | None = None,
) -> None:
    text = TextStream(stream, command=command, min_severity=min_severity)
    for source, r in results:
        text.add(source, r)
    text.finish(errors, written=written, out_dir=out_dir)


class TextStream:
    """The text report, written result by result as they are compiled; the summary comes last."""

    def __init__(self, stream: IO[str], *, command: str, min_severity: str = "info") -> None:
        self.t = Text(stream)
        self.command = command
        self.floor = SEVERITY_RANK[min_severity]
        self.counts = {"strict": 0, "non-strict": 0, "refused": 0}
        self.total = 0

    def add(self, source: str, r: CompileResult) -> None:
        t = self.t
        status = r.status if self.command == "compile" else _check_verdict(r)
        head = f"{STATUS_MARK.get(r.status, '?')} {r.name or '(unnamed)'}"
        t.line(f"{t.c(STATUS_COLOUR.get(r.status, '0'), head)}  {status}  ({r.rules}, {r.api})  {t.c('2', source)}")
        shown = [d for d in r.diagnostics if SEVERITY_RANK[d.severity] >= self.floor]
        for d in shown:
            handled = HANDLED.get(d.outcome, d.outcome)
            sev = t.c(SEVERITY_COLOUR.get(d.severity, "0"), f"{d.severity:<7}")
            t.line(f"    {sev} {handled:<6} {d.path}  {d.message}  {t.c('2', '[' + d.code + ']')}")
        lossy = [x for x in r.transformations if x.lossy]
        if lossy and r.status == "strict":
            t.line(f"    {t.c('31', 'lossy changes accepted')}: " + ", ".join(f"{x.code} at {x.path}" for x in lossy))
        if r.null_paths:
            t.line("    null paths: " + "; ".join(null_path_text(p) for p in r.null_paths))
        self.total += 1
        if r.status in self.counts:
            self.counts[r.status] += 1

    def finish(self, errors: Sequence[InputError], *, written: Sequence[str] | None = None, out_dir: str | None = None) -> None:
        t, counts = self.t, self.counts
        for e in errors:
            t.line(t.c("31", "error: ") + str(e))
        summary = f"{self.total} tool(s): {counts['strict']} strict, {counts['non-strict']} non-strict, {counts['refused']} refused"
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


def result_pairs(r: CompileResult, source: str, *, with_tool: bool) -> list[tuple[str, Any]]:
    """`r.to_dict()` plus "source" (without "tool" for `check`), as pairs whose long lists are
    made one item at a time: a tool with 100,000 findings never has them all as dicts."""
    pairs: list[tuple[str, Any]] = [("name", r.name), ("status", r.status)]
    if with_tool:
        pairs.append(("tool", r.tool))
    pairs += [
        ("null_paths", Lazy(null_path_to_json(p) for p in r.null_paths)),
        ("diagnostics", Lazy(d.to_dict() for d in r.diagnostics)),
        ("transformations", Lazy(t.to_dict() for t in r.transformations)),
        ("source", source),
    ]
    return pairs


class JsonStream:
    """The `--format json` document of `document`, byte for byte, without holding every result.

    Each result is serialised as it is compiled into a spool (memory up to a few MB, then a
    temporary file) and dropped; `finish` writes the head, whose summary is known only then,
    and copies the spool out after it.
    """

    SPOOL_BYTES = 4 * 1024 * 1024

    def __init__(self, *, command: str, meta: dict[str, Any]) -> None:
        self.command = command
        self.meta = meta
        self.counts = {"strict": 0, "non-strict": 0, "refused": 0}
        self.total = 0
        import tempfile  # only the JSON document needs it: kept off the start-up path

        # Closed by finish(); a run that dies first leaves the OS to remove it.
        self.spool = tempfile.SpooledTemporaryFile(max_size=self.SPOOL_BYTES, mode="w+", encoding="utf-8", newline="\n")  # noqa: SIM115

    def add(self, source: str, r: CompileResult) -> None:
        # An item of the top-level "results" list sits two levels deep.
        self.spool.write(("," if self.total else "") + "\n    ")
        for piece in batched(object_chunks(result_pairs(r, source, with_tool=self.command != "check"), depth=2)):
            self.spool.write(piece)
        self.total += 1
        if r.status in self.counts:
            self.counts[r.status] += 1

    def finish(self, stream: IO[str], errors: Sequence[InputError], *, extra: dict[str, Any] | None = None) -> None:
        """Write the whole document to `stream`; `extra` keys follow "errors", as in the dict."""
        head = {"command": self.command, **self.meta,
                "summary": {"tools": self.total, **self.counts, "input_errors": len(errors)}}
        text = json.dumps(head, indent=2, ensure_ascii=False)
        stream.write(text[:-2] + ',\n  "results": ' + ("[" if self.total else "[]"))
        self.spool.seek(0)
        while chunk := self.spool.read(1 << 16):
            stream.write(chunk)
        self.spool.close()
        stream.write("\n  ]" if self.total else "")
        tail = {"errors": [e.to_dict() for e in errors], **(extra or {})}
        for key, value in tail.items():
            stream.write(",\n  " + json.dumps(key) + ": " + json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  "))
        stream.write("\n}\n")
