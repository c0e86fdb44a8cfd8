"""`[tool.toolcast]` in pyproject.toml: found from the working directory upward, checked, applied under the flags; `toolcast config`."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import IO, Any

from toolcast.cli.parser import UsageError, build_parser

KEYS = ("paths", "targets", "strict", "enforce", "fail-on", "baseline", "out")
# The flag each key stands for, and its argparse dest.
FLAG = {"targets": "--target", "strict": "--strict", "enforce": "--enforce", "fail-on": "--fail-on",
        "baseline": "--baseline", "out": "--out"}
DEST = {"paths": "paths", "targets": "target", "strict": "strict", "enforce": "enforce", "fail-on": "fail_on",
        "baseline": "baseline", "out": "out"}
# Which keys each command takes (diff takes `paths` only with --git; `fail-on` is check's levels).
APPLIES = {"compile": {"paths", "targets", "strict", "enforce", "out"},
           "check": {"paths", "targets", "strict", "enforce", "fail-on", "baseline"},
           "diff": {"paths", "targets", "strict", "enforce"}}
_EXPECTED = {"paths": "a list of strings", "targets": "a string or a list of strings",
             "strict": '"auto", "true", "false" or a boolean', "enforce": "a boolean", "fail-on": "a string",
             "baseline": "a string", "out": "a string"}


class ConfigError(UsageError):
    """A pyproject.toml that cannot be read, or a [tool.toolcast] key unknown or of the wrong type."""


class Config:
    """The [tool.toolcast] table of one pyproject.toml: `values` by key, checked for type; paths
    (paths, baseline, out) are relative to the file's directory, `text` gives each as its flag's text."""

    def __init__(self, path: Path, values: dict[str, Any]) -> None:
        self.path, self.values = path, values

    def resolved(self, p: str) -> str:
        """A path of the file, as a path from the working directory (as if typed there)."""
        if os.path.isabs(p):
            return p
        full = os.path.join(self.path.parent, p)
        try:
            return os.path.relpath(full)
        except ValueError:  # (another drive)
            return full

    def text(self, key: str) -> Any:
        """The key's value as its flag would be given: a string (paths: a list of them; enforce: a bool)."""
        v = self.values[key]
        if key == "paths":
            return [self.resolved(p) for p in v]
        if key == "targets":
            return v if isinstance(v, str) else ",".join(v)
        if key == "strict":
            return ("true" if v else "false") if isinstance(v, bool) else v
        if key in ("baseline", "out"):
            return self.resolved(v)
        return v


