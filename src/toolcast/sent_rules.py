"""What a provider rejects or reads otherwise anywhere in the form sent without strict (policy sent_keywords,
sent_property_schemas, sent_empty, sent_open_objects): the last of toolcast.sendable's passes, each rewrite recorded."""

from __future__ import annotations

from typing import Any

from toolcast.walk.dialect import visit_schema_objects

# A boolean property schema as the schema object that means the same.
_AS_OBJECT = {True: ("{}", dict), False: ('{"not": {}}', lambda: {"not": {}})}


def applies(r: Any) -> bool:
    """Whether the rules state any of the policies this pass applies (else it is never called)."""
    policy = r.policy
    return (bool(r.sent_drop or r.sent_empty) or policy.get("sent_property_schemas") == "objects"
            or policy.get("sent_open_objects") == "explicit")


def sent_rules(sent: dict, r: Any, diags: list, trans: list) -> dict | None:
    """`sent` (changed in place) with every keyword of policy sent_keywords `drop` dropped wherever it
    stands (lossy: it constrained values), and, under sent_property_schemas `objects`, every `true`
    or `false` property schema written as `{}` or `{"not": {}}` (exact); None when a schema holds an
    empty list of policy sent_empty `refuse` (`enum: []`, `anyOf: []`: no value satisfies it, and the
    provider rejects it), the reason in `diags`."""
    objects = r.policy.get("sent_property_schemas") == "objects"
    explicit = r.policy.get("sent_open_objects") == "explicit"
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


class _Unsatisfiable(Exception):
    """A schema object holding an empty list of policy sent_empty `refuse` (reported): no form is sent."""
