"""Whether a schema sent as written is a schema: the places where its dialect's metaschema rejects a keyword's value."""

from __future__ import annotations

import re
from typing import Any

# What each keyword's value must be, read from the metaschemas of the dialects toolcast reads
# (json-schema.org: draft-04, draft-06 and draft-07 `schema`; 2019-09 and 2020-12 `schema` and
# their vocabularies' `meta/*`). A keyword a dialect does not define is unknown there, and its
# value is never checked. `format` assertions (uri, regex) are not part of a metaschema's
# validation (they are annotations), so a string is enough where one is named.
(_SCHEMA, _SCHEMA_ARRAY, _SCHEMA_MAP, _SCHEMA_OR_ARRAY, _BOOL_OR_SCHEMA, _DEPENDENCIES, _STRING, _FRAGMENTLESS,
 _ANCHOR, _ANCHOR_2019, _BOOL, _NUMBER, _POSITIVE, _COUNT, _STRINGS, _STRINGS_MAP, _TYPE, _ARRAY, _ENUM_04,
 _VOCABULARY) = range(20)

_EXPECTED = {
    _SCHEMA: "a schema", _SCHEMA_ARRAY: "a non-empty list of schemas", _SCHEMA_MAP: "an object of schemas",
    _SCHEMA_OR_ARRAY: "a schema or a non-empty list of schemas", _BOOL_OR_SCHEMA: "true, false or a schema",
    _DEPENDENCIES: "an object of schemas and lists of distinct strings", _STRING: "a string",
    _FRAGMENTLESS: "a URI reference without a fragment", _ANCHOR: "an anchor name", _ANCHOR_2019: "an anchor name",
    _BOOL: "true or false", _NUMBER: "a number", _POSITIVE: "a number greater than 0",
    _COUNT: "a non-negative integer", _STRINGS: "a list of distinct strings",
    _STRINGS_MAP: "an object of lists of distinct strings",
    _TYPE: "a JSON type name or a non-empty list of distinct ones", _ARRAY: "a list",
    _ENUM_04: "a non-empty list of distinct values", _VOCABULARY: "an object of true and false",
}

_DRAFT_04 = {
    "id": _STRING, "$schema": _STRING, "title": _STRING, "description": _STRING, "format": _STRING,
    "pattern": _STRING, "multipleOf": _POSITIVE, "maximum": _NUMBER, "minimum": _NUMBER,
    "exclusiveMaximum": _BOOL, "exclusiveMinimum": _BOOL, "maxLength": _COUNT, "minLength": _COUNT,
    "maxItems": _COUNT, "minItems": _COUNT, "maxProperties": _COUNT, "minProperties": _COUNT,
    "uniqueItems": _BOOL, "additionalItems": _BOOL_OR_SCHEMA, "additionalProperties": _BOOL_OR_SCHEMA,
    "items": _SCHEMA_OR_ARRAY, "required": _STRINGS, "definitions": _SCHEMA_MAP, "properties": _SCHEMA_MAP,
    "patternProperties": _SCHEMA_MAP, "dependencies": _DEPENDENCIES, "enum": _ENUM_04, "type": _TYPE,
    "allOf": _SCHEMA_ARRAY, "anyOf": _SCHEMA_ARRAY, "oneOf": _SCHEMA_ARRAY, "not": _SCHEMA,
}
# Draft-06: `$id` for `id`, numeric exclusive bounds, boolean schemas, and the new keywords.
_DRAFT_06 = {k: v for k, v in _DRAFT_04.items() if k != "id"} | {
    "$id": _STRING, "$ref": _STRING, "exclusiveMaximum": _NUMBER, "exclusiveMinimum": _NUMBER,
    "additionalItems": _SCHEMA, "additionalProperties": _SCHEMA, "contains": _SCHEMA, "propertyNames": _SCHEMA,
    "enum": _ARRAY, "examples": _ARRAY,
}
_DRAFT_07 = _DRAFT_06 | {
    "$comment": _STRING, "if": _SCHEMA, "then": _SCHEMA, "else": _SCHEMA, "readOnly": _BOOL,
    "contentEncoding": _STRING, "contentMediaType": _STRING,
}
_2019_09 = _DRAFT_07 | {
    "$id": _FRAGMENTLESS, "$anchor": _ANCHOR_2019, "$recursiveRef": _STRING, "$recursiveAnchor": _BOOL,
    "$vocabulary": _VOCABULARY, "$defs": _SCHEMA_MAP, "unevaluatedItems": _SCHEMA, "unevaluatedProperties": _SCHEMA,
    "dependentSchemas": _SCHEMA_MAP, "dependentRequired": _STRINGS_MAP, "maxContains": _COUNT,
    "minContains": _COUNT, "deprecated": _BOOL, "writeOnly": _BOOL, "contentSchema": _SCHEMA,
}
# 2020-12: `items` is one schema (tuples are `prefixItems`); `additionalItems` is gone (unknown).
_2020_12 = {k: v for k, v in _2019_09.items() if k != "additionalItems"} | {
    "$anchor": _ANCHOR, "$dynamicRef": _STRING, "$dynamicAnchor": _ANCHOR, "$recursiveAnchor": _ANCHOR,
    "prefixItems": _SCHEMA_ARRAY, "items": _SCHEMA,
}
# Draft-04's metaschema also makes each boolean bound flag depend on its bound.
_NEEDS_04 = {"exclusiveMaximum": "maximum", "exclusiveMinimum": "minimum"}
KEYWORDS = {"draft-04": _DRAFT_04, "draft-06": _DRAFT_06, "draft-07": _DRAFT_07, "2019-09": _2019_09,
            "2020-12": _2020_12}

