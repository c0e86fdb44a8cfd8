"""Value kinds: what a valid keyword value looks like, JSON types, and how to describe a value in a message."""

from __future__ import annotations

import math
from math import isfinite
from typing import Any, TypeVar

from toolcast.model import quoted_around_surrogate

JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})

IMPLIES = (
    ("object", ("properties", "required", "additionalProperties", "minProperties", "maxProperties",
                "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas")),
    ("array", ("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains")),
    ("string", ("pattern", "format", "minLength", "maxLength")),
    ("number", ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")),
)
_IMPLIES_SETS = tuple((kind, frozenset(kws)) for kind, kws in IMPLIES)
# Type-specific keywords (from IMPLIES) -> the instance types they constrain; every other
# instance passes them. `format` is left out: OpenAPI gives formats to numbers too (int64).
APPLIES_TO = {
    k: (frozenset({"number", "integer"}) if kind == "number" else frozenset({kind}))
    for kind, kws in IMPLIES for k in kws if k != "format"
}
MISSING = object()
_V = TypeVar("_V")
# Structural nesting beyond this is refused outright, before Python's own recursion limit
# could be reached; the provider's depth limit (data nesting) is far below it.
NEST_GUARD = 48


def depth_limit(r: Any, guard: int) -> int:
    """The depth a schema-too-deep finding names: the provider's limit, or toolcast's own `guard`
    (the depth it stops at) where the provider states none (policy max_depth null)."""
    limit = r.counted("depth").value
    return guard if limit >= 2**63 - 1 else limit

def describe(value: Any) -> str:
    """A short rendering of an offending value for messages."""
    if isinstance(value, bool) or value is None:
        return "true" if value is True else "false" if value is False else "null"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return f"an object with {len(value)} key(s)"
    return type(value).__name__


def _scalar(v: Any) -> bool:
    """A JSON scalar (finite numbers only): what strict mode takes as an enum or const value."""
    if isinstance(v, float):
        return math.isfinite(v)
    return v is None or isinstance(v, (str, int, bool))


def _is_number(v: Any) -> bool:
    # An int of any size is a JSON number; math.isfinite would raise OverflowError past a float's range.
    if isinstance(v, float):
        return math.isfinite(v)
    return isinstance(v, int) and not isinstance(v, bool)


def _ok_type(v: Any) -> bool:
    if isinstance(v, str):
        return v in JSON_TYPES
    return isinstance(v, list) and bool(v) and all(isinstance(t, str) and t in JSON_TYPES for t in v) and len(set(v)) == len(v)


_ONLY_STR = frozenset([str])
# Types whose every value is a valid enum/const member (floats also need to be finite).
_SCALAR_TYPES = frozenset([str, int, bool, type(None)])


def _ok_count(v: Any) -> bool:
    return _is_number(v) and v >= 0 and (type(v) is not float or v.is_integer())


# What a keyword's value must be, by the value kind the rules give it (spec `value`, read from the
# 2020-12 metaschema): kind -> check (None: anything goes), so the walk calls one function.
VALUE_CHECKS = {
    "any": None,
    "type": _ok_type,
    "string": lambda v: isinstance(v, str),
    "string-list": lambda v: isinstance(v, list) and (_ONLY_STR.issuperset(map(type, v)) or all(isinstance(x, str) for x in v)),
    "list": lambda v: isinstance(v, list),
    "bool": lambda v: isinstance(v, bool),
    "number": _is_number,
    "positive-number": lambda v: _is_number(v) and v > 0,
    "count": _ok_count,
    "schema": lambda v: isinstance(v, (dict, bool)),
    "schema-or-list": lambda v: isinstance(v, (dict, bool, list)),
    "schema-map": lambda v: isinstance(v, dict),
    "schema-list": lambda v: isinstance(v, list) and bool(v),
}

# kind -> a type whose instances always pass its check (a cheap test before calling the check).
EXACT = {"string": str, "schema-map": dict, "schema": dict, "schema-or-list": dict, "list": list, "bool": bool}

_LEAF_TYPES = JSON_TYPES - {"object", "array"}
_NON_NULL_LEAF_TYPES = _LEAF_TYPES - {"null"}
# The keywords an object or array node reads itself (see plans._container_shape).
_CONTAINER_KEYS = frozenset({"type", "properties", "required", "additionalProperties", "items"})

_TYPE_SETS = {t: frozenset([t]) for t in JSON_TYPES}


EXPECTED = {
    "type": "a JSON type name or a list of distinct ones",
    "string": "a string",
    "string-list": "a list of strings",
    "list": "a list",
    "bool": "true or false",
    "number": "a finite number",
    "positive-number": "a number greater than 0",
    "count": "a non-negative integer",
    "schema": "a schema",
    "schema-or-list": "a schema",
    "schema-map": "an object of schemas",
    "schema-list": "a non-empty list of schemas",
}


def _never(v: Any) -> bool:
    return False  # a value kind the walk does not know: rejects every value



def remember(cache: dict, key: str, value: _V, entries: int = 4096, key_chars: int = 256) -> _V:
    """`value`, stored in `cache` under `key` unless the key is longer than `key_chars`; the cache is
    emptied first when it holds `entries` already. The bounded memo of answers read from strings
    that repeat within and across documents (`$ref`s, `$schema` URIs, definition names)."""
    if len(key) <= key_chars:
        if len(cache) >= entries:
            cache.clear()  # never grow without bound
        cache[key] = value
    return value


_URLLIB_PARSE: Any = None


def urllib_parse() -> Any:
    """urllib.parse, imported on the first call: few documents need it (a percent-escaped pointer, an
    `$id`, a reference to another resource), and without it `import toolcast` takes about a tenth
    less. Kept once imported: a `from urllib.parse import ...` in a function looks the module up on
    every call, and asks its module `__getattr__` for `__path__`, which raises."""
    global _URLLIB_PARSE
    if _URLLIB_PARSE is None:
        import urllib.parse

        _URLLIB_PARSE = urllib.parse
    return _URLLIB_PARSE


def ref_pointer(ref: str) -> tuple[str, ...] | None:
    """The JSON Pointer tokens a same-document `$ref` ("#...") names, read as JSON Schema reads a
    URI fragment: percent-decoded first, then split at "/" and each token unescaped (`~1` before
    `~0`, RFC 6901); None when the fragment is not a pointer (a plain name is an anchor)."""
    known = _POINTERS.get(ref, MISSING)
    # (a document names few definitions, many times each)
    return known if known is not MISSING else remember(_POINTERS, ref, _ref_pointer(ref))


# `$ref` string -> ref_pointer's answer (a tuple of str or None: immutable, so shared safely).
_POINTERS: dict[str, tuple[str, ...] | None] = {}


def _ref_pointer(ref: str) -> tuple[str, ...] | None:
    frag = ref[1:]
    if "%" in frag:
        frag = urllib_parse().unquote(frag)
    if not frag:
        return ()
    if frag[0] != "/":
        return None
    tokens = frag[1:].split("/")
    if "~" in frag:
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in tokens]
    return tuple(tokens)


