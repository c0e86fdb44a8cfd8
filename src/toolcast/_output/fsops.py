"""File-system steps a batch is built from: exclusive creates, syncs, hard links or copies, and an atomic swap of two paths."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import shutil
import stat
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def why(exc: OSError) -> str:
    what = exc.strerror or str(exc)
    return f"{what} ({exc.filename})" if exc.filename else what


def is_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(path.lstat().st_mode)
    except OSError:
        return False


def same_file(a: Path, b: Path) -> bool:
    try:
        sa, sb = a.lstat(), b.lstat()
    except OSError:
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def create(path: Path, pieces: Iterable[bytes], *, sync: bool = True) -> str:
    """A new file holding the pieces (flushed to disk with `sync`); returns its SHA-256.

    Its mode is what the umask gives, as for any new file (mkstemp would make it 0600).
    """
    digest = hashlib.sha256()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        for piece in pieces:
            digest.update(piece)
            view = memoryview(piece)
            while view:
                view = view[os.write(fd, view):]
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)
    return digest.hexdigest()


def keep_mode(new: Path, old: os.stat_result | None, where: Path) -> None:
    """A replaced file keeps its mode (and owner, where allowed); a directory in the way is an error."""
    if old is None:
        return
    if stat.S_ISDIR(old.st_mode):
        raise OSError(errno.EISDIR, "a directory is where toolcast writes a file; move it away", str(where))
    if stat.S_ISREG(old.st_mode):
        os.chmod(new, stat.S_IMODE(old.st_mode))
        try_chown(new, old)


def try_chown(path: Path, like: os.stat_result) -> None:
    if hasattr(os, "chown") and (path.lstat().st_uid, path.lstat().st_gid) != (like.st_uid, like.st_gid):
        with contextlib.suppress(OSError):  # only root may give a file away; the mode is what matters
            os.chown(path, like.st_uid, like.st_gid)


def entries(directory: Path) -> dict[str, os.stat_result]:
    """Each entry of `directory` with its own (not its link target's) status."""
    out = {}
    with os.scandir(directory) as it:
        for e in it:
            with contextlib.suppress(FileNotFoundError):  # removed by someone meanwhile: not there
                out[e.name] = e.stat(follow_symlinks=False)
    return out


def libc_function(name: str) -> Any:
    """A function of the C library (Linux only), or None where there is no such function."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return getattr(ctypes.CDLL(None, use_errno=True), name)
    except (OSError, AttributeError):
        return None


def sync_batch(stage: Path, *, each: bool) -> None:
    """Make the staging directory and everything in it durable before it is switched in."""
    if each:
        fsync_dir(stage)  # its files were flushed one by one
        return
    import ctypes

    fd = os.open(stage, os.O_RDONLY | os.O_DIRECTORY)
    try:
        syncfs = libc_function("syncfs")
        syncfs.argtypes = [ctypes.c_int]
        if syncfs(fd) != 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err), str(stage))
    finally:
        os.close(fd)


def fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # not every platform opens directories (Windows); the renames are still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def carry(src: Path, dst: Path, st: os.stat_result) -> None:
    """Put an entry toolcast did not write into the new DIR: hard links where possible, else copies."""
    if stat.S_ISDIR(st.st_mode):
        shutil.copytree(src, dst, symlinks=True, copy_function=link_or_copy)
    else:
        link_or_copy(src, dst)


def link_or_copy(src: str | Path, dst: str | Path) -> None:
    try:
        os.link(src, dst, follow_symlinks=False)
    except OSError:
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
        elif stat.S_ISREG(os.lstat(src).st_mode):
            shutil.copy2(src, dst, follow_symlinks=False)
        else:
            raise


def exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic rename where the system can (Linux); False where it cannot."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    fn = libc_function("renameat2")
    if fn is None:
        return False  # a C library without renameat2 (glibc before 2.28, some musl builds)
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_fdcwd, rename_exchange = -100, 2
    if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False  # a file system without the exchange flag: fall back to two renames
    raise OSError(err, os.strerror(err), str(b))
