"""Keyword actions: each keyword of a node checked and kept, dropped, rewritten or descended into, by its planned op."""

from __future__ import annotations

from typing import Any

from toolcast.model import NullPath
from toolcast.walk import actions
from toolcast.walk.leaves import Leaves
from toolcast.walk.plans import (
    OP_AT_MOST_ONE,
    OP_CONST,
    OP_DEFS,
    OP_DROP,
    OP_ENUM,
    OP_FORMAT,
    OP_PATTERN,
    OP_PLAIN,
    OP_REWRITE,
    OP_SLOT,
    OP_STRUCTURAL,
)
from toolcast.walk.values import _SCALAR_TYPES, EXPECTED, JSON_TYPES, MISSING, _scalar, describe


class Keywords(Leaves):
    """The per-keyword actions of node() (a class of Walk's line)."""

    def _keywords(self, s: dict, sp: tuple, ip: NullPath, depth: int, nest: int) -> tuple[dict, bool]:
        """(the node's kept keywords, whether a rewrite made it nullable); structural keywords are
        only checked here (node() applies them)."""
        # `type` goes first in the output order: reserve its place so that most nodes come out
        # ordered without a re-sort (_types fills it in, or takes it out again).
        out: dict = {"type": None} if "type" in s and "$ref" not in s else {}
        nullable = False
        plan = self.plan
        for k, v in s.items():
            p = plan.get(k)
            if p is None:
                action, dcode, tcode = self.r.unknown_keyword
                if action == "drop":
                    self._dropped(k, sp + (k,), dcode, tcode, dcode in self.refusing)
                continue
            op, exact, check, vkind, handler, dcode, tcode, slot = p
            if type(v) is not exact and check is not None and not check(v):
                self.report("invalid-keyword-value", sp + (k,), keyword=k, value=describe(v), expected=EXPECTED[vkind])
                continue
            if op == OP_PLAIN:
                out[k] = v
                continue
            if op == OP_STRUCTURAL:
                if vkind == "type" and type(v) is str and v not in JSON_TYPES:
                    self.report("invalid-keyword-value", sp + (k,), keyword=k, value=describe(v), expected=EXPECTED[vkind])
                continue  # structural: handled by node()
            if op == OP_DROP:
                self._dropped(k, sp + (k,), dcode, tcode, dcode in self.refusing)
                continue
            if op == OP_SLOT:
                out[k] = self._descend_slot(k, v, slot, sp, ip, depth, nest)
                continue
            if (k == "enum" or k == "const") and not _SCALAR_TYPES.issuperset(map(type, v if k == "enum" else (v,))):
                if not self._scalar_values(k, v, sp):
                    continue
            if op == OP_REWRITE:
                nullable = REWRITES[handler](self, k, v, sp + (k,), out) or nullable
                continue
            if not self._kept(op, k, v, sp):
                continue
            out[k] = self._descend_slot(k, v, slot, sp, ip, depth, nest) if slot is not None else v
        return out, nullable

    def _scalar_values(self, k: str, v: Any, sp: tuple) -> bool:
        """Whether every value of enum or const `k` is a JSON scalar (a finite one); else reported."""
        bad = next((x for x in (v if k == "enum" else [v]) if not _scalar(x)), MISSING)
        if bad is MISSING:
            return True
        if isinstance(bad, float):
            self.report("invalid-keyword-value", sp + (k,), keyword=k, value=describe(bad), expected="finite JSON numbers")
        else:
            self.report("enum-value-not-scalar", sp + (k,), keyword=k, value=describe(bad))
        return False

    def _kept(self, op: int, k: str, v: Any, sp: tuple) -> bool:
        """Whether kept keyword `k` (one with a rule of its own: definitions, format, pattern, enum,
        const) stays in the node; what it records."""
        if op == OP_DEFS:
            ksp = sp + (k,)
            self.report("nested-definitions", ksp, keyword=k)
            self.change("dropped-nested-definitions", ksp)
            return False
        if op == OP_FORMAT:
            if v not in self.r.formats:
                ksp = sp + (k,)
                self.report("unsupported-string-format", ksp, format=v)
                self.change("dropped-unsupported-format", ksp, f"({v})")
                return False
        elif op == OP_PATTERN:
            return self._pattern(v, sp + (k,))
        elif op == OP_AT_MOST_ONE and v > 1:
            # A count the rules take only as 0 or 1 (handler at-most-one): a larger one is dropped.
            ksp = sp + (k,)
            self.report("unsupported-keyword", ksp, keyword=f"{k}: {v}")
            self.change("dropped-unsupported-keyword", ksp, f"({k} {v}; only 0 or 1 are supported)")
            return False
        elif op == OP_ENUM:
            if not v:
                self.report("unsatisfiable-schema", sp + (k,), value="an empty enum")
                return False
            if self.enum_types is not None and not self._enum_types_ok(k, v, sp):
                return False
            self._count_enum(v, sp, k)
        elif op == OP_CONST:
            if self.enum_types is not None and not self._enum_types_ok(k, [v], sp):
                return False
            if isinstance(v, str):
                self.n_chars += len(v)
        return True

    def _enum_types_ok(self, k: str, values: list, sp: tuple) -> bool:
        """Under policy enum_values: whether every value of enum or const `k` has a JSON type the
        rules allow there; else the first other one is reported (a refusal) and the keyword is left out."""
        allowed = self.enum_types
        for x in values:
            t = "null" if x is None else "boolean" if isinstance(x, bool) else "string" if isinstance(x, str) else "number"
            if t not in allowed:
                self.report("enum-value-type-unsupported", sp + (k,), keyword=k, value=describe(x),
                            expected=", ".join(sorted(allowed)))
                return False
        return True

    # -- rewrites, one per handler (a spec names them; actions.REWRITE_HANDLERS says for which keyword).
    # Each records its findings at `ksp` and may add to `out`; True when the node becomes nullable.
    def const_to_enum(self, k: str, v: Any, ksp: tuple, out: dict) -> bool:
        if self.enum_types is not None and not self._enum_types_ok(k, [v], ksp[:-1]):
            return False
        self.report("const-converted-to-enum", ksp)
        self.change("converted-const-to-enum", ksp)
        out["enum"] = [v]
        self._count_enum(out["enum"], ksp[:-1], k)  # sent as an enum value: counted as one
        return False

    def one_of_to_any_of(self, k: str, v: Any, ksp: tuple, out: dict) -> bool:
        # Reached only when anyOf is present too (else _normalize rewrote it): both apply, and no
        # single anyOf says that.
        self.report("unsupported-keyword", ksp, keyword=k)
        self.change("dropped-unsupported-keyword", ksp)
        return False

    def openapi_nullable(self, k: str, v: Any, ksp: tuple, out: dict) -> bool:
        if v:
            self.report("nullable-keyword-converted", ksp)
            self.change("converted-nullable-to-type-union", ksp)
            return True
        self.report("annotation-keyword-dropped", ksp, keyword=k)
        self.change("dropped-annotation-keyword", ksp)
        return False

    def definitions_to_defs(self, k: str, v: Any, ksp: tuple, out: dict) -> bool:
        # At the root, `definitions` were collected before the walk; below it they are dropped.
        self.report("nested-definitions", ksp, keyword=k)
        self.change("dropped-nested-definitions", ksp)
        return False

    def merge_all_of(self, k: str, v: Any, ksp: tuple, out: dict) -> bool:
        return False  # applied by _normalize before the node's keywords are read


# rewrite handler (spec name) -> its action; tools/gen_tables.py refuses a handler not listed in
# actions.REWRITE_HANDLERS, and this table covers exactly those.
REWRITES = {name: getattr(Keywords, name.replace("-", "_")) for name in actions.REWRITE_HANDLERS}
