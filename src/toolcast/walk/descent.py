"""The descent: node() and what recurses through it (a node's keywords, objects, properties, arrays, anyOf branches, schema-valued slots, the definitions referred to)."""

from __future__ import annotations

from gc import disable as gc_disable
from gc import isenabled as gc_isenabled
from typing import Any

from toolcast.model import ITEMS, NullPath
from toolcast.walk.budget import SchemaTooLarge
from toolcast.walk.combinators import _normalize
from toolcast.walk.containers import (
    PAUSE_GC_AFTER_PROPERTIES,
    _object_rules,
    _optional,
    _property_keys,
    _vouch_object,
)
from toolcast.walk.keywords import REWRITES, _kept, _scalar_values
from toolcast.walk.leaves import _count_null, _dropped, _nullable, _ordered, _pattern, _record_steps
from toolcast.walk.partners import no_partner, partners
from toolcast.walk.plans import (
    _NOT_PLAIN_NULLABLE,
    _RESHAPING,
    NO_PLAN,
    OP_DROP,
    OP_PATTERN,
    OP_PLAIN,
    OP_REWRITE,
    OP_SLOT,
    OP_STRUCTURAL,
    NodePlan,
    _node_plan,
)
from toolcast.walk.refs import _ref
from toolcast.walk.semantics import INLINE_GUARD, allows_null
from toolcast.walk.state import Walk, _Bucket
from toolcast.walk.unlisted import unlisted_object_rules
from toolcast.walk.vacuous import drop_vacuous, split_types
from toolcast.walk.values import (
    _IMPLIES_SETS,
    _NON_NULL_LEAF_TYPES,
    _SCALAR_TYPES,
    _TYPE_SETS,
    EXPECTED,
    IMPLIES,
    JSON_TYPES,
    MISSING,
    NEST_GUARD,
    _ok_type,
    def_ref_name,
    depth_limit,
    describe,
)

# (bound once: compiled, a call of the bound method skips the method lookup made per node)
_not_reshaping = _RESHAPING.isdisjoint
_plainly_nullable = _NOT_PLAIN_NULLABLE.isdisjoint


# -- the walk --------------------------------------------------------------------------
def node(w: Walk, s: Any, sp: tuple, ip: NullPath, depth: int, nest: int, root: bool = False,
         plan: NodePlan | None = None, normalized: bool = False) -> dict:
    """The compiled form of schema `s` at schema path `sp` (instance path `ip`); its findings
    recorded. `plan` is the plan of `s`'s key shape, when the caller has looked it up;
    `normalized`: `s` is _normalize's result already (see _inlined)."""
    left = w.nodes_left = w.nodes_left - 1  # (the node budget: see walk.budget)
    if type(s) is not dict or nest > NEST_GUARD or left < 0:
        s = _not_a_node(w, s, sp, nest)
        if s is None:
            return {}
    # The plan of this key shape, when it has one: most nodes are compiled by it alone.
    np = plan
    if np is None:
        np = w.node_plans.get(keys := tuple(s))
        if np is None:
            np = _node_plan(w, keys)
    if np is not NO_PLAN and type(t := s["type"]) is str:
        if t in _NON_NULL_LEAF_TYPES:
            # A scalar leaf: its values copied, its steps recorded (it adds no level of nesting).
            if np.leaf is not None and (out := np.leaf(s, {"type": t})) is not None:
                if np.leaf_steps:
                    _record_steps(w, s, np.leaf_steps, sp)
                return out
        elif (t == "object" or t == "array") and np.object is not None and (
                out := (np.object if t == "object" else np.array)(s, {"type": t})) is not None:
            # An object or array by its plan: the copy checked its values (the structural ones too)
            # as the reading of every keyword below checks them.
            if np.container_steps:
                _record_steps(w, s, np.container_steps, sp)
            if t == "array":
                _array(w, s, out, sp, ip, depth, nest)
            else:
                if w.scanned and "items" in s:
                    w.scanned = False  # (an object's `items` is not walked: see walker._compile)
                _object(w, s, out, sp, ip, depth, nest, root)
            return out
    if w.scanned and not (len(s) == 1 and def_ref_name(s.get("$ref")) is not None):
        w.scanned = False  # (node() reads it in full; a bare `$ref` to a root definition raises no scan flag)
    # Only a node with one of these keywords can need reshaping (or a $ref / anyOf below).
    special = not _not_reshaping(s)
    if special and not normalized:
        s = _normalize(w, s, sp, root)
        if w.inlined:
            return _inlined(w, s, sp, ip, depth, nest, root)
        if s is None:
            return {}
    if w.type_keywords is not None and "$ref" not in s:
        s = drop_vacuous(w, s, sp)  # (policy type_keywords per-type: its type settled, merges done)
    pending = None
    if not no_partner(s):
        s, pending = partners(w, s, sp)  # (a dropped keyword's neighbour that it limits goes too)
    out, nullable = _keywords(w, s, sp, ip, depth, nest)
    if pending:
        w.trans.extend(pending)
    any_of: list | None = None
    if special:
        if "$ref" in s:
            return _ref(w, s["$ref"], out, sp, ip)
        if "anyOf" in s and type(s["anyOf"]) is list and w.r.keywords["anyOf"][1] != "drop":
            # (Any other value was reported as invalid above.)
            any_of = _any_of(w, s["anyOf"], sp + ("anyOf",), ip, depth, nest)
    if not _structure(w, s, out, sp, ip, depth, nest, root, any_of is not None):
        return out
    if any_of is not None:
        if not any_of:
            w.report("unsatisfiable-schema", sp + ("anyOf",), value="every anyOf branch is false")
        out["anyOf"] = any_of
    if w.type_keywords is not None and type(out.get("type")) is list:
        out = split_types(w, s, out, sp)  # (policy type_keywords per-type: one branch per type, exact)
    if nullable:
        out = _nullable(w, out, sp)
    return _ordered(w, out) if w.builds else out  # (the output order only matters in a form built)


