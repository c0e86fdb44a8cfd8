"""The CI gate of `toolcast check`: which findings make a tool fail `--fail-on`, and the words that say why."""

from __future__ import annotations

from typing import Any

from toolcast.model import CompileResult

# `--fail-on`'s levels. "blocking" (the default): a finding that blocks strict mode, is lossy or
# refuses the tool; a fix (an optional property made required, `additionalProperties: false`
# added) or a note never fails it. The severities fail on every finding at least that severe.
FAIL_ON = ("blocking", "error", "warning", "info", "never")
DEFAULT_FAIL_ON = "blocking"
BLOCKING = frozenset({"refuses", "lossy"})
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}
# The exit codes of compile and check (DESIGN.md): 0 clean, 1 findings (check: at --fail-on;
# compile: a tool refused or --out changed), 2 usage or input errors.
EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def exit_code(args: Any, errors: list, changed: bool, refused: bool, hit: bool, baseline_written: Any) -> int:
    """The exit code of a compile or check run, from what it found."""
    if errors:
        return EXIT_USAGE
    if args.command == "compile":
        return EXIT_FINDINGS if changed or refused else EXIT_OK
    if args.fail_on == "never" or baseline_written is not None:
        return EXIT_OK
    return EXIT_FINDINGS if hit else EXIT_OK


def failing(r: CompileResult, fail_on: str, known: set | None = None) -> list[Any]:
    """The findings of `r` that make it fail `--fail-on` (none: it passes); with a baseline
    (`known`), only those the baseline does not hold."""
    if fail_on == "never":
        return []
    if known is not None:
        from toolcast.baseline import key

        def new(d: Any) -> bool:
            return key(r, d) not in known
    else:
        def new(d: Any) -> bool:
            return True
    if fail_on == "blocking":
        return [d for d in r.diagnostics if d.outcome in BLOCKING and new(d)]
    floor = SEVERITY_RANK[fail_on]
    return [d for d in r.diagnostics if SEVERITY_RANK[d.severity] >= floor and new(d)]


def reason(hits: list[Any], fail_on: str) -> str:
    """Why a tool fails the gate, in one phrase: what blocks or loses first, then the codes."""
    if not hits:
        return ""
    blocks = sum(1 for d in hits if d.outcome == "refuses")
    lossy = sum(1 for d in hits if d.outcome == "lossy")
    parts = ([f"{blocks} block{'s' if blocks == 1 else ''} strict mode"] if blocks else []) + \
            ([f"{lossy} lossy"] if lossy else [])
    for severity in ("error", "warning", "info"):  # (only under a severity level: fixes and notes)
        n = sum(1 for d in hits if d.outcome not in BLOCKING and d.severity == severity)
        if n:
            word = "note" if severity == "info" else severity
            parts.append(f"{n} {word}{'s' if n != 1 else ''}")
    codes = list(dict.fromkeys(d.code for d in sorted(hits, key=lambda d: d.outcome not in BLOCKING)))
    shown = ", ".join(codes[:3]) + (f", +{len(codes) - 3} more" if len(codes) > 3 else "")
    level = "" if fail_on == DEFAULT_FAIL_ON else f" --fail-on {fail_on}"
    return f"fails{level}: {', '.join(parts)} ({shown})"
