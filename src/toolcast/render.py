"""Render results for people (text, colour only on a TTY) and for machines (one JSON document)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from typing import IO, Any

from toolcast._output.jsonout import ESCAPE, Lazy, batched, object_chunks
from toolcast.loader import InputError
from toolcast.model import ITEMS, CompileResult, null_path_to_json

HANDLED = {"fixes": "fixed", "lossy": "lossy", "refuses": "blocks", "reports": "note"}
# The text report lists a tool's findings in this order: what blocks strict mode or loses first,
# then fixes, then fixes left out of what was sent, then notes.
HANDLED_ORDER = {"blocks": 0, "lossy": 1, "lossy, not applied": 1, "fixed": 2, "not applied": 3, "note": 4}
HANDLED_COLOUR = {"blocks": "31", "lossy": "31", "lossy, not applied": "31", "fixed": "32", "not applied": "2", "note": "36"}
STATUS_MARK = {"strict": "✓", "non-strict": "~", "refused": "✗"}
ASCII_STATUS_MARK = {"strict": "+", "non-strict": "~", "refused": "x"}  # (a stream that cannot write ✓ ✗)
STATUS_COLOUR = {"strict": "32", "non-strict": "33", "refused": "31"}
SEVERITY_COLOUR = {"error": "31", "warning": "33", "info": "36"}
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}

# What a tool's name, a property name or a server's text must not write to a terminal or a CI log as
# itself: C0 and C1 controls (ESC starts a sequence that clears the screen or sets the title; CR and
# LF forge a line), the bidirectional overrides and isolates (they reorder what is shown), and lone
# surrogates (a file name's bytes that are not UTF-8, which no text output can hold).
_UNSHOWABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escaped(m: re.Match) -> str:
    n = ord(m.group())
    if 0xDC80 <= n <= 0xDCFF:  # an undecodable byte of a file name (os.fsdecode): the byte itself
        return f"\\x{n - 0xDC00:02x}"
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def shown_text(text: str) -> str:
    """`text` with what _UNSHOWABLE matches written as its escape (\\x1b, \\u202e; a file name's
    undecodable byte 0xE9 as \\xe9)."""
    if text.isprintable():  # (the common case: nothing to look for)
        return text
    return _UNSHOWABLE.sub(_escaped, text)


def _encodes(stream: IO[str], text: str) -> bool:
    """Whether `stream` can write `text` as itself (a stream without a known encoding is assumed to)."""
    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str):
        return True
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


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
        self.marks = STATUS_MARK if _encodes(stream, "✓✗") else ASCII_STATUS_MARK

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
    results: Iterable[tuple[str, CompileResult]],
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
    text = TextStream(stream, command=command, min_severity=min_severity, positions=places is not None,
                      quiet=quiet, summary=summary, known=known)
    for i, (source, r) in enumerate(results):
        text.add(source, r, places[i] if places is not None else None)
    text.finish(errors, written=written, out_dir=out_dir)


class TextStream:
    """The text report, written result by result as they are compiled; the summary comes last.

    `positions`: findings name `file:line:col` (or the MCP server and tool); `quiet`: only what
    blocks or is lossy; `summary`: one line per tool; `known`: a baseline whose findings are not
    listed (and counted in the summary).
    """

    def __init__(self, stream: IO[str], *, command: str, min_severity: str = "info", positions: bool = False,
                 quiet: bool = False, summary: bool = False, known: set | None = None,
                 fail_on: str | None = None) -> None:
        self.t = Text(stream)
        self.command = command
        # check's --fail-on: a tool that fails it says why on its first line, with --quiet too.
        self.fail_on = fail_on if command == "check" else None
        self.floor = SEVERITY_RANK[min_severity]
        self.positions = positions
        self.quiet, self.summary, self.known = quiet, summary, known
        self.keep = shows(quiet, known)
        self.counts = {"strict": 0, "non-strict": 0, "refused": 0}
        self.total = 0
        self.hidden = 0

    def add(self, source: str, r: CompileResult, where: Any = None, target: str | None = None) -> None:
        """Write `r`'s lines; with `target` (a run of several targets: cli.multi), as one entry of
        its tool's group: the target instead of the name and source, indented under the group."""
        self.total += 1
        if r.status in self.counts:
            self.counts[r.status] += 1
        t = self.t
        pad = "  " if target is not None else ""
        shown = [d for d in r.diagnostics if SEVERITY_RANK[d.severity] >= self.floor and self.keep(r, d)]
        if self.known is not None:
            self.hidden += _in_baseline(r, self.known)
        fails = ""
        if self.fail_on is not None:
            from toolcast import gate

            fails = gate.reason(gate.failing(r, self.fail_on, self.known), self.fail_on)
        if self.quiet and not shown and not fails:
            return
        label = f"{target:<9}" if target is not None else (shown_text(r.name) if r.name else "(unnamed)")
        head = f"{pad}{t.c(STATUS_COLOUR.get(r.status, '0'), t.marks.get(r.status, '?') + ' ' + label)}"
        source = shown_text(source)
        tail = f"  {t.c('2', source)}" if target is None else ""
        if self.summary:
            t.line(f"{head}  {r.status}  {_counts(r)}{tail}")
            return
        status = r.status if self.command == "compile" else _check_verdict(r)
        if fails:
            status += "; " + t.c("31", shown_text(fails))
        t.line(f"{head}  {status}  ({r.rules}, {r.api}){tail}")
        for handled, d in sorted(((handled_text(d), d) for d in shown), key=lambda x: HANDLED_ORDER.get(x[0], 5)):
            at = place_text(source, r, where, d) if self.positions else ""
            t.line(f"{pad}    {t.c(HANDLED_COLOUR.get(handled, '0'), f'{handled:<11}')} {shown_text(at) + '  ' if at else ''}"
                   f"{shown_text(d.path)}  {shown_text(d.message)}  {t.c('2', '[' + d.code + ']')}")
        enforced = {e.path for e in r.enforced}  # (enforce: checked on each call, not lost)
        lossy = [x for x in r.transformations if x.lossy and x.path not in enforced]
        if lossy and r.status == "strict":
            t.line(f"{pad}    {t.c('31', 'lossy changes accepted')}: " + ", ".join(f"{x.code} at {shown_text(x.path)}" for x in lossy))
        if enforced:
            t.line(f"{pad}    enforced on each call: " + shown_text(", ".join(f"{e.constraint} at {e.path}" for e in r.enforced)))
        if r.null_paths and not self.quiet:
            t.line(f"{pad}    null paths: " + shown_text("; ".join(null_path_text(p) for p in r.null_paths)))

    def finish(self, errors: Sequence[InputError], *, written: Sequence[str] | None = None, out_dir: str | None = None,
               over: Sequence[dict] = (), skipped: Sequence[tuple[str, str]] = ()) -> None:
        """The input errors, a note for each directory skipped under a PATH (`skipped`: (path, why)),
        the summary line and, when the run's tools would exceed a request budget sent together
        (`over`, see request_budget_note), one note line."""
        t = self.t
        for e in errors:
            t.line(t.c("31", "error: ") + shown_text(str(e)))
        for p, why in skipped:
            t.line("note: " + shown_text(f"{p}: skipped: {why}"))
        hidden = self.hidden if self.known is not None else None
        t.line(_summary(self.total, self.counts, errors, written=written, out_dir=out_dir, hidden=hidden))
        if over:
            t.line("note: " + request_budget_note(over))


