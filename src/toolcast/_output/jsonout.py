"""toolcast's one JSON layout (2-space indent, key order kept, non-ASCII as is) as a stream of pieces."""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable, Iterator
from typing import Any

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

    The text is made by _Writer (one Python call per value, C for strings), held as blocks of
    about `size` characters (never one string, nor the encoder's list of its parts).
    """
    w = _Writer(size)
    w.value(value, "\n" + "  " * depth)
    return w.drain()


class Lazy:
    """A JSON list whose items are made one at a time as it is written (never all held at once)."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = items


def object_chunks(pairs: Iterable[tuple[str, Any]], *, depth: int = 0, size: int = 1 << 16) -> Iterator[str]:
    """Like `chunks` for an object given as (key, value) pairs, where a value may be `Lazy`:
    the same text as `chunks(dict(pairs))` with each Lazy a list, whose items are made, written
    and dropped one by one (the text so far given out whenever it reaches `size`)."""
    w = _Writer(size)
    nl = "\n" + "  " * depth
    inner = nl + "  "
    first = True
    for key, value in pairs:
        w.put(("{" if first else ",") + inner + _string(key) + ": ")
        first = False
        if isinstance(value, Lazy):
            item_nl = inner + "  "
            empty = True
            for item in value.items:
                w.put(("[" if empty else ",") + item_nl)
                empty = False
                w.value(item, item_nl)
                yield from w.ready()
            w.put("[]" if empty else inner + "]")
        else:
            w.value(value, inner)
        yield from w.ready()
    w.put("{}" if first else nl + "}")
    yield from w.drain()


_string = json.encoder.encode_basestring  # (C: the JSON string of a str, non-ASCII as is)
_INFINITY = float("inf")


def _float(o: float) -> str:
    if o != o:
        return "NaN"
    if o == _INFINITY:
        return "Infinity"
    if o == -_INFINITY:
        return "-Infinity"
    return float.__repr__(o)


def _key(key: Any) -> str:
    """A dict key as json writes it: a str as is; a float, bool, None or int as its JSON text."""
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key)
    if key is True or key is False or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


def write_json(value: Any, write: Any, *, depth: int = 0, size: int = 1 << 16) -> None:
    """`chunks(value)`'s text, given to `write` in pieces of about `size` characters as it is made:
    a value whose lists are `Lazy` (SARIF's results) is never held, whole, as objects or as text."""
    w = _Writer(size, write)
    w.value(value, "\n" + "  " * depth)
    for piece in w.drain():
        write(piece)


class _Writer:
    """`json.JSONEncoder(indent=2, ensure_ascii=False)`'s text, byte for byte, made by one
    recursive call per value rather than the encoder's chain of generators (which, in pure
    Python as it is with an indent, cost a report many times the compile it reports on: issue 43).

    The text goes into `parts`; every few thousand parts they are joined into one block, so a
    big value is held as its text in blocks, not as millions of small strings.
    """

    __slots__ = ("blocks", "done", "parts", "sink", "size")

    def __init__(self, size: int, sink: Any = None) -> None:
        self.blocks: list[str] = []
        self.parts: list[str] = []
        self.size = size
        self.done = 0  # characters in blocks
        self.sink = sink  # (write_json: given each block of `size` as it is made)

    def put(self, text: str) -> None:
        self.parts.append(text)

    def _fold(self) -> None:
        block = "".join(self.parts)
        self.parts.clear()
        self.blocks.append(block)
        self.done += len(block)
        if self.sink is not None and self.done >= self.size:
            self.sink("".join(self.blocks))
            self.blocks.clear()
            self.done = 0

    def ready(self) -> Iterator[str]:
        """The blocks made so far, once they hold about `size` characters."""
        if len(self.parts) >= 512:
            self._fold()
        if self.done >= self.size:
            yield "".join(self.blocks)
            self.blocks.clear()
            self.done = 0

    def drain(self) -> Iterator[str]:
        if self.parts:
            self._fold()
        text = "".join(self.blocks)
        self.blocks.clear()
        self.done = 0
        if text:
            yield text

    def value(self, o: Any, nl: str) -> None:
        """Write `o` (its lines after the first starting with `nl`, the newline and indent of where it sits)."""
        put = self.parts.append
        if isinstance(o, str):
            put(_string(o))
        elif o is None:
            put("null")
        elif o is True:
            put("true")
        elif o is False:
            put("false")
        elif isinstance(o, int):
            put(int.__repr__(o))
        elif isinstance(o, float):
            put(_float(o))
        elif isinstance(o, (list, tuple)):
            if not o:
                put("[]")
                return
            inner = nl + "  "
            sep = "[" + inner
            for item in o:
                if type(item) is str:  # (the common leaves, without a call each)
                    put(sep + _string(item))
                else:
                    put(sep)
                    self.value(item, inner)
                sep = "," + inner
            put(nl + "]")
        elif isinstance(o, dict):
            if not o:
                put("{}")
                return
            inner = nl + "  "
            sep = "{" + inner
            for key, item in o.items():
                head = sep + _string(key if type(key) is str else _key(key)) + ": "
                t = type(item)
                if t is str:
                    put(head + _string(item))
                elif t is int:
                    put(head + int.__repr__(item))
                else:
                    put(head)
                    self.value(item, inner)
                sep = "," + inner
            put(nl + "}")
        elif isinstance(o, Lazy):
            self.value_lazy(o, nl)
        else:
            raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")
        if len(self.parts) >= 8192:
            self._fold()

    def value_lazy(self, o: Lazy, nl: str) -> None:
        """A Lazy list: its items made, written and dropped one at a time."""
        inner = nl + "  "
        sep = "[" + inner
        for item in o.items:
            self.parts.append(sep)
            sep = "," + inner
            self.value(item, inner)
            if len(self.parts) >= 512:
                self._fold()
        self.parts.append("[]" if sep[0] == "[" else nl + "]")


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
