"""Parse ECMA-262 patterns with the lark LALR grammar and report which regex features they use."""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from toolcast._regex._errors import (
    BRACE_QUANTIFIER,
    Fail,
    RegexSyntaxError,
    RegexTooComplexError,
    from_lark_error,
)
from toolcast._regex._features import (
    ALTERNATION,
    ANCHOR_END,
    ANCHOR_START,
    ANNEX_B,
    BACKREF,
    BIT,
    BOUNDED,
    CAPTURING,
    CLASS,
    CLASS_ESCAPE,
    CONTROL_ESCAPE,
    DEFAULT_LARGE_QUANTIFIER_THRESHOLD,
    DOT,
    DUP_NAME,
    FEATURES,
    HEX_ESCAPE,
    IDENTITY_ESCAPE,
    LARGE_BOUNDED,
    LAZY,
    LOOKAHEAD,
    LOOKBEHIND,
    MODIFIERS,
    NAMED_BACKREF,
    NAMED_GROUP,
    NEG_CLASS,
    NEG_LOOKAHEAD,
    NEG_LOOKBEHIND,
    NONCAP,
    PROPERTY,
    SIMPLE_ESCAPE,
    UNICODE_ESCAPE,
    WORD_BOUNDARY,
)
from toolcast._regex._lexical import (
    check_property,
    decode_group_name,
    is_id_continue,
    legacy_octal,
    utf16_units,
)

__all__ = [
    "DEFAULT_LARGE_QUANTIFIER_THRESHOLD",
    "FEATURES",
    "RegexSyntaxError",
    "RegexTooComplexError",
    "analyze",
]

_CACHE_SIZE: Final = 1024

_SYNTAX_CHARACTERS: Final = frozenset("^$\\.*+?()[]{}|")
_SIMPLE_VALUES: Final = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_SET: Final = -1  # class-atom value of \d, \p{..}, ...: a set, not a single character


class _Info:
    """Synthesized attributes of a subtree, merged bottom-up by the LALR reduce callbacks."""

    __slots__ = ("mask", "maxq", "names", "ncap", "refs")

    def __init__(
        self,
        mask: int = 0,
        ncap: int = 0,
        names: dict[str, int] | None = None,
        refs: list[tuple[str, Any, int]] | None = None,
        maxq: int = 0,
    ) -> None:
        self.mask = mask  # feature bits
        self.ncap = ncap  # capturing groups (numbering is pattern-wide, so only counts matter)
        self.names = names  # group name -> position of its first definition
        self.refs = refs  # checks that need the whole pattern: (kind, value, position)
        self.maxq = maxq  # largest quantifier bound; the threshold is applied per call


def _merge(parts: list[_Info], *, alternatives: bool) -> _Info:
    """Combine sibling infos; names may repeat across alternatives but not within a sequence."""
    out = _Info()
    for part in parts:
        out.mask |= part.mask
        out.ncap += part.ncap
        out.maxq = max(out.maxq, part.maxq)
        if part.refs:
            if out.refs is None:
                out.refs = part.refs  # take ownership: children are discarded after reduce
            else:
                out.refs.extend(part.refs)
        if part.names:
            if out.names is None:
                out.names = part.names
            else:
                for name, pos in part.names.items():
                    if name in out.names:
                        if not alternatives:
                            raise Fail(pos, f"duplicate capture group name {name!r}")
                        out.mask |= DUP_NAME
                    else:
                        out.names[name] = pos
    return out


_Atom = tuple[int, int, bool]  # (code point or _SET, position, is a literal '-')


