"""Which file each tool gets, the bytes written for it, and which files a manifest proves toolcast wrote."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from toolcast._output.fsops import why
from toolcast._output.jsonout import chunks, utf8

MANIFEST = "manifest.json"
# Temporary files of this and earlier versions (earlier ones wrote them inside DIR itself).
TMP_PREFIX, TMP_SUFFIX = ".toolcast-", ".tmp"
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


def is_temp(name: str) -> bool:
    return name.startswith(TMP_PREFIX) and name.endswith(TMP_SUFFIX)


def file_pieces(value: Any) -> Iterator[bytes]:
    """`dumps(value)` as UTF-8, in pieces (one, for any tool of ordinary size)."""
    last = None
    for piece in chunks(value):
        if last is not None:
            yield utf8(last)
        last = piece
    yield utf8((last or "") + "\n")


def previous_files(manifest: Path, st: os.stat_result | None) -> list[tuple[str, str | None]]:
    """(file, sha256 or None) for each tool the manifest in DIR lists; nothing if it is not ours."""
    if st is None or not stat.S_ISREG(st.st_mode):
        return []
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        tools = data.get("tools", []) if isinstance(data, dict) else []
    except (OSError, ValueError, RecursionError):  # (nested past the parser's depth: not one toolcast wrote)
        return []
    out: dict[str, str | None] = {}
    for t in tools if isinstance(tools, list) else []:
        if isinstance(t, dict) and isinstance(t.get("file"), str):
            digest = t.get("sha256")
            out.setdefault(t["file"], digest if isinstance(digest, str) else None)
    return list(out.items())


def not_ours(directory: Path, fname: str, digest: str | None, st: os.stat_result | None) -> str | None:
    """None when the file is provably toolcast's, unchanged; else why it stays ("" = nothing to say)."""
    if is_temp(fname):
        return ""  # removed anyway, as what an interrupted run left
    if (not fname or fname in (".", "..", MANIFEST) or "/" in fname or "\\" in fname or "\0" in fname
            or os.path.isabs(fname)):
        return "listed in manifest.json, but not a file name inside the directory; ignored"
    if st is None:
        return ""  # already gone
    if not (fname.endswith(".json") and fname[:-5] and set(fname[:-5]) <= _SAFE):
        return "listed in manifest.json, but not a name toolcast gives its files; kept"
    if stat.S_ISLNK(st.st_mode):
        return "listed in manifest.json, but a symbolic link, which toolcast never writes; kept"
    if not stat.S_ISREG(st.st_mode):
        return "listed in manifest.json, but not a regular file; kept"
    if digest is None:
        return "listed in manifest.json without a content hash, so not provably toolcast's; kept"
    try:
        content = (directory / fname).read_bytes()
    except OSError as exc:
        return f"listed in manifest.json, but unreadable ({why(exc)}); kept"
    if hashlib.sha256(content).hexdigest() != digest:
        # A checkout with CRLF line ends (Git's core.autocrlf): toolcast writes no CR byte at all,
        # so a file that differs from what it wrote only by CRLF for LF is still its file.
        lf = content.replace(b"\r\n", b"\n")
        if lf == content or hashlib.sha256(lf).hexdigest() != digest:
            return "listed in manifest.json, but its content is not what toolcast wrote; kept"
        content = lf
    if not is_tool_file(content):
        # A hash any manifest can state; only a tool in toolcast's own layout is taken as ours.
        return "listed in manifest.json with its hash, but not a tool file as toolcast writes them; kept"
    return None


# The fields of the tools each target's emitter writes (toolcast.providers) besides the optional
# description and strict flag: Anthropic's, and a Gemini or Vertex function declaration's.
_DECLARATIONS = ({"name", "input_schema"}, {"name", "parameters"}, {"name", "parametersJsonSchema"})


def is_tool_file(content: bytes) -> bool:
    """Whether `content` is byte for byte what toolcast writes for a tool of any target: an OpenAI
    function, or a tool with exactly the fields another target's has, in `dumps`."""
    try:
        value = json.loads(content)
    except (ValueError, RecursionError):
        return False
    if not isinstance(value, dict):
        return False
    shaped = value.get("type") == "function" or set(value) - {"description", "strict"} in _DECLARATIONS
    return shaped and utf8(dumps(value)) == content


def is_manifest(path: Path) -> bool:
    """Whether `path` is a regular file holding a manifest toolcast wrote (the loader's test)."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and "toolcast" in data and isinstance(data.get("tools"), list)


_EARLIER = "the batch folder of an earlier run for several targets"


def batch_folder(directory: Path) -> str | None:
    """For a folder of DIR named after a target: None when it holds nothing but a batch toolcast
    wrote (its manifest.json and the unchanged files that manifest vouches for), as a
    several-target run leaves one; else why it is not that ("" when it holds no manifest of ours)."""
    if not is_manifest(directory / MANIFEST):
        return ""
    listed = dict(previous_files(directory / MANIFEST, os.lstat(directory / MANIFEST)))
    try:
        names = sorted(os.listdir(directory))
    except OSError as exc:
        return f"{_EARLIER}, kept: it cannot be listed ({why(exc)})"
    for name in names:
        if name == MANIFEST:
            continue
        if name not in listed:
            return f"{_EARLIER}, kept: it also holds {name}, which its manifest.json does not list"
        try:
            st = os.lstat(directory / name)
        except OSError:
            continue
        reason = not_ours(directory, name, listed[name], st)
        if reason:
            return f"{_EARLIER}, kept: {name} in it is {reason.removesuffix('; kept')}"
    return None
