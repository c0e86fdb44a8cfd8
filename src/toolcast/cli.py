"""The `toolcast` command line: compile, check and rules."""

from __future__ import annotations

import argparse
import codecs
import contextlib
import errno
import math
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from toolcast import __version__
from toolcast.budgets import Tally
from toolcast.cli_outputs import (
    Unread,
    add_out,
    finish_out,
    open_out,
    report_sink,
    snapshot,
    write_baseline,
)
from toolcast.compile import InvalidToolError, compile_tool, refuse_repeated_name, request_budget
from toolcast.compile import resolve_target as compile_target
from toolcast.loader import InputError, Item, load, text_only
from toolcast.model import CompileResult, ToolcastError, UnknownRulesError
from toolcast.providers import EMITTERS
from toolcast.rules import get_rules

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


class _HelpFormatter(argparse.HelpFormatter):
    """Help that ends each option's text with its default, unless the text gives it already."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "(default" in text or action.default in (None, False, argparse.SUPPRESS, []):
            return text
        return f"{text} (default: %(default)s)"


class _VersionAction(argparse.Action):
    """--version: toolcast's version and which build runs (the compiled modules, or pure Python)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, help: str | None = None):
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from toolcast import build_info

        (sys.stdout or _Closed("output")).write(f"{build_info()}\n")  # looked up only when asked: it reads the installed files
        parser.exit()


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("formatter_class", _HelpFormatter)  # subcommands' parsers too
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # argparse would exit itself; keep one exit path
        raise UsageError(f"{self.prog}: {message}")

    def _print_message(self, message: str, file: IO[str] | None = None) -> None:
        # argparse drops a failed write: --help to a full disk or a closed stdout would exit 0.
        if message:
            (file or _Closed("output")).write(message)


STRICT_HELP = ("auto: a tool that cannot be sent strict without loss is sent non-strict with its original schema "
               "(rewritten only where the provider would reject it, each rewrite reported); "
               "true: such a tool is refused; false: every tool is sent non-strict")
FORMAT_HELP = "text for people, json for one machine-readable document"
DIRECTORY_RULE = (
    "A directory PATH is read recursively, in sorted order of paths: every file ending in .json, .jsonl, "
    ".ndjson, .yaml or .yml, skipping hidden files and directories (names starting with '.'), symlinked "
    "directories, the run's --out directory and baseline files, and any directory holding a manifest.json "
    "toolcast wrote. "
    "A bare JSON Schema file is a tool named after the file's stem (--name NAME for a single schema). "
    "The PATHs are a set of tool definitions, not one request: the provider's request budgets (OpenAI's "
    "128 tools, Anthropic's 20 strict tools and their optional and union parameters) demote or refuse "
    "nothing, and the report says once which ones the tools would exceed sent together; with --request "
    "they are one request, and the budgets apply in input order. A tool that exceeds a budget of strict "
    "tools on its own is never sent strict, in either mode."
)


def _place(item: Item, field: str | None) -> tuple[int | None, int | None]:
    """Line and column of a tool that is not one (of its `field`, when named), where known."""
    where = item.where
    if where is None:
        return None, None
    try:
        if field is not None:
            return where.locate(field, ())
        return where.positions.line_col(where.positions.offset(where.tokens)[0])
    except Exception:  # (a place is a help to the reader, never a reason to fail)
        return None, None


