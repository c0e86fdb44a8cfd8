"""Baselines for `toolcast check`: known findings, keyed by tool name, code and schema path, read and written."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from toolcast.loader import MAX_BYTES, TOO_LARGE, InputError, read_bounded
from toolcast.model import CompileResult, Diagnostic

FORMAT = 1  # the "toolcast_baseline" field: bump only with a new layout, and keep reading this one

Key = tuple[str, str, str]


class BaselineError(Exception):
    """The baseline file cannot be read or is not a baseline; carries the InputError to report."""

    def __init__(self, error: InputError):
        super().__init__(str(error))
        self.error = error


def key(result: CompileResult, diag: Diagnostic) -> Key:
    """A finding's identity across commits: not its line, which moves with every edit above it."""
    return (result.name or "", diag.code, diag.path)


def keys(results: Iterable[tuple[str, CompileResult]]) -> set[Key]:
    return {key(r, d) for _, r in results for d in r.diagnostics}


def dumps(found: Iterable[Key]) -> str:
    """The baseline document: sorted, one finding per entry, no timestamps (so it diffs well)."""
    entries = [{"tool": t, "code": c, "path": p} for t, c, p in sorted(set(found))]
    return json.dumps({"toolcast_baseline": FORMAT, "findings": entries}, indent=2, ensure_ascii=False) + "\n"


def write(path: Path, results: Sequence[tuple[str, CompileResult]]) -> int:
    """Write the baseline of these results atomically (a reader sees the old file or the new
    one, never a part); returns the number of findings written. A new file's mode is what the
    umask gives; a replaced one keeps its mode. A file there that is not a baseline (a tool file
    named by mistake) is never replaced: BaselineError."""
    from toolcast._output import fsops as _fsops

    if path.is_symlink():
        path = Path(os.path.realpath(path))  # written through, as --out writes through a link
    try:
        old = path.stat()
    except FileNotFoundError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        # A device, a FIFO, a directory: replacing it would remove it (as root, /dev/null).
        raise BaselineError(InputError(str(path), "not written: it is not a regular file"))
    if old is not None:
        try:
            read(str(path))
        except BaselineError:
            raise BaselineError(InputError(str(path), "not written: the file there is not a toolcast baseline, "
                                           "and replacing it would lose it")) from None
    found = keys(results)
    parent = path.parent if str(path.parent) else Path(".")
    import secrets  # (only a baseline written needs it: kept off a plain compile's start-up)

    tmp = parent / f".toolcast-{os.getpid()}-{secrets.token_hex(4)}.tmp"
    try:
        _fsops.create(tmp, [dumps(found).encode("utf-8")], sync=False)
        _fsops.keep_mode(tmp, old, path)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return len(found)


def read(path: str) -> set[Key]:
    """The findings a baseline file lists; BaselineError names the file and place otherwise."""
    from toolcast.loader import _ParseError, decode, parse_json

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # (a FIFO would block, /dev/zero never end)
            raise BaselineError(InputError(path, "cannot read the baseline: not a regular file"))
        data = read_bounded(path)
    except OSError as exc:
        raise BaselineError(InputError(path, f"cannot read the baseline: {exc.strerror or exc}")) from None
    if len(data) > MAX_BYTES:
        raise BaselineError(InputError(path, f"cannot read the baseline: {TOO_LARGE}"))
    try:
        doc = parse_json(decode(data, path), path)
    except _ParseError as exc:
        raise BaselineError(exc.error) from None
    return _entries(doc, path)


def _entries(doc: Any, path: str) -> set[Key]:
    expected = 'not a toolcast baseline (expected {"toolcast_baseline": 1, "findings": [...]}, as --write-baseline writes)'
    if not isinstance(doc, dict) or type(doc.get("toolcast_baseline")) is not int or doc.get("toolcast_baseline") != FORMAT or not isinstance(doc.get("findings"), list):
        raise BaselineError(InputError(path, expected))
    out: set[Key] = set()
    for i, e in enumerate(doc["findings"]):
        if not (isinstance(e, dict) and all(isinstance(e.get(k), str) for k in ("tool", "code", "path"))):
            raise BaselineError(InputError(path, f"findings[{i}] must hold the strings tool, code and path"))
        out.add((e["tool"], e["code"], e["path"]))
    return out
