"""The `toolcast` command line: compile, check and rules."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from toolcast.cli.inputs import _auth_headers, _load_all, _load_mcp, _load_mcp_url  # noqa: F401 (their names here too)
from toolcast.cli.outputs import (
    Unread,
    add_out,
    finish_out,
    open_out,
    report_sink,
    snapshot,
    switch_out,
    write_baseline,
)
from toolcast.cli.parser import (  # noqa: F401 (build_parser, seconds and the help texts keep their names here)
    DIRECTORY_RULE,
    FORMAT_HELP,
    STRICT_HELP,
    UsageError,
    build_parser,
    seconds,
    targets_of,
)
from toolcast.cli.run import _iter_compiled, _meta, _read_baseline, _rules
from toolcast.cli.streams import _Closed, _json_safe, _replacing, _terminate_as_exit
from toolcast.gate import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE  # noqa: F401 (their names here too)
from toolcast.model import ToolcastError, UnknownRulesError
from toolcast.rules import env_error, get_rules, take_spec_options


def cmd_compile_or_check(args: argparse.Namespace, out: IO[str], stdin: Any, err: IO[str] | None = None) -> int:
    from toolcast import gate, render

    err = err or sys.stderr
    if args.command == "compile" and args.out == "":  # (an unset "$GEN": not the same as no --out)
        raise UsageError("toolcast compile: --out is empty; give a directory")
    targets = targets_of(args)
    if len(targets) > 1:  # (one target: the run below, its output as it always was)
        from toolcast.cli import multi as cli_multi

        with _terminate_as_exit():
            return cli_multi.run(args, out, stdin, err, targets)
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
    batch = open_out(out_dir, meta, errors, _target_names(), getattr(args, "config_dir", None)) if out_dir else None
    out = Unread(out)
    sink = report_sink(args, out, meta, known)
    # SARIF, annotations and a baseline to write need every result at the end; text and JSON do not.
    kept: list | None = [] if args.format in ("sarif", "github") or getattr(args, "write_baseline", None) else None
    refused = hit = False
    fail_on = getattr(args, "fail_on", "never")
    over: list[dict] = []  # (without --request) the request budgets the tools would exceed sent together
    try:
        for source, res, where in _iter_compiled(items, args, errors, over):
            sink.add(source, res, where)
            if kept is not None:
                kept.append((source, res, where))
            if batch is not None:
                batch = add_out(batch, source, res, errors)
            refused = refused or res.status == "refused"
            hit = hit or bool(gate.failing(res, fail_on, known))
        say = failed_early or batch is not None
        written = finish_out(batch, out_dir, errors, err, say) if out_dir else None  # (built beside DIR)
        if written is None:
            batch = None  # left, and said so
        changed = watch and written is not None and (snapshot(batch.staged[1]) != before or bool(batch.removed))
        baseline_written = write_baseline(args, [(s, r) for s, r, _ in kept or ()], errors)
        sink.finish(errors, written, over)
        if baseline_written is not None and args.format == "text":
            out.write(f"wrote {baseline_written} finding(s) to the baseline {render.shown_text(args.write_baseline)}\n")
        if changed and args.format == "text":
            out.write(f"--out {render.shown_text(args.out)} changed: regenerated files to review and commit\n")
        out.flush()
        if batch is not None:  # (the report written: only now is DIR switched in)
            switch_out(batch, written, errors, err)
            batch = None
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
    return gate.exit_code(args, errors, changed, refused, hit, baseline_written)


def _target_names() -> list[str]:
    """The folders a run for several targets gives --out DIR, which a one-target run's DIR replaces."""
    from toolcast.providers import EMITTERS

    return list(EMITTERS)


def _left_unchanged(batch: Any, out_dir: str | None, err: IO[str]) -> None:
    if batch is not None and not batch.switched:
        err.write(f"toolcast: {out_dir}: left unchanged\n")


def cmd_rules(args: argparse.Namespace, out: IO[str], stdin: Any = None) -> int:
    from toolcast.cli import rules as rules_cli

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


def _run_handler(handler: Any, args: argparse.Namespace, out: IO[str], stdin: Any, err: IO[str]) -> int:
    """Run a subcommand's handler: a function, or "module:function" imported only now."""
    if isinstance(handler, str):
        import importlib

        module, _, name = handler.partition(":")
        handler = getattr(importlib.import_module(module), name)
    return handler(args, out, stdin, err)


def main(argv: Sequence[str] | None = None, *, stdout: IO[str] | None = None, stderr: IO[str] | None = None, stdin: Any = None) -> int:
    out = stdout or _replacing(sys.stdout) or _Closed("output")
    err = stderr or _replacing(sys.stderr) or _Closed("error", discard=True)
    if stdin is None:  # (read only for a PATH of -)
        stdin = _Closed("input") if sys.stdin is None else getattr(sys.stdin, "buffer", sys.stdin)
    try:  # `--spec DIR` before the command: a spec folder's providers, loaded before the parser lists targets
        argv = take_spec_options(list(argv) if argv is not None else sys.argv[1:])
        unloaded = env_error()  # (TOOLCAST_SPEC_PATH's folders: an error in one is said as --spec's is)
        if unloaded is not None:
            raise unloaded
    except UnknownRulesError as exc:
        err.write(f"toolcast: {exc}\n")
        return EXIT_USAGE
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command in ("compile", "check", "diff"):  # [tool.toolcast] fills in what no flag gave
            from toolcast.config import apply_config

            apply_config(args, argv)
        if stdout is None and getattr(args, "format", None) in ("json", "sarif"):
            out = _json_safe(out)
        if args.command in ("compile", "check"):
            with _terminate_as_exit():
                return cmd_compile_or_check(args, out, stdin, err)
        if args.command == "rules":
            return cmd_rules(args, out, stdin)
        if args.command == "proxy":
            try:
                from toolcast.proxy import main_cli
            except ImportError as exc:  # a base install: the mcp extra (anyio, the MCP SDK) is missing
                if (exc.name or "toolcast").startswith("toolcast"):
                    raise
                raise UsageError(f"toolcast proxy needs the official MCP SDK (pip install 'toolcast[mcp]'): {exc}") from None

            for name, stream in (("input", sys.stdin), ("output", sys.stdout)):
                if stream is None:
                    raise UsageError(f"toolcast proxy: standard {name} is closed; the proxy serves MCP on standard "
                                     "input and output")
            return main_cli(args, err)
        handler = getattr(args, "handler", None)  # a subcommand registered as cli.parser says
        if handler is not None:
            return _run_handler(handler, args, out, stdin, err)
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
