"""The OpenAPI 3.0 Schema subset form (policy schema_form `openapi-subset`): the walk's JSON Schema rewritten with references inlined and one type per node."""

from __future__ import annotations

from typing import Any

from toolcast.walk.semantics import INLINE_GUARD, _admits
from toolcast.walk.values import def_ref_name

# toolcast's own cap on the nodes of an inlined schema: definitions used in many places multiply
# when written out, and a schema of this size is far past anything an API takes (the walk's cap on
# what it inlines, the same figure).
MAX_INLINED_NODES = INLINE_GUARD

# The keywords that constrain only values of one JSON type, for splitting a type list into anyOf
# branches (one type each); the rest (annotations) go into every branch. (`enum` goes to each
# branch with the members of its type.)
_TYPE_KEYWORDS = {
    "string": ("format", "minLength", "maxLength", "pattern"),
    "number": ("format", "minimum", "maximum"),
    "integer": ("format", "minimum", "maximum"),
    "boolean": (),
    "array": ("items", "minItems", "maxItems"),
    "object": ("properties", "required", "propertyOrdering", "minProperties", "maxProperties", "additionalProperties"),
    "null": (),
}
_TYPED = frozenset([*(k for ks in _TYPE_KEYWORDS.values() for k in ks), "enum"])
# Annotations: copying one into anyOf branches (or keeping a branch's own) changes no value accepted.
_ANNOTATIONS = ("title", "description", "default")


# The JSON type of an enum value, as the Schema names types (a bool is not an integer here).
_KIND = {str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}


class _TooLarge(Exception):
    pass


def to_subset(walk: Any, out: dict) -> dict:
    """`out`, the walk's compiled schema, in the OpenAPI Schema subset; changes recorded on `walk`.
    A schema the walk refused is left as it is (it is never sent)."""
    if walk.refusals or type(out) is not dict or not out:
        return out
    form = _Form(walk, out.get("$defs") or {})
    try:
        return form.node({k: v for k, v in out.items() if k != "$defs"}, ())
    except _TooLarge:
        walk.report("inlined-schema-too-large", (), limit=MAX_INLINED_NODES)
        return {}


