"""The copy of a schema sent without strict, and what sendable's passes would find in it, in one traversal."""

from __future__ import annotations

from math import isfinite
from typing import Any

from toolcast.tool_input import MAX_COPY_DEPTH, _TooDeep, copy_json
from toolcast.walk import budget
from toolcast.walk.dialect import REWRITTEN_KEYS, SCHEMA_SLOTS, dialect_of
from toolcast.walk.values import _PLAIN_BUDGET, SCAN_KEYS, _node_flags, is_text, ref_pointer

# The values copied as they are (a float: when finite, as the document scan passes it).
_SCALARS = frozenset({str, int, bool, type(None)})
_slot = SCHEMA_SLOTS.get
# The slot kinds, as SCHEMA_SLOTS holds them (compared by identity), and a "map" slot's members'.
_MAP, _LIST, _EITHER = SCHEMA_SLOTS["properties"], SCHEMA_SLOTS["allOf"], SCHEMA_SLOTS["items"]
_SCHEMA = SCHEMA_SLOTS["not"]
_DEFS = ("$defs", "definitions")
# The keys _note reads: an object with none of them notes nothing (the document scan's among them).
_unlooked = (frozenset({"$ref", "properties", "items", "exclusiveMinimum", "exclusiveMaximum", "$id", "$anchor",
                        "dependencies"}) | SCAN_KEYS | REWRITTEN_KEYS).isdisjoint
_unrewritten = REWRITTEN_KEYS.isdisjoint


class _Unusual(Exception):
    """A container that is no plain dict or list: copied by copy_json, every pass run."""


def names_other(ref: str, root: dict) -> bool:
    """Whether `ref` (a string `$ref`, not "#") names other than a root definition of `root` that
    exists (by `$id`, an anchor, a deeper pointer, or nothing): what bundling resolves."""
    tokens = ref_pointer(ref) if ref[:1] == "#" else None
    return (tokens is None or len(tokens) != 2 or tokens[0] not in _DEFS or type(root.get(tokens[0])) is not dict
            or tokens[1] not in root[tokens[0]])


class Seen:
    """What the copy holds of what sendable's passes rewrite or check, looked for in every object of
    the copy, schema or not (a superset of the schema objects those passes visit): a pass none of
    whose keys occur anywhere would change and report nothing, so it is skipped; one whose keys
    occur runs as it always does, on the schema objects only. `ref_places`, `nested`, `bounds`,
    `tuples`, `tuple_places`, `dependents` and `marked` are of the schema objects alone
    (sent_refs._refs_below's slots, walk.dialect.visit_schema_objects'), exact for the copy as it
    came out; a pass that changes the copy keeps each list true of it, or makes it None (not known:
    looked for again)."""

    __slots__ = ("bounds", "dependents", "flags", "hidden", "ids", "left", "marked", "marks", "names", "nested",
                 "ref_places", "refs", "resources", "scan", "tuple_places", "tuples")

    def __init__(self) -> None:
        # A schema object with a boolean bound, one with an `items` list (both exact); an object below
        # the root with an $id/$anchor.
        self.bounds = self.tuples = self.resources = False
        self.nested = False  # a schema object below the root with an `$id` or `$anchor`
        self.ids = False  # one with a string `id` (draft-04's `$id` and anchor) and no `$ref` beside it
        # (place, node of the copy) of every schema object holding `dependencies` (what
        # sent_dialect._dependencies splits), and of every one whose `items` is a list (the tuple
        # form sendable._tuple_items writes as 2020-12's), in document order.
        self.dependents: list | None = []
        self.tuple_places: list | None = []
        self.refs: list = []  # every string `$ref` other than "#"
        self.names: list = []  # every `properties` object
        # (place, node of the copy) of every schema object with a string `$ref`, "#" too, in document
        # order: sent_refs._refs_to(copy, "") of the copy as it came out, made in the copy's pass.
        self.ref_places: list = []
        # With `marks` (a document that declares a dialect other than 2020-12): (place, node of the
        # original, node of the copy) of every schema object holding a key of dialect.REWRITTEN_KEYS,
        # that dialect.Rewrite's descent reaches, in document order: what Rewrite.rewrite_at looks at.
        self.marks = False
        self.marked: list = []
        self.hidden = 0  # (while the copy is below a dict that a "list" slot holds: none marked there)
        # The containers the copy may still make: a subtree shared in place is copied once per place,
        # as the walk visits it (walk.budget; the walk leaves unwalked what the rules drop).
        self.left = budget.NODE_BUDGET
        # With `scan`, the pass is also the document scan (walk.document): `flags` are the HAS_* flags
        # walk.values._plain_flags gives the document, which that pass vouches to be plain JSON.
        self.scan = False
        self.flags = 0

    def may_bundle(self, root: dict) -> bool:
        """False when no `$ref` names other than `#` or a root definition that exists, and no object
        below the root is a resource or anchor (nothing sent_refs.local_references bundles)."""
        if self.resources:
            return True
        # (a document names few definitions, many times each)
        return any(names_other(ref, root) for ref in set(self.refs))

    def bundles(self, root: dict) -> bool:
        """Whether sent_refs.local_references bundles `root`, the copy as it came out (see may_bundle)."""
        if self.nested:
            return True
        refs = {node["$ref"] for _, node in self.ref_places}  # (a document names few places, many times each)
        refs.discard("#")
        return any(names_other(ref, root) for ref in refs)

    def names_match(self, key_re: Any) -> bool:
        """Whether every property name the copy holds matches `key_re` (sendable.property_names finds none that does not)."""
        match = key_re.fullmatch
        return all(type(n) is str and match(n) is not None for props in self.names for n in props)


