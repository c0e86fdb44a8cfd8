"""Keywords that constrain one JSON type only, dropped from a node whose settled `type` excludes them (policy type_keywords `per-type`)."""

from __future__ import annotations

from typing import Any

from toolcast.walk.values import _TYPE_SETS, APPLIES_TO, _ok_type

# Left out of the table: the structural keywords, which the walk applies only where the node's type
# is theirs already (descent._structure). (`format` is not in APPLIES_TO.)
_NOT_DROPPED = frozenset({"properties", "required", "additionalProperties", "items"})

# Keyword -> the instance types it constrains (values.APPLIES_TO); an instance of any other type passes
# it, so on a node whose type is none of them it constrains nothing (JSON Schema 2020-12 Validation §6,
# each keyword's "if the instance is a ..."): `minimum` on a string, `pattern` on an integer, `minItems`
# on an object.
TYPE_KEYWORDS: dict[str, frozenset[str]] = {k: v for k, v in APPLIES_TO.items() if k not in _NOT_DROPPED}


def type_keywords(policy: dict) -> dict[str, frozenset[str]] | None:
    """The table the walk drops by under policy type_keywords `per-type` (a provider that takes each
    such keyword only on a schema of its type), else None: the keywords stay as written."""
    return TYPE_KEYWORDS if policy.get("type_keywords") == "per-type" else None


def drop_vacuous(w: Any, s: dict, sp: tuple) -> dict:
    """`s` without the keywords that constrain only types its `type` excludes (a new dict; `s` itself
    when none does, or when its type is not a valid one, which the walk reports as it is), each
    reported and recorded as dropped without loss. `s` is the node as the walk reads it: after its
    `allOf` merged and its `$ref` siblings settled, so its type is the one the strict form gets."""
    table = w.type_keywords
    t = s.get("type")
    if not _ok_type(t):
        return s
    types = _TYPE_SETS[t] if type(t) is str else frozenset(t)
    drop = [k for k in s if k in table and table[k].isdisjoint(types)]
    if not drop:
        return s
    value = " or ".join(sorted(types))
    for k in drop:
        expected = " or ".join(sorted(table[k]))
        w.record("keyword-not-for-type", sp + (k,), (("keyword", k), ("expected", expected), ("value", value)))
        w.change("dropped-vacuous-keyword", sp + (k,), f"(applies only to {expected} values; the type is {value})")
    return {k: v for k, v in s.items() if k not in drop}
