"""Schema semantics: nullability, JSON equality, exclusivity and finiteness of single schemas."""

from __future__ import annotations

from typing import Any, Protocol


class Walk(Protocol):
    """What these questions read of a walk: its raw root and definitions, and its per-$ref memos."""

    root_raw: Any
    defs_raw: Any
    ref_nulls: Any
    ref_neutral: Any


# How deep the recursive questions below (and the walk's merge) follow nesting and $ref chains before
# they give up with RecursionError, which the compile reports as its schema-too-deep finding. Compiled
# (see setup.py), calls do not count against Python's recursion limit, so without this limit a
# chain of definitions thousands long would overflow the C stack. Run as Python, the interpreter's
# own limit (about 1,000 frames) may be reached first; the result is the same.
RECURSION_GUARD = 500


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
                found.add("" if ref == "#" else ref[len("#/$defs/"):].replace("~1", "/").replace("~0", "~"))
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
        name = "" if ref == "#" else ref[len("#/$defs/"):].replace("~1", "/").replace("~0", "~")
        return finite.get(name, False)
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
    if not isinstance(s, dict):
        return False
    t = s.get("type")
    if t is not None and not (t == "null" or (isinstance(t, list) and "null" in t)
                              or (s.get("nullable") is True and not nullable_ignored(s))):
        return False
    if _NULL_DECIDERS.isdisjoint(s):
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
        decided = t is not None or not _DECIDERS_BESIDE_ALL_OF.isdisjoint(s)
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
            return False
        if not _seen:
            # Seen from outside any $ref chain, a target's answer depends on the ref alone:
            # remember it for this walk (a definition is often referred to from many places).
            known = walk.ref_nulls.get(ref)
            if known is None:
                known = _ref_allows_null(ref, walk, {ref}, _depth + 1)
                if type(walk.ref_nulls) is not dict:
                    walk.ref_nulls = {}
                walk.ref_nulls[ref] = known
            if not known:
                return False
        else:
            _seen.add(ref)  # a set begun above, for this chain
            try:
                if not _ref_allows_null(ref, walk, _seen, _depth + 1):
                    return False
            finally:
                _seen.discard(ref)
    # No keyword excluded null (a typeless node gets here only with one of them, which the walk
    # keeps or reports, however it was written).
    return True


# The keywords that can decide allows_null beyond `type` (see there); those of them that decide
# beside an allOf; and those that decide at the node itself (allOf parts and a $ref's target are
# judged in turn, see _neutral).
_NULL_DECIDERS = frozenset({"enum", "const", "anyOf", "oneOf", "allOf", "$ref"})
_DECIDERS_BESIDE_ALL_OF = _NULL_DECIDERS - {"allOf"}
_DECIDING_HERE = _NULL_DECIDERS - {"allOf", "$ref"}


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
    if ref == "#":
        return walk.root_raw
    name = None
    for prefix in ("#/$defs/", "#/definitions/"):
        if ref.startswith(prefix):
            name = ref[len(prefix):].replace("~1", "/").replace("~0", "~")
    return walk.defs_raw.get(name, False) if name is not None else False


def _ref_allows_null(ref: str, walk: Walk, seen: set[str], depth: int) -> bool:
    return allows_null(_ref_target(ref, walk), walk, seen, depth)


def _type_set(b: Any) -> frozenset | None:
    if not isinstance(b, dict):
        return None
    t = b.get("type")
    if isinstance(t, str):
        t = [t]
    if not isinstance(t, list):
        return None
    ts = set(t)
    if "number" in ts:
        ts.add("integer")  # integers are numbers: those two overlap
    return frozenset(ts)


def _values(b: Any) -> list | None:
    if not isinstance(b, dict):
        return None
    if "const" in b:
        return [b["const"]]
    if isinstance(b.get("enum"), list):
        return b["enum"]
    return None


