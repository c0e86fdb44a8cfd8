"""Where a compile or check run's results go: the report (text, JSON, SARIF, annotations), the baseline file
and the --out batch."""

from __future__ import annotations

import argparse
import contextlib
import os
from pathlib import Path
from typing import IO, Any

from toolcast._output.jsonout import write_json
from toolcast.loader import InputError
from toolcast.model import CompileResult


class Collected:
    """A report that needs every result before it writes anything (SARIF, GitHub annotations)."""

    def __init__(self, args: argparse.Namespace, out: IO[str], known: set | None) -> None:
        self.args, self.out, self.known = args, out, known
        self.results: list[tuple[str, CompileResult]] = []
        self.places: list = []

    def add(self, source: str, r: CompileResult, where: Any) -> None:
        self.results.append((source, r))
        self.places.append(where)

    def finish(self, errors: list[InputError], written: dict | None, over: list[dict] | None = None) -> None:
        """`over`: the request budgets the run's tools would exceed sent together (without --request): a
        note-level tool notification in SARIF, a `::notice` after the summary line in annotations."""
        from toolcast import render

        args, out = self.args, self.out
        if args.format == "sarif":
            from toolcast import sarif

            log = sarif.log(self.results, self.places, errors, known=self.known, lazy=True)
            skipped_notes(log, self.args)
            if over:
                log["runs"][0]["invocations"][0]["toolExecutionNotifications"].append(
                    {"level": "note", "message": {"text": render.request_budget_note(over)},
                     "descriptor": {"id": "toolcast/request-budgets"}, "properties": {"requestBudgets": over}})
            write_json(log, out.write)  # (json.dumps(log, indent=2, ensure_ascii=False)'s text, made as it goes)
            out.write("\n")
            return
        from toolcast import github

        github.render(out, self.results, self.places, errors, shown=render.shows(args.quiet, self.known),
                      level=github.gate_levels(args.command, getattr(args, "fail_on", None), self.known))
        files = written["files"] if written else None
        out.write(render.summary_line(self.results, errors, written=files, out_dir=getattr(args, "out", None),
                                      known=self.known) + "\n")
        skipped_notices(out, args)
        if over:
            out.write(github.command("notice", render.request_budget_note(over), title="toolcast request budgets") + "\n")


class Streamed:
    """Text or the JSON document, written as results come (render.TextStream / JsonStream)."""

    def __init__(self, args: argparse.Namespace, out: IO[str], meta: dict, known: set | None) -> None:
        from toolcast import render

        self.args, self.out = args, out
        if args.format == "json":
            self.stream: Any = render.JsonStream(command=args.command, meta=meta, positions=True, known=known)
        else:
            self.stream = render.TextStream(out, command=args.command, positions=True, quiet=args.quiet,
                                            summary=args.summary, known=known, fail_on=getattr(args, "fail_on", None))

    def add(self, source: str, r: CompileResult, where: Any) -> None:
        self.stream.add(source, r, where)

    def finish(self, errors: list[InputError], written: dict | None, over: list[dict] | None = None) -> None:
        """`over`: the request budgets the run's tools would exceed sent together (without --request): the
        `request_budgets` key of the JSON document (only then), one note line after the text summary."""
        if self.args.format == "json":
            extra = {**skipped_key(self.args), **({"request_budgets": over} if over else {}),
                     **({"out": written} if written is not None else {})}
            self.stream.finish(self.out, errors, extra=extra or None)
        else:
            self.stream.finish(errors, written=written["files"] if written else None, out_dir=getattr(self.args, "out", None),
                               over=over or (), skipped=getattr(self.args, "skipped", ()))


def skipped_key(args: argparse.Namespace) -> dict[str, Any]:
    """The JSON document's "skipped" (only when a directory was): [{"path", "reason"}]."""
    skipped = getattr(args, "skipped", ())
    return {"skipped": [{"path": p, "reason": why} for p, why in skipped]} if skipped else {}


def skipped_notes(log: dict, args: argparse.Namespace) -> None:
    """Each directory skipped under a PATH, as a note-level tool notification of the SARIF log."""
    for p, why in getattr(args, "skipped", ()):
        log["runs"][0]["invocations"][0]["toolExecutionNotifications"].append(
            {"level": "note", "message": {"text": f"{p}: skipped: {why}"}, "descriptor": {"id": "toolcast/skipped"},
             "properties": {"path": p}})


def skipped_notices(out: IO[str], args: argparse.Namespace) -> None:
    """Each directory skipped under a PATH, as a `::notice` (it names a folder, not a file's line)."""
    from toolcast import github

    for p, why in getattr(args, "skipped", ()):
        out.write(github.command("notice", f"{p}: skipped: {why}", title="toolcast skipped a directory") + "\n")