def looked_copy(schema: Any, marks: bool = True) -> tuple[Any, Seen | None]:
    """(copy_json(schema), what it holds: Seen, or None when it was not looked at and every pass must run).
    Raises _TooDeep as copy_json does, and walk.budget.SchemaTooLarge past its budget of containers.
    `marks`: Seen.marked kept where the document declares an older dialect (_marks)."""
    if type(schema) is not dict:
        return copy_json(schema), None
    seen = Seen()
    seen.marks = marks and _marks(schema)
    try:
        return _dict(schema, 1, seen, []), seen
    except (_Unusual, RecursionError):
        return copy_json(schema), None


def scanned_copy(schema: dict) -> tuple[dict, Seen] | None:
    """looked_copy(schema) made in the same pass as the document scan (walk.document: the copy sent
    without strict, of a document that is not walked before the scan), its Seen's `flags` those
    walk.values.scan gives `schema`; None, nothing made, unless the document is plain JSON (as
    _plain_flags passes it) of at most _PLAIN_BUDGET containers by place (so neither shared at every
    level nor a cycle) and no deeper than the copy goes: then the scan and the copy are left to their own passes."""
    seen = Seen()
    seen.scan = True
    seen.marks = _marks(schema)
    seen.left = _PLAIN_BUDGET
    try:
        return _dict(schema, 1, seen, []), seen
    except (_Unusual, _TooDeep, budget.SchemaTooLarge, RecursionError):
        return None


def _marks(schema: dict) -> bool:
    """Whether the copy of document `schema` keeps Seen.marked: it declares a dialect other than
    2020-12 (which dialect.Rewrite then rewrites, in the walk and, sent, in sent_dialect)."""
    return "$schema" in schema and dialect_of(schema["$schema"]) != "2020-12"