_ANCHOR_RE = re.compile(r"[A-Za-z_][-A-Za-z0-9._]*")
_ANCHOR_2019_RE = re.compile(r"[A-Za-z][-A-Za-z0-9.:_]*")
_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})
_ONLY_STR = frozenset([str])
# Kinds whose value holds subschemas (checked in turn).
_HOLDS_SCHEMAS = frozenset({_SCHEMA, _SCHEMA_ARRAY, _SCHEMA_MAP, _SCHEMA_OR_ARRAY, _BOOL_OR_SCHEMA, _DEPENDENCIES})


def _valid_types(kind: int, key: str, dialect: str) -> frozenset:
    """The types of which every value of `key` (of `kind` in `dialect`) is valid, with nothing below
    it to check, and for `type` the strings that are (no string equals a type): invalid_places' first
    test of a key (empty: every value is looked at in turn)."""
    if kind == _STRING:
        return frozenset({str})
    if kind == _ARRAY:
        return frozenset({list})
    if kind == _NUMBER:
        return frozenset({int, float})
    if kind == _BOOL and not (dialect == "draft-04" and key in _NEEDS_04):  # (draft-04's flag needs its bound)
        return frozenset({bool})
    if kind == _BOOL_OR_SCHEMA or (kind == _SCHEMA and dialect != "draft-04"):
        return frozenset({bool})
    if kind == _TYPE:  # (the names: a value that is one is a string, see invalid_places)
        return _TYPES
    return frozenset()


# Per dialect, each keyword it defines -> _valid_types (a keyword not here is unknown: never checked).
_VALID_TYPES = {d: {k: _valid_types(kind, k, d) for k, kind in table.items()} for d, table in KEYWORDS.items()}


# The rule spec's keyword `value` that checks what a metaschema asks of a keyword's value, by kind
# (the kinds no `value` says are left out).
_SPEC_VALUES = {_SCHEMA: "schema", _SCHEMA_ARRAY: "schema-list", _SCHEMA_MAP: "schema-map", _STRING: "string",
                _BOOL: "bool", _NUMBER: "number", _POSITIVE: "positive-number", _COUNT: "count",
                _STRINGS: "string-list", _TYPE: "type", _ARRAY: "list"}


def spec_value(keyword: str, dialect: str = "2020-12") -> str | None:
    """The rule spec's `value` that checks what `dialect`'s metaschema asks of `keyword`'s value
    (toolcast._spec.honoured); None for a keyword it does not define, or asks of as no `value` says."""
    kind = KEYWORDS[dialect].get(keyword)
    return None if kind is None else _SPEC_VALUES.get(kind)