def _inlined(w: Walk, s: dict | None, sp: tuple, ip: NullPath, depth: int, nest: int, root: bool) -> dict:
    """node() for `s`, normalized by inlining the targets of the `$ref`s in w.inlined: their
    content is walked with them marked, so that one of them inlined again below it, a definition
    that reaches itself through its own inlining (which no finite inlining writes out), is
    refused instead of unfolded without end."""
    fresh = w.inlined
    w.inlined = ()
    active = w.inlining
    if type(active) is not dict:
        active = w.inlining = {}
    for x in fresh:
        at = active.get(id(x))
        if at is not None:
            _inlined_again(w, x["$ref"], at[1] == depth, sp)
            return {}
    if s is None:
        return {}
    added = []
    for x in fresh:
        if id(x) not in active:
            active[id(x)] = (x, depth)  # (x kept alive with it: its id is not reused meanwhile)
            added.append(id(x))
    try:
        return node(w, s, sp, ip, depth, nest, root, NO_PLAN, True)
    finally:
        for key in added:
            del active[key]


def _inlined_again(w: Walk, ref: Any, same_depth: bool, sp: tuple) -> None:
    """Refuse the `$ref` to `ref` met again inside its own inlining: as the definition's recursion
    is reported where it is not inlined (a reference in place), or, where recursion is allowed
    and it descends into a property or an item first, as an inlining without end."""
    known = w.ref_names.get(ref) if type(ref) is str else None
    name = (known[0] or "#") if known is not None else str(ref)
    if w.r.refuses_recursion:
        w.report("recursive-schema", sp, name=name)
    elif same_depth:
        w.report("infinite-recursion", sp, name=name)
    else:
        w.report("inlined-schema-too-large", sp, limit=INLINE_GUARD)


