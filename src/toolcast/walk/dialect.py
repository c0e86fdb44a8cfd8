"""Dialects: the meaning a schema's declared `$schema` gives it, rewritten into its 2020-12 equal before the walk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolcast.walk.values import LATER_KEYWORDS, OPENAPI_KEYWORDS, STORAGE_BESIDE_REF, remember

# Where a JSON Schema holds subschemas, in every draft the walk reads (2020-12 and the older
# `dependencies`, `additionalItems`, array `items`): kind "map" (name -> schema), "list", "schema",
# "schema-or-list". These are JSON Schema's own applicators, not a provider's slots.
SCHEMA_SLOTS = {
    "properties": "map", "patternProperties": "map", "$defs": "map", "definitions": "map",
    "dependentSchemas": "map", "dependencies": "map",
    "allOf": "list", "anyOf": "list", "oneOf": "list", "prefixItems": "list",
    "items": "schema-or-list",
    "additionalProperties": "schema", "additionalItems": "schema", "not": "schema", "if": "schema",
    "then": "schema", "else": "schema", "propertyNames": "schema", "contains": "schema",
    "unevaluatedProperties": "schema", "unevaluatedItems": "schema", "contentSchema": "schema",
}

# A schema object with none of these keys holds no subschema (most nodes: leaves); the copies below
# return such a node without looking at its keys one by one (bound once: compiled, no method lookup).
no_slots = frozenset(SCHEMA_SLOTS).isdisjoint
slot_kind = SCHEMA_SLOTS.get

# The dialects toolcast reads, by their meta-schema URI (scheme, trailing "#" and case of the
# host ignored: both spellings are in use). 2020-12 is the default (MCP, since 2025-11-25).
DIALECTS = {
    "json-schema.org/draft/2020-12/schema": "2020-12",
    "json-schema.org/draft/2019-09/schema": "2019-09",
    "json-schema.org/draft-07/schema": "draft-07",
    "json-schema.org/draft-06/schema": "draft-06",
    "json-schema.org/draft-04/schema": "draft-04",
}
# Before 2019-09, "All other properties in a "$ref" object MUST be ignored" (draft-07 §8.3).
REF_SIBLINGS_IGNORED = frozenset({"draft-07", "draft-06", "draft-04"})
# The dialects in the order they came out: a keyword of LATER_KEYWORDS is unknown to each before its own.
_ORDER = ("draft-04", "draft-06", "draft-07", "2019-09", "2020-12")


def schema_nodes(schema: Any):
    """(place, node) of every schema object of `schema`, in document order (its slots: SCHEMA_SLOTS).
    Lazy: a node's subschemas are read when the caller comes back from it, so a caller may change
    the node first (sendable's passes, sent_rules)."""
    stack: list = [((), schema)]
    while stack:
        place, node = stack.pop()
        if type(node) is not dict:
            continue
        yield place, node
        subs: list = []
        for key, v in node.items():
            kind = SCHEMA_SLOTS.get(key) if type(key) is str else None
            if kind is None:
                continue
            if kind == "map" and type(v) is dict:
                subs.extend((place + (key, n), x) for n, x in v.items())
            elif (kind == "list" or kind == "schema-or-list") and type(v) is list:
                subs.extend((place + (key, i), x) for i, x in enumerate(v))
            else:
                subs.append((place + (key,), v))
        stack.extend(reversed(subs))


def nodes_with(schema: Any, key: str, kind: type) -> list:
    """[(place, node) for place, node in schema_nodes(schema) if type(node.get(key)) is kind]: the
    schema objects holding `key` with a value of type `kind`, in document order, a place made only
    for a node found (visit_schema_objects)."""
    found: list = []

    def holds(node: dict, path: list) -> None:
        if type(node.get(key)) is kind:
            found.append((tuple(path), node))

    visit_schema_objects(schema, holds)
    return found


def visit_schema_objects(schema: Any, visit: Callable[[dict, list], None]) -> None:
    """visit(node, path) for every schema object of `schema` in document order, as schema_nodes
    gives them (the same slots, the same order, a node's subschemas read after its visit, which may
    change it), recursively: `path` is its place as a list, made a tuple only where the visit keeps
    it. Where the stack runs out (a caller's own stack already deep), schema_nodes' loop visits the
    objects not visited yet."""
    done = [0]  # (how many objects were visited, in that order)
    try:
        _visit_below(schema, visit, [], done)
    except RecursionError:
        for i, (place, node) in enumerate(schema_nodes(schema)):
            if i >= done[0]:
                visit(node, list(place))


def _visit_below(node: Any, visit: Callable[[dict, list], None], path: list, done: list) -> None:
    if type(node) is not dict:
        return
    visit(node, path)
    done[0] += 1
    for k, v in node.items():
        slot = SCHEMA_SLOTS.get(k) if type(k) is str else None
        if slot is None:
            continue
        path.append(k)
        if slot == "map" and type(v) is dict:
            for name, x in v.items():
                path.append(name)
                _visit_below(x, visit, path, done)
                path.pop()
        elif (slot == "list" or slot == "schema-or-list") and type(v) is list:
            for i, x in enumerate(v):
                path.append(i)
                _visit_below(x, visit, path, done)
                path.pop()
        else:
            _visit_below(v, visit, path, done)
        path.pop()


def unknown_keywords(dialect: str) -> frozenset:
    """The keywords of LATER_KEYWORDS that `dialect` does not define (and so ignores)."""
    rank = _ORDER.index(dialect) if dialect in _ORDER else len(_ORDER)
    return frozenset(k for k, since in LATER_KEYWORDS.items() if _ORDER.index(since) > rank)


# What stays beside an ignored-siblings `$ref`: the document's storage (a pointer can still reach
# a definition kept there) and the dialect itself.
_KEPT_BESIDE_REF = STORAGE_BESIDE_REF  # (values reads it too, to tell whether a rewrite is needed)
# The keys Rewrite._node reads (`$ref` and its siblings, a keyword some dialect does not define, OpenAPI's,
# draft-04's `id` and boolean bounds, a fragment-only `$id`): a schema object with none of them it
# hands back as it is (Rewrite.rewrite_at looks at the others only).
REWRITTEN_KEYS = frozenset({"$ref", "$id", "id", "exclusiveMinimum", "exclusiveMaximum"}) | frozenset(
    LATER_KEYWORDS) | OPENAPI_KEYWORDS


def dialect_of(uri: Any) -> str | None:
    """The dialect a `$schema` value names, or None when toolcast does not know it."""
    if type(uri) is str:
        known = _READ.get(uri, MISSING_DIALECT)
        if known is not MISSING_DIALECT:
            return known
    elif not isinstance(uri, str):
        return None
    found = _dialect_of(uri)
    # (a few spellings are in use)
    return remember(_READ, uri, found, entries=256) if type(uri) is str else found


# `$schema` value -> dialect_of's answer (documents of one source repeat one spelling).
_READ: dict[str, str | None] = {}
MISSING_DIALECT: Any = object()


def _dialect_of(uri: str) -> str | None:
    key = uri.strip()
    for scheme in ("https://", "http://"):
        if key.lower().startswith(scheme):
            key = key[len(scheme):]
            break
    else:
        return None
    key = key.rstrip("#")
    host, _, rest = key.partition("/")
    return DIALECTS.get(host.lower() + "/" + rest)


class SlotCopy:
    """A copy-on-write descent into the member schemas of one schema slot: each member goes
    through `self.schema(member, its context)` with its key pushed on the place stack `self.at`,
    and a map or list is copied only once a member changes (most members of most documents do
    not). A context is the subclass's own data for a place, a dict keyed as the document, or None.
    A subclass sets `self.at`, the place stack (a list of keys)."""

    def schema(self, s: Any, ctx: Any) -> Any:
        raise NotImplementedError

    def slot(self, kind: str, v: Any, ctx: Any) -> Any:
        """Slot value `v` (of SCHEMA_SLOTS kind `kind`) with its member schemas through schema()."""
        at = self.at
        if kind == "map" and isinstance(v, dict):
            out: Any = None
            for n, x in v.items():
                if not isinstance(x, dict):
                    continue
                at.append(n)
                y = self.schema(x, ctx.get(n) if ctx else None)
                at.pop()
                if y is not x:
                    if out is None:
                        out = dict(v)
                    out[n] = y
            return v if out is None else out
        if kind in ("list", "schema-or-list") and isinstance(v, list):
            items: Any = None
            for i, x in enumerate(v):
                if not isinstance(x, dict):
                    continue
                at.append(i)
                y = self.schema(x, ctx.get(i) if ctx else None)
                at.pop()
                if y is not x:
                    if items is None:
                        items = list(v)
                    items[i] = y
            return v if items is None else items
        if kind in ("schema", "schema-or-list"):
            return self.schema(v, ctx)
        return v


class Rewrite(SlotCopy):
    """One document's rewrite into 2020-12 terms: the new document and what was changed where."""

    def __init__(self, dialect: str, annotations: frozenset = frozenset(), later: bool = True,
                 foreign: frozenset = frozenset()):
        self.dialect = dialect
        self.ref_siblings_ignored = dialect in REF_SIBLINGS_IGNORED
        self.draft4 = dialect == "draft-04"
        # Annotations the provider takes beside `$ref` stay: they constrain nothing either way.
        self.kept = _KEPT_BESIDE_REF | annotations
        self.ignored: list[tuple[tuple, str]] = []  # (place, keyword) beside $ref, dropped
        self.bounds: list[tuple[tuple, str, str]] = []  # (place, keyword, what it became)
        self.anchors: list[tuple[tuple, str]] = []  # (place, fragment-only id made an $anchor)
        # The keywords it does not define, looked for only where the scan saw one (`later`).
        self.unknown = unknown_keywords(dialect) if later else frozenset()
        self.dropped: list[tuple[tuple, str]] = []  # (place, keyword the dialect does not define), dropped
        # Keywords of no JSON Schema dialect that the rules would otherwise read as another
        # specification's (OpenAPI `nullable`, values.OPENAPI_KEYWORDS): unknown keywords here,
        # dropped (the caller records them as the rules' unknown class says). Looked for only where
        # the scan saw one.
        self.foreign = foreign
        self.unread: list[tuple[tuple, str]] = []  # (place, foreign keyword), dropped
        self.invalid: list[tuple[tuple, str, Any]] = []  # (place, keyword, value) the dialect does not allow
        # The place being rewritten, one key a level: a tuple is made only for a place that is
        # recorded (a new tuple per visited node cost about a third of the rewrite).
        self.at = []
        self.left_out: set = set()  # (rewrite_at's places left out)

    def rewrite(self, s: Any, sp: tuple) -> Any:
        """`s`, the schema at place `sp`, in 2020-12 terms (the same object when nothing in it changes)."""
        self.at = list(sp)
        return self.schema(s, None)

    def rewrite_at(self, s: dict, marked: list, which: int, owned: bool = False) -> dict:
        """rewrite(s, ()), looking only at the schema objects in `marked`: (place, node, node) of
        every schema object of `s` (or of a copy of it) that its descent reaches and that holds a
        key of REWRITTEN_KEYS, in document order (sent_copy.Seen.marked), `node` its item `which` (1:
        of the original, 2: of the copy). Every other schema object is one _node hands back as it
        is, so the same document comes out (the objects on the way to a changed one copied), with
        the same records. `owned`: every container of `s` is the caller's own, held at one place
        (sent_copy's copy): each changed object is changed where it stands, `s` itself comes back,
        and every object left in it stays where it was. `left_out` then holds the places of the
        slots the rewrite left out (nothing below them is in the document any more)."""
        out = s
        made: set = set()  # (ids of the containers made here, held by `out`: changed in place)
        cut: set = set()  # places below which the descent does not go (a slot the rewrite left out)
        lengths: set = set()  # (their lengths)
        for entry in marked:
            place = entry[0]
            if cut and _cut(place, cut, lengths):
                continue
            node = entry[which]
            self.at = list(place)
            new = self._node(node)
            if new is not node:
                for k in node:
                    if k not in new and slot_kind(k) is not None:
                        cut.add(place + (k,))
                        lengths.add(len(place) + 1)
                if owned:
                    node.clear()
                    node.update(new)
                else:
                    out = _put(out, place, new, made) if place else new
                    made.add(id(new))
        self.left_out = cut
        return out

    def schema(self, s: Any, ctx: Any) -> Any:
        if type(s) is not dict:  # (the document pass leaves plain dicts only, see values.plain_containers)
            return s
        out = self._node(s)
        if no_slots(out):
            return out
        changed = None
        at = self.at
        for k, v in out.items():
            kind = slot_kind(k)
            if kind is None or (kind == "map" and k == "dependencies" and not isinstance(v, dict)):
                continue
            at.append(k)
            new = self.slot(kind, v, None)
            at.pop()
            if new is not v:
                if changed is None:
                    changed = dict(out)
                changed[k] = new
        return changed if changed is not None else out

    def _node(self, s: dict) -> dict:
        """Schema object `s`, at the place self.at, in 2020-12 terms, its subschemas as they are
        (the same object when nothing of its own changes). Only a key of REWRITTEN_KEYS changes it."""
        out = s
        if self.ref_siblings_ignored and "$ref" in out and not self.kept.issuperset(out):  # (most: `$ref` alone)
            extra = [k for k in out if k not in self.kept]
            if extra:
                sp = tuple(self.at)
                self.ignored.extend([(sp, k) for k in extra])  # (a list: compiled, schema() is a C method)
                out = {k: v for k, v in out.items() if k in self.kept}
        if self.unknown and not self.unknown.isdisjoint(out):
            sp = tuple(self.at)
            self.dropped.extend([(sp, k) for k in out if k in self.unknown])
            out = {k: v for k, v in out.items() if k not in self.unknown}
        if self.foreign and not self.foreign.isdisjoint(out):
            sp = tuple(self.at)
            self.unread.extend([(sp, k) for k in out if k in self.foreign])
            out = {k: v for k, v in out.items() if k not in self.foreign}
        if self.draft4:
            out = self._draft4(out)
        if self.ref_siblings_ignored and isinstance(out.get("$id"), str) and out["$id"].startswith("#"):
            # Before 2019-09 a fragment-only `$id` is how a schema names itself: an anchor now.
            self.anchors.append((tuple(self.at), out["$id"]))
            out = {("$anchor" if k == "$id" else k): (v[1:] if k == "$id" else v) for k, v in out.items()}
        return out

    def _draft4(self, s: dict) -> dict:
        """Draft-04's `id`, and its boolean `exclusiveMinimum`/`exclusiveMaximum`, which make
        `minimum`/`maximum` exclusive: the numeric 2020-12 keywords, exactly."""
        out = s
        sp = None
        if isinstance(s.get("id"), str) and "$id" not in s:
            out = {("$id" if k == "id" else k): v for k, v in s.items()}
            sp = tuple(self.at)
            self.bounds.append((sp, "id", "$id"))
        for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            if type(out.get(flag)) is not bool:
                if flag in out:  # draft-04's flag is a boolean: a number here is not draft-04's keyword
                    self.invalid.append((tuple(self.at), flag, out[flag]))
                continue
            new = dict(out)
            if sp is None:
                sp = tuple(self.at)
            if new.pop(flag) and bound in new:
                new[flag] = new.pop(bound)  # `minimum: m` with the flag set: `exclusiveMinimum: m`
                self.bounds.append((sp, flag, f"exclusive {bound} {new[flag]!r}"))
            else:
                # false, or true with no bound: the flag changes nothing (draft-04 §5.1.2, §5.1.3).
                self.bounds.append((sp, flag, "dropped (it modifies nothing)"))
            out = new
        return out


def _cut(place: tuple, cut: set, lengths: set) -> bool:
    """Whether `place` is at or below one of `cut` (places of those `lengths`)."""
    for n in lengths:  # noqa: SIM110 (a loop, not any() over a generator: called once per object marked)
        if place[:n] in cut:
            return True
    return False


def _put(root: dict, place: tuple, new: dict, made: set) -> dict:
    """`root` with `new` at `place` (not the root): each container on the way copied once (`made`
    holds those made already, changed in place), as SlotCopy copies them."""
    if id(root) not in made:
        root = dict(root)
        made.add(id(root))
    parent: Any = root
    for t in place[:-1]:
        child = parent[t]
        if id(child) not in made:
            child = dict(child) if type(child) is dict else list(child)
            made.add(id(child))
            parent[t] = child
        parent = child
    parent[place[-1]] = new
    return root