def def_ref_name(ref: Any) -> str | None:
    """The root definition a same-document `$ref` names ("" for the root itself), or None."""
    if type(ref) is not str:
        return None
    known = _DEF_NAMES.get(ref, MISSING)
    return known if known is not MISSING else remember(_DEF_NAMES, ref, _def_ref_name(ref))


# `$ref` string -> def_ref_name's answer (as _POINTERS).
_DEF_NAMES: dict[str, str | None] = {}


def _def_ref_name(ref: str) -> str | None:
    if not ref.startswith("#"):
        return None
    tokens = ref_pointer(ref)
    if tokens == ():
        return ""
    if tokens is not None and len(tokens) == 2 and tokens[0] in ("$defs", "definitions"):
        return tokens[1]
    return None


_JSON_SCALARS = frozenset({int, bool, type(None)})  # (and str, read by _exact_scan: is it text?)


# What scan() notes besides a non-JSON value: a container to make plain (a tuple, a dict or list
# subclass: the walk reads plain dicts and lists only, see plain_containers), an `$id`,
# `$anchor`, `$dynamicAnchor` or draft-04 `id` (resources to resolve), a `$ref` that is not `#` or a
# root definition, and what a dialect before 2019-09 would rewrite: a `$ref` with a sibling, a
# fragment-only `$id` (see dialect.Rewrite; without either, draft-07 and draft-06 mean what 2020-12 does).
# A `$ref` whose only siblings are `description`/`title` (and what Rewrite always keeps) is noted
# apart (HAS_ANNOTATED_REFS): a provider that takes those annotations beside `$ref` keeps them, so
# such a document needs no rewrite there.
HAS_FOREIGN_CONTAINERS, HAS_IDS, HAS_OTHER_REFS, HAS_OLD_DIALECT_FORMS, HAS_ANNOTATED_REFS = 1, 2, 4, 8, 16
HAS_DRAFT_07_KEYWORDS, HAS_LATER_KEYWORDS = 32, 64  # (see LATER_KEYWORDS)
HAS_OPENAPI_KEYWORDS = 128  # (see OPENAPI_KEYWORDS)


