"""Definitions the walk leaves out unread (unused, or nested where the rules take none): their keyword values checked against the metaschema."""

from __future__ import annotations

from typing import Any

from toolcast.sent_valid import invalid_places
from toolcast.walk.dialect import dialect_of
from toolcast.walk.state import Walk
from toolcast.walk.values import describe


def report_invalid(w: Walk, held: dict, at: tuple = ()) -> None:
    """Report each keyword value in `held` (keyword -> definitions, as a schema object at place `at`
    holds them) that no schema may have (the metaschema's findings, sent_valid.invalid_places): the
    walk leaves them out unread, but a document that holds one is no valid JSON Schema, refused as a
    value the walk reads is (in every mode where the rules say so, as the form sent without strict
    is: compile._original). A document that declares a dialect is read by that dialect's metaschema
    (draft-04's rewritten first: walk.document); one that declares none, as 2020-12, the tuple form
    of `items` read as the walk reads it (its schemas checked)."""
    declared = w.root_raw.get("$schema") if type(w.root_raw) is dict else None
    dialect = dialect_of(declared) if type(declared) is str else None
    if dialect is None or dialect == "draft-04":
        dialect = "2020-12"
    found = invalid_places(held, dialect)
    while found:
        place, k, v, expected = found.pop(0)
        if k == "items" and type(v) is list and v and declared is None:  # (a tuple: walk.containers reads it)
            found.extend((place + p[1:], pk if len(p) > 2 else k, pv, pe)
                         for p, pk, pv, pe in invalid_places({"prefixItems": v}, dialect) if len(p) > 1)
            continue
        w.report("invalid-keyword-value", at + place, keyword=k, value=describe(v), expected=expected)


def held_unused(w: Walk, unused: list) -> dict[str, Any]:
    """The root's `unused` definitions, under the keyword each stands in."""
    held: dict = {}
    for name in unused:
        held.setdefault(w.defs_src[name], {})[name] = w.defs_raw[name]
    return held
