"""Combinators: `allOf` merged, `oneOf` turned into `anyOf`, siblings of `$ref` and `anyOf` settled."""

from __future__ import annotations

from typing import Any

from toolcast.walk.budget import SchemaTooLarge
from toolcast.walk.refs import _resolve_raw
from toolcast.walk.semantics import (
    INLINE_GUARD,
    RECURSION_GUARD,
    exclusive,
    json_equal,
    json_intersection,
    nullable_ignored,
    schema_nodes,
    too_deep,
)
from toolcast.walk.siblings import DEPENDS_ON, moved_keyword, no_dependents, same_reading
from toolcast.walk.state import Walk
from toolcast.walk.vacuous import clash, settle_clashes
from toolcast.walk.values import _TYPE_SETS, APPLIES_TO, MISSING, _is_number, _ok_type, describe

# Keywords beside a `$ref` never judged redundant by equality with the target's: their meaning
# is not theirs alone (`nullable` rewrites `type`; nested definitions are handled elsewhere).
_NOT_BY_EQUALITY = frozenset({"$ref", "$defs", "definitions", "nullable"})


# The keywords by which a merged part admits or rejects null (see _part_admits_null).
_NULL_DECIDERS = frozenset({"type", "const", "enum"})
_decides_no_null = _NULL_DECIDERS.isdisjoint  # (bound once: compiled, a call makes no method lookup)


def _part_admits_null(part: dict) -> bool:
    """Whether merge part `part` lets null through its type (a type list with null, or OpenAPI
    `nullable: true` beside a type), its const and its enum."""
    t = part.get("type", MISSING)
    if t is not MISSING and not (t == "null" or (type(t) is list and "null" in t) or part.get("nullable") is True):
        return False
    if "const" in part and part["const"] is not None:
        return False
    enum = part.get("enum")
    return not (isinstance(enum, list) and None not in enum)


def _common_types(a: str | list, b: str | list) -> list:
    """The JSON types both `type` values admit, in `a`'s order (integers are numbers too)."""
    bs = {b} if isinstance(b, str) else set(b)
    out = []
    for t in [a] if isinstance(a, str) else a:
        if t in bs:
            out.append(t)
        elif (t == "integer" and "number" in bs) or (t == "number" and "integer" in bs):
            out.append("integer")
    return list(dict.fromkeys(out))


# -- merging (allOf, $ref siblings, anyOf siblings) ------------------------------------
def _conflict(w: Walk, sp: tuple, k: str) -> None:
    """Report that keyword `k` is given two values that cannot be merged (the merge fails)."""
    w.report("ref-sibling-conflict", sp + (k,), keyword=k)


def _closed_merge(w: Walk, out: dict, parts: list, closed: list, open_schema: Any, named: int, sp: tuple) -> bool:
    """Settle the merged `additionalProperties` of `out` from every part at once (`named` of them
    name properties); False after a conflict (reported)."""
    if closed and named > 1 and "patternProperties" in out and not w.r.dropped("patternProperties"):
        # A closed part allows the names its patterns match too, and another part's property
        # that one matches keeps its own schema: the names alone cannot be intersected.
        w.report("ref-sibling-conflict", sp + ("additionalProperties",), keyword="additionalProperties")
        return False
    if closed:
        # A part that closes the object forbids every property it does not declare,
        # whatever the other parts declare: keep only what every closed part allows.
        allowed = set.intersection(*closed)
        if open_schema is not None and any(isinstance(p, dict) and "properties" in p for p in parts):
            w.report("ref-sibling-conflict", sp + ("additionalProperties",), keyword="additionalProperties")
            return False
        props = out.get("properties")
        if isinstance(props, dict):
            out["properties"] = {k: v for k, v in props.items() if k in allowed}
        out["additionalProperties"] = False
    elif open_schema is not None:
        out["additionalProperties"] = open_schema
    return True


def _inline_budget(w: Walk, target: Any) -> bool:
    """Count the schema nodes of `target`, about to be inlined, against INLINE_GUARD: False past
    it (the schema refused, reported once), before any work of the inlining is done."""
    n = w.n_inlined
    if n > INLINE_GUARD:
        return False
    sizes = w.inline_sizes
    if type(sizes) is not dict:
        sizes = w.inline_sizes = {}
    size = sizes.get(id(target))
    if size is None:
        size = sizes[id(target)] = schema_nodes(target)  # (targets live as long as the walk)
    n = w.n_inlined = n + size
    if n > INLINE_GUARD:
        w.report("inlined-schema-too-large", (), limit=INLINE_GUARD)
        return False
    return True


