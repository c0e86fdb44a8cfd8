"""ECMA-262 regular-expression syntax checking and feature detection for JSON Schema `pattern`."""

# Importing this package must stay cheap: _analyzer.py imports lark only inside its first parse.
from toolcast._regex._analyzer import (
    DEFAULT_LARGE_QUANTIFIER_THRESHOLD,
    FEATURES,
    RegexSyntaxError,
    RegexTooComplexError,
    analyze,
)

__all__ = [
    "DEFAULT_LARGE_QUANTIFIER_THRESHOLD",
    "FEATURES",
    "RegexSyntaxError",
    "RegexTooComplexError",
    "analyze",
]