class Unread:
    """The report's stream, whose reader may stop reading (`| head -1`). Then the rest of the
    report is dropped (the stream's descriptor now goes to /dev/null, so nothing fails at exit)
    and the run goes on: --out and a baseline are still written, and the exit status is the run's."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream, self.gone = stream, False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                return self.stream.write(text)
            except BrokenPipeError:
                self._drop()
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._drop()

    def _drop(self) -> None:
        self.gone = True
        with contextlib.suppress(OSError, ValueError):  # (a stream with no descriptor keeps nothing back)
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, self.stream.fileno())
            finally:
                os.close(null)

    def __getattr__(self, name: str) -> Any:  # encoding, isatty: as the stream's
        return getattr(self.stream, name)


def report_sink(args: argparse.Namespace, out: IO[str], meta: dict, known: set | None) -> Any:
    return Collected(args, out, known) if args.format in ("sarif", "github") else Streamed(args, out, meta, known)


def write_baseline(args: argparse.Namespace, results: list, errors: list) -> int | None:
    """Write --write-baseline's file, unless an input could not be read (its findings would be
    missing from the baseline); the number of findings written, else None."""
    if args.command != "check" or args.write_baseline is None:
        return None
    from toolcast import baseline

    if errors:
        errors.append(InputError(args.write_baseline, "not written: the baseline would miss the findings of the inputs above"))
        return None
    try:
        return baseline.write(Path(args.write_baseline), results)
    except baseline.BaselineError as exc:
        errors.append(exc.error)
    except OSError as exc:
        errors.append(InputError(args.write_baseline, f"cannot write the baseline: {exc.strerror or exc}"))
    return None


def snapshot(out: Path) -> dict[str, str] | None:
    """The files directly in an --out directory and a digest of each (None when it is missing),
    CRLF read as LF: toolcast writes LF only, and a CRLF checkout (core.autocrlf) is no change."""
    import hashlib

    if not out.is_dir():
        return None
    snap = {}
    for p in sorted(out.iterdir()):
        if p.is_file() and not p.name.startswith("."):
            try:
                snap[p.name] = hashlib.sha256(p.read_bytes().replace(b"\r\n", b"\n")).hexdigest()
            except OSError:
                snap[p.name] = ""
    return snap


def open_out(out_dir: str, meta: dict | None, errors: list[InputError], folders: Any = (), base: str | None = None) -> Any:
    """The --out batch, or None (with the reason in `errors`) when DIR cannot take one. `folders`:
    the target names, for DIR itself (a run for several targets writes a folder per target);
    `meta` None: the DIR of such a run (outdir.Batch). `base`: where the tools' sources are named from."""
    from toolcast import outdir

    if errors:
        return None  # an input error already means DIR is left alone: do not even lock it
    try:
        return outdir.Batch(out_dir, meta, folders, base)
    except outdir.OutDirError as exc:
        errors.append(InputError(exc.path, exc.reason))
        return None


def add_out(batch: Any, source: str, res: CompileResult, errors: list[InputError]) -> Any:
    from toolcast import outdir

    try:
        batch.add(source, res)
    except outdir.OutDirError as exc:
        errors.append(InputError(exc.path, exc.reason))
        return None
    return batch


def finish_out(batch: Any, out_dir: str, errors: list[InputError], err: IO[str], say: bool) -> dict | None:
    """Build the batch's new DIR beside it when the run had no error (Batch.prepare: what fails for
    want of room), and say what it holds; else leave DIR exactly as it was, and say so on `err`
    (`say` is False when the error is DIR's own: then it is that error that is said). switch_out
    switches it in, once the report is written: a report that cannot be written leaves DIR as it was."""
    from toolcast import outdir

    if batch is None or errors:
        if batch is not None:
            batch.abort()
        if say:
            err.write(f"toolcast: {out_dir}: left unchanged, because of the {len(errors)} error(s) reported\n")
        elif errors:
            err.write(f"toolcast: {errors[-1]}\n")
        return None
    try:
        batch.prepare()
    except outdir.OutDirError as exc:
        errors.append(InputError(exc.path, exc.reason))
        err.write(f"toolcast: {out_dir}: left unchanged, because of the error reported\n")
        return None
    written: dict = {"dir": out_dir, "files": batch.staged[0]}
    if batch.kept:
        written["kept"] = [{"file": f, "reason": why} for f, why in batch.kept]
    return written


def switch_out(batch: Any, written: dict, errors: list[InputError], err: IO[str]) -> None:
    """Switch a batch finish_out built in; a failure (DIR replaced meanwhile, say) is an error of
    the run, said on `err`, with DIR as it was."""
    from toolcast import outdir

    out_dir = written["dir"]
    try:
        batch.commit()
    except outdir.OutDirError as exc:
        errors.append(InputError(exc.path, exc.reason))
        err.write(f"toolcast: {exc.path}: {exc.reason}\ntoolcast: {out_dir}: left unchanged\n")
        return
    said(batch, out_dir, err)


def said(batch: Any, out_dir: str, err: IO[str]) -> None:
    """What a switched batch kept, and what of an earlier run's other layout left DIR, on `err`."""
    for f, why in batch.kept + batch.removed:
        err.write(f"toolcast: {os.path.join(out_dir, f)}: {why}\n")


def switch_all(parent: Any, parts: dict[str, Any], written: dict, errors: list[InputError], err: IO[str]) -> None:
    """Switch a several-target run's DIR in, every target's folder (`parts`) with it, in one exchange."""
    switch_out(parent, {"dir": parent.given}, errors, err)
    if parent.switched:
        for t, w in written.items():
            if parts[t].switched:
                said(parts[t], w["dir"], err)
            else:  # (not held: a folder that is a symbolic link elsewhere, switched in on its own)
                switch_out(parts[t], w, errors, err)
