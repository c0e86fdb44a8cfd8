"""Schema semantics: nullability, JSON equality, exclusivity and finiteness of single schemas."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Protocol

from toolcast.walk.budget import SchemaTooLarge
from toolcast.walk.values import def_ref_name


class Walk(Protocol):
    """What these questions read of a walk: its raw root and definitions, and its per-$ref memos."""

    root_raw: Any
    defs_raw: Any
    ref_nulls: Any
    ref_neutral: Any
    null_cuts: int
    nodes_left: int


# How deep the recursive questions below (and the walk's merge) follow nesting and $ref chains before
# they give up with RecursionError, which the compile reports as its schema-too-deep finding. Compiled
# (see setup.py), calls do not count against Python's recursion limit, so without this limit a
# chain of definitions thousands long would overflow the C stack. Run as Python, the interpreter's
# own limit (about 1,000 frames) may be reached first; the result is the same.
RECURSION_GUARD = 500


# toolcast's own cap on the schema nodes one compile inlines (the targets of the `$ref`s it merges
# with siblings, allOf parts or anyOf siblings, counted each time): each inlining writes its target
# out again, so a chain of definitions that each inline the next twice is exponential in its
# length. The OpenAPI subset caps a schema it writes out at it too (walk.subset).
INLINE_GUARD = 20_000


def schema_nodes(s: Any) -> int:
    """The objects in schema `s` (its schemas, and the maps and values that are objects), its `$ref`s
    not followed: what inlining it writes out again."""
    n = 0
    stack = [s]
    while stack:
        x = stack.pop()
        if type(x) is dict:
            n += 1
            stack.extend(x.values())
        elif type(x) is list:
            stack.extend(x)
    return n


def too_deep() -> RecursionError:
    return RecursionError(f"nested or chained deeper than {RECURSION_GUARD} levels")


def _refs_in(c: Any) -> set[str]:
    """Names of the definitions a compiled schema refers to ("" for the root)."""
    found: set[str] = set()
    stack = [c]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            ref = x.get("$ref")
            if isinstance(ref, str):
                found.add(def_ref_name(ref) or "")
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return found


def _finite(c: Any, finite: dict) -> bool:
    """Whether some finite instance satisfies compiled schema `c`, given what is known of defs."""
    if not isinstance(c, dict):
        return False
    if "$ref" in c:
        ref = c["$ref"]
        return finite.get(def_ref_name(ref) or "", False)
    if "anyOf" in c:
        return any(_finite(b, finite) for b in c["anyOf"])
    if "enum" in c or "const" in c:
        return bool(c.get("enum", [None]))
    t = c.get("type")
    if isinstance(t, str):
        if t in ("string", "number", "integer", "boolean", "null"):
            return True  # a scalar: the common leaf, decided at once
        types: Any = (t,)
    else:
        types = list(t or [])
    for ty in types:
        if ty in ("string", "number", "integer", "boolean", "null"):
            return True
        if ty == "object":
            props = c.get("properties", {})
            for k in c.get("required", []):
                if not _finite(props.get(k), finite):
                    break
            else:
                return True
        if ty == "array" and (not c.get("minItems") or _finite(c.get("items"), finite)):
            return True
    return False


def with_null(c: dict, annotations: frozenset) -> dict:
    """The compiled schema `c` also accepting null (type union, enum member, or anyOf branch); its
    `annotations` (what may stand beside `$ref`) stay outside a new anyOf."""
    if "$ref" in c or "const" in c:
        keep = {k: v for k, v in c.items() if k in annotations}
        inner = {k: v for k, v in c.items() if k not in annotations}
        return {**keep, "anyOf": [inner, {"type": "null"}]}
    if "anyOf" in c:
        new = dict(c)
        new["anyOf"] = list(c["anyOf"]) + [{"type": "null"}]
        return new
    new = dict(c)
    t = c.get("type")
    if isinstance(t, str):
        new["type"] = [t, "null"] if t != "null" else t
    elif isinstance(t, list) and "null" not in t:
        new["type"] = t + ["null"]
    if "enum" in c and None not in c["enum"]:
        new["enum"] = list(c["enum"]) + [None]
    return new


def _with_null_own(c: dict, annotations: frozenset) -> dict:
    """with_null for a dict the walk has just built and nobody else holds: updated in place."""
    if len(c) == 1 and "$ref" in c:
        return {"anyOf": [c, {"type": "null"}]}  # with_null's answer, without copying `c`
    if "$ref" in c or "const" in c or "anyOf" in c:
        return with_null(c, annotations)
    t = c.get("type")
    if isinstance(t, str):
        if t != "null":
            c["type"] = [t, "null"]
    elif isinstance(t, list) and "null" not in t:
        c["type"] = t + ["null"]
    if "enum" in c and None not in c["enum"]:
        c["enum"] = list(c["enum"]) + [None]
    return c


def nullable_ignored(s: dict) -> str:
    """Why OpenAPI `nullable: true` in schema object `s` has no effect ('' when it takes effect).

    OpenAPI 3.0.3, Schema Object: "This keyword only takes effect if `type` is explicitly defined
    within the same Schema Object", and the other constraints "may disallow the use of null";
    Reference Object: what stands beside `$ref` "SHALL be ignored". The walk (which drops such a
    `nullable`) and allows_null read it through this one test, so the compiled schema and the
    null paths agree on whether null is a real value.
    """
    if "$ref" in s:
        return "it stands beside `$ref`, whose siblings OpenAPI 3.0 ignores"
    if "type" not in s:
        return "the schema object has no `type` of its own"
    enum = s.get("enum")
    if isinstance(enum, list) and None not in enum:
        return "its `enum` does not list null"
    if "const" in s and s["const"] is not None:
        return "its `const` is not null"
    return ""


def allows_null(s: Any, walk: Walk, _seen: set[str] | frozenset[str] = frozenset(), _depth: int = 0) -> bool:
    """Whether the *original* schema already accepts null (so null is a real value there).

    `_seen` holds the $refs followed to get here: one set for the whole chain, each $ref added
    while its target is judged and taken out after (a new set per step would copy the chain at
    every step, quadratic in its length)."""
    if _depth > RECURSION_GUARD:
        raise too_deep()
    if s is True:
        return True
    left = walk.nodes_left = walk.nodes_left - 1  # (the node budget: a shared subtree is judged per path)
    if left < 0:
        raise SchemaTooLarge(())
    # (The document pass leaves plain dicts only, see values.plain_containers.)
    return _object_allows_null(s, walk, _seen, _depth) if type(s) is dict else False


def _object_allows_null(s: dict, walk: Walk, _seen: set[str] | frozenset[str], _depth: int) -> bool:
    """allows_null of schema object `s`."""
    t = s.get("type")
    if t is not None and not (t == "null" or (isinstance(t, list) and "null" in t)
                              or (s.get("nullable") is True and not nullable_ignored(s))):
        return False
    if _decides_nothing(s):
        # Nothing below can say otherwise: a type that admits null, or typeless (the walk infers a
        # type from the keywords, so null stops being accepted, or refuses the node).
        return t is not None
    if isinstance(s.get("enum"), list) and None not in s["enum"]:
        return False
    if "const" in s and s["const"] is not None:
        return False
    for kw in ("anyOf", "oneOf"):
        branches = s.get(kw)
        if isinstance(branches, list):
            for b in branches:  # (a loop, not any(): this runs for every optional property)
                if allows_null(b, walk, _seen, _depth + 1):
                    break
            else:
                return False
    branches = s.get("allOf")
    if isinstance(branches, list):
        # A typeless part with nothing deciding (say, only `properties`) takes the type of the
        # parts it is merged with, so it says nothing about null. With no other part, type or
        # deciding keyword, the merged node is typeless: the walk infers a type, and null is not
        # kept (as in the early answer above).
        decided = t is not None or not _nothing_decides_beside_all_of(s)
        for b in branches:
            if _neutral(b, walk, _depth + 1):
                continue
            if not allows_null(b, walk, _seen, _depth + 1):
                return False
            decided = True
        if not decided:
            return False
    ref = s.get("$ref")
    if isinstance(ref, str):
        if ref in _seen:
            walk.null_cuts += 1  # (an answer below this chain's start depends on the chain)
            return False
        # A target's answer is remembered for this walk (a definition is often referred to from
        # many places, and along many paths of a chain): judged from outside any $ref chain, it
        # depends on the ref alone; inside one, when no path was cut short at a $ref of the chain.
        known = walk.ref_nulls.get(ref)
        if known is None:
            cuts = walk.null_cuts
            if not _seen:
                known = _ref_allows_null(ref, walk, {ref}, _depth + 1)
            else:
                _seen.add(ref)  # a set begun above, for this chain
                try:
                    known = _ref_allows_null(ref, walk, _seen, _depth + 1)
                finally:
                    _seen.discard(ref)
            if not _seen or walk.null_cuts == cuts:
                if type(walk.ref_nulls) is not dict:
                    walk.ref_nulls = {}
                walk.ref_nulls[ref] = known
        if not known:
            return False
    # No keyword excluded null (a typeless node gets here only with one of them, which the walk
    # keeps or reports, however it was written).
    return True


# The keywords that can decide allows_null beyond `type` (see there); those of them that decide
# beside an allOf; and those that decide at the node itself (allOf parts and a $ref's target are
# judged in turn, see _neutral).
_NULL_DECIDERS = frozenset({"enum", "const", "anyOf", "oneOf", "allOf", "$ref"})
_DECIDERS_BESIDE_ALL_OF = _NULL_DECIDERS - {"allOf"}
_DECIDING_HERE = _NULL_DECIDERS - {"allOf", "$ref"}
# (Bound once: compiled, a call makes no method lookup.)
_decides_nothing = _NULL_DECIDERS.isdisjoint
_nothing_decides_beside_all_of = _DECIDERS_BESIDE_ALL_OF.isdisjoint


def _neutral(s: Any, walk: Walk, _depth: int = 0) -> bool:
    """Whether allOf part `s` says nothing about null: no type and no keyword that decides
    allows_null, its own allOf parts and its $ref's target neutral in turn. A $ref's answer is
    remembered for the walk; one that leads back to itself is not neutral."""
    if _depth > RECURSION_GUARD:
        raise too_deep()
    if not isinstance(s, dict) or s.get("type") is not None or not _DECIDING_HERE.isdisjoint(s):
        return False
    if "allOf" in s and not (isinstance(parts := s["allOf"], list) and all(_neutral(p, walk, _depth + 1) for p in parts)):
        return False
    if "$ref" in s:
        ref = s["$ref"]
        if not isinstance(ref, str):
            return False
        known = walk.ref_neutral.get(ref)
        if known is None:
            if type(walk.ref_neutral) is not dict:
                walk.ref_neutral = {}
            walk.ref_neutral[ref] = False  # while it is decided: a cycle back to it is not neutral
            known = walk.ref_neutral[ref] = _neutral(_ref_target(ref, walk), walk, _depth + 1)
        return known
    return True


def _ref_target(ref: str, walk: Walk) -> Any:
    """The raw schema a local $ref names (False when it names none)."""
    name = def_ref_name(ref)
    if name == "":
        return walk.root_raw
    return walk.defs_raw.get(name, False) if name is not None else False


def _ref_allows_null(ref: str, walk: Walk, seen: set[str], depth: int) -> bool:
    return allows_null(_ref_target(ref, walk), walk, seen, depth)


def json_key(v: Any, _depth: int = 0) -> Any:
    """The one key of JSON equality: two values share it exactly when JSON Schema calls them equal
    (1 and 1.0 share one, true and 1 do not; arrays by their members in order, objects by their
    members whatever the order). Every comparison, intersection and de-duplication of values goes
    through it (or json_equal, which is defined by it)."""
    t = type(v)
    if t is str:
        return (3, v)
    if t is int or (t is float and v == v):
        return (2, v)  # 1 == 1.0 and hash(1) == hash(1.0): one key
    if t is bool:
        return (1, v)
    if v is None:
        return (4,)
    if _depth > RECURSION_GUARD:
        raise too_deep()
    # The rarer kinds, and subclasses of the common ones (a str or int subclass from Python).
    if isinstance(v, bool):
        return (1, bool(v))
    if isinstance(v, (int, float)):
        return (2, v) if v == v else (5, id(v))  # NaN equals nothing, not even itself
    if isinstance(v, str):
        return (3, str(v))
    if isinstance(v, (list, tuple)):
        return (6, tuple(json_key(x, _depth + 1) for x in v))
    if isinstance(v, dict):
        return (7, frozenset((json_key(name, _depth + 1), json_key(x, _depth + 1)) for name, x in v.items()))
    return (8, id(v))  # not JSON: equal to itself only


def json_equal(a: Any, b: Any, _depth: int = 0) -> bool:
    """Equality as JSON Schema means it: json_key(a) == json_key(b), compared without building the
    keys (1 == 1.0, but true is not 1). The same object is equal to itself (NaN is not JSON)."""
    if a is b:
        return True
    if _depth > RECURSION_GUARD:
        raise too_deep()
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and bool(a) == bool(b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(json_equal(x, y, _depth + 1) for x, y in zip(a, b, strict=False))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k], _depth + 1) for k in a)
    if isinstance(a, str) and isinstance(b, str):
        return str(a) == str(b)
    return a is None and b is None


def json_intersection(a: list, b: list) -> list:
    """The members of `a` that are JSON-equal to some member of `b`, in `a`'s order: linear (a huge
    enum merged with another must not take their product)."""
    keys = {json_key(y) for y in b}
    return [x for x in a if json_key(x) in keys]


_canon = json_key  # its old name (tooldiff reads it)


def _disjoint(sets: list) -> bool:
    """Whether no two of the sets share a member (their sizes add up to their union's)."""
    return sum(map(len, sets)) == len(set().union(*sets))


# What a oneOf branch admits, over-approximated (a branch may accept less, never more): its JSON
# types (integer and number apart), its values when it lists them, and the value sets of its required
# properties (they decide only between objects). Anything not read here can only narrow a branch.
_ALL_TYPES = frozenset({"null", "boolean", "object", "array", "string", "number", "integer"})
# Keywords beside a branch's `$ref` that say nothing of the values it accepts.
_ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "default", "deprecated", "readOnly",
                          "writeOnly"})