def _inlines(w: Walk, holder: dict) -> None:
    """Note that the node being normalized inlines the target of `holder`'s `$ref` (see
    descent._inlined)."""
    if type(w.inlined) is not list:
        w.inlined = []
    w.inlined.append(holder)


def _merged_ref(w: Walk, part: dict, sp: tuple, depth: int) -> dict | None:
    """allOf part `part`, which has a `$ref`, as its target merged with its siblings (None after
    a refusal). Annotations beside a `$ref` do not change what its target means: the target
    merged at a place is remembered, and a `$ref` with annotations alone merged there again
    takes it from the memo, its annotations laid over it as a merge lays them."""
    holder = part
    ref = part["$ref"]
    if type(ref) is not str:
        w.report("invalid-keyword-value", sp + ("$ref",), keyword="$ref", value=describe(ref), expected="a string")
        return None
    if ref in w._merging:
        # A schema that is defined as itself (plus more) has no meaning to merge.
        w.report("unsatisfiable-schema", sp + ("$ref",), value=f"{ref} refers to itself without a schema in between")
        return None
    rest = {k: v for k, v in part.items() if k != "$ref"}
    annotations = w.annotations
    plain = True
    for k in rest:
        if k not in annotations:
            plain = False
            break
    if not plain:
        part = _ref_merge(w, ref, rest, sp, depth)
    else:
        # Keyed by the reference and the place's tokens: a place is no longer than the nesting
        # plus the merges it is in, both guarded (NEST_GUARD, RECURSION_GUARD).
        part = w.merged_refs.get((ref, sp))
        if part is None:
            part = _ref_merge(w, ref, {}, sp, depth)
            if part is None:
                return None
            # A merge that succeeded met no $ref already being merged, so it holds wherever
            # this reference is merged again at this place (an allOf that names a definition
            # twice, or a definition that does): the same schema, and the same findings,
            # which repeat.
            if type(w.merged_refs) is not dict:
                w.merged_refs = {}
            w.merged_refs[(ref, sp)] = part
        if rest:
            part = _merge(w, [part, rest], sp, depth + 1)
    if part is not None:
        _inlines(w, holder)
    return part


def _ref_merge(w: Walk, ref: str, rest: dict, sp: tuple, depth: int) -> dict | None:
    """The target of `ref` merged with `rest` (None after a refusal), `ref` guarded meanwhile."""
    target = _resolve_raw(w, ref, sp + ("$ref",))
    if target is MISSING or not _inline_budget(w, target):
        return None
    if type(w._merging) is not set:
        w._merging = set()
    w._merging.add(ref)
    try:
        return _merge(w, [target, rest], sp, depth + 1)
    finally:
        w._merging.discard(ref)


