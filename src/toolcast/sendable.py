"""The schema a tool is sent with without strict: its original with the fewest rewrites its provider's acceptance rules (policy sent_*) require, each recorded."""

from __future__ import annotations

from typing import Any

from toolcast import sent_rules
from toolcast.sent_dialect import as_2020_12, moved_below, needs_2020_terms
from toolcast.sent_enums import typed_enums
from toolcast.sent_merge import (
    conjoined,
    merge_all_of,
    merge_union,
    no_common_type,
    pointer_target,
    reads_across,
    says_nothing,
)
from toolcast.sent_refs import local_references
from toolcast.walk.actions import CONSTRAINING
from toolcast.walk.dialect import SCHEMA_SLOTS, dialect_of, nodes_with, visit_schema_objects
from toolcast.walk.dialect import schema_nodes as _nodes
from toolcast.walk.values import describe, ref_pointer

_DEFS = ("$defs", "definitions")
# Draft-04's boolean bounds: the flag and the bound it makes exclusive.
_BOUNDS = (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum"))
# The walk's own guard on references followed in a row (a chain of pure $refs).
_DEREF_GUARD = 64
# The keywords that read the results of every applicator beside them.
_UNEVALUATED = ("unevaluatedProperties", "unevaluatedItems")


def _is_null(s: Any) -> bool:
    """Whether `s` admits null alone (a branch a root read as an object leaves out)."""
    if type(s) is not dict:
        return False
    keys = [k for k in s if k in CONSTRAINING]
    if keys == ["type"]:
        return s["type"] == "null" or s["type"] == ["null"]
    if keys == ["enum"]:
        return s["enum"] == [None]
    return keys == ["const"] and s["const"] is None


def object_root(schema: Any, r: Any, trans: list) -> Any:
    """`schema` with a root that also admits null (`nullable`, `["object", "null"]`, a null branch
    of an anyOf/oneOf) read as the object alone, in every form (a tool's arguments are an object):
    a narrowing, recorded. The input is never changed; the same schema comes back when nothing is."""
    if type(schema) is not dict or r.policy.get("root_type") != "object":
        return schema
    if "$ref" in schema:
        schema = _object_ref_root(schema, r, trans)
    t = schema.get("type")
    if t == ["object"]:  # (the same type, written as every provider reads it: exact)
        schema = {**schema, "type": "object"}
    nullable = schema.get("nullable") is True and "$schema" not in schema  # (OpenAPI's, where no dialect is declared)
    unions = [k for k in ("anyOf", "oneOf") if type(schema.get(k)) is list and len(schema[k]) > 1
              and any(map(_is_null, schema[k])) and not all(map(_is_null, schema[k]))]
    null_type = type(t) is list and "null" in t and "object" in t and len(t) == 2
    if not null_type and not nullable and not unions:
        return schema
    out = dict(schema)
    change = r.changes["narrowed-root-to-object"]
    if null_type:  # (another type beside object is no argument either, but not a null: left to the walk)
        out["type"] = "object"
        trans.append((change, "#", ("type",), f"(was {describe(t)})"))
    if nullable:
        del out["nullable"]
        trans.append((change, "#", ("nullable",), "(nullable: true)"))
    for key in unions:
        kept = [b for b in out[key] if not _is_null(b)]
        trans.append((change, "#", (key,), "(its null branch left out)"))
        branch = kept[0]
        rest = {k: v for k, v in out.items() if k != key}
        if len(kept) == 1 and type(branch) is dict and not (set(branch) & {k for k in rest if k in CONSTRAINING}):
            # One branch left: the root is that branch (its annotations under the root's own).
            out = {**branch, **rest}
        else:
            out[key] = kept
    return out


def _object_ref_root(schema: dict, r: Any, trans: list) -> dict:
    """`schema`, a root `$ref` to a definition that object_root would read otherwise (one that also
    admits null, or a `type: ["object"]`), with that definition inlined at the root (exact, recorded),
    so that object_root reads it; else `schema` itself."""
    target = _deref(schema, {"$ref": schema["$ref"]})
    if type(target) is not dict or target is schema or "$ref" in target or _bases(target):
        return schema
    body = {k: v for k, v in target.items() if k not in _DEFS and k != "$schema"}
    if object_root(body, r, []) is body:
        return schema
    ignored: list = []  # (recorded only where the root is inlined)
    inlined, inexact = conjoined(body, _beside_root_ref(schema, r, ignored))
    if inexact:  # (the root's keywords and its definition's not one schema side by side: left to the walk's merge)
        return schema
    trans.extend(ignored)
    trans.append((r.changes["inlined-reference"], "#", ("$ref",), "(the root's definition, at the root)"))
    return inlined


def sendable(sent: dict, r: Any, diags: list, trans: list, seen: Any = None, bundled: Any = None) -> dict | None:
    """`sent` (the compile's own copy of the original, changed in place) made acceptable to the
    provider without strict, each rewrite recorded in `trans` (a lossy one where it widens); None
    when no acceptable form exists (the reason in `diags`). `seen` (sent_copy.Seen, from the copy):
    the passes whose keys occur nowhere in `sent` are skipped (None: every pass runs). `bundled`:
    the walk's bundle of the document `sent` is a copy of (Walk.bundled), or None."""
    policy = r.policy
    declared = dialect_of(sent["$schema"]) if "$schema" in sent else "2020-12"
    changed = False  # (whether a pass below changes the copy: the walk's bundle is then not of it)
    if needs_2020_terms(sent, declared, seen, policy.get("sent_metaschema") == "2020-12"):  # (then the whole body, and what it declares: 2020-12)
        sent = as_2020_12(sent, declared, r, trans, seen)
        declared = "2020-12"  # (what the copy's pass found kept true of it: sent_dialect.as_2020_12)
        changed = True
    # (what draft-04's flags mean; another dialect's are invalid)
    if ("$schema" not in sent or declared == "draft-04") and (seen is None or seen.bounds):
        numeric_bounds(sent, r, trans)  # (no slot changes: every schema object stays where it was)
        changed = True
    if seen is None or seen.tuples:
        _tuple_items(sent, r, trans, seen)
        changed = True
    if policy.get("sent_references") == "local":
        # (the copy's references, kept true of it by the passes above, or None)
        places = seen.ref_places if seen is not None else None
        sent = local_references(sent, r, diags, trans, declared, seen, places, None if changed else bundled)
        if sent is None:
            return None
    if r.sent_root_keywords:
        sent = _lift_root(sent, r, diags, trans)
        if sent is None:
            return None
    if ("nullable" in sent or "enum" in sent) and policy.get("root_type") == "object":
        _root_null_left_out(sent, r, trans)
    if policy.get("sent_enum_values") == "typed":  # (before the passes that move an anyOf it writes)
        typed_enums(sent, r, trans)
    if policy.get("sent_ref_siblings") == "dollar-only":
        _ref_siblings(sent, r, trans)
    if policy.get("sent_recursion") == "non-required-properties":
        _recursion(sent, r, trans)
    if policy.get("sent_any_of") == "alone":
        _any_of_alone(sent, r, trans)
    if sent_rules.applies(r):  # (keywords rejected anywhere, boolean property schemas, empty lists)
        return sent_rules.sent_rules(sent, r, diags, trans)
    return sent


def _root_null_left_out(sent: dict, r: Any, trans: list) -> None:
    """What the root of the form sent still says of null, left out (exact): a `nullable: true` of a
    declared dialect, which does not define it (object_root reads OpenAPI's where none is declared),
    and null among the members of a root `enum` beside objects (root_not_object refused one with no
    object). A tool's arguments are an object: no provider's reader of the root should find null there."""
    change = r.changes["narrowed-root-to-object"]
    if sent.get("nullable") is True:
        del sent["nullable"]
        trans.append((change, "#", ("nullable",), "(nullable: true, which the declared dialect does not define)"))
    enum = sent.get("enum")
    if type(enum) is list and any(v is None for v in enum):
        sent["enum"] = [v for v in enum if v is not None]
        trans.append((change, "#", ("enum",), "(the null among its values left out)"))


def property_names(schema: Any):
    """(place, name) of every property `schema` names, in every subschema, in document order."""
    for place, node in _nodes(schema):
        props = node.get("properties")
        if type(props) is dict:
            yield from ((place + ("properties", name), name) for name in props)


def numeric_bounds(sent: Any, r: Any, trans: list) -> Any:
    """Draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum` written as 2020-12's numbers (exact):
    `minimum: m` with the flag true is `exclusiveMinimum: m`; a false flag, or one without its bound,
    says nothing."""
    for place, node in _nodes(sent):
        for flag, bound in _BOUNDS:
            if type(node.get(flag)) is not bool:
                continue
            if node[flag] and bound in node and type(node[bound]) in (int, float):
                node[flag] = node.pop(bound)
                became = f"`{flag}: {describe(node[flag])}`"
            else:
                del node[flag]
                became = "nothing: a false flag, or one without its bound"
            trans.append((r.changes["converted-dialect-keyword"], "#", place + (flag,), f"(a draft-04 boolean: {became})"))
    return sent


def _tuple_items(sent: dict, r: Any, trans: list, seen: Any = None) -> None:
    """An `items` list (the tuple form before 2020-12, which 2020-12 reads as no schema) written as
    2020-12 writes it: `prefixItems`, and `additionalItems` as `items` (exact). `seen`: the copy's
    (sent_copy.Seen), whose schema objects with an `items` list are those looked at (when known),
    and whose places are kept true of `sent` (moved_below)."""
    known = seen.tuple_places if seen is not None else None
    found = nodes_with(sent, "items", list) if known is None else [e for e in known if type(e[1].get("items")) is list]
    moved = []
    for place, node in found:
        node["prefixItems"] = node.pop("items")
        moved.append(place + ("items",))
        if "additionalItems" in node:
            node["items"] = node.pop("additionalItems")
            moved.append(place + ("additionalItems",))
        trans.append((r.changes["converted-dialect-keyword"], "#", place + ("items",),
                      "(the tuple form of `items`: `prefixItems`, and `additionalItems` as `items`)"))
    if seen is not None:
        moved_below(seen, moved)


def _deref(root: dict, s: Any) -> Any:
    """`s` with a chain of same-document `$ref`s followed (annotations beside them aside); a link
    that says more beside its `$ref` (a constraint both must meet) is where it stops."""
    for _ in range(_DEREF_GUARD):
        if type(s) is not dict or "$ref" not in s:
            return s
        if s is not root and any(k in CONSTRAINING and k != "$ref" for k in s):
            return s
        target = pointer_target(root, s["$ref"])
        if target is None or target is root:
            return s
        s = target
    return s


def _bases(s: dict) -> bool:
    """Whether schema `s` names a base URI of its own (`$id`, draft-04's `id`): inlined elsewhere,
    it would move the base its references are read against."""
    return type(s.get("$id")) is str or (type(s.get("id")) is str and not s["id"].startswith("#"))


def _beside_root_ref(schema: dict, r: Any, trans: list) -> dict:
    """The root's keywords beside its `$ref`, as its dialect reads them: before 2019-09 a `$ref`'s
    siblings are ignored, so a constraint among them is left out (exactly, recorded), not merged."""
    rest = {k: v for k, v in schema.items() if k != "$ref"}
    declared = dialect_of(schema["$schema"]) if "$schema" in schema else None
    if declared not in ("draft-04", "draft-06", "draft-07"):
        return rest
    for k in [k for k in rest if k in CONSTRAINING]:
        del rest[k]
        trans.append((r.changes["converted-dialect-keyword"], "#", (k,), f"(`{k}` beside `$ref`, which {declared} ignores: dropped)"))
    return rest


def _object_like(s: Any) -> bool:
    """Whether `s` admits objects (a branch of the root worth lifting)."""
    if s is True:
        return True
    if type(s) is not dict:
        return False
    t = s.get("type")
    return t is None or t == "object" or (type(t) is list and "object" in t)


def _lift_root(sent: dict, r: Any, diags: list, trans: list) -> dict | None:
    """The root rid of the keywords its provider refuses there (policy sent_root_keywords): a
    `$ref` to a definition is inlined (exact), an anyOf/oneOf becomes one object holding the union
    of its branches' properties (lossy), an allOf is merged (its parts' other keywords dropped,
    lossy), the rest are dropped (lossy). None when no branch admits an object."""
    if sent.get("$ref") == "#":  # (the root itself, beside itself: it says nothing more)
        del sent["$ref"]
        trans.append((r.changes["cut-recursive-reference"], "#", ("$ref",), "(the root's `$ref` to itself)"))
    if type(sent.get("$ref")) is str and set(r.sent_root_keywords) & {"anyOf", "oneOf", "allOf"}:
        target = _deref(sent, {"$ref": sent["$ref"]})
        if type(target) is dict and target is not sent and "$ref" not in target and not _bases(target):
            body, rest = {k: v for k, v in target.items() if k not in _DEFS}, _beside_root_ref(sent, r, trans)
            if no_common_type(body, rest):  # (the root's type and its definition's: no value is both)
                diags.append((r.patterns["unsatisfiable-schema"], "#", ("type",),
                              (("value", f"{describe(rest['type'])} beside a `$ref` to {describe(body['type'])}"),)))
                return None
            sent, inexact = conjoined(body, rest)
            sent = object_root(sent, r, trans)  # (the definition's root type, as a root is read)
            trans.append((r.changes["inlined-reference"], "#", ("$ref",), "(the root's definition, at the root)"))
            # (both say it, or one reads the other's beside it: the root's value is sent, the definition's lost)
            trans.extend((r.changes["dropped-root-keyword"], "#", ("$ref",), f"(`{k}`: the root's keywords and its definition's are not one schema side by side)")
                         for k in inexact)
    for key in r.sent_root_keywords:
        if key not in sent:
            continue
        v = sent.pop(key)
        if key in ("anyOf", "oneOf", "allOf") and type(v) is list and v:
            parts = [_deref(sent, b) for b in v]
            objects = [p for p in parts if _object_like(p)]
            if (key == "allOf" and len(objects) < len(parts)) or not objects:
                diags.append((r.patterns["root-schema-not-object"], "#", (key,),
                              (("value", f"{key} with no branch that admits an object"),)))
                return None
            if key == "allOf":
                merge_all_of(sent, objects, r, trans)
            else:
                merge_union(sent, key, objects, len(parts), r, trans)
        else:
            trans.append((r.changes["dropped-root-keyword"], "#", (key,), f"(`{key}` at the root)"))
    return sent  # (a root without `type` gains it as it is sent: compile._typed_root)


def _ref_siblings(sent: dict, r: Any, trans: list) -> None:
    """Nothing but `$` keywords beside a `$ref` (policy sent_ref_siblings dollar-only): an annotation
    is dropped (it constrains nothing), a constraining keyword moves with the `$ref` into an allOf
    (exact)."""
    for place, node in nodes_with(sent, "$ref", str):
        if not place:  # (the root's: _lift_root, allOf refused there)
            continue
        others = [k for k in node if not (type(k) is str and k.startswith("$"))]
        if not others:
            continue
        parted = [k for k in _UNEVALUATED if k in node and not says_nothing(node[k])]
        constraining = {k: node[k] for k in others if k in CONSTRAINING and k not in parted}
        for k in others:
            if k in parted:  # (it read what the `$ref` evaluated: in its own allOf part, nothing)
                del node[k]
                trans.append((r.changes["dropped-unevaluated-keyword"], "#", place + (k,), "(beside `$ref`)"))
            elif k not in constraining:
                del node[k]
                trans.append((r.changes["dropped-ref-sibling-annotation"], "#", place + (k,), f"(`{k}` beside `$ref`)"))
        if constraining:
            ref = {k: v for k, v in node.items() if k.startswith("$") and k not in _DEFS}
            for k in list(node):
                if k not in _DEFS:
                    del node[k]
            node["allOf"] = [ref, constraining]
            trans.append((r.changes["wrapped-ref-siblings-in-all-of"], "#", place + ("$ref",),
                          f"(beside {', '.join(f'`{k}`' for k in constraining)})"))


def _nodes_and_steps(schema: Any):
    """(place, node, the properties stepped into since its definition began, as (object place, name))
    of every schema object of `schema`, in document order (its slots: SCHEMA_SLOTS)."""
    stack: list = [((), schema, ())]
    while stack:
        place, node, steps = stack.pop()
        if type(node) is not dict:
            continue
        yield place, node, steps
        subs: list = []
        for key, v in node.items():
            kind = SCHEMA_SLOTS.get(key) if type(key) is str else None
            if kind == "map" and type(v) is dict:
                if key in _DEFS and not place:  # a root definition starts afresh
                    subs.extend(((key, n), x, ()) for n, x in v.items())
                elif key == "properties":
                    subs.extend((place + (key, n), x, (*steps, (place, n))) for n, x in v.items())
                else:
                    subs.extend((place + (key, n), x, steps) for n, x in v.items())
            elif kind in ("list", "schema-or-list") and type(v) is list:
                subs.extend((place + (key, i), x, steps) for i, x in enumerate(v))
            elif kind is not None:
                subs.append((place + (key,), v, steps))
        stack.extend(reversed(subs))


def _unit(tokens: tuple) -> tuple:
    """The definition (or the root, `()`) a place belongs to."""
    return tokens[:2] if len(tokens) >= 2 and tokens[0] in _DEFS else ()


def _recursion(sent: dict, r: Any, trans: list) -> None:
    """Recursion only through properties its objects do not require (policy sent_recursion
    non-required-properties: "may only be used within non-required properties"): each required
    property on a cycle of references is made optional (lossy); a cycle with no property on it
    loses a `$ref` (lossy: it then admits any value there)."""
    edges = []  # (from unit, to unit, place of the $ref, [(object place, property)])
    for place, node, steps in _nodes_and_steps(sent):
        ref = node.get("$ref")
        if type(ref) is not str or ref[:1] != "#":
            continue
        tokens = ref_pointer(ref)
        if tokens is None:
            continue
        edges.append((_unit(place), _unit(tuple(tokens)), place, steps))
    if not edges:
        return
    on_cycle = _cycle_edges(edges)
    for e in on_cycle:
        for obj_place, name in e[3]:
            obj = _at(sent, obj_place)
            req = obj.get("required") if type(obj) is dict else None
            if type(req) is list and name in req:
                obj["required"] = [n for n in req if n != name]
                trans.append((r.changes["made-recursive-property-optional"], "#", obj_place + ("properties", name),
                              f"(`{name}` lies on a cycle of references)"))
    left = _cycle_edges([e for e in on_cycle if not e[3]])
    while left:  # one `$ref` cut a cycle, the first in document order, until none is left
        e = left[0]
        node = _at(sent, e[2])
        if type(node) is dict and "$ref" in node:
            del node["$ref"]
            trans.append((r.changes["cut-recursive-reference"], "#", e[2] + ("$ref",), "(a cycle through no property)"))
        left = _cycle_edges(left[1:])


def _cycle_edges(edges: list) -> list:
    """The edges that lie on a cycle of the graph they make: those whose two ends are in one
    strongly connected component (a loop from a unit to itself among them), in their order."""
    succ: dict = {}
    for e in edges:
        succ.setdefault(e[0], []).append(e[1])
    component = _components(succ)
    return [e for e in edges if component[e[0]] == component.get(e[1])]


def _components(succ: dict) -> dict:
    """Each unit of the graph `succ` (unit -> the units it refers to) -> its strongly connected
    component's number (Tarjan's algorithm, without recursion: a deep chain of definitions cannot
    exhaust the stack)."""
    index: dict = {}
    low: dict = {}
    component: dict = {}
    stack: list = []
    on_stack: set = set()
    for root in succ:
        if root in index:
            continue
        work = [(root, iter(succ.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            unit, targets = work[-1]
            for t in targets:
                if t not in index:
                    index[t] = low[t] = len(index)
                    stack.append(t)
                    on_stack.add(t)
                    work.append((t, iter(succ.get(t, ()))))
                    break
                if t in on_stack:
                    low[unit] = min(low[unit], index[t])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[unit])
                if low[unit] == index[unit]:
                    while True:
                        t = stack.pop()
                        on_stack.discard(t)
                        component[t] = index[unit]
                        if t == unit:
                            break
    return component


def _at(root: Any, place: tuple) -> Any:
    node = root
    for t in place:
        node = node[t]
    return node


def _any_of_alone(sent: dict, r: Any, trans: list) -> None:
    """`anyOf` (and each keyword the rules read as it: Rules.sent_alone) the only keyword of its schema
    (policy sent_any_of alone): its siblings move into every branch (exact, for oneOf too: a sibling
    holds or fails in every branch alike). A schema holding two of them keeps the first, the other
    moving into its branches, which are then settled in turn."""
    alone = r.sent_alone
    found: list = []

    def holds(node: dict, path: list) -> None:
        if any(type(node.get(k)) is list for k in alone):
            found.append((tuple(path), node))

    again = True
    while again:  # (a second round only where a schema held two of them)
        found.clear()
        visit_schema_objects(sent, holds)
        again = False
        for place, node in reversed(found):  # (inner ones first: a branch copied below is settled)
            again = _alone_node(place, node, alone, r, trans) or again


def _alone_node(place: tuple, node: dict, alone: tuple, r: Any, trans: list) -> bool:
    """`node`'s siblings of its first `alone` keyword moved into that keyword's branches; whether a
    branch now holds another of them beside more keywords (to settle next)."""
    key = next((k for k in alone if type(node.get(k)) is list), None)
    if key is None:
        return False
    branches = node[key]
    others = {k: v for k, v in node.items() if k != key and k not in _DEFS}
    if not others:
        return False
    constraining = {k: v for k, v in others.items() if k in CONSTRAINING}
    notes = {k: v for k, v in others.items() if k not in CONSTRAINING}
    # (an unevaluated* beside the combinator read what its branches evaluated: in a branch, or beside
    # it in an allOf, it reads less; where a branch evaluates anything, it is left out, lossy)
    for k in _UNEVALUATED:
        if (k in constraining and not says_nothing(constraining[k])
                and any(type(b) is dict and any(x in CONSTRAINING for x in b) for b in branches)):
            del constraining[k]
            trans.append((r.changes["dropped-unevaluated-keyword"], "#", place + (k,), f"(beside `{key}`)"))
    new = []
    for b in branches:
        if b is True:
            b = {}
        if type(b) is dict:
            b = dict(b)
            if constraining:
                # (side by side only where neither reads the other's keywords: else both in an allOf)
                if _held(b, alone) or set(b) & set(constraining) or reads_across(b, constraining):
                    b = {"allOf": [b, dict(constraining)]}
                else:
                    b.update(constraining)
            if "$ref" not in b and not any(k in b and k not in constraining for k in alone):  # (else settled next)
                for k, v in notes.items():
                    b.setdefault(k, v)
        new.append(b)
    for k in others:
        del node[k]
    node[key] = new
    read_as = "" if key == "anyOf" else f"; `{key}` is read as `anyOf`"
    trans.append((r.changes["moved-any-of-siblings-into-branches"], "#", place + (key,),
                  f"({', '.join(f'`{k}`' for k in others)}{read_as})"))
    return any(k in constraining for k in alone)


def _held(b: dict, alone: tuple) -> bool:
    """Whether branch `b` holds what takes no sibling (`$ref`, a combinator held alone)."""
    return "$ref" in b or any(k in b for k in alone)