def scan(doc: Any) -> tuple[tuple[tuple, str] | None, int]:
    """((the place, what it is) of the first value in `doc` that JSON cannot carry, or None; the
    HAS_* flags of what else it holds).

    JSON has objects with string keys, arrays, strings, finite numbers, true, false and null.
    Tuples count as arrays (json.dumps writes them so, and Python callers use them as lists);
    a NaN or infinity, a set, bytes, a non-string key or any other object does not. Each
    container is visited once (a value shared by two places is JSON twice over)."""
    flags = _plain_flags(doc)
    return (None, flags) if flags >= 0 else _exact_scan(doc)


def _plain_flags(doc: Any, look: int = 0) -> int:
    """scan's flags for a document of plain dicts, lists, str keys and JSON scalars (the input of
    nearly every call); -1 when something else is in it (then _exact_scan says what, and where).
    With `look`, -1 also past that many containers (see plain_value).

    One loop over each container's keys and values with `type(x) is ...` tests: compiled, each
    test is a pointer comparison, so this costs about a fifth of the set-of-types check it replaced
    (bfcl, compiled build; see benchmarks/README.md)."""
    flags = 0
    budget = look or _PLAIN_BUDGET  # containers checked before shared ones are looked for (a DAG can be
    seen: set[int] | None = None  # exponential in its depth; JSON text never shares)
    stack = [doc]
    while stack:
        v = stack.pop()
        tv = type(v)
        if tv is not dict and tv is not list:
            if tv is str or tv is int or tv is bool or v is None or (tv is float and isfinite(v)):
                continue  # (only the document itself is pushed as a scalar)
            return -1
        budget -= 1
        if budget < 0:
            if look:
                return -1
            if seen is None:
                seen = set()
            if id(v) in seen:
                continue
            seen.add(id(v))
        members = v
        if tv is dict:
            flagged = False  # whether a key is one _node_flags reads (seen in the loop over the keys)
            for k in v:
                if type(k) is not str:
                    return -1
                text = k  # (typed str in the compiled build, whose isascii() is then a C call)
                if not text.isascii() and not is_text(text):
                    return -1
                if k in _FLAG_KEYS:
                    flagged = True
            if flagged:
                flags |= _node_flags(v, v is doc)
            members = v.values()
        for x in members:
            tx = type(x)
            if tx is str:
                text = x
                if not (text.isascii() or is_text(text)):
                    return -1
            elif tx is dict or tx is list:
                stack.append(x)
            elif tx is not int and tx is not bool and x is not None and (tx is not float or not isfinite(x)):
                return -1
    return flags


