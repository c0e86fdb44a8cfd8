"""Depth- and size-bounded JSON for the run-time loop: decode model output, check tool results."""

from __future__ import annotations

import json
import math
import re
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


def loads_bounded(text: str, *, max_depth: int, max_bytes: int) -> Any:
    """``json.loads`` that refuses texts over ``max_bytes`` (UTF-8) or ``max_depth`` levels.

    Raises :class:`JsonLimitError` for a limit, a non-finite number (``NaN``, ``1e400``), a
    number too long to convert or a lone surrogate (``"\\ud800"``, not Unicode text), and ``json.JSONDecodeError`` (also a ValueError) for bad JSON.
    """
    # Characters first: the UTF-8 size is only computed when it could exceed the bound.
    too_large = len(text) > max_bytes or (
        len(text) * 4 > max_bytes and len(text.encode("utf-8", "surrogatepass")) > max_bytes
    )
    if too_large:
        raise JsonLimitError(f"is larger than {max_bytes} bytes")
    if _nesting_exceeds(text, max_depth):
        raise JsonLimitError(f"is nested more than {max_depth} levels deep")
    try:
        if text.startswith("\ufeff"):  # json.loads words this error itself
            value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
        else:  # the same decoder, built once: json.loads with hooks builds one per call
            value = _DECODER.decode(text)
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
    if _SURROGATE.search(text) or _SURROGATE_ESCAPE.search(text):
        plain_json(value, max_depth=max_depth)  # only then: is each surrogate one of a pair?
    return value


def _check_text(text: str) -> None:
    found = _SURROGATE.search(text)
    if found:
        raise JsonLimitError(
            f"holds a lone surrogate (U+{ord(found.group()):04X}), which is not Unicode text"
        )


def _kind(value: Any) -> str:
    return "None" if value is None else type(value).__name__


def plain_json(value: Any, *, max_depth: int, _depth: int = 0) -> Any:
    """A fresh copy of ``value`` as plain JSON data (dict, list, str, int, finite float, ...).

    Raises :class:`JsonLimitError` naming the first place that is nested deeper than
    ``max_depth``, has a non-string key, a non-finite number, a lone surrogate in a string, or
    a value JSON has no form for.
    Recursion is bounded by ``max_depth``, so any input is safe.
    """
    if isinstance(value, str):
        _check_text(value)
        return value
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
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
                out[key] = plain_json(item, max_depth=max_depth, _depth=_depth + 1)
            return out
        return [plain_json(item, max_depth=max_depth, _depth=_depth + 1) for item in value]
    raise JsonLimitError(f"holds a {_kind(value)}, which has no JSON form")
