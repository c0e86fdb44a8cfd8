"""Reading a stdio MCP server's output lines at C speed: a bound per line and on the answers held at
once (over either, the line is skipped, its id read from its head or its end), never a scan of a long
line byte by byte in Python."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

__all__ = ["AnswerBudget", "LineReader", "Skipped", "answer_budget", "answer_id", "flatten_below", "request_id",
           "set_answer_budget"]

#: Of a line that is skipped (too long, or over the budget), or that cannot be read, how many
#: bytes from its start are scanned for its id; past them only its end is looked at.
HEAD_SCAN_BYTES = 64 * 1024
_TAIL_BYTES = 512
_HEAD_SHOWN = 160  # of a skipped line, the bytes kept for its report
# A top-level id written last (as the TypeScript SDK does): `, "id": 5}` at the very end of the line.
# In JSON text the last `}` closes the root, so a scalar member just before it is the root's.
_TAIL_ID = re.compile(rb',[ \t\r]*"id"[ \t\r]*:[ \t\r]*(-?[0-9]{1,20}|"[^"\\]{0,256}")[ \t\r]*\}[ \t\r]*$')

# A scan for the top-level "id" of a JSON-RPC answer the SDK cannot read (nested too deeply, not
# UTF-8, too long to hold), so that the request it answers fails now instead of at its timeout.
# It reads the line in pieces, holding none of it: a line too long to keep is scanned as it streams by.
_OUTSIDE = re.compile(rb'["\[\]{}:,]')  # outside a string: what changes the scan's state
_INSIDE = re.compile(rb'["\\]')  # inside a string: its end, or an escape
_NESTED = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|"|[\[\]{}]', re.DOTALL)  # a whole string, or its start
_INT_ID = re.compile(rb"-?[0-9]{1,20}")  # leading zeros too: the SDK matches "01" to request 1
_KEY_BYTES = 16  # a longer key is none of "id", "result", "error"
_ID_BYTES = 256  # a longer id is none the SDK sent


class _AnswerScan:
    """The top-level ``id`` of a line that looks like a JSON-RPC answer, fed in pieces."""

    def __init__(self) -> None:
        self.depth = 0
        self.in_string = False
        self.escaped = False  # a piece ended inside a string, just after a backslash
        self.text = bytearray()  # the start of the string being read
        self.key = b""  # a string just closed at the top level: a key if a ':' follows
        self.value: bytearray | None = None  # the id's text, while it is read
        self.ident: bytes | None = None  # the id's text once read (b"": unusable)
        self.is_answer = False  # the top level has a "result" or an "error"
        self.is_request = False  # the top level has a "method"

    def feed(self, piece: bytes) -> None:
        pos, end = 0, len(piece)
        while pos < end:
            if self.in_string:
                pos = self._string(piece, pos)
                continue
            if self.depth > 1:
                pos = self._nested(piece, pos)
                continue
            found = _OUTSIDE.search(piece, pos)
            stop = found.start() if found else end
            self._keep(piece[pos:stop])
            if found is None:
                return
            pos = found.end()
            self._token(found.group())

    def _nested(self, piece: bytes, pos: int) -> int:
        """Inside a top-level member's value: only brackets count, strings are skipped whole
        (the fast path: nearly all of a long answer is there)."""
        depth = self.depth
        for found in _NESTED.finditer(piece, pos):
            start, stop = found.span()
            if piece[start] == 0x22:  # '"'
                if stop - start == 1:  # a string that goes on in the next piece
                    self.depth, self.in_string = depth, True
                    return stop
                continue
            depth += 1 if piece[start] in b"[{" else -1
            if depth == 1:
                self.depth = depth
                return stop
        self.depth = depth
        return len(piece)

    def _keep(self, data: bytes) -> None:
        if self.value is not None:
            self.value += data
            if len(self.value) > _ID_BYTES:
                self.value, self.ident = None, b""

    def _string(self, piece: bytes, pos: int) -> int:
        if self.escaped:  # the escaped byte is the first of this piece
            self.escaped = False
            self._keep(piece[pos : pos + 1])
            return pos + 1
        found = _INSIDE.search(piece, pos)
        stop = found.end() if found else len(piece)
        self._keep(piece[pos:stop])
        if self.depth == 1 and len(self.text) <= _KEY_BYTES:
            self.text += piece[pos:stop]
        if found is not None and found.group() == b"\\":
            self.escaped = True
        elif found is not None:
            self.in_string = False
            self.key = bytes(self.text[:-1]) if self.depth == 1 else b""
        return stop

    def _token(self, token: bytes) -> None:
        at_top = self.depth == 1
        key, self.key = self.key, b""
        if token == b'"':
            self._keep(token)
            self.in_string = True
            self.text.clear()
        elif token in (b"{", b"["):
            if at_top and self.value is not None:  # an id that is an object or an array
                self.value, self.ident = None, b""
            self.depth += 1
        elif token == b":" and at_top:
            if key == b"id" and self.ident is None and self.value is None:
                self.value = bytearray()
            self.is_answer = self.is_answer or key in (b"result", b"error")
            self.is_request = self.is_request or key == b"method"
        elif token in (b",", b"}", b"]"):
            if at_top and self.value is not None:
                self.ident, self.value = bytes(self.value), None
            if token != b",":
                self.depth -= 1

    def answer_id(self, request: bool = False) -> int | str | None:
        """The id, when the line is an answer (or with `request`, a request) and its id is an id
        the SDK could have sent (or a client, an integer or a string)."""
        raw = (self.ident or b"").strip()
        if not (self.is_request if request else self.is_answer) or not raw:
            return None
        if _INT_ID.fullmatch(raw):
            return int(raw)
        try:
            ident = json.loads(raw.decode("utf-8"))
            ident.encode("utf-8")  # a lone surrogate cannot be sent on in a message
        except (ValueError, AttributeError):
            return None
        return ident if isinstance(ident, str) else None


def _tail_id(tail: bytes) -> int | str | None:
    found = _TAIL_ID.search(tail)
    if found is None:
        return None
    raw = found.group(1)
    if _INT_ID.fullmatch(raw):
        return int(raw)
    try:
        ident = json.loads(raw.decode("utf-8"))
    except ValueError:
        return None
    return ident if isinstance(ident, str) else None


def answer_id(line: bytes) -> int | str | None:
    """The id of ``line`` when it looks like a JSON-RPC answer: read from its first HEAD_SCAN_BYTES,
    else from its end (a bounded scan, whatever the line's length)."""
    scan = _AnswerScan()
    scan.feed(line[:HEAD_SCAN_BYTES])
    return _id_of(scan, line[-_TAIL_BYTES:])


def _id_of(scan: _AnswerScan, tail: bytes, request: bool = False) -> int | str | None:
    if scan.ident is not None:
        return scan.answer_id(request)
    return _tail_id(tail) if (scan.is_request if request else scan.is_answer) else None


def request_id(line: bytes) -> int | str | None:
    """The id of ``line`` when it looks like a JSON-RPC request (a top-level ``method`` and an
    integer or string ``id``), read as answer_id reads an answer's: what a proxy answers with an
    error when the SDK cannot read the request (too deep, a lone surrogate escape, a number out of range)."""
    scan = _AnswerScan()
    scan.feed(line[:HEAD_SCAN_BYTES])
    return _id_of(scan, line[-_TAIL_BYTES:], True)


_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)