def is_text(s: str) -> bool:
    """Whether string `s` is text: no unpaired UTF-16 surrogate, which is not a character and which
    no UTF-8 (so no JSON request, RFC 8259 §8.1) can hold. Python strings can (json.loads of a
    `\\ud800` escape, a literal); the callers ask only of a string that is not ASCII."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def all_text(names: Any) -> bool:
    """Whether every string of `names` (strings: keys of a dict, a tuple of keys) is text (is_text)."""
    return all(n.isascii() or is_text(n) for n in names)  # (not a join: two halves of a pair would make one)


def not_text(s: str) -> str:
    """The words for a string that is_text says is not text, quoted around its first surrogate."""
    return f"the string {quoted_around_surrogate(s)}, with an unpaired UTF-16 surrogate"


# The containers plain_value looks at before it answers no (annotation values are small: a default
# object, a list of examples).
VALUE_LOOK = 64


def plain_value(v: Any, look: int = VALUE_LOOK) -> bool:
    """Whether `v`, a value inside a schema object, passes the document scan as it is: plain JSON
    (see _plain_flags) that raises no flag. The walk asks it of the values a plan copies or drops
    without reading them, when it started without the scan (see walker._compile). A value of more
    than `look` containers is not looked at to the end: the answer is no (the node is read in full,
    the document scan reads the value once), so that a value shared at every level of a document
    built in Python (see walk.budget) costs each place a bounded look, not its whole size."""
    tv = type(v)
    if tv is str:
        return v.isascii() or is_text(v)
    if tv is int or tv is bool or v is None:
        return True
    if tv is float:
        return isfinite(v)
    # (in a list: a schema object in it is not the document's root, as _node_flags tells them apart)
    return (tv is dict or tv is list) and _plain_flags([v], look) == 0


# Assertion, applicator and identifier keywords by the first dialect that defines them (json-schema.org's
# release notes of draft-06, draft-07, 2019-09 and 2020-12). To an older dialect each is an unknown
# keyword, which its validators ignore: dialect.Rewrite drops them, so that the walk does not read
# as a constraint, or use in a oneOf proof, what the declared dialect ignores (draft-04 `const`).
# Annotations and `$defs` (a place a pointer reaches in any dialect) are left out: they constrain
# nothing.
LATER_KEYWORDS = {
    "const": "draft-06", "contains": "draft-06", "propertyNames": "draft-06",
    "if": "draft-07", "then": "draft-07", "else": "draft-07",
    "dependentRequired": "2019-09", "dependentSchemas": "2019-09", "unevaluatedProperties": "2019-09",
    "unevaluatedItems": "2019-09", "minContains": "2019-09", "maxContains": "2019-09",
    "prefixItems": "2020-12",
    # Identifiers: draft-04 names a resource (or, fragment-only, a location) with `id`, not `$id`;
    # before 2019-09 a fragment-only `$id` is the only anchor. A reference must not resolve to what
    # the declared dialect does not name.
    "$id": "draft-06", "$anchor": "2019-09", "$dynamicAnchor": "2020-12", "$dynamicRef": "2020-12",
}
# What makes scan note a rewrite: a keyword from 2019-09 on, which draft-07 and draft-06 do not
# define (HAS_LATER_KEYWORDS), and one of draft-07's, which draft-06 does not (HAS_DRAFT_07_KEYWORDS).
# Draft-04 is always rewritten, so draft-06's own keywords need no note.
_LATER_FLAGGED = frozenset(k for k, since in LATER_KEYWORDS.items() if since in ("2019-09", "2020-12"))
_DRAFT_07_FLAGGED = frozenset(k for k, since in LATER_KEYWORDS.items() if since == "draft-07")

# OpenAPI 3.0's Schema Object keywords that no JSON Schema dialect defines, which the rules read as
# OpenAPI where a document declares no dialect (the common MCP and OpenAPI case: `nullable: true`,
# a null type). Beside a declared `$schema` (2020-12 ... draft-04) each is an unknown keyword, which
# constrains nothing there: dialect.Rewrite drops it, with the rules' unknown-keyword findings.
# (A schema object holding one raises HAS_OPENAPI_KEYWORDS, so that a declared dialect is rewritten.)
OPENAPI_KEYWORDS = frozenset({"nullable"})

# The keys that make _node_flags worth calling for a schema object.
_FLAG_KEYS = (frozenset({"$ref", "$id", "id", "$anchor", "$dynamicAnchor"}) | _LATER_FLAGGED | _DRAFT_07_FLAGGED
              | OPENAPI_KEYWORDS)

# The keys that make the document scan note something in an object (a resource, a reference, what a
# declared dialect rewrites: see _node_flags), as the walk reads them: a key shape with one of them
# has no plan (plans._node_plan), an object with a property so named is not vouched for
# (containers._vouch_object; `id` only flags with a string value, and a property's value is a schema).
SCAN_KEYS = _FLAG_KEYS
NAME_KEYS = _FLAG_KEYS - {"id"}

# Containers the plain scan visits before it starts a set of the ones seen. JSON text never shares
# a container, so below this a document pays no set; a DAG from Python (or a cycle) costs at most
# this many visits before each container is looked up. At 4,096 the set began inside real large
# schemas (an allOf of 1,500 parts, the 10x-inflated large ones), and made their scan superlinear.
_PLAIN_BUDGET = 1 << 16


def _node_flags(v: dict, root: bool) -> int:
    """The document flags schema object `v` raises (0 when it holds none of _FLAG_KEYS)."""
    if len(v) == 1 and "$ref" in v:  # a bare $ref (most of them): no resource, nothing beside it
        return 0 if def_ref_name(v["$ref"]) is not None else HAS_OTHER_REFS
    flags = HAS_IDS if _names_a_resource(v, root) else 0
    if "$ref" in v and def_ref_name(v["$ref"]) is None:
        flags |= HAS_OTHER_REFS
    return flags | _old_dialect_forms(v)


def _names_a_resource(v: dict, root: bool) -> bool:
    """Whether schema object `v` names a resource or an anchor that references can reach other
    than as the root's own definitions. The root's `$id` (or draft-04 `id`) alone moves nothing: a
    same-document `$ref` still means the root's definitions, so such a document is not bundled."""
    if "$anchor" in v or "$dynamicAnchor" in v:
        return True
    return not root and ("$id" in v or type(v.get("id")) is str)