class _Reducer:
    """LALR reduce callbacks (lark calls a method per rule); stateless apart from the mode."""

    def __init__(self, unicode: bool) -> None:
        self.unicode = unicode
        self._leaf: dict[int, _Info] = {}

    def _const(self, mask: int) -> _Info:
        # Leaves with no names/refs are never mutated by _merge, so they can be shared.
        info = self._leaf.get(mask)
        if info is None:
            info = self._leaf[mask] = _Info(mask)
        return info

    # -- structure ---------------------------------------------------------------------------
    def start(self, children: list[_Info]) -> _Info:
        return children[0]

    def disjunction(self, children: list[_Info]) -> _Info:
        if len(children) == 1:
            return children[0]
        out = _merge(children, alternatives=True)
        out.mask |= ALTERNATION
        return out

    def alternative(self, children: list[_Info]) -> _Info:
        if len(children) == 1:
            return children[0]
        return _merge(children, alternatives=False)

    def term(self, children: list[_Info]) -> _Info:  # the un-aliased `term: assertion`
        return children[0]

    def quantified(self, children: list[Any]) -> _Info:
        atom, quant = children
        if quant is None:
            return atom
        qmask, qbound, _pos = quant
        return _Info(atom.mask | qmask, atom.ncap, atom.names, atom.refs, max(atom.maxq, qbound))

    def quantified_lookaround(self, children: list[Any]) -> _Info:
        (info, behind), quant = children
        if quant is None:
            return info
        qmask, qbound, qpos = quant
        if behind or self.unicode:
            raise Fail(qpos, "nothing to repeat: a lookaround is not quantifiable")
        return _Info(
            info.mask | qmask | ANNEX_B, info.ncap, info.names, info.refs, max(info.maxq, qbound)
        )

    def quantifier(self, children: list[Any]) -> tuple[int, int, int]:
        """Return (feature bits, largest bound, position)."""
        tok, lazy = children
        mask = LAZY if lazy is not None else 0
        bound = 0
        if tok.type == "BRACE_QUANT":
            low_text, _, high_text = tok[1:-1].partition(",")
            low = int(low_text)
            bound = low
            if high_text:
                high = int(high_text)
                if high < low:
                    raise Fail(tok.start_pos, "numbers out of order in {} quantifier")
                bound = high
            mask |= BOUNDED
        return mask, bound, tok.start_pos

    def assertion(self, children: list[Any]) -> _Info:
        tok = children[0]
        if tok.type == "CARET":
            return self._const(ANCHOR_START)
        if tok.type == "DOLLAR":
            return self._const(ANCHOR_END)
        return self._const(WORD_BOUNDARY)

    def lookaround(self, children: list[Any]) -> tuple[_Info, bool]:
        tok, body = children
        kind = {"(?=": LOOKAHEAD, "(?!": NEG_LOOKAHEAD, "(?<=": LOOKBEHIND, "(?<!": NEG_LOOKBEHIND}
        return _merge([body, self._const(kind[str(tok)])], alternatives=False), tok[2] == "<"

    def group(self, children: list[Any]) -> _Info:
        tok, body = children
        if tok.type == "LPAR":
            out = _merge([body, self._const(CAPTURING)], alternatives=False)
            out.ncap += 1
            return out
        if tok.type == "NAMED_OPEN":
            name = decode_group_name(tok[3:-1])
            if name is None:
                raise Fail(tok.start_pos, "invalid capture group name")
            # The group's own name goes first so a clash is reported at the inner, later name.
            return _merge([_Info(NAMED_GROUP, 1, {name: tok.start_pos}), body], alternatives=False)
        flags = str(tok[2:-1])
        if not flags:
            return _merge([body, self._const(NONCAP)], alternatives=False)
        add, _, remove = flags.partition("-")
        letters = add + remove
        if (
            any(ch not in "ims" for ch in letters)
            or len(set(letters)) != len(letters)
            or not letters
        ):
            raise Fail(tok.start_pos, "invalid regular expression modifiers")
        return _merge([body, self._const(MODIFIERS)], alternatives=False)

    # -- atoms ---------------------------------------------------------------------------------
    def atom(self, children: list[Any]) -> _Info:
        item = children[0]
        if isinstance(item, _Info):
            return item
        kind = item.type
        if kind == "LITERALS":
            return self._const(0)
        if kind == "DOT":
            return self._const(DOT)
        if kind in ("LBRACE", "RBRACE", "RBRACK"):
            if self.unicode:
                raise Fail(item.start_pos, f"lone {str(item)!r} must be escaped in unicode mode")
            if kind == "LBRACE":
                # `{2}` with nothing before it is Annex B InvalidBracedQuantifier, an error; the
                # lexer only offers BRACE_QUANT after an atom, so look at the text at the end.
                return _Info(ANNEX_B, refs=[("lbrace", None, item.start_pos)])
            return self._const(ANNEX_B)
        mask, _atoms, ref = self._escape(item, in_class=False)
        if ref is None:
            return self._const(mask)
        return _Info(mask, refs=[ref])

    def char_class(self, children: list[Any]) -> _Info:
        mask = NEG_CLASS if children[0].type == "LBRACK_NEG" else CLASS
        refs: list[tuple[str, Any, int]] | None = None
        atoms: list[_Atom] = []
        for tok in children[1:-1]:
            kind = tok.type
            if kind == "CLASS_CHARS":
                units = utf16_units(tok) if not self.unicode else [ord(c) for c in tok]
                # Only the ends of a run can be range endpoints; the middle is one placeholder.
                atoms.append((units[0], tok.start_pos, False))
                if len(units) > 2:
                    atoms.append((0, tok.start_pos, False))
                if len(units) > 1:
                    atoms.append((units[-1], tok.start_pos + len(tok) - 1, False))
            elif kind == "DASH":
                atoms.append((0x2D, tok.start_pos, True))
            else:
                esc_mask, esc_atoms, ref = self._escape(tok, in_class=True)
                mask |= esc_mask
                atoms.extend(esc_atoms)
                if ref is not None:
                    refs = [ref] if refs is None else refs + [ref]
        mask |= self._check_ranges(atoms)
        return _Info(mask, refs=refs)

    def _check_ranges(self, atoms: list[_Atom]) -> int:
        """Form ClassAtom '-' ClassAtom ranges greedily from the left, as NonemptyClassRanges does."""
        mask = 0
        i, n = 0, len(atoms)
        while i < n:
            if i + 2 < n and atoms[i + 1][2]:
                low, low_pos, _ = atoms[i]
                high = atoms[i + 2][0]
                if low == _SET or high == _SET:
                    if self.unicode:
                        raise Fail(low_pos, "invalid character class range (class escape)")
                    mask |= ANNEX_B  # B.1.2: the range reads as a union with a literal '-'
                elif low > high:
                    raise Fail(low_pos, "range out of order in character class")
                i += 3
            else:
                i += 1
        return mask

    def _escape(
        self, tok: Any, *, in_class: bool
    ) -> tuple[int, list[_Atom], tuple[str, Any, int] | None]:
        """Classify one backslash token: (feature bits, class atoms, deferred check or None)."""
        kind = tok.type
        pos = tok.start_pos
        text = str(tok)
        u = self.unicode

        def one(value: int) -> list[_Atom]:
            return [(value, pos, False)]

        if kind == "ESC_BOUNDARY":  # only reaches here inside a class
            if text[1] == "b":
                return SIMPLE_ESCAPE, one(0x08), None  # [\b] is backspace
            if u:
                raise Fail(pos, r"invalid escape '\B' in character class")
            return ANNEX_B | IDENTITY_ESCAPE, one(ord("B")), None
        if kind == "ESC_CLASS":
            return CLASS_ESCAPE, one(_SET), None
        if kind == "ESC_PROP":  # the legacy parser never produces this token
            check_property(text[3:-1], pos)
            return PROPERTY, one(_SET), None
        if kind == "ESC_UNICODE_PAIR":
            hi, lo = int(text[2:6], 16), int(text[8:12], 16)
            if u:
                return UNICODE_ESCAPE, one(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)), None
            return UNICODE_ESCAPE, [(hi, pos, False), (lo, pos + 6, False)], None
        if kind == "ESC_UNICODE":
            return UNICODE_ESCAPE, one(int(text[2:6], 16)), None
        if kind == "ESC_UNICODE_BRACE":  # the legacy parser never produces this token
            value = int(text[3:-1], 16)
            if value > 0x10FFFF:
                raise Fail(pos, "invalid Unicode escape (above U+10FFFF)")
            return UNICODE_ESCAPE, one(value), None
        if kind == "ESC_HEX":
            return HEX_ESCAPE, one(int(text[2:4], 16)), None
        if kind == "ESC_CONTROL":
            letter = text[2]
            if letter.isalpha():
                return CONTROL_ESCAPE, one(ord(letter) % 32), None
            if u:
                raise Fail(pos, "invalid control escape (\\c needs a letter)")
            if in_class:  # B.1.2 ClassControlLetter: digits and _ allowed inside a class
                return CONTROL_ESCAPE | ANNEX_B, one(ord(letter) % 32), None
            return ANNEX_B, self._literal_atoms(text, pos), None  # a literal backslash, then "c" and letter
        if kind == "ESC_SIMPLE":
            return SIMPLE_ESCAPE, one(_SIMPLE_VALUES[text[1]]), None
        if kind in ("ESC_ZERO", "ESC_DECIMAL", "ESC_KNAMED"):
            return self._digits_or_name(kind, text, pos, in_class)
        return self._identity(text[1], pos, in_class)  # ESC_IDENTITY: a backslash and any one character

    def _literal_atoms(self, chars: str, pos: int) -> list[_Atom]:
        values = [ord(c) for c in chars] if self.unicode else utf16_units(chars)
        return [(v, pos, False) for v in values]

    def _digits_or_name(
        self, kind: str, text: str, pos: int, in_class: bool
    ) -> tuple[int, list[_Atom], tuple[str, Any, int] | None]:
        """\\0, \\N... and \\k<name>: a null, a backreference, a named reference, or (Annex B) an octal escape."""
        u = self.unicode
        if kind == "ESC_ZERO":
            if len(text) == 2:
                return SIMPLE_ESCAPE, [(0, pos, False)], None
            if u:
                raise Fail(pos, "invalid decimal escape (\\0 followed by a digit)")
            return ANNEX_B, self._octal_atoms(text[1:], pos), None
        if kind == "ESC_DECIMAL":
            if not in_class:
                return 0, [], ("number", int(text[1:]), pos)
            if u:
                raise Fail(pos, "invalid class escape (backreference inside a class)")
            return ANNEX_B, self._octal_atoms(text[1:], pos), None
        if in_class:  # ESC_KNAMED
            if u:
                raise Fail(pos, "invalid escape '\\k' in character class")
            return ANNEX_B | IDENTITY_ESCAPE, self._literal_atoms(text[1:], pos), ("bare-k", None, pos)
        name = decode_group_name(text[3:-1])
        if name is None:
            if u:
                raise Fail(pos, "invalid capture group name in \\k<...>")
            return ANNEX_B | IDENTITY_ESCAPE, [], ("bare-k", None, pos)
        return 0, [], ("name", name, pos)

    def _identity(self, ch: str, pos: int, in_class: bool) -> tuple[int, list[_Atom], tuple[str, Any, int] | None]:
        """A backslash before one character: the character itself where the mode allows it."""
        if self.unicode:
            if ch in _SYNTAX_CHARACTERS or ch == "/" or (in_class and ch == "-"):
                return IDENTITY_ESCAPE, [(ord(ch), pos, False)], None
            raise Fail(pos, self._bad_escape_message(ch))
        if ch == "c":  # B.1.2: `\` not followed by a control letter is a literal backslash
            return ANNEX_B, self._literal_atoms("\\c", pos), None
        if ch == "k":
            return ANNEX_B | IDENTITY_ESCAPE, [(ord("k"), pos, False)], ("bare-k", None, pos)
        mask = IDENTITY_ESCAPE
        if is_id_continue(ch) and ch not in "$\u200c\u200d":
            mask |= ANNEX_B  # the main grammar excludes UnicodeIDContinue identity escapes
        return mask, self._literal_atoms(ch, pos), None

    @staticmethod
    def _octal_atoms(digits: str, pos: int) -> list[_Atom]:
        value, used = legacy_octal(digits)
        return [(value, pos, False)] + [(ord(d), pos, False) for d in digits[used:]]

    @staticmethod
    def _bad_escape_message(ch: str) -> str:
        if ch in "pP":
            return f"invalid property escape '\\{ch}' (expected \\{ch}{{...}})"
        if ch == "u":
            return "invalid Unicode escape"
        if ch == "x":
            return "invalid hex escape (expected \\xHH)"
        if ch == "c":
            return "invalid control escape (\\c needs a letter)"
        if ch == "k":
            return "invalid named reference (expected \\k<name>)"
        return f"invalid escape '\\{ch}' in unicode mode"


