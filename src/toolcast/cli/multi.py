"""A compile or check run over several targets (`--target openai,anthropic`, `--target all`): one
outcome per tool and target, reports grouped by tool with each tool's portability, `--out` with a
folder per target, and a closing "strict on N of M targets" summary."""

from __future__ import annotations

import argparse
import copy
import io
import os
from pathlib import Path
from typing import IO, Any

from toolcast._output.jsonout import write_json
from toolcast.cli.inputs import _load_all
from toolcast.cli.outputs import (
    Unread,
    add_out,
    finish_out,
    open_out,
    skipped_key,
    skipped_notes,
    skipped_notices,
    snapshot,
    switch_all,
    write_baseline,
)
from toolcast.cli.parser import UsageError
from toolcast.cli.run import TargetRun, _meta, _read_baseline, _rules
from toolcast.loader import InputError
from toolcast.model import CompileResult
from toolcast.providers import EMITTERS

STATUSES = ("strict", "non-strict", "refused")


def target_args(args: argparse.Namespace, targets: list[str]) -> dict[str, argparse.Namespace]:
    """Each target's own arguments (its API resolved, its rules checked): a usage error when --api
    is not an API of every target, or --rules names another provider's rules."""
    if args.api is not None:
        missing = [t for t in targets if args.api not in EMITTERS[t].APIS]
        if missing:
            raise UsageError(f"toolcast {args.command}: --api {args.api} is not an API of {', '.join(missing)}; "
                             "with several targets give an API every one of them has, or none (each its default)")
    out = {}
    for t in targets:
        a = copy.copy(args)
        a.target, a.targets = t, [t]
        _rules(a)  # sets a.api
        out[t] = a
    return out


def portability(results: dict[str, CompileResult], targets: list[str]) -> dict[str, Any]:
    """A tool's outcomes across the targets: {"strict_on": n, "of": m, "outcomes": {target: status}}
    (a target on which the tool could not be compiled has no outcome)."""
    outcomes = {t: results[t].status for t in targets if t in results}
    return {"strict_on": sum(1 for s in outcomes.values() if s == "strict"), "of": len(targets), "outcomes": outcomes}


def portability_text(p: dict[str, Any]) -> str:
    by: dict[str, list[str]] = {}
    for t, status in p["outcomes"].items():
        by.setdefault(status, []).append(t)
    parts = [f"{s} on {', '.join(by[s])}" for s in STATUSES[1:] if s in by]
    strict = f" ({', '.join(by['strict'])})" if "strict" in by else ""
    return f"strict on {p['strict_on']} of {p['of']} targets{strict}" + "".join(f"; {x}" for x in parts)


def closing_line(per_tool: list[int], m: int) -> str:
    """The run's last line: how many tools are strict on how many of the M targets."""
    counts = {n: per_tool.count(n) for n in sorted(set(per_tool), reverse=True)}
    parts = [f"{c} strict on {'all ' + str(m) if n == m else ('none' if n == 0 else f'{n} of {m}')}"
             for n, c in counts.items()]
    return f"{len(per_tool)} tool(s) on {m} target(s): " + (", ".join(parts) if parts else "none read")


class MultiText:
    """The text report: per tool a group (its name and source, one entry per target, its
    portability line), then one summary line per target and the closing line."""

    def __init__(self, args: argparse.Namespace, out: IO[str], targets: list[str], known: set | None) -> None:
        from toolcast import render

        self.out, self.targets, self.args = out, targets, args
        self.streams = {t: render.TextStream(out, command=args.command, positions=True, quiet=args.quiet,
                                             summary=args.summary, known=known, fail_on=getattr(args, "fail_on", None))
                        for t in targets}
        self.per_tool: list[int] = []

    def add(self, source: str, results: dict[str, CompileResult], where: Any) -> None:
        from toolcast import render

        p = portability(results, self.targets)
        self.per_tool.append(p["strict_on"])
        buffer = io.StringIO()
        for t in self.targets:
            if t in results:
                text = self.streams[t].t
                stream, text.stream = text.stream, buffer
                try:
                    self.streams[t].add(source, results[t], where, target=t)
                finally:
                    text.stream = stream
        if self.args.quiet and not buffer.getvalue():
            return
        name = next((r.name for r in results.values() if r.name), None)
        self.out.write(f"{render.shown_text(name) if name else '(unnamed)'}  {render.shown_text(source)}\n")
        self.out.write(buffer.getvalue())
        self.out.write(f"  portability: {portability_text(p)}\n")

    def finish(self, errors: list[InputError], written: dict | None, over: dict[str, list[dict]]) -> None:
        from toolcast import render

        for e in errors:
            self.out.write("error: " + render.shown_text(str(e)) + "\n")
        for p, why in getattr(self.args, "skipped", ()):
            self.out.write("note: " + render.shown_text(f"{p}: skipped: {why}") + "\n")
        for t in self.targets:
            s = self.streams[t]
            files = written[t]["files"] if written and t in written else None
            line = render._summary(s.total, s.counts, [], written=files, out_dir=(written or {}).get(t, {}).get("dir"),
                                   hidden=s.hidden if s.known is not None else None)
            self.out.write(f"{t}: {line}\n")
            if over.get(t):
                self.out.write(f"{t}: note: {render.request_budget_note(over[t])}\n")
        errs = f"; {len(errors)} input error(s)" if errors else ""
        self.out.write(closing_line(self.per_tool, len(self.targets)) + errs + "\n")