class _Form:
    """One conversion: definitions converted once each (their changes recorded at their own place)."""

    def __init__(self, walk: Any, defs: dict):
        self.walk = walk
        self.defs = defs
        self.memo: dict[str, tuple[dict, int]] = {}
        self.nodes = 0
        self.unlisted = walk.objects_unlisted
        self.keep_closed = walk.objects_keep_closed
        self.numbers_as_strings = walk.r.policy.get("number_enums") == "as-strings"

    def _count(self, n: int) -> None:
        self.nodes += n
        if self.nodes > MAX_INLINED_NODES:
            raise _TooLarge

    def node(self, s: Any, sp: tuple) -> Any:
        if type(s) is not dict:
            return s
        self._count(1)
        if "$ref" in s:
            return self._inline(s, sp)
        t = s.get("type")
        if t is not None and "enum" in s:
            s = self._enum_of_type(s, t, sp)
            if s is None:
                return {}
        if type(t) is list:
            s = self._type_list(s, t, sp)
            if s is None:
                return {}
        out: dict = {}
        for k, v in s.items():
            if k == "properties" and type(v) is dict:
                out[k] = {n: self.node(x, sp + (k, n)) for n, x in v.items()}
            elif k == "items" or (k == "additionalProperties" and type(v) is dict):
                out[k] = self.node(v, sp + (k,))
            elif k == "anyOf" and type(v) is list:
                out[k] = [self.node(x, sp + (k, i)) for i, x in enumerate(v)]
            else:
                out[k] = v
        if self.unlisted and not self.keep_closed:
            out.pop("additionalProperties", None)  # (the walk reported what leaving it out costs)
        if "enum" in out:
            out = self._enum(out, sp)
        if "anyOf" in out:
            out = self._any_of(out, sp)
        if "properties" in out:
            out = self._ordering(out, sp)
        return _spelled(out)

    def _inline(self, s: dict, sp: tuple) -> dict:
        """The definition a `$ref` names, written out (recursion was refused, so this ends)."""
        ref = s["$ref"]
        name = def_ref_name(ref)  # (a URI fragment: percent-decoded, then read as a JSON Pointer)
        if name is None or name not in self.defs:
            # (The walk resolves every $ref it keeps, so this is a guard: left out, the reference
            # would leave a schema that accepts anything.)
            self.walk.report("unresolvable-ref", sp + ("$ref",), value=ref)
            return {}
        known = self.memo.get(name)
        if known is None:
            before = self.nodes
            form = self.node(self.defs[name], ("$defs", name))
            known = self.memo[name] = (form, self.nodes - before)
        else:
            self._count(known[1])
        self.walk.change("inlined-reference", sp + ("$ref",), f"({name})")
        target = known[0]
        siblings = {k: v for k, v in s.items() if k != "$ref"}
        if not siblings:
            return target
        # (The walk merges siblings into the target where the rules keep none beside $ref, so this
        # is a guard: an annotation beside $ref wins, a constraint given twice differently refuses.)
        for k, v in siblings.items():
            if k not in _ANNOTATIONS and k in target and target[k] != v:
                self.walk.report("ref-sibling-conflict", sp + (k,), keyword=k)
        return {**target, **siblings}

    def _enum_of_type(self, s: dict, types: Any, sp: tuple) -> dict | None:
        """`s` without the members of its enum that its type rejects (none is a value of the node), so
        that no conversion below makes one a value (null as `nullable`, "1" as an INTEGER's 1). With
        none left the node accepts nothing: its enum stays as written (without null) beside one type
        that reads it so, one that is no number; elsewhere the Schema has no form for it (refused)."""
        values = s["enum"]
        if type(values) is not list:
            return s
        kept = [v for v in values if _of_type(v, types)]
        if len(kept) == len(values):
            return s
        if not kept:
            kept = [v for v in values if v is not None]
            if not kept or type(types) is not str or types in ("integer", "number"):
                self.walk.report("unsatisfiable-schema", sp + ("enum",),
                                 value=f"no member of enum {_listing(values)} is of type {types!r}")
                return None
        return {**s, "enum": kept}

    def _type_list(self, s: dict, types: list, sp: tuple) -> dict | None:
        """A node with a type list, as one type plus nullable or as anyOf of one-type branches."""
        kinds = [t for t in types if t != "null"]
        enum = s.get("enum") if type(s.get("enum")) is list else None
        # (The enum holds members of the type only, see _enum_of_type: null is a value if it holds null.)
        nullable = len(kinds) < len(types) and (enum is None or None in enum)
        if len(kinds) <= 1:
            out = dict(s)
            out["type"] = kinds[0] if kinds else "null"
            if nullable and kinds:
                out["nullable"] = True
                self.walk.change("converted-type-list-to-nullable", sp + ("type",))
            return out
        if "anyOf" in s:
            self.walk.report("type-union-unrepresentable", sp + ("type",), value=f"type {types} and anyOf")
            return None
        common = {k: v for k, v in s.items() if k != "type" and k not in _TYPED}
        branches = []
        for kind in kinds:
            b = {"type": kind, **({"nullable": True} if nullable else {}), **common}
            b.update((k, s[k]) for k in _TYPE_KEYWORDS[kind] if k in s)
            if enum is not None:
                b["enum"] = [v for v in enum if v is not None and _of_type(v, kind)]
                if not b["enum"]:
                    continue  # no member of the enum has this type
            branches.append(b)
        self.walk.change("split-type-list-to-any-of", sp + ("type",))
        if not branches:  # an enum of null alone, or an empty one (refused below)
            return {"type": "null", **common, "enum": enum}
        return {"anyOf": branches}

    def _enum(self, out: dict, sp: tuple) -> dict:
        values = out["enum"]
        if type(values) is not list:
            return out
        rest = [v for v in values if v is not None]
        if not rest:
            if values:  # an enum of null alone: the type null, exactly
                self.walk.change("inferred-type", sp, "(null, from an enum of null alone)")
                return {"type": "null", **{k: v for k, v in out.items() if k not in ("type", "enum")}}
            self.walk.report("type-union-unrepresentable", sp + ("enum",), value="an empty enum, which no value meets")
            return out
        if "type" not in out:
            # The Schema needs a type: the one every value has (an enum accepts nothing else; an
            # integer is a number, and 2.0 an integer, as JSON compares).
            kinds = {_kind(v) for v in rest}
            if kinds == {"integer", "number"}:
                kinds = {"number"}
            if len(kinds) != 1 or None in kinds:
                self.walk.report("type-union-unrepresentable", sp + ("enum",), value=f"enum {_listing(values)} without a type")
                return out
            out = {"type": kinds.pop(), **out}
            self.walk.change("inferred-type", sp, "(from the enum's values)")
        if len(rest) < len(values):
            # A nullable enum: null is carried by `nullable`, the other values by the enum.
            out = {**out, "enum": rest, "nullable": True}
            self.walk.change("converted-type-list-to-nullable", sp + ("enum",))
        t = out.get("type")
        if all(type(v) is str for v in rest) and t in (None, "string"):
            return out  # (the Schema takes an enum on STRING only, and INTEGER's as strings under as-strings)
        if self.numbers_as_strings and t in ("integer", "number") and all(_kind(v) == "integer" for v in rest):
            # number_enums as-strings: the Schema takes an enum on INTEGER written as strings, and on
            # no other numeric type ("Invalid value at '...enum[0]' (TYPE_STRING)"). A NUMBER enum
            # whose values are all integers (2.0 is one) accepts exactly what that INTEGER enum does.
            # Written as the Schema's own example of one: {type: INTEGER, format: enum, enum: ["101",
            # ...]}. The format it had (int32, int64; float or double on a NUMBER) says nothing the
            # enum's values do not fix, so leaving it out loses nothing.
            strings = [_number_text(v) for v in rest]
            code = "converted-number-enum-to-strings" if t == "integer" else "converted-number-enum-to-integer"
            self.walk.change(code, sp + ("enum",))
            return {**out, "type": "integer", "enum": strings, "format": "enum"}
        # An enum on NUMBER with a value that is not an integer, or on BOOLEAN, ARRAY or OBJECT (strings
        # beside a type that has none: bfcl's boolean "True"/"False"/"dontcare"), has no form here.
        self.walk.report("enum-values-not-strings", sp + ("enum",), value=_listing(rest))
        self.walk.change("dropped-non-string-enum", sp + ("enum",))
        return {k: v for k, v in out.items() if k != "enum"}

    def _any_of(self, out: dict, sp: tuple) -> dict:
        """anyOf alone in its node (annotations moved into its branches), a null branch as nullable."""
        branches = out["anyOf"]
        rest = [b for b in branches if not _null_only(b)]
        if len(rest) < len(branches) and rest and all("type" in b for b in rest):
            branches = [_spelled({**b, "nullable": True}) for b in rest]
            self.walk.change("converted-null-branch-to-nullable", sp + ("anyOf",))
        siblings = [k for k in out if k != "anyOf"]
        moved = [k for k in siblings if k in _ANNOTATIONS]
        if moved:
            branches = [{**b, **{k: out[k] for k in moved if k not in b}} for b in branches]
            self.walk.change("moved-any-of-siblings-into-branches", sp)
        kept = {k: out[k] for k in siblings if k not in moved}
        if len(branches) == 1 and not kept:
            return branches[0]
        return {**kept, "anyOf": branches}

    def _ordering(self, out: dict, sp: tuple) -> dict:
        props = out["properties"]
        if not props:
            # An OBJECT with empty properties was rejected ("should be non-empty for OBJECT type").
            return {k: v for k, v in out.items() if k not in ("properties", "required", "propertyOrdering")}
        if not out.get("required"):
            out = {k: v for k, v in out.items() if k != "required"}
        if len(props) > 1 and "propertyOrdering" not in out:
            self.walk.change("added-property-ordering", sp + ("properties",))
            out = {**out, "propertyOrdering": list(props)}
        return out