def _branch(b: Any, walk: Walk) -> tuple | None:
    """(types, values or None, {required property: its values}) of oneOf branch `b`; None for a
    branch that admits nothing (`false`)."""
    for _ in range(RECURSION_GUARD):
        if not isinstance(b, dict) or "$ref" not in b:
            break
        if not isinstance(b["$ref"], str) or not _ANNOTATIONS.issuperset(b.keys() - {"$ref"}):
            return (_ALL_TYPES, None, {})  # what its siblings mean beside it is not read here
        target = _ref_target(b["$ref"], walk)
        if target is False and b["$ref"] != "#":
            return (_ALL_TYPES, None, {})  # not resolved here: it may admit anything
        b = target
    if b is False:
        return None
    if not isinstance(b, dict):
        return (_ALL_TYPES, None, {})
    t = b.get("type")
    if isinstance(t, str) and t in _ALL_TYPES:
        types = _ONE_TYPE[t]
    elif isinstance(t, list) and t and all(isinstance(x, str) for x in t):
        types = frozenset(t) & _ALL_TYPES
    else:
        types = _ALL_TYPES  # no type (or one the walk reports): every type
    if b.get("nullable") is True:
        types = types | _NULL_TYPE  # OpenAPI, as the walk reads it
    values = _values(b)
    if values is not None:
        values = [v for v in values if _admits(types, v)]
    keys = {}
    props, req = b.get("properties"), b.get("required")
    if isinstance(props, dict) and isinstance(req, list):
        for key in req:
            if isinstance(key, str) and (vals := _values(props.get(key))) is not None:
                keys[key] = {json_key(v) for v in vals}
    return (types, values, keys)


