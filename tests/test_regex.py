"""Tests for toolcast._regex: ECMA-262 pattern syntax checking and feature detection."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from corpus_paths import CORPUS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolcast._regex import (
    DEFAULT_LARGE_QUANTIFIER_THRESHOLD,
    FEATURES,
    RegexSyntaxError,
    RegexTooComplexError,
    analyze,
)

REPO = Path(__file__).resolve().parents[1]


def _walk(node: Any, out: list[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                out.append(value)
            if key == "patternProperties" and isinstance(value, dict):
                out.extend(value)
            _walk(value, out)
    elif isinstance(node, list):
        for item in node:
            _walk(item, out)


def _corpus_patterns() -> list[str]:
    found: list[str] = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                _walk(json.loads(line), found)
    for path in sorted((CORPUS / "large").glob("*.json")):
        _walk(json.loads(path.read_text(encoding="utf-8")), found)
    for name in ("pattern.json", "patternProperties.json"):
        _walk(json.loads((CORPUS / "jsts" / name).read_text(encoding="utf-8")), found)
    return sorted(set(found))


CORPUS_PATTERNS = _corpus_patterns()


# ---- corpus --------------------------------------------------------------------------------
def test_corpus_is_big_enough_to_mean_something() -> None:
    assert len(CORPUS_PATTERNS) >= 50
    assert r"^\p{Letter}+$" in CORPUS_PATTERNS  # from the test suite's pattern.json


@pytest.mark.parametrize("unicode", [True, False])
def test_every_corpus_pattern_parses(unicode: bool) -> None:
    # All of these are valid ECMA-262 (checked against V8 as well, see the node test below),
    # in both modes -- except \p{...}, which only exists with the u flag.
    failures = {}
    for pattern in CORPUS_PATTERNS:
        try:
            analyze(pattern, unicode=unicode)
        except RegexSyntaxError as exc:
            failures[pattern] = str(exc)
    assert failures == {}


def test_corpus_spot_checks() -> None:
    assert analyze(r"^\p{Letter}+$") == {"anchor-start", "anchor-end", "unicode-property-escape"}
    # Without u, \p is an Annex B identity escape of "p" and {Letter} are lone braces.
    assert "unicode-property-escape" not in analyze(r"^\p{Letter}+$", unicode=False)
    assert "annex-b" in analyze(r"^\p{Letter}+$", unicode=False)
    assert analyze("^[^*]*(?:\\*[^*]*)?$") == {
        "anchor-start",
        "anchor-end",
        "character-class",
        "negated-character-class",
        "non-capturing-group",
        "identity-escape",
    }


# ---- features: present on a minimal pattern, absent on near misses --------------------------
PRESENT = [
    ("lookahead", "a(?=b)"),
    ("lookahead", "a(?!b)"),
    ("negative-lookahead", "a(?!b)"),
    ("lookbehind", "(?<=a)b"),
    ("lookbehind", "(?<!a)b"),
    ("negative-lookbehind", "(?<!a)b"),
    ("backreference", r"(a)\1"),
    ("backreference", r"\1(a)"),  # forward references are legal
    ("backreference", r"(?<n>a)\k<n>"),
    ("named-group", "(?<year>x)"),
    ("named-group", r"(?<\u0061b>x)"),
    ("named-backreference", r"(?<name>x)\k<name>"),
    ("named-backreference", r"(?<\u{61}>x)\k<a>"),
    ("duplicate-named-group", "(?<y>a)|(?<y>b)"),
    ("non-capturing-group", "(?:a)"),
    ("non-capturing-group", "(?i:a)"),
    ("capturing-group", "(a)"),
    ("capturing-group", "(?<n>a)"),
    ("modifiers", "(?i:a)"),
    ("modifiers", "(?-i:a)"),
    ("modifiers", "(?ms-i:a)"),
    ("word-boundary", r"\b"),
    ("word-boundary", r"a\Bb"),
    ("unicode-property-escape", r"\p{Letter}"),
    ("unicode-property-escape", r"\p{Lu}"),
    ("unicode-property-escape", r"\P{Script=Greek}"),
    ("unicode-property-escape", r"\p{scx=Grek}"),
    ("unicode-property-escape", r"\p{ASCII_Hex_Digit}"),
    ("unicode-property-escape", r"[\p{L}\d]"),
    ("lazy-quantifier", "a*?"),
    ("lazy-quantifier", "a+?"),
    ("lazy-quantifier", "a??"),
    ("lazy-quantifier", "a{2,3}?"),
    ("bounded-quantifier", "a{2}"),
    ("bounded-quantifier", "a{2,}"),
    ("bounded-quantifier", "a{2,3}"),
    ("bounded-quantifier", "a{0}"),
    ("large-bounded-quantifier", "a{1001}"),
    ("large-bounded-quantifier", "a{0,1001}"),
    ("large-bounded-quantifier", "a{1001,}"),
    ("anchor-start", "^a"),
    ("anchor-end", "a$"),
    ("character-class", "[a]"),
    ("character-class", "[]"),
    ("character-class", "[^a]"),
    ("negated-character-class", "[^a]"),
    ("negated-character-class", "[^]"),
    ("class-escape", r"\d"),
    ("class-escape", r"\S"),
    ("class-escape", r"[\w]"),
    ("dot", "a.b"),
    ("alternation", "a|b"),
    ("alternation", "(a|b)"),
    ("alternation", "|"),
    ("unicode-escape", r"\u0041"),
    ("unicode-escape", r"\u{1F600}"),
    ("unicode-escape", r"[\uD83D\uDE00-\uD83D\uDE4F]"),
    ("hex-escape", r"\x41"),
    ("control-escape", r"\cJ"),
    ("control-escape", r"[\cj]"),
    ("simple-escape", r"\n"),
    ("simple-escape", r"\0"),
    ("simple-escape", r"[\b]"),
    ("identity-escape", r"\."),
    ("identity-escape", r"\/"),
    ("identity-escape", r"[\-]"),
]


@pytest.mark.parametrize(("feature", "pattern"), PRESENT)
def test_feature_present(feature: str, pattern: str) -> None:
    assert feature in analyze(pattern)


ABSENT = [
    ("word-boundary", r"\\b"),  # escaped backslash, then a literal b
    ("word-boundary", r"[\b]"),  # backspace inside a class
    ("simple-escape", r"\b"),
    ("capturing-group", "(?:a)"),
    ("capturing-group", "(?=a)"),
    ("capturing-group", "(?i:a)"),
    ("capturing-group", r"\(a\)"),
    ("non-capturing-group", "(a)"),
    ("modifiers", "(?:a)"),
    ("named-group", "(a)"),
    ("named-backreference", r"(a)\1"),
    ("backreference", r"(a)\0"),
    ("backreference", r"(a)[\1]"),  # not valid in u mode; see errors -- here legacy below
    ("negated-character-class", "[a^]"),
    ("negated-character-class", r"\[^a\]"),
    ("character-class", r"\[a\]"),
    ("lookahead", "(?<=a)"),
    ("lookbehind", "(?=a)"),
    ("negative-lookahead", "(?=a)"),
    ("negative-lookbehind", "(?<=a)"),
    ("lazy-quantifier", "a?"),
    ("lazy-quantifier", "(a)?"),
    ("bounded-quantifier", "a*"),
    ("bounded-quantifier", r"a\{2\}"),
    ("large-bounded-quantifier", "a{1000}"),
    ("large-bounded-quantifier", "a{0,1000}"),
    ("anchor-start", r"\^"),
    ("anchor-start", "[^a]"),
    ("anchor-start", "[a^]"),
    ("anchor-end", r"a\$"),
    ("anchor-end", "[$]"),
    ("dot", r"\."),
    ("dot", "[.]"),
    ("alternation", r"a\|b"),
    ("alternation", "[|]"),
    ("class-escape", r"\\d"),
    ("unicode-escape", r"\\u0041"),
    ("control-escape", r"\\cJ"),
    ("unicode-property-escape", r"\\pL"),
    ("identity-escape", r"\n"),
    ("duplicate-named-group", "(?<a>x)|(?<b>y)"),
]


@pytest.mark.parametrize(("feature", "pattern"), ABSENT)
def test_feature_absent(feature: str, pattern: str) -> None:
    unicode = pattern != r"(a)[\1]"
    assert feature not in analyze(pattern, unicode=unicode)


def test_exact_feature_sets() -> None:
    assert analyze("") == frozenset()
    assert analyze("abc") == frozenset()
    assert analyze("^(a|b)+$") == {"anchor-start", "anchor-end", "capturing-group", "alternation"}
    assert analyze(r"(?<q>['\x22]).*?\k<q>") == {
        "named-group",
        "capturing-group",
        "character-class",
        "hex-escape",
        "dot",
        "lazy-quantifier",
        "named-backreference",
        "backreference",
    }


def test_subtype_features_imply_their_base() -> None:
    implied = {
        "negative-lookahead": "lookahead",
        "negative-lookbehind": "lookbehind",
        "named-group": "capturing-group",
        "named-backreference": "backreference",
        "negated-character-class": "character-class",
        "large-bounded-quantifier": "bounded-quantifier",
        "modifiers": "non-capturing-group",
    }
    for feature, pattern in PRESENT:
        found = analyze(pattern)
        for sub, base in implied.items():
            if sub in found:
                assert base in found, (pattern, sub)
        assert feature in found


def test_large_quantifier_threshold_is_a_keyword() -> None:
    assert "large-bounded-quantifier" not in analyze("a{50}")
    assert "large-bounded-quantifier" in analyze("a{50}", large_quantifier_threshold=49)
    assert "large-bounded-quantifier" not in analyze("a{50}", large_quantifier_threshold=50)
    # The cached parse is shared between thresholds; the threshold is applied per call.
    assert "large-bounded-quantifier" not in analyze("a{50}")
    assert DEFAULT_LARGE_QUANTIFIER_THRESHOLD == 1000
    assert "large-bounded-quantifier" in analyze("a{99999999999999999999}")


def test_feature_table_is_documented_and_self_consistent() -> None:
    for name, (meaning, example) in FEATURES.items():
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", name), name
        assert meaning and example
        if name == "class-set-operations":
            continue  # the v flag is unsupported; never reported
        unicode = name != "annex-b"
        assert name in analyze(example, unicode=unicode), (name, example)


def test_class_set_operations_is_never_reported_in_u_mode() -> None:
    # In u mode (no v flag) `&&` is two literal ampersands and `--` a range to '-'.
    assert analyze("[a&&b]") == {"character-class"}
    assert analyze("[!--]") == {"character-class"}
    with pytest.raises(RegexSyntaxError):
        analyze(r"[\w--\d]")


# ---- syntax errors ---------------------------------------------------------------------------
ERRORS = [
    # (pattern, unicode, message fragment, position)
    ("(abc", True, "unterminated group", 0),
    ("ab(c(d)", True, "unterminated group", 2),
    ("[a", True, "unterminated character class", 0),
    (r"[a\]", True, "unterminated character class", 0),
    ("a)", True, "unmatched ')'", 1),
    ("*a", True, "nothing to repeat", 0),
    ("a**", True, "nothing to repeat", 2),
    ("a|*", True, "nothing to repeat", 2),
    ("(*)", True, "nothing to repeat", 1),
    ("^*", True, "nothing to repeat", 1),
    ("$+", True, "nothing to repeat", 1),
    (r"\b*", True, "nothing to repeat", 2),
    ("(?=a)*", True, "nothing to repeat", 5),
    ("(?<=a)?", False, "nothing to repeat", 6),
    ("{2}", False, "nothing to repeat", 0),
    ("a{2}{3}", False, "nothing to repeat", 4),
    ("a{2,1}", True, "out of order", 1),
    ("a{2,1}", False, "out of order", 1),
    ("[z-a]", True, "out of order", 1),
    ("[😎-😀]", True, "out of order", 1),
    ("[😀-😎]", False, "out of order", 1),  # surrogate pairs without u
    (r"[\d-z]", True, "class range", 1),
    (r"[a-\w]", True, "class range", 1),
    (r"\1", True, "no group 1", 0),
    (r"(a)\2", True, "no group 2", 3),
    (r"(a)\10", True, "no group 10", 3),
    (r"[\1]", True, "invalid class escape", 1),
    (r"\k<a>", True, "no group 'a'", 0),
    (r"(?<b>x)\k<a>", True, "no group 'a'", 7),
    (r"(?<b>x)\k<a>", False, "no group 'a'", 7),
    (r"(?<b>x)\k", False, "invalid named reference", 7),
    (r"\k", True, "invalid named reference", 0),
    ("(?<a>x)(?<a>y)", True, "duplicate capture group name", 7),
    ("(?<a>(?<a>y))", True, "duplicate capture group name", 5),
    ("(?<1a>x)", True, "invalid capture group name", 0),
    ("(?<>x)", True, "invalid capture group name", 0),
    ("(?<a", True, "invalid capture group name", 0),
    (r"\q", True, r"invalid escape '\q'", 0),
    (r"\-", True, r"invalid escape '\-'", 0),
    (r"\a", True, r"invalid escape '\a'", 0),
    (r"[\q]", True, r"invalid escape '\q'", 1),
    (r"[\B]", True, r"invalid escape '\B'", 1),
    (r"\x4", True, "hex escape", 0),
    (r"\u12", True, "Unicode escape", 0),
    (r"\u{110000}", True, "above U+10FFFF", 0),
    (r"\c1", True, "control escape", 0),
    (r"\c", True, "control escape", 0),
    (r"\00", True, "decimal escape", 0),
    (r"\p", True, "property escape", 0),
    (r"\p{Foo}", True, "invalid property name 'Foo'", 0),
    (r"\p{letter}", True, "invalid property name", 0),  # names are case-sensitive
    (r"\p{Script=Foo}", True, "invalid property value 'Foo'", 0),
    (r"\p{Script}", True, "invalid property name", 0),
    (r"\p{ASCII=Y}", True, "invalid property name 'ASCII'", 0),
    (r"\p{gc=Alphabetic}", True, "invalid property value", 0),
    ("{", True, "lone '{'", 0),
    ("a{,5}", True, "lone '{'", 1),
    ("}", True, "lone '}'", 0),
    ("]", True, "lone ']'", 0),
    ("(?ii:a)", True, "modifiers", 0),
    ("(?i-i:a)", True, "modifiers", 0),
    ("(?-:a)", True, "modifiers", 0),
    ("(?x:a)", True, "modifiers", 0),
    ("(?i)a", True, "invalid group", 0),
    ("(?", True, "invalid group", 0),
    ("a\\", True, "\\ at end of pattern", 1),
    ("[a\\", True, "\\ at end of pattern", 2),
]


@pytest.mark.parametrize(("pattern", "unicode", "fragment", "position"), ERRORS)
def test_syntax_errors(pattern: str, unicode: bool, fragment: str, position: int) -> None:
    with pytest.raises(RegexSyntaxError) as info:
        analyze(pattern, unicode=unicode)
    err = info.value
    assert fragment in err.message
    assert err.position == position
    assert err.pattern == pattern
    assert str(err) == f"{err.message} at column {position + 1}"


def test_error_type_and_caching_of_errors() -> None:
    assert issubclass(RegexSyntaxError, ValueError)
    assert issubclass(RegexTooComplexError, RegexSyntaxError)
    for _ in range(2):  # the second raise comes from the cache and must look the same
        with pytest.raises(ValueError, match=r"^unterminated group at column 4$"):
            analyze("abc(def")
    with pytest.raises(TypeError):
        analyze(b"abc")  # type: ignore[arg-type]


LEGACY_ONLY = [
    # Annex B syntax: valid without u, reported as annex-b; each is an error with u.
    "a{,5}",
    "{",
    "}",
    "]",
    "a{",
    r"\q",
    r"\-x",
    r"\8",
    r"\01",
    r"(a)\2",
    r"[\1]",
    r"\c1",
    r"\c",
    r"[\c]",
    r"[\c_]",
    r"\x4",
    r"\u12",
    r"[\d-z]",
    r"[a-\w]",
    "(?=a)*",
    r"\k",
    r"\k<a>",
    r"[\B]",
]


@pytest.mark.parametrize("pattern", LEGACY_ONLY)
def test_legacy_mode_accepts_annex_b(pattern: str) -> None:
    with pytest.raises(RegexSyntaxError):
        analyze(pattern)
    found = analyze(pattern, unicode=False)
    if pattern not in (r"\-x",):  # \- is plain non-u syntax (not an identifier char)
        assert "annex-b" in found


def test_legacy_mode_details() -> None:
    assert analyze(r"\-x", unicode=False) == {"identity-escape"}
    assert analyze(r"(a)\1", unicode=False) == {"capturing-group", "backreference"}
    assert "backreference" not in analyze(r"(a)\2", unicode=False)  # octal escape
    assert analyze(r"\u{4}", unicode=False) == {"identity-escape", "annex-b", "bounded-quantifier"}
    assert analyze("[😀]", unicode=False) == {"character-class"}
    assert analyze(r"(?<a>x)\k<a>", unicode=False) >= {"named-backreference"}
    assert "annex-b" not in analyze("^[a-z]+$", unicode=False)


# ---- robustness ------------------------------------------------------------------------------
ROBUST_SNIPPET = r"""
import sys, time
sys.setrecursionlimit(250)  # proves nothing on the path recurses per nesting level
from toolcast._regex import analyze, RegexSyntaxError
cases = [
    "(" * 10000 + "a" + ")" * 10000,
    "(" * 10000 + "a",
    "(?:" * 10000 + ")" * 10000,
    "(?=" * 10000 + ")" * 10000,
    "".join(f"(?<n{i}>" for i in range(3000)) + ")" * 3000,
    "a" * 100000,
    "a*" * 50000,
    "[" + "ab" * 49999 + "]",
    "a|" * 33333,
    "(a)\\1" * 10000,
    "[" * 100000,
    ")" * 100000,
]
for p in cases:
    for u in (True, False):
        try:
            analyze(p, unicode=u)
        except RegexSyntaxError:
            pass
