"""Schemas of one value written as one that accepts what they all accept (a `$ref` beside more keywords, the root's combinators): their keywords side by side, where that is exact."""

from __future__ import annotations

import re
from typing import Any

from toolcast.ecma_classes import as_python
from toolcast.walk.actions import CONSTRAINING
from toolcast.walk.semantics import json_equal
from toolcast.walk.values import ref_pointer

# Keywords whose meaning reads the keywords beside them (None: every applicator beside them). Side
# by side with another schema's keywords they would read those too: `additionalProperties: false`
# beside another schema's `properties` lets its names through.
_READS_SIBLINGS: dict[str, tuple | None] = {
    "additionalProperties": ("properties", "patternProperties"),
    "unevaluatedProperties": None, "unevaluatedItems": None,
    "items": ("prefixItems",), "additionalItems": ("items",),
    "then": ("if",), "else": ("if",), "minContains": ("contains",), "maxContains": ("contains",),
}
# What an allOf part of the root may say and still be merged exactly (the rest is dropped, lossy).
_MERGED = frozenset({"type", "properties", "required", "title", "description", "$comment", "examples", "default"})
_DEFS = ("$defs", "definitions")
# Keywords for which `true` (or `{}`) says what leaving them out says.
_OPEN = frozenset({"additionalProperties", "unevaluatedProperties", "items", "unevaluatedItems", "additionalItems",
                   "propertyNames"})


def add_property(props: dict, name: str, s: Any) -> None:
    """Property `name` of `props` constrained by `s` as well (both must hold)."""
    if name not in props or json_equal(props[name], s) or says_nothing(props[name]):
        props[name] = s
    elif says_nothing(s):  # (it asks nothing more)
        return
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
        if k not in out or (k in _OPEN and says_nothing(out[k])):
            out[k] = v
            continue
        w = out[k]
        if json_equal(w, v) or (k in _OPEN and says_nothing(v)):
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
            if k in side and not (k in _OPEN and says_nothing(side[k])) and k not in inexact and _reads_other(side, other, reads):
                inexact.append(k)
    return out, inexact


def reads_across(a: dict, b: dict) -> bool:
    """Whether a keyword of `a` or of `b`, put side by side with the other's keywords, would read
    something of the other's beside it (`additionalProperties` the other's `properties`, an
    `unevaluated*` any of its applicators, ...): the two are then not one schema side by side."""
    for side, other in ((a, b), (b, a)):
        for k, reads in _READS_SIBLINGS.items():
            if k in side and not (k in _OPEN and says_nothing(side[k])) and _reads_other(side, other, reads):
                return True
    return False


def no_common_type(a: dict, b: dict) -> bool:
    """Whether `a` and `b` each name types and no value has one of each (together they admit nothing)."""
    return "type" in a and "type" in b and _names(a["type"]) is not None and _names(b["type"]) is not None and (
        _meet(a["type"], b["type"]) is None)


def says_nothing(v: Any) -> bool:
    """Whether subschema `v` is `true` or `{}`: it accepts every value (where a keyword holds it, as if left out)."""
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


def _properties(s: Any) -> dict:
    """The `properties` of schema `s`, where it states them as an object ({} elsewhere)."""
    return s["properties"] if type(s) is dict and type(s.get("properties")) is dict else {}


def _required(s: Any) -> list:
    """The `required` of schema `s`, where it states it as a list ([] elsewhere)."""
    return s["required"] if type(s) is dict and type(s.get("required")) is list else []


def merge_union(sent: dict, key: str, objects: list, n: int, r: Any, trans: list) -> None:
    """One object for the root's anyOf/oneOf branches that admit objects: every property any
    branch names (a property named by several, as an anyOf of their schemas), required where
    every branch requires it."""
    lifted: dict = {}
    for b in objects:
        for name, s in _properties(b).items():
            alts = lifted.setdefault(name, [])
            if s not in alts:
                alts.append(s)
    common = set.intersection(*(set(_required(b)) for b in objects))
    props = dict(_properties(sent))
    for name, alts in lifted.items():
        add_property(props, name, alts[0] if len(alts) == 1 else {"anyOf": alts})
    if props or "properties" in sent:
        sent["properties"] = props
    own = list(_required(sent))
    more = [p for b in objects for p in _required(b) if p in common and p not in own]
    if more:
        sent["required"] = own + list(dict.fromkeys(more))
    left = f", {n - len(objects)} that admit no object left out" if n > len(objects) else ""
    trans.append((r.changes["merged-root-combinator"], "#", (key,),
                  f"({len(objects)} branches as one object with the union of their properties{left})"))


