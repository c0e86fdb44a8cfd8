"""Embedded resources: every `$ref` resolved as JSON Schema 2020-12 does (`$id` bases, `$anchor`, pointers) and pointed at a root definition."""

from __future__ import annotations

from typing import Any

from toolcast.walk.dialect import SCHEMA_SLOTS, SlotCopy, dialect_of, no_slots, slot_kind
from toolcast.walk.plans import _def_ref
from toolcast.walk.values import describe, ref_pointer, urllib_parse

# The base URI of a document that names none (RFC 3986 §5.1.4: the application's default; the
# .invalid domain is reserved, RFC 2606); never fetched, only joined with, so that relative `$id`s
# and `$ref`s resolve against a hierarchical absolute URI as urljoin requires.
DEFAULT_BASE = "https://toolcast.invalid/schema.json"
_DEFS = ("$defs", "definitions")
# The keys Resources._index records: a schema object with none of them (most) records nothing.
_unindexed = frozenset({"$id", "$anchor", "$dynamicAnchor", "$ref"}).isdisjoint


def _resolved(base: str, ref: str) -> tuple[str, str]:
    """(the absolute URI without its fragment, the fragment) of `ref` read at `base` (RFC 3986)."""
    parse = urllib_parse()
    return parse.urldefrag(parse.urljoin(base, ref))


class Resources:
    """The document's resources and references: built by one pass over its schema slots."""

    def __init__(self, doc: dict):
        self.doc = doc
        self.bases: dict[str, tuple] = {}  # resource URI -> the place of its root schema
        self.anchors: dict[tuple[str, str], tuple] = {}  # (resource URI, anchor) -> place
        self.refs: list[tuple[tuple, str, str]] = []  # (place of the $ref's schema, $ref, base URI)
        self.dialects: list[tuple[tuple, Any]] = []  # (place, `$schema`) of embedded resources
        # The place being indexed, one key a level: a tuple is made only for a place recorded.
        self._at: list = []
        self._index(doc, DEFAULT_BASE)

    def _index(self, s: dict, base: str) -> None:
        """Index schema object `s`, at the place `self._at`, and the schemas in its slots (plain
        dicts all: the document pass leaves no other, see values.plain_containers)."""
        at = self._at
        if _unindexed(s):  # (one test for most objects)
            if not at:
                self.bases[base] = ()
        else:
            base = self._record(s, base)
        if no_slots(s):
            return
        slots = SCHEMA_SLOTS  # (typed dict in the .pxd: compiled, a lookup per key and no call, unlike slot_kind)
        for k, v in s.items():
            kind = slots.get(k)
            if kind is None:
                continue
            at.append(k)
            if type(v) is dict and kind == "map":
                for n, x in v.items():
                    if type(x) is dict:
                        at.append(n)
                        self._index(x, base)
                        at.pop()
            elif type(v) is list and kind in ("list", "schema-or-list"):
                for i, x in enumerate(v):
                    if type(x) is dict:
                        at.append(i)
                        self._index(x, base)
                        at.pop()
            elif kind in ("schema", "schema-or-list") and type(v) is dict:
                self._index(v, base)
            at.pop()

    def _record(self, s: dict, base: str) -> str:
        """Record schema object `s` (at the place `self._at`, read at `base`): the resource its `$id`
        names, its anchors and its `$ref`; the base its slots are read at."""
        at = self._at
        id_ = s.get("$id")
        if isinstance(id_, str):
            base = _resolved(base, id_)[0] or base
            self.bases.setdefault(base, tuple(at))
            if at and "$schema" in s:
                self.dialects.append((tuple(at), s["$schema"]))
        elif not at:
            self.bases[base] = ()
        for key in ("$anchor", "$dynamicAnchor"):  # a dynamic anchor is a plain-name fragment too (§8.2.2)
            if isinstance(s.get(key), str):
                self.anchors.setdefault((base, s[key]), tuple(at))
        ref = s.get("$ref")
        if isinstance(ref, str):
            self.refs.append((tuple(at), ref, base))
        return base

    def holds_schema(self, place: tuple) -> bool:
        """Whether `place` is one _index visits: the document itself, or a schema slot's value (a
        member of a "map" or "list" slot) reached through schema objects only."""
        node: Any = self.doc
        i, n = 0, len(place)
        while i < n:
            if not isinstance(node, dict):
                return False
            k = place[i]
            kind = SCHEMA_SLOTS.get(k) if type(k) is str else None
            if kind is None or k not in node:
                return False
            v = node[k]
            if isinstance(v, dict) and kind == "map":
                if i + 1 == n or place[i + 1] not in v:
                    return False
                node, i = v[place[i + 1]], i + 2
            elif isinstance(v, list) and kind in ("list", "schema-or-list"):
                j = place[i + 1] if i + 1 < n else None
                if type(j) is not int or not 0 <= j < len(v):
                    return False
                node, i = v[j], i + 2
            elif kind in ("schema", "schema-or-list"):
                node, i = v, i + 1
            else:
                return False
        return True

    def target(self, ref: str, base: str) -> tuple | str | None:
        """The place `ref` (read at `base`) names; "external" for a resource not in the document;
        None when it names nothing in a resource that is."""
        if ref[:1] == "#":  # same resource: what urljoin and urldefrag give, without them
            uri, frag = "", ref[1:]
        else:
            uri, frag = _resolved(base, ref)
        root = self.bases.get(uri or base)
        if root is None:
            return "external"
        tokens = ref_pointer("#" + frag)
        if tokens is None:  # a plain-name fragment: an anchor of that resource
            return self.anchors.get((uri or base, _unquoted(frag)))
        place, node = root, self.at(root)
        for t in tokens:
            if isinstance(node, dict) and t in node:
                node = node[t]
            elif isinstance(node, list) and t.isdigit() and int(t) < len(node):
                t, node = int(t), node[int(t)]
            else:
                return None
            place += (t,)
        return place

    def at(self, place: tuple) -> Any:
        node: Any = self.doc
        for t in place:
            node = node[t]
        return node