def invalid_places(schema: Any, dialect: str) -> list[tuple[tuple, str, Any, str]]:
    """(place, keyword, value, what it should be) for each value in `schema` that the metaschema of
    `dialect` ("2020-12", "2019-09", "draft-07", "draft-06" or "draft-04") rejects; a subschema that
    is not one is named at its own place, under the keyword that holds it.

    One pass over the schema objects, as cheap as it can be made (it reads every document sent as
    written): a value of a type valid whatever it holds is passed with one set lookup, the other
    common kinds are tested in the loop, and a place is spelled out only for a finding (each schema
    object is held with its parent's entry and its key)."""
    table = KEYWORDS[dialect]
    valid = _VALID_TYPES[dialect]
    booleans = dialect != "draft-04"  # (draft-04 has no boolean schemas)
    needs = _NEEDS_04 if dialect == "draft-04" else None
    found: list = []
    stack: list = [(schema, None)]
    pop, push = stack.pop, stack.append
    while stack:
        entry = pop()
        node = entry[0]
        for k, v in node.items():
            types = valid.get(k)
            if types is None:  # (a keyword the dialect does not define)
                continue
            tv = type(v)
            if tv in types or (tv is str and v in types):  # (the common values: a test or two)
                continue
            kind = table[k]
            if tv is not dict and tv is not list and tv is not str and (tv is tuple or isinstance(v, (list, dict))):
                tv = dict if isinstance(v, dict) else list  # (as json.dumps writes them: Python input's copy keeps them)
            if kind == _SCHEMA_MAP:
                if tv is not dict:
                    found.append((entry, (k,), v, kind))
                else:
                    _members(v, k, entry, booleans, False, found, push)
            elif kind == _SCHEMA:
                if tv is dict:
                    push((v, entry, k))
                elif not (booleans and tv is bool):
                    found.append((entry, (k,), v, kind))
            elif kind == _STRING:
                if tv is not str:
                    found.append((entry, (k,), v, kind))
            elif kind == _TYPE and tv is str:
                if v not in _TYPES:
                    found.append((entry, (k,), v, kind))
            elif kind == _ARRAY:
                if tv is not list:
                    found.append((entry, (k,), v, kind))
            elif kind == _STRINGS and tv is list and v and booleans:  # (the common `required`, tested in C)
                if not _ONLY_STR.issuperset(map(type, v)) or len(set(v)) != len(v):
                    found.append((entry, (k,), v, kind))
            elif kind in _HOLDS_SCHEMAS:
                _subschemas(kind, k, v, entry, booleans, found, push)
            elif not _fits(kind, v, dialect):
                found.append((entry, (k,), v, kind))
            elif needs is not None and k in needs and needs[k] not in node:
                found.append((entry, (k,), v, f"`{needs[k]}` beside it"))
    # (`what`: a kind, or the words of a finding of its own; not `kind`, which compiled is a C int)
    return [(_place(entry) + tail, tail[0], v, what if type(what) is str else _EXPECTED[what])
            for entry, tail, v, what in found]


def _place(entry: tuple) -> tuple:
    """The place of the schema object an entry of invalid_places holds: (node, parent entry, key...)."""
    keys: list = []
    while entry[1] is not None:
        keys.extend(reversed(entry[2:]))
        entry = entry[1]
    return tuple(reversed(keys))


def _subschemas(kind: int, k: str, v: Any, entry: tuple, booleans: bool, found: list, push: Any) -> None:
    """Check `v`, the value of keyword `k` (of a kind that holds subschemas) in the schema object of
    `entry`: its shape into `found`, its subschemas pushed as invalid_places' entries."""
    tv = _container(v)
    if kind == _BOOL_OR_SCHEMA:
        if tv is dict:
            push((v, entry, k))
        elif tv is not bool:
            found.append((entry, (k,), v, kind))
    elif kind == _SCHEMA_ARRAY or (kind == _SCHEMA_OR_ARRAY and tv is list):
        if tv is not list or not v:
            found.append((entry, (k,), v, kind))
            return
        for i, x in enumerate(v):
            if type(x) is dict or isinstance(x, dict):
                push((x, entry, k, i))
            elif not (booleans and type(x) is bool):
                found.append((entry, (k, i), x, _SCHEMA))
    elif kind == _SCHEMA_OR_ARRAY:
        if tv is dict:
            push((v, entry, k))
        elif not (booleans and tv is bool):
            found.append((entry, (k,), v, kind))
    elif tv is not dict:
        found.append((entry, (k,), v, kind))
    else:  # dependencies: each a schema or a list of distinct strings
        _members(v, k, entry, booleans, True, found, push)


