"""The walk's phases, each a function with one job: the document read, the root settled, the descent, the definitions, the limits, the reference graph and null paths (see run)."""

from __future__ import annotations

from collections.abc import Callable
from gc import disable as gc_disable
from gc import enable as gc_enable
from gc import isenabled as gc_isenabled
from operator import itemgetter
from typing import Any, TypeVar

from toolcast.sent_copy import scanned_copy
from toolcast.walk import budget
from toolcast.walk.combinators import _merge
from toolcast.walk.descent import _compile_defs, node
from toolcast.walk.dialect import dialect_of
from toolcast.walk.document import _document, as_declared
from toolcast.walk.nullpaths import (
    _check_finite,
    _check_progress,
    _finish_null_paths,
    _refuse_recursion,
)
from toolcast.walk.plans import OP_DROP
from toolcast.walk.refs import _collect_defs, _resolve_raw
from toolcast.walk.state import Walk
from toolcast.walk.subset import to_subset
from toolcast.walk.unread import held_unused, report_invalid
from toolcast.walk.values import (
    _ONLY_STR,
    HAS_IDS,
    HAS_OTHER_REFS,
    IMPLIES,
    MISSING,
    SCAN_KEYS,
    _plain_flags,
    all_text,
    describe,
    plain_value,
    ref_pointer,
)

# A root with none of these (and `type: object`) needs nothing settled before the walk (see compile):
# _root reads the rest (and a keyword a provider refuses at the root: _refused_at_root).
_ROOT_PLAIN = frozenset({"$defs", "definitions", "$ref", "allOf", "anyOf", "oneOf", "enum", "const", "not", "if", "then",
                         "else"})
# A root with none of these (and `type: object`) is walked before the document scan as it is (see _compile).
_UNSCANNED_ROOT = _ROOT_PLAIN | {"$schema"}
# A root with one of these is scanned before the walk (see _first).
_SCANNED_FIRST = frozenset({"$ref", "anyOf", "oneOf"})
# The declared dialects of a root walked before the scan: those document.as_declared keeps as they are
# where the scan notes nothing (draft-04 is always rewritten).
_WALKED_FIRST_DIALECTS = frozenset({"2020-12", "2019-09", "draft-07", "draft-06"})
_DEFS = ("$defs", "definitions")
_DEFS_KEYS = frozenset(_DEFS)
# A root without `type` that has one of these is read as an object (else: a tool without parameters):
# the combinators and values it is read by, and every keyword that implies an object (IMPLIES), which
# a tool without parameters would lose (`minProperties: 1` read so accepted `{}`).
_ROOT_TYPE_TRIGGERS = tuple(dict.fromkeys(("properties", "required", "additionalProperties", "anyOf", "oneOf", "allOf",
                                           "enum", "const", *dict(IMPLIES)["object"])))


_T = TypeVar("_T")
_code = itemgetter(0)  # (a record's code)


def root_not_object(root: Any) -> tuple[tuple, str] | None:
    """(place, what it is) when a tool's root schema is no object schema whatever else it says, else
    None: a value that is not a schema object, a `type` that is not object, an enum or const without
    a `type`, or one no object is (arguments are objects: no call could satisfy it). No value, `{}`
    and `true` are a tool without parameters, and a root `$ref` is judged once resolved
    (walker._root). Compile reads it too for a tool it does not walk (strict off), where the rules
    refuse it in every mode."""
    if root is None or root is True:
        return None
    if not isinstance(root, dict):
        return (), describe(root)
    rtype = root.get("type", MISSING)
    if rtype is MISSING:
        if "enum" in root or "const" in root:
            return (), "an enum or const without `type: object`"
        return None
    if rtype != "object" and rtype != ["object"]:
        return ("type",), describe(rtype)
    if "const" in root and not isinstance(root["const"], dict):
        return ("const",), f"`const: {describe(root['const'])}`, which no object is"
    enum = root.get("enum")
    if type(enum) is list and not any(isinstance(v, dict) for v in enum):
        return ("enum",), "an `enum` with no object among its values"
    return None


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


def walk_schema(w: Walk, schema: Any) -> dict:
    """The compiled form of parameters schema `schema`, its findings recorded in `w` (one Walk
    per schema): the document read (walk.document), the root settled, the descent (walk.descent),
    the definitions referred to, the limits, then the reference graph and the null paths
    (walk.nullpaths); written in the OpenAPI subset where the rules' schema form says so."""
    try:
        out = _compile(w, schema)
        return to_subset(w, out) if w.subset_form and w.builds else out
    except budget.SchemaTooLarge as e:  # (the findings so far, one per path walked, give way to it)
        w.fresh()
        w.report("too-many-schema-nodes", e.place, limit=f"{budget.NODE_BUDGET:,}")
        return {}
    finally:
        if w.gc_paused and not w.hold_gc:
            w.gc_paused = False
            gc_enable()


