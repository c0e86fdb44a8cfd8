"""`toolcast diff OLD NEW` (or `--git REV PATH...`): the classified changes between two versions of a tool set, and per target which tools regressed."""

from __future__ import annotations

import argparse
import os
from typing import IO, Any

from toolcast.cli.parser import UsageError, parse_targets
from toolcast.loader import InputError


def _sides(args: argparse.Namespace, errors: list[InputError]) -> tuple[Any, Any, str, str]:
    from toolcast import diff_inputs

    paths = list(args.paths)
    skip = tuple(getattr(args, "skip", ()))  # (the config's baseline and --out: not tools, as check skips them)
    if args.git is not None:
        if not paths:
            raise UsageError("toolcast diff: --git REV needs the PATHs to compare (files or directories of tools)")
        if "-" in paths:
            raise UsageError("toolcast diff: --git compares files of the repository; - (stdin) has no revision")
        try:
            old = diff_inputs.read_revision(args.git, paths, f"{args.git}", errors, skip)
        except diff_inputs.GitError as exc:
            raise UsageError(f"toolcast diff: {exc}") from None
        new = diff_inputs.read_paths(paths, "the work tree", errors, skip)
        return old, new, f"{args.git}:{' '.join(paths)}", " ".join(paths)
    if len(paths) != 2:
        raise UsageError(f"toolcast diff: give OLD and NEW (two files or directories), or --git REV PATH...; got {len(paths)} PATH(s)")
    if "-" in paths:
        raise UsageError("toolcast diff: OLD and NEW are files or directories; - (stdin) is not read")
    old = diff_inputs.read_paths([paths[0]], paths[0], errors)
    new = diff_inputs.read_paths([paths[1]], paths[1], errors)
    return old, new, paths[0], paths[1]


def _compile_side(side: Any, target: str, args: argparse.Namespace, errors: list[InputError]) -> dict:
    from toolcast.compile import compile_tool
    from toolcast.model import InvalidToolError

    extra = {"enforce": True} if getattr(args, "enforce", False) else {}
    results = {}
    for name, item in side.items.items():
        try:
            results[name] = compile_tool(item.tool, target=target, strict=args.strict, allow_lossy=args.allow_lossy, **extra)
        except (InvalidToolError, RecursionError) as exc:
            errors.append(InputError(item.source, f"cannot compile for {target}: {exc or 'nested too deeply'}"))
        except Exception as exc:  # one bad tool never stops the others
            if os.environ.get("TOOLCAST_DEBUG"):
                raise
            errors.append(InputError(item.source, f"internal error while compiling for {target}: {type(exc).__name__}: {exc}"))
    return results


class Outcome:
    """What one diff run found: the sides, the changes and, per target, the regressions and fixes."""

    def __init__(self, old: Any, new: Any, old_label: str, new_label: str, changes: list, targets: list, errors: list):
        self.old, self.new, self.old_label, self.new_label = old, new, old_label, new_label
        self.changes, self.targets, self.errors = changes, targets, errors

    def failed(self, fail_on: str) -> bool:
        if fail_on == "never":
            return False
        regressed = any(t["regressed"] for t in self.targets)
        if fail_on == "breaking":
            return regressed or any(c.kind == "breaking" for c in self.changes)
        return bool(self.changes) or regressed or any(t["fixed"] for t in self.targets)


def diff(args: argparse.Namespace) -> Outcome:
    """Read both sides, classify the changes and compile both sides for each target."""
    from toolcast import tooldiff
    from toolcast.tool_input import resolve_target

    errors: list[InputError] = []
    old, new, old_label, new_label = _sides(args, errors)
    changes = tooldiff.compare_tools(old.tools, new.tools)
    targets = []
    for target in args.target:
        _, api, rules = resolve_target(target, None, None)
        worse, better = tooldiff.regressions(_compile_side(old, target, args, errors), _compile_side(new, target, args, errors))
        targets.append({"target": target, "api": api, "rules": rules.id, "regressed": worse, "fixed": better})
    return Outcome(old, new, old_label, new_label, changes, targets, errors)


def run(args: argparse.Namespace, out: IO[str], stdin: Any = None, err: IO[str] | None = None) -> int:
    """The `toolcast diff` command: 0 nothing at --fail-on, 1 something at it, 2 a usage or input error."""
    from toolcast import diff_report

    try:
        args.target = parse_targets(args.target) if isinstance(args.target, str) else args.target
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"toolcast diff: argument --target: {exc}") from None
    result = diff(args)
    if args.format == "json":
        diff_report.write_json(out, result, args.fail_on)
    elif args.format == "sarif":
        diff_report.write_sarif(out, result)
    elif args.format == "github":
        diff_report.write_github(out, result)
    else:
        diff_report.write_text(out, result)
    if args.format != "text" and err is not None:
        for e in result.errors:  # (the document holds them too; a person watching the run sees them here)
            err.write(f"toolcast: {e}\n")
    if result.errors:
        return 2
    return 1 if result.failed(args.fail_on) else 0