def _not_a_node(w: Walk, s: Any, sp: tuple, nest: int) -> dict | None:
    """What node() walks instead of `s`, a value that is not a dict or is nested too deep: {} for
    `true`, else None after a refusal; past the node budget, SchemaTooLarge."""
    if w.nodes_left < 0:
        raise SchemaTooLarge(sp)
    w.scanned = False  # (see walker._compile)
    if nest > NEST_GUARD:
        w.guarded = True
        w.refuse("schema-too-deep", sp, count=f"more than {NEST_GUARD}", limit=depth_limit(w.r, NEST_GUARD))
        return None
    if s is True:
        w.report("boolean-subschema", sp, value="true")
        w.change("normalized-true-subschema", sp)
        return {}
    if s is False:
        w.refuse("false-subschema-unrepresentable", sp)
    elif not isinstance(s, dict):
        w.refuse("non-schema-subschema", sp, value=describe(s))
    else:  # a dict subclass (the walk reads it as a dict)
        return s
    return None


def _structure(w: Walk, s: dict, out: dict, sp: tuple, ip: NullPath, depth: int, nest: int, root: bool,
               has_any_of: bool) -> bool:
    """The node's type, and its object or array rules; False when it has no valid type (node()
    returns `out` as it is)."""
    t = s.get("type")
    if type(t) is str and t in JSON_TYPES:  # _types' first case, inline
        out["type"] = t
        if t == "object":
            _object(w, s, out, sp, ip, depth, nest, root)
        elif t == "array":
            _array(w, s, out, sp, ip, depth, nest)
        return True
    types = _types(w, s, out, sp, has_any_of)
    if types is None:
        return False
    if "object" in types:
        _object(w, s, out, sp, ip, depth, nest, root)
    if "array" in types:
        _array(w, s, out, sp, ip, depth, nest)
    return True


def _types(w: Walk, s: dict, out: dict, sp: tuple, has_any_of: bool) -> frozenset | None:
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
        w.report("type-inferred", sp, keyword=f"`{trigger}`", value=kind)
        w.change("inferred-type", sp, f"({kind})")
        out["type"] = kind
        return frozenset([kind])
    w.report("schema-missing-type", sp)
    return None


def _keywords(w: Walk, s: dict, sp: tuple, ip: NullPath, depth: int, nest: int) -> tuple[dict, bool]:
    """(the node's kept keywords, whether a rewrite made it nullable); structural keywords are
    only checked here (node() applies them)."""
    # `type` goes first in the output order: reserve its place so that most nodes come out
    # ordered without a re-sort (_types fills it in, or takes it out again).
    out: dict = {"type": None} if "type" in s and "$ref" not in s else {}
    nullable = False
    plan = w.plan
    for k, v in s.items():
        p = plan.get(k)
        if p is None:
            action, dcode, tcode = w.r.unknown_keyword
            if action == "drop":
                _dropped(w, k, sp + (k,), dcode, tcode, dcode in w.refusing)
            continue
        op, exact, check, vkind, handler, dcode, tcode, slot = p
        tv = type(v)
        if tv is not exact and check is not None:
            if not check(v):
                w.report("invalid-keyword-value", sp + (k,), keyword=k, value=describe(v), expected=EXPECTED[vkind])
                continue
            if tv is float and vkind == "count":
                v = int(v)  # (`2.0`: the integer it is, written as one, which every provider reads)
        if op == OP_PLAIN:
            out[k] = v
            continue
        if op == OP_STRUCTURAL:
            if vkind == "type" and type(v) is str and v not in JSON_TYPES:
                w.report("invalid-keyword-value", sp + (k,), keyword=k, value=describe(v), expected=EXPECTED[vkind])
            continue  # structural: handled by node()
        if op == OP_DROP:
            _dropped(w, k, sp + (k,), dcode, tcode, dcode in w.refusing)
            continue
        if op == OP_SLOT:
            out[k] = _descend_slot(w, k, v, slot, sp, ip, depth, nest)
            continue
        if (k == "enum" or k == "const") and not _SCALAR_TYPES.issuperset(map(type, v if k == "enum" else (v,))):
            if not _scalar_values(w, k, v, sp):
                continue
        if op == OP_REWRITE:
            nullable = REWRITES[handler](w, k, v, sp + (k,), out) or nullable
            continue
        if op == OP_PATTERN:
            if (v := _pattern(w, v, sp + (k,))) is not None:
                out[k] = v
            continue
        if not _kept(w, op, k, v, sp):
            continue
        out[k] = _descend_slot(w, k, v, slot, sp, ip, depth, nest) if slot is not None else v
    return out, nullable