def request_budget_note(over: Sequence[dict]) -> str:
    """The note a run without --request gives about request budgets: which ones its tools, a set of
    definitions rather than a request, would exceed if they were sent together (`over`: budgets.Tally's
    exceeded(), each {"budget", "code", "count", "limit"})."""
    parts = ", ".join(f"{o['budget']} ({o['count']} > {o['limit']})" for o in over)
    return f"sent together in one request, these tools would exceed: {parts}"


def summary_line(results: Sequence[tuple[str, CompileResult]], errors: Sequence[InputError], *,
                 written: Sequence[str] | None = None, out_dir: str | None = None, known: set | None = None) -> str:
    """The report's last line; with a baseline (`known`), how many of its findings were not shown."""
    counts = {s: sum(1 for _, r in results if r.status == s) for s in ("strict", "non-strict", "refused")}
    hidden = sum(_in_baseline(r, known) for _, r in results) if known is not None else None
    return _summary(len(results), counts, errors, written=written, out_dir=out_dir, hidden=hidden)


def _in_baseline(r: CompileResult, known: set) -> int:
    """How many findings of `r` the baseline `known` holds (a report leaves them out)."""
    from toolcast.baseline import key

    return sum(1 for d in r.diagnostics if key(r, d) in known)


def _summary(total: int, counts: dict[str, int], errors: Sequence[InputError], *,
             written: Sequence[str] | None = None, out_dir: str | None = None, hidden: int | None = None) -> str:
    summary = f"{total} tool(s): {counts['strict']} strict, {counts['non-strict']} non-strict, {counts['refused']} refused"
    if errors:
        summary += f"; {len(errors)} input error(s)"
    if written is not None:
        summary += f"; wrote {len(written)} file(s) and manifest.json to {shown_text(str(out_dir))}"
    if hidden is not None:
        summary += f"; {hidden} finding(s) in the baseline not shown"
    return summary


def _counts(r: CompileResult) -> str:
    """--summary's counts of a tool's findings, by how they were handled (what blocks or loses first)."""
    return handled_counts(r) or "clean"


def handled_text(d: Any) -> str:
    """How the text report says a finding was handled: blocks, lossy, fixed or note; a change that
    is not in what was sent (a non-strict tool's original schema, a refused tool) "not applied"."""
    handled = HANDLED.get(d.outcome, d.outcome)
    if d.applied or handled in ("blocks", "note"):
        return handled
    return "lossy, not applied" if handled == "lossy" else "not applied"