print("ok")
"""


def test_huge_and_deep_patterns_never_recurse_or_hang() -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    out = subprocess.run(
        [sys.executable, "-c", ROBUST_SNIPPET],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"


def test_import_does_not_import_lark() -> None:
    code = (
        "import sys, toolcast._regex as r\n"
        "assert 'lark' not in sys.modules, 'lark imported at import time'\n"
        "r.analyze('a+')\n"
        "assert 'lark' in sys.modules\n"
        "print('ok')\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    out = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, env=env
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


# ---- property: generated valid patterns -------------------------------------------------------
Gen = tuple[str, frozenset[str]]  # (pattern text, features it must report)

_F = frozenset
_LEAVES: list[Gen] = [
    ("a", _F()),
    ("bc", _F()),
    ("é", _F()),
    ("😀", _F()),
    (".", _F({"dot"})),
    (r"\d", _F({"class-escape"})),
    (r"\W", _F({"class-escape"})),
    (r"\.", _F({"identity-escape"})),
    (r"\/", _F({"identity-escape"})),
    (r"\u0041", _F({"unicode-escape"})),
    (r"\x7e", _F({"hex-escape"})),
    (r"\cM", _F({"control-escape"})),
    (r"\t", _F({"simple-escape"})),
    (r"\p{Lu}", _F({"unicode-property-escape"})),
    (r"\u{1F600}", _F({"unicode-escape"})),
    ("[a-z]", _F({"character-class"})),
    ("[^0-9_]", _F({"character-class", "negated-character-class"})),
    (r"[\w.-]", _F({"character-class", "class-escape"})),
    (r"[\b]", _F({"character-class", "simple-escape"})),
]
_ASSERTIONS: list[Gen] = [
    ("^", _F({"anchor-start"})),
    ("$", _F({"anchor-end"})),
    (r"\b", _F({"word-boundary"})),
    (r"\B", _F({"word-boundary"})),
]
_QUANTIFIERS = st.sampled_from(["", "*", "+", "?", "{2}", "{1,}", "{0,3}", "{5000}"])


def _quantify(atom: Gen, quant: str, lazy: bool) -> Gen:
    text, feats = atom
    if not quant or text.startswith(("(?=", "(?!", "(?<=", "(?<!")):  # lookarounds: no
        return atom
        return atom
    extra = set()
    if quant.startswith("{"):
        extra.add("bounded-quantifier")
        if quant == "{5000}":
            extra.add("large-bounded-quantifier")
    if lazy:
        extra.add("lazy-quantifier")
    return text + quant + ("?" if lazy else ""), feats | extra


_WRAPPERS = [
    ("(", ")", _F({"capturing-group"})),
    ("(?:", ")", _F({"non-capturing-group"})),
    ("(?<@>", ")", _F({"capturing-group", "named-group"})),
    ("(?i:", ")", _F({"non-capturing-group", "modifiers"})),
    ("(?=", ")", _F({"lookahead"})),
    ("(?!", ")", _F({"lookahead", "negative-lookahead"})),
    ("(?<=", ")", _F({"lookbehind"})),
    ("(?<!", ")", _F({"lookbehind", "negative-lookbehind"})),
]


def _concat(parts: list[Gen]) -> Gen:
    return "".join(p for p, _ in parts), _F().union(*(f for _, f in parts))


def _alternate(parts: list[Gen]) -> Gen:
    text, feats = "|".join(p for p, _ in parts), _F().union(*(f for _, f in parts))
    return text, feats | {"alternation"} if len(parts) > 1 else feats


def _terms(inner: st.SearchStrategy[Gen]) -> st.SearchStrategy[Gen]:
    quantifiable = st.builds(_quantify, inner, _QUANTIFIERS, st.booleans())
    return st.one_of(quantifiable, st.sampled_from(_ASSERTIONS))


def _group(wrapper: tuple[str, str, frozenset[str]], body: Gen) -> Gen:
    return wrapper[0] + body[0] + wrapper[1], body[1] | wrapper[2]


def _disjunction(atom: st.SearchStrategy[Gen]) -> st.SearchStrategy[Gen]:
    alternative = st.lists(_terms(atom), max_size=4).map(_concat)
    return st.lists(alternative, min_size=1, max_size=3).map(_alternate)


_ATOMS: st.SearchStrategy[Gen] = st.recursive(
    st.sampled_from(_LEAVES),
    lambda inner: st.builds(_group, st.sampled_from(_WRAPPERS), _disjunction(inner)),
    max_leaves=12,
)


def _finalize(body: Gen, add_backref: bool) -> Gen:
    text, feats = body
    counter = iter(range(1, 10**6))
    text = re.sub(r"\(\?<@>", lambda _: f"(?<g{next(counter)}>", text)
    if add_backref and "capturing-group" in feats:
        text += r"\1"
        feats = feats | {"backreference"}
        if "named-group" in feats:
            text += r"\k<g1>"
            feats = feats | {"named-backreference"}
    return text, feats


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.builds(_finalize, _disjunction(_ATOMS), st.booleans()))
def test_generated_valid_patterns(case: Gen) -> None:
    pattern, expected = case
    assert analyze(pattern) == expected, pattern
    if not re.search(r"\\[pP]\{|\\u\{", pattern):  # those two are u-mode-only spellings
        assert analyze(pattern, unicode=False) == expected, pattern


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=list("ab^$\\.*+?()[]{}|-,0123:=!<>kpuxc"), max_size=12))
def test_arbitrary_text_gives_a_result_or_a_syntax_error(text: str) -> None:
    for unicode in (True, False):
        try:
            result = analyze(text, unicode=unicode)
        except RegexSyntaxError as exc:
            assert 0 <= exc.position <= len(text)
        else:
            assert result <= FEATURES.keys()


# ---- differential check against V8 (node), when available ------------------------------------
_V8_SCRIPT = r"""
const data = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(data.map(p => {
  const ok = f => { try { new RegExp(p, f); return true } catch (e) { return false } };
  return [ok('u'), ok('')];
})));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node (V8) not installed: install Node.js to compare with V8")
def test_validity_agrees_with_v8() -> None:
    import random

    rnd = random.Random(1234)
    pieces = list("ab-^$.*+?()[]{}|\\,0189=!<>_/") + [
        r"\b",
        r"\B",
        r"\d",
        "(?:",
        "(?=",
        "(?!",
        "(?<=",
        "(?<!",
        "(?<n>",
        r"\k<n>",
        r"\k",
        r"\1",
        r"\2",
        r"\0",
        r"\01",
        r"\8",
        r"\c",
        r"\cA",
        r"\c1",
        r"\x4",
        r"\x41",
        r"\u00",
        r"\u0041",
        r"\u{41}",
        r"\u{110000}",
        r"\p{L}",
        r"\P{Script=Greek}",
        r"\p{Foo}",
        r"\p",
        "{2}",
        "{2,}",
        "{3,2}",
        "[^",
        r"\-",
        r"\q",
        "😀",
        r"\uD83D\uDE00",
        "[a-z]",
        r"[\d-a]",
        "[--a]",
        r"[\c_]",
        "[😀-😎]",
        "{,3}",
        r"\k<m>",
        "(?<m>",
    ]
    generated = [
        "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 10))) for _ in range(4000)
    ]
    patterns = CORPUS_PATTERNS + [p for p, *_ in ERRORS] + LEGACY_ONLY + generated
    out = subprocess.run(
        ["node", "-e", _V8_SCRIPT],
        input=json.dumps(patterns),
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if out.returncode != 0:
        pytest.skip(f"node failed: {out.stderr[:200]}")
    verdicts = json.loads(out.stdout)
    mismatches = []
    for pattern, (u_ok, legacy_ok) in zip(patterns, verdicts, strict=True):
        for unicode, v8_ok in ((True, u_ok), (False, legacy_ok)):
            try:
                found = analyze(pattern, unicode=unicode)
                ours = True
            except RegexSyntaxError:
                found, ours = frozenset(), False
            if ours and not v8_ok and found & {"modifiers", "duplicate-named-group"}:
                continue  # ES2025 syntax that older V8 builds reject
            if ours != v8_ok:
                mismatches.append((pattern, unicode, v8_ok))
    assert mismatches == []