def _read_toml(path: Path) -> dict:
    """The parsed file; {} for one that does not name toolcast at all (most projects' files: every
    run reads them, and parsing is the cost of a run's start-up, tomllib's import included)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise ConfigError(f"toolcast: {path}: cannot read: {exc.strerror or exc}") from None
    if b"toolcast" not in data:  # (a [tool.toolcast] table names it, unless spelt with \u escapes)
        return {}
    import tomllib

    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"toolcast: {path}: invalid TOML: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"toolcast: {path}: invalid TOML: {exc}") from None


def find(start: Path | None = None) -> tuple[Path, Any] | None:
    """(the file, its [tool.toolcast] value) of the nearest pyproject.toml from `start` (the working
    directory) upward that has that table, as ruff finds its settings; None when there is none."""
    here = Path(start if start is not None else os.getcwd()).absolute()
    for d in (here, *here.parents):
        f = d / "pyproject.toml"
        if f.is_file():
            tool = _read_toml(f).get("tool")
            if isinstance(tool, dict) and "toolcast" in tool:
                return f, tool["toolcast"]
    return None


def _type_ok(key: str, v: Any) -> bool:
    strings = isinstance(v, list) and all(isinstance(x, str) and x for x in v)
    if key == "paths":
        return strings and bool(v)
    if key == "targets":
        return (isinstance(v, str) and bool(v)) or (strings and bool(v))
    if key == "strict":
        return isinstance(v, bool) or v in ("auto", "true", "false")
    if key == "enforce":
        return isinstance(v, bool)
    return isinstance(v, str) and bool(v)


def load_config(start: Path | None = None) -> Config | None:
    """The checked [tool.toolcast] table in force (None: none found). ConfigError names the file and
    the key for a table that is not one, an unknown key and a value of the wrong type."""
    found = find(start)
    if found is None:
        return None
    path, table = found
    if not isinstance(table, dict):
        raise ConfigError(f"toolcast: {path}: [tool.toolcast] must be a table, not {type(table).__name__}")
    for key, v in table.items():
        if key not in KEYS:
            hint = f" (did you mean {key.replace('_', '-')!r}?)" if key.replace("_", "-") in KEYS else ""
            raise ConfigError(f"toolcast: {path}: [tool.toolcast]: unknown key {key!r}{hint}; "
                              f"the keys are {', '.join(KEYS)}")
        if not _type_ok(key, v):
            raise ConfigError(f"toolcast: {path}: [tool.toolcast] {key}: expected {_EXPECTED[key]}, not {_shown(v)}")
    return Config(path, dict(table))


def _shown(v: Any) -> str:
    kind = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "a table"}.get(type(v), type(v).__name__)
    return f"{kind} ({json.dumps(v, default=str)[:60]})"


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]


_UNSET = object()


def _given(command: str, argv: list[str]) -> set[str]:
    """The dests of the options the command line gave (parsed again with every default unset)."""
    parser = build_parser()
    sub = _subparser(parser, command)
    dests = {a.dest for a in sub._actions if a.option_strings and a.dest != "help"}
    # (an append action appends to its default: theirs stays None, which no given flag leaves)
    appends = {a.dest for a in sub._actions if isinstance(a, argparse._AppendAction)}
    sub.set_defaults(**{d: None if d in appends else _UNSET for d in dests})
    ns = parser.parse_args(argv)
    return {d for d in dests if getattr(ns, d, _UNSET) is not (None if d in appends else _UNSET)}


def _apply_flag(sub: argparse.ArgumentParser, args: argparse.Namespace, key: str, text: Any, label: str) -> None:
    """Set `key` on `args` as its flag given `text` would (its type, choices and action); an error
    names `label` (the file and key, or the flag)."""
    action = sub._option_string_actions.get(FLAG[key])
    if action is None:  # (a flag this command has not got: set as it would be)
        setattr(args, DEST[key], text)
        return
    try:
        if action.nargs == 0:
            if text:  # (enforce = false is the flag not given)
                action(sub, args, None, FLAG[key])
            return
        action(sub, args, sub._get_values(action, [text]), FLAG[key])
    except argparse.ArgumentError as exc:
        raise ConfigError(f"{label}: {exc.message}") from None


def apply_config(args: argparse.Namespace, argv: list[str] | None, start: Path | None = None) -> Config | None:
    """Fill in what the command line left out from [tool.toolcast], as the flags would; a flag
    given overrides the file, and `paths` stand only where no PATH (or MCP server) was given."""
    keys = APPLIES.get(getattr(args, "command", None) or "")
    if not keys:
        return None
    cfg = load_config(start)
    if cfg is None:
        return None
    command = args.command
    if command != "diff":  # (files are named relative to the file's directory: config.md, "Places")
        args.config_dir = str(cfg.path.parent)
    given = _given(command, list(argv) if argv is not None else __import__("sys").argv[1:])
    sub = _subparser(build_parser(), command)
    if command == "diff":  # (not diff's settings, but files in PATH that are not tools: read as check reads PATH)
        args.skip = tuple(cfg.text(k) for k in ("baseline", "out") if k in cfg.values)
    for key in KEYS:
        if key not in keys or key not in cfg.values:
            continue
        if key == "paths":
            takes = command != "diff" or getattr(args, "git", None) is not None
            if takes and not args.paths and not getattr(args, "mcp", None) and not getattr(args, "mcp_url", None):
                args.paths = cfg.text("paths")
        elif DEST[key] not in given:
            _apply_flag(sub, args, key, cfg.text(key), _label(cfg.path, key))
    return cfg


def settings(args: argparse.Namespace, start: Path | None = None) -> tuple[Config | None, dict[str, tuple[Any, str]]]:
    """Each key's (value, source) for `toolcast config`: "flag", the pyproject.toml's path, or
    "default" (check's and compile's own defaults). Every value is checked as its flag would be."""
    cfg = load_config(start)
    parser = build_parser()
    out: dict[str, tuple[Any, str]] = {}
    for key in KEYS:
        sub = _subparser(parser, "compile" if key == "out" else "check")
        flag = getattr(args, DEST[key])
        if key == "paths":
            value, source = (flag, "flag") if flag else (cfg.text(key), str(cfg.path)) if cfg and key in cfg.values \
                else ([], "default")
            out[key] = (value, source)
            continue
        if flag is not None:
            text, source, label = flag, "flag", f"toolcast config: argument {FLAG[key]}"
        elif cfg is not None and key in cfg.values:
            text, source, label = cfg.text(key), str(cfg.path), _label(cfg.path, key)
        else:
            out[key] = (_default(sub, key), "default")
            continue
        ns = argparse.Namespace()
        _apply_flag(sub, ns, key, text, label)
        out[key] = (_value(ns, key, text), source)
    return cfg, out


def _label(path: Path, key: str) -> str:
    return f"toolcast: {path}: [tool.toolcast] {key}"


def _default(sub: argparse.ArgumentParser, key: str) -> Any:
    default = sub.get_default(DEST[key])
    if key == "targets":
        return [default] if isinstance(default, str) else list(default or [])
    if key == "enforce":
        return bool(default)
    return default


def _value(ns: argparse.Namespace, key: str, text: Any) -> Any:
    if key == "targets":
        return list(getattr(ns, "targets", None) or [getattr(ns, "target", text)])
    if key == "enforce":
        return bool(getattr(ns, "enforce", text))
    return getattr(ns, DEST[key], text)


def run(args: argparse.Namespace, out: IO[str], stdin: Any = None, err: IO[str] | None = None) -> int:
    """`toolcast config`: the settings in force, one per line with its source (or one JSON document)."""
    cfg, found = settings(args)
    if args.format == "json":
        doc = {"file": str(cfg.path) if cfg else None,
               "settings": {k: {"value": v, "source": s} for k, (v, s) in found.items()}}
        out.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
        return 0
    if cfg is None:
        out.write(f"no [tool.toolcast] in a pyproject.toml from {os.getcwd()} upward: defaults and flags only\n")
    else:
        out.write(f"[tool.toolcast] from {cfg.path}\n")
    width = max(len(k) for k in KEYS)
    for key, (value, source) in found.items():
        shown = "(none)" if value is None or value == [] else json.dumps(value, ensure_ascii=False)
        out.write(f"{key:<{width}}  {shown:<28}  {source}\n")
    return 0
