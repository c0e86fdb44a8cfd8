"""What a provider rejects or reads otherwise anywhere in the form sent without strict (policy sent_keywords,
sent_property_schemas, sent_empty, sent_open_objects, sent_nullable, pattern_match): the last of
toolcast.sendable's passes, each rewrite recorded."""

from __future__ import annotations

from typing import Any

from toolcast.walk.dialect import visit_schema_objects
from toolcast.walk.regex import _pattern_verdict, whole_string

# A boolean property schema as the schema object that means the same.
_AS_OBJECT = {True: ("{}", dict), False: ('{"not": {}}', lambda: {"not": {}})}


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

    def rewrite(node: dict, place: Any) -> None:  # (a node's subschemas are read after its changes)
        for kw in empty:
            if node.get(kw) == []:
                diags.append((r.patterns["unsatisfiable-schema"], "#", tuple(place) + (kw,),
                              (("value", f"an empty `{kw}`"),)))
                raise _Unsatisfiable
        for kw in [k for k in node if k in drop] if drop else ():  # (in the node's own order)
            del node[kw]
            trans.append((r.changes["dropped-sent-keyword"], "#", tuple(place) + (kw,), f"(`{kw}`, rejected in any form)"))
        if explicit and _open_object(node):
            node["additionalProperties"] = True
            trans.append((r.changes["stated-open-object"], "#", tuple(place) + ("additionalProperties",), ""))
        if nullable and node.get("nullable") is True and _null_typed(node):
            trans.append((r.changes["converted-nullable-to-type-union"], "#", tuple(place) + ("nullable",), ""))
        if whole and type(p := node.get("pattern")) is str and (written := _whole_string(r, p)) != p:
            node["pattern"] = written
            trans.append((r.changes["padded-unanchored-pattern"], "#", tuple(place) + ("pattern",), f"(as `{written}`)"))
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


def _whole_string(r: Any, pattern: str) -> str:
    """`pattern` padded for a whole-string match (walk.regex.whole_string); as it is where it is no
    valid ECMA-262 (the walk reports that)."""
    return pattern if _pattern_verdict(r, pattern)[0] == "invalid" else whole_string(pattern)


class _Unsatisfiable(Exception):
    """A schema object holding an empty list of policy sent_empty `refuse` (reported): no form is sent."""
