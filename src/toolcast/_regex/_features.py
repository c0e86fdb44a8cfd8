"""The public vocabulary of pattern analysis: feature names (rule versions refer to them) and their bits."""

from __future__ import annotations

from typing import Final

# --------------------------------------------------------------------------------------------
# Feature table.  The names are a stable, public vocabulary: rule versions (YAML) refer to them.
# A subtype feature always comes with its base feature, so a rule that forbids the base also
# catches the subtype: negative-lookahead => lookahead, negative-lookbehind => lookbehind,
# named-group => capturing-group, named-backreference => backreference,
# negated-character-class => character-class, large-bounded-quantifier => bounded-quantifier,
# modifiers => non-capturing-group.
# --------------------------------------------------------------------------------------------
FEATURES: Final[dict[str, tuple[str, str]]] = {
    # name: (what it means, minimal example)
    "lookahead": ("lookahead assertion, positive or negative", "a(?=b)"),
    "negative-lookahead": ("negative lookahead assertion", "a(?!b)"),
    "lookbehind": ("lookbehind assertion, positive or negative", "(?<=a)b"),
    "negative-lookbehind": ("negative lookbehind assertion", "(?<!a)b"),
    "backreference": ("backreference to a group, by number or by name", r"(a)\1"),
    "named-group": ("named capturing group", "(?<year>[0-9]{4})"),
    "named-backreference": ("backreference by group name", r"(?<q>['\x22]).*\k<q>"),
    "duplicate-named-group": (
        "one group name used in several alternatives (ES2025)",
        "(?<y>a)|(?<y>b)",
    ),
    "non-capturing-group": ("non-capturing group (also any modifiers group)", "(?:ab)+"),
    "capturing-group": ("capturing group, numbered or named", "(ab)+"),
    "modifiers": ("inline modifiers group (?ims-ims:...) (ES2025)", "(?i:abc)"),
    "word-boundary": (r"word boundary assertion \b or \B (outside a class)", r"\bword\b"),
    "anchor-start": ("^ assertion", "^a"),
    "anchor-end": ("$ assertion", "a$"),
    "alternation": ("| alternatives at any level", "a|b"),
    "dot": (". (any character but line terminators)", "a.b"),
    "character-class": ("[...] character class, negated or not", "[a-z]"),
    "negated-character-class": ("[^...] negated character class", "[^a-z]"),
    "class-escape": (r"character class escape \d \D \w \W \s \S", r"\d+"),
    "unicode-property-escape": (r"\p{...} or \P{...} (unicode mode only)", r"\p{Lu}"),
    "lazy-quantifier": ("non-greedy quantifier *? +? ?? {n,m}?", "a+?"),
    "bounded-quantifier": ("{n}, {n,} or {n,m} quantifier", "a{2,5}"),
    "large-bounded-quantifier": (
        "bounded quantifier with a bound above the threshold (default 1000)",
        "a{1,5000}",
    ),
    "unicode-escape": (r"\uXXXX or \u{X...} escape (braces in unicode mode only)", r"\u00e9"),
    "hex-escape": (r"\xHH escape", r"\x41"),
    "control-escape": (r"\cX control-letter escape", r"\cJ"),
    "simple-escape": (r"\t \n \v \f \r \0, and \b inside a class (backspace)", r"a\tb"),
    "identity-escape": (r"backslash before a character that stands for itself", r"a\.b"),
    "class-set-operations": (
        (
            "v-mode class set syntax ([A--B], [A&&B], \\q{...}); never reported: the v flag is "
            "not supported, and in u mode these read as plain class contents"
        ),
        "[\\p{L}--[a-z]]",
    ),
    "annex-b": (
        (
            "syntax valid only through ECMA-262 Annex B web compatibility (unicode=False only): "
            "lone { } ], octal and \\8 \\9 escapes, identity escapes of identifier characters, "
            "incomplete \\x \\u \\c escapes, quantified lookahead, class escapes in ranges, "
            "\\k without named groups"
        ),
        "a{,5}",
    ),
}

BIT: Final[dict[str, int]] = {name: 1 << i for i, name in enumerate(FEATURES)}
LOOKAHEAD: Final = BIT["lookahead"]
NEG_LOOKAHEAD: Final = BIT["negative-lookahead"] | LOOKAHEAD
LOOKBEHIND: Final = BIT["lookbehind"]
NEG_LOOKBEHIND: Final = BIT["negative-lookbehind"] | LOOKBEHIND
BACKREF: Final = BIT["backreference"]
NAMED_BACKREF: Final = BIT["named-backreference"] | BACKREF
DUP_NAME: Final = BIT["duplicate-named-group"]
CAPTURING: Final = BIT["capturing-group"]
NAMED_GROUP: Final = BIT["named-group"] | CAPTURING
NONCAP: Final = BIT["non-capturing-group"]
MODIFIERS: Final = BIT["modifiers"] | NONCAP
WORD_BOUNDARY: Final = BIT["word-boundary"]
ANCHOR_START: Final = BIT["anchor-start"]
ANCHOR_END: Final = BIT["anchor-end"]
ALTERNATION: Final = BIT["alternation"]
DOT: Final = BIT["dot"]
CLASS: Final = BIT["character-class"]
NEG_CLASS: Final = BIT["negated-character-class"] | CLASS
CLASS_ESCAPE: Final = BIT["class-escape"]
PROPERTY: Final = BIT["unicode-property-escape"]
LAZY: Final = BIT["lazy-quantifier"]
BOUNDED: Final = BIT["bounded-quantifier"]
LARGE_BOUNDED: Final = BIT["large-bounded-quantifier"] | BOUNDED
UNICODE_ESCAPE: Final = BIT["unicode-escape"]
HEX_ESCAPE: Final = BIT["hex-escape"]
CONTROL_ESCAPE: Final = BIT["control-escape"]
SIMPLE_ESCAPE: Final = BIT["simple-escape"]
IDENTITY_ESCAPE: Final = BIT["identity-escape"]
ANNEX_B: Final = BIT["annex-b"]

DEFAULT_LARGE_QUANTIFIER_THRESHOLD: Final = 1000
