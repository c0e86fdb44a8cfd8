"""Two schemas of one value written as one that accepts what both accept: their keywords side by side, where that is exact."""

from __future__ import annotations

from typing import Any

from toolcast.walk.actions import CONSTRAINING
from toolcast.walk.semantics import json_equal

# Keywords whose meaning reads the keywords beside them (None: every applicator beside them). Side
# by side with another schema's keywords they would read those too: `additionalProperties: false`
# beside another schema's `properties` lets its names through.
_READS_SIBLINGS: dict[str, tuple | None] = {
    "additionalProperties": ("properties", "patternProperties"),
    "unevaluatedProperties": None, "unevaluatedItems": None,
    "items": ("prefixItems",), "additionalItems": ("items",),
    "then": ("if",), "else": ("if",), "minContains": ("contains",), "maxContains": ("contains",),
}
# Keywords for which `true` (or `{}`) says what leaving them out says.
_OPEN = frozenset({"additionalProperties", "unevaluatedProperties", "items", "unevaluatedItems", "additionalItems",
                   "propertyNames"})


def add_property(props: dict, name: str, s: Any) -> None:
    """Property `name` of `props` constrained by `s` as well (both must hold)."""
    if name not in props or json_equal(props[name], s):
        props[name] = s
    elif type(props[name]) is dict and list(props[name]) == ["allOf"]:
        props[name]["allOf"].append(s)
    else:
        props[name] = {"allOf": [props[name], s]}


def conjoined(a: dict, b: dict) -> tuple[dict, list[str]]:
    """(`a`, the target of a `$ref` in `b`, and `b`'s other keywords as one schema; the keywords it
    does not hold exactly).
    Where both say a keyword: `properties` are merged (a name in both must meet both), `required`
    joined, `type` the types both admit, an annotation is `b`'s, and an equal value is kept; any
    other keyword, or one that would read the other's keywords beside it, is `b`'s and listed."""
    out = dict(a)
    inexact: list[str] = []
    for k, v in b.items():
        if k not in out or (k in _OPEN and _open(out[k])):
            out[k] = v
            continue
        w = out[k]
        if json_equal(w, v) or (k in _OPEN and _open(v)):
            continue
        if k == "properties" and type(w) is dict and type(v) is dict:
            props = dict(w)
            for name, s in v.items():
                add_property(props, name, s)
            out[k] = props
        elif k == "required" and type(w) is list and type(v) is list:
            out[k] = w + [n for n in v if n not in w]
        elif k == "type" and _meet(w, v):
            out[k] = _meet(w, v)
        else:
            out[k] = v
            if k in CONSTRAINING:
                inexact.append(k)
    for side, other in ((a, b), (b, a)):
        for k, reads in _READS_SIBLINGS.items():
            if reads is None and side is b:  # (b's unevaluated* saw a's evaluations already, through the `$ref`)
                continue
            if k in side and not (k in _OPEN and _open(side[k])) and k not in inexact and _reads_other(side, other, reads):
                inexact.append(k)
    return out, inexact


def no_common_type(a: dict, b: dict) -> bool:
    """Whether `a` and `b` each name types and no value has one of each (together they admit nothing)."""
    return "type" in a and "type" in b and _names(a["type"]) is not None and _names(b["type"]) is not None and (
        _meet(a["type"], b["type"]) is None)


def _open(v: Any) -> bool:
    return v is True or (type(v) is dict and not v)


def _reads_other(side: dict, other: dict, reads: tuple | None) -> bool:
    """Whether a keyword of `side` that reads `reads` beside it would read something of `other`'s."""
    if reads is None:
        return any(k in CONSTRAINING for k in other)
    for k in reads:
        if k not in other:
            continue
        if k == "properties":
            mine = side.get("properties")
            if type(other[k]) is not dict or type(mine) is not dict or not set(other[k]) <= set(mine):
                return True
        elif k not in side or not json_equal(side[k], other[k]):
            return True
    return False


def _meet(a: Any, b: Any) -> Any:
    """The `type` that admits what types `a` and `b` both admit (a list in `a`'s order, one name
    alone), or None where it is no type or no value is both."""
    ta, tb = _names(a), _names(b)
    if ta is None or tb is None:
        return None
    both = [t for t in ta if t in tb or (t == "integer" and "number" in tb)]
    both += ["integer"] if "number" in ta and "integer" in tb and "integer" not in both else []
    if not both:
        return None
    return both[0] if len(both) == 1 else both


def _names(t: Any) -> list | None:
    if type(t) is str:
        return [t]
    if type(t) is list and t and all(type(x) is str for x in t):
        return t
    return None
