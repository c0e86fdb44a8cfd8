"""Plans per rule version and key shape: what the walk does with each keyword, and the copy of a planned node."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolcast.rules import Rules
from toolcast.walk.regex import _pattern_written
from toolcast.walk.vacuous import type_keywords
from toolcast.walk.values import (
    _CONTAINER_KEYS,
    _ONLY_STR,
    _SCALAR_TYPES,
    EXACT,
    SCAN_KEYS,
    VALUE_CHECKS,
    _never,
    _ok_count,
    all_text,
    is_text,
    plain_value,
    remember,
)

_DEF_REFS: dict[str, str] = {}


def _def_ref(name: str) -> str:
    """The `$ref` of root definition `name`."""
    known = _DEF_REFS.get(name)
    if known is not None:
        return known
    # A JSON Pointer in a URI fragment: `~` and `/` escaped (RFC 6901), then `%` percent-encoded
    # so that a reader who percent-decodes the fragment first (as JSON Schema does) gets it back.
    return remember(_DEF_REFS, name, "#/$defs/" + name.replace("~", "~0").replace("/", "~1").replace("%", "%25"),
                    key_chars=128)


def _plannable(keys: tuple) -> bool:
    """Whether a key shape is small enough to plan and cache (real schemas' nodes are)."""
    return (len(keys) <= 24 and _ONLY_STR.issuperset(map(type, keys)) and sum(map(len, keys)) <= 480
            and all_text(keys))  # (a key not text: node() reads it, then the document scan)


# A compiled node with one of these takes null some other way than a type union (see with_null).
_NOT_PLAIN_NULLABLE = frozenset({"$ref", "const", "anyOf", "enum"})
# A node needs _normalize (and may hold $ref or anyOf) only if it has one of these.
_RESHAPING = frozenset({"allOf", "const", "$ref", "oneOf", "anyOf", "nullable"})
# Keywords whose drop changes what a kept neighbour means (JSON Schema 2020-12 §10.3.1.2: `items` applies after
# `prefixItems`; §10.3.2.3: `additionalProperties` to the keys `patternProperties` does not match; §10.3.1.3 with
# §6.4.5: `minContains: 0` makes `contains` vacuous): a node with one is read by node() (see walk.partners).
PARTNERS = frozenset({"prefixItems", "patternProperties", "minContains"})



# What the walk does with a keyword once its value is valid (decided once per rule version).
(OP_PLAIN, OP_SLOT, OP_STRUCTURAL, OP_DROP, OP_REWRITE, OP_DEFS, OP_FORMAT, OP_PATTERN, OP_ENUM,
 OP_CONST, OP_AT_MOST_ONE) = range(11)
STRUCTURAL = frozenset({"type", "properties", "required", "additionalProperties", "items", "anyOf", "$ref"})
# The keywords a leaf plan copies or records (see _leaf_shape), by the walk's op for them.
_PLAIN, _ENUM, _CONST, _FORMAT, _PATTERN, _DROP = range(6)
_LEAF_MODES = {OP_PLAIN: _PLAIN, OP_ENUM: _ENUM, OP_CONST: _CONST, OP_FORMAT: _FORMAT, OP_PATTERN: _PATTERN}
# A leaf with one of these has no leaf plan; `const` only beside `enum` (see _leaf_shape).
_LEAF_RESHAPING = _RESHAPING - {"const"}
_PLAIN_MODE = {OP_PLAIN: _PLAIN}  # objects and arrays copy plain keywords only
_TYPE_KEY = frozenset({"type"})


def keyword_plan(r: Rules) -> dict:
    """keyword -> (op, value check, value kind, handler, diagnostic code, transformation code, slot).

    Built from the rule tables once per Rules and cached on it; the walk reads only this.
    """
    plan = r.__dict__.get("_keyword_plan")
    if plan is not None:
        return plan
    plan = {}
    for k, entry in r.keywords.items():
        action, handler, vkind, dcode, tcode = entry[1], entry[2], entry[3], entry[4], entry[5]
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
        elif handler == "at-most-one" or handler == "at-most":
            op = OP_AT_MOST_ONE  # (no plan copies it: node() checks the value)
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
    r.__dict__["_node_plans"] = {}
    refusing = r.__dict__["_refusing_codes"]
    # (an optional property's diagnostic refuses, its null warning refuses, a bare $ref is structural,
    #  an object's missing additionalProperties refuses, the refusals an optional property's two add)
    codes, changes = r.patterns, r.changes
    optional_refuses = (codes["strict-optional-property"] in refusing, codes["nullable-instead-of-omitted"] in refusing)
    r.__dict__["_object_flags"] = (*optional_refuses, plan.get("$ref", (None,))[0] == OP_STRUCTURAL,
                                   codes["object-missing-additional-properties"] in refusing, sum(optional_refuses))
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


def _walk_tables(r: Rules) -> tuple:
    """What a walk reads from its rule version, in the order Walk.__init__ takes it (built once per
    Rules; a tuple, so that a walk's set-up unpacks it without a lookup per table)."""
    tables = r.__dict__.get("_walk_tables")
    if tables is None:
        keyword_plan(r)
        d = r.__dict__
        tables = d["_walk_tables"] = (
            r, d["_keyword_plan"], d["_refusing_codes"], d["_lossy_codes"], d["_rank"], d["_node_plans"],
            d["_object_flags"], d["_limit_values"], d["_enum_limits"], r.patterns, r.changes, d["_object_codes"],
            r.ref_siblings,
            # policy: optional properties left optional, the property-name rule
            r.optional_allowed, r.property_key_re, r.enum_types,
            # policy objects: not closed by the walk (unlisted or open), and a closed one kept (open)
            r.policy["objects"] != "closed", r.policy["objects"] == "open",
            # whether the walk's result is written in the OpenAPI subset afterwards (policy schema_form)
            r.policy.get("schema_form") == "openapi-subset",
            # policy type_keywords per-type: keyword -> the types it applies to (walk.vacuous), else None
            type_keywords(r.policy),
        )
    return tables


class _Rank(dict):
    """keyword -> place in the output order; keywords the table does not list go last."""

    def __missing__(self, key: str) -> int:
        return 1000


def _values_copiers(values: tuple, r: Rules, keys: tuple = (), containers: tuple = ("",)) -> tuple:
    """One copy(s, out) per entry of `containers`: `out` with the planned `values` of `s` copied in
    (see _shape), or None when a value needs node()'s full treatment; records nothing.

    A value that fails its keyword's check, an enum that is empty or holds a non-scalar and a const
    that is not a scalar hand back; an unsupported format and a pattern the rules drop are left out
    (their findings are recorded by leaves._record_steps). For an "object" or "array" entry, the
    structural keywords' values in `keys` are checked first, as node() checks them for that type (a
    value it would report hands back). One loop over the plan, closed over once per key shape (no
    source is written out and executed)."""
    return tuple(_looping_copier(values, r, keys, container) for container in containers)


def _copied_as(exact: type | None, check: Any, mode: int) -> type | None:
    """The type whose values of a keyword the copy stores as they are at once, None if none: a
    plain keyword's value of a type that passes its check unread (its exact type, or any where it has
    no check) and that is plain JSON as it is (str, int, bool)."""
    if mode != _PLAIN:
        return None
    if exact is str or exact is int or exact is bool:
        return exact
    return str if check is None else None


def _never_copies(s: dict, out: dict) -> None:
    return None  # object keywords on an array: node() reports them


def _looping_copier(values: tuple, r: Rules, keys: tuple, container: str) -> Callable[[dict, dict], dict | None]:
    """_values_copiers' copy for one container (see there)."""
    if container == "array" and not {"properties", "required", "additionalProperties"}.isdisjoint(keys):
        return _never_copies
    items = bool(container) and "items" in keys
    obj = container == "object"
    props = obj and "properties" in keys
    required = obj and "required" in keys
    additional = obj and "additionalProperties" in keys
    structural = items or props or required or additional
    formats = r.formats
    # Each value with the one type it is copied as by the first test, unchecked (see _copied_as), and
    # what the others are read by.
    values = tuple((k, _copied_as(exact, check, mode), (exact, check, mode)) for k, exact, check, mode in values)

    def copy(s: dict, out: dict) -> dict | None:
        if structural:
            if items:
                v = s["items"]
                if type(v) is not dict and type(v) is not bool and type(v) is not list:
                    return None
            if props and type(s["properties"]) is not dict:
                return None
            if required:
                v = s["required"]
                if type(v) is not list:
                    return None
                for x in v:  # (a loop: compiled, no map object and no method lookup per schema)
                    if type(x) is not str or not (x.isascii() or is_text(x)):
                        return None
            if additional:
                v = s["additionalProperties"]
                if type(v) is not dict and type(v) is not bool:
                    return None
        for k, plain, read in values:
            v = s[k]
            tv = type(v)
            if tv is plain:
                if tv is str and not v.isascii() and not is_text(v):
                    return None  # (not text: node() reads it in full, then the document scan: see walker._compile)
                out[k] = v  # (what the tests below come to for it)
                continue
            exact, check, mode = read
            if check is not None and tv is not exact and (not check(v) or (tv is float and check is _ok_count)):
                return None  # (node() reports it, or writes a `2.0` count as the integer it is)
            if tv is not str and tv is not int and tv is not bool and v is not None and (
                    tv is not list if mode == _ENUM else not plain_value(v)):
                return None  # not plain JSON as it is (the document scan reads it: see walker._compile)
            if tv is str and not v.isascii() and not is_text(v):
                return None  # (as above: not text)
            if mode == _PLAIN:
                out[k] = v
            elif mode == _ENUM:
                if not v:
                    return None
                for x in v:
                    if type(x) not in _SCALAR_TYPES or (type(x) is str and not x.isascii() and not is_text(x)):
                        return None
                out[k] = v
            elif mode == _CONST:
                if type(v) not in _SCALAR_TYPES:
                    return None
                out[k] = v
            elif mode == _FORMAT:
                if v in formats:
                    out[k] = v
            elif (written := _pattern_written(r, v)) is not None:
                out[k] = written
        return out

    return copy


# -- one plan per key shape: what node() does with the keywords, decided once per rule version
def _shape(w: Any, keys: tuple, own: frozenset, modes: dict) -> tuple | None:
    """(values, steps) for the keywords in `keys` that are not `own` (read by the plan's runner),
    or None when one of them needs node()'s reading of every keyword.

    `values` are (keyword, exact type, check, mode) in output order: what is checked and copied,
    `mode` from `modes` by the keyword's op (_PLAIN, _ENUM, _CONST, _FORMAT, _PATTERN); `steps`
    are (mode or _DROP, keyword, diagnostic, transformation, refuses) in key order: what is
    recorded (see _record_steps). Derived from the keyword plan, never from the values."""
    values, steps = [], []
    plan, refusing = w.plan, w.refusing
    for k in keys:
        if k in own:
            continue
        p = plan.get(k)
        if p is None:
            action, dcode, tcode = w.r.unknown_keyword
            if action == "drop":
                steps.append((_DROP, k, dcode, tcode, dcode in refusing))
            continue  # an unknown keyword that is not dropped is left out, as node() does
        op, exact, check, _vkind, _handler, dcode, tcode, slot = p
        mode = modes.get(op) if slot is None else None
        if mode is not None:
            values.append((k, exact, check, mode))
            if mode != _PLAIN:
                steps.append((mode, k, None, None, False))
        elif op == OP_DROP and check is None:
            steps.append((_DROP, k, dcode, tcode, dcode in refusing))
        else:
            return None
    rank = w.rank
    values.sort(key=lambda o: rank[o[0]])
    return tuple(values), tuple(steps)


def _node_plan(w: Any, keys: tuple) -> NodePlan:
    """The plan of a schema with exactly these keys, in this order (see NodePlan), or NO_PLAN
    when node() must read each keyword itself. Cached per rule version; derived from the
    keyword plan, never from the values."""
    if not _plannable(keys):
        return NO_PLAN  # not cached: node() takes it (the cache never holds large keys alive)
    plans = w.node_plans
    if len(plans) >= 4096:  # bounded: key orders are few in practice, but never grow without end
        plans.clear()
    found = NO_PLAN
    # (under policy type_keywords per-type, a shape with a keyword of one type: node() reads it in full;
    # so is one with a key the document scan notes, so that a walk without it sees that: walker._compile)
    if "type" in keys and (w.type_keywords is None or w.type_keywords.keys().isdisjoint(keys)) and (
            SCAN_KEYS.isdisjoint(keys)):
        leaf, container = _leaf_shape(w, keys), _container_shape(w, keys)
        if leaf is not None or container is not None:
            found = NodePlan(leaf, container, w.r, keys)
    plans[keys] = found
    return found


def _leaf_shape(w: Any, keys: tuple) -> tuple | None:
    """_shape of a scalar leaf with these keys, when its plan can compile it."""
    # (Under policy enum_values an enum or const leaf goes through node(), which checks its types.)
    if _LEAF_RESHAPING.isdisjoint(keys) and not ("const" in keys and "enum" in keys) and (
            w.enum_types is None or ("enum" not in keys and "const" not in keys)):
        shape = _shape(w, keys, _TYPE_KEY, _LEAF_MODES)
        if shape is not None and all(w.rank["type"] <= w.rank[o[0]] for o in shape[0]):
            return shape
    return None


def _container_shape(w: Any, keys: tuple) -> tuple | None:
    """_shape of an object or array with these keys (plain values only), when its plan can
    compile it."""
    plan, rank = w.plan, w.rank
    if _RESHAPING.isdisjoint(keys) and PARTNERS.isdisjoint(keys) and all(
            plan.get(k, (None,))[0] == OP_STRUCTURAL for k in _CONTAINER_KEYS):
        shape = _shape(w, keys, _CONTAINER_KEYS, _PLAIN_MODE)
        first = min(rank[k] for k in ("items", "properties", "required", "additionalProperties"))
        if shape is not None and all(rank["type"] <= rank[o[0]] < first for o in shape[0]):
            return shape
    return None


class NodePlan:
    """What node() does with a schema of one key shape, by its `type`: a scalar leaf's values
    copied (`leaf`) and its steps recorded (`leaf_steps`), or an object's or array's plain values
    copied (`object`, `array`) and its drop steps recorded (`container_steps`) before the container
    rules run; None where that type needs node()'s reading of every keyword. A copy hands back None
    when a value needs it too (see _values_copiers). NO_PLAN, with none of them, is the plan of a
    key shape without `type` or that node() always reads itself."""

    __slots__ = ("array", "container_steps", "leaf", "leaf_steps", "object", "own_null")

    def __init__(self, leaf: tuple | None, container: tuple | None, r: Rules | None, keys: tuple):
        self.leaf = self.object = self.array = None
        self.leaf_steps = self.container_steps = ()
        self.own_null = False  # whether the leaf takes null its own way (an enum or const), not by its type
        if leaf is not None:
            self.leaf_steps, (self.leaf,) = leaf[1], _values_copiers(leaf[0], r)
            self.own_null = any(o[3] in (_ENUM, _CONST) for o in leaf[0])
        if container is not None:
            self.container_steps = container[1]
            self.object, self.array = _values_copiers(container[0], r, keys, ("object", "array"))


NO_PLAN = NodePlan(None, None, None, ())