def _compile(w: Walk, schema: Any) -> dict:
    # (the commonest root, bfcl's and most MCP tools': no dialect, no definitions, nothing to settle)
    plain = type(schema) is dict and schema.get("type") == "object" and _UNSCANNED_ROOT.isdisjoint(schema)
    if plain or _first(schema):
        # Walked before the document scan (walk.document), which then reads only a document the walk
        # could not vouch for: one with a value the walk left unread or read in full (Walk.scanned),
        # a definition it did not walk (_defs_vouched). Where the scan finds what it would have
        # settled before the walk (a value that is not JSON, a resource to bundle, the declared
        # dialect's rewrite), the walk starts again after it.
        builds = w.builds
        w.scanned = True
        try:
            if plain:
                w.root_raw = schema
                out = _descend(w, schema)
            else:
                out = _rooted(w, schema)
        except Exception:  # (raised by a value that is not JSON, or by the walk as it would be anyway)
            if _vouched(w, schema, False):
                raise
            out = None
        if out is not None and ((w.scanned and (plain or _defs_vouched(w, schema))) or _vouched(w, schema, builds)):
            return out
        w.fresh()
        w.builds = builds
    schema = _document(w, schema)
    if schema is MISSING:
        return {}
    return _rooted(w, schema)


def _first(schema: Any) -> bool:
    """Whether root `schema` is walked before the document scan (see _compile): `type: object`,
    none of _SCANNED_FIRST, and a declared dialect (if any) that means what 2020-12 does unless the
    scan notes otherwise (see document.as_declared), beside no root definitions.

    A document that declares a dialect and holds definitions is scanned first: such documents are
    large and hand-written (the large set's), their root is read in full (its `$id`, `if`,
    `patternProperties`), so the walk cannot vouch for them, and where the scan then settled
    something (a dialect's rewrite, a bundle) a walk first was a walk thrown away."""
    if type(schema) is not dict or schema.get("type") != "object" or not _SCANNED_FIRST.isdisjoint(schema):
        return False
    if "$schema" not in schema:
        return True
    return dialect_of(schema["$schema"]) in _WALKED_FIRST_DIALECTS and _DEFS_KEYS.isdisjoint(schema)


def _rooted(w: Walk, schema: Any) -> dict:
    """The root settled (walker._root), then the descent; {} (or the result of a root with nothing
    to walk) when there is nothing to walk."""
    if type(schema) is dict and schema.get("type") == "object" and _ROOT_PLAIN.isdisjoint(schema):
        root = w.root_raw = schema  # the commonest root: nothing to settle before the walk
    else:
        root = _root(w, schema)
        if type(root) is not dict or w.refusals:
            w.scanned = False  # (the document is not walked: see _compile)
            return root[0] if type(root) is tuple else {}
        w.inlined = ()  # (what the root's own `$ref` inlined is walked as the root)
    return _descend(w, root)


def _vouched(w: Walk, schema: dict, builds: bool) -> bool:
    """Whether the document scan of `schema` (a root _first takes) finds nothing it settles before
    the walk: no value that is not JSON, nothing to bundle, no rewrite of its declared dialect (see
    document._document). Where the walk that `builds` (the caller's Walk.builds) has already settled
    that the tool goes without strict, its original sent (_sent_as_is), the scan's pass also makes
    that copy, as document._document does (Walk.copied)."""
    copied = scanned_copy(schema) if builds and _sent_as_is(w) else None
    if copied is not None:
        w.copied = (schema, copied[0], copied[1])
        flags = copied[1].flags
    else:
        flags = _plain_flags(schema)
    if flags < 0 or flags & (HAS_IDS | HAS_OTHER_REFS):
        return False
    return "$schema" not in schema or as_declared(w, dialect_of(schema["$schema"]), flags)


def _sent_as_is(w: Walk) -> bool:
    """Whether the walk so far settles that its tool is sent without strict as the original (the
    rules send it so): a refusal, but none of what the rules refuse in every mode, or a lossy change
    the caller does not send strict (Walk.lossy_blocks). Only what is copied rests on it."""
    if not (w.copies and w.r.sends_original):
        return False
    if w.refusals:
        return w.r.always_refused.isdisjoint(map(_code, w.diags))
    return w.lossy_blocks and w.lossy()


def _defs_vouched(w: Walk, schema: dict) -> bool:
    """Whether the root definitions of `schema` pass the document scan as they are, where the walk
    vouched for all it walked: each one it walked (Walk.defs_out) is vouched for; every other, and
    the maps' names, are looked at here (see values.plain_value)."""
    for key in _DEFS:
        defs = schema.get(key, MISSING)
        if defs is MISSING:
            continue
        if type(defs) is not dict or not (SCAN_KEYS.isdisjoint(defs) and _ONLY_STR.issuperset(map(type, defs))
                                          and all_text(defs)):  # (a name not text: the scan says where)
            return False
        walked, raw = w.defs_out, w.defs_raw
        for name, d in defs.items():
            if not (name in walked and raw.get(name, MISSING) is d) and not plain_value(d, 0):
                return False
    return True


