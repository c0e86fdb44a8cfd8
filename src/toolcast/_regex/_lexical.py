"""Character-level rules of ECMA-262 patterns: UTF-16 code units, legacy octal escapes, group names, property names."""

from __future__ import annotations

import re
from typing import Final

from toolcast._regex._errors import Fail
from toolcast._regex._unicode_props import (
    BINARY_PROPERTIES,
    GENERAL_CATEGORY_VALUES,
    NON_BINARY_PROPERTIES,
    SCRIPT_VALUES,
)

_NAME_ESCAPE: Final = re.compile(
    r"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})"
    r"|\\u([0-9a-fA-F]{4})|\\u\{([0-9a-fA-F]+)\}|\\"
)


def utf16_units(text: str) -> list[int]:
    """Code units as legacy (non-u) mode sees them: astral characters are surrogate pairs."""
    units: list[int] = []
    for ch in text:
        cp = ord(ch)
        if cp > 0xFFFF:
            cp -= 0x10000
            units.append(0xD800 + (cp >> 10))
            units.append(0xDC00 + (cp & 0x3FF))
        else:
            units.append(cp)
    return units


def legacy_octal(digits: str) -> tuple[int, int]:
    """Annex B LegacyOctalEscapeSequence (or \\8 \\9 identity): (value, digits consumed)."""
    if digits[0] in "89":
        return ord(digits[0]), 1
    n = 1
    while n < len(digits) and n < (3 if digits[0] in "0123" else 2) and digits[n] in "01234567":
        n += 1
    return int(digits[:n], 8), n


def is_id_start(ch: str) -> bool:
    # str.isidentifier uses XID_Start/XID_Continue, which differ from ID_* only for a handful
    # of compatibility characters; close enough for group names.
    return ch in "$_" or ch.isidentifier()


def is_id_continue(ch: str) -> bool:
    return ch in "$\u200c\u200d" or ("a" + ch).isidentifier()


def decode_group_name(raw: str) -> str | None:
    """Return the StringValue of a RegExpIdentifierName (escapes resolved), or None if invalid."""
    out: list[str] = []
    pos = 0
    for m in _NAME_ESCAPE.finditer(raw):
        out.append(raw[pos : m.start()])
        pos = m.end()
        if m.group(1):
            hi, lo = int(m.group(1), 16), int(m.group(2), 16)
            out.append(chr(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)))
        elif m.group(3):
            out.append(chr(int(m.group(3), 16)))
        elif m.group(4):
            value = int(m.group(4), 16)
            if value > 0x10FFFF:
                return None
            out.append(chr(value))
        else:
            return None  # any other backslash
    out.append(raw[pos:])
    name = "".join(out)
    if not name or not is_id_start(name[0]):
        return None
    if not all(is_id_continue(ch) for ch in name[1:]):
        return None
    return name


def check_property(body: str, pos: int) -> None:
    """Validate UnicodePropertyValueExpression (exact names, as the spec demands)."""
    if "=" in body:
        name, _, value = body.partition("=")
        if name not in NON_BINARY_PROPERTIES:
            raise Fail(pos, f"invalid property name {name!r}")
        allowed = GENERAL_CATEGORY_VALUES if name in ("General_Category", "gc") else SCRIPT_VALUES
        if value not in allowed:
            raise Fail(pos, f"invalid property value {value!r} for {name}")
    elif body not in GENERAL_CATEGORY_VALUES and body not in BINARY_PROPERTIES:
        raise Fail(pos, f"invalid property name {body!r}")