# The type set of a branch of one type, built once (a oneOf's branches are mostly of one type).
_ONE_TYPE = {t: frozenset({t}) for t in _ALL_TYPES}
_NULL_TYPE = _ONE_TYPE["null"]


def _values(b: Any) -> list | None:
    """The values schema `b` lists by `const` or `enum` (None when it lists none)."""
    if not isinstance(b, dict):
        return None
    if "const" in b:
        return [b["const"]]
    if isinstance(b.get("enum"), list):
        return b["enum"]
    return None


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "integer" if isinstance(v, int) or v.is_integer() else "number"
    if isinstance(v, str):
        return "string"
    return "array" if isinstance(v, list) else "object" if isinstance(v, dict) else ""


def _admits(types: Collection[str], v: Any) -> bool:
    """Whether a branch of these types admits value `v` by its type alone (1.0 is an integer)."""
    t = _json_type(v)
    return t in types or (t == "integer" and "number" in types)


# JSON types as disjoint kinds of value: an integer is a number, a number may be a fraction.
_KINDS = {"integer": ("integer",), "number": ("integer", "fraction")}


def _kinds(types: frozenset) -> frozenset:
    kinds = _KINDS_OF.get(types)
    if kinds is None:  # (at most one entry per subset of the seven types)
        kinds = _KINDS_OF[types] = frozenset([k for t in types for k in _KINDS.get(t, (t,))])
    return kinds