def _old_dialect_forms(v: dict) -> int:
    """The HAS_OLD_DIALECT_FORMS and HAS_ANNOTATED_REFS flags of schema object `v`: what
    dialect.Rewrite may change in draft-07 and draft-06 (and the keyword flags: what it may drop in
    any declared dialect)."""
    flags = 0
    if "$ref" in v and len(v) > 1:
        for k in v:
            if k in ANNOTATIONS_BESIDE_REF:
                flags |= HAS_ANNOTATED_REFS
            elif k not in STORAGE_BESIDE_REF:
                flags |= HAS_OLD_DIALECT_FORMS
                break
    i = v.get("$id")
    if isinstance(i, str) and i.startswith("#"):
        flags |= HAS_OLD_DIALECT_FORMS
    if not _LATER_FLAGGED.isdisjoint(v):
        flags |= HAS_LATER_KEYWORDS  # a keyword draft-07 and draft-06 do not define (LATER_KEYWORDS)
    if not _DRAFT_07_FLAGGED.isdisjoint(v):
        flags |= HAS_DRAFT_07_KEYWORDS
    if not OPENAPI_KEYWORDS.isdisjoint(v):
        flags |= HAS_OPENAPI_KEYWORDS  # (a property named so raises it too: then the rewrite finds nothing)
    return flags


# Beside `$ref`: what dialect.Rewrite always keeps (with `$ref` itself), and the annotations it
# keeps where the provider takes them (every provider's `ref_siblings` is empty or these two).
STORAGE_BESIDE_REF = frozenset({"$ref", "$defs", "definitions", "$schema"})
ANNOTATIONS_BESIDE_REF = frozenset({"description", "title"})



def _exact_scan(doc: Any) -> tuple[tuple[tuple, str] | None, int]:
    """scan, value by value with places: for a document _plain_flags does not pass."""
    seen: set[int] = set()
    flags = 0
    stack: list[tuple[Any, tuple]] = [(doc, ())]
    while stack:
        value, place = stack.pop()
        t = type(value)
        if t in _JSON_SCALARS:
            continue
        if t is float or isinstance(value, float):
            if not math.isfinite(value):
                return (place, repr(float(value))), flags
            continue
        if isinstance(value, str):
            if not (value.isascii() or is_text(value)):
                return (place, not_text(value)), flags
            continue  # (str subclasses, enums among them, are written as their value)
        if isinstance(value, int):
            continue  # int subclasses (enums among them) are written as their value
        if isinstance(value, (dict, list, tuple)):
            if id(value) in seen:
                continue
            seen.add(id(value))
            if isinstance(value, dict):
                if type(value) is not dict:
                    flags |= HAS_FOREIGN_CONTAINERS
                flags |= _node_flags(value if type(value) is dict else dict(value), value is doc)
                for k, v in value.items():
                    if not isinstance(k, str):
                        return (place, f"a key that is not a string ({k!r})"), flags
                    if not (k.isascii() or is_text(k)):
                        return (place, f"a key, {not_text(k)}"), flags  # (the object's place: a report holds no such key)
                    stack.append((v, place + (k,)))
            else:
                if type(value) is not list:
                    flags |= HAS_FOREIGN_CONTAINERS
                stack.extend((v, place + (i,)) for i, v in enumerate(value))
            continue
        return (place, f"a {t.__name__} value"), flags
    return None, flags


def non_json(doc: Any) -> tuple[tuple, str] | None:
    """(the place, what it is) of the first value in `doc` that JSON cannot carry (see scan), or None."""
    return scan(doc)[0]


def plain_containers(value: Any, _memo: dict | None = None) -> Any:
    """`value` with every tuple and list subclass a list, every dict subclass a dict (new containers
    only where one was found): what the walk reads (compiled, its methods take exact dicts)."""
    if _memo is None:
        _memo = {}
    known = _memo.get(id(value))
    if known is not None:
        return known[1]
    if isinstance(value, dict):
        items = {k: plain_containers(v, _memo) for k, v in value.items()}
        out: Any = value if type(value) is dict and all(items[k] is v for k, v in value.items()) else items
    elif isinstance(value, (list, tuple)):
        elems = [plain_containers(v, _memo) for v in value]
        same = type(value) is list and all(a is b for a, b in zip(elems, value, strict=True))
        out = value if same else elems
    else:
        return value
    _memo[id(value)] = (value, out)
    return out
