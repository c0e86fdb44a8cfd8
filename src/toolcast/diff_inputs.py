"""The two sides of `toolcast diff`: tools read from files and directories, or from a git revision's blobs."""

from __future__ import annotations

import json
import os
import posixpath
import subprocess
from pathlib import PurePosixPath
from typing import Any

from toolcast.loader import MAX_BYTES, TOO_LARGE, TOOL_SUFFIXES, InputError, Item, load, load_bytes


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


def read_paths(paths: list[str], label: str, errors: list[InputError]) -> Side:
    """The tools in files and directories of the work tree (read as `check` reads them)."""
    side = Side(label)
    for path in paths:
        items, errs = load(path, positions=True)
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


def _tree_files(rev: str, path: str) -> list[tuple[str, str, str]]:
    """(mode, object, path relative to the working directory) of the blobs under `path` at `rev`."""
    out = _git(["ls-tree", "-r", "-z", rev, "--", path])
    found = []
    for entry in out.split(b"\0"):
        if not entry:
            continue
        meta, _, name = entry.partition(b"\t")
        mode, kind, obj = meta.decode().split()
        if kind == "blob":
            found.append((mode, obj, os.fsdecode(name)))
    return found


def _link_target(commit: str, name: str, obj: str) -> str | None:
    """The blob a symbolic link at `commit` names (`name`, relative to the working directory; `obj`,
    its text), following links in turn; None when it names none of that commit's files."""
    for _ in range(8):  # (as a loop of links would, at some point: none)
        target = _git(["cat-file", "blob", obj]).decode("utf-8", "surrogateescape")
        if target.startswith("/"):
            return None  # (outside the tree the commit holds)
        name = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
        try:
            entry = _git(["ls-tree", "-z", commit, "--", name]).split(b"\0")[0]
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


def _out_dirs(rev: str, files: list[tuple[str, str, str]]) -> set[PurePosixPath]:
    """The directories at `rev` that hold a manifest.json toolcast wrote (an --out directory)."""
    dirs = set()
    for _, obj, name in files:
        p = PurePosixPath(name)
        if p.name != "manifest.json":
            continue
        try:
            data = json.loads(_git(["cat-file", "blob", obj])[:MAX_BYTES])
        except (GitError, ValueError, RecursionError):
            continue
        if isinstance(data, dict) and "toolcast" in data and isinstance(data.get("tools"), list):
            dirs.add(p.parent)
    return dirs


def read_revision(rev: str, paths: list[str], label: str, errors: list[InputError]) -> Side:
    """The tools in `paths` (files or directories of the work tree) as they were at `rev`, read
    from git's objects: nothing is checked out. A path that did not exist at `rev` holds no tools
    there (everything in it is added)."""
    commit = resolve_revision(rev)
    side = Side(label)
    side.in_tree = False
    for path in paths:
        files = _tree_files(commit, path)
        base = PurePosixPath(path)
        outs = _out_dirs(commit, files)
        for mode, obj, name in files:
            p = PurePosixPath(name)
            rel = p.relative_to(base) if p != base and base in p.parents else PurePosixPath(p.name)
            if _skipped(rel) or any(d in p.parents for d in outs):
                continue
            source = f"{rev}:{name}"
            if mode == "120000":  # (followed as the work tree's side follows it: check reads the file it names)
                obj = _link_target(commit, name, obj)
                if obj is None:
                    errors.append(InputError(source, "a symbolic link to a file this revision does not hold; not read"))
                    continue
            data = _git(["cat-file", "blob", obj])
            if len(data) > MAX_BYTES:
                errors.append(InputError(source, TOO_LARGE))
                continue
            items, errs = load_bytes(data, source, p.suffix.lower(), positions=True)
            errors.extend(errs)
            for item in items:
                side.add(item, errors)
    return side
