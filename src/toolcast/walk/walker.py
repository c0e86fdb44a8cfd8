"""The walk itself: one Walk per schema, the root, node() and the size limits."""

from __future__ import annotations

from collections.abc import Callable
from gc import disable as gc_disable
from gc import enable as gc_enable
from gc import isenabled as gc_isenabled
from typing import Any, TypeVar

from toolcast.model import NullPath
from toolcast.rules import Rules
from toolcast.walk.containers import Containers
from toolcast.walk.plans import (
    _RESHAPING,
    NO_PLAN,
    NodePlan,
    _walk_tables,
)
from toolcast.walk.semantics import INLINE_GUARD
from toolcast.walk.subset import to_subset
from toolcast.walk.values import (
    _IMPLIES_SETS,
    _NON_NULL_LEAF_TYPES,
    _TYPE_SETS,
    IMPLIES,
    JSON_TYPES,
    MISSING,
    NEST_GUARD,
    _ok_type,
    describe,
)

# A root with none of these (and `type: object`) needs nothing settled before the walk (see compile).
_ROOT_PLAIN = frozenset({"$defs", "definitions", "$ref", "anyOf", "oneOf"})
# A root without `type` that has one of these is read as an object (else: a tool without parameters):
# the combinators and values it is read by, and every keyword that implies an object (IMPLIES), which
# a tool without parameters would lose (`minProperties: 1` read so accepted `{}`).
_ROOT_TYPE_TRIGGERS = tuple(dict.fromkeys(("properties", "required", "additionalProperties", "anyOf", "oneOf", "allOf",
                                           "enum", "const", *dict(IMPLIES)["object"])))
# (bound once: compiled, a call of the bound method skips the method lookup made per node)
_not_reshaping = _RESHAPING.isdisjoint


_T = TypeVar("_T")


def root_not_object(root: Any) -> tuple[tuple, str] | None:
    """(place, what it is) when a tool's root schema is no object schema whatever else it says, else
    None: a value that is not a schema object, a `type` that is not object, an enum or const without
    a `type` (arguments are objects). No value, `{}` and `true` are a tool without parameters, and a
    root `$ref` is judged once resolved (Walk._root). Compile reads it too for a tool it does not walk
    (strict off), where the rules refuse it in every mode."""
    if root is None or root is True:
        return None
    if not isinstance(root, dict):
        return (), describe(root)
    rtype = root.get("type", MISSING)
    if rtype is MISSING:
        if "enum" in root or "const" in root:
            return (), "an enum or const without `type: object`"
        return None
    if rtype == "object" or rtype == ["object"]:
        return None
    return ("type",), describe(rtype)


def without_cycle_gc(fn: Callable[..., _T], *args: Any) -> _T:
    """fn(*args) with the cyclic garbage collector paused, then restored; left alone when a
    caller (or an outer compile) has paused it already.

    A walk makes no reference cycles, only many short-lived containers that reference counting
    frees; a collection during it would only re-scan them, and the caller's whole heap with
    them. That was 10-30% of a large schema's compile (see benchmarks/README.md).

    The switch is process-wide: a compile that found the collector on turns it back on when it
    ends, even if another thread turned it off meanwhile; one that found it off (another
    compile running, or the application's choice) leaves it alone.
    """
    if not gc_isenabled():
        return fn(*args)
    gc_disable()
    try:
        return fn(*args)
    finally:
        gc_enable()