def _unquoted(frag: str) -> str:
    return urllib_parse().unquote(frag) if "%" in frag else frag


def bundle(doc: dict, walk: Any, dialect: str | None = "2020-12") -> dict | None:
    """`doc` with every `$ref` it can resolve pointing at `#` or a root definition (a schema that
    is neither is copied into the root's `$defs` under a new name); None after a refusal.

    `walk` records the findings (report, change); `dialect` is the document's (an embedded
    resource that declares another is refused). A reference to a resource outside the
    document is left as it is (the walk refuses it: nothing is ever fetched)."""
    res = Resources(doc)
    for sp, declared in res.dialects:
        if dialect_of(declared) != dialect:
            # A resource in another dialect than the document's: its meaning is not applied here.
            walk.report("unsupported-dialect", sp + ("$schema",), value=describe(declared))
            return None
    if not res.refs:
        return doc
    taken = {n for k in _DEFS if isinstance(doc.get(k), dict) for n in doc[k]}
    names: dict[tuple, str] = {}  # place -> the `$ref` that now names it
    hoisted: dict[str, tuple] = {}
    new_refs: dict[tuple, str] = {}
    for sp, ref, base in res.refs:
        place = res.target(ref, base)
        if place == "external":
            continue
        if place is None:
            walk.report("unresolvable-ref", sp + ("$ref",), value=ref)
            return None
        if not res.holds_schema(place):  # a pointer to a value that is no schema (an enum member, ...)
            walk.report("unsupported-ref-target", sp + ("$ref",), value=ref)
            return None
        if place not in names:
            names[place] = _ref_for(place, taken, hoisted)
        if names[place] != ref:
            new_refs[sp] = names[place]
    if not new_refs and len(res.bases) < 2 and not res.anchors:
        return doc
    dropped: dict[tuple, str] = {}
    tree = _ref_tree(new_refs)
    out = _rewritten(doc, (), tree, dropped)
    if hoisted:
        if out is doc:
            out = dict(doc)  # (never the caller's own)
        defs = dict(out.get("$defs")) if isinstance(out.get("$defs"), dict) else {}
        for name, place in hoisted.items():
            defs[name] = _rewritten(res.at(place), place, tree, dropped)
            walk.change("copied-ref-target-to-defs", place, f"(as #/$defs/{name})")
        out["$defs"] = defs
    for place, k in dropped.items():
        # Reported as the walk reports these keywords below the root, where it drops them too.
        if k in _DEFS:
            walk.report("nested-definitions", place, keyword=k)
            walk.change("dropped-nested-definitions", place)
        else:
            walk.report("annotation-keyword-dropped", place, keyword=k)
            walk.change("dropped-annotation-keyword", place)
    return out