# A branch's type set -> the kinds of value it admits (_kinds).
_KINDS_OF: dict[frozenset, frozenset] = {}


def _value_kind(v: Any) -> str:
    t = _json_type(v)
    return "fraction" if t == "number" else t


def _shared_kinds(branches: list) -> tuple[set, set]:
    """(the kinds of value some branch admits, those that two or more admit), by type alone."""
    once: set = set()
    twice: set = set()
    for b in branches:
        ks = _kinds(b[0])
        twice |= once & ks
        once |= ks
    return once, twice


def _objects_apart(objs: list) -> list | None:
    """The required properties that tell every two of these object-admitting branches apart (their
    listed values differ), or None. Pairwise for a few branches; one common property for many
    (linear: a oneOf of thousands of branches must not take their product)."""
    if len(objs) <= 32:
        used = set()
        for i, a in enumerate(objs):
            for b in objs[i + 1:]:
                key = next((k for k in sorted(a[2].keys() & b[2].keys()) if a[2][k].isdisjoint(b[2][k])), None)
                if key is None:
                    return None
                used.add(key)
        return sorted(used)
    for key in sorted(set.intersection(*(set(b[2]) for b in objs))):
        sets = [b[2][key] for b in objs]
        if _disjoint(sets):
            return [key]
    return None


