"""The `toolcast` command line: compile, check and rules."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from toolcast import __version__
from toolcast.compile import InvalidToolError, compile_tool, refuse_repeated_name
from toolcast.loader import InputError, Item, load
from toolcast.model import CompileResult, ToolcastError, UnknownRulesError
from toolcast.rules import get_rules

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would exit itself; keep one exit path
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="toolcast", description="Compile LLM tool definitions into OpenAI strict function tools and report every change.")
    p.add_argument("--version", action="version", version=f"toolcast {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("paths", nargs="*", metavar="PATH", help="tool file(s): one tool, a list, {\"tools\": [...]}, JSON Lines or YAML; - reads stdin")
        sp.add_argument("--target", default="openai", choices=["openai"])
        sp.add_argument("--api", default="responses", choices=["responses", "chat"])
        sp.add_argument("--rules", default=None, metavar="VERSION", help="rule version: VERSION, openai@VERSION or latest (default: the reviewed default)")
        sp.add_argument("--strict", default="auto", choices=["auto", "true", "false"])
        sp.add_argument("--allow-lossy", action="store_true", help="send strict even when that accepts values the original rejects")
        sp.add_argument("--optional-null", default="value", choices=["value", "omit"],
                        help="an optional property that already accepts null: 'value' (default) sends it required, so "
                             "the handler receives the model's null; 'omit' strips that null too (lossy: an explicit "
                             "null can no longer be sent)")
        sp.add_argument("--format", default="text", choices=["text", "json"])
        sp.add_argument("--mcp", action="append", default=[], metavar="COMMAND", help="start a stdio MCP server with this command and use its tools")
        sp.add_argument("--mcp-timeout", type=float, default=30.0, metavar="SECONDS", help=argparse.SUPPRESS)

    c = sub.add_parser("compile", help="compile tools; exit 1 if a tool was refused")
    common(c)
    c.add_argument("--out", metavar="DIR", help="write one file per tool plus manifest.json here")
    k = sub.add_parser("check", help="report findings only; exit 1 at --fail-on")
    common(k)
    k.add_argument("--fail-on", default="error", choices=["error", "warning", "never"])
    r = sub.add_parser("rules", help="list, show or diff rule versions")
    rsub = r.add_subparsers(dest="rules_command", metavar="ACTION", parser_class=_Parser)
    rl = rsub.add_parser("list", help="providers and rule versions")
    rl.add_argument("--format", default="text", choices=["text", "json"])
    rs = rsub.add_parser("show", help="one rule version's resolved tables")
    rs.add_argument("version", nargs="?", default=None, metavar="VERSION", help="VERSION, openai@VERSION or latest (default: the reviewed default)")
    rs.add_argument("--format", default="text", choices=["text", "json"])
    rd = rsub.add_parser("diff", help="what changes between two rule versions (and, with --impact, for your tools)")
    rd.add_argument("old", metavar="A", help="VERSION, openai@VERSION or latest")
    rd.add_argument("new", metavar="B", help="VERSION, openai@VERSION or latest")
    rd.add_argument("--format", default="text", choices=["text", "json"])
    rd.add_argument("--impact", nargs="+", default=None, metavar="PATH", help="recompile these tools under A and B and report what changes")
    rd.add_argument("--api", default="responses", choices=["responses", "chat"])
    rd.add_argument("--strict", default="auto", choices=["auto", "true", "false"])
    rd.add_argument("--allow-lossy", action="store_true")
    rd.add_argument("--details", default="20", metavar="N|all", help="tools listed in text output (default 20)")
    return p


def _load_all(args: argparse.Namespace, stdin: Any) -> tuple[list[Item], list[InputError]]:
    items: list[Item] = []
    errors: list[InputError] = []
    if not args.paths and not args.mcp:
        raise UsageError(f"toolcast {args.command}: give at least one PATH (or - for stdin, or --mcp COMMAND)")
    if args.paths.count("-") > 1:
        raise UsageError(f"toolcast {args.command}: - (stdin) may be given once")
    for path in args.paths:
        got, errs = load(path, stdin=stdin)
        items.extend(got)
        errors.extend(errs)
    for command in args.mcp:
        got, errs = _load_mcp(command, args.mcp_timeout)
        items.extend(got)
        errors.extend(errs)
    return items, errors


def _load_mcp(command: str, timeout: float) -> tuple[list[Item], list[InputError]]:
    source = f"mcp:{command}"
    try:
        from toolcast.mcp_runtime import McpServerError, list_tools_stdio_sync
    except ImportError as exc:  # pragma: no cover - the mcp extra is missing
        return [], [InputError(source, f"--mcp needs the official MCP SDK (pip install 'toolcast[mcp]'): {exc}")]
    try:
        tools = list_tools_stdio_sync(command, timeout=timeout)
    except McpServerError as exc:
        return [], [InputError(source, str(exc))]
    return [Item(f"{source}#tools[{i}]", t) for i, t in enumerate(tools)], []


def _compile_items(items: Sequence[Item], args: argparse.Namespace, errors: list[InputError]) -> list[tuple[str, CompileResult]]:
    rules = get_rules(args.rules)
    results: list[tuple[str, CompileResult]] = []
    seen: set[str] = set()
    for item in items:
        try:
            res = compile_tool(item.tool, target=args.target, api=args.api, rules=rules, strict=args.strict, allow_lossy=args.allow_lossy,
                               optional_null=args.optional_null)
        except InvalidToolError as exc:
            errors.append(InputError(item.source, str(exc)))
            continue
        except RecursionError:
            errors.append(InputError(item.source, "the tool is nested too deeply to compile"))
            continue
        except Exception as exc:  # one bad tool never stops the others
            if os.environ.get("TOOLCAST_DEBUG"):
                raise
            errors.append(InputError(item.source, f"internal error while compiling: {type(exc).__name__}: {exc}"))
            continue
        results.append((item.source, refuse_repeated_name(res, seen, rules)))
    return results


def _meta(args: argparse.Namespace) -> dict:
    rules = get_rules(args.rules)
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


def cmd_compile_or_check(args: argparse.Namespace, out: IO[str], stdin: Any) -> int:
    from toolcast import render

    get_rules(args.rules)  # an unknown version is a usage error before any work
    items, errors = _load_all(args, stdin)
    results = _compile_items(items, args, errors)
    written = None
    if args.command == "compile" and args.out:
        from toolcast import outdir

        meta = _meta(args)
        try:
            written = outdir.write(Path(args.out), results, meta)
        except OSError as exc:
            errors.append(InputError(args.out, f"cannot write output: {exc.strerror or exc}"))
    if args.format == "json":
        doc = render.document(results, errors, command=args.command, meta=_meta(args))
        if written is not None:
            doc["out"] = {"dir": args.out, "files": written}
        out.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    else:
        render.render_text(out, results, errors, command=args.command, written=written, out_dir=getattr(args, "out", None))
    if errors:
        return EXIT_USAGE
    if args.command == "compile":
        return EXIT_FINDINGS if any(r.status == "refused" for _, r in results) else EXIT_OK
    if args.fail_on == "never":
        return EXIT_OK
    floor = render.SEVERITY_RANK[args.fail_on]
    hit = any(render.SEVERITY_RANK[d.severity] >= floor for _, r in results for d in r.diagnostics)
    return EXIT_FINDINGS if hit else EXIT_OK


def cmd_rules(args: argparse.Namespace, out: IO[str], stdin: Any = None) -> int:
    from toolcast import rules_cli

    if args.rules_command == "list":
        return rules_cli.list_versions(out, args.format)
    if args.rules_command == "show":
        return rules_cli.show(out, args.version, args.format)
    if args.rules_command == "diff":
        if args.details != "all" and not args.details.isdigit():
            raise UsageError("toolcast rules diff: --details takes a number or 'all'")
        get_rules(args.old), get_rules(args.new)  # an unknown version is a usage error before any work
        code = rules_cli.diff(out, args.old, args.new, args.format, args.impact, api=args.api,
                              strict=args.strict, allow_lossy=args.allow_lossy, details=args.details, stdin=stdin)
        return code
    raise UsageError("toolcast rules: choose list, show or diff")


def main(argv: Sequence[str] | None = None, *, stdout: IO[str] | None = None, stderr: IO[str] | None = None, stdin: Any = None) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
        if args.command in ("compile", "check"):
            return cmd_compile_or_check(args, out, stdin)
        if args.command == "rules":
            return cmd_rules(args, out, stdin)
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