def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="toolcast", description="Compile LLM tool definitions into OpenAI strict function tools and report every change.")
    p.add_argument("--version", action=_VersionAction, help="print the version and which build runs (the compiled modules, or pure Python), and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser, help="run `toolcast COMMAND --help` for its options")

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("paths", nargs="*", metavar="PATH", help="tool file(s): one tool, a list, {\"tools\": [...]}, JSON Lines, YAML or a bare JSON Schema; a directory (see below); - reads stdin")
        sp.add_argument("--target", default="openai", choices=list(EMITTERS), help="the provider dialect to compile to")
        sp.add_argument("--api", default=None, choices=sorted({a for e in EMITTERS.values() for a in e.APIS}),
                        help="the target's API (default: openai responses, anthropic messages, gemini/vertex json-schema)")
        sp.add_argument("--rules", default=None, metavar="VERSION", help="rule version: VERSION, openai@VERSION or latest (default: the reviewed default)")
        sp.add_argument("--strict", default="auto", choices=["auto", "true", "false"], help=STRICT_HELP)
        sp.add_argument("--allow-lossy", action="store_true", help="send strict even when that accepts values the original rejects")
        sp.add_argument("--optional-null", default="value", choices=["value", "omit"],
                        help="an optional property that already accepts null: 'value' sends it required, so "
                             "the handler receives the model's null; 'omit' strips that null too (lossy: an explicit "
                             "null can no longer be sent)")
        sp.add_argument("--format", default="text", choices=["text", "json", "sarif", "github"],
                        help="text for people, json (one document), sarif (SARIF 2.1.0 for code scanning) or github (Actions annotations)")
        sp.add_argument("--quiet", action="store_true", help="list only findings that block strict mode or are lossy, and the summary (default: every finding)")
        sp.add_argument("--summary", action="store_true", help="in the text report, one line per tool (name, outcome, counts) instead of its findings (default: off)")
        sp.add_argument("--name", default=None, metavar="NAME", help="the tool name of a bare JSON Schema file (one schema only; default: the file's stem)")
        sp.add_argument("--mcp", action="append", default=[], metavar="COMMAND", help="start a stdio MCP server with this command and use its tools (repeatable)")
        sp.add_argument("--mcp-url", action="append", default=[], metavar="URL", help="use the tools of the Streamable HTTP MCP server at URL (repeatable)")
        sp.add_argument("--mcp-auth-env", default=None, metavar="VAR", help="send the environment variable VAR's value as the Authorization header to every --mcp-url server ('Bearer ' is added to a value without a scheme)")
        sp.add_argument("--mcp-timeout", type=seconds, default=30.0, metavar="SECONDS", help="how long to wait for each --mcp or --mcp-url server to start and list its tools")
        sp.add_argument("--request", action="store_true",
                        help="read the tools as one request: the target's request budgets apply over them in input order "
                             "(a tool past one is refused, or sent non-strict past a budget of strict tools under --strict auto); "
                             "default: a set of definitions, the budgets they would exceed together only noted")

    c = sub.add_parser("compile", help="compile tools; exit 1 if a tool was refused", epilog=DIRECTORY_RULE)
    common(c)
    c.add_argument("--out", metavar="DIR", help="write one file per tool plus manifest.json here")
    c.add_argument("--fail-on-change", action="store_true", help="with --out: exit 1 when this run added, rewrote or removed a file there (for pre-commit; default: off)")
    k = sub.add_parser("check", help="report findings only; exit 1 at --fail-on", epilog=DIRECTORY_RULE)
    common(k)
    k.add_argument("--fail-on", default="error", choices=["error", "warning", "info", "never"], help="exit 1 on a finding at least this severe (never: findings leave the exit status 0)")
    k.add_argument("--baseline", default=None, metavar="FILE", help="fail only on findings this baseline does not hold (matched by tool name, code and schema path; default: none)")
    k.add_argument("--write-baseline", default=None, metavar="FILE", help="write every finding to FILE as the baseline and exit 0 (default: none)")
    r = sub.add_parser("rules", help="list, show or diff rule versions")
    rsub = r.add_subparsers(dest="rules_command", metavar="ACTION", parser_class=_Parser, help="run `toolcast rules ACTION --help` for its options")
    rl = rsub.add_parser("list", help="providers and rule versions")
    rl.add_argument("--format", default="text", choices=["text", "json"], help=FORMAT_HELP)
    rs = rsub.add_parser("show", help="one rule version's resolved tables")
    rs.add_argument("version", nargs="?", default=None, metavar="VERSION", help="VERSION, openai@VERSION or latest (default: the reviewed default)")
    rs.add_argument("--format", default="text", choices=["text", "json"], help=FORMAT_HELP)
    rm = rsub.add_parser("matrix", help="what every provider@version does with each keyword, limit and budget")
    rm.add_argument("--format", default="text", choices=["text", "json", "markdown"], help="text for people, json for machines, markdown for docs/matrix.md")
    rd = rsub.add_parser("diff", help="what changes between two rule versions (and, with --impact, for your tools)")
    rd.add_argument("old", metavar="A", help="VERSION, openai@VERSION or latest")
    rd.add_argument("new", metavar="B", help="VERSION, openai@VERSION or latest")
    rd.add_argument("--format", default="text", choices=["text", "json"], help=FORMAT_HELP)
    rd.add_argument("--impact", nargs="+", default=None, metavar="PATH", help="recompile these tools under A and B and report what changes")
    rd.add_argument("--api", default="responses", choices=["responses", "chat"], help="with --impact: the OpenAI API to compile for")
    rd.add_argument("--strict", default="auto", choices=["auto", "true", "false"], help="with --impact: " + STRICT_HELP)
    rd.add_argument("--allow-lossy", action="store_true", help="with --impact: compile as compile --allow-lossy does")
    rd.add_argument("--details", default="20", metavar="N|all", help="with --impact: how many tools the text output lists one by one (default: 20)")
    x = sub.add_parser("proxy", help="serve MCP on stdio in front of MCP servers, their tools compiled for a target")
    x.add_argument("--server", action="append", default=[], metavar="NAME=COMMAND|NAME=URL", help="a stdio MCP server command, or a Streamable HTTP URL, whose tools are exposed as NAME__TOOL (repeatable)")
    x.add_argument("--target", default="openai", metavar="TARGET", help=f"the provider dialect to compile the tools' input schemas to: {', '.join(EMITTERS)}")
    x.add_argument("--api", default=None, choices=["responses", "chat"],
                   help="with --target openai only: the API to compile for (responses when not given)")
    x.add_argument("--rules", default=None, metavar="VERSION", help="rule version (default: the reviewed default)")
    x.add_argument("--strict", default="auto", choices=["auto", "true"], help="auto: a tool that cannot be strict is listed with its original schema (rewritten only where the provider would reject it); true: it is left out")
    x.add_argument("--allow-lossy", action="store_true", help="send strict even when that accepts values the original rejects")
    x.add_argument("--timeout", type=seconds, default=60.0, metavar="SECONDS", help="how long each server may take to start and to answer one call")
    x.add_argument("--server-timeout", action="append", default=[], metavar="NAME=SECONDS", help="--timeout for one server (repeatable)")
    x.add_argument("--auth-env", action="append", default=[], metavar="NAME=VAR", help="send the environment variable VAR's value as the Authorization header to the URL server NAME (repeatable)")
    return p


def _load_all(args: argparse.Namespace, stdin: Any, err: IO[str] | None = None) -> tuple[list[Item], list[InputError]]:
    """Every PATH's and server's tools; a file's tools know their places (every report names them,
    and under --summary an input error still has its line and column)."""
    items: list[Item] = []
    errors: list[InputError] = []
    if not args.paths and not args.mcp and not args.mcp_url:
        raise UsageError(f"toolcast {args.command}: give at least one PATH (or - for stdin, or --mcp COMMAND, or --mcp-url URL)")
    if args.paths.count("-") > 1:
        raise UsageError(f"toolcast {args.command}: - (stdin) may be given once")
    # What this run writes or reads as other than tools is never read as a tool file.
    skip = tuple(Path(p) for p in (getattr(args, "out", None), getattr(args, "baseline", None),
                                   getattr(args, "write_baseline", None)) if p)
    for path in args.paths:
        try:
            got, errs = load(path, stdin=stdin, positions=True, name=args.name, skip=skip)
        except OSError as exc:  # (reading standard input: files are read by load, which says why not)
            got, errs = [], [InputError("<stdin>", f"cannot read: {exc.strerror or exc}")]
        items.extend(got)
        errors.extend(errs)
    for command in args.mcp:
        got, errs = _load_mcp(command, args.mcp_timeout, err)
        items.extend(got)
        errors.extend(errs)
    if args.mcp_url:
        headers = _auth_headers(args.mcp_auth_env, f"toolcast {args.command}")
        for url in args.mcp_url:
            got, errs = _load_mcp_url(url, headers, args.mcp_timeout, err)
            items.extend(got)
            errors.extend(errs)
    elif args.mcp_auth_env is not None:
        raise UsageError(f"toolcast {args.command}: --mcp-auth-env needs --mcp-url URL")
    if args.name is not None and sum(1 for i in items if i.bare) != 1:
        raise UsageError(f"toolcast {args.command}: --name names one bare JSON Schema; {sum(1 for i in items if i.bare)} were read")
    return items, errors


def _load_mcp(command: str, timeout: float, err: IO[str] | None = None) -> tuple[list[Item], list[InputError]]:
    source = f"mcp:{command}"
    try:
        from toolcast.mcp_runtime import McpServerError, list_tools_stdio_sync
    except ImportError as exc:  # pragma: no cover - the mcp extra is missing
        return [], [InputError(source, f"--mcp needs the official MCP SDK (pip install 'toolcast[mcp]'): {exc}")]
    try:
        # What the server printed besides its messages: one warning line each, and go on.
        warn = (lambda line: err.write(f"toolcast: warning: {line}\n")) if err is not None else None
        tools = list_tools_stdio_sync(command, timeout=timeout, on_problem=warn)
    except McpServerError as exc:
        return [], [InputError(source, str(exc))]
    return text_only([Item(f"{source}#tools[{i}]", t) for i, t in enumerate(tools)])


def _auth_headers(var: str | None, prog: str) -> dict[str, str]:
    """The Authorization header from the environment variable VAR (never from the command line)."""
    if var is None:
        return {}
    value = os.environ.get(var, "").strip()
    if not value:
        raise UsageError(f"{prog}: --mcp-auth-env {var}: the environment variable {var} is not set or empty")
    return {"Authorization": value if " " in value else f"Bearer {value}"}


def _load_mcp_url(url: str, headers: dict[str, str], timeout: float, err: IO[str] | None = None) -> tuple[list[Item], list[InputError]]:
    try:
        from toolcast.mcp_runtime import McpServerError, _shown_url, list_tools_http_sync
    except ImportError as exc:  # pragma: no cover - the mcp extra is missing
        return [], [InputError(f"mcp:{url}", f"--mcp-url needs the official MCP SDK (pip install 'toolcast[mcp]'): {exc}")]
    source = f"mcp:{_shown_url(url)}"  # no user info or query: they may hold a secret
    try:
        warn = (lambda line: err.write(f"toolcast: warning: {line}\n")) if err is not None else None
        tools = list_tools_http_sync(url, headers=headers, timeout=timeout, on_problem=warn)
    except McpServerError as exc:
        return [], [InputError(source, str(exc))]
    return text_only([Item(f"{source}#tools[{i}]", t) for i, t in enumerate(tools)])


def _rules(args: argparse.Namespace) -> Any:
    """The rules for --rules under --target's provider (a usage error when they do not fit)."""
    try:
        _, args.api, rules = compile_target(args.target, args.api, args.rules)
    except ValueError as exc:
        raise UsageError(f"toolcast {args.command}: {exc}") from None
    return rules


def _iter_compiled(items: list[Item], args: argparse.Namespace, errors: list[InputError],
                   over: list[dict] | None = None) -> Iterator[tuple[str, CompileResult, Any]]:
    """Compile each item in turn, appending input errors to `errors`; yields (source, result,
    the item's place in its file). With --request the tools are one request, whose budgets apply
    to them in order; else they are a set of definitions, and once the last is compiled `over`
    gets the budgets they would exceed sent together (budgets.Tally.exceeded).

    Consumes `items` as it goes, so each input tool can be freed once compiled: with results
    written out as they come, memory stays near the size of the parsed input.
    """
    rules = _rules(args)
    budget = request_budget(target=args.target, api=args.api, rules=rules, strict=args.strict)
    request = getattr(args, "request", False)
    tally = None if request else Tally(rules, budget.emitter)
    seen: set[str] = set()
    items.reverse()
    while items:
        item = items.pop()
        try:
            res = compile_tool(item.tool, target=args.target, api=args.api, rules=rules, strict=args.strict, allow_lossy=args.allow_lossy,
                               optional_null=args.optional_null)
        except InvalidToolError as exc:
            errors.append(InputError(item.source, str(exc), *_place(item, exc.field)))
            continue
        except RecursionError:
            errors.append(InputError(item.source, "the tool is nested too deeply to compile"))
            continue
        except Exception as exc:  # one bad tool never stops the others
            if os.environ.get("TOOLCAST_DEBUG"):
                raise
            errors.append(InputError(item.source, f"internal error while compiling: {type(exc).__name__}: {exc}"))
            continue
        res = refuse_repeated_name(res, seen, rules)
        if tally is None:  # --request: the tools are one request, its budgets apply over all of them, in order
            res, _ = budget.take(item.tool, res)
        else:
            tally.add(res)
        yield item.source, res, item.where
    if tally is not None and over is not None:
        over.extend(tally.exceeded())


def _meta(args: argparse.Namespace) -> dict:
    rules = _rules(args)
    return {
        "toolcast": __version__,
        "target": args.target,
        "api": args.api,
        "rules": rules.id,
        "strict": args.strict,
        "allow_lossy": bool(args.allow_lossy),
        # Only when chosen: the default run's document stays byte for byte what it was.
        **({"optional_null": args.optional_null} if getattr(args, "optional_null", "value") != "value" else {}),
    }


def cmd_compile_or_check(args: argparse.Namespace, out: IO[str], stdin: Any, err: IO[str] | None = None) -> int:
    from toolcast import render

    err = err or sys.stderr
    _rules(args)  # an unknown version, or one of another provider, is a usage error before any work
    watch = args.command == "compile" and args.fail_on_change
    if watch and not args.out:
        raise UsageError("toolcast compile: --fail-on-change needs --out DIR")
    known = _read_baseline(args)
    items, errors = _load_all(args, stdin, err)
    meta = _meta(args)
    out_dir = args.out if args.command == "compile" else None
    failed_early = bool(errors)  # then DIR is not even locked; a bad DIR is an error of its own
    before = snapshot(Path(out_dir)) if watch else None
    batch = open_out(out_dir, meta, errors) if out_dir else None
    out = Unread(out)
    sink = report_sink(args, out, meta, known)
    # SARIF, annotations and a baseline to write need every result at the end; text and JSON do not.
    kept: list | None = [] if args.format in ("sarif", "github") or getattr(args, "write_baseline", None) else None
    refused = hit = False
    floor = render.SEVERITY_RANK.get(getattr(args, "fail_on", "error"), 2)
    counted = render.shows(False, known)
    over: list[dict] = []  # (without --request) the request budgets the tools would exceed sent together
    try:
        for source, res, where in _iter_compiled(items, args, errors, over):
            sink.add(source, res, where)
            if kept is not None:
                kept.append((source, res, where))
            if batch is not None:
                batch = add_out(batch, source, res, errors)
            refused = refused or res.status == "refused"
            hit = hit or any(render.SEVERITY_RANK[d.severity] >= floor and counted(res, d) for d in res.diagnostics)
        say = failed_early or batch is not None
        written = finish_out(batch, out_dir, errors, err, say) if out_dir else None
        batch = None  # switched in, or left and said so
        changed = watch and snapshot(Path(out_dir)) != before
        baseline_written = write_baseline(args, [(s, r) for s, r, _ in kept or ()], errors)
        sink.finish(errors, written, over)
        if baseline_written is not None and args.format == "text":
            out.write(f"wrote {baseline_written} finding(s) to the baseline {render.shown_text(args.write_baseline)}\n")
        if changed and args.format == "text":
            out.write(f"--out {render.shown_text(args.out)} changed: regenerated files to review and commit\n")
        out.flush()
    except OSError as exc:  # the report itself cannot be written (a full disk under stdout or TMPDIR)
        where = " (the JSON document is held in a temporary file until the summary is known: set TMPDIR to a " \
                "directory with room)" if isinstance(exc, render.SpoolError) else ""
        err.write(f"toolcast: cannot write the report: {exc.strerror or exc}{where}\n")
        _left_unchanged(batch, out_dir, err)
        return EXIT_USAGE
    except BaseException:
        _left_unchanged(batch, out_dir, err)  # (an internal error or ^C: said as for any other error)
        raise
    finally:
        if batch is not None:
            batch.abort()  # interrupted (^C): DIR as it was; after a commit this only unlocks
    if errors:
        return EXIT_USAGE
    if args.command == "compile":
        return EXIT_FINDINGS if changed or refused else EXIT_OK
    if args.fail_on == "never" or baseline_written is not None:
        return EXIT_OK
    return EXIT_FINDINGS if hit else EXIT_OK


def _left_unchanged(batch: Any, out_dir: str | None, err: IO[str]) -> None:
    if batch is not None and not batch.switched:
        err.write(f"toolcast: {out_dir}: left unchanged\n")


def _read_baseline(args: argparse.Namespace) -> set | None:
    if args.command != "check" or args.baseline is None:
        return None
    from toolcast.baseline import BaselineError, read

    try:
        return read(args.baseline)
    except BaselineError as exc:
        raise UsageError(f"toolcast check: {exc.error}") from None


def cmd_rules(args: argparse.Namespace, out: IO[str], stdin: Any = None) -> int:
    from toolcast import rules_cli

    if args.rules_command == "list":
        return rules_cli.list_versions(out, args.format)
    if args.rules_command == "show":
        return rules_cli.show(out, args.version, args.format)
    if args.rules_command == "matrix":
        from toolcast import matrix

        out.write(matrix.render(matrix.of_all(), args.format))
        return 0
    if args.rules_command == "diff":
        if args.details != "all" and not args.details.isdigit():
            raise UsageError("toolcast rules diff: --details takes a number or 'all'")
        get_rules(args.old), get_rules(args.new)  # an unknown version is a usage error before any work
        code = rules_cli.diff(out, args.old, args.new, args.format, args.impact, api=args.api,
                              strict=args.strict, allow_lossy=args.allow_lossy, details=args.details, stdin=stdin)
        return code
    raise UsageError("toolcast rules: choose list, show, matrix or diff")


class _Closed:
    """A standard stream the process was started without (`<&-`, `>&-`): reading or writing it
    fails with a plain OSError, as a closed descriptor would (`discard`: writes are dropped)."""

    def __init__(self, name: str, *, discard: bool = False) -> None:
        self.name, self.discard = name, discard

    def read(self, *_: Any) -> bytes:
        raise OSError(errno.EBADF, "standard input is closed", "<stdin>")

    def write(self, text: str) -> int:
        if self.discard:
            return len(text)
        raise OSError(errno.EBADF, f"standard {self.name} is closed")

    def flush(self) -> None:
        pass


def _replacing(stream: Any) -> Any:
    """`stream`, set to write a character its encoding lacks as an escape (\\u2713) instead of
    failing: a report to an ASCII or cp1252 console (PYTHONIOENCODING=ascii) is still a report."""
    if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
        with contextlib.suppress(ValueError, OSError):  # (closed or detached: writing fails as before)
            stream.reconfigure(errors="backslashreplace")
    return stream


def _exit_on_signal(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def _terminate_as_exit() -> Iterator[None]:
    """SIGTERM ends the run as ^C does, through the `finally`s that leave --out DIR as it was
    (without them, a DIR the run created stays, empty, beside its staging directory)."""
    import signal

    try:
        previous = signal.signal(signal.SIGTERM, _exit_on_signal)
    except ValueError:  # (not the main thread: the signal cannot be caught here)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _json_safe(stream: Any) -> Any:
    """`stream`, set so that JSON written to it stays JSON whatever its encoding: a character it
    cannot hold is written as JSON's escape (`\\u00e9`), never as a Python one (`\\xe9`). A stream
    in another encoding than UTF-8 gets ASCII only, which reads the same in UTF-8 and in its own."""
    from toolcast._jsonout import ESCAPE

    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str) or not hasattr(stream, "reconfigure"):
        return stream
    with contextlib.suppress(LookupError, ValueError, OSError):  # (unknown, closed or detached: as it was)
        name = codecs.lookup(encoding).name
        ascii_text = bytes(range(128))
        if name != "utf-8" and ascii_text.decode("ascii").encode(name) == ascii_text:
            stream.reconfigure(encoding="ascii", errors=ESCAPE)
        else:
            stream.reconfigure(errors=ESCAPE)
    return stream


def main(argv: Sequence[str] | None = None, *, stdout: IO[str] | None = None, stderr: IO[str] | None = None, stdin: Any = None) -> int:
    out = stdout or _replacing(sys.stdout) or _Closed("output")
    err = stderr or _replacing(sys.stderr) or _Closed("error", discard=True)
    if stdin is None:  # (read only for a PATH of -)
        stdin = _Closed("input") if sys.stdin is None else getattr(sys.stdin, "buffer", sys.stdin)
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
        if stdout is None and getattr(args, "format", None) in ("json", "sarif"):
            out = _json_safe(out)
        if args.command in ("compile", "check"):
            with _terminate_as_exit():
                return cmd_compile_or_check(args, out, stdin, err)
        if args.command == "rules":
            return cmd_rules(args, out, stdin)
        if args.command == "proxy":
            from toolcast.proxy import main_cli

            for name, stream in (("input", sys.stdin), ("output", sys.stdout)):
                if stream is None:
                    raise UsageError(f"toolcast proxy: standard {name} is closed; the proxy serves MCP on standard "
                                     "input and output")
            return main_cli(args, err)
        parser.print_help(out)
        return EXIT_USAGE
    except UsageError as exc:
        err.write(f"{exc}\n")
        return EXIT_USAGE
    except UnknownRulesError as exc:
        err.write(f"toolcast: {exc}\n")
        return EXIT_USAGE
    except ToolcastError as exc:
        err.write(f"toolcast: {exc}\n")
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:  # stdout cannot be written (a full disk, /dev/full), or a file named in the error
        if exc.filename:
            err.write(f"toolcast: {exc.filename}: {exc.strerror or exc}\n")
        else:
            err.write(f"toolcast: cannot write the output: {exc.strerror or exc}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        err.write("toolcast: interrupted\n")
        return 130
    except SystemExit as exc:  # argparse --help / --version
        return int(exc.code or 0)
    except Exception as exc:
        if os.environ.get("TOOLCAST_DEBUG"):
            raise
        err.write(f"toolcast: internal error: {type(exc).__name__}: {exc} (set TOOLCAST_DEBUG=1 for details)\n")
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
