"""Write compiled tools to a folder: one file per tool plus manifest.json, atomically and byte-stably."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolcast.model import CompileResult, null_path_to_json

MANIFEST = "manifest.json"
# Names some file systems reserve, and our own manifest's stem.
_RESERVED = frozenset(
    ["con", "prn", "aux", "nul", "manifest"]
    + [f"com{i}" for i in range(10)]
    + [f"lpt{i}" for i in range(10)]
)
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def dumps(value: Any) -> str:
    """The one serialisation toolcast writes: 2-space indent, key order kept, newline at the end."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def file_names(names: Sequence[str]) -> list[str]:
    """A safe, distinct file name for each tool name, deterministic for a given set of names.

    A name that is plain (letters, digits, `_`, `-`), not reserved, and does not collide with
    another name when case is ignored (as on macOS and Windows) is used as it is; any other
    name gets a cleaned prefix plus a hash of the full name.
    """
    folded: dict[str, int] = {}
    for name in names:
        folded[name.lower()] = folded.get(name.lower(), 0) + 1
    out = []
    for name in names:
        plain = bool(name) and set(name) <= _SAFE and len(name) <= 64 and not name.startswith("-")
        if plain and name.lower() not in _RESERVED and folded[name.lower()] == 1:
            out.append(name + ".json")
            continue
        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:10]
        cleaned = "".join(c if c in _SAFE else "_" for c in name)[:40].lstrip("-") or "tool"
        out.append(f"{cleaned}-{digest}.json")
    return out


def _write_atomic(path: Path, content: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".toolcast-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(content)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write(out: Path, results: Sequence[tuple[str, CompileResult]], meta: dict) -> list[str]:
    """Write every sent tool and the manifest; returns the file names written.

    Each file is written to a temporary name and renamed into place, the manifest last, so
    an interruption never leaves a half-written file; files a previous manifest listed that
    are no longer produced are removed. Refused tools get no file.
    """
    out.mkdir(parents=True, exist_ok=True)
    sent = sorted(((src, r) for src, r in results if r.tool is not None), key=lambda x: (x[1].name, x[0]))
    names = file_names([r.name for _, r in sent])
    entries = []
    written = []
    for (source, result), fname in zip(sent, names, strict=True):
        _write_atomic(out / fname, dumps(result.tool))
        written.append(fname)
        entries.append(
            {
                "name": result.name,
                "file": fname,
                "status": result.status,
                "source": source,
                "null_paths": [null_path_to_json(p) for p in result.null_paths],
                "diagnostics": [{"code": d.code, "severity": d.severity, "path": d.path} for d in result.diagnostics],
                "transformations": [t.to_dict() for t in result.transformations],
            }
        )
    refused = sorted({r.name or "(unnamed)" for _, r in results if r.tool is None})
    manifest = {**meta, "tools": entries, "refused": refused}
    previous = _previous_files(out / MANIFEST)
    _write_atomic(out / MANIFEST, dumps(manifest))
    for stale in sorted(previous - set(written)):
        # Only names our own earlier manifest listed, and only plain file names in `out`.
        if "/" not in stale and "\\" not in stale and stale.endswith(".json") and stale != MANIFEST:
            (out / stale).unlink(missing_ok=True)
    return written


def _previous_files(manifest: Path) -> set[str]:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        return {t["file"] for t in data.get("tools", []) if isinstance(t.get("file"), str)}
    except (OSError, ValueError, AttributeError, TypeError, KeyError):
        return set()
