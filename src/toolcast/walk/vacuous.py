"""Keywords that constrain one JSON type only, dropped from a node whose settled `type` excludes them, and a type
list split into one `anyOf` branch per type where they constrain some of its types only (policy type_keywords
`per-type`)."""

from __future__ import annotations

from typing import Any

from toolcast.walk.semantics import _admits
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


def split_types(w: Any, s: dict, out: dict, sp: tuple) -> dict:
    """`out`, compiled node `s` whose `type` is a list of two or more types besides null, as `anyOf` with one
    branch per type, each with only the keywords that constrain its type, where a keyword of the node
    constrains some of its types but not all (`minimum` beside `type: [integer, string]`: the provider takes
    it only on a schema of its type); `out` itself otherwise. Exact: a value of type T passes the node if
    and only if it passes T's branch, since every keyword left out of that branch ignores T's values (JSON
    Schema 2020-12 Validation §6). `enum`/`const` go to a branch with the members of its type (a branch
    none of whose members has its type is left out); `format` (defined for strings only) to the string
    branch; every other keyword, such as `description`, stays beside `anyOf`. `null` becomes a branch of
    its own. Decided from the node's keywords only (the same whether or not the walk builds the form);
    recorded as `split-type-list-to-any-of`."""
    types = out.get("type")
    kinds = [k for k in types if k != "null"]
    if len(kinds) < 2 or "anyOf" in out:
        return out
    if not _mixed(s, out, frozenset(kinds)):
        return out
    if ("enum" in out and not any(_admits(types, x) for x in out["enum"])) or (
            "const" in out and not _admits(types, out["const"])):
        return out  # (no value of its type: no branch would be left; it accepts nothing either way)
    w.change("split-type-list-to-any-of", sp + ("type",), f"({' / '.join(types)})")
    if not w.builds:
        return out
    outer = {k: v for k, v in out.items()
             if k != "type" and k != "enum" and k != "const" and k != "format" and k not in APPLIES_TO}
    branches = []
    rank = w.rank
    for kind in types:
        b: dict = {"type": kind}
        for k, v in out.items():
            if k in APPLIES_TO:
                if kind in APPLIES_TO[k]:
                    b[k] = v
            elif k == "format":
                if kind == "string" or "string" not in types:
                    b[k] = v
            elif k == "enum":
                b[k] = [x for x in v if _admits((kind,), x)]
            elif k == "const":
                if not _admits((kind,), v):
                    b = {}
                    break
                b[k] = v
        if kind == "null" and b.get("enum") == [None]:
            del b["enum"]  # (`type: null` says it already)
        if b and b.get("enum", True) != []:
            branches.append({k: b[k] for k in sorted(b, key=rank.__getitem__)})  # (the output order)
    outer["anyOf"] = branches
    return outer  # (node() puts it in the output order)


def _mixed(s: dict, out: dict, kinds: frozenset) -> bool:
    """Whether a keyword of node `s` (compiled as `out`) constrains some of `kinds` but not all: a kept one
    of `out`, or an object's or an array's own (read from the type and `s`, which the walk writes into
    `out` only when it builds the form)."""
    for k in out:
        applies = APPLIES_TO.get(k)
        if applies is not None and not kinds <= applies:
            return True
    return "object" in kinds or ("array" in kinds and "items" in s)