# --------------------------------------------------------------------------------------------
# Parser construction: lark is imported here, on first use, never at module import.
# --------------------------------------------------------------------------------------------
_GRAMMAR_PATH: Final = Path(__file__).with_name("ecma262.lark")
_PARSERS: dict[bool, Any] = {}
_PARSERS_LOCK: Final = threading.Lock()
# Terminals that only exist in unicode mode; in legacy mode `\p{2}` means `p{2}`.
_UNICODE_ONLY_TERMINALS: Final = frozenset({"ESC_PROP", "ESC_UNICODE_BRACE"})


def _parser(unicode: bool) -> Any:
    parser = _PARSERS.get(unicode)
    if parser is not None:
        return parser
    with _PARSERS_LOCK:
        parser = _PARSERS.get(unicode)
        if parser is None:
            import lark
            from lark.lexer import PatternRE

            def edit_terminal(term: Any) -> None:
                if not unicode and term.name in _UNICODE_ONLY_TERMINALS:
                    term.pattern = PatternRE("(?!)x")  # can never match

            parser = lark.Lark(
                _GRAMMAR_PATH.read_text(encoding="utf-8"),
                parser="lalr",
                lexer="contextual",
                transformer=_Reducer(unicode),  # reduce-time callbacks: no tree, no recursion
                maybe_placeholders=True,
                edit_terminals=edit_terminal,
            )
            _PARSERS[unicode] = parser
    return parser


