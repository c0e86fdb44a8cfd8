"""The document before the walk: refused if it is not JSON, read in its declared dialect, its references resolved to root definitions."""

from __future__ import annotations

from typing import Any

from toolcast.sent_copy import scanned_copy
from toolcast.walk.dialect import Rewrite, dialect_of
from toolcast.walk.resources import bundle
from toolcast.walk.state import Walk
from toolcast.walk.values import (
    ANNOTATIONS_BESIDE_REF,
    HAS_ANNOTATED_REFS,
    HAS_DRAFT_07_KEYWORDS,
    HAS_FOREIGN_CONTAINERS,
    HAS_IDS,
    HAS_LATER_KEYWORDS,
    HAS_OLD_DIALECT_FORMS,
    HAS_OPENAPI_KEYWORDS,
    HAS_OTHER_REFS,
    MISSING,
    OPENAPI_KEYWORDS,
    _exact_scan,
    _plain_flags,
    describe,
    plain_containers,
)


def _document(w: Walk, schema: Any) -> Any:
    """`schema` as the walk reads it (the input itself when nothing needs settling); MISSING
    after a refusal. Where the rules send the original without strict, the scan's pass also makes
    its copy (Walk.copied; a document scanned first is large and hand-written, and mostly sent so)."""
    copied = scanned_copy(schema) if type(schema) is dict and w.r.sends_original and w.builds else None
    if copied is not None:
        w.copied = (schema, copied[0], copied[1])
        flags = copied[1].flags
    else:
        flags = _plain_flags(schema)  # scan's common case, inline
    if flags < 0:
        problem, flags = _exact_scan(schema)
        if problem is not None:
            place, what = problem
            return _refused(w, "non-json-value", place, value=what)
    if flags & HAS_FOREIGN_CONTAINERS:
        schema = plain_containers(schema)
    if type(schema) is not dict:
        return schema
    dialect = "2020-12"
    if "$schema" in schema:
        dialect = dialect_of(schema["$schema"])
        schema = _dialect(w, schema, flags, copied[1].marked if copied is not None and copied[1].marks else None)
        if schema is MISSING:
            return MISSING
    if flags & (HAS_IDS | HAS_OTHER_REFS):
        n_diags, n_trans = len(w.diags), len(w.trans)
        out = bundle(schema, w, dialect)
        if out is None:
            return MISSING
        w.bundled = (schema, dialect, out, w.diags[n_diags:], w.trans[n_trans:])  # (see Walk.bundled)
        schema = out
    return schema


def as_declared(w: Walk, dialect: str, flags: int) -> bool:
    """Whether a document in `dialect` (one toolcast knows) whose scan gave `flags` means in 2020-12
    terms what it says, so that _dialect hands it back unchanged, recording nothing. With no flag,
    every dialect but draft-04 does (walker._compile walks such a document before the scan)."""
    if flags & HAS_OPENAPI_KEYWORDS:
        return False
    later = _later(dialect, flags)
    return dialect == "2020-12" or (dialect == "2019-09" and not later) or (
        dialect != "draft-04" and not flags & HAS_OLD_DIALECT_FORMS and not later
        and (not flags & HAS_ANNOTATED_REFS or w.annotations >= ANNOTATIONS_BESIDE_REF))


def _later(dialect: str, flags: int) -> bool:
    """Whether the document may hold keywords `dialect` does not define (see Rewrite's `later`)."""
    return dialect == "draft-04" or bool(flags & HAS_LATER_KEYWORDS) or (
        dialect == "draft-06" and bool(flags & HAS_DRAFT_07_KEYWORDS))


def _refused(w: Walk, pattern: str, place: tuple, **params: Any) -> Any:
    w.report(pattern, place, **params)
    return MISSING


def _dialect(w: Walk, schema: dict, flags: int, marked: list | None = None) -> Any:
    """`schema` with its declared dialect's meaning in 2020-12 terms; MISSING after a refusal
    (a dialect toolcast does not know: MCP asks for a clear error, not a guess). `flags` are
    scan's for the document; `marked`: the schema objects the rewrite reads, found by the scan's
    pass (sent_copy.Seen.marked), or None (then the rewrite looks at every one)."""
    declared = schema["$schema"]
    dialect = dialect_of(declared)
    if dialect is None:
        return _refused(w, "unsupported-dialect", ("$schema",), value=describe(declared))
    if as_declared(w, dialect, flags):
        return schema  # (the rewrite would give back the same document and record nothing)
    # OpenAPI's `nullable` is a keyword of no declared dialect: unknown there, not a null type.
    foreign = OPENAPI_KEYWORDS if flags & HAS_OPENAPI_KEYWORDS else frozenset()
    rw = Rewrite(dialect, frozenset(w.annotations), _later(dialect, flags), foreign)
    out = rw.rewrite(schema, ()) if marked is None else rw.rewrite_at(schema, marked, 1)
    if rw.unread:
        # Dropped as the rules drop a keyword they do not list (keyword_classes.unknown; its
        # action is always drop, see actions.UNKNOWN_ACTIONS).
        dcode, tcode = w.r.unknown_keyword[1:]
        for sp, k in rw.unread:
            w.diag(dcode, sp + (k,), keyword=k)
            note = f"(OpenAPI `{k}`: not a keyword of {dialect}, the declared dialect)"
            w.trans.append((tcode, "#", sp + (k,), note))
    for sp, k in rw.ignored:
        w.record("ref-sibling-ignored", sp + (k,), (("keyword", k), ("value", dialect)))
        w.change("dropped-ignored-ref-sibling", sp + (k,), f"({dialect})")
    for sp, k, became in rw.bounds:
        w.change("converted-dialect-keyword", sp + (k,), f"({dialect} `{k}`: {became})")
    for sp, frag in rw.anchors:
        w.change("converted-dialect-keyword", sp + ("$id",), f"({dialect} `$id` {frag!r}: an $anchor)")
    for sp, k in rw.dropped:
        w.record("keyword-not-in-dialect", sp + (k,), (("keyword", k), ("value", dialect)))
        w.change("dropped-keyword-not-in-dialect", sp + (k,), f"({dialect})")
    for sp, k, v in rw.invalid:
        w.report("invalid-keyword-value", sp + (k,), keyword=k, value=describe(v),
                    expected=f"a boolean ({dialect})")
    return out