def json_equal(a: Any, b: Any, _depth: int = 0) -> bool:
    """Equality as JSON Schema means it: 1 == 1.0, but true is not 1."""
    if _depth > RECURSION_GUARD:
        raise too_deep()
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y, _depth + 1) for x, y in zip(a, b, strict=False))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k], _depth + 1) for k in a)
    return type(a) is type(b) and a == b


def json_key(x: Any) -> Any:
    """A hashable key that two scalars share exactly when json_equal holds for them (1 and 1.0
    share one, true and 1 do not); None for arrays, objects, NaN and anything else."""
    t = type(x)
    if t is str:
        return (3, x)
    if t is int or (t is float and x == x):
        return (2, x)  # 1 == 1.0 and hash(1) == hash(1.0): one key
    if t is bool:
        return (1, x)
    if x is None:
        return (4,)
    return None


def json_intersection(a: list, b: list) -> list:
    """The members of `a` that json_equal some member of `b`, in `a`'s order: linear for scalars
    (a huge enum merged with another must not take their product)."""
    keys = set()
    others = []
    for y in b:
        k = json_key(y)
        if k is None:
            others.append(y)
        else:
            keys.add(k)
    out = []
    for x in a:
        k = json_key(x)
        if k in keys if k is not None else any(json_equal(x, y) for y in others):
            out.append(x)
    return out


def _disjoint(sets: list) -> bool:
    """Whether no two of the sets share a member (their sizes add up to their union's)."""
    return sum(map(len, sets)) == len(set().union(*sets))


def _canon(v: Any, _depth: int = 0) -> Any:
    """A hashable key that two JSON values share exactly when json_equal holds for them, nested
    values included (1 and 1.0 share one; true and 1 do not)."""
    if _depth > RECURSION_GUARD:
        raise too_deep()
    k = json_key(v)
    if k is not None:
        return k
    if isinstance(v, bool):
        return (1, v)
    if isinstance(v, (int, float)):
        return (2, v) if v == v else (5, id(v))  # NaN equals nothing, not even itself
    if isinstance(v, str):
        return (3, str(v))
    if isinstance(v, list):
        return (6, tuple(_canon(x, _depth + 1) for x in v))
    if isinstance(v, dict):
        return (7, frozenset((name, _canon(x, _depth + 1)) for name, x in v.items()))
    return (8, id(v))


def exclusive(branches: list, walk: Walk) -> str:
    """Why the oneOf branches can never both match ('' when that cannot be shown)."""
    resolved = []
    for b in branches:
        if isinstance(b, dict) and isinstance(b.get("$ref"), str) and len(b) == 1:
            name = None
            for prefix in ("#/$defs/", "#/definitions/"):
                if b["$ref"].startswith(prefix):
                    name = b["$ref"][len(prefix):]
            b = walk.defs_raw.get(name, b) if name else b
        resolved.append(b)
    n = len(resolved)
    if n < 2:
        return "a single branch" if n == 1 else ""
    types = [_type_set(b) for b in resolved]
    if all(t is not None for t in types):
        if _disjoint(types):
            return "their types differ"
    values = [_values(b) for b in resolved]
    if all(v is not None for v in values):
        sets = [{_canon(x) for x in v} for v in values]
        if _disjoint(sets):
            return "their values differ"
    # A discriminator: one required property whose const/enum values are disjoint per branch.
    props = [b.get("properties") if isinstance(b, dict) else None for b in resolved]
    reqs = [set(b.get("required", [])) if isinstance(b, dict) and isinstance(b.get("required"), list) else set() for b in resolved]
    if all(isinstance(p, dict) for p in props):
        common = set.intersection(*reqs) if reqs else set()
        for key in sorted(common):
            vals = [_values(p.get(key)) for p in props]
            if all(v is not None for v in vals):
                sets = [{_canon(x) for x in v} for v in vals]
                if _disjoint(sets):
                    return f"they differ in the required property {key!r}"
    return ""