def _merge(w: Walk, parts: list, sp: tuple, depth: int = 0) -> dict | None:
    """allOf semantics as one schema, when no keyword is given two different values. `depth`
    counts the merges this one is nested in (RecursionError past RECURSION_GUARD: unfolding
    definitions can nest without end)."""
    if depth > RECURSION_GUARD:
        raise too_deep()
    w.nodes_left -= 1  # (the node budget, see walk.budget: parts shared in place are merged per path)
    if w.nodes_left < 0:
        raise SchemaTooLarge(sp)
    out: dict = {}
    closed: list[set] = []  # property names each closed part allows
    open_schema = None
    # `properties` and `required` become this merge's own on the first merge into them, then
    # grow in place: copying them for every part would be quadratic in the number of parts.
    own_props = own_req = False
    req_names: set = set()
    typed_nulls: list[bool] = []  # for each part with a type, const or enum: whether it admits null
    dependents: list[dict] = []  # the parts with a keyword that depends on others (walk.siblings)
    named = 0  # the parts that name properties (or patterns of them)
    for part in parts:
        if part is True:
            continue
        part = _merge_part(w, part, sp, depth)
        if part is None:
            return None
        if not no_dependents(part):
            dependents.append(part)
        if "properties" in part or "patternProperties" in part:
            named += 1
        ap = part.get("additionalProperties", MISSING)
        if ap is False:
            props = part.get("properties")
            closed.append(set(props) if isinstance(props, dict) else set())
        elif isinstance(ap, dict) and ap:
            if open_schema is not None and not json_equal(open_schema, ap):
                return _conflict(w, sp, "additionalProperties")
            open_schema = ap
        if not _decides_no_null(part):
            typed_nulls.append(_part_admits_null(part))
        for k, v in part.items():
            if k == "additionalProperties":
                continue  # decided below, from every part at once
            if k not in out:
                out[k] = v
            elif out[k] is v or (out[k] == v and json_equal(out[k], v)):
                continue  # (Python's == first: cheap, and true whenever JSON equality is)
            elif k == "required" and isinstance(v, list) and isinstance(out[k], list):
                had = out[k]
                if not own_req:
                    had = out[k] = list(had)
                    req_names = {x for x in had if type(x) is str}  # a set: both lists may be huge
                    own_req = True
                new = [x for x in v if not (x in req_names if type(x) is str else x in had)]
                had.extend(new)
                req_names.update([x for x in new if type(x) is str])  # (a list: no generator, so compiled _merge is a C method)
            elif k in w.annotations or w.r.dropped(k):
                out[k] = v  # the nearer annotation wins; dropped keywords never matter
            elif k == "properties" and isinstance(v, dict) and isinstance(out[k], dict):
                merged_props = out[k] if own_props else dict(out[k])
                own_props = True
                for pname, pschema in v.items():
                    if pname in merged_props and not json_equal(merged_props[pname], pschema):
                        both = _merge(w, [merged_props[pname], pschema], sp + ("properties", pname), depth + 1)
                        if both is None:
                            return None
                        merged_props[pname] = both
                    else:
                        merged_props[pname] = pschema
                out[k] = merged_props
            elif not _merged_value(w, out, k, v, sp):
                return None
    if typed_nulls and not _merged_null(w, out, typed_nulls, sp):
        return None
    if (w.type_keywords is not None and not settle_clashes(w, out, sp)) or not _closed_merge(
            w, out, parts, closed, open_schema, named, sp):
        return None  # (settle_clashes: policy type_keywords per-type, the clashes the merged type settles)
    for part in dependents:
        if (k := moved_keyword(part, out, w.r.dropped)) is not None:
            return _conflict(w, sp, k)
    return out


def _merge_part(w: Walk, part: Any, sp: tuple, depth: int) -> dict | None:
    """One allOf part as a plain schema to merge: `nullable` settled, its `$ref` resolved, its own
    allOf merged in; None (the finding reported) when it cannot be merged."""
    if not isinstance(part, dict):
        if part is False:
            w.report("unsatisfiable-schema", sp, value="an allOf branch is false")
        else:
            w.report("non-schema-subschema", sp, value=describe(part))
        return None
    if "nullable" in part:
        part = _settled_nullable(w, part, sp)
    if "$ref" in part:
        part = _merged_ref(w, part, sp, depth)
        if part is None:
            return None
    if "allOf" in part and isinstance(part["allOf"], list):
        inner = _merge(w, part["allOf"], sp + ("allOf",), depth + 1)
        if inner is None:
            return None
        part = _merge(w, [{k: v for k, v in part.items() if k != "allOf"}, inner], sp, depth + 1)
    return part


def _merged_value(w: Walk, out: dict, k: str, v: Any, sp: tuple) -> bool:
    """Merge value `v` of keyword `k` into `out`, which holds another (not JSON-equal) value for it,
    keeping what both say; False after a conflict or an unsatisfiable pair (reported)."""
    had = out[k]
    if k == "enum" and isinstance(v, list) and isinstance(had, list):
        out[k] = json_intersection(had, v)  # an empty one is reported where the node is walked
    elif k == "const":
        w.report("unsatisfiable-schema", sp + ("const",),
                    value=f"two different const values ({describe(had)} and {describe(v)})")
        return False
    elif k == "type" and _ok_type(v) and _ok_type(had):
        # What both admit (integer where one says number); with none in common, only null can
        # be left, by `nullable` (settled by _merged_null once every part is in).
        both = _common_types(had, v) or ["null"]
        out[k] = both[0] if len(both) == 1 else both
    elif k == "nullable" and isinstance(v, bool) and isinstance(had, bool):
        out[k] = had and v  # settled from every part's type at the end (_merged_null)
    elif k in ("minimum", "exclusiveMinimum", "minLength", "minItems") and _is_number(v) and _is_number(had):
        out[k] = max(had, v)
    elif k in ("maximum", "exclusiveMaximum", "maxLength", "maxItems") and _is_number(v) and _is_number(had):
        out[k] = min(had, v)
    elif w.type_keywords is not None and k in w.type_keywords:
        out[k] = clash(had, v)  # (policy type_keywords per-type: settled once the merged type is, settle_clashes)
    else:
        _conflict(w, sp, k)
        return False
    return True