class MultiJson:
    """One JSON document: a result per tool and target (each with "target", "api" and "rules"),
    in tool order, and "portability", one entry per tool."""

    def __init__(self, args: argparse.Namespace, out: IO[str], targets: list[str], metas: dict[str, dict],
                 known: set | None) -> None:
        from toolcast import render

        self.out, self.targets, self.metas, self.args = out, targets, metas, args
        first = metas[targets[0]]
        meta = {k: v for k, v in first.items() if k not in ("target", "api", "rules")}
        meta["targets"] = [{"target": t, "api": metas[t]["api"], "rules": metas[t]["rules"]} for t in targets]
        self.stream = render.JsonStream(command=args.command, meta=meta, positions=True, known=known)
        self.counts = {t: dict.fromkeys(STATUSES, 0) for t in targets}
        self.portable: list[dict] = []

    def add(self, source: str, results: dict[str, CompileResult], where: Any) -> None:
        for t in self.targets:
            if t in results:
                r = results[t]
                self.stream.add(source, r, where, extra=[("target", t), ("api", r.api), ("rules", r.rules)])
                self.counts[t][r.status] += 1
        name = next((r.name for r in results.values() if r.name), None)
        self.portable.append({"name": name, "source": source, **portability(results, self.targets)})

    def finish(self, errors: list[InputError], written: dict | None, over: dict[str, list[dict]]) -> None:
        m = len(self.targets)
        strict_on = [p["strict_on"] for p in self.portable]
        summary = {"tools": len(self.portable), "targets": self.counts,
                   "strict_on_all": strict_on.count(m), "strict_on_none": strict_on.count(0), "input_errors": len(errors)}
        extra: dict[str, Any] = {**skipped_key(self.args), "portability": self.portable}
        if any(over.values()):
            extra["request_budgets"] = {t: v for t, v in over.items() if v}
        if written is not None:
            extra["out"] = written
        self.stream.finish(self.out, errors, extra=extra, summary=summary)


class MultiCollected:
    """SARIF (the target in each result) or GitHub annotations (the target before each tool's name)."""

    def __init__(self, args: argparse.Namespace, out: IO[str], targets: list[str], known: set | None) -> None:
        self.args, self.out, self.targets, self.known = args, out, targets, known
        self.results: list[tuple[str, CompileResult]] = []
        self.places: list[Any] = []
        self.of: list[str] = []
        self.per_tool: list[int] = []

    def add(self, source: str, results: dict[str, CompileResult], where: Any) -> None:
        for t in self.targets:
            if t in results:
                self.results.append((source, results[t]))
                self.places.append(where)
                self.of.append(t)
        self.per_tool.append(portability(results, self.targets)["strict_on"])

    def finish(self, errors: list[InputError], written: dict | None, over: dict[str, list[dict]]) -> None:
        from toolcast import render

        if self.args.format == "sarif":
            from toolcast import sarif

            log = sarif.log(self.results, self.places, errors, known=self.known, targets=self.of, lazy=True)
            skipped_notes(log, self.args)
            for t, o in over.items():
                if o:
                    log["runs"][0]["invocations"][0]["toolExecutionNotifications"].append(
                        {"level": "note", "message": {"text": f"{t}: {render.request_budget_note(o)}"},
                         "descriptor": {"id": "toolcast/request-budgets"}, "properties": {"target": t, "requestBudgets": o}})
            write_json(log, self.out.write)
            self.out.write("\n")
            return
        from toolcast import github

        github.render(self.out, self.results, self.places, errors, shown=render.shows(self.args.quiet, self.known),
                      targets=self.of, level=github.gate_levels(self.args.command, getattr(self.args, "fail_on", None),
                                                                self.known))
        self.out.write(closing_line(self.per_tool, len(self.targets)) + "\n")
        skipped_notices(self.out, self.args)


def _sink(args: argparse.Namespace, out: IO[str], targets: list[str], metas: dict[str, dict], known: set | None) -> Any:
    if args.format in ("sarif", "github"):
        return MultiCollected(args, out, targets, known)
    if args.format == "json":
        return MultiJson(args, out, targets, metas, known)
    return MultiText(args, out, targets, known)


def _add_error(errors: list[InputError], e: InputError) -> None:
    """An input error, once: a tool that is not one is said once, not once per target."""
    if not any(x.source == e.source and x.message == e.message for x in errors):
        errors.append(e)


