"""What a provider rejects or reads otherwise anywhere in the form sent without strict (policy sent_keywords,
sent_property_schemas, sent_empty, sent_open_objects, sent_nullable, pattern_match): the last of
toolcast.sendable's passes, each rewrite recorded."""

from __future__ import annotations

from typing import Any

from toolcast.sent_merge import pointer_target, says_nothing
from toolcast.walk.dialect import schema_nodes, visit_schema_objects
from toolcast.walk.regex import _pattern_verdict, whole_string
from toolcast.walk.semantics import json_equal
from toolcast.walk.values import ref_pointer

# A boolean property schema as the schema object that means the same.
_AS_OBJECT = {True: ("{}", dict), False: ('{"not": {}}', lambda: {"not": {}})}
# The applicators whose subschemas' evaluated keys an `unevaluatedProperties` beside them reads (2020-12
# §11.3; `not` passes none on), and the references read the same way.
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("if", "then", "else")
_REFS = ("$ref", "$dynamicRef", "$recursiveRef")


def applies(r: Any) -> bool:
    """Whether the rules state any of the policies this pass applies (else it is never called)."""
    policy = r.policy
    return (bool(r.sent_drop or r.sent_empty) or policy.get("sent_property_schemas") == "objects"
            or policy.get("sent_open_objects") == "explicit" or policy.get("sent_nullable") == "type-union"
            or policy.get("pattern_match") == "whole-string")


def sent_rules(sent: dict, r: Any, diags: list, trans: list) -> dict | None:
    """`sent` (changed in place) with every keyword of policy sent_keywords `drop` dropped wherever it
    stands (lossy: it constrained values), and, under sent_property_schemas `objects`, every `true`
    or `false` property schema written as `{}` or `{"not": {}}` (exact); None when a schema holds an
    empty list of policy sent_empty `refuse` (`enum: []`, `anyOf: []`: no value satisfies it, and the
    provider rejects it), the reason in `diags`. Under sent_open_objects `explicit`, an object that
    says nothing of other keys states them open; under sent_nullable `type-union`, OpenAPI's
    `nullable: true` beside a `type` is written as null in that type (where no `$schema` is declared,
    as toolcast reads it); under pattern_match `whole-string`, each valid `pattern` is padded as the
    strict form's is (walk.regex.whole_string). All exact."""
    objects = r.policy.get("sent_property_schemas") == "objects"
    explicit = r.policy.get("sent_open_objects") == "explicit"
    nullable = r.policy.get("sent_nullable") == "type-union" and "$schema" not in sent
    whole = r.policy.get("pattern_match") == "whole-string"
    drop, empty = r.sent_drop, r.sent_empty
    read = _read_by_unevaluated(sent) if explicit else set()

    def rewrite(node: dict, place: Any) -> None:  # (a node's subschemas are read after its changes)
        for kw in empty:
            if node.get(kw) == []:
                diags.append((r.patterns["unsatisfiable-schema"], "#", tuple(place) + (kw,),
                              (("value", f"an empty `{kw}`"),)))
                raise _Unsatisfiable
        if drop:
            partners = _partners(node, drop)
            for kw in [k for k in node if k in drop]:  # (in the node's own order)
                del node[kw]
                trans.append((r.changes["dropped-sent-keyword"], "#", tuple(place) + (kw,), f"(`{kw}`, rejected in any form)"))
            for kw, why in partners:  # (what the dropped keyword limited: it would now say more than the tool)
                del node[kw]
                trans.append((r.changes["dropped-sent-keyword"], "#", tuple(place) + (kw,), f"({why})"))
        if explicit and _open_object(node):
            if id(node) in read:  # (stated open, it would void the unevaluatedProperties that reads it)
                trans.append((r.changes["kept-object-unstated"], "#", tuple(place), ""))
            else:
                node["additionalProperties"] = True
                trans.append((r.changes["stated-open-object"], "#", tuple(place) + ("additionalProperties",), ""))
        if nullable and node.get("nullable") is True and _null_typed(node):
            trans.append((r.changes["converted-nullable-to-type-union"], "#", tuple(place) + ("nullable",), ""))
        if whole and type(p := node.get("pattern")) is str and (written := _whole_string(r, p)) != p:
            node["pattern"] = written
            trans.append((r.changes["padded-unanchored-pattern"], "#", tuple(place) + ("pattern",), f"(as `{written}`)"))
        if whole and type(pp := node.get("patternProperties")) is dict:
            node["patternProperties"] = _padded_names(r, pp, tuple(place), trans)
        props = node.get("properties") if objects else None
        if type(props) is dict:
            for name, s in list(props.items()):
                if s is True or s is False:
                    written, make = _AS_OBJECT[s]
                    props[name] = make()
                    trans.append((r.changes["wrote-boolean-property-schema"], "#", tuple(place) + ("properties", name),
                                  f"(`{str(s).lower()}` as `{written}`)"))

    try:
        visit_schema_objects(sent, rewrite)
    except _Unsatisfiable:
        return None
    return sent


