"""JSON text read as JSON values only: duplicate keys, NaN and Infinity, numbers beyond a float or Python's digit limit, and absurd nesting refused, each with its place (and JSON Lines told by shape)."""

from __future__ import annotations

import json
import math
import re
from typing import Any


class _Duplicate(ValueError):
    def __init__(self, key: str):
        self.key = key
        super().__init__(f"duplicate key {key!r}")


def _pairs(pairs: list) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


class _BadToken(ValueError):
    """A token json.loads reads that JSON does not have (`token`, as spelt in the text)."""

    def __init__(self, message: str, token: str):
        super().__init__(message)
        self.token = token


def _no_constants(name: str) -> Any:
    raise _BadToken(f"{name} is not valid JSON", name)


def _finite_float(text: str) -> float:
    # Python reads a literal beyond a double's range (1e400, valid JSON) as infinity, which would
    # then be written out as `Infinity`, not JSON: a number the input never held.
    value = float(text)
    if value in (math.inf, -math.inf):
        raise _BadToken(f"the number {text[:40]} is beyond the range of a 64-bit float", text)
    return value


# A JSON string, or a token outside strings that may be the one json.loads stopped at.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN|-?[0-9][0-9.eE+-]*)')


def _token_place(text: str, token: str) -> tuple[int, int] | None:
    """(line, column) of the first `token` in `text` outside a string, or None."""
    for m in _TOKENS.finditer(text):
        if m.group(1) == token:
            return _line_col(text, m.start(1))
    return None


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


class JsonTextError(ValueError):
    """What is wrong with a JSON text, and where (`line`, `column`: 1-based, None when unknown)."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.line, self.column = line, column


def loads_strict(text: str, line_offset: int = 0) -> Any:
    """json.loads of `text` that rejects duplicate keys, NaN/Infinity (spelt, or a literal that
    overflows a float), numbers past Python's digit limit and absurd nesting: JsonTextError with the
    place (lines counted from `line_offset` + 1)."""
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constants,
                          parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        line, col = exc.lineno, exc.colno
        if exc.pos >= len(text):
            # The text ended too soon: the place is where it stops, not a line past its last one.
            line, col = _line_col(text, len(text.rstrip(" \t\r\n")))
        raise JsonTextError(exc.msg, line + line_offset, col) from None
    except _Duplicate as exc:
        key, place = _first_duplicate(text)
        if place is None:  # (not found: the hook's key, without a place)
            key = exc.key
        else:
            place = (place[0] + line_offset, place[1])
        raise JsonTextError(f"duplicate key {key!r} (a key may appear once per object)", *(place or ())) from None
    except _BadToken as exc:
        place = _token_place(text, exc.token)
        raise JsonTextError(str(exc), *((place[0] + line_offset, place[1]) if place is not None else ())) from None
    except ValueError as exc:
        if "Exceeds the limit" in str(exc):  # Python's int() guard (sys.get_int_max_str_digits)
            # (an integer: a long float, or a minus sign, is no digit past the limit)
            long_number = next((m for m in _TOKENS.finditer(text) if m.group(1) and len(m.group(1).lstrip("-")) > 4300
                                and m.group(1).lstrip("-").isdigit()), None)
            line = col = None
            if long_number is not None:
                line, col = _line_col(text, long_number.start(1))
                line += line_offset
            raise JsonTextError("a number of more than 4300 digits", line, col) from None
        raise JsonTextError(str(exc)) from None
    except RecursionError:
        line, col = _too_deep_place(text)
        raise JsonTextError("nested too deeply to be a tool definition", line + line_offset, col) from None


# A string (a key when a colon follows it) or a bracket; whatever else lies between is skipped.
_KEY_OR_BRACKET = re.compile(r'("[^"\\]*(?:\\.[^"\\]*)*")([ \t\n\r]*:)?|[{}\[\]]')


def _first_duplicate(text: str) -> tuple[str | None, tuple[int, int] | None]:
    """The first key, in the order of the text, that its object already has, and its (line,
    column); (None, None) when there is none. The hook that finds a duplicate is not told where it
    is, and the key's spelling elsewhere in the text (or an escape of it) would be another place."""
    objects: list = []  # per open bracket: the keys of an object so far, None for an array
    for m in _KEY_OR_BRACKET.finditer(text):
        raw = m.group(1)
        if raw is None:
            c = text[m.start()]
            if c == "{" or c == "[":
                objects.append(set() if c == "{" else None)
            elif objects:
                objects.pop()
        elif m.group(2) and objects and objects[-1] is not None:
            key = raw[1:-1] if "\\" not in raw else json.loads(raw)
            if key in objects[-1]:
                return key, _line_col(text, m.start())
            objects[-1].add(key)
    return None, None


# Far deeper than a tool definition goes, and shallower than json.loads fails at (about 1,000).
_DEEP = 500


def _too_deep_place(text: str) -> tuple[int, int]:
    """(line, column) of the first bracket that opens more than _DEEP levels deep (else of the
    deepest): where a text json.loads found too deep to read becomes so."""
    depth = deepest = where = 0
    for m in _KEY_OR_BRACKET.finditer(text):
        c = text[m.start()]
        if c == "{" or c == "[":
            depth += 1
            if depth > deepest:
                deepest, where = depth, m.start()
                if depth > _DEEP:
                    break
        elif c == "}" or c == "]":
            depth -= 1
    return _line_col(text, where)


_NON_BLANK = re.compile(r"[^ \t\r\n]")
_FIRST_LINE = re.compile(r"[^ \t\r\n][^\n]*")  # from the first character that is not JSON whitespace
_NOT_AN_OBJECT_LINE = re.compile(r"^[ \t\r]*[^ \t\r\n{]", re.MULTILINE)  # a line not blank, not `{...`


def json_lines_shaped(text: str) -> bool:
    """Whether a text that is not one JSON document is JSON Lines by its shape: it has more than
    one line, and its first is a JSON value on its own (json.loads stopped at "Extra data" on a
    later line) or every line starts an object (so that a bad first line loses no other).
    A document printed over several lines has lines of `"key": value`, `]` or `}`."""
    first = _FIRST_LINE.search(text)
    if first is None or _NON_BLANK.search(text, first.end()) is None:
        return False
    if _NOT_AN_OBJECT_LINE.search(text) is None:
        return True
    try:
        loads_strict(first.group())
    except JsonTextError:
        return False
    return True
