"""The locks a run holds on an --out directory, and what an interrupted run left beside it."""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

from toolcast._output.fsops import is_dir

_LOCK_ATTEMPTS = 20


class OutDirError(Exception):
    """`--out` cannot be written; the directory is left as it was."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


def _try_lock(directory: Path) -> int | None:
    """A descriptor holding an exclusive lock on `directory`, or None when another process holds it.

    -1 where the system has no `flock` (Windows): there, runs on one DIR are not serialised.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return -1
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except BaseException:
        os.close(fd)
        raise
    return fd


def _busy(given: str) -> OutDirError:
    return OutDirError(given, "another toolcast run is writing this directory; try again when it has finished")


def _lock(directory: Path, given: str) -> int:
    """Lock `directory` for this run; returns the open descriptor that holds the lock."""
    for _ in range(_LOCK_ATTEMPTS):
        fd = _try_lock(directory)
        if fd is None:
            raise _busy(given)
        if fd < 0:
            return fd
        held, now = os.fstat(fd), os.stat(directory)
        if (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino):
            return fd
        os.close(fd)  # another run switched a new directory in while we waited: lock that one
    raise OutDirError(given, "kept being replaced while toolcast tried to lock it")


def _leftovers(directory: Path, kind: str) -> list[Path]:
    """The staging ("new") or moved-aside ("old") directories of runs on `directory`."""
    prefix = f".{directory.name}.toolcast-{kind}-"
    return [directory.parent / n for n in sorted(os.listdir(directory.parent)) if n.startswith(prefix)
            and is_dir(directory.parent / n)]


def _restore(directory: Path, given: str) -> None:
    """DIR is absent and a run was killed between the two renames of a switch: put the old one back.

    A moved-aside DIR that another process holds locked is a switch in progress: refused.
    """
    for path in _leftovers(directory, "old"):
        if os.path.lexists(directory):
            return
        try:
            fd = _try_lock(path)
        except FileNotFoundError:
            continue  # its run has just finished with it
        if fd is None:
            raise _busy(given)
        try:
            os.rename(path, directory)
        finally:
            if fd >= 0:
                os.close(fd)


def _recover(directory: Path) -> None:
    """Remove what interrupted runs left beside DIR; called holding DIR's lock, so no run is
    building a batch for it now (a leftover still locked is skipped all the same)."""
    for path in _leftovers(directory, "new") + _leftovers(directory, "old"):
        try:
            fd = _try_lock(path)
        except FileNotFoundError:
            continue
        if fd is None:
            continue
        try:
            with contextlib.suppress(OSError):  # a read-only copy of DIR's mode must still go
                os.chmod(path, 0o700)
            shutil.rmtree(path, ignore_errors=True)
        finally:
            if fd >= 0:
                os.close(fd)
