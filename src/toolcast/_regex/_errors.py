"""The errors pattern analysis raises: the public syntax errors, the failure raised inside parser callbacks, and
the position and wording of what the grammar itself rejects."""

from __future__ import annotations

import re
from typing import Final


class RegexSyntaxError(ValueError):
    """The pattern is not a valid ECMA-262 regular expression under the requested mode."""

    def __init__(self, pattern: str, position: int, message: str) -> None:
        super().__init__(pattern, position, message)
        self.pattern = pattern
        self.position = position  # 0-based index into pattern
        self.message = message

    @property
    def column(self) -> int:
        """1-based column, as an editor shows it."""
        return self.position + 1

    def __str__(self) -> str:
        return f"{self.message} at column {self.column}"


class RegexTooComplexError(RegexSyntaxError):
    """The pattern may be valid but is beyond what the analyzer agrees to handle."""


class Fail(Exception):
    """Raised inside parser callbacks, which do not see the pattern; converted by analyze()."""

    def __init__(self, position: int, message: str) -> None:
        super().__init__(position, message)
        self.position = position
        self.message = message


# A {n} / {n,} / {n,m} quantifier as the grammar reads it.
BRACE_QUANTIFIER: Final = re.compile(r"\{[0-9]+(?:,[0-9]*)?\}")
_STRUCTURE: Final = re.compile(
    r"(?P<esc>\\[\s\S]?)|(?P<cls>\[(?:\\[\s\S]?|[^\]\\])*(?P<close>\])?)|(?P<paren>[()])"
)


def _unterminated(pattern: str) -> tuple[int, str] | None:
    """Find an unclosed class or group by a cheap scan (only used on the error path)."""
    stack: list[int] = []
    for m in _STRUCTURE.finditer(pattern):
        if m.group("paren") == "(":
            stack.append(m.start())
        elif m.group("paren") == ")":
            if stack:
                stack.pop()
        elif m.group("cls") is not None and m.group("close") is None:
            if m.group("cls").endswith("\\") and m.end() == len(pattern):
                return m.end() - 1, "\\ at end of pattern"
            return m.start(), "unterminated character class"
        elif m.group("esc") == "\\":
            return m.start(), "\\ at end of pattern"
    if stack:
        return stack[-1], "unterminated group"
    return None


def from_lark_error(pattern: str, exc: Exception) -> RegexSyntaxError:
    token = getattr(exc, "token", None)
    if (token is not None and token.type == "$END") or type(exc).__name__ == "UnexpectedEOF":
        found = _unterminated(pattern)
        if found is not None:
            return RegexSyntaxError(pattern, found[0], found[1])
        return RegexSyntaxError(pattern, len(pattern), "unexpected end of pattern")
    pos = getattr(exc, "pos_in_stream", None)
    if token is not None:
        pos = token.start_pos
    if pos is None or pos >= len(pattern):
        return RegexSyntaxError(pattern, len(pattern), "unexpected end of pattern")
    ch = pattern[pos]
    if ch == "?" and pos > 0 and pattern[pos - 1] == "(":
        if pattern.startswith("(?<", pos - 1):
            return RegexSyntaxError(pattern, pos - 1, "invalid capture group name")
        return RegexSyntaxError(pattern, pos - 1, "invalid group")
    if ch in "*+?" or (ch == "{" and BRACE_QUANTIFIER.match(pattern, pos)):
        return RegexSyntaxError(pattern, pos, "nothing to repeat")
    if ch == ")":
        return RegexSyntaxError(pattern, pos, "unmatched ')'")
    if ch == "\\":
        if pos == len(pattern) - 1:
            return RegexSyntaxError(pattern, pos, "\\ at end of pattern")
        return RegexSyntaxError(pattern, pos, "invalid escape")
    found = _unterminated(pattern)
    if found is not None:
        return RegexSyntaxError(pattern, found[0], found[1])
    return RegexSyntaxError(pattern, pos, f"unexpected {ch!r}")