def _descend(w: Walk, root: dict) -> dict:
    """The walk of the document's root `root`, then of the definitions referred to, the limits,
    and the reference graph and null paths."""
    out = node(w, root, (), (), 1, 0, True)
    if w.queue:
        _compile_defs(w)
    if w.defs_out and w.builds:
        out["$defs"] = {name: w.defs_out[name] for name in w.defs_raw if name in w.defs_out}
    if w.defs_raw:
        unused = [name for name in w.defs_raw if name not in w.defs_out]
        for name in unused:
            w.record("unused-definition", (w.defs_src[name], name), (("name", name),))
            w.change("dropped-unused-definition", (w.defs_src[name], name))
        if unused:
            report_invalid(w, held_unused(w, unused))
    max_props, max_chars, max_enum, max_depth = w.limit_values
    if (w.n_props > max_props or w.n_chars > max_chars or w.n_enum > max_enum
            or w.deepest[0] > max_depth):
        _check_limits(w)
    root_bucket = w.buckets[""]
    if w.queue or root_bucket.refs:
        if w.r.refuses_recursion:
            _refuse_recursion(w)
        # Without a $ref, nothing the walk emits lacks a finite value unless it refused (an
        # empty anyOf, a typeless node): the fixed point is for reference graphs.
        _check_finite(w, out)
        if not w.r.refuses_recursion:  # (refused, every recursion is reported above)
            _check_progress(w, out)
        _finish_null_paths(w)
    elif root_bucket.nulls:
        if root_bucket.legit:
            _finish_null_paths(w)
        elif w.builds:  # (else no null path is used, and without a legit one none is ambiguous)
            # Only a place walked twice (anyOf branches, a kept slot beside properties) can
            # repeat a path.
            nulls = root_bucket.nulls
            w.null_paths = tuple(dict.fromkeys(nulls)) if w.branched else tuple(nulls)
    return out


def _root(w: Walk, schema: Any) -> dict | tuple | None:
    """The root schema to walk; (the result,) when there is nothing to walk; None after a refusal."""
    r = w.r
    if schema is None or schema == {}:
        w.report("empty-parameters", ())
        w.change("closed-empty-parameters", ())
        return ({"type": "object", "properties": {}, "required": [], "additionalProperties": False},)
    if schema is True:
        w.report("boolean-subschema", (), value="true")
        w.report("empty-parameters", ())
        w.change("closed-empty-parameters", ())
        return ({"type": "object", "properties": {}, "required": [], "additionalProperties": False},)
    if not isinstance(schema, dict):
        place, what = root_not_object(schema)
        return (w.refuse("root-schema-not-object", place, value=what),)
    root = schema  # copied before anything is taken out of it or added to it
    if "$defs" in root or "definitions" in root:
        root = dict(schema)
        _collect_defs(w, root)
    w.root_raw = root
    if "$ref" in root:
        root = _inline_root_ref(w, root)
        if root is None:
            return None
    rtype = root.get("type", MISSING)
    not_object = root_not_object(root)
    # (a root that is no object is refused as that alone, not for what the provider refuses at a root)
    _report_root_keywords(w, root, (), not_object is None)
    if not_object is None and type(root.get("allOf")) is list and w.r.keywords.get("allOf", (None, "drop"))[1] == "rewrite":
        not_object = _root_all_of(w, root)  # (merged into the root: combinators._normalize)
    if not_object is not None:
        w.report("root-schema-not-object", not_object[0], value=not_object[1])
    elif rtype is MISSING:
        if not any(k in root for k in _ROOT_TYPE_TRIGGERS):
            # Description-only or annotation-only root: a tool without parameters.
            w.report("empty-parameters", ())
            w.change("closed-empty-parameters", ())
            root = {k: v for k, v in root.items() if k not in r.kept or k in w.annotations}
            root.update(type="object", properties={}, additionalProperties=False)
        else:
            w.change("inferred-type", ("type",), "(object, at the root)")
            # (a `$ref` to `#` below reads the root with it: see refs._root_target)
            w.root_inferred = next(k for k in _ROOT_TYPE_TRIGGERS if k in root)
            root = _set_root_type(w, root)
    elif rtype == ["object"]:
        root = _set_root_type(w, root)
    return root


