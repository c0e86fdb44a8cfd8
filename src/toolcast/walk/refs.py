"""References and definitions: collecting `$defs`, resolving local `$ref`s, and the `$ref` a node is compiled to (each definition referred to is queued, and compiled once by descent._compile_defs)."""

from __future__ import annotations

from typing import Any

from toolcast.model import NullPath
from toolcast.walk.leaves import _ordered
from toolcast.walk.plans import _def_ref
from toolcast.walk.state import Walk
from toolcast.walk.values import MISSING, describe, ref_pointer


# -- definitions and references -------------------------------------------------------
def _collect_defs(w: Walk, root: dict) -> None:
    w.defs_raw, w.defs_src, w.defs_out, w.queue = {}, {}, {}, []
    defs = root.pop("$defs", None)
    legacy = root.pop("definitions", None)
    kw_defs = w.r.keywords.get("$defs")
    if defs is not None:
        if not isinstance(defs, dict):
            w.report("invalid-keyword-value", ("$defs",), keyword="$defs", value=describe(defs),
                      expected="an object of schemas")
        else:
            for name, d in defs.items():
                _empty_name(w, name, "$defs")
                w.defs_raw[name], w.defs_src[name] = d, "$defs"
    if kw_defs is None or kw_defs[1] == "drop":  # pragma: no cover - a spec that drops $defs
        w.defs_raw.clear()
    if legacy is not None:
        if not isinstance(legacy, dict):
            w.report("invalid-keyword-value", ("definitions",), keyword="definitions",
                      value=describe(legacy), expected="an object of schemas")
            return
        w.report("legacy-definitions-keyword", ("definitions",))
        w.change("renamed-definitions-to-defs", ("definitions",))
        for name, d in legacy.items():
            _empty_name(w, name, "definitions")
            if name in w.defs_raw:
                w.report("conflicting-definitions-keywords", ("definitions", name), name=name)
                continue
            w.defs_raw[name], w.defs_src[name] = d, "definitions"


def _empty_name(w: Walk, name: Any, src: str) -> None:
    """Refuse a definition named by the empty string: its pointer `#/$defs/` is easily read as the
    root `#` (the walk's own name for the root is "" too), and no provider documents it."""
    if name == "":
        w.report("invalid-keyword-value", (src, name), keyword=src, value="`\"\"` (an empty definition name)",
                    expected="definition names that are not empty")


def _target(w: Walk, ref: Any, sp: tuple) -> str | None:
    """The definition a local `$ref` names ("" for the root), or None after a refusal."""
    known = w.ref_names.get(ref) if type(ref) is str else None
    if known is not None:  # resolved before in this walk: the same answer, the same note
        name, note = known
        if note:
            w.trans.append((w.object_codes[4], "#", sp, note))
        return name
    if not isinstance(ref, str):
        w.report("invalid-keyword-value", sp, keyword="$ref", value=describe(ref), expected="a string")
        return None
    if ref == "#":
        _ref_name(w, ref, "", "")
        _root_target(w)
        return ""
    if not ref.startswith("#"):
        w.report("external-ref", sp, value=ref)
        return None
    # A fragment is a URI fragment: percent-decoded, then a JSON Pointer (values.ref_pointer).
    tokens = ref_pointer(ref)
    if tokens is not None and len(tokens) == 2 and tokens[0] in ("$defs", "definitions"):
        name = tokens[1]
        if name not in w.defs_raw:
            w.report("unresolvable-ref", sp, value=ref)
            return None
        note = f"({ref} -> {_def_ref(name)})" if tokens[0] == "definitions" else ""
        if note:
            w.change("rewrote-definitions-reference", sp, note)
        _ref_name(w, ref, name, note)
        return name
    if tokens == ():
        _ref_name(w, ref, "", "")
        _root_target(w)
        return ""
    w.report("unsupported-ref-target", sp, value=ref)
    return None


def _ref_name(w: Walk, ref: str, name: str, note: str) -> None:
    if type(w.ref_names) is not dict:
        w.ref_names = {}
    w.ref_names[ref] = (name, note)


def _root_target(w: Walk) -> None:
    """A `$ref` names the root: where the root's `type: object` was inferred, it now applies
    there too (a value that is no object, which the original accepted there, is rejected),
    reported as type-inferred at the root, as it is for any node below."""
    if w.root_inferred is not None:
        w.report("type-inferred", (), keyword=f"`{w.root_inferred}` (and a `$ref` to `#`)", value="object")
        w.root_inferred = None  # (once)


def _resolve_raw(w: Walk, ref: str, sp: tuple) -> Any:
    """The raw target of a `$ref` chain (for merging), or MISSING after a refusal."""
    seen = set()
    while True:
        name = _target(w, ref, sp)
        if name is None:
            return MISSING
        if name == "":
            return w.root_raw
        target = w.defs_raw[name]
        if isinstance(target, dict) and set(target) == {"$ref"}:
            if name in seen:
                w.report("unsatisfiable-schema", sp, value="a $ref cycle with no schema in it")
                return MISSING
            seen.add(name)
            ref = target["$ref"]
            continue
        return target


def _ref(w: Walk, ref: Any, out: dict, sp: tuple, ip: NullPath) -> dict:
    name = _target(w, ref, sp + ("$ref",))
    if name is None:
        return {}
    w.bucket.refs.append((ip, name))
    if name == "":
        out["$ref"] = "#"
    else:
        if name not in w.defs_out:
            w.queue.append(name)
            w.defs_out[name] = None  # queued: compiled once, by _compile_defs
        out["$ref"] = _def_ref(name)
    return _ordered(w, out) if len(out) > 1 else out
