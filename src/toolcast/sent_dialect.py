"""The form sent without strict, declared in an older dialect, written whole in 2020-12 terms where
it must change its terms: exactly what the declared dialect meant, under the `$schema` it then
declares (a body valid and read the same in the dialect it names).

sendable writes draft-04's boolean bounds and the tuple form of `items` in 2020-12 terms (a
provider that reads draft-04 numbers or 2020-12 tuples otherwise rejects or misreads them). The
document then declares 2020-12, so the rest of it must mean in 2020-12 what it meant in its own
dialect: what the old dialect ignores beside `$ref` (annotations apart) and the keywords it does not define are dropped
(walk.dialect.Rewrite, the walk's own rewrite), a fragment-only `$id` becomes an `$anchor` and
draft-04's `id` an `$id`, and `dependencies` is split as 2019-09 split it. Every step is exact.
"""

from __future__ import annotations

from typing import Any

from toolcast.walk.dialect import Rewrite, _cut, unknown_keywords, visit_schema_objects
from toolcast.walk.dialect import schema_nodes as _nodes
from toolcast.walk.values import STORAGE_BESIDE_REF

# The declared dialects whose documents this rewrites, and the `$schema` they then declare.
OLDER = frozenset({"draft-04", "draft-06", "draft-07", "2019-09"})
SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema"
# Beside `$ref`, what stays though the old dialect ignored it there: annotations, which constrain
# nothing in 2020-12 either (the model still reads a `description`).
_ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "default", "deprecated", "readOnly",
                          "writeOnly"})
_KEPT_BESIDE_REF = STORAGE_BESIDE_REF | _ANNOTATIONS
_RESOURCE_KEYS = ("$id", "$anchor")  # (what makes a schema object below the root a resource or anchor, as the copy noted it)
# The keywords each older dialect does not define (dialect.unknown_keywords), which 2020-12 applies.
_UNKNOWN = {d: unknown_keywords(d) for d in OLDER}


def needs_2020_terms(sent: dict, declared: str, seen: Any, reads_2020: bool = False) -> bool:
    """Whether sendable will write something of `sent` (declared in `declared`) in 2020-12 terms:
    an `items` list, or draft-04's boolean bounds; and, where the provider reads every schema as
    2020-12 (`reads_2020`: policy sent_metaschema 2020-12), what it would read otherwise than the
    declared dialect does (_read_otherwise). `seen` (sent_copy.Seen) rules most documents out."""
    if declared not in OLDER:
        return False
    if seen is not None:  # (what the copy's pass found in its schema objects, exactly)
        if seen.tuples or (declared == "draft-04" and seen.bounds):
            return True
        if not reads_2020:
            return False
        if seen.dependents and declared != "2019-09":  # (`dependencies`: 2019-09 and 2020-12 read neither)
            return True
        if seen.marks:  # (every schema object holding a key the rewrite reads, the root's own apart)
            return _read_otherwise(sent, declared) or any(_read_otherwise(e[2], declared) for e in seen.marked)
    for _, node in _nodes(sent):
        if type(node.get("items")) is list:
            return True
        if declared == "draft-04" and (type(node.get("exclusiveMinimum")) is bool
                                       or type(node.get("exclusiveMaximum")) is bool):
            return True
        if reads_2020 and _read_otherwise(node, declared):
            return True
    return False


def _read_otherwise(node: dict, declared: str) -> bool:
    """Whether a provider that reads schema object `node` as 2020-12 reads it otherwise than
    `declared` does: a keyword `declared` does not define (so ignores), which 2020-12 applies
    (`dependentRequired`, `prefixItems`, `unevaluatedProperties`, `$anchor`...), or the other way
    round (`dependencies`, which 2020-12 reads as unknown); a constraint
    beside `$ref`, which a dialect before 2019-09 ignores; a fragment-only `$id` (an anchor before
    2019-09, invalid in 2020-12). The rewrite (as_2020_12) drops or converts each, exactly."""
    if not _UNKNOWN[declared].isdisjoint(node):
        return True
    if declared == "2019-09":
        return False
    if "dependencies" in node:  # (2020-12 has it as dependentRequired and dependentSchemas only)
        return True
    if "$ref" in node and any(k not in _KEPT_BESIDE_REF for k in node):
        return True
    i = node.get("$id")
    return type(i) is str and i.startswith("#")


