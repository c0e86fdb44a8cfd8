"""Keywords read beside others: which keywords of a schema object a keyword's meaning depends on, and whether a merge keeps that meaning."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolcast.walk.semantics import json_equal
from toolcast.walk.values import MISSING

# Keywords whose meaning depends on others beside them in the same schema object (2020-12): `items`
# applies to the elements after `prefixItems` (§10.3.1.2), `additionalItems` (older drafts) after an
# array `items`, `additionalProperties` to the names `properties` and `patternProperties` leave,
# `minContains`/`maxContains` count what `contains` matches (and `minContains: 0` voids it),
# `then`/`else` follow `if`, `unevaluated*` see what every applicator beside them evaluated.
_IN_PLACE = ("allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref", "$dynamicRef")
DEPENDS_ON = {
    "items": ("prefixItems",),
    "additionalItems": ("items",),
    "additionalProperties": ("properties", "patternProperties"),
    "contains": ("minContains",),
    "minContains": ("contains",),
    "maxContains": ("contains",),
    "then": ("if",),
    "else": ("if",),
    "unevaluatedProperties": ("properties", "patternProperties", "additionalProperties", "dependentSchemas",
                              *_IN_PLACE),
    "unevaluatedItems": ("prefixItems", "items", "additionalItems", "contains", *_IN_PLACE),
}
no_dependents = frozenset(DEPENDS_ON).isdisjoint
# Controllers read by the names they give alone (a keyword beside them reads no schema of theirs);
# prefixItems by its length alone. Left out, they give none.
_BY_NAMES = frozenset({"properties", "patternProperties", "dependentSchemas"})


def same_reading(c: str, a: Any, b: Any) -> bool:
    """Whether controller `c` valued `a` or `b` (MISSING when left out) means the same to the keywords
    that depend on it."""
    if c in _BY_NAMES or c == "prefixItems":
        a = () if a is MISSING else a
        b = () if b is MISSING else b
        if c == "prefixItems":
            return isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b)
        return isinstance(a, (dict, tuple)) and isinstance(b, (dict, tuple)) and set(a) == set(b)
    return a is b or (a is not MISSING and b is not MISSING and json_equal(a, b))


def moved_keyword(part: dict, out: dict, dropped: Callable[[str], bool]) -> str | None:
    """The first keyword of merge part `part` that depends on others and does not find in the merged
    node `out` what it found beside it in `part` (so it would mean something else there), or None.
    Keywords the walk drops (`dropped`) are left to the finding their drop gets."""
    for k, controllers in DEPENDS_ON.items():
        v = part.get(k, MISSING)
        if v is MISSING or dropped(k) or (k != "contains" and (v is True or v == {})):
            continue  # (a schema that accepts everything constrains nothing, but as `contains`)
        if k == "additionalProperties" and v is False:
            continue  # (the merge's closing settles it: combinators._closed_merge)
        for c in controllers:
            if not dropped(c) and not same_reading(c, part.get(c, MISSING), out.get(c, MISSING)):
                return k
    return None
