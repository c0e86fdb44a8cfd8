"""ECMA-262 class escapes for the run-time check: a `pattern` written so that the validator's engine (Rust `regex` syntax,
whose `\\d`, `\\w`, `\\s` and `.` are Unicode-aware) reads it as JSON Schema does (ECMA-262, §22.2.2.9 CharacterClassEscape);
and the same for Python's `re`, where the compile must tell which names a pattern matches (as_python)."""

from __future__ import annotations

_MAX = 0x10FFFF
# ECMA-262 WhiteSpace (§12.2: TAB, VT, FF, SP, NBSP, ZWNBSP and category Zs) and LineTerminator (§12.3: LF, CR, LS, PS).
_SPACE = ((0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A), (0x2028, 0x2029),
          (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF))
_DIGIT = ((0x30, 0x39),)
_WORD = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_LINE = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))


def _complement(ranges: tuple) -> tuple:
    out, at = [], 0
    for lo, hi in ranges:
        if lo > at:
            out.append((at, lo - 1))
        at = hi + 1
    if at <= _MAX:
        out.append((at, _MAX))
    return tuple(out)


def _spelled(ranges: tuple) -> str:
    return "".join(f"\\x{{{lo:X}}}" if lo == hi else f"\\x{{{lo:X}}}-\\x{{{hi:X}}}" for lo, hi in ranges)


def _spelled_py(ranges: tuple) -> str:
    return "".join(f"\\U{lo:08X}" if lo == hi else f"\\U{lo:08X}-\\U{hi:08X}" for lo, hi in ranges)


# An escape as the ranges it means in ECMA-262 (inside a class: its members; outside: a class of them).
_ESCAPES = {"d": _DIGIT, "D": _complement(_DIGIT), "w": _WORD, "W": _complement(_WORD), "s": _SPACE,
            "S": _complement(_SPACE)}
# (members of each escape, `.`, `[]` (nothing), `[^]` (anything)) in the engine's syntax, and in Python's.
_RUST = ({k: _spelled(v) for k, v in _ESCAPES.items()}, "[" + _spelled(_complement(_LINE)) + "]",
         "[^\\x{0}-\\x{10FFFF}]", "[\\x{0}-\\x{10FFFF}]")
_PY = ({k: _spelled_py(v) for k, v in _ESCAPES.items()}, "[" + _spelled_py(_complement(_LINE)) + "]",
       "[^\\U00000000-\\U0010FFFF]", "[\\U00000000-\\U0010FFFF]")


def as_ecma(pattern: str) -> str:
    """`pattern` with `\\d`, `\\D`, `\\w`, `\\W`, `\\s`, `\\S` and `.` spelled as the code point ranges ECMA-262 gives
    them, and a `[` inside a class escaped (a literal there in ECMA-262, a nested class in the engine's syntax); the same
    string when it holds none of them."""
    if "\\" not in pattern and "." not in pattern and "[" not in pattern:
        return pattern
    return _written(pattern, _RUST, "$")


def as_python(pattern: str) -> str:
    """`pattern` as as_ecma writes it, for Python's `re` (compiled without flags): the ranges in its spelling, and a `$`
    outside a class written `\\Z` (Python's `$` also matches before a final newline; ECMA-262's, without the `m` flag,
    only at the end). What ECMA-262 writes otherwise than Python (a named group `(?<n>`, `\\cX`) does not compile: the
    caller cannot tell then what the pattern matches."""
    if "\\" not in pattern and "." not in pattern and "[" not in pattern and "$" not in pattern:
        return pattern
    return _written(pattern, _PY, "\\Z")


def _written(pattern: str, spelling: tuple, end: str) -> str:
    """as_ecma's rewrite of `pattern` in `spelling` (_RUST or _PY), a `$` outside a class written `end`."""
    members_of, dot, nothing, anything = spelling
    out: list[str] = []
    i, n, in_class = 0, len(pattern), False
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            e = pattern[i + 1]
            members = members_of.get(e)
            if members is None:
                out.append(pattern[i:i + 2])
            else:
                out.append(members if in_class else f"[{members}]")
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append("\\[" if c == "[" else c)
        elif c == "[":
            if pattern.startswith("]", i + 1) or pattern.startswith("^]", i + 1):  # (`[]`: nothing, `[^]`: anything)
                out.append(anything if pattern[i + 1] == "^" else nothing)
                i += 3 if pattern[i + 1] == "^" else 2
                continue
            in_class = True
            out.append(c)
            if pattern.startswith("^", i + 1):
                out.append("^")
                i += 1
        elif c == ".":
            out.append(dot)
        elif c == "$":
            out.append(end)
        else:
            out.append(c)
        i += 1
    return "".join(out)
