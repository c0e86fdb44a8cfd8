"""The two sides of `toolcast diff`: tools read from files and directories, or from a git revision's blobs."""

from __future__ import annotations

import json
import os
import posixpath
import subprocess
from pathlib import PurePosixPath
from typing import Any

from toolcast.loader import (
    MAX_BYTES,
    TOO_LARGE,
    TOOL_SUFFIXES,
    InputError,
    Item,
    load,
    load_bytes,
    read_bounded,
)


class GitError(Exception):
    """`--git REV` cannot be read: not a repository, an unknown revision, git missing."""


class Side:
    """One version of the tool set: its tools by name, with the item each came from."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.in_tree = True  # (False: read at a git revision, so its files are not the work tree's)
        self.items: dict[str, Item] = {}
        self.tools: dict[str, tuple[Any, Any]] = {}  # name -> (description, schema)

    def add(self, item: Item, errors: list[InputError]) -> None:
        from toolcast.model import InvalidToolError
        from toolcast.tool_input import read_tool

        try:
            name, description, schema, _ = read_tool(item.tool)
        except InvalidToolError as exc:
            errors.append(InputError(item.source, str(exc), *item.place(exc.field)))
            return
        if not isinstance(name, str) or not name:
            errors.append(InputError(item.source, "a tool needs a `name` (a non-empty string) to be compared",
                                     *item.place(None)))
            return
        if name in self.items:
            errors.append(InputError(item.source, f"tool `{name}` is defined twice in {self.label} (also at "
                                                  f"{self.items[name].source}); names must be unique to compare",
                                     *item.place("name")))
            return
        self.items[name] = item
        self.tools[name] = (description, schema)


def read_paths(paths: list[str], label: str, errors: list[InputError], skip: tuple[str, ...] = ()) -> Side:
    """The tools in files and directories of the work tree (read as `check` reads them; `skip`:
    files and directories below a directory PATH that hold no tools, the config's baseline)."""
    from pathlib import Path

    side = Side(label)
    for path in paths:
        items, errs = load(path, positions=True, skip=tuple(Path(s) for s in skip))
        errors.extend(errs)
        for item in items:
            side.add(item, errors)
    return side


def _git(args: list[str], cwd: str | None = None) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False, timeout=120,
                              stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise GitError("--git needs the git command, which is not installed") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {args[0]} took more than 120 s") from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(why[-1] if why else f"git {args[0]} failed (exit {done.returncode})")
    return done.stdout


def resolve_revision(rev: str) -> str:
    """The commit `rev` names (a usage error when it names none, or this is not a repository)."""
    if rev.startswith("-"):
        raise GitError(f"--git {rev!r}: a revision cannot start with '-'")
    try:
        return _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"]).decode().strip()
    except GitError as exc:
        raise GitError(f"--git {rev}: not a commit of this repository ({exc})") from None


def _tree_entries(rev: str, path: str, cwd: str | None = None) -> list[tuple[str, str, str, str]]:
    """(mode, kind, object, path relative to `cwd`) of the entries under `path` at `rev`: blobs
    and symbolic links, and gitlinks (kind "commit": a submodule, whose files git keeps apart)."""
    out = _git(["ls-tree", "-r", "-z", rev, "--", path], cwd)
    found = []
    for entry in out.split(b"\0"):
        if not entry:
            continue
        meta, _, name = entry.partition(b"\t")
        mode, kind, obj = meta.decode().split()
        if kind in ("blob", "commit"):
            found.append((mode, kind, obj, os.fsdecode(name)))
    return found


def _link_target(commit: str, name: str, obj: str, cwd: str | None = None) -> str | None:
    """The blob a symbolic link at `commit` names (`name`, relative to `cwd`; `obj`, its text),
    following links in turn; None when it names none of that commit's files."""
    for _ in range(8):  # (as a loop of links would, at some point: none)
        target = _git(["cat-file", "blob", obj], cwd).decode("utf-8", "surrogateescape")
        if target.startswith("/"):
            return None  # (outside the tree the commit holds)
        name = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
        try:
            entry = _git(["ls-tree", "-z", commit, "--", name], cwd).split(b"\0")[0]
        except GitError:
            return None
        meta, _, found = entry.partition(b"\t")
        if not meta or os.fsdecode(found) != name:
            return None
        mode, kind, obj = meta.decode().split()
        if kind != "blob":
            return None
        if mode != "120000":
            return obj
    return None


def _skipped(rel: PurePosixPath) -> bool:
    """As a directory is read: only tool files, none hidden or under a hidden directory."""
    return any(part.startswith(".") for part in rel.parts) or rel.suffix.lower() not in TOOL_SUFFIXES


def _out_dirs(files: list[tuple[str, str, str, str]], cwd: str | None = None) -> set[PurePosixPath]:
    """The directories that hold a manifest.json toolcast wrote (an --out directory), among
    `files` (entries of one revision, relative to `cwd`)."""
    dirs = set()
    for _, kind, obj, name in files:
        p = PurePosixPath(name)
        if p.name != "manifest.json" or kind != "blob":
            continue
        try:
            data = json.loads(_git(["cat-file", "blob", obj], cwd)[:MAX_BYTES])
        except (GitError, ValueError, RecursionError):
            continue
        if isinstance(data, dict) and "toolcast" in data and isinstance(data.get("tools"), list):
            dirs.add(p.parent)
    return dirs


def _as_listed(path: str) -> PurePosixPath:
    """`path` as git lists it: relative to the working directory and normalised (an absolute path
    or one spelled with `..` names the same entries as its relative form)."""
    return PurePosixPath(posixpath.normpath(os.path.relpath(os.path.abspath(path)).replace(os.sep, "/")))


def _submodule(name: str, commit: str) -> list[tuple[str, str, str, str]]:
    """The entries of the submodule at `name` (relative to the working directory) at `commit` (the
    one the revision records), read from the submodule's own clone; GitError when that is not here."""
    if not os.path.exists(os.path.join(name, ".git")):
        raise GitError("a git submodule that is not checked out (git submodule update --init); "
                       "its tools cannot be compared")
    try:
        _git(["cat-file", "-e", f"{commit}^{{commit}}"], name)
    except GitError:
        raise GitError(f"a git submodule whose commit {commit[:12]} is not in its clone (git submodule update); "
                       "its tools cannot be compared") from None
    return [(m, k, o, posixpath.join(name, n)) for m, k, o, n in _tree_entries(commit, ".", name)]


def _read_entries(side: Side, rev: str, base: PurePosixPath, commit: str, files: list[tuple[str, str, str, str]],
                  errors: list[InputError], cwd: str | None = None, skip: frozenset = frozenset()) -> None:
    """Add the tools of `files` (entries at `commit` of the repository at `cwd`, named relative to
    the working directory) to `side`, filtered as `load()` filters a directory PATH `base` (`skip`:
    paths, as listed, left out below it)."""
    outs = _out_dirs([(m, k, o, _rel(n, cwd)) for m, k, o, n in files], cwd)
    for mode, kind, obj, name in files:
        p = PurePosixPath(name)
        if p != base:  # (a file named by its PATH is read whatever its name, as check reads it)
            rel = p.relative_to(base) if base in p.parents else p
            hidden = any(part.startswith(".") for part in rel.parts)  # (a submodule is a directory)
            if (hidden if kind == "commit" else _skipped(rel)) or any(d in PurePosixPath(_rel(name, cwd)).parents for d in outs) \
                    or p in skip or any(s in p.parents for s in skip):
                continue
        source = f"{rev}:{name}"
        if kind == "commit":
            try:
                sub_files = _submodule(name, obj)
            except GitError as exc:
                errors.append(InputError(source, str(exc)))
                continue
            _read_entries(side, rev, base, obj, sub_files, errors, name, skip)
            continue
        data = None
        if mode == "120000":  # (followed as the work tree's side follows it: check reads the file it names)
            target = _link_target(commit, _rel(name, cwd), obj, cwd)
            data = _outside(name, obj, cwd) if target is None else None
            if target is None and data is None:
                errors.append(InputError(source, "a symbolic link to a file this revision does not hold; not read"))
                continue
            obj = target or obj
        if data is None:
            data = _git(["cat-file", "blob", obj], cwd)
        if len(data) > MAX_BYTES:
            errors.append(InputError(source, TOO_LARGE))
            continue
        items, errs = load_bytes(data, source, p.suffix.lower(), positions=True)
        errors.extend(errs)
        for item in items:
            side.add(item, errors)


def _outside(name: str, obj: str, cwd: str | None) -> bytes | None:
    """The file a committed symbolic link to outside the repository names, read as the work tree
    reads it, when the work tree has the same link (the file is not in git: both sides read the
    same one); None otherwise."""
    text = _git(["cat-file", "blob", obj], cwd)
    try:
        if os.fsencode(os.readlink(name)) != text:
            return None
        top = os.path.realpath(os.fsdecode(_git(["rev-parse", "--show-toplevel"], cwd).rstrip(b"\n")))
        target = os.path.realpath(name)
        if target == top or target.startswith(top.rstrip(os.sep) + os.sep):
            return None  # (inside: what the revision holds decides)
        return read_bounded(name)
    except (OSError, GitError):
        return None


def _rel(name: str, cwd: str | None) -> str:
    """`name` (relative to the working directory) relative to the repository at `cwd`."""
    return name if cwd is None else posixpath.relpath(name, cwd)


def read_revision(rev: str, paths: list[str], label: str, errors: list[InputError], skip: tuple[str, ...] = ()) -> Side:
    """The tools in `paths` (files or directories of the work tree) as they were at `rev`, read
    from git's objects: nothing is checked out. A path that did not exist at `rev` holds no tools
    there (everything in it is added). A directory PATH is filtered as `load()` filters one (tool
    suffixes, nothing hidden, no --out directory); a file named by its PATH is read as it is. A
    submodule is read from its own clone at the commit `rev` records; if that is not here, it is
    an input error naming it (never skipped in silence)."""
    commit = resolve_revision(rev)
    side = Side(label)
    side.in_tree = False
    skipped = frozenset(_as_listed(s) for s in skip)
    for path in paths:
        _read_entries(side, rev, _as_listed(path), commit, _tree_entries(commit, path), errors, skip=skipped)
    return side
