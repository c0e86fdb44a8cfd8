"""The references of a schema sent without strict: each naming `#` or a root definition, and the root's draft-07 `definitions` named `$defs`."""

from __future__ import annotations

from typing import Any

from toolcast.sent_copy import looked_copy, names_other
from toolcast.walk.dialect import SCHEMA_SLOTS, nodes_with
from toolcast.walk.dialect import schema_nodes as _nodes
from toolcast.walk.plans import _def_ref
from toolcast.walk.resources import bundle
from toolcast.walk.values import describe, ref_pointer

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
    unchanged = places is not None
    # (draft-04's `id` below the root: a base its references are read against, which only bundling
    # resolves, as it resolves `$id`: that no reference names another resource is not enough)
    draft_04_ids = dialect == "draft-04" and (any(p for p, n in nodes_with(sent, "id", str) if "$ref" not in n)
                                              if seen is None else seen.ids)
    if unchanged:  # (what the copy found is exact while the copy is unchanged)
        bundles = draft_04_ids or seen.bundles(sent)
    elif seen is not None and not draft_04_ids and not seen.may_bundle(sent):
        bundles = False
    else:  # (one pass: the references, and whether an object below the root is a resource or anchor)
        ids: list = []
        places = _refs_to(sent, "", ids)
        bundles = draft_04_ids or bool(ids) or any(names_other(ref, sent) for ref in {node["$ref"] for _, node in places} - {"#"})
    if not bundles:
        _defs_renamed(sent, r, trans, seen.refs if seen is not None else None, places)
        if seen is None or any("%" in ref for ref in seen.refs):
            _plainly_spelled(sent, r, trans)
        return sent
    before = {place: node["$ref"] for place, node in (_refs_to(sent, "") if places is None else places)}
    dialect = dialect or "2020-12"
    root_id = _ids_read_as_2020_12(sent) if dialect == "draft-04" else False
    if bundled is not None and unchanged and bundled[1] == dialect:
        # (the same input as this bundle's, so the same output and records: the walk's, taken)
        out = bundled[2]
        diags += bundled[3]
        trans += bundled[4]
    else:
        out = bundle(sent, _Recorder(r, diags, trans), dialect)
        if out is None:
            return None
        if root_id:  # (the root's base, as draft-04 names it)
            out = {("id" if k == "$id" else k): v for k, v in out.items()}
    # (bundle shares what it leaves alone: own every node again, finding the references in the same
    # pass; bundle changes no place's `$ref` but to another string, so the schema objects without
    # one need no look)
    out, again = looked_copy(out, False)
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
    if any("%" in node["$ref"] for _, node in refs):
        _plainly_spelled(out, r, trans)
    return out


def _ids_read_as_2020_12(sent: dict) -> bool:
    """Each draft-04 `id` of `sent`'s schema objects written as walk.resources reads a resource and
    an anchor (a URI as `$id`, a fragment `#name` as `$anchor`), so that bundling resolves references
    by them as draft-04 does; bundling then leaves those below the root out. Whether the root's is one."""
    root = False
    for place, node in nodes_with(sent, "id", str):
        if "$id" in node or "$anchor" in node or "$ref" in node:  # (beside `$ref` draft-04 reads no `id`)
            continue
        value = node.pop("id")
        if value.startswith("#"):
            node["$anchor"] = value[1:]
        else:
            node["$id"] = value
            root = root or not place
    return root


def _plainly_spelled(sent: dict, r: Any, trans: list) -> None:
    """Each `$ref` to a root definition spelled with percent escapes (`#/%24defs/A`) written as
    the definition's own `$ref` (`#/$defs/A`, plans._def_ref): the same pointer (values.ref_pointer),
    in the one spelling a reader that does not percent-decode also reads (exact)."""
    for place, node in _refs_to(sent, "#"):
        ref = node["$ref"]
        tokens = ref_pointer(ref) if "%" in ref else None
        if tokens is not None and len(tokens) == 2 and tokens[0] == "$defs" and _def_ref(tokens[1]) != ref:
            node["$ref"] = _def_ref(tokens[1])
            trans.append((r.changes["repointed-reference"], "#", place + ("$ref",),
                          f"({describe(ref)} as {describe(node['$ref'])})"))


