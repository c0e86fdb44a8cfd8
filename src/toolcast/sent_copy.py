"""The copy of a schema sent without strict, and what sendable's passes would find in it, in one traversal."""

from __future__ import annotations

from typing import Any

from toolcast.tool_input import MAX_COPY_DEPTH, _TooDeep, copy_json
from toolcast.walk.values import ref_pointer

_SCALARS = frozenset({str, int, float, bool, type(None)})
_DEFS = ("$defs", "definitions")


class _Unusual(Exception):
    """A container that is no plain dict or list: copied by copy_json, every pass run."""


class Seen:
    """What the copy holds of what sendable's passes rewrite or check, looked for in every object of
    the copy, schema or not (a superset of the schema objects those passes visit): a pass none of
    whose keys occur anywhere would change and report nothing, so it is skipped; one whose keys
    occur runs as it always does, on the schema objects only."""

    __slots__ = ("bounds", "names", "refs", "resources", "tuples")

    def __init__(self) -> None:
        self.bounds = self.tuples = self.resources = False  # a boolean bound, an `items` list, a nested $id/$anchor
        self.refs: list = []  # every string `$ref` other than "#"
        self.names: list = []  # every `properties` object

    def may_bundle(self, root: dict) -> bool:
        """False when no `$ref` names other than `#` or a root definition that exists, and no object
        below the root is a resource or anchor (sendable._needs_bundle holds nowhere)."""
        if self.resources:
            return True
        for ref in set(self.refs):  # (a document names few definitions, many times each)
            tokens = ref_pointer(ref) if ref[:1] == "#" else None
            if (tokens is None or len(tokens) != 2 or tokens[0] not in _DEFS or type(root.get(tokens[0])) is not dict
                    or tokens[1] not in root[tokens[0]]):
                return True
        return False

    def names_match(self, key_re: Any) -> bool:
        """Whether every property name the copy holds matches `key_re` (sendable.property_names finds none that does not)."""
        match = key_re.fullmatch
        return all(type(n) is str and match(n) is not None for props in self.names for n in props)


def looked_copy(schema: Any) -> tuple[Any, Seen | None]:
    """(copy_json(schema), what it holds: Seen, or None when it was not looked at and every pass must run).
    Raises _TooDeep as copy_json does."""
    if type(schema) is not dict:
        return copy_json(schema), None
    seen = Seen()
    try:
        return _dict(schema, 1, seen), seen
    except (_Unusual, RecursionError):
        return copy_json(schema), None


def _dict(value: dict, depth: int, seen: Seen) -> dict:
    # As tool_input._copy_dict (the same depth limit), and what the object holds noted in `seen`.
    if depth > MAX_COPY_DEPTH:
        raise _TooDeep
    out = dict(value)
    if "$ref" in value:
        ref = value["$ref"]
        if type(ref) is str and ref != "#":
            seen.refs.append(ref)
    if "properties" in value and type(value["properties"]) is dict:
        seen.names.append(value["properties"])
    if "items" in value and type(value["items"]) is list:
        seen.tuples = True
    if ("exclusiveMinimum" in value and type(value["exclusiveMinimum"]) is bool) or (
            "exclusiveMaximum" in value and type(value["exclusiveMaximum"]) is bool):
        seen.bounds = True
    if depth > 1 and ("$id" in value or "$anchor" in value):
        seen.resources = True
    for k, v in value.items():
        tv = type(v)
        if tv is dict:
            out[k] = _dict(v, depth + 1, seen)
        elif tv is list:
            out[k] = _list(v, depth + 1, seen)
        elif tv not in _SCALARS:
            raise _Unusual
    return out


def _list(value: list, depth: int, seen: Seen) -> list:
    if depth > MAX_COPY_DEPTH:
        raise _TooDeep
    out = list(value)
    for i, v in enumerate(value):
        tv = type(v)
        if tv is dict:
            out[i] = _dict(v, depth + 1, seen)
        elif tv is list:
            out[i] = _list(v, depth + 1, seen)
        elif tv not in _SCALARS:
            raise _Unusual
    return out