def _merged_null(w: Walk, out: dict, typed_nulls: list, sp: tuple) -> bool:
    """Settle whether the merged node admits null from every part that decides it (by its type
    list or OpenAPI `nullable`, its const, its enum): only if all of them do, whichever way each
    says it. False when no value is left (reported)."""
    nullable = out.get("nullable") is True
    admits = all(typed_nulls)
    if nullable and not admits:
        # Some part rejects null: another part's `nullable` cannot widen it (allOf needs both).
        w.report("nullable-without-effect", sp + ("nullable",), value="another allOf part rejects null")
        w.change("dropped-ineffective-nullable", sp + ("nullable",))
        del out["nullable"]
        nullable = False
    t = out.get("type")
    if not _ok_type(t):
        return True  # no type, or an invalid one (reported where the node is walked)
    types = [t] if isinstance(t, str) else t
    kept = [x for x in types if x != "null"]
    if admits and ("null" in types or not nullable):
        kept.append("null")  # (else `nullable: true` says it, as in the parts)
    if not kept:
        w.report("unsatisfiable-schema", sp + ("type",), value="the parts admit no type in common")
        return False
    if kept != types:
        out["type"] = kept[0] if len(kept) == 1 else kept
    return True


def _settled_nullable(w: Walk, s: dict, sp: tuple) -> dict:
    """Schema object `s` without an OpenAPI `nullable: true` that has no effect where it stands
    (semantics.nullable_ignored; reported), read before any merge moves `type` or `$ref` beside
    it; `s` itself when the rules do not rewrite `nullable` or it takes effect."""
    if s.get("nullable") is not True or w.r.keywords.get("nullable", (None, None, None))[2] != "openapi-nullable":
        return s
    why = nullable_ignored(s)
    if not why:
        return s
    w.report("nullable-without-effect", sp + ("nullable",), value=why)
    w.change("dropped-ineffective-nullable", sp + ("nullable",))
    return {k: v for k, v in s.items() if k != "nullable"}


def _normalize(w: Walk, s: dict, sp: tuple, root: bool) -> dict | None:
    """Rewrites that reshape a node before its keywords are read: an ineffective `nullable`,
    allOf, $ref and anyOf siblings, oneOf; None after a refusal."""
    if len(s) == 1 and "$ref" in s:
        return s  # (a `$ref` alone, most of them: nothing beside it to reshape)
    kw = w.r.keywords
    if "nullable" in s:
        s = _settled_nullable(w, s, sp)
    if "allOf" in s and kw.get("allOf", (None, "drop"))[1] == "rewrite" and isinstance(s.get("allOf"), list):
        s = _merged_all_of(w, s, sp)
        if s is None:
            return None
        if "nullable" in s:
            # A part's `nullable` (kept where it took effect) now stands beside the others'
            # keywords: an `enum` without null from another part still rejects null.
            s = _settled_nullable(w, s, sp)
    if "$ref" in s:
        kept = [k for k in s if k != "$ref" and not w.r.dropped(k)]
        if kept:
            s = _ref_siblings(w, s, kept, sp)
            if s is None or "$ref" in s:
                return s  # refused, or left a bare $ref (its target is walked where it is defined)
            # Inlined (or wrapped): the merged node is normalized as any other, below.
    if "const" in s and isinstance(s.get("enum"), list):
        # Both apply (given together, or met in a merge): the only values left are the enum's
        # members equal to the const. Settled before `const` is read, so that no rewrite of it
        # (const -> enum) can take one side's place.
        const = s["const"]
        s = {k: v for k, v in s.items() if k != "const"}
        s["enum"] = [x for x in s["enum"] if json_equal(x, const)]
        w.change("merged-all-of", sp + ("const",), "(const and enum both apply)")
    if (
        "oneOf" in s
        and "anyOf" not in s
        and kw.get("oneOf", (None, "drop"))[2] == "one-of-to-any-of"
        and isinstance(s["oneOf"], list)
        and s["oneOf"]
    ):
        s = _one_of_as_any_of(w, s, sp)
    if "anyOf" in s and not root:
        return _any_of_siblings(w, s, sp)
    return s