class Walk(Containers):
    """Compiles one parameters schema; collects diagnostics, transformations and null paths (its
    state and records: walk.state.State; its actions: the classes of its line, see State)."""

    def __init__(self, rules: Rules):
        super().__init__(_walk_tables(rules))

    # -- entry point ---------------------------------------------------------------------
    def compile(self, schema: Any) -> dict:
        try:
            out = self._compile(schema)
            return to_subset(self, out) if self.subset_form else out
        finally:
            if self.gc_paused and not self.hold_gc:
                self.gc_paused = False
                gc_enable()

    def _compile(self, schema: Any) -> dict:
        schema = self._document(schema)
        if schema is MISSING:
            return {}
        if type(schema) is dict and schema.get("type") == "object" and _ROOT_PLAIN.isdisjoint(schema):
            root = self.root_raw = schema  # the commonest root: nothing to settle before the walk
        else:
            root = self._root(schema)
            if type(root) is not dict or self.refusals:
                return root[0] if type(root) is tuple else {}
            self.inlined = ()  # (what the root's own `$ref` inlined is walked as the root)
        out = self.node(root, (), (), 1, 0, root=True)
        if self.queue:
            self._compile_defs()
        if self.defs_out:
            out["$defs"] = {name: self.defs_out[name] for name in self.defs_raw if name in self.defs_out}
        if self.defs_raw:
            for name in self.defs_raw:
                if name not in self.defs_out:
                    self.record("unused-definition", (self.defs_src[name], name), (("name", name),))
                    self.change("dropped-unused-definition", (self.defs_src[name], name))
        max_props, max_chars, max_enum, max_depth = self.limit_values
        if (self.n_props > max_props or self.n_chars > max_chars or self.n_enum > max_enum
                or self.deepest[0] > max_depth):
            self._check_limits()
        root_bucket = self.buckets[""]
        if self.r.refuses_recursion and (self.queue or root_bucket.refs):
            self._refuse_recursion()
        if self.queue or root_bucket.refs:
            # Without a $ref, nothing the walk emits lacks a finite value unless it refused (an
            # empty anyOf, a typeless node): the fixed point is for reference graphs.
            self._check_finite(out)
            if not self.r.refuses_recursion:  # (refused, every recursion is reported above)
                self._check_progress(out)
            self._finish_null_paths()
        elif root_bucket.nulls:
            if root_bucket.legit:
                self._finish_null_paths()
            else:
                # Only a place walked twice (anyOf branches, a kept slot beside properties) can
                # repeat a path.
                nulls = root_bucket.nulls
                self.null_paths = tuple(dict.fromkeys(nulls)) if self.branched else tuple(nulls)
        return out

    def _root(self, schema: Any) -> dict | tuple | None:
        """The root schema to walk; (the result,) when there is nothing to walk; None after a refusal."""
        r = self.r
        if schema is None or schema == {}:
            self.report("empty-parameters", ())
            self.change("closed-empty-parameters", ())
            return ({"type": "object", "properties": {}, "required": [], "additionalProperties": False},)
        if schema is True:
            self.report("boolean-subschema", (), value="true")
            self.report("empty-parameters", ())
            self.change("closed-empty-parameters", ())
            return ({"type": "object", "properties": {}, "required": [], "additionalProperties": False},)
        if not isinstance(schema, dict):
            place, what = root_not_object(schema)
            return (self.refuse("root-schema-not-object", place, value=what),)
        root = schema  # copied before anything is taken out of it or added to it
        if "$defs" in root or "definitions" in root:
            root = dict(schema)
            self._collect_defs(root)
        self.root_raw = root
        if "$ref" in root:
            root = self._inline_root_ref(root)
            if root is None:
                return None
        if "anyOf" in root or "oneOf" in root:
            for kw in ("anyOf", "oneOf"):
                if kw in root:
                    self.report("root-schema-anyof", (kw,), keyword=kw)
        rtype = root.get("type", MISSING)
        not_object = root_not_object(root)
        if not_object is not None:
            self.report("root-schema-not-object", not_object[0], value=not_object[1])
        elif rtype is MISSING:
            if not any(k in root for k in _ROOT_TYPE_TRIGGERS):
                # Description-only or annotation-only root: a tool without parameters.
                self.report("empty-parameters", ())
                self.change("closed-empty-parameters", ())
                root = {k: v for k, v in root.items() if k not in r.kept or k in self.annotations}
                root.update(type="object", properties={}, additionalProperties=False)
            else:
                self.change("inferred-type", ("type",), "(object, at the root)")
                # (a `$ref` to `#` below reads the root with it: see References._root_target)
                self.root_inferred = next(k for k in _ROOT_TYPE_TRIGGERS if k in root)
                root = self._set_root_type(root)
        elif rtype == ["object"]:
            root = self._set_root_type(root)
        return root

    def _set_root_type(self, root: dict) -> dict:
        """`root` with `type: object`, as a new dict (the input is never changed); the raw root
        that `#` refers to follows when it is the same schema."""
        new = {**root, "type": "object"}
        if root is self.root_raw:
            self.root_raw = new
        return new

    # -- the walk --------------------------------------------------------------------------
    def node(self, s: Any, sp: tuple, ip: NullPath, depth: int, nest: int, root: bool = False,
             plan: NodePlan | None = None, normalized: bool = False) -> dict:
        """The compiled form of schema `s` at schema path `sp` (instance path `ip`); its findings
        recorded. `plan` is the plan of `s`'s key shape, when the caller has looked it up;
        `normalized`: `s` is _normalize's result already (see _inlined)."""
        if type(s) is not dict or nest > NEST_GUARD:
            s = self._not_a_node(s, sp, nest)
            if s is None:
                return {}
        # The plan of this key shape, when it has one: most nodes are compiled by it alone.
        np = plan
        if np is None:
            np = self.node_plans.get(keys := tuple(s))
            if np is None:
                np = self._node_plan(keys)
        if np is not NO_PLAN and type(t := s["type"]) is str:
            if t in _NON_NULL_LEAF_TYPES:
                # A scalar leaf: its values copied, its steps recorded (it adds no level of nesting).
                if np.leaf is not None and (out := np.leaf(s, {"type": t})) is not None:
                    if np.leaf_steps:
                        self._record_steps(s, np.leaf_steps, sp)
                    return out
            elif (t == "object" or t == "array") and np.object is not None and (
                    out := self._planned(s, np, t, sp, ip, depth, nest, root)) is not None:
                return out
        # Only a node with one of these keywords can need reshaping (or a $ref / anyOf below).
        special = not _not_reshaping(s)
        if special and not normalized:
            s = self._normalize(s, sp, root)
            if self.inlined:
                return self._inlined(s, sp, ip, depth, nest, root)
            if s is None:
                return {}
        out, nullable = self._keywords(s, sp, ip, depth, nest)
        any_of: list | None = None
        if special:
            if "$ref" in s:
                return self._ref(s["$ref"], out, sp, ip)
            if "anyOf" in s and type(s["anyOf"]) is list and self.r.keywords["anyOf"][1] != "drop":
                # (Any other value was reported as invalid above.)
                any_of = self._any_of(s["anyOf"], sp + ("anyOf",), ip, depth, nest)
        if not self._structure(s, out, sp, ip, depth, nest, root, any_of is not None):
            return out
        if any_of is not None:
            if not any_of:
                self.report("unsatisfiable-schema", sp + ("anyOf",), value="every anyOf branch is false")
            out["anyOf"] = any_of
        if nullable:
            out = self._nullable(out, sp)
        return self._ordered(out)

    def _inlined(self, s: dict | None, sp: tuple, ip: NullPath, depth: int, nest: int, root: bool) -> dict:
        """node() for `s`, normalized by inlining the targets of the `$ref`s in self.inlined: their
        content is walked with them marked, so that one of them inlined again below it, a definition
        that reaches itself through its own inlining (which no finite inlining writes out), is
        refused instead of unfolded without end."""
        fresh = self.inlined
        self.inlined = ()
        active = self.inlining
        if type(active) is not dict:
            active = self.inlining = {}
        for x in fresh:
            at = active.get(id(x))
            if at is not None:
                self._inlined_again(x["$ref"], at[1] == depth, sp)
                return {}
        if s is None:
            return {}
        added = []
        for x in fresh:
            if id(x) not in active:
                active[id(x)] = (x, depth)  # (x kept alive with it: its id is not reused meanwhile)
                added.append(id(x))
        try:
            return self.node(s, sp, ip, depth, nest, root, NO_PLAN, True)
        finally:
            for key in added:
                del active[key]

    def _inlined_again(self, ref: Any, same_depth: bool, sp: tuple) -> None:
        """Refuse the `$ref` to `ref` met again inside its own inlining: as the definition's recursion
        is reported where it is not inlined (a reference in place), or, where recursion is allowed
        and it descends into a property or an item first, as an inlining without end."""
        known = self.ref_names.get(ref) if type(ref) is str else None
        name = (known[0] or "#") if known is not None else str(ref)
        if self.r.refuses_recursion:
            self.report("recursive-schema", sp, name=name)
        elif same_depth:
            self.report("infinite-recursion", sp, name=name)
        else:
            self.report("inlined-schema-too-large", sp, limit=INLINE_GUARD)

    def _not_a_node(self, s: Any, sp: tuple, nest: int) -> dict | None:
        """What node() walks instead of `s`, a value that is not a dict or is nested too deep: {} for
        `true`, else None after a refusal."""
        if nest > NEST_GUARD:
            self.guarded = True
            self.refuse("schema-too-deep", sp, count=f"more than {NEST_GUARD}", limit=self.r.counted("depth").value)
            return None
        if s is True:
            self.report("boolean-subschema", sp, value="true")
            self.change("normalized-true-subschema", sp)
            return {}
        if s is False:
            self.refuse("false-subschema-unrepresentable", sp)
        elif not isinstance(s, dict):
            self.refuse("non-schema-subschema", sp, value=describe(s))
        else:  # a dict subclass (the walk reads it as a dict)
            return s
        return None

    def _structure(self, s: dict, out: dict, sp: tuple, ip: NullPath, depth: int, nest: int, root: bool,
                   has_any_of: bool) -> bool:
        """The node's type, and its object or array rules; False when it has no valid type (node()
        returns `out` as it is)."""
        t = s.get("type")
        if type(t) is str and t in JSON_TYPES:  # _types' first case, inline
            out["type"] = t
            if t == "object" or t == "array":
                self._container(s, out, sp, ip, depth, nest, root, t == "object", t == "array")
            return True
        types = self._types(s, out, sp, has_any_of)
        if types is None:
            return False
        if "object" in types or "array" in types:
            self._container(s, out, sp, ip, depth, nest, root, "object" in types, "array" in types)
        return True

    def _container(self, s: dict, out: dict, sp: tuple, ip: NullPath, depth: int, nest: int, root: bool,
                   is_object: bool, is_array: bool) -> None:
        """The object and/or array rules of `s` into `out`. Nesting counts containers only: a
        scalar leaf adds no level."""
        if depth > self.deepest[0]:
            self.deepest = (depth, sp)
        if is_object:
            self._object(s, out, sp, ip, depth, nest, root)
        if is_array:
            self._array(s, out, sp, ip, depth, nest)

    def _ordered(self, out: dict) -> dict:
        """`out` with its keywords in the table's output order (unknown ones last, stable)."""
        if len(out) < 2:
            return out
        rank = self.rank
        prev = -1
        for k in out:
            i = rank[k]
            if i < prev:
                break
            prev = i
        else:
            return out  # already in order: the common case, no sort and no copy
        return {k: out[k] for k in sorted(out, key=rank.__getitem__)}

    def _types(self, s: dict, out: dict, sp: tuple, has_any_of: bool) -> frozenset | None:
        t = s.get("type", MISSING)
        if t is not MISSING:
            if not _ok_type(t):
                del out["type"]  # the place node() reserved
                return None  # already reported as an invalid value
            out["type"] = t
            return _TYPE_SETS[t] if isinstance(t, str) else frozenset(t)
        if has_any_of or "$ref" in s or "enum" in out or "const" in out:
            return frozenset()
        implied = [name for name, kws in _IMPLIES_SETS if not kws.isdisjoint(s)]
        if len(implied) == 1:
            kind = implied[0]
            trigger = next(k for k in dict(IMPLIES)[kind] if k in s)
            self.report("type-inferred", sp, keyword=f"`{trigger}`", value=kind)
            self.change("inferred-type", sp, f"({kind})")
            out["type"] = kind
            return frozenset([kind])
        self.report("schema-missing-type", sp)
        return None

    def _refuse_recursion(self) -> None:
        """Under policy recursion `refuse`: report each definition (or the root) that reaches itself
        through $refs, in definition order."""
        cyclic = self._cyclic(set(self.buckets))
        for name in ("", *self.defs_raw):
            if name in cyclic:
                self.report("recursive-schema", (self.defs_src.get(name, "$defs"), name) if name else (),
                            name=name or "#")

    def _check_limits(self) -> None:
        """Report each total the walk counted past its limit (the limit that counts it, see Rules.counted)."""
        counted = self.r.counted
        for counter, count in (("properties", self.n_props), ("string-chars", self.n_chars),
                               ("enum-values", self.n_enum)):
            limit = counted(counter)
            if count > limit.value:
                self.diag(limit.code, (), count=count, limit=limit.value)
        depth, where = self.deepest
        limit = counted("depth")
        if depth > limit.value and not self.guarded:
            self.diag(limit.code, where, count=depth, limit=limit.value)