def _spelled(out: dict) -> dict:
    """`out` with its type spelled as the Schema's enum (STRING, ...), `nullable` after it and
    `propertyOrdering` after `required` (or `properties`)."""
    t = out.get("type")
    if type(t) is not str and "propertyOrdering" not in out:
        return out
    res: dict = {}
    for k, v in out.items():
        if k == "nullable" or k == "propertyOrdering":
            continue
        res[k] = v.upper() if k == "type" and type(v) is str else v
        if k == "type" and out.get("nullable") is True:
            res["nullable"] = True
        if (k == "required" or (k == "properties" and "required" not in out)) and "propertyOrdering" in out:
            res["propertyOrdering"] = out["propertyOrdering"]
    if "nullable" in out and "nullable" not in res:
        res["nullable"] = out["nullable"]
    if "propertyOrdering" in out and "propertyOrdering" not in res:
        res["propertyOrdering"] = out["propertyOrdering"]
    return res


def _null_only(b: Any) -> bool:
    """Whether anyOf branch `b` (converted already) accepts null alone, beside annotations."""
    return type(b) is dict and b.get("type") == "NULL" and all(k == "type" or k in _ANNOTATIONS for k in b)


def _of_type(v: Any, types: Any) -> bool:
    """Whether `v` is a value of the `type` keyword `types` (a name or a list), as JSON compares."""
    return _admits(types if type(types) is list else (types,), v)


def _kind(v: Any) -> str | None:
    """The JSON type of enum value `v` as JSON compares it (2.0 is an integer; true is no number)."""
    k = _KIND.get(type(v))
    return "integer" if k == "number" and v.is_integer() else k


def _number_text(v: float) -> str:
    return str(int(v)) if type(v) is float and v.is_integer() else str(v)


def _listing(values: list) -> str:
    shown = ", ".join(repr(v) for v in values[:5])
    return f"[{shown}{', ...' if len(values) > 5 else ''}]"