def flatten_below(text: str, depth: int) -> str:
    """JSON ``text`` with each array or object that starts below level ``depth`` written as ``{}``
    (strings skipped whole; no recursion, so any nesting is read)."""
    out: list[str] = []
    level, kept, start = 0, 0, -1
    for found in _STRING_OR_BRACKET.finditer(text):
        char = text[found.start()]
        if char == '"':
            continue
        if char in "[{":
            level += 1
            if level == depth + 1:
                start = found.start()
        else:
            if level == depth + 1 and start >= 0:
                out += (text[kept:start], "{}")
                kept, start = found.end(), -1
            level -= 1
    out.append(text[kept:])
    return "".join(out)


class AnswerBudget:
    """The memory the answers being read or held take, across every server of the process: each
    byte of an answer counts COPIES times, for the copies the answer has on its way (the line read,
    the parsed message, the JSON written and its encoding, and what the allocator keeps of them:
    about 5 MB per MB of answer measured through the proxy), so that ``total`` bounds memory, not text."""

    COPIES = 6

    def __init__(self, total: int) -> None:
        self.total = total
        self.held = 0

    def take(self, size: int) -> bool:
        """Count ``size`` bytes of an answer, unless that takes the total over; whether it did."""
        if self.held + size * self.COPIES > self.total:
            return False
        self.held += size * self.COPIES
        return True

    def force(self, size: int) -> None:
        """Count ``size`` bytes of an answer already read, even over the total."""
        self.held += size * self.COPIES

    def give(self, size: int) -> None:
        self.held = max(0, self.held - size * self.COPIES)


