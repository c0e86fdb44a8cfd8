"""Keyword actions: what a kept keyword with a rule of its own records (nested definitions, format, pattern, a count, enum, const), and the rewrites by handler (the loop over a node's keywords is descent._keywords)."""

from __future__ import annotations

from typing import Any

from toolcast.walk import actions
from toolcast.walk.leaves import _count_enum
from toolcast.walk.plans import (
    OP_AT_MOST_ONE,
    OP_CONST,
    OP_DEFS,
    OP_ENUM,
    OP_FORMAT,
)
from toolcast.walk.state import Walk
from toolcast.walk.unread import report_invalid
from toolcast.walk.values import MISSING, _scalar, describe


def _scalar_values(w: Walk, k: str, v: Any, sp: tuple) -> bool:
    """Whether every value of enum or const `k` is a JSON scalar (a finite one); else reported."""
    bad = next((x for x in (v if k == "enum" else [v]) if not _scalar(x)), MISSING)
    if bad is MISSING:
        return True
    if isinstance(bad, float):
        w.report("invalid-keyword-value", sp + (k,), keyword=k, value=describe(bad), expected="finite JSON numbers")
    else:
        w.report("enum-value-not-scalar", sp + (k,), keyword=k, value=describe(bad))
    return False


def _kept(w: Walk, op: int, k: str, v: Any, sp: tuple) -> bool:
    """Whether kept keyword `k` (one with a rule of its own: definitions, format, pattern, enum,
    const) stays in the node; what it records. (A pattern is descent's: _pattern gives what it writes.)"""
    if op == OP_DEFS:
        ksp = sp + (k,)
        report_invalid(w, {k: v}, sp)  # (left out unread: what no schema may hold still refuses)
        w.report("nested-definitions", ksp, keyword=k)
        w.change("dropped-nested-definitions", ksp)
        return False
    if op == OP_FORMAT:
        if v not in w.r.formats:
            ksp = sp + (k,)
            w.report("unsupported-string-format", ksp, format=v)
            w.change("dropped-unsupported-format", ksp, f"({v})")
            return False
    elif op == OP_AT_MOST_ONE:
        # A count the rules take only up to a figure (handler at-most-one: 1; at-most: the entry's
        # `max`): a larger one is dropped.
        most = w.r.keywords[k].most or 1
        if v > most:
            ksp = sp + (k,)
            w.report("unsupported-keyword", ksp, keyword=f"{k}: {v}")
            w.change("dropped-unsupported-keyword", ksp, f"({k} {v}; only 0 or 1 are supported)" if most == 1
                     else f"({k} {v}; only values up to {most} are guaranteed)")
            return False
    elif op == OP_ENUM:
        if not v:
            w.report("unsatisfiable-schema", sp + (k,), value="an empty enum")
            return False
        if w.enum_types is not None and not _enum_types_ok(w, k, v, sp):
            return False
        _count_enum(w, v, sp, k)
    elif op == OP_CONST:
        if w.enum_types is not None and not _enum_types_ok(w, k, [v], sp):
            return False
        if isinstance(v, str):
            w.n_chars += len(v)
    return True


def _enum_types_ok(w: Walk, k: str, values: list, sp: tuple) -> bool:
    """Under policy enum_values: whether every value of enum or const `k` has a JSON type the
    rules allow there; else the first other one is reported (a refusal) and the keyword is left out."""
    allowed = w.enum_types
    for x in values:
        t = "null" if x is None else "boolean" if isinstance(x, bool) else "string" if isinstance(x, str) else "number"
        if t not in allowed:
            w.report("enum-value-type-unsupported", sp + (k,), keyword=k, value=describe(x),
                        expected=", ".join(sorted(allowed)))
            return False
    return True


# -- rewrites, one per handler (a spec names them; actions.REWRITE_HANDLERS says for which keyword).
# Each records its findings at `ksp` and may add to `out`; True when the node becomes nullable.
def const_to_enum(w: Walk, k: str, v: Any, ksp: tuple, out: dict) -> bool:
    if w.enum_types is not None and not _enum_types_ok(w, k, [v], ksp[:-1]):
        return False
    w.report("const-converted-to-enum", ksp)
    w.change("converted-const-to-enum", ksp)
    out["enum"] = [v]
    _count_enum(w, out["enum"], ksp[:-1], k)  # sent as an enum value: counted as one
    return False


def one_of_to_any_of(w: Walk, k: str, v: Any, ksp: tuple, out: dict) -> bool:
    # Reached only when anyOf is present too (else _normalize rewrote it): both apply, and no
    # single anyOf says that.
    w.report("unsupported-keyword", ksp, keyword=k)
    w.change("dropped-unsupported-keyword", ksp)
    return False


def openapi_nullable(w: Walk, k: str, v: Any, ksp: tuple, out: dict) -> bool:
    if v:
        w.report("nullable-keyword-converted", ksp)
        w.change("converted-nullable-to-type-union", ksp)
        return True
    w.report("annotation-keyword-dropped", ksp, keyword=k)
    w.change("dropped-annotation-keyword", ksp)
    return False


def definitions_to_defs(w: Walk, k: str, v: Any, ksp: tuple, out: dict) -> bool:
    # At the root, `definitions` were collected before the walk; below it they are dropped.
    w.report("nested-definitions", ksp, keyword=k)
    w.change("dropped-nested-definitions", ksp)
    return False


def merge_all_of(w: Walk, k: str, v: Any, ksp: tuple, out: dict) -> bool:
    return False  # applied by _normalize before the node's keywords are read


# rewrite handler (spec name) -> its action; tools/gen_tables.py refuses a handler not listed in
# actions.REWRITE_HANDLERS, and this table covers exactly those.
REWRITES = {"const-to-enum": const_to_enum, "one-of-to-any-of": one_of_to_any_of, "openapi-nullable": openapi_nullable,
            "definitions-to-defs": definitions_to_defs, "merge-all-of": merge_all_of}
assert REWRITES.keys() == actions.REWRITE_HANDLERS.keys()