def _finish(pattern: str, info: _Info, unicode: bool) -> int:
    """Checks that need the whole pattern: group counts and names, legacy brace quantifiers."""
    mask = info.mask
    names = info.names or {}
    for kind, value, pos in info.refs or ():
        if kind == "number":
            if value <= info.ncap:
                mask |= BACKREF
            elif unicode:
                raise RegexSyntaxError(pattern, pos, f"invalid backreference: no group {value}")
            else:
                mask |= ANNEX_B  # B.1.2: an octal or identity escape instead
        elif kind == "name":
            if value in names:
                mask |= NAMED_BACKREF
            elif unicode or names:
                raise RegexSyntaxError(pattern, pos, f"invalid named reference: no group {value!r}")
            else:
                mask |= ANNEX_B  # legacy mode without named groups: `\k` is the letter k
        elif kind == "bare-k":
            if names:
                raise RegexSyntaxError(pattern, pos, "invalid named reference")
        elif kind == "lbrace" and BRACE_QUANTIFIER.match(pattern, pos):
            raise RegexSyntaxError(pattern, pos, "nothing to repeat")
    return mask


@lru_cache(maxsize=_CACHE_SIZE)
def _analyze_cached(pattern: str, unicode: bool) -> tuple[int, int] | tuple[int, str]:
    """Return (mask, largest bound) or, for an invalid pattern, (-1 - position, message)."""
    import lark

    try:
        info = _parser(unicode).parse(pattern)
        return _finish(pattern, info, unicode), info.maxq
    except Fail as exc:
        return -1 - exc.position, exc.message
    except RegexSyntaxError as exc:
        return -1 - exc.position, exc.message
    except lark.exceptions.UnexpectedInput as exc:
        err = from_lark_error(pattern, exc)
        return -1 - err.position, err.message
    except RecursionError:
        # Not expected (LALR and the callbacks are iterative); kept so a pathological pattern can
        # never escape as a RecursionError.
        return -1, "\x00too-complex"