def exclusive(branches: list, walk: Walk) -> str:
    """Why no instance can match two of the oneOf branches ('' when that cannot be shown): the kinds
    of value the branches admit by type (null from a type list or `nullable` included) are apart,
    the values they list are, or, where only objects are shared, a required property's values."""
    n = len(branches)
    if n < 2:
        return "a single branch" if n == 1 else ""
    seen = []
    for x in branches:
        b = _branch(x, walk)
        if b is not None:  # false matches nothing
            seen.append(b)
    if len(seen) < 2:
        return "a single branch can match"
    if not _shared_kinds(seen)[1]:
        return "their types differ"
    by_type = [b for b in seen if b[1] is None]
    listed = [b for b in seen if b[1] is not None]
    kinds, shared = _shared_kinds(by_type)
    if shared - {"object"}:
        return ""
    keys: list = []
    if shared:
        keys = _objects_apart([b for b in by_type if "object" in _kinds(b[0])]) or []
        if not keys:
            return ""
    value_sets = [{json_key(v) for v in b[1]} for b in listed]
    if not _disjoint(value_sets) or any(_value_kind(v) in kinds for b in listed for v in b[1]):
        return ""
    if not by_type:
        return "their values differ"
    if not listed and len(keys) == 1 and all(b[0] <= {"object"} for b in by_type):
        return f"they differ in the required property {keys[0]!r}"
    parts = ["types"] + (["values"] if listed else [])
    if keys:
        parts.append(("required property " if len(keys) == 1 else "required properties ") + ", ".join(map(repr, keys)))
    return "each two differ in their " + " or ".join(parts)
