"""Objects the walk does not close (policy objects `unlisted`: no `additionalProperties` field; `open`: kept as written): what each costs."""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from toolcast.walk.values import MISSING

_first = itemgetter(0)


def unlisted_object_rules(walk: Any, s: dict, props: dict, sp: tuple, root: bool) -> Any:
    """containers._object_rules under policy objects `unlisted` or `open`: an object is sent without
    `additionalProperties` (under `open`, `false` is kept), which (as OpenAPI 3.0 reads it) accepts
    other keys. So an open object loses nothing, a closed one under `unlisted` or a typed map
    accepts arguments the tool rejects (lossy), and a free-form object keeps its meaning. The names
    it requires, as _object_rules gives them."""
    ap = s.get("additionalProperties", MISSING)
    at = sp + ("additionalProperties",)
    if root and not props and walk.codes["empty-parameters"] in map(_first, walk.diags):
        return frozenset()  # a tool without parameters (walk._root said so): nothing was closed
    if not props and ap is MISSING and root:
        walk.report("empty-parameters", sp)
        walk.change("closed-empty-parameters", sp)
    elif ap is False:
        if not walk.objects_keep_closed:  # (under `open` a closed object stays closed: nothing lost)
            walk.report("additional-properties-unexpressed", at)
            walk.change("dropped-additional-properties-false", at)
    elif ap is True or ap == {}:
        walk.report("additional-properties-true", at)
        walk.change("dropped-additional-properties-true", at)
    elif isinstance(ap, dict):
        walk.report("open-map" if not props else "additional-properties-schema", at)
        walk.change("dropped-additional-properties-schema", at)
    if not props and ap is not False and not (ap is MISSING and root):
        walk.report("free-form-object", sp)
    required = s.get("required")
    if not (isinstance(required, list) and required):
        return frozenset()
    req = {x for x in required if isinstance(x, str)}
    for name in required:
        # Entries that are not strings were reported as invalid values already.
        if isinstance(name, str) and name not in props:
            walk.report("required-property-undefined", sp + ("required",), name=name)
    return req
