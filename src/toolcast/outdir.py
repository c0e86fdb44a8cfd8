"""Write compiled tools to a folder as one batch: built in a sibling directory, then switched in whole."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import shutil
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from toolcast._output.dirlocks import OutDirError, _lock, _recover, _restore
from toolcast._output.fsops import (
    carry,
    create,
    entries,
    exchange,
    fsync_dir,
    is_dir,
    keep_mode,
    libc_function,
    same_file,
    sync_batch,
    try_chown,
    why,
)
from toolcast._output.jsonout import Lazy, batched, object_chunks, utf8
from toolcast._output.outfiles import (
    MANIFEST,
    TMP_PREFIX,
    TMP_SUFFIX,
    batch_folder,
    dumps,
    file_names,
    file_pieces,
    is_manifest,
    is_temp,
    not_ours,
    previous_files,
)
from toolcast.model import CompileResult, null_path_to_json

__all__ = ["MANIFEST", "Batch", "OutDirError", "dumps", "file_names", "target_problem", "write"]


def target_problem(out: str | os.PathLike) -> str | None:
    """Why `out` cannot be (or become) a directory, in words; None when it can."""
    if not str(out):
        return "is empty; give a directory"
    path = Path(out)
    if path.is_symlink():
        target = os.readlink(path)
        try:
            os.stat(path)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return f"is a symbolic link that loops (to {target})"
        if not path.exists():
            return f"is a dangling symbolic link (to {target}); remove it or point it at a directory"
        if not path.is_dir():
            return f"is not a directory: it is a symbolic link to a file ({target})"
        return None
    if path.is_dir():
        return None
    if os.path.lexists(path):
        return f"is not a directory ({_kind(path)}); give a directory, or a path that does not exist yet"
    for parent in path.parents:
        if os.path.lexists(parent) and not parent.is_dir():
            return f"cannot be created: {parent} is not a directory ({_kind(parent)})"
    return None


def _kind(path: Path) -> str:
    try:
        mode = path.lstat().st_mode
    except OSError as exc:
        return exc.strerror or str(exc)
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISLNK(mode):
        return "a symbolic link" if path.exists() else f"a dangling symbolic link to {os.readlink(path)}"
    return "a special file"


def write(out: Path, results: Iterable[tuple[str, CompileResult]], meta: dict) -> list[str]:
    """Write every sent tool and the manifest as one batch; returns the file names written.

    Refused tools get no file. Raises OutDirError, leaving `out` as it was, when it cannot.
    """
    with Batch(out, meta) as batch:
        for source, result in results:
            batch.add(source, result)
        return batch.commit()


# The staging and moved-aside directories of runs on DIR's folders (`.openai.toolcast-new-…`).
_STAGING = re.compile(r"\..*\.toolcast-(?:new|old)-")

# What the loader adds to a file's name for one tool of several in it (`FILE#tools[3]`, `FILE#[3]`).
_IN_FILE = re.compile(r"#(?:tools)?\[\d+\]\Z")


class Batch:
    """One run's output: files are added as they are compiled, and `commit` switches them in.

    The new contents of DIR are built in a sibling directory (`.DIR.toolcast-new-*`): the tool
    files, the manifest, and a hard link (or copy) of everything in DIR that toolcast did not
    write. `commit` then exchanges the two directories in one rename (`renameat2` with
    RENAME_EXCHANGE on Linux; elsewhere two renames, between which DIR is briefly absent), so a
    reader sees the old batch or the new one, never a mix. Both directories are locked with
    `flock` for the whole run, so a second run on the same DIR is refused instead of mixing.

    `folders` names the folders a run for several targets gives DIR (one per target): such a
    folder that holds nothing but a batch toolcast wrote leaves DIR with the switch. With `meta`
    None the batch is such a run's DIR: no manifest, only the folders `hold` gives it, built
    inside its new DIR and switched in with it, and the previous one-target batch at DIR's top
    level leaves as a stale file does.
    """

    def __init__(self, out: str | os.PathLike, meta: dict | None, folders: Iterable[str] = (),
                 base: str | None = None) -> None:
        self.given = str(out)
        problem = target_problem(out)
        if problem:
            raise OutDirError(self.given, problem)
        self.meta = meta
        self.dir = Path(os.path.realpath(out))
        if self.dir.parent == self.dir:
            raise OutDirError(self.given, "is the root directory; toolcast replaces DIR as a whole, so give one inside it")
        self.kept: list[tuple[str, str]] = []  # (file, why it was not removed)
        self.removed: list[tuple[str, str]] = []  # (entry, what it was): an earlier layout's batch that left
        self._folders = frozenset(folders)
        self._base = base  # (the directory the tools' sources are named from, when not the working one)
        self._parts: dict[str, Batch] = {}  # (meta None) the folders built inside this batch
        # (name, source, temp file, where its manifest entry is in the spool): the entries
        # themselves are serialised as they come, so memory does not grow with them.
        self._records: list[tuple[str, str, str, tuple[int, int]]] = []
        self._spool: Any = None
        self._refused: set[str] = set()
        self._inputs: dict[tuple[int, int], str] = {}  # (device, inode) of each input file -> its name
        self._judged: dict[str, Any] = {}  # (each entry judged to leave DIR -> what it was then: _fingerprint)
        self._locks: list[int] = []
        self._stage: Path | None = None
        self._created: list[Path] = []  # directories this run made, deepest first: removed on abort
        self._done = False
        self._keep_old = False
        self._built: tuple[list[str], set[str], set[str]] | None = None  # what prepare() built
        # One syncfs for the whole batch where there is one (Linux), else an fsync per file: the
        # files must be on disk before the switch, and 3,000 fsyncs can take many seconds.
        self._sync_each = libc_function("syncfs") is None
        try:
            self._open()
        except BaseException:
            self.abort()
            raise

    def _open(self) -> None:
        parent, token = self.dir.parent, f"{os.getpid()}-{secrets.token_hex(4)}"
        try:
            missing = [p for p in (parent, *parent.parents) if not os.path.lexists(p)]
            parent.mkdir(parents=True, exist_ok=True)
            self._created = missing
            if not os.path.lexists(self.dir):
                _restore(self.dir, self.given)
            made = False
            try:
                self.dir.mkdir()
                made = True
            except FileExistsError:
                pass
            self._locks.append(_lock(self.dir, self.given))
            if made:  # ours to remove on failure only once locked: a run that lost the race keeps off it
                self._created.insert(0, self.dir)
            _recover(self.dir)  # only now: a run that holds no lock on DIR must not touch its leftovers
            if os.stat(self.dir).st_dev != os.stat(parent).st_dev:
                raise OutDirError(self.given, "is a mount point; toolcast replaces the directory as a whole, "
                                  "so give a directory inside it")
            stage = parent / f".{self.dir.name}.toolcast-new-{token}"
            try:
                stage.mkdir(mode=0o700)
            except PermissionError as exc:
                raise OutDirError(self.given, f"cannot create a directory in {parent}, where toolcast builds the new "
                                  f"batch before switching it in: {exc.strerror}") from None
            self._stage = stage
            self._locks.append(_lock(stage, str(stage)))
        except OSError as exc:
            raise OutDirError(self.given, f"cannot prepare the output: {why(exc)}") from None

    @property
    def switched(self) -> bool:
        """Whether the new batch has taken DIR's place."""
        return self._done

    def __enter__(self) -> Batch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.abort()

    @contextlib.contextmanager
    def _or_left_as_it_was(self) -> Iterator[None]:
        """Any failure inside gives the batch up (DIR stays as it was); an OSError is said as an
        OutDirError naming DIR."""
        try:
            yield
        except OSError as exc:
            self.abort()
            raise OutDirError(self.given, f"cannot write output: {why(exc)}; left as it was") from None
        except BaseException:
            self.abort()
            raise

    def add(self, source: str, result: CompileResult) -> None:
        """Write one result's tool file into the new batch (a refused tool is only listed)."""
        self._note_input(source)
        if result.tool is None:
            self._refused.add(result.name or "(unnamed)")
            return
        assert self._stage is not None and not self._done
        temp = f"{TMP_PREFIX}{len(self._records)}{TMP_SUFFIX}"
        with self._or_left_as_it_was():
            digest = create(self._stage / temp, file_pieces(result.tool), sync=self._sync_each)
        rest = [  # the entry after "name" and "file", which are known only at commit
            ("sha256", digest),
            ("status", result.status),
            ("source", source),
            ("null_paths", Lazy(null_path_to_json(p) for p in result.null_paths)),
            ("diagnostics", Lazy({"code": d.code, "severity": d.severity, "path": d.path} for d in result.diagnostics)),
            ("transformations", Lazy(t.to_dict() for t in result.transformations)),
        ]
        if self._spool is None:
            import tempfile

            self._spool = tempfile.TemporaryFile(dir=self._stage, prefix=TMP_PREFIX, suffix=TMP_SUFFIX)  # noqa: SIM115 - closed in _write_manifest or abort
        with self._or_left_as_it_was():
            at = self._spool.seek(0, os.SEEK_END)
            # As an item of "tools" the entry is two levels deep; its "{" is written at commit.
            pieces = object_chunks(rest, depth=2)
            self._spool.write(utf8(next(pieces)[1:]))  # (a source's undecodable byte as its JSON escape)
            for piece in batched(pieces):
                self._spool.write(utf8(piece))
            size = self._spool.tell() - at
        self._records.append((result.name, source, temp, (at, size)))

    def _note_input(self, source: str) -> None:
        """Remember the file a tool came from (`FILE`, or `FILE#tools[3]` for one of several)."""
        source = os.path.join(self._base, source) if self._base else source
        file = source if os.path.lexists(source) else _IN_FILE.sub("", source)
        with contextlib.suppress(OSError, ValueError):  # (standard input, an MCP server: no file)
            st = os.stat(file)
            if stat.S_ISREG(st.st_mode):
                self._inputs.setdefault((st.st_dev, st.st_ino), file)

    def _is_input(self, path: Path) -> bool:
        """Whether `path` is one of the run's input files, or a directory holding one (of this batch's
        inputs or, for DIR's batch of several targets, its folders')."""
        inputs = [f for b in (self, *self._parts.values()) for f in b._inputs.values()]
        with contextlib.suppress(OSError, ValueError):
            st = os.stat(path)
            if not stat.S_ISDIR(st.st_mode):
                return any((st.st_dev, st.st_ino) in b._inputs for b in (self, *self._parts.values()))
            real = os.path.realpath(path) + os.sep
            return any(os.path.realpath(f).startswith(real) for f in inputs)
        return False

    def _not_an_input(self, names: list[str]) -> None:
        """A tool file that would take the place of one of the run's own input files (--out DIR
        holds the definitions) is refused: the definition would be lost."""
        for fname in names:
            try:
                st = os.stat(self.dir / fname)
            except OSError:
                continue
            source = self._inputs.get((st.st_dev, st.st_ino))
            if source is not None:
                raise OutDirError(self.given, f"holds {source}, an input of this run, where the compiled tool "
                                  f"would be written ({fname}); give an --out directory that holds no tool definitions")

    def prepare(self) -> None:
        """Build the complete new DIR beside it: the part of a commit that writes, and so the part
        that fails for want of room. Batches that go together (one folder per target) are each
        prepared before any is switched in, so that such a failure leaves every folder as it was."""
        assert self._stage is not None and not self._done
        if self._built is not None:
            return
        with self._or_left_as_it_was():
            self._built = self._build()

    @property
    def staged(self) -> tuple[list[str], Path]:
        """(the tool files, in manifest order; the complete new DIR beside it), once prepared."""
        assert self._built is not None and self._stage is not None
        return self._built[0], self._stage

    def commit(self) -> list[str]:
        """Switch the new batch in (prepared first, when it was not); returns the tool files
        written, in manifest order."""
        self.prepare()
        assert self._built is not None
        written, carried, listed = self._built
        with self._or_left_as_it_was():
            old = self._switch()
        for part in self._parts.values():  # (their new batches are DIR/<name> now: never to be removed)
            part._stage, part._done = None, True
        try:
            self._rescue(old, carried, listed)
            for name, part in self._parts.items():
                part._switched_with(old / name)
                self._keep_old = self._keep_old or part._keep_old
        finally:
            self.abort()  # only tidies and unlocks now: the switch is done
        return written

    def _switched_with(self, old: Path) -> None:
        """This folder's new batch went in with its DIR's (`hold`); its old folder is now `old`."""
        assert self._built is not None
        try:  # (`old` is removed with the old DIR)
            if is_dir(old):
                self._rescue(old, self._built[1], self._built[2])
        finally:
            self.abort()

    def _build(self) -> tuple[list[str], set[str], set[str]]:
        """Fill the staging directory with the complete new DIR.

        Returns the tool files, the names carried over from DIR, and every name DIR held.
        """
        stage = self._stage
        assert stage is not None
        records = sorted(self._records, key=lambda r: (r[0], r[1]))
        names = file_names([r[0] for r in records])
        self._not_an_input(names)
        old = entries(self.dir)
        for (_, _, temp, _), fname in zip(records, names, strict=True):
            os.replace(stage / temp, stage / fname)
            keep_mode(stage / fname, old.get(fname), self.dir / fname)
        if self.meta is not None:
            self._write_manifest(stage / MANIFEST, records, names)
            keep_mode(stage / MANIFEST, old.get(MANIFEST), self.dir / MANIFEST)
            ours = set(names) | {MANIFEST}
        else:
            ours = self._nest(stage)
        dropped = self._stale(old, ours)
        dropped |= self._earlier(old, ours, len(dropped))
        # (what each entry that leaves was when judged: one changed before the switch stays, _rescue)
        self._judged = {name: _fingerprint(self.dir / name) for name in dropped}
        carried = set()
        for name, st in sorted(old.items()):
            if name in ours or name in dropped or is_temp(name) or _STAGING.match(name):
                continue
            carry(self.dir / name, stage / name, st)
            carried.add(name)
        sync_batch(stage, each=self._sync_each)
        dir_stat = os.stat(self.dir)
        os.chmod(stage, stat.S_IMODE(dir_stat.st_mode))
        try_chown(stage, dir_stat)
        return names, carried, set(old)

    def _write_manifest(self, path: Path, records: list, names: list[str]) -> None:
        """manifest.json, byte for byte `dumps({**meta, "tools": [...], "refused": [...]})`,
        assembled from the spooled entries in manifest order."""
        head = json.dumps(self.meta, indent=2, ensure_ascii=False)[:-2] + "," if self.meta else "{"
        refused = json.dumps(sorted(self._refused), indent=2, ensure_ascii=False).replace("\n", "\n  ")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        with os.fdopen(fd, "wb") as fh:
            fh.write(utf8(head + '\n  "tools": ' + ("[" if records else "[]")))
            for i, ((name, _, _, (at, size)), fname) in enumerate(zip(records, names, strict=True)):
                start = ("," if i else "") + '\n    {\n      "name": ' + json.dumps(name, ensure_ascii=False) + ',\n      "file": ' + json.dumps(fname) + ","
                fh.write(utf8(start))
                self._spool.seek(at)
                while size > 0:  # in blocks: one tool's entry may be as big as the tool
                    block = self._spool.read(min(size, 1 << 20))
                    if not block:
                        raise OSError(errno.EIO, "the spooled manifest entries were cut short")
                    fh.write(block)
                    size -= len(block)
            fh.write(utf8(("\n  ]" if records else "") + ',\n  "refused": ' + refused + "\n}\n"))
            fh.flush()
            if self._sync_each:
                os.fsync(fh.fileno())
        if self._spool is not None:
            self._spool.close()  # before the switch: nothing of it may show in DIR
            self._spool = None

    def _stale(self, old: dict[str, os.stat_result], ours: set[str]) -> set[str]:
        """The files the previous manifest proves toolcast wrote and that are unchanged since."""
        dropped = set()
        for fname, digest in previous_files(self.dir / MANIFEST, old.get(MANIFEST)):
            if fname in ours:
                continue
            st = old.get(fname)
            if st is not None and self._is_input(self.dir / fname):
                self.kept.append((fname, "listed in manifest.json, but an input of this run; kept"))
                continue
            why = not_ours(self.dir, fname, digest, st)
            if why is None:
                dropped.add(fname)
            elif why:
                self.kept.append((fname, why))
        return dropped

    def hold(self, name: str, part: Batch) -> bool:
        """(meta None) Build `part`, the batch of DIR/`name`, inside this one's new DIR, and so
        switch it in with the rest of DIR in one exchange. False (not held: it is switched in on
        its own) when DIR/`name` is a symbolic link to a directory elsewhere."""
        assert self.meta is None and not self._done
        if part.dir != self.dir / name:
            return False
        self._parts[name] = part
        return True

    def _nest(self, stage: Path) -> set[str]:
        """Build each held folder's new batch and move it into the new DIR; returns their names."""
        for name, part in self._parts.items():
            part.prepare()
            assert part._stage is not None
            os.rename(part._stage, stage / name)
            part._stage = stage / name  # (removed with this batch's staging directory, on abort)
        return set(self._parts)

    def _earlier(self, old: dict[str, os.stat_result], ours: set[str], files: int) -> set[str]:
        """What an earlier run's other layout left that this run replaces: DIR/<target>/ folders
        of a run for several targets and, for such a run (meta None), the manifest of a one-target
        batch at DIR's top level, once every file it lists has left (`files` of them did)."""
        out = set()
        for name, st in sorted(old.items()):
            if name in ours or name not in self._folders or not stat.S_ISDIR(st.st_mode):
                continue
            reason = batch_folder(self.dir / name)
            if reason is None and self._is_input(self.dir / name):
                reason = "the batch folder of an earlier run for several targets, kept: it holds an input of this run"
            if reason is None:
                out.add(name)
                self.removed.append((name + "/", "the batch folder of an earlier run for several targets; removed"))
            elif reason:
                self.kept.append((name + "/", reason))
        if self.meta is None and MANIFEST in old and is_manifest(self.dir / MANIFEST):
            listed = {f for f, _ in previous_files(self.dir / MANIFEST, old[MANIFEST])}
            if any(f in listed for f, _ in self.kept):
                self.kept.append((MANIFEST, "the manifest of an earlier one-target run, kept for the files it lists that stay"))
            else:
                out.add(MANIFEST)
                self.removed.append((MANIFEST, f"the manifest of an earlier one-target run; removed with the {files} "
                                     "file(s) it listed"))
        return out

    def _switch(self) -> Path:
        """Put the staging directory in DIR's place; returns where the old DIR now is."""
        stage = self._stage
        assert stage is not None
        try:
            exchanged = exchange(stage, self.dir)
        except OSError as exc:
            if exc.errno in (errno.EBUSY, errno.EXDEV):
                raise OutDirError(self.given, "cannot be replaced: it is a mount point or in use by the system; "
                                  "give a directory inside it") from None
            raise
        if exchanged:
            old = stage  # the old DIR now lives under the staging name
        else:
            old = stage.with_name(stage.name.replace("-new-", "-old-", 1))
            os.rename(self.dir, old)
            try:
                os.rename(stage, self.dir)
            except BaseException:
                os.rename(old, self.dir)
                raise
        self._stage = old
        self._done = True
        fsync_dir(self.dir.parent)
        return old

    def _rescue(self, old: Path, carried: set[str], listed: set[str]) -> None:
        """Put the user's own entries back in DIR as the objects they are now, and move in what
        appeared in the old DIR while the batch was built: a run never loses a file."""
        for name in sorted(os.listdir(old)):
            src, dst = old / name, self.dir / name
            try:
                if name in carried:
                    if is_dir(src) and is_dir(dst):
                        exchange(src, dst)  # the original directory, with any change made meanwhile
                    elif not same_file(src, dst) and not is_dir(src) and not is_dir(dst):
                        os.replace(src, dst)  # the original file (it was copied, or replaced meanwhile)
                elif name not in listed and not os.path.lexists(dst):
                    os.rename(src, dst)
                elif name in self._judged and _fingerprint(src) != self._judged[name] and not os.path.lexists(dst):
                    os.rename(src, dst)  # (it changed after it was judged toolcast's, unchanged: the user's now)
                    self.removed = [r for r in self.removed if r[0].rstrip("/") != name]
                    self.kept.append((name, "changed while this run was under way; kept"))
            except OSError as exc:
                self._keep_old = True
                self.kept.append((name, f"could not be moved back from {old}: {why(exc)}; it is still there"))

    def abort(self) -> None:
        """Remove the staging (or, after the switch, the old) directory and release the locks."""
        if self._spool is not None:
            with contextlib.suppress(OSError):  # its unflushed tail may be what filled the disk
                self._spool.close()
            self._spool = None
        if self._stage is not None and not self._keep_old:
            with contextlib.suppress(OSError):  # after the switch it has DIR's mode, maybe read-only
                os.chmod(self._stage, 0o700)
            shutil.rmtree(self._stage, ignore_errors=True)
            self._stage = None
        for part in self._parts.values():
            if not part.switched:
                part.abort()
        if not self._done:
            for made in self._created:  # leave the path as it was: absent
                with contextlib.suppress(OSError):  # not empty after all: someone else's now
                    made.rmdir()
        self._created = []
        while self._locks:
            fd = self._locks.pop()
            if fd >= 0:
                os.close(fd)


def _fingerprint(path: Path) -> Any:
    """What an entry of DIR is, enough to see that it changed: a file's identity, size and time; a
    directory's, with each of its entries' (a batch folder holds files only); None when it is gone."""
    try:
        st = os.lstat(path)
        own = (st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns)
        if not stat.S_ISDIR(st.st_mode):
            return own
        return own, sorted((e.name, _fingerprint(Path(e.path))) for e in os.scandir(path))
    except OSError:
        return None