def handled_counts(r: CompileResult) -> str:
    """A tool's findings counted by how they were handled, what blocks or loses first
    ("1 blocks strict mode, 2 fixed, 3 notes"; "" when it has none)."""
    n: dict[str, int] = {}
    for d in r.diagnostics:
        h = handled_text(d).replace("lossy, not applied", "lossy")
        n[h] = n.get(h, 0) + 1
    words = {"blocks": "blocks strict mode", "lossy": "lossy", "fixed": "fixed", "not applied": "not applied",
             "note": "note"}
    return ", ".join(f"{n[h]} {words[h]}" + ("s" if h == "note" and n[h] != 1 else "")
                     for h in sorted(n, key=lambda h: HANDLED_ORDER.get(h, 5)) if h in words)


def _check_verdict(r: CompileResult) -> str:
    """check's word for a tool: its outcome, then its findings by handling, what blocks or loses first."""
    counts = handled_counts(r)
    return f"{r.status}: {counts}" if counts else f"{r.status}, clean"


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
    for entry, diag in zip(out, r.diagnostics, strict=True):
        entry.update(_position_and_state(r, diag, where, positions, known))


def _finding(r: CompileResult, diag: Any, where: Any, positions: bool, known: set | None) -> dict:
    entry = diag.to_dict()
    if positions or known is not None:
        entry.update(_position_and_state(r, diag, where, positions, known))
    return entry


def _position_and_state(r: CompileResult, diag: Any, where: Any, positions: bool, known: set | None) -> dict:
    extra: dict[str, Any] = {}
    if positions:
        line, col = where.locate(diag.base, diag.tokens) if where is not None else (None, None)
        extra["line"], extra["column"] = line, col
    if known is not None:
        from toolcast.baseline import key

        extra["baseline"] = "unchanged" if key(r, diag) in known else "new"
    return extra


def result_pairs(r: CompileResult, source: str, *, with_tool: bool, where: Any = None, positions: bool = False,
                 known: set | None = None) -> list[tuple[str, Any]]:
    """`r.to_dict()` plus "source" (without "tool" for `check`), as pairs whose long lists are
    made one item at a time: a tool with 100,000 findings never has them all as dicts. Findings
    carry `line`/`column` with `positions`, and `baseline` with `known`, as `document` gives them."""
    pairs: list[tuple[str, Any]] = [("name", r.name), ("status", r.status)]
    if with_tool:
        pairs.append(("tool", r.tool))
    pairs += [
        ("null_paths", Lazy(null_path_to_json(p) for p in r.null_paths)),
        ("diagnostics", Lazy(_finding(r, d, where, positions, known) for d in r.diagnostics)),
        ("transformations", Lazy(t.to_dict() for t in r.transformations)),
        *([("enforced", [e.to_dict() for e in r.enforced])] if r.enforced else []),
        ("source", source),
    ]
    return pairs


class SpoolError(OSError):
    """The JSON document's temporary file cannot be written (a full TMPDIR)."""


class JsonStream:
    """The `--format json` document of `document`, byte for byte, without holding every result.

    Each result is serialised as it is compiled into a spool (memory up to a few MB, then a
    temporary file) and dropped; `finish` writes the head, whose summary is known only then,
    and copies the spool out after it.
    """

    SPOOL_BYTES = 4 * 1024 * 1024

    def __init__(self, *, command: str, meta: dict[str, Any], positions: bool = False, known: set | None = None) -> None:
        self.command = command
        self.meta = meta
        self.positions, self.known = positions, known
        self.counts = {"strict": 0, "non-strict": 0, "refused": 0}
        self.total = 0
        import tempfile  # only the JSON document needs it: kept off the start-up path

        # Closed by finish(); a run that dies first leaves the OS to remove it.
        self.spool = tempfile.SpooledTemporaryFile(max_size=self.SPOOL_BYTES, mode="w+", encoding="utf-8",  # noqa: SIM115
                                                   errors=ESCAPE, newline="\n")

    def add(self, source: str, r: CompileResult, where: Any = None, extra: Sequence[tuple[str, Any]] = ()) -> None:
        """Spool `r`'s item; `extra` pairs follow its "source" (a run of several targets: "target", "api", "rules")."""
        # An item of the top-level "results" list sits two levels deep.
        self.spool.write(("," if self.total else "") + "\n    ")
        pairs = result_pairs(r, source, with_tool=self.command != "check", where=where, positions=self.positions,
                             known=self.known) + list(extra)
        try:
            for piece in batched(object_chunks(pairs, depth=2)):
                self.spool.write(piece)
        except OSError as exc:
            raise SpoolError(exc.errno, exc.strerror) from exc
        self.total += 1
        if r.status in self.counts:
            self.counts[r.status] += 1

    def finish(self, stream: IO[str], errors: Sequence[InputError], *, extra: dict[str, Any] | None = None,
               summary: dict[str, Any] | None = None) -> None:
        """Write the whole document to `stream`; `extra` keys follow "errors", as in the dict;
        `summary` replaces the counts of one target's run (a run of several: cli.multi)."""
        head = {"command": self.command, **self.meta,
                "summary": summary or {"tools": self.total, **self.counts, "input_errors": len(errors)}}
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