#: The process's budget (the proxy sets it from --memory-budget): 512 MiB unless told.
answer_budget = AnswerBudget(512 * 1024 * 1024)


def set_answer_budget(mib: float) -> None:
    """Set the process's answer budget to ``mib`` MiB (`toolcast proxy --memory-budget`)."""
    if not (math.isfinite(mib) and mib > 0):
        raise ValueError(f"--memory-budget {mib:g}: give a number of MiB above 0")
    total = mib * 1024 * 1024
    if not math.isfinite(total):  # (1e308 MiB: no number of bytes)
        raise ValueError(f"--memory-budget {mib:g}: too large to count in bytes; give a number of MiB above 0")
    answer_budget.total = int(total)


@dataclass
class Skipped:
    """A line that was not held: why, its start (for the report) and the id of the request it answers."""

    what: str
    why: str
    head: bytes
    ident: int | str | None


class LineReader:
    """Splits chunks into lines with bytes.find; a line longer than ``limit`` bytes, or one that would
    take ``budget`` over its total, is skipped: its first HEAD_SCAN_BYTES and last bytes are scanned
    for its id, the rest is passed over unread. Yields each line (bytes, still counted in the budget:
    the caller gives it back once done with it) or a :class:`Skipped`."""

    def __init__(self, limit: int, budget: AnswerBudget) -> None:
        self.limit, self.budget = limit, budget
        self.buf = bytearray()
        self.skipping: Skipped | None = None
        self._scan = _AnswerScan()
        self._scanned = 0
        self._tail = b""

    def feed(self, chunk: bytes) -> list[bytearray | Skipped]:
        out: list[bytearray | Skipped] = []
        pos, size = 0, len(chunk)
        while pos < size:
            newline = chunk.find(b"\n", pos)
            end = size if newline == -1 else newline
            if self.skipping is None and not self._hold(end - pos):
                self._skip(bytes(self.buf))
                self.budget.give(len(self.buf))
                self.buf = bytearray()
            if self.skipping is not None:
                self._pass(chunk[pos:end])
            else:
                self.buf += chunk[pos:end]
            if newline == -1:
                break
            out.append(self._end())
            pos = newline + 1
        return out

    def close(self) -> list[bytearray | Skipped]:
        """What is left at the end of the output: a last line without a newline, if any."""
        if self.skipping is None and not self.buf.strip():
            self.budget.give(len(self.buf))
            self.buf = bytearray()
            return []
        return [self._end()]

    def _hold(self, size: int) -> bool:
        if len(self.buf) + size > self.limit:
            self.skipping = Skipped(f"printed a line over {self.limit} bytes", f"it is over {self.limit} bytes",
                                    b"", None)
            return False
        if not self.budget.take(size):
            mib = self.budget.total / (1024 * 1024)
            why = f"the answers held at once would exceed the proxy's memory budget of {mib:g} MiB"
            self.skipping = Skipped("printed a line over the memory budget", why, b"", None)
            return False
        return True

    def _skip(self, held: bytes) -> None:
        assert self.skipping is not None
        self._scan, self._scanned, self._tail = _AnswerScan(), 0, b""
        self._pass(held)

    def _pass(self, piece: bytes) -> None:
        if self._scanned < HEAD_SCAN_BYTES:
            part = piece[: HEAD_SCAN_BYTES - self._scanned]
            self._scan.feed(part)
            self._scanned += len(part)
            skipping = self.skipping
            if skipping is not None and len(skipping.head) < _HEAD_SHOWN:
                skipping.head = (skipping.head + part[:_HEAD_SHOWN])[:_HEAD_SHOWN]
        self._tail = (self._tail + piece[-_TAIL_BYTES:])[-_TAIL_BYTES:]

    def _end(self) -> bytearray | Skipped:
        skipped, self.skipping = self.skipping, None
        if skipped is None:
            line, self.buf = self.buf, bytearray()  # (no copy: the caller owns it now)
            return line
        skipped.ident = _id_of(self._scan, self._tail)
        return skipped
