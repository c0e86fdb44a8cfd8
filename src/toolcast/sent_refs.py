"""The references of a schema sent without strict: each naming `#` or a root definition, and the root's draft-07 `definitions` named `$defs`."""

from __future__ import annotations

from typing import Any

from toolcast.sent_copy import looked_copy, names_other
from toolcast.walk.dialect import SCHEMA_SLOTS
from toolcast.walk.dialect import schema_nodes as _nodes
from toolcast.walk.resources import bundle
from toolcast.walk.values import describe

_DEFS = ("$defs", "definitions")
_RENAMED = object()  # (_renamed_places: the group of the places that were under `definitions`)


class _Recorder:
    """What walk.resources.bundle reports and records, kept as the compile's records."""

    def __init__(self, r: Any, diags: list, trans: list) -> None:
        self.r, self.diags, self.trans = r, diags, trans

    def report(self, pattern: str, place: tuple, **params: Any) -> None:
        self.diags.append((self.r.patterns[pattern], "#", place, tuple(params.items())))

    def change(self, pattern: str, place: tuple, detail: str = "") -> None:
        self.trans.append((self.r.changes[pattern], "#", place, detail))


def local_references(sent: dict, r: Any, diags: list, trans: list, dialect: str | None,
                     seen: Any = None, places: list | None = None, bundled: tuple | None = None) -> dict | None:
    """`sent` with every `$ref` naming `#` or a root definition, resolved as JSON Schema does
    (`$id` bases, anchors; walk.resources.bundle); None when one names a resource outside the
    document (nothing is ever fetched) or nothing at all. `places`: _refs_to(sent, ""), or None.
    `bundled`: the walk's bundle of the document `sent` copies (Walk.bundled), or None; taken only
    while `sent` is that copy unchanged (`places` given) and the dialect is the same."""
    if places is not None:  # (what the copy found is exact while the copy is unchanged)
        bundles = seen.bundles(sent)
    else:
        bundles = ((seen is None or seen.may_bundle(sent))
                   and any(_needs_bundle(place, node, sent) for place, node in _nodes(sent)))
    if not bundles:
        _defs_renamed(sent, r, trans, seen.refs if seen is not None else None, places)
        return sent
    before = {place: node["$ref"] for place, node in (_refs_to(sent, "") if places is None else places)}
    dialect = dialect or "2020-12"
    if bundled is not None and places is not None and bundled[1] == dialect:
        # (the same input as this bundle's, so the same output and records: the walk's, taken)
        out = bundled[2]
        diags += bundled[3]
        trans += bundled[4]
    else:
        out = bundle(sent, _Recorder(r, diags, trans), dialect)
        if out is None:
            return None
    # (bundle shares what it leaves alone: own every node again, finding the references in the same
    # pass; bundle changes no place's `$ref` but to another string, so the schema objects without
    # one need no look)
    out, again = looked_copy(out)
    refs = _refs_to(out, "") if again is None else again.ref_places
    for place, node in refs:
        if place in before and node["$ref"] != before[place]:
            trans.append((r.changes["repointed-reference"], "#", place + ("$ref",),
                          f"({describe(before[place])} as {describe(node['$ref'])})"))
    for place, node in refs:
        if node["$ref"][:1] != "#":
            diags.append((r.patterns["external-ref"], "#", place + ("$ref",), (("value", node["$ref"]),)))
            return None
    _defs_renamed(out, r, trans, [node["$ref"] for _, node in refs], refs)
    return out


def _needs_bundle(place: tuple, node: dict, root: dict) -> bool:
    """Whether a `$ref` at `node` names other than `#` or a root definition that exists (by `$id`, an
    anchor, a deeper pointer, or nothing), or `node` is a resource or anchor of its own below the root."""
    ref = node.get("$ref")
    if type(ref) is str and ref != "#" and names_other(ref, root):
        return True
    return bool(place) and ("$id" in node or "$anchor" in node)


def _defs_renamed(sent: dict, r: Any, trans: list, refs: list | None = None, places: list | None = None) -> None:
    """The root's `definitions` (draft-07's name) as `$defs`, the one 2020-12 and every provider's
    list name, and references to them repointed (exact); left as they are where both hold a name.
    `refs` (Seen.refs): every string `$ref` in `sent`, or None when not known; `places`:
    _refs_to(sent, "") before the rename, or None."""
    old = sent.get("definitions")
    defs = sent.get("$defs", {})
    if type(old) is not dict or type(defs) is not dict or set(old) & set(defs):
        return
    sent["$defs"] = {**defs, **old}
    del sent["definitions"]
    trans.append((r.changes["renamed-definitions-to-defs"], "#", ("definitions",), ""))
    if refs is not None and not any(ref.startswith("#/definitions/") for ref in refs):
        return  # (no reference to repoint anywhere: the schema objects are not looked through)
    found = _refs_to(sent, "#/definitions/") if places is None else _renamed_places(sent, places, "#/definitions/")
    for place, node in found:
        node["$ref"] = "#/$defs/" + node["$ref"][len("#/definitions/"):]
        trans.append((r.changes["rewrote-definitions-reference"], "#", place + ("$ref",), ""))


def _renamed_places(sent: dict, places: list, prefix: str) -> list:
    """_refs_to(sent, prefix) after _defs_renamed's rename, from `places` (_refs_to before it): the
    root's `definitions` now follow its `$defs` (or stand last, as `$defs`), every place the same."""
    by_key: dict = {}
    for place, node in places:
        if node["$ref"].startswith(prefix):
            key = place[0] if place else None
            if key == "definitions":
                place, key = ("$defs",) + place[1:], _RENAMED
            by_key.setdefault(key, []).append((place, node))
    found = by_key.pop(None, [])
    for key in sent:
        found += by_key.get(key, ())
        if key == "$defs":
            found += by_key.get(_RENAMED, ())
    return found


def _refs_to(schema: dict, prefix: str | None) -> list:
    """(place, node) of every schema object of `schema` whose `$ref` is a string starting with
    `prefix` (None: every schema object), in document order: list(_nodes(schema)) filtered, with a
    place made only for a node found."""
    found: list = []
    try:
        _refs_below(schema, prefix, [], found)
    except RecursionError:  # (a caller's own stack already deep: the loop, as before)
        found = [(place, node) for place, node in _nodes(schema) if prefix is None
                 or (type(node.get("$ref")) is str and node["$ref"].startswith(prefix))]
    return found


def _refs_below(node: dict, prefix: str | None, path: list, found: list) -> None:
    if prefix is None:
        found.append((tuple(path), node))
    else:
        ref = node.get("$ref")
        if type(ref) is str and ref.startswith(prefix):
            found.append((tuple(path), node))
    for key, v in node.items():
        kind = SCHEMA_SLOTS.get(key) if type(key) is str else None
        if kind is None:
            continue
        if type(v) is dict:
            path.append(key)
            if kind == "map":
                for name, x in v.items():
                    if type(x) is dict:
                        path.append(name)
                        _refs_below(x, prefix, path, found)
                        path.pop()
            else:
                _refs_below(v, prefix, path, found)
            path.pop()
        elif type(v) is list and (kind == "list" or kind == "schema-or-list"):
            path.append(key)
            for i, x in enumerate(v):
                if type(x) is dict:
                    path.append(i)
                    _refs_below(x, prefix, path, found)
                    path.pop()
            path.pop()