def _merged_all_of(w: Walk, s: dict, sp: tuple) -> dict | None:
    """Node `s` with its allOf merged in (as it is when the merge failed without a refusal); None
    after a refusal."""
    if not s["allOf"]:  # (the metaschema asks for one schema at least: no schema may hold an empty one)
        w.report("invalid-keyword-value", sp + ("allOf",), keyword="allOf", value="[]", expected="a non-empty list of schemas")
        return None
    merged = _merge(w, [{k: v for k, v in s.items() if k != "allOf"}] + list(s["allOf"]), sp + ("allOf",))
    if merged is None:
        return None if w.refusals else s
    w.report("all-of-merged", sp + ("allOf",))
    w.change("merged-all-of", sp + ("allOf",))
    return merged


def _ref_siblings(w: Walk, s: dict, kept: list, sp: tuple) -> dict | None:
    """A `$ref` node with kept siblings: wrapped (annotations beside it), left as a bare `$ref`
    (siblings its target implies), or inlined with them merged in; None after a refusal."""
    if all(k in w.annotations for k in kept):
        w.record("ref-with-siblings", sp, (("value", ", ".join(kept)),))
        w.change("wrapped-ref-with-siblings", sp)
        wrapped = {k: v for k, v in s.items() if k != "$ref"}
        wrapped["anyOf"] = [{"$ref": s["$ref"]}]
        return wrapped
    n_trans = len(w.trans)
    target = _resolve_raw(w, s["$ref"], sp + ("$ref",))
    if target is MISSING:
        return None
    implied = _implied_siblings(w, s, kept, target)
    if implied is not None:
        # Every constraining sibling is one the target already implies: the node means
        # {"$ref"} alone, so it is not inlined. What resolving the target recorded is taken
        # back: _ref records it where the $ref ends up.
        del w.trans[n_trans:]
        w.record("ref-with-siblings", sp, (("value", ", ".join(kept)),))
        for k, code, note in implied:
            w.change(code, sp + (k,), note)
        dropped = {k for k, _, _ in implied}
        s = {k: v for k, v in s.items() if k not in dropped}
        if any(k in w.annotations for k in kept):  # as for annotations alone
            w.change("wrapped-ref-with-siblings", sp)
            wrapped = {k: v for k, v in s.items() if k != "$ref"}
            wrapped["anyOf"] = [{"$ref": s["$ref"]}]
            return wrapped
        return s
    if not _inline_budget(w, target):
        return None
    merged = _merge(w, [target, {k: v for k, v in s.items() if k != "$ref"}], sp)
    if merged is None:
        return None
    _inlines(w, s)
    w.record("ref-with-siblings", sp, (("value", ", ".join(kept)),))
    w.change("merged-ref-siblings", sp, f"({s['$ref']})")
    return merged


def _one_of_as_any_of(w: Walk, s: dict, sp: tuple) -> dict:
    """Node `s` with its oneOf as anyOf: reported as exact when the branches are exclusive, else
    as lossy."""
    why = exclusive(s["oneOf"], w)
    if why:
        w.record("one-of-exclusive-converted", sp + ("oneOf",), (("value", why),))
        w.change("converted-exclusive-one-of-to-any-of", sp + ("oneOf",))
    else:
        w.report("one-of-converted-to-any-of", sp + ("oneOf",))
        w.change("converted-one-of-to-any-of", sp + ("oneOf",))
    return {("anyOf" if k == "oneOf" else k): v for k, v in s.items()}