def _descend_slot(w: Walk, k: str, v: Any, slot: tuple, sp: tuple, ip: NullPath, depth: int, nest: int) -> Any:
    """Generic descent for a kept schema-valued keyword that has no structural rule."""
    kind, step = slot
    w.branched = True
    d = 1 if step == "reset" else depth + step
    if kind == "map":
        return {n: node(w, x, sp + (k, n), ip, d, nest + 1) for n, x in v.items()}
    if kind == "list" or (kind == "schema-or-list" and isinstance(v, list)):
        return [node(w, x, sp + (k, i), ip, d, nest + 1) for i, x in enumerate(v)]
    return node(w, v, sp + (k,), ip, d, nest + 1)


def _any_of(w: Walk, branches: list, sp: tuple, ip: NullPath, depth: int, nest: int) -> list:
    w.branched = True
    out = []
    for i, b in enumerate(branches):
        if b is False:
            w.report("boolean-subschema", sp + (i,), value="false")
            w.change("removed-false-subschema", sp + (i,))
            continue
        out.append(node(w, b, sp + (i,), ip, depth, nest + 1))
    return out


def _object(w: Walk, s: dict, out: dict, sp: tuple, ip: NullPath, depth: int, nest: int, root: bool) -> None:
    """The object closed, every property required (an optional one made nullable, with its null
    path) and walked. Once the walk no longer builds the strict form (Walk.builds), each property
    is still walked for its findings, null path and counts, but its form is not kept, and the
    object gets no `properties`, `required` or `additionalProperties` (nothing after the walk
    reads them in a form not built: see nullpaths._check_finite and _check_progress)."""
    if depth > w.deepest[0]:  # (nesting counts containers only: a scalar leaf adds no level)
        w.deepest = (depth, sp)
    props = s.get("properties")
    if not isinstance(props, dict):
        props = {}
    elif not w.gc_paused:
        n = w.entered_props = w.entered_props + len(props)
        if n > PAUSE_GC_AFTER_PROPERTIES and gc_isenabled():
            gc_disable()
            w.gc_paused = True
    req = (_object_rules(w, s, props, sp, root) if not w.objects_unlisted
           else unlisted_object_rules(w, s, props, sp, root))
    if req is None:
        w.scanned = False  # (its properties are not walked: see walker._compile)
        return
    if w.key_re is not None:
        _property_keys(w, props, sp)
    if w.scanned:
        _vouch_object(w, s, props)
    allowed = w.optional_allowed  # (policy optional_properties `allowed`: it stays optional, no null)
    out_props: dict = {}
    plans = w.node_plans
    leaf_ok = nest < NEST_GUARD  # (deeper, node() refuses the property)
    builds = w.builds
    n_unkept = chars_unkept = 0  # the properties walked without keeping their form
    sink: dict = {}  # where a leaf's values are checked while the form is not built
    for name, sub in props.items():
        if builds and w.refusals and not w.builds_refused:
            builds = w.builds = False  # refused: the strict form will not be used
        optional = name not in req and not allowed
        if leaf_ok and type(sub) is dict:
            # node()'s first case, a scalar leaf by its plan, without node()'s dispatch: the
            # property's place is built only where something is recorded there.
            np = plans.get(keys := tuple(sub)) or _node_plan(w, keys)
            if (np.leaf is not None and type(t := sub["type"]) is str and t in _NON_NULL_LEAF_TYPES
                    and (child := np.leaf(sub, {"type": t} if builds else sink)) is not None):
                if optional:  # (a plain type: null is new here)
                    psp = sp + ("properties", name)
                    _optional(w, name, psp, ip + (name,), False)
                    if not builds:
                        if np.own_null:
                            _count_null(w, sub, psp)  # (the null counted: `sub` holds the values copied)
                    elif np.own_null:
                        child = _nullable(w, child, psp)
                    else:
                        child["type"] = [t, "null"]
                    if np.leaf_steps:
                        _record_steps(w, sub, np.leaf_steps, psp)
                elif np.leaf_steps:
                    _record_steps(w, sub, np.leaf_steps, sp + ("properties", name))
                if builds:
                    out_props[name] = child
                else:
                    n_unkept += 1
                    chars_unkept += len(name)
                continue
        else:
            np = None
        child = _property(w, name, sub, optional, sp, ip, depth, nest, np, builds)
        if child is not MISSING:
            if builds:
                out_props[name] = child
            else:
                n_unkept += 1
                chars_unkept += len(name)
    w.n_props += len(out_props) + n_unkept
    w.n_chars += sum(map(len, out_props)) + chars_unkept
    if not builds:
        return
    out["properties"] = out_props
    out["required"] = [n for n in out_props if n in req] if allowed else list(out_props)
    if not w.objects_unlisted or (w.objects_keep_closed and s.get("additionalProperties") is False):
        out["additionalProperties"] = False


