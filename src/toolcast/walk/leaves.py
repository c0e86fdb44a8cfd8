"""Leaf keyword actions: dropped keywords, enum counts, format and pattern checks of a node."""

from __future__ import annotations

from toolcast.walk.nullpaths import NullPaths
from toolcast.walk.plans import _CONST, _DROP, _ENUM, _FORMAT, _NOT_PLAIN_NULLABLE
from toolcast.walk.regex import _pattern_verdict
from toolcast.walk.semantics import _with_null_own
from toolcast.walk.values import describe

# A compiled node with one of these takes null by an anyOf branch, never as an enum member.
_NULL_BY_BRANCH = _NOT_PLAIN_NULLABLE - {"enum"}
_no_null_branch = _NULL_BY_BRANCH.isdisjoint  # (bound once: compiled, a call makes no method lookup)


class Leaves(NullPaths):
    """Actions on a node's leaf keywords (a class of Walk's line)."""

    def _dropped(self, k: str, ksp: tuple, dcode: str, tcode: str, refuses: bool) -> None:
        """Record that keyword `k` at `ksp` was dropped (its diagnostic and its transformation)."""
        if refuses:
            self.refusals += 1
        self.diags.append((dcode, "#", ksp, (("keyword", k),)))
        self.trans.append((tcode, "#", ksp, ""))

    def _record_steps(self, s: dict, steps: tuple, sp: tuple) -> None:
        """What compiling the planned node `s` records, after its values were accepted (see _shape)."""
        for mode, k, dcode, tcode, refuses in steps:
            # The keyword's place is built where something is recorded there.
            if mode == _DROP:
                self._dropped(k, sp + (k,), dcode, tcode, refuses)
            elif mode == _ENUM:
                self._count_enum(s[k], sp, k)
            elif mode == _CONST:
                if type(v := s[k]) is str:
                    self.n_chars += len(v)
            elif mode == _FORMAT:
                if (v := s[k]) not in self.r.formats:
                    ksp = sp + (k,)
                    self.report("unsupported-string-format", ksp, format=v)
                    self.change("dropped-unsupported-format", ksp, f"({v})")
            else:
                self._pattern(s[k], sp + (k,))

    def _pattern(self, pattern: str, sp: tuple) -> bool:
        """Check a `pattern` against the rule version's regex features; False drops it."""
        verdict = _pattern_verdict(self.r, pattern)
        if verdict[0] == "invalid":
            self.report("pattern-invalid", sp, value=describe(pattern), reason=verdict[1], position=verdict[2])
            return False
        keep, dropped = True, []
        for feature, (action, dcode, tcode) in verdict[1]:
            self.diag(dcode, sp, feature=feature, value=describe(pattern))
            if action == "drop":
                keep = False
                dropped.append((tcode, feature))
        if dropped:
            self.change(dropped[0][0], sp, "(" + ", ".join(f for _, f in dropped) + ")")
        return keep

    def _count_enum(self, values: list, sp: tuple, k: str) -> None:
        """Count the values of enum `k` of the node at `sp` towards the limits; report a large one."""
        self.n_enum += len(values)
        try:
            chars = sum(map(len, values))  # all strings, the common enum (its values are scalars)
        except TypeError:
            chars = 0
            for x in values:
                if isinstance(x, str):
                    chars += len(x)
        self.n_chars += chars
        threshold, max_chars = self.enum_limits
        if len(values) > threshold and chars > max_chars:
            self.diag(self.r.counted("enum-chars").code, sp + (k,), count=len(values), value=chars,
                      threshold=threshold, limit=max_chars)

    def _nullable(self, c: dict, sp: tuple) -> dict:
        """Compiled node `c` (at `sp`, held by nobody else) also accepting null, the null counted."""
        self._count_null(c, sp)
        return _with_null_own(c, self.annotations)

    def _count_null(self, c: dict, sp: tuple) -> None:
        """Count the null that making compiled node `c` nullable adds to its enum (if it does) like
        the enum's other values: limits count what is sent."""
        enum = c.get("enum")
        if type(enum) is list and None not in enum and _no_null_branch(c):
            self.n_enum += 1
            threshold, max_chars = self.enum_limits
            if len(enum) == threshold:  # the null takes it past the threshold of enum-chars
                chars = 0
                for x in enum:  # (a loop: compiled, _count_null is a C method, which holds no generator)
                    if isinstance(x, str):
                        chars += len(x)
                if chars > max_chars:
                    self.diag(self.r.counted("enum-chars").code, sp + ("enum",), count=len(enum) + 1, value=chars,
                              threshold=threshold, limit=max_chars)
