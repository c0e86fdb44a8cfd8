"""Keywords that constrain one JSON type only, under policy type_keywords `per-type`: dropped from a node whose
settled `type` excludes them, a type list split into one `anyOf` branch per type where they constrain some of its
types only, a node with no `type` beside an enum or const given its members' types, and two values merged parts
give one of them settled by the merged type (dropped where it excludes their types)."""

from __future__ import annotations

from typing import Any

from toolcast.walk.semantics import _admits, _json_type
from toolcast.walk.values import _TYPE_SETS, APPLIES_TO, MISSING, _ok_type

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
    `allOf` merged and its `$ref` siblings settled, so its type is the one the strict form gets. A node
    with no `type` gets the types of its enum or const first (typed_by_values)."""
    table = w.type_keywords
    t = s.get("type", MISSING)
    if t is MISSING:
        s = typed_by_values(w, s, sp)
        t = s.get("type")
    if not _ok_type(t):
        return s
    types = _TYPE_SETS[t] if type(t) is str else frozenset(t)
    drop = [k for k in s if k in table and table[k].isdisjoint(types)]
    if not drop:
        return s
    _reported(w, drop, types, sp)
    return {k: v for k, v in s.items() if k not in drop}


def _reported(w: Any, drop: list, types: frozenset, sp: tuple) -> None:
    """Report and record keywords `drop` of the node at `sp` as dropped: each constrains only types its `types`
    exclude."""
    table = w.type_keywords
    value = " or ".join(sorted(types))
    for k in drop:
        expected = " or ".join(sorted(table[k]))
        w.record("keyword-not-for-type", sp + (k,), (("keyword", k), ("expected", expected), ("value", value)))
        w.change("dropped-vacuous-keyword", sp + (k,), f"(applies only to {expected} values; the type is {value})")


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
        # No value of its type: no branch would be left. It accepts nothing either way, so a keyword that does
        # not apply to each of its types constrains nothing, and is dropped (the provider takes it on a schema
        # of its type only).
        return _without(w, out, [k for k in out if k in w.type_keywords and not frozenset(kinds) <= w.type_keywords[k]],
                        sp, "(no value of the schema's type is in its enum: it accepts nothing either way)")
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


def typed_by_values(w: Any, s: dict, sp: tuple) -> dict:
    """Node `s`, which has no `type`, given the types of the values its `enum` (or `const`) allows where a keyword of
    the table stands beside them: `{"multipleOf": 2, "enum": [1, 2, "x"]}` reads as `type: [integer, string]`. Exact:
    no value of another type is in the enum. drop_vacuous then drops a keyword no member's type has, or split_types
    gives each type its branch (an integer member and a fraction make one `number`). Recorded as `inferred-type`.
    `s` itself otherwise: without an enum or a const the walk infers the node's type from its keywords as for every
    provider (a reported narrowing, descent._types); beside `anyOf` the keyword is in the branches already
    (combinators._any_of_siblings); an enum holding an object or an array is reported as it is."""
    table = w.type_keywords
    if "anyOf" in s or table.keys().isdisjoint(s):
        return s
    values = s.get("enum", MISSING)
    if values is MISSING:
        if "const" not in s:
            return s
        values = (s["const"],)
    elif type(values) is not list:
        return s  # (an invalid value: reported as it is)
    kinds: list = []
    for x in values:
        kind = _json_type(x)
        if kind == "object" or kind == "array" or not kind:
            return s
        if kind == "number" and "integer" in kinds:
            kinds[kinds.index("integer")] = kind
        elif kind not in kinds and not (kind == "integer" and "number" in kinds):
            kinds.append(kind)
    if not kinds:  # (an empty enum: it accepts nothing either way)
        return _without(w, s, [k for k in s if k in table], sp, "(its enum is empty: it accepts nothing either way)")
    w.change("inferred-type", sp, f"({' / '.join(kinds)}: the types of its {'enum' if 'enum' in s else 'const'})")
    typed = {"type": kinds[0] if len(kinds) == 1 else kinds}
    typed.update(s)
    return typed


def _without(w: Any, s: dict, drop: list, sp: tuple, note: str) -> dict:
    """`s` without the keywords `drop`, each recorded as dropped without loss (`note` says why)."""
    if not drop:
        return s
    for k in drop:
        w.change("dropped-vacuous-keyword", sp + (k,), note)
    return {k: v for k, v in s.items() if k not in drop}


class Clash(list):
    """The values two or more merged parts give one keyword of the table, which no one value of it says together
    (two `pattern`s, two `multipleOf`s): kept by combinators._merged_value, under policy type_keywords `per-type`,
    until the merge's type is settled (settle_clashes)."""

    __slots__ = ()


def clash(had: Any, v: Any) -> Clash:
    """`had`, a keyword's merged value so far, and `v`, another part's, as one Clash."""
    if type(had) is Clash:
        had.append(v)
        return had
    return Clash((had, v))


def settle_clashes(w: Any, out: dict, sp: tuple) -> bool:
    """Merged node `out` without the keywords whose parts clashed (Clash values) where its type excludes every type
    they constrain: each constrained nothing there, so the merge loses nothing (a `pattern` in one part and
    another in the other, beside `type: [integer, null]`), reported and recorded as dropped (as drop_vacuous does
    once a node's type is settled); changed in place. False when one of them does constrain a type of the node: a
    conflict, reported as the merge reports one without the policy (combinators._conflict)."""
    clashing = [k for k, v in out.items() if type(v) is Clash]
    if not clashing:
        return True
    t = out.get("type", MISSING)
    types = (_TYPE_SETS[t] if type(t) is str else frozenset(t)) if t is not MISSING and _ok_type(t) else None
    for k in clashing:
        if types is None or not types.isdisjoint(w.type_keywords[k]):
            w.report("ref-sibling-conflict", sp + (k,), keyword=k)
            return False
    _reported(w, clashing, types, sp)
    for k in clashing:
        del out[k]
    return True
