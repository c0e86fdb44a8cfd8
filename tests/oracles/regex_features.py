"""Which regex features a `pattern` uses, by the names the fact readings give (tests/oracles/facts.py:
``regex_unsupported``). Oracle logic, not a fact: each name is matched by a fragment of the pattern's
text outside character classes (inside a class, ``\\b`` is a backspace, not a boundary). Imports nothing
from toolcast."""

from __future__ import annotations

import re

FRAGMENTS = {
    "backreference": r"\\[1-9]|\\k<",
    "lookaround": r"\(\?<?[=!]",
    "word-boundary": r"\\[bB]",
    "unicode-property-escape": r"\\[pP]\{",
    "modifiers": r"\(\?[a-zA-Z]+[):-]",
    "conditional": r"\(\?\(",
}


def uses_any(pattern: str, features: frozenset) -> bool:
    """Whether `pattern` uses one of `features` (names of FRAGMENTS; an unknown name is an error)."""
    unknown = set(features) - set(FRAGMENTS)
    if unknown:
        raise ValueError(f"no fragment for regex features {sorted(unknown)}: add one to FRAGMENTS")
    if not features:
        return False
    return re.search("|".join(FRAGMENTS[f] for f in sorted(features)), outside_classes(pattern)) is not None


def outside_classes(pattern: str) -> str:
    """The pattern with [...] classes blanked."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            if not in_class:
                out.append(pattern[i:i + 2])
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
        elif c == "]" and in_class:
            in_class = False
        elif not in_class:
            out.append(c)
        i += 1
    return "".join(out)
