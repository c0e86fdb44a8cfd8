"""toolcast's one JSON layout (2-space indent, key order kept, non-ASCII as is) as a stream of pieces."""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable, Iterator
from typing import Any

# json.dumps(value, indent=2, ensure_ascii=False) builds this same encoder on every call.
_ENCODER = json.JSONEncoder(indent=2, ensure_ascii=False)

# The encoding error handler for JSON text: a character the output cannot hold is written as
# JSON's escape of it (\u00e9; a surrogate pair for one beyond U+FFFF; a lone surrogate, a file
# name's undecodable byte, as \udce9). JSON text has characters beyond ASCII only inside
# strings, so the document keeps its value whatever the encoding.
ESCAPE = "toolcast.json-escape"


def _escape(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for ch in exc.object[exc.start:exc.end]:
        n = ord(ch)
        if n > 0xFFFF:
            n -= 0x10000
            out.append(f"\\u{0xD800 | n >> 10:04x}\\u{0xDC00 | n & 0x3FF:04x}")
        else:
            out.append(f"\\u{n:04x}")
    return "".join(out), exc.end


codecs.register_error(ESCAPE, _escape)


def utf8(text: str) -> bytes:
    """JSON text as the UTF-8 bytes of a file (what UTF-8 cannot hold written as its escape)."""
    return text.encode("utf-8", ESCAPE)


def chunks(value: Any, *, depth: int = 0, size: int = 1 << 16) -> Iterator[str]:
    """`json.dumps(value, indent=2, ensure_ascii=False)` in pieces of about `size` characters,
    each line after the first indented as if `value` sat `depth` levels deep in a document.

    A big tool is never held as one string (with the encoder's list of its parts, several
    times the text). JSON escapes newlines inside strings, so each newline is a line break.
    """
    pieces = _ENCODER.iterencode(value)
    if depth:
        nl = "\n" + "  " * depth
        pieces = (piece.replace("\n", nl) if "\n" in piece else piece for piece in pieces)
    return batched(pieces, size)


class Lazy:
    """A JSON list whose items are made one at a time as it is written (never all held at once)."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = items


def object_chunks(pairs: Iterable[tuple[str, Any]], *, depth: int = 0) -> Iterator[str]:
    """Like `chunks` for an object given as (key, value) pairs, where a value may be `Lazy`:
    the same text as `chunks(dict(pairs))` with each Lazy a list."""
    inner = "\n" + "  " * (depth + 1)
    first = True
    for key, value in pairs:
        yield ("{" if first else ",") + inner + json.dumps(key, ensure_ascii=False) + ": "
        first = False
        if isinstance(value, Lazy):
            yield from _lazy_chunks(value, depth + 1)
        else:
            yield from chunks(value, depth=depth + 1)
    yield "{}" if first else "\n" + "  " * depth + "}"


def _lazy_chunks(value: Lazy, depth: int) -> Iterator[str]:
    inner = "\n" + "  " * (depth + 1)
    first = True
    for item in value.items:
        yield ("[" if first else ",") + inner
        first = False
        yield from chunks(item, depth=depth + 1)
    yield "[]" if first else "\n" + "  " * depth + "]"


def batched(pieces: Iterable[str], size: int = 1 << 16) -> Iterator[str]:
    """The pieces joined into strings of about `size` characters: fewer, larger writes."""
    buf: list[str] = []
    n = 0
    for piece in pieces:
        buf.append(piece)
        n += len(piece)
        if n >= size:
            yield "".join(buf)
            buf.clear()
            n = 0
    if buf:
        yield "".join(buf)
