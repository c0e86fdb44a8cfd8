"""`--format github`: findings as GitHub Actions workflow commands, annotations at file:line:col."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import IO, Any

from toolcast.loader import InputError
from toolcast.model import CompileResult

COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    """A command's message: GitHub decodes %25, %0D and %0A, so those three are encoded; other
    controls (ESC: the log viewer reads terminal sequences) are written as their escapes."""
    from toolcast.render import shown_text

    return shown_text(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    """A property value: also ':' and ',', which would end the value."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, **props: Any) -> str:
    given = ",".join(f"{k}={escape_property(str(v))}" for k, v in props.items() if v is not None)
    return f"::{kind} {given}::{escape_data(message)}" if given else f"::{kind}::{escape_data(message)}"


def annotated_file(file: str) -> str | None:
    """`file` as an annotation's `file=`, or None when no file of the repository can be named so:
    standard input, and a name whose bytes are not UTF-8 (GitHub reads the log as UTF-8 text)."""
    if file == "<stdin>":
        return None
    try:
        file.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return file


def gate_levels(command_name: str, fail_on: str | None, known: set | None) -> Callable[[CompileResult, Any], str]:
    """A finding's annotation level as the run's gate sees it: `error` only for what fails it
    (check: `--fail-on`, less what the baseline holds; compile: a refused tool), `notice` for a
    fix toolcast made and an `info` note, `warning` for the rest. GitHub
    shows at most ten annotations of each level per step: an `error` for every fix hid the one
    that failed the job."""
    from toolcast import gate

    cache: dict[int, tuple[CompileResult, list]] = {}

    def level(r: CompileResult, d: Any) -> str:
        if command_name == "compile":
            fails = d.outcome == "refuses"
        else:
            got = cache.get(id(r))
            if got is None or got[0] is not r:
                got = cache[id(r)] = (r, gate.failing(r, fail_on or gate.DEFAULT_FAIL_ON, known))
            fails = any(h is d for h in got[1])
        return "error" if fails else "notice" if d.outcome == "fixes" or d.severity == "info" else "warning"

    return level


def render(
    stream: IO[str],
    results: Sequence[tuple[str, CompileResult]],
    places: Sequence[Any],
    errors: Sequence[InputError],
    *,
    shown: Callable[[CompileResult, Any], bool],
    targets: Sequence[str] | None = None,
    level: Callable[[CompileResult, Any], str] | None = None,
) -> None:
    """One workflow command per finding `shown` keeps and per input error, then a summary line;
    with `targets` (a run of several targets), each finding's target before its tool's name.
    `level` (gate_levels) gives each finding's command; without it, its severity does."""
    from toolcast.sarif import mcp_origin, source_file

    for i, ((source, r), where) in enumerate(zip(results, places, strict=True)):
        name = (f"[{targets[i]}] " if targets is not None else "") + (r.name or "(unnamed)")
        for d in r.diagnostics:
            if not shown(r, d):
                continue
            kind = level(r, d) if level is not None else COMMAND[d.severity]
            text = f"{name} {d.path}: {d.message} [{d.code}]"
            if where is not None:
                line, col = where.locate(d.base, d.tokens)
                file = annotated_file(where.file)
                if file is not None:
                    stream.write(command(kind, text, file=file, line=line, col=col, title=d.code) + "\n")
                    continue
                origin = f"{where.file}:{line}:{col}"  # (in the message, escaped)
            else:
                server = mcp_origin(source)
                origin = f"MCP server `{server}`, tool {name}" if server is not None else source
            stream.write(command(kind, f"{origin}: {text}", title=d.code) + "\n")
    for e in errors:
        file = source_file(e.source)
        file = annotated_file(file) if file is not None else None
        if file is None:  # (the place in the message: `source:line:col: ...`)
            stream.write(command("error", str(e), title="toolcast input error") + "\n")
        else:
            stream.write(command("error", e.message, file=file, line=e.line, col=e.column, title="toolcast input error") + "\n")