def _dict(value: dict, depth: int, seen: Seen, at: list | None, members: bool = False) -> dict:
    # As tool_input._copy_dict (the same depth limit), and what the object holds noted in `seen`.
    # `at`: the place of `value` (a list of keys) where it is a schema object, or a "map" slot's
    # object (`members`) whose dict members are (the schema slots of sent_refs._refs_below); else None.
    if depth > MAX_COPY_DEPTH:
        raise _TooDeep
    seen.left -= 1
    if seen.left < 0:
        raise budget.SchemaTooLarge(tuple(at) if at is not None else ())
    out = dict(value)
    scan = seen.scan  # (the document scan's pass: is each string text? The walk read the others' strings)
    if not _unlooked(value):  # (most objects hold none of the keys looked for: one test)
        _note(value, out, depth, seen, at, members)
    if at is None:  # (no schema object: a plain copy, looked at)
        for k, v in value.items():
            tv = type(v)
            if type(k) is not str:
                raise _Unusual
            if scan:  # (`text`: typed str in the compiled build, whose isascii() is then a C call)
                text = k
                if not text.isascii() and not is_text(text):
                    raise _Unusual
            if tv is str:
                if scan:
                    text = v
                    if not text.isascii() and not is_text(text):
                        raise _Unusual  # (not text: the document scan says where)
            elif tv is dict:
                out[k] = _dict(v, depth + 1, seen, None)
            elif tv is list:
                out[k] = _list(v, depth + 1, seen, None)
            elif tv not in _SCALARS and (tv is not float or not isfinite(v)):
                raise _Unusual
        return out
    for k, v in value.items():
        if type(k) is not str:
            raise _Unusual
        if scan:
            text = k
            if not text.isascii() and not is_text(text):
                raise _Unusual
        tv = type(v)
        if tv is str:
            if scan:
                text = v
                if not text.isascii() and not is_text(text):
                    raise _Unusual  # (not text: the document scan says where)
        elif tv is dict or tv is list:
            kind = _SCHEMA if members else _slot(k)
            if kind is None:  # (kinds by identity: `None == str` is slow in the interpreter)
                out[k] = _dict(v, depth + 1, seen, None) if tv is dict else _list(v, depth + 1, seen, None)
                continue
            at.append(k)
            if tv is dict and kind is _LIST:  # (a schema object to sent_refs, not to dialect.Rewrite's descent)
                seen.hidden += 1
                out[k] = _dict(v, depth + 1, seen, at)
                seen.hidden -= 1
            elif tv is dict:
                out[k] = _dict(v, depth + 1, seen, at, kind is _MAP)
            else:
                out[k] = _list(v, depth + 1, seen, at if kind is _LIST or kind is _EITHER else None)
            at.pop()
        elif tv not in _SCALARS and (tv is not float or not isfinite(v)):
            raise _Unusual
    return out


def _note(value: dict, out: dict, depth: int, seen: Seen, at: list | None, members: bool) -> None:
    # What object `value` (copied as `out`) holds of _LOOKED, noted in `seen` (see _dict).
    if seen.scan:  # (the document scan's look at an object: its keys, then the flags it raises)
        if not SCAN_KEYS.isdisjoint(value):
            seen.flags |= _node_flags(value, depth == 1)
    place = None
    if seen.marks and at is not None and not members and not seen.hidden and not _unrewritten(value):
        place = tuple(at)
        seen.marked.append((place, value, out))
    if "$ref" in value:
        ref = value["$ref"]
        if type(ref) is str:
            if ref != "#":
                seen.refs.append(ref)
            if at is not None and not members:
                seen.ref_places.append((tuple(at) if place is None else place, out))
    if "properties" in value and type(value["properties"]) is dict:
        seen.names.append(value["properties"])
    if at is not None and not members:  # (a schema object: what sent_dialect.needs_2020_terms looks for)
        if "items" in value and type(value["items"]) is list:
            seen.tuples = True
            if place is None:
                place = tuple(at)
            seen.tuple_places.append((place, out))
        if ("exclusiveMinimum" in value and type(value["exclusiveMinimum"]) is bool) or (
                "exclusiveMaximum" in value and type(value["exclusiveMaximum"]) is bool):
            seen.bounds = True
    if depth > 1 and ("$id" in value or "$anchor" in value):
        seen.resources = True
        if at is not None and not members:
            seen.nested = True
    if depth > 1 and "id" in value and at is not None and not members and type(value["id"]) is str and "$ref" not in value:
        seen.ids = True
    if "dependencies" in value and at is not None and not members:
        seen.dependents.append((tuple(at) if place is None else place, out))


def _list(value: list, depth: int, seen: Seen, at: list | None) -> list:
    # `at`: the place of `value` where its dict members are schema objects, else None.
    if depth > MAX_COPY_DEPTH:
        raise _TooDeep
    seen.left -= 1
    if seen.left < 0:
        raise budget.SchemaTooLarge(tuple(at) if at is not None else ())
    out = list(value)
    for i, v in enumerate(value):
        tv = type(v)
        if tv is dict:
            if at is None:
                out[i] = _dict(v, depth + 1, seen, None)
            else:
                at.append(i)
                out[i] = _dict(v, depth + 1, seen, at)
                at.pop()
        elif tv is list:
            out[i] = _list(v, depth + 1, seen, None)
        elif tv is str:
            if seen.scan:
                text = v
                if not text.isascii() and not is_text(text):
                    raise _Unusual  # (not text: the document scan says where)
        elif tv not in _SCALARS and (tv is not float or not isfinite(v)):
            raise _Unusual
    return out
