"""Keywords read with a partner that limits where they apply: when the walk drops the partner, what is left would apply more
widely than the tool says, and narrow it unreported. So the keyword goes too (a widening, recorded with the partner's drop), or
closing an object that no longer names its pattern keys is reported as the narrowing it is."""

from __future__ import annotations

from toolcast.walk.plans import OP_DROP, PARTNERS
from toolcast.walk.semantics import json_equal
from toolcast.walk.state import Walk

# (PARTNERS: the keywords whose drop changes what a kept neighbour means; see walk.plans)
no_partner = PARTNERS.isdisjoint  # (bound once)


def _drop_codes(w: Walk, k: str) -> tuple | None:
    """(diagnostic, transformation) with which the walk drops keyword `k` wherever it stands, or None (kept)."""
    p = w.plan.get(k)
    if p is None:
        action, dcode, tcode = w.r.unknown_keyword
        return (dcode, tcode) if action == "drop" else None
    return (p[5], p[6]) if p[0] == OP_DROP else None


def _with(s: dict, sp: tuple, gone: list, codes: tuple, why: str, pending: list) -> dict:
    """`s` without the keywords in `gone`, each added to `pending` as dropped with the dropped partner's change code (a
    widening; the partner's own diagnostic says what was dropped). The caller records them after the node's keywords."""
    pending.extend((codes[1], "#", sp + (g,), f"({why})") for g in gone)
    return {key: v for key, v in s.items() if key not in gone}


def partners(w: Walk, s: dict, sp: tuple) -> tuple[dict, list]:
    """(`s` as the walk reads it once its dropped keywords are gone: without a neighbour whose meaning they limit, the
    records of those neighbours' drops, for the caller to add after the node's own keywords')."""
    pending: list = []
    if "prefixItems" in s and "items" in s and (codes := _drop_codes(w, "prefixItems")) is not None:
        items, prefix = s["items"], s["prefixItems"]
        exact = items is True or items == {} or (type(prefix) is list and all(json_equal(p, items) for p in prefix))
        if not exact:  # (`items` then applies to every element, the tuple's too)
            s = _with(s, sp, ["items"], codes, "`items` applies only after `prefixItems`", pending)
    if (s.get("minContains", 1) == 0 and "contains" in s and _drop_codes(w, "contains") is None
            and (codes := _drop_codes(w, "minContains")) is not None):
        # (`minContains: 0` makes `contains` vacuous; without it, a kept `contains` asks for a match)
        gone = [k for k in ("contains", "maxContains") if k in s and _drop_codes(w, k) is None]
        s = _with(s, sp, gone, codes, "`minContains: 0` lets `contains` match nothing", pending)
    if "patternProperties" in s and (pp := s["patternProperties"]) and type(pp) is dict and (
            codes := _drop_codes(w, "patternProperties")) is not None:
        s = _pattern_keys(w, s, sp, codes, pending)
    return s, pending


def _pattern_keys(w: Walk, s: dict, sp: tuple, codes: tuple, pending: list) -> dict:
    """An object's `additionalProperties` (false, or a schema) beside its dropped `patternProperties`: left out where objects
    are sent as written (it would reject the keys the patterns admitted), else the closing reported as a narrowing."""
    ap = s.get("additionalProperties", True)
    if ap is True or ap == {}:
        return s  # (open already: a closing, if any, is reported as such)
    at = sp + ("additionalProperties",)
    if w.objects_unlisted:
        if ap is not False or not w.objects_keep_closed:
            return s  # (a schema, or `false` where objects are not kept closed: dropped anyway, and reported)
        return _with(s, sp, ["additionalProperties"], codes,
                     "it would reject the keys `patternProperties` admitted", pending)
    w.report("extra-properties-no-longer-accepted", at)
    w.change("closed-open-object", at, "(the keys `patternProperties` admitted, now dropped)")
    return s
