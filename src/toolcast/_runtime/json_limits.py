"""Depth- and size-bounded JSON for the run-time loop: decode model output, check tool results."""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Mapping
from typing import Any

__all__ = ["JsonLimitError", "loads_bounded", "plain_json"]

# A JSON string token, escapes included (unrolled so that it runs in linear time).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
# Every bracket becomes "[" or "]": only nesting matters, not which kind (json rejects a mismatch).
_BRACKETS_ONLY = str.maketrans({"{": "[", "}": "]"})
_NOT_BRACKET = re.compile(r"[^\[\]]+")
# A surrogate code point on its own: Python strings can hold one, UTF-8 (and so no server) cannot.
_SURROGATE = re.compile("[\ud800-\udfff]")
# An integer of up to this many bits has at most 4,000 digits, within Python's default digit limit
# (4,300): the fast copy takes it; a longer one is for the careful copy to judge.
_SHORT_INT_BITS = 13_000
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class JsonLimitError(ValueError):
    """A JSON text or value is too deep, too large, or not JSON; the message is a predicate
    ("is nested more than 100 levels deep") for the caller to put after its subject."""


def _nesting_exceeds(text: str, limit: int) -> bool:
    """Whether decoding ``text`` would nest arrays/objects more than ``limit`` levels deep.

    Linear in the text (a few C-level passes): brackets inside strings are removed first, then
    innermost ``[]`` pairs are peeled one level per pass. An unbalanced rest counts as deep as
    its opening brackets, which is what the decoder would descend into before failing.
    """
    if text.count("[") + text.count("{") <= limit:
        return False  # cannot nest deeper than it has brackets
    shape = _NOT_BRACKET.sub("", _STRING.sub("", text).translate(_BRACKETS_ONLY))
    depth = 0
    while shape:
        peeled = shape.replace("[]", "")
        if peeled == shape:
            return depth + shape.count("[") > limit
        depth += 1
        if depth > limit:
            return True
        shape = peeled
    return False


def _finite_float(token: str) -> float:
    value = float(token)
    if math.isinf(value):  # 1e400 decodes to inf, which no JSON text can carry back
        raise JsonLimitError(f"holds the number {token[:40]}, which is out of range")
    return value