def _root_all_of(w: Walk, root: dict) -> tuple[tuple, str] | None:
    """The root checks of _root for what the root's allOf merges into it (in the descent, after
    them): each part's anyOf/oneOf and refused keywords reported at the part, and (place, what it is)
    when the merged root is no object (root_not_object). A part's `$ref` to a definition is followed
    as the merge follows it (one that does not resolve is left to the merge to report)."""
    merged: dict = {}
    where: dict = {}
    stack = [(("allOf", i), p) for i, p in reversed(list(enumerate(root["allOf"])))]
    seen: set = set()
    while stack:
        place, part = stack.pop()
        for _ in range(64):  # (a chain of $refs; a cycle is the merge's to report)
            if type(part) is not dict or type(part.get("$ref")) is not str:
                break
            tokens = ref_pointer(part["$ref"])
            if tokens is None or len(tokens) != 2 or tokens[0] not in _DEFS_KEYS or tokens[1] not in w.defs_raw:
                break
            for k in part:
                if k != "$ref":
                    where.setdefault(k, place)
                    merged.setdefault(k, part[k])
            part = w.defs_raw[tokens[1]]
        if type(part) is not dict or id(part) in seen:
            continue
        seen.add(id(part))
        _report_root_keywords(w, part, place, True)
        for k, v in part.items():
            where.setdefault(k, place)
            merged.setdefault(k, v)
        if type(part.get("allOf")) is list:
            stack.extend((place + ("allOf", i), p) for i, p in reversed(list(enumerate(part["allOf"]))))
    whole = {k: v for k, v in merged.items() if k != "allOf"}
    if "type" in root:  # (a typed root's enum or const merged from a part is read beside that type)
        t = whole.get("type", MISSING)
        if t is MISSING or t == "object" or (type(t) is list and "object" in t):
            whole["type"] = root["type"]  # (the root's, which admits objects only where the part's admits more)
            where["type"] = ()
    not_object = root_not_object(whole)
    if not_object is None:
        return None
    key = not_object[0][0] if not_object[0] else "enum" if "enum" in merged else "const"
    return where.get(key, ("allOf",)) + not_object[0], not_object[1]


def _report_root_keywords(w: Walk, node: dict, place: tuple, refused: bool) -> None:
    """Report `root-schema-anyof` at `place` for each anyOf/oneOf of a root (or of what its allOf
    merges into it), and, where `refused`, for each keyword the provider refuses there."""
    for kw in ("anyOf", "oneOf"):
        if kw in node:
            w.report("root-schema-anyof", place + (kw,), keyword=kw)
    if refused:
        for kw, sent in _refused_at_root(w):
            if kw in node:
                w.report("root-schema-anyof", place + (kw,), keyword=sent)


def _refused_at_root(w: Walk) -> tuple:
    """(keyword, as the strict form writes it) for each keyword besides anyOf/oneOf that the strict
    form keeps at the root and the provider refuses there whatever the strict flag (policy
    sent_root_keywords; a `const` the rules write as an `enum` is one): each refuses the strict
    form, as a root anyOf does. Once per rules."""
    r = w.r
    known = r.__dict__.get("_refused_at_root")
    if known is None:
        plan, refused = w.plan, r.sent_root_keywords
        written = {k: "enum" if k == "const" and plan[k][4] == "const-to-enum" else k
                   for k in ("enum", "const", "not", "if", "then", "else") if k in plan and plan[k][0] != OP_DROP}
        known = tuple((k, sent) for k, sent in written.items() if sent in refused)
        r.__dict__["_refused_at_root"] = known
    return known


def _set_root_type(w: Walk, root: dict) -> dict:
    """`root` with `type: object`, as a new dict (the input is never changed); the raw root
    that `#` refers to follows when it is the same schema."""
    new = {**root, "type": "object"}
    if root is w.root_raw:
        w.root_raw = new
    return new


def _inline_root_ref(w: Walk, root: dict) -> dict | None:
    target = _resolve_raw(w, root["$ref"], ("$ref",))
    if target is MISSING:
        return None
    if not isinstance(target, dict):
        w.report("root-schema-not-object", ("$ref",), value=describe(target))
        return None
    siblings = {k: v for k, v in root.items() if k != "$ref"}
    merged = _merge(w, [target, siblings], ("$ref",))
    if merged is None:
        return None
    w.change("merged-ref-siblings", ("$ref",), f"(the root is {root['$ref']})")
    return merged


def _check_limits(w: Walk) -> None:
    """Report each total the walk counted past its limit (the limit that counts it, see Rules.counted)."""
    counted = w.r.counted
    for counter, count in (("properties", w.n_props), ("string-chars", w.n_chars),
                           ("enum-values", w.n_enum)):
        limit = counted(counter)
        if count > limit.value:
            w.diag(limit.code, (), count=count, limit=limit.value)
    depth, where = w.deepest
    limit = counted("depth")
    if depth > limit.value and not w.guarded:
        w.diag(limit.code, where, count=depth, limit=limit.value)