def _open_object(node: dict) -> bool:
    """Whether schema object `node` admits objects and says nothing of their other keys (policy
    sent_open_objects): no `additionalProperties`, and no `unevaluatedProperties`, which one would
    make vacuous."""
    if "additionalProperties" in node or "unevaluatedProperties" in node or "$ref" in node:
        return False
    t = node.get("type")
    if t is None:
        return "properties" in node or "patternProperties" in node
    return t == "object" or (type(t) is list and "object" in t)


def _null_typed(node: dict) -> bool:
    """Whether `node`'s `nullable: true` was written as null in its `type` (then left out): only
    beside a type, as toolcast reads it (without one, or with null in it, it adds nothing)."""
    t = node.get("type")
    if type(t) is str and t != "null":
        node["type"] = [t, "null"]
    elif type(t) is list and "null" not in t:
        node["type"] = [*t, "null"]
    else:
        return False
    del node["nullable"]
    return True


def _padded_names(r: Any, patterns: dict, place: tuple, trans: list) -> dict:
    """`patternProperties` with each name pattern padded as `pattern` is (policy pattern_match
    whole-string), in its order; one whose padded form another name already spells stays as written."""
    out: dict = {}
    for key, sub in patterns.items():
        written = _whole_string(r, key) if type(key) is str else key
        if written != key and (written in patterns or written in out):
            written = key
        if written != key:
            trans.append((r.changes["padded-unanchored-pattern"], "#", place + ("patternProperties", key),
                          f"(the name pattern as `{written}`)"))
        out[written] = sub
    return out


def _whole_string(r: Any, pattern: str) -> str:
    """`pattern` padded for a whole-string match (walk.regex.whole_string); as it is where it is no
    valid ECMA-262 (the walk reports that)."""
    return pattern if _pattern_verdict(r, pattern)[0] == "invalid" else whole_string(pattern)


def _partners(node: dict, drop: tuple) -> list[tuple[str, str]]:
    """(keyword, why) of each keyword of `node` kept by policy sent_keywords whose meaning a dropped one
    limits (walk.partners' rule, on the form sent without strict): kept alone it would say more than the
    tool does, narrowing it, so it goes too (a widening, or nothing where the pair was vacuous)."""
    out = []
    mc = node.get("minContains")
    if "minContains" in drop and type(mc) in (int, float) and mc == 0 and "contains" in node:
        # (`minContains: 0` lets `contains` match nothing; alone, `contains` asks for a match)
        out += [(k, "`minContains: 0` lets `contains` match nothing") for k in ("contains", "maxContains")
                if k in node and k not in drop]
        if "unevaluatedItems" in node and not says_nothing(node["unevaluatedItems"]) and "unevaluatedItems" not in drop:
            # (it read the items `contains` matched as evaluated: left alone, it would reject them)
            out.append(("unevaluatedItems", "it read the items `contains` evaluated"))
    if "prefixItems" in drop and "prefixItems" in node and "items" in node and "items" not in drop:
        items, prefix = node["items"], node["prefixItems"]
        if not (says_nothing(items) or (type(prefix) is list and all(json_equal(p, items) for p in prefix))):
            out.append(("items", "`items` applies only after `prefixItems`"))
    ap = node.get("additionalProperties", True)
    if ("patternProperties" in drop and node.get("patternProperties") and not says_nothing(ap)
            and "additionalProperties" not in drop):
        out.append(("additionalProperties", "it would reject the keys `patternProperties` admitted"))
    return out


def _read_by_unevaluated(sent: dict) -> set:
    """The ids of the schema objects whose evaluated keys an `unevaluatedProperties` that says something
    reads: those reached from its schema object through in-place applicators and references (a
    definition reached from such a place is one of them, wherever else it is used). Stated open, each
    would mark every key evaluated and make that `unevaluatedProperties` vacuous (a widening)."""
    read: set = set()
    todo = [node for _, node in schema_nodes(sent)
            if "unevaluatedProperties" in node and not says_nothing(node["unevaluatedProperties"])]
    anchors: dict | None = None
    while todo:
        node = todo.pop()
        below = [s for k in _IN_PLACE_LISTS if type(node.get(k)) is list for s in node[k]]
        below += [node[k] for k in _IN_PLACE_ONE if k in node]
        if type(node.get("dependentSchemas")) is dict:
            below += node["dependentSchemas"].values()
        for k in _REFS:
            if type(node.get(k)) is str:
                if anchors is None and "/" not in node[k]:
                    anchors = _anchors(sent)
                below.append(_resolved(sent, node[k], anchors))
        for s in below:
            if type(s) is dict and id(s) not in read:
                read.add(id(s))
                todo.append(s)
    return read


def _resolved(root: dict, ref: str, anchors: dict | None) -> object:
    """The schema object a same-document reference names in `root` (a JSON pointer or a plain-name
    anchor), or None."""
    if ref[:1] == "#" and ref_pointer(ref) is None:
        return (anchors or {}).get(ref[1:])
    return pointer_target(root, ref)


def _anchors(sent: dict) -> dict:
    """Plain-name anchor -> the schema object that declares it (`$anchor`, `$dynamicAnchor`)."""
    return {node[k]: node for _, node in schema_nodes(sent) for k in ("$anchor", "$dynamicAnchor")
            if type(node.get(k)) is str}


class _Unsatisfiable(Exception):
    """A schema object holding an empty list of policy sent_empty `refuse` (reported): no form is sent."""