def _members(v: dict, k: str, entry: tuple, booleans: bool, lists: bool, found: list, push: Any) -> None:
    """Check each member of `v`, the object of schemas of keyword `k` (where `lists`, of
    dependencies: a list of distinct strings is a member too) in the schema object of `entry`."""
    for name, x in v.items():
        tx = type(x)
        if tx is dict or isinstance(x, dict):
            push((x, entry, k, name))
        elif not (booleans and tx is bool) and not (lists and (tx is list or tx is tuple) and _strings(x, not booleans)):
            found.append((entry, (k, name), x, _DEPENDENCIES if lists else _SCHEMA))


def _fits(kind: int, v: Any, dialect: str) -> bool:
    """Whether `v` is a value of `kind` (a kind that holds no subschema) in `dialect`."""
    tv = _container(v)
    if kind == _BOOL:
        return tv is bool
    if kind in (_NUMBER, _POSITIVE):
        return (tv is int or tv is float) and (kind == _NUMBER or v > 0)
    if kind == _COUNT:  # (an integer: before draft-06, `2.0` is not one)
        return (tv is int and v >= 0) or (tv is float and dialect != "draft-04" and v >= 0 and v.is_integer())
    if kind == _TYPE:  # (a list: a name is tested in invalid_places' loop)
        return tv is list and bool(v) and all(type(t) is str and t in _TYPES for t in v) and len(set(v)) == len(v)
    if kind == _STRINGS:
        return tv is list and _strings(v, dialect == "draft-04")
    if kind == _STRINGS_MAP:
        return tv is dict and all((type(x) is list or type(x) is tuple) and _strings(x, False) for x in v.values())
    if kind == _ARRAY:
        return tv is list
    if kind == _ENUM_04:
        return tv is list and bool(v) and _distinct(v)
    if kind == _FRAGMENTLESS:
        return tv is str and "#" not in v[:-1]
    if kind in (_ANCHOR, _ANCHOR_2019):
        return tv is str and (_ANCHOR_RE if kind == _ANCHOR else _ANCHOR_2019_RE).fullmatch(v) is not None
    if kind == _VOCABULARY:
        return tv is dict and all(type(x) is bool for x in v.values())
    raise AssertionError(kind)


def _container(v: Any) -> type:
    """The type of `v`, a dict or list subclass or a tuple read as the JSON object or array it stands for."""
    tv = type(v)
    if tv is tuple or (tv is not dict and tv is not list and isinstance(v, (list, dict))):
        return dict if isinstance(v, dict) else list
    return tv


def _strings(v: list, non_empty: bool) -> bool:
    """Whether `v` is a list of distinct strings (non-empty where draft-04's stringArray says so)."""
    return (bool(v) or not non_empty) and all(type(x) is str for x in v) and len(set(v)) == len(v)


def _distinct(values: list) -> bool:
    """Whether no two of `values` are equal as JSON compares them (`1` is `1.0`; `true` is not `1`)."""
    seen = set()
    for x in values:
        key = _json_key(x)
        if key in seen:
            return False
        seen.add(key)
    return True


def _json_key(x: Any) -> Any:
    """`x` as a hashable value that compares as JSON does (a bool apart from the numbers, `1` equal
    to `1.0`, an object's members unordered)."""
    tx = type(x)
    if tx is bool:
        return ("bool", x)
    if tx is dict:
        return ("object", frozenset((k, _json_key(v)) for k, v in x.items()))
    if tx is list or tx is tuple:
        return ("array", tuple(_json_key(v) for v in x))
    return ("scalar", x)
