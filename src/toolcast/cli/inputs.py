"""Reading a compile or check run's tools: its PATHs, --mcp commands and --mcp-url servers."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import IO, Any

from toolcast.cli.parser import UsageError
from toolcast.loader import InputError, Item, load, text_only


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
    passed: list[tuple[Path, str]] = []
    for path in args.paths:
        try:
            got, errs = load(path, stdin=stdin, positions=True, name=args.name, skip=skip, passed=passed,
                             base=getattr(args, "config_dir", None))
        except OSError as exc:  # (reading standard input: files are read by load, which says why not)
            got, errs = [], [InputError("<stdin>", f"cannot read: {exc.strerror or exc}")]
        items.extend(got)
        errors.extend(errs)
    # (each report says them: a folder of tools is never left out in silence)
    args.skipped = [(str(p), why) for p, why in passed]
    env = _passed_env(getattr(args, "mcp_env", []), f"toolcast {args.command}")
    if env and not args.mcp:
        raise UsageError(f"toolcast {args.command}: --mcp-env needs --mcp COMMAND")
    for command in args.mcp:
        got, errs = _load_mcp(command, args.mcp_timeout, err, env)
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


def _passed_env(names: list[str], prog: str) -> dict[str, str] | None:
    """The variables --mcp-env names, from this process's environment (values never shown)."""
    env: dict[str, str] = {}
    for var in names:
        if var not in os.environ:
            raise UsageError(f"{prog}: --mcp-env {var}: the environment variable {var} is not set")
        env[var] = os.environ[var]
    return env or None


def _load_mcp(command: str, timeout: float, err: IO[str] | None = None,
              env: dict[str, str] | None = None) -> tuple[list[Item], list[InputError]]:
    source = f"mcp:{command}"
    try:
        from toolcast.mcp_runtime import McpServerError, list_tools_stdio_sync
    except ImportError as exc:  # pragma: no cover - the mcp extra is missing
        return [], [InputError(source, f"--mcp needs the official MCP SDK (pip install 'toolcast[mcp]'): {exc}")]
    try:
        # What the server printed besides its messages: one warning line each, and go on.
        warn = (lambda line: err.write(f"toolcast: warning: {line}\n")) if err is not None else None
        tools = list_tools_stdio_sync(command, timeout=timeout, on_problem=warn, env=env)
    except McpServerError as exc:
        return [], [InputError(source, str(exc))]
    return text_only([Item(f"{source}#tools[{i}]", t) for i, t in enumerate(tools)])


def _auth_headers(var: str | None, prog: str) -> dict[str, str]:
    """The Authorization header from the environment variable VAR (never from the command line)."""
    if var is None:
        return {}
    from toolcast._runtime.mcp_http import authorization

    try:
        return {"Authorization": authorization(os.environ.get(var, ""), f"{prog}: --mcp-auth-env {var}: the "
                                               f"environment variable {var}")}
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _load_mcp_url(url: str, headers: dict[str, str], timeout: float, err: IO[str] | None = None) -> tuple[list[Item], list[InputError]]:
    try:
        from toolcast.mcp_runtime import McpServerError, _shown_url, list_tools_http_sync
    except ImportError as exc:  # pragma: no cover - the mcp extra is missing
        # (stdlib only: the message never shows the URL's user info)
        from toolcast._runtime.mcp_http import _shown_url

        return [], [InputError(f"mcp:{_shown_url(url)}", f"--mcp-url needs the official MCP SDK (pip install 'toolcast[mcp]'): {exc}")]
    source = f"mcp:{_shown_url(url)}"  # no user info or query: they may hold a secret
    try:
        warn = (lambda line: err.write(f"toolcast: warning: {line}\n")) if err is not None else None
        tools = list_tools_http_sync(url, headers=headers, timeout=timeout, on_problem=warn)
    except McpServerError as exc:
        return [], [InputError(source, str(exc))]
    return text_only([Item(f"{source}#tools[{i}]", t) for i, t in enumerate(tools)])
