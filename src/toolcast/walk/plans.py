"""The keyword plan of a rule version: what the walk does with each keyword, and the tables a walk reads."""

from __future__ import annotations

from toolcast.rules import Rules
from toolcast.walk.values import (
    EXACT,
    VALUE_CHECKS,
    _never,
)

_DEF_REFS: dict[str, str] = {}


def _def_ref(name: str) -> str:
    ref = "#/$defs/" + name.replace("~", "~0").replace("/", "~1")
    if len(_DEF_REFS) >= 4096:
        _DEF_REFS.clear()
    if len(name) <= 128:
        _DEF_REFS[name] = ref
    return ref


# A compiled node with one of these takes null some other way than a type union (see with_null).
_NOT_PLAIN_NULLABLE = frozenset({"$ref", "const", "anyOf", "enum"})
# A node needs _normalize (and may hold $ref or anyOf) only if it has one of these.
_RESHAPING = frozenset({"allOf", "const", "$ref", "oneOf", "anyOf", "nullable"})


# What the walk does with a keyword once its value is valid (decided once per rule version).
(OP_PLAIN, OP_SLOT, OP_STRUCTURAL, OP_DROP, OP_REWRITE, OP_DEFS, OP_FORMAT, OP_PATTERN, OP_ENUM,
 OP_CONST) = range(10)
STRUCTURAL = frozenset({"type", "properties", "required", "additionalProperties", "items", "anyOf", "$ref"})


def keyword_plan(r: Rules) -> dict:
    """keyword -> (op, value check, value kind, handler, diagnostic code, transformation code, slot).

    Built from the rule tables once per Rules and cached on it; the walk reads only this.
    """
    plan = r.__dict__.get("_keyword_plan")
    if plan is not None:
        return plan
    plan = {}
    for k, (_cls, action, handler, vkind, dcode, tcode, _cite) in r.keywords.items():
        slot = r.slots.get(k)
        if action == "drop":
            op = OP_DROP
        elif action == "rewrite":
            op = OP_REWRITE
        elif k in STRUCTURAL:
            op = OP_STRUCTURAL
        elif k == "$defs":
            op = OP_DEFS
        elif handler == "format":
            op = OP_FORMAT
        elif handler == "pattern":
            op = OP_PATTERN
        elif k == "enum":
            op = OP_ENUM
        elif k == "const":
            op = OP_CONST
        else:
            op = OP_PLAIN if slot is None else OP_SLOT
        check = VALUE_CHECKS.get(vkind, _never)
        exact = EXACT.get(vkind)
        if vkind == "type" and op == OP_STRUCTURAL:
            exact = str  # a type name is checked against JSON_TYPES where the walk reads it
        plan[k] = (op, exact, check, vkind, handler, dcode, tcode, slot)
    r.__dict__["_keyword_plan"] = plan
    r.__dict__["_rank"] = _Rank(r.order_index)
    r.__dict__["_refusing_codes"] = frozenset(c for c, e in r.diagnostics.items() if e[1] == "refuses")
    r.__dict__["_lossy_codes"] = frozenset(c for c, e in r.transformations.items() if e[0])
    refusing = r.__dict__["_refusing_codes"]
    # (an optional property's diagnostic refuses, its null warning refuses, a bare $ref is structural,
    #  an object's missing additionalProperties refuses)
    codes, changes = r.patterns, r.changes
    r.__dict__["_object_flags"] = (codes["strict-optional-property"] in refusing,
                                   codes["nullable-instead-of-omitted"] in refusing,
                                   plan.get("$ref", (None,))[0] == OP_STRUCTURAL,
                                   codes["object-missing-additional-properties"] in refusing)
    # The codes an object records for its properties, in its loop: an optional property's
    # diagnostic, the change that makes it nullable, a missing additionalProperties and its fix,
    # and a repointed `#/definitions/` reference.
    r.__dict__["_object_codes"] = (codes["strict-optional-property"], changes["converted-optional-property-to-nullable"],
                                   codes["object-missing-additional-properties"],
                                   changes["added-additional-properties-false"], changes["rewrote-definitions-reference"])
    r.__dict__["_enum_limits"] = (r.counted("enum-size").value, r.counted("enum-chars").value)
    r.__dict__["_limit_values"] = tuple(r.counted(c).value for c in ("properties", "string-chars", "enum-values",
                                                             "depth"))
    return plan


def _walk_tables(r: Rules) -> dict:
    """What a walk reads from its rule version, by attribute name (built once per Rules)."""
    tables = r.__dict__.get("_walk_tables")
    if tables is None:
        keyword_plan(r)
        d = r.__dict__
        tables = d["_walk_tables"] = {
            "r": r, "plan": d["_keyword_plan"], "refusing": d["_refusing_codes"], "lossy_codes": d["_lossy_codes"],
            "rank": d["_rank"],
            "object_flags": d["_object_flags"], "limit_values": d["_limit_values"],
            "enum_limits": d["_enum_limits"], "codes": r.patterns, "changes": r.changes,
            "object_codes": d["_object_codes"], "annotations": r.ref_siblings,
        }
    return tables


class _Rank(dict):
    """keyword -> place in the output order; keywords the table does not list go last."""

    def __missing__(self, key: str) -> int:
        return 1000
