"""The standard streams of a `toolcast` run: a closed one, a report to a console that cannot hold
every character, JSON that stays JSON in any encoding, and SIGTERM ended as ^C is."""

from __future__ import annotations

import codecs
import contextlib
import errno
from collections.abc import Iterator
from typing import Any


class _Closed:
    """A standard stream the process was started without (`<&-`, `>&-`): reading or writing it
    fails with a plain OSError, as a closed descriptor would (`discard`: writes are dropped)."""

    def __init__(self, name: str, *, discard: bool = False) -> None:
        self.name, self.discard = name, discard

    def read(self, *_: Any) -> bytes:
        raise OSError(errno.EBADF, "standard input is closed", "<stdin>")

    def write(self, text: str) -> int:
        if self.discard:
            return len(text)
        raise OSError(errno.EBADF, f"standard {self.name} is closed")

    def flush(self) -> None:
        pass


def _replacing(stream: Any) -> Any:
    """`stream`, set to write a character its encoding lacks as an escape (\\u2713) instead of
    failing: a report to an ASCII or cp1252 console (PYTHONIOENCODING=ascii) is still a report."""
    if getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
        with contextlib.suppress(ValueError, OSError):  # (closed or detached: writing fails as before)
            stream.reconfigure(errors="backslashreplace")
    return stream


def _exit_on_signal(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def _terminate_as_exit() -> Iterator[None]:
    """SIGTERM ends the run as ^C does, through the `finally`s that leave --out DIR as it was
    (without them, a DIR the run created stays, empty, beside its staging directory)."""
    import signal

    try:
        previous = signal.signal(signal.SIGTERM, _exit_on_signal)
    except ValueError:  # (not the main thread: the signal cannot be caught here)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _json_safe(stream: Any) -> Any:
    """`stream`, set so that JSON written to it stays JSON whatever its encoding: a character it
    cannot hold is written as JSON's escape (`\\u00e9`), never as a Python one (`\\xe9`). A stream
    in another encoding than UTF-8 gets ASCII only, which reads the same in UTF-8 and in its own."""
    from toolcast._output.jsonout import ESCAPE

    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str) or not hasattr(stream, "reconfigure"):
        return stream
    with contextlib.suppress(LookupError, ValueError, OSError):  # (unknown, closed or detached: as it was)
        name = codecs.lookup(encoding).name
        ascii_text = bytes(range(128))
        if name != "utf-8" and ascii_text.decode("ascii").encode(name) == ascii_text:
            stream.reconfigure(encoding="ascii", errors=ESCAPE)
        else:
            stream.reconfigure(errors=ESCAPE)
    return stream