def _property(w: Walk, name: str, sub: Any, optional: bool, sp: tuple, ip: NullPath, depth: int, nest: int,
              plan: NodePlan | None = None, builds: bool = True) -> Any:
    """The compiled property `name` of the object at `sp` (MISSING when it is left out; None when
    the form is not built, see _object), after its own findings and null path; `plan` is that of
    its key shape, when looked up already."""
    psp = sp + ("properties", name)
    if sub is False:
        w.report("boolean-subschema", psp, value="false")
        if not optional:
            w.report("unsatisfiable-schema", psp, value=f"property {name!r} is required but its schema is false")
        else:
            w.change("removed-false-subschema", psp)
        return MISSING
    pip = ip + (name,)
    # Decide before descending, so findings and null paths come parent first.
    d = sub if type(sub) is dict else None  # (compiled, read as a dict)
    if d is not None and type(t := d.get("type")) is str and t != "null" and d.get("nullable") is not True:
        original_null = False  # allows_null's first test, inline: one plain type
    elif (d is not None and len(d) == 1 and type(ref := d.get("$ref")) is str
          and (known := w.ref_nulls.get(ref)) is not None):
        original_null = known  # a bare $ref: allows_null's answer for its target, remembered
    else:
        original_null = allows_null(sub, w)
    if optional:
        _optional(w, name, psp, pip, original_null)
    elif original_null:
        w.bucket.legit.append(pip)
    child = node(w, sub, psp, pip, depth + 1, nest + 1, False, plan)
    if optional and not original_null:
        if not builds:
            _count_null(w, child, psp)  # (counted as in the form built; with no enum, nothing)
            return None
        t = child.get("type")
        if type(t) is str and t != "null" and _plainly_nullable(child):
            child["type"] = [t, "null"]  # _with_null_own's common case, inline
        else:
            child = _nullable(w, child, psp)
    return None if not builds else child


def _array(w: Walk, s: dict, out: dict, sp: tuple, ip: NullPath, depth: int, nest: int) -> None:
    """The array rules of `s` into `out` (its `items` walked); its depth counted, as _object's."""
    if depth > w.deepest[0]:
        w.deepest = (depth, sp)
    items = s.get("items", MISSING)
    if items is MISSING:
        w.report("array-missing-items", sp)
        return
    if isinstance(items, list):
        w.scanned = False  # (its schemas are not walked: see walker._compile)
        w.report("tuple-items", sp + ("items",))
        return
    if items is False:
        w.report("false-subschema-unrepresentable", sp + ("items",))
        return
    out["items"] = node(w, items, sp + ("items",), ip + (ITEMS,), depth + 1, nest + 1)


def _compile_defs(w: Walk) -> None:
    done: set[str] = set()
    i = 0
    while i < len(w.queue):
        name = w.queue[i]
        i += 1
        if name in done or name == "":
            continue
        done.add(name)
        bucket = w.bucket = _Bucket()
        w.buckets[name] = bucket
        sp = (w.defs_src[name], name)
        w.n_chars += len(name)
        raw = w.defs_raw[name]
        if raw is False:
            w.defs_out[name] = w.refuse("false-subschema-unrepresentable", sp)
            continue
        w.defs_out[name] = node(w, raw, sp, (), 1, 1)
