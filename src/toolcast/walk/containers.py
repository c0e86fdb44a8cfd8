"""Object actions: what closing an object records, its required names, its property names, and an optional property's findings and null path (the descent into properties is walk.descent's)."""

from __future__ import annotations

from typing import Any

from toolcast.model import OPTIONAL_PAIR, NullPath
from toolcast.walk.state import Walk
from toolcast.walk.values import _ONLY_STR, MISSING, NAME_KEYS, is_text

# Properties met on the way down past which a walk pauses the cycle collector until it ends (see
# without_cycle_gc): a schema can be large below a small root, where compile_tool does not look.
PAUSE_GC_AFTER_PROPERTIES = 256


def _property_keys(w: Walk, props: dict, sp: tuple) -> None:
    """Refuse each property whose name the rules' property_keys pattern does not match."""
    key_re = w.key_re
    for name in props:
        if not (type(name) is str and key_re.fullmatch(name)):
            # (diag, not report: the message's `pattern` placeholder would clash with report's)
            w.diag(w.codes["property-key-invalid"], sp + ("properties", name), name=name,
                      pattern=w.r.property_key_pattern)


def _optional_null(w: Walk, name: str, psp: tuple, omit: bool) -> None:
    """What an optional property that already accepts null records: omission is gone, so either
    the handler receives the model's null (optional_null "value") or that null is stripped like
    an omission and an explicit null is lost (optional_null "omit", a lossy change the caller
    chose)."""
    if omit:
        w.report("explicit-null-stripped", psp, name=name)
        w.change("stripped-explicit-null", psp)
    else:
        w.record("optional-null-sent", psp, (("name", name),))


def _object_rules(w: Walk, s: dict, props: dict, sp: tuple, root: bool) -> Any:
    """What closing the object records (by its `additionalProperties`), and `required` names it
    does not declare; the names it requires, or None when it cannot be closed (an open map or a
    free-form object, refused)."""
    ap = s.get("additionalProperties", MISSING)
    required = s.get("required")
    if isinstance(required, list) and required:
        try:
            req = set(required)
        except TypeError:  # an unhashable entry (reported as an invalid value already)
            req = {x for x in required if isinstance(x, str)}
    else:
        required, req = (), frozenset()
    if not props:
        if ap is MISSING and root:
            w.report("empty-parameters", sp)
            w.change("closed-empty-parameters", sp)
        elif ap is False:
            if "properties" not in s:
                w.change("added-empty-properties", sp)
        elif isinstance(ap, dict) and ap:
            w.report("open-map", sp + ("additionalProperties",))
            return None
        else:
            w.report("free-form-object", sp)
            return None
    elif ap is MISSING:
        w.diags.append((w.object_codes[2], "#", sp, ()))
        w.trans.append((w.object_codes[3], "#", sp, ""))
        if w.object_flags[3]:
            w.refusals += 1
    elif ap is not False:  # (closed already, the commonest case: nothing to record)
        if ap is True or ap == {}:
            w.report("additional-properties-true", sp + ("additionalProperties",))
            w.report("extra-properties-no-longer-accepted", sp + ("additionalProperties",))
            w.change("closed-open-object", sp + ("additionalProperties",))
        elif isinstance(ap, dict):
            w.report("additional-properties-schema", sp + ("additionalProperties",))
            w.change("dropped-additional-properties-schema", sp + ("additionalProperties",))
    if req and not req <= props.keys():
        for name in required:
            # Entries that are not strings were reported as invalid values already.
            if isinstance(name, str) and name not in props:
                w.report("required-property-undefined", sp + ("required",), name=name)
    return req


def _optional(w: Walk, name: str, psp: tuple, pip: NullPath, original_null: bool) -> None:
    """What an optional property records before its schema is walked: its diagnostics and its
    null path (a legit one when null was a value already, kept as the handler receives it)."""
    # (w.object_flags: its diagnostic refuses, its null warning refuses, ..., the refusals of both)
    if not original_null:  # (the commonest: null is new here)
        w.bucket.nulls.append(pip)
        w.diags.append((OPTIONAL_PAIR, "#", psp, ()))  # both diagnostics, in one record
        w.trans.append((w.object_codes[1], "#", psp, ""))
        if w.object_flags[4]:
            w.refusals += w.object_flags[4]
    else:
        omit = w.optional_null == "omit"
        (w.bucket.nulls if omit else w.bucket.legit).append(pip)
        w.diags.append((w.object_codes[0], "#", psp, (("name", name),)))
        _optional_null(w, name, psp, omit)
        if w.object_flags[0]:
            w.refusals += 1


def _vouch_object(w: Walk, s: dict, props: dict) -> None:
    """Clear Walk.scanned (see walker._compile) where the object `s` holds what the walk does not
    read as the document scan would: a property name that is not a string or that the scan notes
    (a resource, a reference, a keyword a declared dialect rewrites), a schema for other keys (never
    walked)."""
    if not (NAME_KEYS.isdisjoint(props) and _ONLY_STR.issuperset(map(type, props))) or (
            type(ap := s.get("additionalProperties")) is dict and ap):
        w.scanned = False
        return
    for name in props:  # (a name that is not text: the document scan says where)
        if not name.isascii() and not is_text(name):
            w.scanned = False
            return