def _reject_constant(token: str) -> Any:
    raise JsonLimitError(f"holds {token}, which is not valid JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)
_SCAN = _DECODER.scan_once


def loads_bounded(text: str, max_depth: int, max_bytes: int) -> Any:
    """``json.loads`` that refuses texts over ``max_bytes`` (UTF-8) or ``max_depth`` levels.

    Raises :class:`JsonLimitError` for a limit, a non-finite number (``NaN``, ``1e400``), a
    number too long to convert or a lone surrogate (``"\\ud800"``, not Unicode text), and ``json.JSONDecodeError`` (also a ValueError) for bad JSON.
    """
    n = len(text)
    # Characters first (at most 4 UTF-8 bytes each): the UTF-8 size is only computed when it
    # could exceed the bound.
    if n * 4 > max_bytes and (n > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes):
        raise JsonLimitError(f"is larger than {max_bytes} bytes")
    # A JSON text nests a level per bracket pair: one of 2 * max_depth + 1 characters or fewer
    # that decodes is never too deep, and counting brackets rules it out for most others.
    short = n <= 2 * max_depth + 1
    if not short:
        _check_nesting(text, max_depth)
    try:
        # The decoder's C scanner on its own: json.loads' Python wrappers cost a third as
        # much again. It accepts exactly one value from the first character to the last.
        value, end = _SCAN(text, 0)
    except Exception:  # any failure: the full decode below raises it in its own words
        end = -1
    if end != n:
        if short:  # not decoded: an unbalanced text may still open too many levels
            _check_nesting(text, max_depth)
        value = _decode(text, max_depth)
    # Cheapest first: isascii() reads a flag, a one-character search is a memchr, while a
    # longer one walks the text (a 2,000-character argument: 1.6 µs of a 2.5 µs decode).
    if (not text.isascii() and _SURROGATE.search(text)) or (
        "\\" in text and "\\u" in text and _SURROGATE_ESCAPE.search(text)
    ):
        plain_json(value, max_depth=max_depth)  # only then: is each surrogate one of a pair?
    return value


def _check_nesting(text: str, max_depth: int) -> None:
    if not _few_openers(text, max_depth) and _nesting_exceeds(text, max_depth):
        raise JsonLimitError(f"is nested more than {max_depth} levels deep")


def _few_openers(text: str, limit: int) -> bool:
    """Whether ``text`` has at most ``limit`` opening brackets (so it cannot nest deeper).

    While there are few, each is found with a memchr; past that, all are counted. On a long
    text with a handful of objects, that is a fifth of what counting both kinds costs.
    """
    seen = 0
    for bracket in "{[":
        at = text.find(bracket)
        while at >= 0:
            seen += 1
            if seen > _FEW:
                return text.count("[") + text.count("{") <= limit
            at = text.find(bracket, at + 1)
    return seen <= limit


_FEW = 8


def _decode(text: str, max_depth: int) -> Any:
    """The whole text decoded (surrounding whitespace allowed), or the decoder's error."""
    try:
        if text.startswith("\ufeff"):  # json.loads words this error itself
            return json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
        # The same decoder, built once: json.loads with hooks builds one per call.
        return _DECODER.decode(text)
    except RecursionError:  # only when the caller's own stack is already deep
        raise JsonLimitError(f"is nested too deeply to decode here (limit {max_depth})") from None
    except json.JSONDecodeError:
        raise
    except JsonLimitError:
        raise
    except ValueError as exc:  # e.g. an integer longer than Python's digit limit
        raise JsonLimitError(
            "holds a value that cannot be decoded: " + " ".join(str(exc).split())[:200]
        ) from None


def _check_text(text: str) -> None:
    found = _SURROGATE.search(text)
    if found:
        raise JsonLimitError(
            f"holds a lone surrogate (U+{ord(found.group()):04X}), which is not Unicode text"
        )


def _kind(value: Any) -> str:
    return "None" if value is None else type(value).__name__


class _Unusual(Exception):
    """A value the fast copy does not take; the careful one decides (and words any error)."""


def plain_json(value: Any, max_depth: int, max_bytes: int | None = None, nulls: Any = None) -> Any:
    """A fresh copy of ``value`` as plain JSON data (dict, list, str, int, finite float, ...).

    Raises :class:`JsonLimitError` naming the first place that is nested deeper than
    ``max_depth``, has a non-string key, a non-finite number, a lone surrogate in a string, or
    a value JSON has no form for; and, given ``max_bytes``, for a value whose JSON text is
    larger (UTF-8, compact separators, non-ASCII unescaped: the least any provider sends).
    Recursion is bounded by ``max_depth``, so any input is safe. Given ``nulls`` (a tool's null
    paths from toolcast.nulls.compiled_paths), the copy is without the nulls at those paths, as
    nulls.strip_owned leaves it (the fast copy leaves them out as it copies); the size checked
    is still that of ``value``.
    """
    counted = [1]  # a JSON text has a byte at the least
    try:
        if type(value) is dict:
            out = _copy_dict(value, max_depth, counted, nulls)
        else:
            out = _copy(value, max_depth, counted, nulls)
        measured = value  # (the fast copy took exact builtin types only: its JSON text is value's)
    except _Unusual:
        out = measured = _plain_json(value, max_depth=max_depth)
        counted[0] = -1  # the careful copy does not count: the size is measured
    if max_bytes is not None and not 0 <= counted[0] * _COUNTED_SHARE <= max_bytes:
        _check_size(measured, counted[0], max_bytes)
    if nulls is not None and counted[0] < 0:  # the careful copy keeps every null: strip it now
        from toolcast.nulls import strip_owned

        strip_owned(out, nulls)
    return out


# The copy counts a lower bound of the JSON text's size: the characters of every string and key,
# the punctuation, a byte a scalar (3 a float, more for a long integer). The text takes at most 8
# bytes a counted one (a string's character up to 6, "\u001f"; a float up to 24, "-2.2e-308" at
# full precision), so only a value counted over 1/8 of the limit can exceed it: only then is it measured.
_COUNTED_SHARE = 8


def _check_size(value: Any, counted: int, max_bytes: int) -> None:
    """JsonLimitError if ``value``'s JSON text is over ``max_bytes``; ``counted``: its lower bound, or -1."""
    if counted <= max_bytes:
        try:
            text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        except ValueError as exc:  # an integer longer than Python's digit limit
            raise JsonLimitError(
                "holds a value that cannot be encoded: " + " ".join(str(exc).split())[:200]
            ) from None
        counted = len(text) if text.isascii() else len(text.encode("utf-8"))
        if counted <= max_bytes:
            return
    raise JsonLimitError(f"is larger than {max_bytes} bytes")


def _copy(value: Any, depth: int, counted: list, nulls: Any) -> Any:
    """Exact builtin types only (what a JSON decoder builds); anything else is _Unusual. ``nulls``:
    the null-path node at this value (None: none), whose nulls the copy leaves out."""
    kind = type(value)
    if kind is str:
        if value.isascii() or not _SURROGATE.search(value):
            counted[0] += len(value)
            return value
    elif kind is int:
        bits = value.bit_length()
        if bits <= _SHORT_INT_BITS:
            counted[0] += bits >> 3  # n bits: more than n / 8 digits
            return value
    elif kind is bool or value is None:
        return value
    elif kind is float:
        if math.isfinite(value):
            counted[0] += 2  # "0.0" at the least
            return value
    elif kind is dict:
        return _copy_dict(value, depth, counted, nulls)
    elif kind is list or kind is tuple:
        return _copy_list(value, depth, counted, nulls)
    raise _Unusual


def _copy_list(value: list | tuple, depth: int, counted: list, nulls: Any) -> list:
    if depth <= 0:
        raise _Unusual
    each = None if nulls is None else nulls.items  # (the node of every item)
    out = []
    size = 2 * len(value)  # a comma (or bracket) and a first byte an item: the rest below
    for item in value:
        kind = type(item)
        if kind is str:  # scalars inline, as in _copy_dict
            if not (item.isascii() or not _SURROGATE.search(item)):
                raise _Unusual
            out.append(item)
            size += len(item)
        elif kind is int:
            bits = item.bit_length()
            if bits > _SHORT_INT_BITS:
                raise _Unusual
            out.append(item)
            size += bits >> 3
        elif kind is bool or item is None:
            out.append(item)
        elif kind is dict:
            out.append(_copy_dict(item, depth - 1, counted, each))
        else:
            out.append(_copy(item, depth - 1, counted, each))
    counted[0] += size
    return out


_NO_ENDS: tuple = ()


def _copy_dict(value: dict, depth: int, counted: list, nulls: Any) -> dict:
    if depth <= 0:
        raise _Unusual
    out = value.copy()  # scalars as they are; each container is replaced by its copy below
    # The null paths here: the keys whose null is left out, the nodes of the keys they go on under.
    ends, under = (_NO_ENDS, None) if nulls is None else (nulls.ends, nulls.under)
    size = 5 * len(value)  # a key's quotes, colon and comma (or brace), a value's first byte
    for key, item in value.items():
        if type(key) is not str or not (key.isascii() or not _SURROGATE.search(key)):
            raise _Unusual
        kind = type(item)
        # Scalars inline: most values of a tool's arguments are, and a call each would double the cost.
        if kind is str:
            if not (item.isascii() or not _SURROGATE.search(item)):
                raise _Unusual
            size += len(key) + len(item)
        elif kind is int:
            bits = item.bit_length()
            if bits > _SHORT_INT_BITS:
                raise _Unusual
            size += len(key) + (bits >> 3)
        elif item is None:
            size += len(key)
            if key in ends:
                del out[key]
        elif kind is bool:
            size += len(key)
        elif kind is dict:
            out[key] = _copy_dict(item, depth - 1, counted, under.get(key) if under else None)
            size += len(key)
        elif kind is list:
            out[key] = _copy_list(item, depth - 1, counted, under.get(key) if under else None)
            size += len(key)
        else:
            out[key] = _copy(item, depth - 1, counted, under.get(key) if under else None)
            size += len(key)
    counted[0] += size
    return out


def _plain_json(value: Any, *, max_depth: int, _depth: int = 0) -> Any:
    """:func:`plain_json` one value at a time: every check, and the error for the first miss."""
    if isinstance(value, str):
        _check_text(value)
        return value
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if value.bit_length() > _SHORT_INT_BITS:
            try:
                str(value)
            except ValueError:  # past Python's digit limit: no JSON text of it can be written or read
                raise JsonLimitError(
                    f"holds an integer of more than {sys.get_int_max_str_digits()} digits, past Python's limit"
                ) from None
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise JsonLimitError(f"holds the non-finite number {value!r}")
        return float(value)
    if isinstance(value, (Mapping, list, tuple)):
        if _depth >= max_depth:
            raise JsonLimitError(f"is nested more than {max_depth} levels deep")
        if isinstance(value, Mapping):
            out = {}
            for key, item in value.items():
                if isinstance(key, str):
                    _check_text(key)
                else:
                    raise JsonLimitError(f"has a key of type {_kind(key)}; JSON keys are strings")
                out[key] = _plain_json(item, max_depth=max_depth, _depth=_depth + 1)
            return out
        return [_plain_json(item, max_depth=max_depth, _depth=_depth + 1) for item in value]
    raise JsonLimitError(f"holds a {_kind(value)}, which has no JSON form")


def nests_past(value: Any, limit: int) -> bool:
    """Whether JSON-like ``value`` nests more than ``limit`` levels (a scalar is level 0, the outer
    object or array level 1), found without recursion."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Mapping):
            children: Any = node.values()
        elif isinstance(node, (list, tuple)):
            children = node
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (Mapping, list, tuple)))
    return False