def _any_of_siblings(w: Walk, s: dict, sp: tuple) -> dict | None:
    """Node `s` with the siblings of its anyOf that constrain pushed into every branch
    ({A, anyOf:[B, C]} == anyOf:[A∧B, A∧C]); None after a refusal."""
    r = w.r
    constraining = [k for k in s if k not in ("anyOf", "type") and k not in w.annotations and not r.dropped(k)]
    if "type" in s:
        constraining.insert(0, "type")
    if not constraining or not isinstance(s["anyOf"], list):
        return s
    common = {k: s[k] for k in constraining}
    branches = []
    removed = 0
    for i, b in enumerate(s["anyOf"]):
        if b is False:
            branches.append(False)
            continue
        n_diags, n_trans, refusals = len(w.diags), len(w.trans), w.refusals
        m = _merge(w, [common, b], sp + ("anyOf", i))
        if m is None:
            if not _only_unsatisfiable(w, n_diags):
                return None
            # The branch admits nothing beside its siblings: as a `false` branch, it is left
            # out, and the anyOf means the same (the schema stays satisfiable through the rest).
            del w.diags[n_diags:], w.trans[n_trans:]
            w.refusals = refusals
            w.change("removed-false-subschema", sp + ("anyOf", i), "(it admits nothing the keywords beside the anyOf admit)")
            removed += 1
            continue
        branches.append(m)
    if removed and branches.count(False) == len(branches):  # (dicts never equal False)
        w.report("unsatisfiable-schema", sp + ("anyOf",), value="no anyOf branch admits a value the keywords beside it admit")
        return None
    w.change("merged-all-of", sp + ("anyOf",), "(sibling keywords moved into each anyOf branch)")
    s = {k: v for k, v in s.items() if k not in common}
    s["anyOf"] = branches
    return s


def _only_unsatisfiable(w: Walk, n_diags: int) -> bool:
    """Whether every finding since the first `n_diags` says no value satisfies a schema (and there
    is one)."""
    code = w.codes["unsatisfiable-schema"]
    new = w.diags[n_diags:]
    return bool(new) and all(d[0] == code for d in new)


def _implied_siblings(w: Walk, s: dict, kept: list, target: Any) -> list | None:
    """(keyword, code, note) for each constraining sibling of `$ref` that the target implies.

    None unless every kept sibling that is not an annotation is either redundant (the
    target states it too, with the same meaning) or vacuous (it constrains only instance
    types the target's `type` excludes). Only a target whose `type` is known qualifies.
    """
    if not isinstance(target, dict) or "$ref" in target or "nullable" in target or "nullable" in s:
        return None
    ttype = target.get("type", MISSING)
    if ttype is MISSING or not _ok_type(ttype):
        return None
    ttypes = _TYPE_SETS[ttype] if isinstance(ttype, str) else frozenset(ttype)
    plan = w.plan
    unknown_dropped = w.r.unknown_keyword[0] == "drop"
    found = []
    for k in kept:
        if k in w.annotations:
            continue
        if k not in w.r.keywords and unknown_dropped:
            continue  # not JSON Schema (`kept` counts it): the walk drops it, it constrains nothing
        v = s[k]
        p = plan.get(k)
        if p is None or (type(v) is not p[1] and p[2] is not None and not p[2](v)):
            return None  # an invalid value is reported by the merge, as before
        applies = APPLIES_TO.get(k)
        if applies is not None and applies.isdisjoint(ttypes):
            found.append((k, "dropped-vacuous-ref-sibling",
                          f"(applies only to {' and '.join(sorted(applies))} values; the target's type is "
                          f"{' or '.join(sorted(ttypes))})"))
        elif _restated(k, v, s, target):
            found.append((k, "dropped-redundant-ref-sibling", "(the target states the same)"))
        else:
            return None
    return found or None


def _restated(k: str, v: Any, s: dict, target: dict) -> bool:
    """Whether sibling `k: v` of a `$ref` adds nothing to `target` (which states `k` too)."""
    tv = target.get(k, MISSING)
    if tv is MISSING or k in _NOT_BY_EQUALITY:
        return False
    if k == "type":
        return set([v] if isinstance(v, str) else v) == set([tv] if isinstance(tv, str) else tv)
    if k == "required":
        return isinstance(tv, list) and all(isinstance(x, str) for x in tv) and set(v) <= set(tv)
    if k == "items" and (isinstance(v, list) or isinstance(tv, list)):
        return False
    for c in DEPENDS_ON.get(k, ()):
        # Its meaning depends on keywords beside it (walk.siblings): the same reading of them only.
        if not same_reading(c, s.get(c, MISSING), target.get(c, MISSING)):
            return False
    return json_equal(v, tv)