def _ref_for(place: tuple, taken: set, hoisted: dict) -> str:
    """The same-document `$ref` for the schema at `place`, hoisting it when it is not `#` or a
    root definition."""
    if place == ():
        return "#"
    if len(place) == 2 and place[0] in _DEFS:
        return _def_ref(place[1]) if place[0] == "$defs" else "#/definitions/" + _def_ref(place[1])[8:]
    base = str(place[-1]) if place else "root"
    name, i = base, 2
    while name in taken:
        name, i = f"{base}-{i}", i + 1
    taken.add(name)
    hoisted[name] = place
    return _def_ref(name)


# What a resolved document no longer needs below its root: every reference into a nested resource
# or definition now names a root definition (or a copy of the target there). Left in place, an
# `$id` beside a `$ref` would count as a sibling to merge.
_RESOLVED_AWAY = ("$id", "$anchor", "$defs", "definitions")  # ($dynamicAnchor stays: $dynamicRef reads it)
_nothing_resolved_away = frozenset(_RESOLVED_AWAY).isdisjoint


def _rewritten(s: Any, sp: tuple, tree: dict, dropped: dict) -> Any:
    """The schema at `sp` with its `$ref`s replaced as `tree` says and, below the root,
    the keywords of _RESOLVED_AWAY left out (noted in `dropped`, place -> keyword). `tree`
    holds the new `$ref`s as a trie of place tokens (_ref_tree), so that no place tuple is made per node."""
    sub: dict | None = tree
    for t in sp:
        sub = sub.get(t) if sub else None
    return _Copy(list(sp), dropped).schema(s, sub)


def _ref_tree(new_refs: dict) -> dict:
    """{place: new `$ref`} as a trie: token -> subtrie, and _NEW_REF -> the `$ref` of that place."""
    tree: dict = {}
    for place, ref in new_refs.items():
        node = tree
        for t in place:
            node = node.setdefault(t, {})
        node[_NEW_REF] = ref
    return tree


_NEW_REF = None  # the trie key of a place's new `$ref` (no place token is None)


class _Copy(SlotCopy):
    """_rewritten's copy: new containers only where something in them changes (the walk never
    mutates what it reads); the place being copied is a stack of keys, a tuple only where noted."""

    def __init__(self, at: list, dropped: dict):
        self.at = at
        self.dropped = dropped

    def schema(self, s: Any, tree: dict | None) -> Any:
        if not isinstance(s, dict):
            return s
        at = self.at
        out = None
        if tree and _NEW_REF in tree:
            out = dict(s)
            out["$ref"] = tree[_NEW_REF]
        elif no_slots(s) and (not at or _nothing_resolved_away(s)):
            return s  # (a new `$ref` is only ever at a place that holds a schema, never below a leaf)
        for k, v in s.items():
            if at and k in _RESOLVED_AWAY:
                if out is None:
                    out = dict(s)
                del out[k]
                self.dropped.setdefault(tuple(at) + (k,), k)
                continue
            kind = slot_kind(k)
            if kind is None:
                continue
            at.append(k)
            new = self.slot(kind, v, tree.get(k) if tree else None)
            at.pop()
            if new is not v:
                if out is None:
                    out = dict(s)
                out[k] = new
        return s if out is None else out