def _defs_renamed(sent: dict, r: Any, trans: list, refs: list | None = None, places: list | None = None) -> None:
    """The root's `definitions` (draft-07's name) as `$defs`, the one 2020-12 and every provider's
    list name, and references to them repointed (exact); a name both hold is given a new one in
    `$defs` (as_fresh), every reference to it repointed, so nothing is left under `definitions`,
    which a provider reads as no keyword. `refs` (Seen.refs): every string `$ref` in `sent`, or None
    when not known; `places`: _refs_to(sent, "") before the rename, or None."""
    old = sent.get("definitions")
    defs = sent.get("$defs", {})
    if type(old) is not dict or type(defs) is not dict:
        return
    renamed = as_fresh(old, defs)
    sent["$defs"] = {**defs, **({renamed.get(k, k): v for k, v in old.items()} if renamed else old)}
    del sent["definitions"]
    note = "" if not renamed else "(" + ", ".join(f"{describe(k)} as {describe(v)}" for k, v in renamed.items()) + (
        ": `$defs` holds that name already)" if len(renamed) == 1 else ": `$defs` holds those names already)")
    trans.append((r.changes["renamed-definitions-to-defs"], "#", ("definitions",), note))
    if refs is not None and not any(map(_to_definitions, refs)):
        return  # (no reference to repoint anywhere: the schema objects are not looked through)
    found = _refs_to(sent, "#") if places is None else _renamed_places(sent, places, "#", renamed)
    for place, node in found:
        if _to_definitions(node["$ref"]):
            node["$ref"] = _in_defs(node["$ref"], renamed)
            trans.append((r.changes["rewrote-definitions-reference"], "#", place + ("$ref",), ""))


def as_fresh(old: dict, defs: dict) -> dict:
    """{name: new name} for each name of `old` (`definitions`) that `defs` (`$defs`) holds too: the
    name with the first `_2`, `_3`... that neither holds, nor another new name."""
    renamed: dict = {}
    taken = None
    for name in old:
        if name in defs:
            if taken is None:
                taken = set(defs) | set(old)
            n = 2
            while f"{name}_{n}" in taken:
                n += 1
            renamed[name] = fresh = f"{name}_{n}"
            taken.add(fresh)
    return renamed


def _to_definitions(ref: str) -> bool:
    """Whether `ref` points into the root's `definitions`: its pointer as JSON Schema reads it,
    percent-decoded (values.ref_pointer), not its spelling."""
    if ref.startswith("#/definitions/"):
        return True
    if ref[:1] != "#" or "%" not in ref:
        return False
    tokens = ref_pointer(ref)
    return tokens is not None and len(tokens) > 1 and tokens[0] == "definitions"


def _in_defs(ref: str, renamed: dict | None = None) -> str:
    """`ref` (_to_definitions) pointing at the same place under `$defs`, where the definition it
    names has the name `renamed` gives it (if any): its own spelling kept where it can be."""
    tokens = ref_pointer(ref) if renamed else None
    if tokens is not None and tokens[1] in renamed:
        tokens = ("definitions", renamed[tokens[1]], *tokens[2:])
    elif ref.startswith("#/definitions/"):
        return "#/$defs/" + ref[len("#/definitions/"):]
    else:
        tokens = ref_pointer(ref)
    return "#/$defs/" + "/".join(t.replace("~", "~0").replace("/", "~1").replace("%", "%25") for t in tokens[1:])


def _renamed_places(sent: dict, places: list, prefix: str, renamed: dict | None = None) -> list:
    """_refs_to(sent, prefix) after _defs_renamed's rename, from `places` (_refs_to before it): the
    root's `definitions` now follow its `$defs` (or stand last, as `$defs`), under the names
    `renamed` gives them, every other place the same."""
    by_key: dict = {}
    for place, node in places:
        if node["$ref"].startswith(prefix):
            key = place[0] if place else None
            if key == "definitions":
                tail = place[1:] if not renamed else (renamed.get(place[1], place[1]),) + place[2:]
                place, key = ("$defs",) + tail, _RENAMED
            by_key.setdefault(key, []).append((place, node))
    found = by_key.pop(None, [])
    for key in sent:
        found += by_key.get(key, ())
        if key == "$defs":
            found += by_key.get(_RENAMED, ())
    return found


def _refs_to(schema: dict, prefix: str | None, ids: list | None = None) -> list:
    """(place, node) of every schema object of `schema` whose `$ref` is a string starting with
    `prefix` (None: every schema object), in document order: list(_nodes(schema)) filtered, with a
    place made only for a node found. `ids`: a list that gains an item where a schema object below
    the root has an `$id` or `$anchor` (what bundling resolves besides references)."""
    found: list = []
    try:
        _refs_below(schema, prefix, [], found, ids)
    except RecursionError:  # (a caller's own stack already deep: the loop, as before)
        found = []
        for place, node in _nodes(schema):
            if prefix is None or (type(node.get("$ref")) is str and node["$ref"].startswith(prefix)):
                found.append((place, node))
            if ids is not None and place and ("$id" in node or "$anchor" in node):
                ids.append(place)
    return found


def _refs_below(node: dict, prefix: str | None, path: list, found: list, ids: list | None = None) -> None:
    if ids is not None and path and ("$id" in node or "$anchor" in node):
        ids.append(tuple(path))
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
                        _refs_below(x, prefix, path, found, ids)
                        path.pop()
            else:
                _refs_below(v, prefix, path, found, ids)
            path.pop()
        elif type(v) is list and (kind == "list" or kind == "schema-or-list"):
            path.append(key)
            for i, x in enumerate(v):
                if type(x) is dict:
                    path.append(i)
                    _refs_below(x, prefix, path, found, ids)
                    path.pop()
            path.pop()