@lru_cache(maxsize=256)
def _names(mask: int) -> frozenset[str]:
    return frozenset(name for name, bit in BIT.items() if mask & bit)


def analyze(
    pattern: str,
    *,
    unicode: bool = True,
    large_quantifier_threshold: int = DEFAULT_LARGE_QUANTIFIER_THRESHOLD,
) -> frozenset[str]:
    """Return the names (keys of FEATURES) of the regex features that ``pattern`` uses.

    ``unicode=True`` (default, what JSON Schema recommends) parses as ``new RegExp(p, "u")``;
    ``unicode=False`` parses as ``new RegExp(p)`` including Annex B web-compat syntax, reported
    as the ``annex-b`` feature.  The ``v`` flag is not supported.  ``large-bounded-quantifier``
    is reported when a ``{n,m}`` bound exceeds ``large_quantifier_threshold``.
    Raises RegexSyntaxError when the pattern is not valid ECMA-262 in that mode.
    """
    if not isinstance(pattern, str):
        raise TypeError(f"pattern must be str, not {type(pattern).__name__}")
    first, second = _analyze_cached(pattern, bool(unicode))
    if first < 0:
        assert isinstance(second, str)
        if second == "\x00too-complex":
            raise RegexTooComplexError(pattern, 0, "pattern too complex")
        raise RegexSyntaxError(pattern, -1 - first, second)
    assert isinstance(second, int)
    mask = first
    if second > large_quantifier_threshold:
        mask |= LARGE_BOUNDED
    return _names(mask)
