"""Leaf keyword actions: dropped keywords, enum counts, format and pattern checks of a node."""

from __future__ import annotations

from toolcast.walk.plans import _CONST, _DROP, _ENUM, _FORMAT
from toolcast.walk.regex import _pattern_verdict
from toolcast.walk.values import describe


class Leaves:
    """Actions on a node's leaf keywords (a mixin of Walk)."""

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

    def _leaf(self, s: dict, lp: tuple, sp: tuple) -> dict | None:
        """node() for a scalar leaf of a planned shape; None, with nothing recorded, when a value
        needs node()'s full treatment."""
        out = self._leaf_values(s, lp)
        if out is not None and lp[1]:
            self._record_steps(s, lp[1], sp)
        return out

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