def as_2020_12(sent: dict, declared: str, r: Any, trans: list, seen: Any = None) -> dict:
    """`sent` (declared in `declared`) in 2020-12 terms, declaring 2020-12, each change in `trans`.
    `seen` (sent_copy.Seen of `sent` as its copy made it, or None): the schema objects the rewrite
    reads, where it marked them; those holding `dependencies` (none: nothing to split). What it
    found is kept true of the copy (or not known: None)."""
    code = r.changes["converted-dialect-keyword"]
    rw = Rewrite(declared, _ANNOTATIONS)
    if seen is not None and seen.marks:
        # (the copy as it came out, every container its own: the schema objects the rewrite reads
        # are those its pass marked, each changed where it stands)
        out = rw.rewrite_at(sent, seen.marked, 2, True)
        _seen_after(seen, rw)
    else:
        out = dict(rw.rewrite(sent, ()))
        if seen is not None:  # (a new document: where its schema objects stand is not known)
            seen.ref_places = seen.tuple_places = seen.dependents = None
    for place, key in rw.ignored:
        trans.append((code, "#", place + (key,), f"(`{key}` beside `$ref`, which {declared} ignores: dropped)"))
    for place, key in rw.dropped:
        trans.append((code, "#", place + (key,), f"(`{key}`, which {declared} does not define: dropped)"))
    for place, fragment in rw.anchors:
        trans.append((code, "#", place + ("$id",), f"(the fragment-only `$id` {fragment!r} as an `$anchor`)"))
    for place, key, became in rw.bounds:
        trans.append((code, "#", place + (key,), f"(`{key}` as {became})"))
    known = seen.dependents if seen is not None else None
    if known is None or known:  # (the rewrite only ever drops a keyword)
        moved = _dependencies(out, code, trans, known)
        if seen is not None:
            moved_below(seen, moved)
    out["$schema"] = SCHEMA_2020_12
    trans.append((code, "#", ("$schema",), f"(the {declared} `$schema` as 2020-12's: its keywords are written "
                                           "in 2020-12 terms)"))
    return out


def _seen_after(seen: Any, rw: Rewrite) -> None:
    """`seen` (the copy's) made true again of the copy `rw` rewrote where it stands (rewrite_at,
    owned): a draft-04 `id` below the root is an `$id` now (a resource); the schema objects in the
    slots it left out are gone, every other stays where it was. `ref_places` is None (not known:
    looked for again) where a resource below the root may have gone (an `$id` or `$anchor`
    dropped, or in a slot left out)."""
    if any(place and key == "id" for place, key, _ in rw.bounds):
        seen.nested = seen.resources = True
    cut = rw.left_out
    if seen.ref_places is not None and seen.nested and (
            cut or any(k in _RESOURCE_KEYS for _, k in rw.dropped + rw.ignored)):
        seen.ref_places = None
    if cut:
        lengths = {len(place) for place in cut}
        seen.ref_places, seen.tuple_places, seen.dependents = (
            None if found is None else [e for e in found if not _cut(e[0], cut, lengths)]
            for found in (seen.ref_places, seen.tuple_places, seen.dependents))


def moved_below(seen: Any, moved: list | None) -> None:
    """`seen`'s places of schema objects made None (not known) where a pass moved one of them:
    one below a slot of `moved` (places), or anywhere when `moved` is None (not known)."""
    if moved is None:
        seen.ref_places = seen.tuple_places = None
        return
    if not moved:
        return
    slots, lengths = set(moved), {len(place) for place in moved}
    seen.ref_places, seen.tuple_places = (
        None if found is None or any(_cut(e[0], slots, lengths) for e in found) else found
        for found in (seen.ref_places, seen.tuple_places))


def _dependencies(sent: dict, code: str, trans: list, known: list | None = None) -> list | None:
    """Every `dependencies` split as 2019-09 split it: lists of names as `dependentRequired`,
    schemas as `dependentSchemas` (the Rewrite dropped any of those the old dialect did not define),
    each schema object's before what it holds (a split one read as it then is). `known`: (place,
    node) of every schema object of `sent` holding `dependencies`, in document order (Seen.dependents),
    or None. The places of the `dependencies` whose schemas moved (below `dependentSchemas`), or
    None when not known."""
    moved: list = []

    def split(node: dict, place: Any) -> None:
        deps = node.get("dependencies")
        if type(deps) is not dict:
            return
        required = {k: v for k, v in deps.items() if type(v) is list}
        schemas = {k: v for k, v in deps.items() if type(v) is not list}
        del node["dependencies"]
        if required:
            node["dependentRequired"] = required
        if schemas:
            node["dependentSchemas"] = schemas
        place = tuple(place) + ("dependencies",)
        if schemas:
            moved.append(place)
        trans.append((code, "#", place, "(`dependencies` as `dependentRequired` and `dependentSchemas`)"))

    if known is not None:
        lengths = {len(place) + 1 for place, _ in known}
        below = {place + ("dependencies",) for place, _ in known}
        if not any(_cut(place, below, lengths) for place, _ in known):  # (else one is split below another: moved first)
            for place, node in known:
                split(node, place)
            return moved
    visit_schema_objects(sent, split)
    return None