def merge_all_of(sent: dict, parts: list, r: Any, trans: list) -> None:
    """The root's allOf parts merged into it: their properties (a property named twice must meet
    both; one the root does not name still meets the root's `additionalProperties`, which judged
    it there) and required; any other keyword of a part is dropped (lossy), and with it the root's
    `unevaluatedProperties`, which read that keyword's results (lossy)."""
    own = _properties(sent)
    props = dict(own)
    required = list(_required(sent))
    judged = _additional(sent)
    dropped = False
    for i, p in enumerate(parts):
        if type(p) is not dict:
            continue
        for name, s in _properties(p).items():
            verdict = judged(name) if name not in own else True
            if verdict is False:  # (no value of the root has it: the part's schema for it says nothing)
                continue
            add_property(props, name, s)
            if type(verdict) is Unread:
                add_property(props, name, verdict.ap)
                trans.append((r.changes["merged-root-all-of"], "#", ("allOf", i, "properties", name),
                              f"(whether the root's patternProperties {verdict.pattern!r} matches {name!r} cannot be "
                              "read: the root's `additionalProperties` is held to it too, which may narrow)"))
            elif verdict is not True:
                add_property(props, name, verdict)
        required += [n for n in _required(p) if n not in required]
        for k in p:  # (a `$ref` left in a part said more beside it, or named nothing to follow)
            if k not in _MERGED and k not in _DEFS:
                dropped = True
                trans.append((r.changes["dropped-root-keyword"], "#", ("allOf", i, k), f"(`{k}` of an allOf part of the root)"))
    if dropped and "unevaluatedProperties" in sent and not says_nothing(sent["unevaluatedProperties"]):
        del sent["unevaluatedProperties"]
        trans.append((r.changes["dropped-unevaluated-keyword"], "#", ("unevaluatedProperties",),
                      "(it read the results of the allOf parts' keywords left out)"))
    if props:
        sent["properties"] = props
    if required:
        sent["required"] = required
    trans.append((r.changes["merged-root-all-of"], "#", ("allOf",), f"({len(parts)} parts)"))


class Unread:
    """_additional's verdict on a name where a root pattern could not be read (Python's `re` does not compile
    it as ECMA-262 writes it): whether the name is additional is not known, so the root's `additionalProperties`
    (`ap`) is held to it as well, which narrows at most (a name the pattern matches is then held to more)."""

    __slots__ = ("ap", "pattern")

    def __init__(self, ap: Any, pattern: Any) -> None:
        self.ap, self.pattern = ap, pattern


def _additional(root: dict) -> Any:
    """For a property name the root's `properties` do not hold: what the root's own keywords ask of
    it as `additionalProperties` reads it (True: nothing; False: no value; else that schema). A name
    a `patternProperties` pattern matches is not additional (its pattern's schema still applies).
    A pattern is read as ECMA-262 reads it (toolcast.ecma_classes.as_python); where one cannot be
    read and no other matches, the verdict is Unread (never taken to match: that would let a name
    through that `additionalProperties` keeps out)."""
    ap = root.get("additionalProperties", True)
    if says_nothing(ap) or type(ap) not in (bool, dict):
        return lambda name: True
    patterns = root.get("patternProperties")
    patterns = list(patterns) if type(patterns) is dict else []

    def judged(name: str) -> Any:
        unread = None
        for pattern in patterns:
            try:
                if re.search(as_python(pattern), name):
                    return True
            except (re.error, TypeError, ValueError):  # (a pattern Python does not read as ECMA-262 writes it)
                unread = unread or Unread(ap, pattern)
        return ap if unread is None else unread
    return judged


def pointer_target(root: dict, ref: Any) -> Any:
    """The schema a same-document pointer `$ref` names in `root`, or None."""
    if type(ref) is not str or ref[:1] != "#":
        return None
    tokens = ref_pointer(ref)
    if tokens is None:
        return None
    node: Any = root
    for t in tokens:
        if type(node) is dict and t in node:
            node = node[t]
        elif type(node) is list and t.isdigit() and int(t) < len(node):
            node = node[int(t)]
        else:
            return None
    return node
