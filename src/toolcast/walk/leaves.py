"""Leaf keyword actions: dropped keywords, enum counts, format and pattern checks of a node, null added to a compiled node, and the output order."""

from __future__ import annotations

from toolcast.walk.plans import _CONST, _DROP, _ENUM, _FORMAT, _NOT_PLAIN_NULLABLE
from toolcast.walk.regex import _pattern_verdict, _pattern_written
from toolcast.walk.semantics import _with_null_own
from toolcast.walk.state import Walk
from toolcast.walk.values import describe, plain_value

# A compiled node with one of these takes null by an anyOf branch, never as an enum member.
_NULL_BY_BRANCH = _NOT_PLAIN_NULLABLE - {"enum"}
_no_null_branch = _NULL_BY_BRANCH.isdisjoint  # (bound once: compiled, a call makes no method lookup)


def _dropped(w: Walk, k: str, ksp: tuple, dcode: str, tcode: str, refuses: bool) -> None:
    """Record that keyword `k` at `ksp` was dropped (its diagnostic and its transformation)."""
    if refuses:
        w.refusals += 1
    w.diags.append((dcode, "#", ksp, (("keyword", k),)))
    w.trans.append((tcode, "#", ksp, ""))


def _record_steps(w: Walk, s: dict, steps: tuple, sp: tuple) -> None:
    """What compiling the planned node `s` records, after its values were accepted (see _shape)."""
    for mode, k, dcode, tcode, refuses in steps:
        # The keyword's place is built where something is recorded there.
        if mode == _DROP:
            _dropped(w, k, sp + (k,), dcode, tcode, refuses)
            if w.scanned and (t := type(v := s[k])) is not bool and t is not int and v is not None and (
                    not v.isascii() if t is str else not plain_value(v)):
                w.scanned = False  # (a value dropped unread: the document scan reads it, see walker._compile)
        elif mode == _ENUM:
            _count_enum(w, s[k], sp, k)
        elif mode == _CONST:
            if type(v := s[k]) is str:
                w.n_chars += len(v)
        elif mode == _FORMAT:
            if (v := s[k]) not in w.r.formats:
                ksp = sp + (k,)
                w.report("unsupported-string-format", ksp, format=v)
                w.change("dropped-unsupported-format", ksp, f"({v})")
        else:
            _pattern(w, s[k], sp + (k,))


def _pattern(w: Walk, pattern: str, sp: tuple) -> str | None:
    """Check a `pattern` against the rule version's regex features: the pattern written (padded
    under policy pattern_match whole-string, recorded), or None where it is dropped."""
    verdict = _pattern_verdict(w.r, pattern)
    if verdict[0] == "invalid":
        w.report("pattern-invalid", sp, value=describe(pattern), reason=verdict[1], position=verdict[2])
        return None
    dropped = []
    for feature, (action, dcode, tcode) in verdict[1]:
        w.diag(dcode, sp, feature=feature, value=describe(pattern))
        if action == "drop":
            dropped.append((tcode, feature))
    if dropped:
        w.change(dropped[0][0], sp, "(" + ", ".join(f for _, f in dropped) + ")")
        return None
    written = _pattern_written(w.r, pattern)
    if written != pattern:
        w.change("padded-unanchored-pattern", sp, f"(as `{written}`)")
    return written


def _count_enum(w: Walk, values: list, sp: tuple, k: str) -> None:
    """Count the values of enum `k` of the node at `sp` towards the limits; report a large one."""
    w.n_enum += len(values)
    try:
        chars = sum(map(len, values))  # all strings, the common enum (its values are scalars)
    except TypeError:
        chars = 0
        for x in values:
            if isinstance(x, str):
                chars += len(x)
    w.n_chars += chars
    threshold, max_chars = w.enum_limits
    if len(values) > threshold and chars > max_chars:
        w.diag(w.r.counted("enum-chars").code, sp + (k,), count=len(values), value=chars,
                  threshold=threshold, limit=max_chars)


def _nullable(w: Walk, c: dict, sp: tuple) -> dict:
    """Compiled node `c` (at `sp`, held by nobody else) also accepting null, the null counted."""
    _count_null(w, c, sp)
    return _with_null_own(c, w.annotations)


def _count_null(w: Walk, c: dict, sp: tuple) -> None:
    """Count the null that making compiled node `c` nullable adds to its enum (if it does) like
    the enum's other values: limits count what is sent."""
    enum = c.get("enum")
    if type(enum) is list and None not in enum and _no_null_branch(c):
        w.n_enum += 1
        threshold, max_chars = w.enum_limits
        if len(enum) == threshold:  # the null takes it past the threshold of enum-chars
            chars = 0
            for x in enum:  # (a loop: compiled, _count_null is a C method, which holds no generator)
                if isinstance(x, str):
                    chars += len(x)
            if chars > max_chars:
                w.diag(w.r.counted("enum-chars").code, sp + ("enum",), count=len(enum) + 1, value=chars,
                          threshold=threshold, limit=max_chars)


def _ordered(w: Walk, out: dict) -> dict:
    """`out` with its keywords in the table's output order (unknown ones last, stable)."""
    if len(out) < 2:
        return out
    rank = w.rank
    prev = -1
    for k in out:
        i = rank[k]
        if i < prev:
            break
        prev = i
    else:
        return out  # already in order: the common case, no sort and no copy
    return {k: out[k] for k in sorted(out, key=rank.__getitem__)}
