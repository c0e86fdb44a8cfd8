"""`toolcast probe PATH... --target ...`: the command, its report (text, JSON, SARIF, GitHub) and its --record evidence file."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import stat
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from toolcast import __version__
from toolcast.cli.parser import UsageError, targets_of
from toolcast.loader import InputError

RECORD_FORMAT = 1  # the "toolcast_probe_record" field: bump only with a new layout


def models_of(args: argparse.Namespace, targets: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for text in args.model:
        name, eq, model = text.partition("=")
        if not eq:
            if len(targets) != 1:
                raise UsageError("toolcast probe: with several targets, give --model TARGET=MODEL")
            name, model = targets[0], text
        if name not in targets or not model.strip():
            raise UsageError(f"toolcast probe: --model {text}: name one of the targets probed ({', '.join(targets)}) and a model")
        out[name] = model.strip()
    return out


def _compiled(args: argparse.Namespace, items: list, target: str, errors: list[InputError]) -> tuple[list, str, str]:
    """(source, input tool, compile result) for each item under `target`, its api and rule version."""
    from toolcast.budgets import Tally
    from toolcast.compile import compile_tool, refuse_repeated_name, request_budget
    from toolcast.model import InvalidToolError
    from toolcast.providers import EMITTERS
    from toolcast.tool_input import resolve_target

    api = args.api if args.api is None or args.api in EMITTERS[target].APIS or len(targets_of(args)) == 1 else None
    try:
        _, api, rules = resolve_target(target, api, args.rules)
    except ValueError as exc:
        raise UsageError(f"toolcast probe: {exc}") from None
    budget = request_budget(target=target, api=api, rules=rules, strict=args.strict)
    tally, seen, out = Tally(rules, budget.emitter), set(), []
    for item in items:
        try:
            res = compile_tool(item.tool, target=target, api=api, rules=rules, strict=args.strict,
                               allow_lossy=args.allow_lossy, optional_null=args.optional_null,
                               **({"enforce": True, "describe": not args.no_describe} if getattr(args, "enforce", False) else {}))
        except (InvalidToolError, RecursionError) as exc:
            if target == targets_of(args)[0]:  # (said once, not once per target)
                errors.append(InputError(item.source, str(exc) or "the tool is nested too deeply to compile"))
            continue
        res = refuse_repeated_name(res, seen, rules)
        if args.request:
            res, _ = budget.take(item.tool, res)
        else:
            tally.add(res)
        out.append((item.source, item.tool, res))
    return out, api, rules.id


def _probed(targets: list[str]) -> list[str]:
    """The targets to probe: those whose spec states how (`wire.probe`); `all` keeps only those, a
    target named that states none is a usage error."""
    from toolcast.probe_wire import KEY_ENV
    from toolcast.providers import EMITTERS

    can = set(KEY_ENV)
    if targets == list(EMITTERS):  # (`--target all`)
        return [t for t in targets if t in can]
    cannot = [t for t in targets if t not in can]
    if cannot:
        raise UsageError(f"toolcast probe: target {', '.join(cannot)} states no wire.probe in its spec (which SDK, "
                         f"model and key reach it): it cannot be probed; these can: {', '.join(KEY_ENV)}")
    return targets


def run(args: argparse.Namespace, out: IO[str], stdin: Any, err: IO[str]) -> int:
    from toolcast import probe
    from toolcast.cli.inputs import _load_all

    targets = _probed(targets_of(args))
    models = models_of(args, targets)
    if args.record and args.dry_run:
        raise UsageError("toolcast probe: --record keeps what providers answered; a --dry-run asks nothing")
    if args.jobs > 16:
        raise UsageError("toolcast probe: --jobs is at most 16")
    items, errors = _load_all(args, stdin, err)
    for where, why in args.skipped:  # (the report's formats have no place for it: said on stderr)
        err.write(f"toolcast: note: {where}: skipped: {why}\n")
    if args.record:  # (before anything is spent: a destination that can never take the record)
        try:
            record_problem(Path(args.record))
        except ValueError as exc:
            errors.append(InputError(args.record, f"cannot write the record: {exc}"))
    plans = []
    for target in targets:
        compiled, api, rules = _compiled(args, items, target, errors)
        from toolcast.probe_wire import model_for

        plans += probe.plan(compiled, target, api, rules, model_for(target, models))
    settings = probe.Settings(timeout=args.timeout, max_requests=args.max_requests, retries=args.retries,
                              max_wait=args.max_wait, jobs=args.jobs, max_output_tokens=args.max_output_tokens,
                              dry_run=args.dry_run)
    try:  # (a run with input errors sends nothing: it exits 2 whatever the answers; a dry run costs nothing)
        verdicts = probe.run(plans, settings) if not errors or args.dry_run else probe.held(plans)
    except probe.Interrupted as stop:  # (^C: the verdicts paid for are reported; no --record is written)
        report(args.format, out, stop.verdicts, errors, quiet=args.quiet, dry=args.dry_run)
        raise stop.reason from None
    if args.record and verdicts and not errors:
        try:
            write_record(Path(args.record), verdicts)
        except (OSError, ValueError) as exc:
            errors.append(InputError(args.record, f"cannot write the record: {getattr(exc, 'strerror', None) or exc}"))
    report(args.format, out, verdicts, errors, quiet=args.quiet, dry=args.dry_run)
    if errors:
        return 2
    return 0 if args.dry_run else probe.exit_code(verdicts)


# -- reports -----------------------------------------------------------------------------------
def summary(verdicts: Sequence[Any]) -> dict:
    counts = {s: sum(1 for v in verdicts if v.status == s) for s in ("accepted", "rejected", "error", "skipped")}
    counts["invalid_arguments"] = sum(1 for v in verdicts if v.arguments_valid is False)
    return counts


def summary_line(verdicts: Sequence[Any], errors: Sequence[InputError]) -> str:
    c = summary(verdicts)
    line = (f"probe: {c['accepted']} accepted ({c['invalid_arguments']} with invalid arguments), "
            f"{c['rejected']} rejected, {c['error']} error(s), {c['skipped']} skipped")
    return line + (f"; {len(errors)} input error(s)" if errors else "")


def _headline(v: Any) -> str:
    from toolcast.render import shown_text

    where = f"{v.target}/{v.api} {v.model}"
    name = shown_text(v.tool or "(unnamed)")
    if v.status == "accepted":
        how = f"accepted (sent {v.sent_as})"
        if v.arguments_valid is True:
            how += "; arguments valid against the original schema"
        elif v.arguments_valid is False:
            how += "; arguments INVALID against the original schema"
        else:
            how += "; arguments not checked"
    elif v.status == "rejected":
        how = f"rejected ({v.http_status}): {v.message}"
    elif v.status == "error":
        how = f"error, {v.kind}" + (f" ({v.http_status})" if v.http_status else "") + f": {v.message}"
    else:
        how = f"skipped, {v.kind}: {v.message}"
    return f"{name}  {where}  {shown_text(how)}"


def _text(out: IO[str], verdicts: Sequence[Any], errors: Sequence[InputError], quiet: bool, dry: bool) -> None:
    from toolcast.render import shown_text

    for v in verdicts:
        if quiet and v.status == "accepted" and v.arguments_valid:
            continue
        out.write(_headline(v) + "\n")
        for e in v.argument_errors:
            out.write(f"    {shown_text(e['path'] or '/')}: {shown_text(e['message'])}\n")
        for note in v.notes:
            out.write(f"    note: {shown_text(note)}\n")
        if dry and v.request is not None:
            text = json.dumps(v.request, indent=2, ensure_ascii=False)
            out.write("".join(f"    {shown_text(line)}\n" for line in text.splitlines()))
    for e in errors:
        out.write(f"error: {shown_text(str(e))}\n")
    out.write(summary_line(verdicts, errors) + "\n")


def report(fmt: str, out: IO[str], verdicts: Sequence[Any], errors: Sequence[InputError], *, quiet: bool = False,
           dry: bool = False) -> None:
    if fmt == "json":
        doc = {"command": "probe", "toolcast": __version__, "summary": summary(verdicts),
               "results": [v.as_json() for v in verdicts],
               "errors": [{"source": e.source, "message": e.message, "line": e.line, "column": e.column} for e in errors]}
        out.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    elif fmt == "sarif":
        from toolcast.probe_sarif import log

        out.write(json.dumps(log(verdicts, errors), indent=2, ensure_ascii=False) + "\n")
    elif fmt == "github":
        from toolcast.probe_sarif import annotations

        annotations(out, verdicts, errors)
        out.write(summary_line(verdicts, errors) + "\n")
    else:
        _text(out, verdicts, errors, quiet, dry)


# -- the record --------------------------------------------------------------------------------
def record_document(verdicts: Sequence[Any], now: datetime | None = None) -> dict:
    """The evidence file: each verdict with the day it was observed, the model asked (and the one
    that answered), the rule version compiled under and the exact request (no headers: no key)."""
    now = now or datetime.now(UTC)
    entries = []
    for v in verdicts:
        entry = v.as_json()
        entry["date"] = (v.observed or now.isoformat())[:10]
        entries.append(entry)
    return {"toolcast_probe_record": RECORD_FORMAT, "toolcast": __version__,
            "date": now.strftime("%Y-%m-%d"), "verdicts": entries}


def is_record(path: Path) -> bool:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and doc.get("toolcast_probe_record") == RECORD_FORMAT


def record_problem(path: Path) -> tuple[Path, os.stat_result | None]:
    """(where the record goes, what is there now); ValueError when it can never be written there:
    checked before any request is sent as well as at the end."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    try:
        old = path.stat()
    except FileNotFoundError:
        old = None
    except OSError as exc:
        raise ValueError(f"cannot be written: {exc.strerror or exc}") from None
    if old is None and not (path.parent if str(path.parent) else Path(".")).is_dir():
        raise ValueError("cannot be written: its directory does not exist")
    if old is not None and not stat.S_ISREG(old.st_mode):
        raise ValueError("not written: it is not a regular file")
    if old is not None and not is_record(path):
        raise ValueError("not written: the file there is not a toolcast probe record, and replacing it would lose it")
    return path, old


def write_record(path: Path, verdicts: Sequence[Any]) -> None:
    """Write the record atomically (a reader sees the old file or the new one, never a part), as the
    baseline is written; a file there that is not a probe record is never replaced."""
    from toolcast._output import fsops as _fsops

    path, old = record_problem(path)
    text = json.dumps(record_document(verdicts), indent=2, ensure_ascii=False) + "\n"
    parent = path.parent if str(path.parent) else Path(".")
    tmp = parent / f".toolcast-{os.getpid()}-{secrets.token_hex(4)}.tmp"
    try:
        _fsops.create(tmp, [text.encode("utf-8", "surrogatepass")], sync=True)
        _fsops.keep_mode(tmp, old, path)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
