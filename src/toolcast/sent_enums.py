"""Enums in the form sent without strict that hold only the value types the provider takes in one (policy sent_enum_values `typed`, the types of policy enum_values): one of toolcast.sendable's passes, each rewrite recorded."""

from __future__ import annotations

from typing import Any

from toolcast.walk.dialect import visit_schema_objects
from toolcast.walk.values import describe

# A JSON type's values, where an enum can hold all of them: that enum means `type` (exact).
_WHOLE = {"null": 1, "boolean": 2}


def _type_of(x: Any) -> str:
    if x is None:
        return "null"
    if type(x) is bool:
        return "boolean"
    if isinstance(x, str):
        return "string"
    if isinstance(x, (int, float)):
        return "number"
    return "object" if isinstance(x, dict) else "array"


def typed_enums(sent: dict, r: Any, trans: list) -> None:
    """Every `enum` of `sent` (changed in place) rid of the values of a type policy enum_values does not name: those
    values are written as the `type` they fill, beside an enum of the others (`anyOf`, or the node's `type` where
    no other value is left); exact where they are all of their type (null, true and false), else a widening,
    recorded as lossy. An `enum` beside `anyOf` or `oneOf` (no second `anyOf` there) becomes the node's `type`."""
    allowed = frozenset(r.enum_types or ())

    def rewrite(node: dict, place: Any) -> None:
        values = node.get("enum")
        if type(values) is not list or not values:
            return
        kept = [v for v in values if _type_of(v) in allowed]
        if len(kept) == len(values):
            return
        others = [v for v in values if _type_of(v) not in allowed]
        types = list(dict.fromkeys(map(_type_of, others)))
        whole = all(t in _WHOLE and len({v for v in others if _type_of(v) == t}) == _WHOLE[t] for t in types)
        del node["enum"]
        what = ", ".join(describe(v) for v in others)
        if kept and "anyOf" not in node and "oneOf" not in node:
            node["anyOf"] = [{"enum": kept}, {"type": types[0] if len(types) == 1 else types}]
        elif kept:  # (no second anyOf beside the node's own: the enum becomes the types of all its values)
            types = list(dict.fromkeys(map(_type_of, values)))
            _typed(node, types)
            whole, what = False, f"the enum, with {what}"
        elif not _typed(node, types):
            whole, what = False, f"the enum of {what}, which no value of the node's `type` is"
        ksp = tuple(place) + ("enum",)
        if whole:
            trans.append((r.changes["wrote-enum-values-as-types"], "#", ksp, f"({what} as `type`: {', '.join(types)})"))
        else:  # (under `not`, or in an `if`, a wider enum makes the node narrower: said so)
            inverted = "not" in place or "if" in place
            trans.append((r.changes["widened-enum-values-to-types"], "#", ksp,
                          f"({what} widened to every {' or '.join(types)}"
                          + ("; under `not` or `if`, which narrows what the schema accepts)" if inverted else ")")))

    visit_schema_objects(sent, rewrite)


def _typed(node: dict, types: list[str]) -> bool:
    """`node` held to `types` as its `type` (beside its own, which it keeps where it names one of them); False when
    its own names none of them (no value it admitted was in the enum: left as it is, wider)."""
    own = node.get("type")
    if own is None:
        node["type"] = types[0] if len(types) == 1 else types
        return True
    owns = [own] if type(own) is str else list(own) if type(own) is list else []
    keep = [t for t in owns if t in types or (t == "integer" and "number" in types)]
    if not keep:
        return False
    node["type"] = keep[0] if len(keep) == 1 else keep
    return True