def run(args: argparse.Namespace, out: IO[str], stdin: Any, err: IO[str], targets: list[str]) -> int:
    """compile or check over several targets; the exit status as one target's run gives it: 1 when
    a tool is refused on a target (compile) or fails --fail-on on one (check)."""
    from toolcast import gate

    per = target_args(args, targets)
    watch = args.command == "compile" and args.fail_on_change
    if watch and not args.out:
        raise UsageError("toolcast compile: --fail-on-change needs --out DIR")
    known = _read_baseline(args)
    items, errors = _load_all(args, stdin, err)
    metas = {t: _meta(a) for t, a in per.items()}
    out_dir = args.out if args.command == "compile" else None
    dirs = {t: os.path.join(out_dir, t) for t in targets} if out_dir else {}
    failed_early = bool(errors)
    before = {t: snapshot(Path(d)) for t, d in dirs.items()} if watch else None
    top = snapshot(Path(out_dir)) if watch else None
    # DIR itself is a batch too: every target's folder is built inside its new DIR, and they go
    # in together, with the previous one-target batch at DIR's top level leaving in the same switch.
    _one_folder_each(dirs, errors)
    parent = open_out(out_dir, None, errors, EMITTERS) if out_dir else None
    batches = {t: open_out(d, metas[t], errors, base=getattr(args, "config_dir", None)) for t, d in dirs.items()}
    for t, b in batches.items():
        if b is not None and parent is not None:
            parent.hold(t, b)
    out = Unread(out)
    sink = _sink(args, out, targets, metas, known)
    runs = {t: TargetRun(a) for t, a in per.items()}
    kept: list = []
    refused = hit = False
    fail_on = getattr(args, "fail_on", "never")
    written: dict | None = None
    built = False  # (once _finish_out has run: if it built nothing, it said why, and that DIR was left)
    try:
        items.reverse()
        while items:
            item = items.pop()
            results: dict[str, CompileResult] = {}
            for t in targets:
                res = runs[t].one(item)
                if isinstance(res, InputError):
                    _add_error(errors, res)
                    continue
                results[t] = res
                if batches.get(t) is not None:
                    batches[t] = add_out(batches[t], item.source, res, errors)
                refused = refused or res.status == "refused"
                hit = hit or bool(gate.failing(res, fail_on, known))
                if getattr(args, "write_baseline", None):
                    kept.append((item.source, res))
            if results:
                sink.add(item.source, results, item.where)
        written = _finish_out(parent, batches, dirs, errors, err,
                              failed_early or any(b is not None for b in batches.values()))
        built = True
        changed = watch and written is not None and (
            any(snapshot(batches[t].staged[1]) != before[t] for t in written)
            or snapshot(parent.staged[1]) != top or bool(parent.removed))
        baseline_written = write_baseline(args, kept, errors)
        sink.finish(errors, written, {t: r.exceeded() for t, r in runs.items()})
        if baseline_written is not None and args.format == "text":
            out.write(f"wrote {baseline_written} finding(s) to the baseline {args.write_baseline}\n")
        if changed and args.format == "text":
            out.write(f"--out {args.out} changed: regenerated files to review and commit\n")
        out.flush()
        if written:  # (the report written: only now are the folders switched in)
            switch_all(parent, batches, written, errors, err)
    except BaseException:  # (an internal error or ^C: said as a one-target run says it)
        if parent is not None and not parent.switched and not (built and written is None):
            err.write(f"toolcast: {out_dir}: left unchanged\n")
        raise
    finally:
        for b in [parent, *batches.values()]:
            if b is not None and not getattr(b, "switched", False):
                b.abort()
    return gate.exit_code(args, errors, changed, refused, hit, baseline_written)


def _one_folder_each(dirs: dict[str, str], errors: list[InputError]) -> None:
    """An error when two targets' folders are one directory on disk (DIR/openai a symlink to
    DIR/anthropic): each target needs a folder of its own."""
    seen: dict[str, str] = {}
    for d in dirs.values():
        real = os.path.realpath(d)
        if real in seen:
            errors.append(InputError(d, f"is the same directory on disk as {seen[real]} (a symlink); each "
                                        "target needs a folder of its own"))
            return
        seen[real] = d


def _finish_out(parent: Any, batches: dict[str, Any], dirs: dict[str, str], errors: list[InputError],
                err: IO[str], say: bool) -> dict | None:
    """Build each target's folder (when the run had no error), in target order, inside the new DIR
    `parent` builds beside DIR; {target: written}, for switch_all once the report is written.
    DIR and every folder in it are switched in by one exchange: after an error (the run's, or one
    building a folder, a full disk) every folder is left as it was, and that is said once."""
    if not dirs:
        return None
    if not errors and parent is not None and all(batches[t] is not None for t in dirs):
        from toolcast import outdir

        try:
            parent.prepare()  # (each target's folder first, inside DIR's)
        except outdir.OutDirError as exc:
            errors.append(InputError(exc.path, exc.reason))
    if errors or parent is None or any(batches[t] is None for t in dirs):
        for t in dirs:
            if batches[t] is not None:
                batches[t].abort()
            batches[t] = None
        if parent is not None:
            parent.abort()
        first = next(iter(dirs.values()))
        finish_out(None, os.path.dirname(first) or first, errors, err, say)  # (says why, once)
        return None
    written: dict[str, Any] = {}
    for t, d in dirs.items():
        got = finish_out(batches[t], d, errors, err, say)
        if got is not None:
            written[t] = got
        else:
            batches[t] = None
    return written if written else None
