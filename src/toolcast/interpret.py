"""The interpreter: one walk over a parameters schema that applies a rule table and strict mode."""

from __future__ import annotations

import math
from collections.abc import Callable
from gc import disable as gc_disable
from gc import enable as gc_enable
from gc import isenabled as gc_isenabled
from itertools import chain, repeat
from operator import itemgetter
from types import MappingProxyType
from typing import Any, TypeVar

from toolcast.model import ITEMS, OPTIONAL_PAIR, NullPath
from toolcast.rules import Rules
from toolcast.schema_ops import (
    ANNOTATIONS,
    RECURSION_GUARD,
    _finite,
    _refs_in,
    _with_null_own,
    allows_null,
    exclusive,
    json_equal,
    json_intersection,
    too_deep,
)

_first = itemgetter(0)

JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
# A root with none of these (and `type: object`) needs nothing settled before the walk (see compile).
_ROOT_PLAIN = frozenset({"$defs", "definitions", "$ref", "anyOf", "oneOf"})
# Structural nesting beyond this is refused outright, before Python's own recursion limit
# could be reached; the provider's depth limit (data nesting) is far below it.
NEST_GUARD = 48
# Null paths listed at most: `$ref`s multiply the places where null is stripped (a definition with
# two references to the next, n deep, has 2**n), so a small schema could otherwise take
# exponential time and memory. Beyond it the schema is refused (openai/too-many-null-paths).
NULL_PATHS_GUARD = 10_000
# Properties met on the way down past which a walk pauses the cycle collector until it ends (see
# without_cycle_gc): a schema can be large below a small root, where compile_tool does not look.
PAUSE_GC_AFTER_PROPERTIES = 256
# Keywords that imply a type when `type` is missing (used to infer it, reported).
IMPLIES = (
    ("object", ("properties", "required", "additionalProperties", "minProperties", "maxProperties",
                "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas")),
    ("array", ("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains")),
    ("string", ("pattern", "format", "minLength", "maxLength")),
    ("number", ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")),
)
_IMPLIES_SETS = tuple((kind, frozenset(kws)) for kind, kws in IMPLIES)
MISSING = object()
# Type-specific keywords (from IMPLIES) -> the instance types they constrain; every other
# instance passes them. `format` is left out: OpenAPI gives formats to numbers too (int64).
APPLIES_TO = {
    k: (frozenset({"number", "integer"}) if kind == "number" else frozenset({kind}))
    for kind, kws in IMPLIES for k in kws if k != "format"
}
# Keywords beside a `$ref` never judged redundant by equality with the target's: their meaning
# is not theirs alone (`nullable` rewrites `type`; nested definitions are handled elsewhere).
_NOT_BY_EQUALITY = frozenset({"$ref", "$defs", "definitions", "nullable"})


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
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def value_ok(kind: str, v: Any) -> bool:
    if kind == "any":
        return True
    if kind == "type":
        if isinstance(v, str):
            return v in JSON_TYPES
        return isinstance(v, list) and bool(v) and all(isinstance(t, str) and t in JSON_TYPES for t in v) and len(set(v)) == len(v)
    if kind == "string":
        return isinstance(v, str)
    if kind == "string-list":
        return isinstance(v, list) and all(isinstance(x, str) for x in v)
    if kind == "list":
        return isinstance(v, list)
    if kind == "bool":
        return isinstance(v, bool)
    if kind == "number":
        return _is_number(v)
    if kind == "positive-number":
        return _is_number(v) and v > 0
    if kind == "count":
        return _is_number(v) and v >= 0 and float(v).is_integer()
    if kind in ("schema", "schema-or-list"):
        return isinstance(v, (dict, bool)) or (kind == "schema-or-list" and isinstance(v, list))
    if kind == "schema-map":
        return isinstance(v, dict)
    if kind == "schema-list":
        return isinstance(v, list) and bool(v)
    return False


def _ok_type(v: Any) -> bool:
    if isinstance(v, str):
        return v in JSON_TYPES
    return isinstance(v, list) and bool(v) and all(isinstance(t, str) and t in JSON_TYPES for t in v) and len(set(v)) == len(v)


_ONLY_STR = frozenset([str])
# Types whose every value is a valid enum/const member (floats also need to be finite).
_SCALAR_TYPES = frozenset([str, int, bool, type(None)])


def _ok_count(v: Any) -> bool:
    return _is_number(v) and v >= 0 and float(v).is_integer()


# value_ok as a table: kind -> check (None: anything goes), so the walk calls one function.
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
# A leaf: a type that is neither an object nor an array.
_LEAF_TYPES = JSON_TYPES - {"object", "array"}
_NON_NULL_LEAF_TYPES = _LEAF_TYPES - {"null"}
# The keywords an object or array node reads itself (see _container).
_CONTAINER_KEYS = frozenset({"type", "properties", "required", "additionalProperties", "items"})


# definition name -> its `#/$defs/...` reference (JSON-pointer escaped); bounded, see _def_ref.
_DEF_REFS: dict[str, str] = {}


def _def_ref(name: str) -> str:
    ref = "#/$defs/" + name.replace("~", "~0").replace("/", "~1")
    if len(_DEF_REFS) >= 4096:
        _DEF_REFS.clear()
    if len(name) <= 128:
        _DEF_REFS[name] = ref
    return ref


def _plannable(keys: tuple) -> bool:
    """Whether a key shape is small enough to plan and cache (real schemas' nodes are)."""
    return len(keys) <= 24 and _ONLY_STR.issuperset(map(type, keys)) and sum(map(len, keys)) <= 480


# A compiled node with one of these takes null some other way than a type union (see with_null).
_NOT_PLAIN_NULLABLE = frozenset({"$ref", "const", "anyOf", "enum"})
# A node needs _normalize (and may hold $ref or anyOf) only if it has one of these.
_RESHAPING = frozenset({"allOf", "const", "$ref", "oneOf", "anyOf"})


def _never(v: Any) -> bool:
    return False  # a value kind the walk does not know: value_ok rejects every value


# What the walk does with a keyword once its value is valid (decided once per rule version).
(OP_PLAIN, OP_SLOT, OP_STRUCTURAL, OP_DROP, OP_REWRITE, OP_DEFS, OP_FORMAT, OP_PATTERN, OP_ENUM,
 OP_CONST) = range(10)
STRUCTURAL = frozenset({"type", "properties", "required", "additionalProperties", "items", "anyOf", "$ref"})
# The keywords a leaf plan copies or records (see Walk._leaf_plan), by the walk's op for them.
_PLAIN, _ENUM, _CONST, _FORMAT, _PATTERN, _DROP = range(6)
_LEAF_MODES = {OP_PLAIN: _PLAIN, OP_ENUM: _ENUM, OP_CONST: _CONST, OP_FORMAT: _FORMAT, OP_PATTERN: _PATTERN}
# A leaf with one of these needs node(); `const` only beside `enum` (see _leaf_plan).
_LEAF_RESHAPING = _RESHAPING - {"const"}
_PLAIN_MODE = {OP_PLAIN: _PLAIN}  # objects, arrays and anyOf copy plain keywords only
_TYPE_KEY = frozenset({"type"})
_ANY_OF_KEY = frozenset({"anyOf"})


def keyword_plan(r: Rules) -> dict:
    """keyword -> (op, value check, value kind, handler, diagnostic code, transformation code, slot).

    Built from the rule tables once per Rules and cached on it; the walk reads only this.
    """
    plan = r.__dict__.get("_keyword_plan")
    if plan is not None:
        return plan
    plan = {}
    for k, (_cls, action, handler, vkind, dcode, tcode, _cite) in r.keywords.items():
        slot = r.slots.get(k)
        if action == "drop":
            op = OP_DROP
        elif action == "rewrite":
            op = OP_REWRITE
        elif k in STRUCTURAL:
            op = OP_STRUCTURAL
        elif k == "$defs":
            op = OP_DEFS
        elif handler == "format":
            op = OP_FORMAT
        elif handler == "pattern":
            op = OP_PATTERN
        elif k == "enum":
            op = OP_ENUM
        elif k == "const":
            op = OP_CONST
        else:
            op = OP_PLAIN if slot is None else OP_SLOT
        check = VALUE_CHECKS.get(vkind, _never)
        exact = EXACT.get(vkind)
        if vkind == "type" and op == OP_STRUCTURAL:
            exact = str  # a type name is checked against JSON_TYPES where the walk reads it
        plan[k] = (op, exact, check, vkind, handler, dcode, tcode, slot)
    r.__dict__["_keyword_plan"] = plan
    r.__dict__["_rank"] = _Rank(r.order_index)
    r.__dict__["_refusing_codes"] = frozenset(c for c, e in r.diagnostics.items() if e[1] == "refuses")
    r.__dict__["_lossy_codes"] = frozenset(c for c, e in r.transformations.items() if e[0])
    r.__dict__["_leaf_plans"] = {}
    r.__dict__["_container_plans"] = {}
    refusing = r.__dict__["_refusing_codes"]
    # (an optional property's diagnostic refuses, its null warning refuses, a bare $ref is structural,
    #  an object's missing additionalProperties refuses)
    codes, changes = r.patterns, r.changes
    r.__dict__["_object_flags"] = (codes["strict-optional-property"] in refusing,
                                   codes["nullable-instead-of-omitted"] in refusing,
                                   plan.get("$ref", (None,))[0] == OP_STRUCTURAL,
                                   codes["object-missing-additional-properties"] in refusing)
    # The codes an object records for its properties, in its loop: an optional property's
    # diagnostic, the change that makes it nullable, a missing additionalProperties and its fix,
    # and a repointed `#/definitions/` reference.
    r.__dict__["_object_codes"] = (codes["strict-optional-property"], changes["converted-optional-property-to-nullable"],
                                   codes["object-missing-additional-properties"],
                                   changes["added-additional-properties-false"], changes["rewrote-definitions-reference"])
    r.__dict__["_enum_limits"] = (r.limit("large_enum_threshold"), r.limit("large_enum_chars"))
    r.__dict__["_limit_values"] = tuple(r.limit(k) for k in ("max_properties", "max_string_chars", "max_enum_values",
                                                             "max_depth"))
    return plan


def _walk_tables(r: Rules) -> dict:
    """What a walk reads from its rule version, by attribute name (built once per Rules)."""
    tables = r.__dict__.get("_walk_tables")
    if tables is None:
        keyword_plan(r)
        d = r.__dict__
        tables = d["_walk_tables"] = {
            "r": r, "plan": d["_keyword_plan"], "refusing": d["_refusing_codes"], "lossy_codes": d["_lossy_codes"],
            "rank": d["_rank"], "leaf_plans": d["_leaf_plans"], "container_plans": d["_container_plans"],
            "object_flags": d["_object_flags"], "limit_values": d["_limit_values"],
            "enum_limits": d["_enum_limits"], "codes": r.patterns, "changes": r.changes,
            "object_codes": d["_object_codes"],
        }
    return tables


_TYPE_SETS = {t: frozenset([t]) for t in JSON_TYPES}


class _Rank(dict):
    """keyword -> place in the output order; keywords the table does not list go last."""

    def __missing__(self, key: str) -> int:
        return 1000


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


class _Bucket:
    """Null-path facts of one walk root (the schema root or one definition)."""

    __slots__ = ("legit", "nulls", "refs")

    def __init__(self) -> None:
        self.nulls: list[NullPath] = []  # optional, made nullable: strip here
        self.legit: list[NullPath] = []  # null is a real value here: never strip
        self.refs: list[tuple[NullPath, str]] = []  # (instance path, definition) of each $ref


_T = TypeVar("_T")


def without_cycle_gc(fn: Callable[..., _T], *args: Any) -> _T:
    """fn(*args) with the cyclic garbage collector paused, then restored; left alone when a
    caller (or an outer compile) has paused it already.

    A walk makes no reference cycles, only many short-lived containers that reference counting
    frees; a collection during it would only re-scan them, and the caller's whole heap with
    them. That was 10-30% of a large schema's compile (see benchmarks/README.md).

    The switch is process-wide: a compile that found the collector on turns it back on when it
    ends, even if another thread turned it off meanwhile; one that found it off (another
    compile running, or the application's choice) leaves it alone.
    """
    if not gc_isenabled():
        return fn(*args)
    gc_disable()
    try:
        return fn(*args)
    finally:
        gc_enable()


# Whether this module runs as Python source: its copiers are then written out per key shape (see
# _values_copiers); compiled (the Cython build), one compiled loop over the plan is faster.
INTERPRETED = __file__.endswith(".py")


def _values_copiers(values: tuple, r: Rules, keys: tuple = (), containers: tuple = ("",),
                    looping: bool = not INTERPRETED) -> tuple:
    """One copy(s, out) per entry of `containers`: `out` with the planned `values` of `s` copied in
    (see Walk._shape), or None when a value needs node()'s full treatment; records nothing.

    A value that fails its keyword's check, an enum that is empty or holds a non-scalar and a const
    that is not a scalar hand back; an unsupported format and a pattern the rules drop are left out
    (their findings are recorded by _record_steps). For an "object" or "array" entry, the structural
    keywords' values in `keys` are checked first, as node() checks them for that type (a value it
    would report hands back).

    Run as Python, the copiers are compiled once per planned key shape into straight-line functions
    (the plan's keywords are spec keywords, written in by repr), in one exec: the interpreter runs
    those faster than a loop. `looping` (the default when this module is compiled) gives closures
    over one loop instead, which the compiled build runs faster than interpreted code; both give
    the same answers (tests/test_fast_paths.py compares them)."""
    if looping:
        return tuple(_looping_copier(values, r, keys, container) for container in containers)
    ns: dict[str, Any] = {"_SCALAR_TYPES": _SCALAR_TYPES, "_pattern_kept": _pattern_kept, "r": r,
                          "formats": r.formats, "_ONLY_STR": _ONLY_STR}
    body = []
    for i, (k, exact, check, mode) in enumerate(values):
        ns[f"t{i}"], ns[f"c{i}"] = exact, check
        body.append(f"    v = s[{k!r}]")
        if check is not None:
            body.append(f"    if type(v) is not t{i} and not c{i}(v): return None")
        if mode == _ENUM:
            body.append("    if not (v and _SCALAR_TYPES.issuperset(map(type, v))): return None")
        elif mode == _CONST:
            body.append("    if type(v) not in _SCALAR_TYPES: return None")
        if mode == _FORMAT:
            body.append(f"    if v in formats: out[{k!r}] = v")
        elif mode == _PATTERN:
            body.append(f"    if _pattern_kept(r, v): out[{k!r}] = v")
        else:
            body.append(f"    out[{k!r}] = v")
    body.append("    return out")
    lines = []
    for n, container in enumerate(containers):
        lines.append(f"def copy{n}(s, out):")
        if container == "array" and not {"properties", "required", "additionalProperties"}.isdisjoint(keys):
            lines.append("    return None")  # object keywords on an array: node() reports them
        if container and "items" in keys:
            lines.append('    v = s["items"]')
            lines.append("    if type(v) is not dict and type(v) is not bool and type(v) is not list: return None")
        if container == "object":
            if "properties" in keys:
                lines.append('    if type(s["properties"]) is not dict: return None')
            if "required" in keys:
                lines.append('    v = s["required"]')
                lines.append("    if type(v) is not list or not _ONLY_STR.issuperset(map(type, v)): return None")
            if "additionalProperties" in keys:
                lines.append('    v = s["additionalProperties"]')
                lines.append("    if type(v) is not dict and type(v) is not bool: return None")
        lines += body
    exec("\n".join(lines), ns)  # the source is built from the plan above, keys by repr
    # Taken out of their namespace (their globals): a function left in it would make a cycle.
    return tuple(ns.pop(f"copy{n}") for n in range(len(containers)))


def _never_copies(s: dict, out: dict) -> None:
    return None  # object keywords on an array: node() reports them


def _looping_copier(values: tuple, r: Rules, keys: tuple, container: str) -> Callable[[dict, dict], dict | None]:
    """_values_copiers' copy for one container, as a loop over `values` (see there)."""
    if container == "array" and not {"properties", "required", "additionalProperties"}.isdisjoint(keys):
        return _never_copies
    items = bool(container) and "items" in keys
    obj = container == "object"
    props = obj and "properties" in keys
    required = obj and "required" in keys
    additional = obj and "additionalProperties" in keys
    formats = r.formats

    def copy(s: dict, out: dict) -> dict | None:
        if items:
            v = s["items"]
            if type(v) is not dict and type(v) is not bool and type(v) is not list:
                return None
        if props and type(s["properties"]) is not dict:
            return None
        if required:
            v = s["required"]
            if type(v) is not list or not _ONLY_STR.issuperset(map(type, v)):
                return None
        if additional:
            v = s["additionalProperties"]
            if type(v) is not dict and type(v) is not bool:
                return None
        for k, exact, check, mode in values:
            v = s[k]
            if check is not None and type(v) is not exact and not check(v):
                return None
            if mode == _PLAIN:
                out[k] = v
            elif mode == _ENUM:
                if not (v and _SCALAR_TYPES.issuperset(map(type, v))):
                    return None
                out[k] = v
            elif mode == _CONST:
                if type(v) not in _SCALAR_TYPES:
                    return None
                out[k] = v
            elif mode == _FORMAT:
                if v in formats:
                    out[k] = v
            elif _pattern_kept(r, v):
                out[k] = v
        return out

    return copy


class Walk:
    """Compiles one parameters schema; collects diagnostics, transformations and null paths."""

    # The planned paths (plain leaves, objects and arrays of a known key shape, bare $refs), the
    # null-path shortcut of a refused schema and the memo of merged $refs give the same result as
    # the general ones; False sends every node through node(), lists every null path and merges
    # every $ref afresh (tests compare).
    fast = True
    # Counters and flags start at these class values; the walk sets its own when they change.
    refusals = 0
    n_props = 0
    n_chars = 0
    n_enum = 0
    deepest: tuple = (0, ())
    null_paths: tuple[NullPath, ...] = ()
    root_raw: Any = None
    guarded = False
    # Set by a caller that will not send a schema with a lossy change strict (compile_tool, unless
    # allow_lossy): such a schema's null paths would never be used, like a refused one's.
    lossy_blocks = False
    # Cleared by a caller that never uses a refused schema's strict form (compile_tool,
    # strict_schema): once something is refused, an object's properties are still walked for their
    # findings, null paths and counts, but their compiled forms are not kept (see _object).
    builds_refused = True
    # Whether a place was walked twice, in anyOf branches or a kept schema slot (so a null path
    # may repeat).
    branched = False
    # Properties of the objects entered so far, and whether this walk paused the collector (see
    # PAUSE_GC_AFTER_PROPERTIES); a caller that sets hold_gc turns it back on itself.
    entered_props = 0
    gc_paused = False
    hold_gc = False

    def __init__(self, rules: Rules):
        self.__dict__.update(_walk_tables(rules))
        self._fresh()

    @staticmethod
    def for_rules(rules: Rules) -> type[Walk]:
        """A Walk class bound to `rules` (cached): its instances skip the per-rules setup."""
        cls = rules.__dict__.get("_walk_class")
        if cls is None:
            cls = type("Walk", (Walk,), {"__init__": Walk._fresh, "__module__": __name__, **_walk_tables(rules)})
            rules.__dict__["_walk_class"] = cls
        return cls

    def _fresh(self) -> None:
        """The state of one walk."""
        self.diags: list[tuple] = []  # (code, base, tokens, params)
        self.trans: list[tuple] = []  # (code, base, tokens, note)
        self.bucket = _Bucket()
        self.buckets: dict[str, _Bucket] = {"": self.bucket}
        # Definitions, the reference caches and the merge guard start as the empty class values
        # below and become this walk's own on first write: most schemas need none of them.

    _EMPTY: Any = MappingProxyType({})
    defs_raw: Any = _EMPTY  # def name -> raw schema
    defs_src: Any = _EMPTY  # def name -> the keyword it came from
    defs_out: Any = _EMPTY  # def name -> compiled schema (None while queued)
    queue: Any = ()  # definitions referred to, in order (repeats included)
    _merging: Any = frozenset()  # $refs being inlined now (a schema defined as itself)
    ref_nulls: Any = _EMPTY  # allows_null of each $ref target (see schema_ops.allows_null)
    ref_neutral: Any = _EMPTY  # whether each $ref target says nothing about null (schema_ops._neutral)
    ref_names: Any = _EMPTY  # $ref -> (definition, note) once resolved (see _target)
    merged_refs: Any = _EMPTY  # ($ref, id(place)) -> (place, its target merged there) (see _merge)
    all_of_places: Any = _EMPTY  # id(place) -> (place, place + ("allOf",)) (see _all_of_place)
    exclusive_of: Any = _EMPTY  # id(oneOf list) -> (the list, schema_ops.exclusive's answer for it)

    # -- recording ---------------------------------------------------------------------
    def diag(self, code: str, sp: tuple, **params: Any) -> None:
        """Record diagnostic `code` (one the rules name) at `sp`."""
        if code in self.refusing:
            self.refusals += 1
        self.diags.append((code, "#", sp, tuple(params.items())))

    def report(self, pattern: str, sp: tuple, **params: Any) -> None:
        """Record the rules' diagnostic for `pattern` (see walk.actions) at `sp`."""
        self.diag(self.codes[pattern], sp, **params)

    def change(self, pattern: str, sp: tuple, note: str = "") -> None:
        """Record the rules' transformation for change pattern `pattern` at `sp`."""
        self.trans.append((self.changes[pattern], "#", sp, note))

    def lossy(self) -> bool:
        """Whether the walk has recorded a lossy change."""
        return not self.lossy_codes.isdisjoint(map(_first, self.trans))

    def _blocked(self) -> bool:
        """Whether this schema cannot go strict whatever comes next: it refused something, or
        changed something lossily for a caller that blocks lossy changes."""
        return bool(self.refusals) or (self.lossy_blocks and self.lossy())

    def refuse(self, pattern: str, sp: tuple, **params: Any) -> dict:
        self.report(pattern, sp, **params)
        return {}

    # -- entry point ---------------------------------------------------------------------
    def compile(self, schema: Any) -> dict:
        try:
            return self._compile(schema)
        finally:
            if self.gc_paused and not self.hold_gc:
                self.gc_paused = False
                gc_enable()

    def _compile(self, schema: Any) -> dict:
        if type(schema) is dict and schema.get("type") == "object" and _ROOT_PLAIN.isdisjoint(schema):
            root = self.root_raw = schema  # the commonest root: nothing to settle before the walk
        else:
            root = self._root(schema)
            if type(root) is not dict or self.refusals:
                return root[0] if type(root) is tuple else {}
        out = self.node(root, (), (), 1, 0, root=True)
        if self.queue:
            self._compile_defs()
        if self.defs_out:
            out["$defs"] = {name: self.defs_out[name] for name in self.defs_raw if name in self.defs_out}
        if self.defs_raw:
            for name in self.defs_raw:
                if name not in self.defs_out:
                    self.report("unused-definition", (self.defs_src[name], name), name=name)
                    self.change("dropped-unused-definition", (self.defs_src[name], name))
        max_props, max_chars, max_enum, max_depth = self.limit_values
        if (self.n_props > max_props or self.n_chars > max_chars or self.n_enum > max_enum
                or self.deepest[0] > max_depth):
            self._check_limits()
        root_bucket = self.buckets[""]
        if self.queue or root_bucket.refs:
            # Without a $ref, nothing the walk emits lacks a finite value unless it refused (an
            # empty anyOf, a typeless node): the fixed point is for reference graphs.
            self._check_finite(out)
            self._finish_null_paths()
        elif root_bucket.nulls:
            if root_bucket.legit:
                self._finish_null_paths()
            else:
                # Only a place walked twice (anyOf branches, a kept slot beside properties) can
                # repeat a path.
                nulls = root_bucket.nulls
                self.null_paths = tuple(dict.fromkeys(nulls)) if self.branched or not self.fast else tuple(nulls)
        return out

    def _root(self, schema: Any) -> dict | tuple | None:
        """The root schema to walk; (the result,) when there is nothing to walk; None after a refusal."""
        r = self.r
        if schema is None or schema == {}:
            self.report("empty-parameters", ())
            self.change("closed-empty-parameters", ())
            return ({"type": "object", "properties": {}, "required": [], "additionalProperties": False},)
        if schema is True:
            self.report("boolean-subschema", (), value="true")
            self.report("empty-parameters", ())
            self.change("closed-empty-parameters", ())
            return ({"type": "object", "properties": {}, "required": [], "additionalProperties": False},)
        if not isinstance(schema, dict):
            return (self.refuse("root-schema-not-object", (), value=describe(schema)),)
        root = schema  # copied before anything is taken out of it or added to it
        if "$defs" in root or "definitions" in root:
            root = dict(schema)
            self._collect_defs(root)
        self.root_raw = root
        if "$ref" in root:
            root = self._inline_root_ref(root)
            if root is None:
                return None
        if "anyOf" in root or "oneOf" in root:
            for kw in ("anyOf", "oneOf"):
                if kw in root:
                    self.report("root-schema-anyof", (kw,), keyword=kw)
        rtype = root.get("type", MISSING)
        if rtype is MISSING:
            if not any(k in root for k in ("properties", "required", "additionalProperties")) and not any(
                k in root for k in ("anyOf", "oneOf", "allOf", "enum", "const")
            ):
                # Description-only or annotation-only root: a tool without parameters.
                self.report("empty-parameters", ())
                self.change("closed-empty-parameters", ())
                root = {k: v for k, v in root.items() if k not in r.kept or k in ANNOTATIONS}
                root.update(type="object", properties={}, additionalProperties=False)
            elif "enum" in root or "const" in root:
                # A root that lists its values is not an object schema (arguments are objects).
                self.report("root-schema-not-object", (), value="an enum or const without `type: object`")
            else:
                self.change("inferred-type", ("type",), "(object, at the root)")
                root = self._set_root_type(root)
        elif rtype == ["object"]:
            root = self._set_root_type(root)
        elif rtype != "object":
            self.report("root-schema-not-object", ("type",), value=describe(rtype))
        return root

    def _set_root_type(self, root: dict) -> dict:
        """`root` with `type: object`, as a new dict (the input is never changed); the raw root
        that `#` refers to follows when it is the same schema."""
        new = {**root, "type": "object"}
        if root is self.root_raw:
            self.root_raw = new
        return new

    # -- definitions and references -------------------------------------------------------
    def _collect_defs(self, root: dict) -> None:
        self.defs_raw, self.defs_src, self.defs_out, self.queue = {}, {}, {}, []
        defs = root.pop("$defs", None)
        legacy = root.pop("definitions", None)
        kw_defs = self.r.keywords.get("$defs")
        if defs is not None:
            if not isinstance(defs, dict):
                self.report("invalid-keyword-value", ("$defs",), keyword="$defs", value=describe(defs),
                          expected="an object of schemas")
            else:
                for name, d in defs.items():
                    self.defs_raw[name], self.defs_src[name] = d, "$defs"
        if kw_defs is None or kw_defs[1] == "drop":  # pragma: no cover - a spec that drops $defs
            self.defs_raw.clear()
        if legacy is not None:
            if not isinstance(legacy, dict):
                self.report("invalid-keyword-value", ("definitions",), keyword="definitions",
                          value=describe(legacy), expected="an object of schemas")
                return
            self.report("legacy-definitions-keyword", ("definitions",))
            self.change("renamed-definitions-to-defs", ("definitions",))
            for name, d in legacy.items():
                if name in self.defs_raw:
                    self.report("conflicting-definitions-keywords", ("definitions", name), name=name)
                    continue
                self.defs_raw[name], self.defs_src[name] = d, "definitions"

    def _target(self, ref: Any, sp: tuple) -> str | None:
        """The definition a local `$ref` names ("" for the root), or None after a refusal."""
        known = self.ref_names.get(ref) if type(ref) is str else None
        if known is not None:  # resolved before in this walk: the same answer, the same note
            name, note = known
            if note:
                self.trans.append((self.object_codes[4], "#", sp, note))
            return name
        if not isinstance(ref, str):
            self.report("invalid-keyword-value", sp, keyword="$ref", value=describe(ref), expected="a string")
            return None
        if ref == "#":
            self._ref_name(ref, "", "")
            return ""
        if not ref.startswith("#"):
            self.report("external-ref", sp, value=ref)
            return None
        for prefix in ("#/$defs/", "#/definitions/"):
            if ref.startswith(prefix):
                name = ref[len(prefix):].replace("~1", "/").replace("~0", "~")
                if "/" in ref[len(prefix):]:
                    self.report("unsupported-ref-target", sp, value=ref)
                    return None
                if name not in self.defs_raw:
                    self.report("unresolvable-ref", sp, value=ref)
                    return None
                note = f"({ref} -> #/$defs/{name})" if prefix == "#/definitions/" else ""
                if note:
                    self.change("rewrote-definitions-reference", sp, note)
                self._ref_name(ref, name, note)
                return name
        self.report("unsupported-ref-target", sp, value=ref)
        return None

    def _ref_name(self, ref: str, name: str, note: str) -> None:
        if type(self.ref_names) is not dict:
            self.ref_names = {}
        self.ref_names[ref] = (name, note)

    def _resolve_raw(self, ref: str, sp: tuple) -> Any:
        """The raw target of a `$ref` chain (for merging), or MISSING after a refusal."""
        seen = set()
        while True:
            name = self._target(ref, sp)
            if name is None:
                return MISSING
            if name == "":
                return self.root_raw
            target = self.defs_raw[name]
            if isinstance(target, dict) and set(target) == {"$ref"}:
                if name in seen:
                    self.report("unsatisfiable-schema", sp, value="a $ref cycle with no schema in it")
                    return MISSING
                seen.add(name)
                ref = target["$ref"]
                continue
            return target

    def _inline_root_ref(self, root: dict) -> dict | None:
        target = self._resolve_raw(root["$ref"], ("$ref",))
        if target is MISSING:
            return None
        if not isinstance(target, dict):
            self.report("root-schema-not-object", ("$ref",), value=describe(target))
            return None
        siblings = {k: v for k, v in root.items() if k != "$ref"}
        merged = self._merge([target, siblings], ("$ref",))
        if merged is None:
            return None
        self.change("merged-ref-siblings", ("$ref",), f"(the root is {root['$ref']})")
        return merged

    def _compile_defs(self) -> None:
        done: set[str] = set()
        i = 0
        while i < len(self.queue):
            name = self.queue[i]
            i += 1
            if name in done or name == "":
                continue
            done.add(name)
            bucket = self.bucket = _Bucket()
            self.buckets[name] = bucket
            sp = (self.defs_src[name], name)
            self.n_chars += len(name)
            raw = self.defs_raw[name]
            if raw is False:
                self.defs_out[name] = self.refuse("false-subschema-unrepresentable", sp)
                continue
            self.defs_out[name] = self.node(raw, sp, (), 1, 1)

    # -- merging (allOf, $ref siblings, anyOf siblings) ------------------------------------
    def _all_of_place(self, sp: tuple) -> tuple:
        """sp + ("allOf",), as the same tuple each time for the same `sp` tuple: an allOf reached
        twice from one place (a definition named twice in one allOf) then meets its memo in
        merged_refs, which keys places by identity."""
        known = self.all_of_places.get(id(sp))
        if known is not None and known[0] is sp:
            return known[1]
        place = sp + ("allOf",)
        if type(self.all_of_places) is not dict:
            self.all_of_places = {}
        self.all_of_places[id(sp)] = (sp, place)  # holding `sp` keeps its id its own
        return place

    def _merge(self, parts: list, sp: tuple, depth: int = 0) -> dict | None:
        """allOf semantics as one schema, when no keyword is given two different values. `depth`
        counts the merges this one is nested in (RecursionError past RECURSION_GUARD: unfolding
        definitions can nest without end)."""
        if depth > RECURSION_GUARD:
            raise too_deep()
        out: dict = {}
        closed: list[set] = []  # property names each closed part allows
        open_schema = None
        # `properties` and `required` become this merge's own on the first merge into them, then
        # grow in place: copying them for every part would be quadratic in the number of parts.
        own_props = own_req = False
        req_names: set = set()
        for part in parts:
            if part is True:
                continue
            if not isinstance(part, dict):
                if part is False:
                    self.report("unsatisfiable-schema", sp, value="an allOf branch is false")
                else:
                    self.report("non-schema-subschema", sp, value=describe(part))
                return None
            if "$ref" in part:
                ref = part["$ref"]
                if ref in self._merging:
                    # A schema that is defined as itself (plus more) has no meaning to merge.
                    self.report("unsatisfiable-schema", sp + ("$ref",), value=f"{ref} refers to itself without a schema in between")
                    return None
                # The place is keyed by identity (the memo holds it, so its id stays its own): hashing
                # a place as long as the nesting at every merge would be quadratic in a chain of
                # definitions. Merges pass one place on as one tuple (see _all_of_place); the same
                # place passed as another tuple is merged again, to the same end.
                known = self.merged_refs.get((ref, id(sp))) if len(part) == 1 and type(ref) is str and self.fast else None
                if known is not None and known[0] is sp:
                    # Merged here before (an allOf that names a definition twice, or a definition
                    # that does): the same schema, and the same findings, which repeat.
                    part = known[1]
                else:
                    target = self._resolve_raw(ref, sp + ("$ref",))
                    if target is MISSING:
                        return None
                    rest = {k: v for k, v in part.items() if k != "$ref"}
                    if type(self._merging) is not set:
                        self._merging = set()
                    self._merging.add(ref)
                    try:
                        part = self._merge([target, rest], sp, depth + 1)
                    finally:
                        self._merging.discard(ref)
                    if part is None:
                        return None
                    if not rest and type(ref) is str and self.fast:
                        # A merge that succeeded met no $ref already being merged, so it holds
                        # wherever this reference is merged again at this place.
                        if type(self.merged_refs) is not dict:
                            self.merged_refs = {}
                        self.merged_refs[(ref, id(sp))] = (sp, part)
            if "allOf" in part and isinstance(part["allOf"], list):
                inner = self._merge(part["allOf"], self._all_of_place(sp), depth + 1)
                if inner is None:
                    return None
                part = self._merge([{k: v for k, v in part.items() if k != "allOf"}, inner], sp, depth + 1)
                if part is None:
                    return None
            ap = part.get("additionalProperties", MISSING)
            if ap is False:
                props = part.get("properties")
                closed.append(set(props) if isinstance(props, dict) else set())
            elif isinstance(ap, dict) and ap:
                if open_schema is not None and open_schema != ap:
                    self.report("ref-sibling-conflict", sp + ("additionalProperties",), keyword="additionalProperties")
                    return None
                open_schema = ap
            for k, v in part.items():
                if k == "additionalProperties":
                    continue  # decided below, from every part at once
                if k not in out:
                    out[k] = v
                elif out[k] == v:
                    continue
                elif k == "required" and isinstance(v, list) and isinstance(out[k], list):
                    had = out[k]
                    if not own_req:
                        had = out[k] = list(had)
                        req_names = {x for x in had if type(x) is str}  # a set: both lists may be huge
                        own_req = True
                    new = [x for x in v if not (x in req_names if type(x) is str else x in had)]
                    had.extend(new)
                    req_names.update(x for x in new if type(x) is str)
                elif k == "enum" and isinstance(v, list) and isinstance(out[k], list):
                    out[k] = json_intersection(out[k], v)
                elif k in ANNOTATIONS or self.r.dropped(k):
                    out[k] = v  # the nearer annotation wins; dropped keywords never matter
                elif k == "properties" and isinstance(v, dict) and isinstance(out[k], dict):
                    merged_props = out[k] if own_props else dict(out[k])
                    own_props = True
                    for pname, pschema in v.items():
                        if pname in merged_props and merged_props[pname] != pschema:
                            both = self._merge([merged_props[pname], pschema], sp + ("properties", pname), depth + 1)
                            if both is None:
                                return None
                            merged_props[pname] = both
                        else:
                            merged_props[pname] = pschema
                    out[k] = merged_props
                elif k in ("minimum", "exclusiveMinimum", "minLength", "minItems") and _is_number(v) and _is_number(out[k]):
                    out[k] = max(out[k], v)
                elif k in ("maximum", "exclusiveMaximum", "maxLength", "maxItems") and _is_number(v) and _is_number(out[k]):
                    out[k] = min(out[k], v)
                else:
                    self.report("ref-sibling-conflict", sp + (k,), keyword=k)
                    return None
        if closed:
            # A part that closes the object forbids every property it does not declare,
            # whatever the other parts declare: keep only what every closed part allows.
            allowed = set.intersection(*closed)
            if open_schema is not None and any(isinstance(p, dict) and "properties" in p for p in parts):
                self.report("ref-sibling-conflict", sp + ("additionalProperties",), keyword="additionalProperties")
                return None
            props = out.get("properties")
            if isinstance(props, dict):
                out["properties"] = {k: v for k, v in props.items() if k in allowed}
            out["additionalProperties"] = False
        elif open_schema is not None:
            out["additionalProperties"] = open_schema
        return out

    # -- the walk --------------------------------------------------------------------------
    def node(self, s: Any, sp: tuple, ip: NullPath, depth: int, nest: int, root: bool = False) -> dict:
        r = self.r
        if type(s) is not dict or nest > NEST_GUARD:
            if nest > NEST_GUARD:
                self.guarded = True
                return self.refuse("schema-too-deep", sp, count=f"more than {NEST_GUARD}", limit=r.limit("max_depth"))
            if s is True:
                self.report("boolean-subschema", sp, value="true")
                self.change("normalized-true-subschema", sp)
                s = {}
            elif s is False:
                return self.refuse("false-subschema-unrepresentable", sp)
            elif not isinstance(s, dict):
                return self.refuse("non-schema-subschema", sp, value=describe(s))
        # Only a node with one of these keywords can need reshaping (or a $ref / anyOf below).
        special = not _RESHAPING.isdisjoint(s)
        if special:
            if "anyOf" in s and self.fast:
                cp = self.container_plans.get(keys := tuple(s))
                if cp is None:
                    cp = self._container_plan(keys)
                if cp and (out := self._planned_any_of(s, cp, sp, ip, depth, nest)) is not None:
                    return out
            s = self._normalize(s, sp, root)
            if s is None:
                return {}
        elif ((t := s.get("type")) == "object" or t == "array") and self.fast:
            cp = self.container_plans.get(keys := tuple(s))
            if cp is None:
                cp = self._container_plan(keys)
            if cp and (out := self._container(s, cp, t, sp, ip, depth, nest, root)) is not None:
                return out
        # `type` goes first in the output order: reserve its place so that most nodes come out
        # ordered without a re-sort (_types fills it in, or takes it out again).
        out: dict = {"type": None} if "type" in s and "$ref" not in s else {}
        nullable = False
        any_of: list | None = None
        plan = self.plan
        for k, v in s.items():
            p = plan.get(k)
            if p is None:
                action, dcode, tcode = r.unknown_keyword
                if action == "drop":
                    self._dropped(k, sp + (k,), dcode, tcode, dcode in self.refusing)
                continue
            op, exact, check, vkind, handler, dcode, tcode, slot = p
            if type(v) is not exact and check is not None and not check(v):
                self.report("invalid-keyword-value", sp + (k,), keyword=k, value=describe(v), expected=EXPECTED[vkind])
                continue
            if op == OP_PLAIN:
                out[k] = v
                continue
            if op == OP_STRUCTURAL:
                if vkind == "type" and type(v) is str and v not in JSON_TYPES:
                    self.report("invalid-keyword-value", sp + (k,), keyword=k, value=describe(v), expected=EXPECTED[vkind])
                continue  # structural: handled below
            if op == OP_DROP:
                self._dropped(k, sp + (k,), dcode, tcode, dcode in self.refusing)
                continue
            if op == OP_SLOT:
                out[k] = self._descend_slot(k, v, slot, sp, ip, depth, nest)
                continue
            if (k == "enum" or k == "const") and not _SCALAR_TYPES.issuperset(map(type, v if k == "enum" else (v,))):
                bad = next((x for x in (v if k == "enum" else [v]) if not _scalar(x)), MISSING)
                if bad is not MISSING:
                    if isinstance(bad, float):
                        self.report("invalid-keyword-value", sp + (k,), keyword=k, value=describe(bad), expected="finite JSON numbers")
                    else:
                        self.report("enum-value-not-scalar", sp + (k,), keyword=k, value=describe(bad))
                    continue
            if op == OP_REWRITE:
                ksp = sp + (k,)
                if handler == "const-to-enum":
                    self.report("const-converted-to-enum", ksp)
                    self.change("converted-const-to-enum", ksp)
                    out["enum"] = [v]
                elif handler == "one-of-to-any-of":
                    # Reached only when anyOf is present too (else _normalize rewrote it):
                    # both apply, and no single anyOf says that.
                    self.report("unsupported-keyword", ksp, keyword=k)
                    self.change("dropped-unsupported-keyword", ksp)
                elif handler == "openapi-nullable":
                    if v:
                        nullable = True
                        self.report("nullable-keyword-converted", ksp)
                        self.change("converted-nullable-to-type-union", ksp)
                    else:
                        self.report("annotation-keyword-dropped", ksp, keyword=k)
                        self.change("dropped-annotation-keyword", ksp)
                elif handler in ("definitions-to-defs",):
                    self.report("nested-definitions", ksp, keyword=k)
                    self.change("dropped-nested-definitions", ksp)
                # merge-all-of was applied by _normalize.
                continue
            # kept, with a rule of its own
            if op == OP_DEFS:
                ksp = sp + (k,)
                self.report("nested-definitions", ksp, keyword=k)
                self.change("dropped-nested-definitions", ksp)
                continue
            if op == OP_FORMAT:
                if v not in r.formats:
                    ksp = sp + (k,)
                    self.report("unsupported-string-format", ksp, format=v)
                    self.change("dropped-unsupported-format", ksp, f"({v})")
                    continue
            elif op == OP_PATTERN:
                if not self._pattern(v, sp + (k,)):
                    continue
            elif op == OP_ENUM:
                if not v:
                    self.report("unsatisfiable-schema", sp + (k,), value="an empty enum")
                    continue
                self._count_enum(v, sp, k)
            elif op == OP_CONST and isinstance(v, str):
                self.n_chars += len(v)
            if slot is not None:
                out[k] = self._descend_slot(k, v, slot, sp, ip, depth, nest)
            else:
                out[k] = v
        if special:
            if "$ref" in s:
                return self._ref(s["$ref"], out, sp, ip)
            if "anyOf" in s and type(s["anyOf"]) is list and r.keywords["anyOf"][1] != "drop":
                # (Any other value was reported as invalid above.)
                any_of = self._any_of(s["anyOf"], sp + ("anyOf",), ip, depth, nest)
        t = s.get("type")
        if type(t) is str and t in JSON_TYPES:  # _types' first case, inline
            out["type"] = t
            if t == "object" or t == "array":
                # Nesting counts containers only: a scalar leaf adds no level.
                if depth > self.deepest[0]:
                    self.deepest = (depth, sp)
                if t == "object":
                    self._object(s, out, sp, ip, depth, nest, root)
                else:
                    self._array(s, out, sp, ip, depth, nest)
        else:
            types = self._types(s, out, sp, any_of is not None)
            if types is None:
                return out
            if "object" in types or "array" in types:
                if depth > self.deepest[0]:
                    self.deepest = (depth, sp)
                if "object" in types:
                    self._object(s, out, sp, ip, depth, nest, root)
                if "array" in types:
                    self._array(s, out, sp, ip, depth, nest)
        if any_of is not None:
            if not any_of:
                self.report("unsatisfiable-schema", sp + ("anyOf",), value="every anyOf branch is false")
            out["anyOf"] = any_of
        if nullable:
            out = _with_null_own(out)
        if len(out) < 2:
            return out
        # Keywords in the table's output order (unknown ones last, stable); `_ordered`, inline.
        rank = self.rank
        prev = -1
        for k in out:
            i = rank[k]
            if i < prev:
                return {k: out[k] for k in sorted(out, key=rank.__getitem__)}
            prev = i
        return out

    # -- the simple leaf: the same result as node() for the commonest shape, without its dispatch
    def _shape(self, keys: tuple, own: frozenset, modes: dict) -> tuple | None:
        """(values, steps) for the keywords in `keys` that are not `own` (read by the caller), or None
        when one of them needs node()'s handling.

        `values` are (keyword, exact type, check, mode) in output order: what is checked and copied,
        `mode` from `modes` by the keyword's op (_PLAIN, _ENUM, _CONST, _FORMAT, _PATTERN); `steps`
        are (mode or _DROP, keyword, diagnostic, transformation, refuses) in key order: what is
        recorded (see _record_steps). Derived from the keyword plan, never from the values."""
        values, steps = [], []
        plan, refusing = self.plan, self.refusing
        for k in keys:
            if k in own:
                continue
            p = plan.get(k)
            if p is None:
                action, dcode, tcode = self.r.unknown_keyword
                if action == "drop":
                    steps.append((_DROP, k, dcode, tcode, dcode in refusing))
                continue  # an unknown keyword that is not dropped is left out, as node() does
            op, exact, check, _vkind, _handler, dcode, tcode, slot = p
            mode = modes.get(op) if slot is None else None
            if mode is not None:
                values.append((k, exact, check, mode))
                if mode != _PLAIN:
                    steps.append((mode, k, None, None, False))
            elif op == OP_DROP and check is None:
                steps.append((_DROP, k, dcode, tcode, dcode in refusing))
            else:
                return None
        rank = self.rank
        values.sort(key=lambda o: rank[o[0]])
        return tuple(values), tuple(steps)

    def _leaf_plan(self, keys: tuple) -> tuple | bool:
        """For a schema with exactly these keys, in this order: (values, steps, takes null its own
        way, copy) when it is a scalar leaf that _leaf_values and _record_steps compile, else False
        (see _shape; copy from _values_copiers). Cached per rule version."""
        if not _plannable(keys):
            return False  # not cached: node() takes it (the cache never holds large keys alive)
        plans = self.leaf_plans
        if len(plans) >= 4096:  # bounded: key orders are few in practice, but never grow without end
            plans.clear()
        found: tuple | bool = False
        if "type" in keys and _LEAF_RESHAPING.isdisjoint(keys) and not ("const" in keys and "enum" in keys):
            shape = self._shape(keys, _TYPE_KEY, _LEAF_MODES)
            if shape is not None and all(self.rank["type"] <= self.rank[o[0]] for o in shape[0]):
                found = (*shape, any(o[3] in (_ENUM, _CONST) for o in shape[0]), *_values_copiers(shape[0], self.r))
        plans[keys] = found
        return found

    def _leaf_values(self, s: dict, lp: tuple) -> dict | None:
        """The compiled leaf `s` (see _leaf_plan), or None when a value needs node()'s full
        treatment; records nothing."""
        t = s["type"]
        if type(t) is not str or t not in _LEAF_TYPES:
            return None
        return lp[3](s, {"type": t})

    def _dropped(self, k: str, ksp: tuple, dcode: str, tcode: str, refuses: bool) -> None:
        """Record that keyword `k` at `ksp` was dropped (its diagnostic and its transformation)."""
        if refuses:
            self.refusals += 1
        self.diags.append((dcode, "#", ksp, (("keyword", k),)))
        self.trans.append((tcode, "#", ksp, ""))

    def _record_steps(self, s: dict, steps: tuple, sp: tuple) -> None:
        """What compiling the planned node `s` records, after its values were accepted (see _shape)."""
        for mode, k, dcode, tcode, refuses in steps:
            # The keyword's place is built where something is recorded there.
            if mode == _DROP:
                self._dropped(k, sp + (k,), dcode, tcode, refuses)
            elif mode == _ENUM:
                self._count_enum(s[k], sp, k)
            elif mode == _CONST:
                if type(v := s[k]) is str:
                    self.n_chars += len(v)
            elif mode == _FORMAT:
                if (v := s[k]) not in self.r.formats:
                    ksp = sp + (k,)
                    self.report("unsupported-string-format", ksp, format=v)
                    self.change("dropped-unsupported-format", ksp, f"({v})")
            else:
                self._pattern(s[k], sp + (k,))

    def _leaf(self, s: dict, lp: tuple, sp: tuple) -> dict | None:
        """node() for a scalar leaf of a planned shape; None, with nothing recorded, when a value
        needs node()'s full treatment."""
        out = self._leaf_values(s, lp)
        if out is not None and lp[1]:
            self._record_steps(s, lp[1], sp)
        return out

    def _container_plan(self, keys: tuple) -> tuple | bool:
        """For an object or array schema with exactly these keys, or an anyOf beside annotations
        only: (plain values, drop steps) as _shape gives them and their copy (_values_copiers; for
        an object or array, one copy for each), when _container or _planned_any_of can compile it,
        else False. Cached per rule version, like _leaf_plan."""
        if not _plannable(keys):
            return False
        plans = self.container_plans
        if len(plans) >= 4096:
            plans.clear()
        found: tuple | bool = False
        plan = self.plan
        rank = self.rank
        if "type" in keys and _RESHAPING.isdisjoint(keys) and all(
            plan.get(k, (None,))[0] == OP_STRUCTURAL for k in _CONTAINER_KEYS
        ):
            shape = self._shape(keys, _CONTAINER_KEYS, _PLAIN_MODE)
            first = min(rank[k] for k in ("items", "properties", "required", "additionalProperties"))
            if shape is not None and all(rank["type"] <= rank[o[0]] < first for o in shape[0]):
                found = (*shape, *_values_copiers(shape[0], self.r, keys, ("object", "array")))
        elif "anyOf" in keys and "type" not in keys and _RESHAPING.isdisjoint(set(keys) - {"anyOf"}) and (
            plan.get("anyOf", (None,))[0] == OP_STRUCTURAL
        ):
            # Siblings that constrain are pushed into the branches (_normalize): annotations only.
            shape = self._shape(keys, _ANY_OF_KEY, _PLAIN_MODE)
            if shape is not None and all(o[0] in ANNOTATIONS and rank[o[0]] < rank["anyOf"] for o in shape[0]):
                found = (*shape, *_values_copiers(shape[0], self.r))
        plans[keys] = found
        return found

    def _planned_any_of(self, s: dict, cp: tuple, sp: tuple, ip: NullPath, depth: int, nest: int) -> dict | None:
        """node() for an anyOf beside annotations only (see _container_plan); None, with nothing
        recorded, when a value needs node()'s full treatment."""
        branches = s["anyOf"]
        if type(branches) is not list or not branches:
            return None
        out = cp[2](s, {})
        if out is None:
            return None
        if cp[1]:
            self._record_steps(s, cp[1], sp)
        any_of = self._any_of(branches, sp + ("anyOf",), ip, depth, nest)
        if not any_of:
            self.report("unsatisfiable-schema", sp + ("anyOf",), value="every anyOf branch is false")
        out["anyOf"] = any_of
        return out

    def _container(self, s: dict, cp: tuple, t: str, sp: tuple, ip: NullPath, depth: int, nest: int,
                   root: bool) -> dict | None:
        """node() for an object or array schema of a planned shape (see _container_plan); None, with
        nothing recorded, when a value needs node()'s full treatment."""
        # The plan's copy checks the structural keywords' values as node() checks them.
        out = (cp[2] if t == "object" else cp[3])(s, {"type": t})
        if out is None:
            return None
        if cp[1]:
            self._record_steps(s, cp[1], sp)
        if depth > self.deepest[0]:
            self.deepest = (depth, sp)
        if t == "object":
            self._object(s, out, sp, ip, depth, nest, root)
        else:
            self._array(s, out, sp, ip, depth, nest)
        return out

    def _pattern(self, pattern: str, sp: tuple) -> bool:
        """Check a `pattern` against the rule version's regex features; False drops it."""
        verdict = _pattern_verdict(self.r, pattern)
        if verdict[0] == "invalid":
            self.report("pattern-invalid", sp, value=describe(pattern), reason=verdict[1], position=verdict[2])
            return False
        keep, dropped = True, []
        for feature, (action, dcode, tcode) in verdict[1]:
            self.diag(dcode, sp, feature=feature, value=describe(pattern))
            if action == "drop":
                keep = False
                dropped.append((tcode, feature))
        if dropped:
            self.change(dropped[0][0], sp, "(" + ", ".join(f for _, f in dropped) + ")")
        return keep

    def _ordered(self, out: dict) -> dict:
        """`out` with its keywords in the table's output order (unknown ones last, stable)."""
        if len(out) < 2:
            return out
        rank = self.rank
        prev = -1
        for k in out:
            i = rank[k]
            if i < prev:
                break
            prev = i
        else:
            return out  # already in order: the common case, no sort and no copy
        return {k: out[k] for k in sorted(out, key=rank.__getitem__)}

    def _normalize(self, s: dict, sp: tuple, root: bool) -> dict | None:
        """Rewrites that reshape a node before its keywords are read: allOf, $ref and anyOf siblings."""
        r = self.r
        kw = r.keywords
        if "allOf" in s and kw.get("allOf", (None, "drop"))[1] == "rewrite" and isinstance(s.get("allOf"), list):
            branches = s["allOf"]
            merged = self._merge([{k: v for k, v in s.items() if k != "allOf"}] + list(branches), sp + ("allOf",))
            if merged is None:
                if self.refusals:
                    return None
            else:
                self.report("all-of-merged", sp + ("allOf",))
                self.change("merged-all-of", sp + ("allOf",))
                s = merged
        if "const" in s and isinstance(s.get("enum"), list):
            # Both apply: the only values left are the enum's members equal to the const.
            const = s["const"]
            s = {k: v for k, v in s.items() if k != "const"}
            s["enum"] = [x for x in s["enum"] if json_equal(x, const)]
            self.change("merged-all-of", sp + ("const",), "(const and enum both apply)")
        if "$ref" in s:
            kept = [k for k in s if k != "$ref" and not r.dropped(k)]
            if kept:
                if all(k in ANNOTATIONS for k in kept):
                    self.report("ref-with-siblings", sp, value=", ".join(kept))
                    self.change("wrapped-ref-with-siblings", sp)
                    wrapped = {k: v for k, v in s.items() if k != "$ref"}
                    wrapped["anyOf"] = [{"$ref": s["$ref"]}]
                    return wrapped
                n_trans = len(self.trans)
                target = self._resolve_raw(s["$ref"], sp + ("$ref",))
                if target is MISSING:
                    return None
                implied = self._implied_siblings(s, kept, target)
                if implied is not None:
                    # Every constraining sibling is one the target already implies: the
                    # node means {"$ref"} alone, so it is not inlined. What resolving the
                    # target recorded is taken back: _ref records it where the $ref ends up.
                    del self.trans[n_trans:]
                    self.report("ref-with-siblings", sp, value=", ".join(kept))
                    for k, code, note in implied:
                        self.change(code, sp + (k,), note)
                    dropped = {k for k, _, _ in implied}
                    s = {k: v for k, v in s.items() if k not in dropped}
                    if any(k in ANNOTATIONS for k in kept):  # as for annotations alone
                        self.change("wrapped-ref-with-siblings", sp)
                        wrapped = {k: v for k, v in s.items() if k != "$ref"}
                        wrapped["anyOf"] = [{"$ref": s["$ref"]}]
                        return wrapped
                    return s
                merged = self._merge([target, {k: v for k, v in s.items() if k != "$ref"}], sp)
                if merged is None:
                    return None
                self.report("ref-with-siblings", sp, value=", ".join(kept))
                self.change("merged-ref-siblings", sp, f"({s['$ref']})")
                return merged
        if (
            "oneOf" in s
            and "anyOf" not in s
            and kw.get("oneOf", (None, "drop"))[2] == "one-of-to-any-of"
            and isinstance(s["oneOf"], list)
            and s["oneOf"]
        ):
            branches = s["oneOf"]
            known = self.exclusive_of.get(id(branches)) if self.fast else None
            if known is not None and known[0] is branches:
                why = known[1]  # the same list met again (a definition's oneOf, merged in elsewhere)
            else:
                why = exclusive(branches, self)
                if type(self.exclusive_of) is not dict:
                    self.exclusive_of = {}
                self.exclusive_of[id(branches)] = (branches, why)  # holding the list keeps its id its own
            if why:
                self.report("one-of-exclusive-converted", sp + ("oneOf",), value=why)
                self.change("converted-exclusive-one-of-to-any-of", sp + ("oneOf",))
            else:
                self.report("one-of-converted-to-any-of", sp + ("oneOf",))
                self.change("converted-one-of-to-any-of", sp + ("oneOf",))
            s = {("anyOf" if k == "oneOf" else k): v for k, v in s.items()}
        if "anyOf" in s and not root:
            constraining = [
                k for k in s
                if k not in ("anyOf", "type") and k not in ANNOTATIONS and not r.dropped(k)
            ]
            if "type" in s:
                constraining.insert(0, "type")
            if constraining and isinstance(s["anyOf"], list):
                # Push the siblings into every branch: {A, anyOf:[B, C]} == anyOf:[A∧B, A∧C].
                common = {k: s[k] for k in constraining}
                branches = []
                for i, b in enumerate(s["anyOf"]):
                    if b is False:
                        branches.append(False)
                        continue
                    m = self._merge([common, b], sp + ("anyOf", i))
                    if m is None:
                        return None
                    branches.append(m)
                self.change("merged-all-of", sp + ("anyOf",), "(sibling keywords moved into each anyOf branch)")
                s = {k: v for k, v in s.items() if k not in common}
                s["anyOf"] = branches
        return s

    def _implied_siblings(self, s: dict, kept: list, target: Any) -> list | None:
        """(keyword, code, note) for each constraining sibling of `$ref` that the target implies.

        None unless every kept sibling that is not an annotation is either redundant (the
        target states it too, with the same meaning) or vacuous (it constrains only instance
        types the target's `type` excludes). Only a target whose `type` is known qualifies.
        """
        if not isinstance(target, dict) or "$ref" in target or "nullable" in target or "nullable" in s:
            return None
        ttype = target.get("type", MISSING)
        if ttype is MISSING or not _ok_type(ttype):
            return None
        ttypes = _TYPE_SETS[ttype] if isinstance(ttype, str) else frozenset(ttype)
        plan = self.plan
        unknown_dropped = self.r.unknown_keyword[0] == "drop"
        found = []
        for k in kept:
            if k in ANNOTATIONS:
                continue
            if k not in self.r.keywords and unknown_dropped:
                continue  # not JSON Schema (`kept` counts it): the walk drops it, it constrains nothing
            v = s[k]
            p = plan.get(k)
            if p is None or (type(v) is not p[1] and p[2] is not None and not p[2](v)):
                return None  # an invalid value is reported by the merge, as before
            applies = APPLIES_TO.get(k)
            if applies is not None and applies.isdisjoint(ttypes):
                found.append((k, "dropped-vacuous-ref-sibling",
                              f"(applies only to {' and '.join(sorted(applies))} values; the target's type is "
                              f"{' or '.join(sorted(ttypes))})"))
            elif self._restated(k, v, s, target):
                found.append((k, "dropped-redundant-ref-sibling", "(the target states the same)"))
            else:
                return None
        return found or None

    @staticmethod
    def _restated(k: str, v: Any, s: dict, target: dict) -> bool:
        """Whether sibling `k: v` of a `$ref` adds nothing to `target` (which states `k` too)."""
        tv = target.get(k, MISSING)
        if tv is MISSING or k in _NOT_BY_EQUALITY:
            return False
        if k == "type":
            return set([v] if isinstance(v, str) else v) == set([tv] if isinstance(tv, str) else tv)
        if k == "required":
            return isinstance(tv, list) and all(isinstance(x, str) for x in tv) and set(v) <= set(tv)
        if k == "additionalProperties":
            # Its meaning depends on the properties and patterns beside it: the same ones only.
            for near in ("properties", "patternProperties"):
                a, b = s.get(near, MISSING), target.get(near, MISSING)
                if (a is MISSING) != (b is MISSING) or (a is not MISSING and not json_equal(a, b)):
                    return False
        elif k == "items":
            # Schema-form items applies after prefixItems: the same prefixItems only.
            if isinstance(v, list) or isinstance(tv, list):
                return False
            a, b = s.get("prefixItems", MISSING), target.get("prefixItems", MISSING)
            if (a is MISSING) != (b is MISSING) or (a is not MISSING and not json_equal(a, b)):
                return False
        return json_equal(v, tv)

    def _types(self, s: dict, out: dict, sp: tuple, has_any_of: bool) -> frozenset | None:
        t = s.get("type", MISSING)
        if t is not MISSING:
            if not _ok_type(t):
                del out["type"]  # the place node() reserved
                return None  # already reported as an invalid value
            out["type"] = t
            return _TYPE_SETS[t] if isinstance(t, str) else frozenset(t)
        if has_any_of or "$ref" in s or "enum" in out or "const" in out:
            return frozenset()
        implied = [name for name, kws in _IMPLIES_SETS if not kws.isdisjoint(s)]
        if len(implied) == 1:
            kind = implied[0]
            trigger = next(k for k in dict(IMPLIES)[kind] if k in s)
            self.report("type-inferred", sp, keyword=f"`{trigger}`", value=kind)
            self.change("inferred-type", sp, f"({kind})")
            out["type"] = kind
            return frozenset([kind])
        self.report("schema-missing-type", sp)
        return None

    def _descend_slot(self, k: str, v: Any, slot: tuple, sp: tuple, ip: NullPath, depth: int, nest: int) -> Any:
        """Generic descent for a kept schema-valued keyword that has no structural rule."""
        kind, step = slot
        self.branched = True
        d = 1 if step == "reset" else depth + step
        if kind == "map":
            return {n: self.node(x, sp + (k, n), ip, d, nest + 1) for n, x in v.items()}
        if kind == "list" or (kind == "schema-or-list" and isinstance(v, list)):
            return [self.node(x, sp + (k, i), ip, d, nest + 1) for i, x in enumerate(v)]
        return self.node(v, sp + (k,), ip, d, nest + 1)

    def _count_enum(self, values: list, sp: tuple, k: str) -> None:
        """Count the values of enum `k` of the node at `sp` towards the limits; report a large one."""
        self.n_enum += len(values)
        try:
            chars = sum(map(len, values))  # all strings, the common enum (its values are scalars)
        except TypeError:
            chars = 0
            for x in values:
                if isinstance(x, str):
                    chars += len(x)
        self.n_chars += chars
        threshold, max_chars = self.enum_limits
        if len(values) > threshold and chars > max_chars:
            self.diag(self.r.limits["large_enum_chars"][1], sp + (k,), count=len(values), value=chars,
                      threshold=threshold, limit=max_chars)

    def _ref(self, ref: Any, out: dict, sp: tuple, ip: NullPath) -> dict:
        name = self._target(ref, sp + ("$ref",))
        if name is None:
            return {}
        self.bucket.refs.append((ip, name))
        if name == "":
            out["$ref"] = "#"
        else:
            if name not in self.defs_out:
                self.queue.append(name)
                self.defs_out[name] = None  # queued: compiled once, by _compile_defs
            out["$ref"] = _DEF_REFS.get(name) or _def_ref(name)
        return self._ordered(out) if len(out) > 1 else out

    def _any_of(self, branches: list, sp: tuple, ip: NullPath, depth: int, nest: int) -> list:
        self.branched = True
        out = []
        for i, b in enumerate(branches):
            if b is False:
                self.report("boolean-subschema", sp + (i,), value="false")
                self.change("removed-false-subschema", sp + (i,))
                continue
            bsp = sp + (i,)
            if type(b) is dict and nest < NEST_GUARD and self.fast:
                lp = self.leaf_plans.get(keys := tuple(b))
                if lp is None:
                    lp = self._leaf_plan(keys)
                if lp and (leaf := self._leaf(b, lp, bsp)) is not None:
                    out.append(leaf)
                    continue
            out.append(self.node(b, bsp, ip, depth, nest + 1))
        return out

    def _object(self, s: dict, out: dict, sp: tuple, ip: NullPath, depth: int, nest: int, root: bool) -> None:
        props = s.get("properties")
        if not isinstance(props, dict):
            props = {}
        elif not self.gc_paused:
            n = self.entered_props = self.entered_props + len(props)
            if n > PAUSE_GC_AFTER_PROPERTIES and gc_isenabled():
                gc_disable()
                self.gc_paused = True
        ap = s.get("additionalProperties", MISSING)
        required = s.get("required")
        if isinstance(required, list) and required:
            try:
                req = set(required)
            except TypeError:  # an unhashable entry (reported as an invalid value already)
                req = {x for x in required if isinstance(x, str)}
        else:
            required, req = (), frozenset()
        if not props:
            if ap is MISSING and root:
                self.report("empty-parameters", sp)
                self.change("closed-empty-parameters", sp)
            elif ap is False:
                if "properties" not in s:
                    self.change("added-empty-properties", sp)
            elif isinstance(ap, dict) and ap:
                self.report("open-map", sp + ("additionalProperties",))
                return
            else:
                self.report("free-form-object", sp)
                return
        elif ap is MISSING:
            self.diags.append((self.object_codes[2], "#", sp, ()))
            self.trans.append((self.object_codes[3], "#", sp, ""))
            if self.object_flags[3]:
                self.refusals += 1
        elif ap is True or ap == {}:
            self.report("additional-properties-true", sp + ("additionalProperties",))
            self.report("extra-properties-no-longer-accepted", sp + ("additionalProperties",))
            self.change("closed-open-object", sp + ("additionalProperties",))
        elif isinstance(ap, dict):
            self.report("additional-properties-schema", sp + ("additionalProperties",))
            self.change("dropped-additional-properties-schema", sp + ("additionalProperties",))
        if req and not req <= props.keys():
            for name in required:
                # Entries that are not strings were reported as invalid values already.
                if isinstance(name, str) and name not in props:
                    self.report("required-property-undefined", sp + ("required",), name=name)
        out_props: dict = {}
        bucket = self.bucket
        diags, trans = self.diags, self.trans
        # The per-property findings, recorded inline (their outcomes read once per rules).
        opt_code, null_change, _, _, repointed = self.object_codes
        opt_refuses, null_refuses, ref_plain, _ = self.object_flags
        leaf_plans = self.leaf_plans
        leaf_ok = nest < NEST_GUARD and self.fast  # node() refuses deeper schemas; a leaf is never too deep
        # Once the walk has refused something, a caller that clears builds_refused will not use the
        # strict form: its properties are walked as before, but only their names are kept (`lean`:
        # for the counts below), and a planned leaf's values are checked into a scratch dict
        # (`sink`) instead of a new one.
        discard = not self.builds_refused
        lean = False
        sink: Any = None
        for name, sub in props.items():
            if discard and not lean and self.refusals:
                lean, sink = True, {}
            lp = None
            if leaf_ok and type(sub) is dict and (len(sub) != 1 or "$ref" not in sub):  # a bare $ref is no leaf
                # The commonest property, a plain scalar leaf (see _leaf_plan), in one pass: its own
                # findings after the property's, as node() would have them.
                lp = leaf_plans.get(keys := tuple(sub))
                if lp is None:
                    lp = self._leaf_plan(keys)
                child = None
                if lp and type(t := sub["type"]) is str and t in _NON_NULL_LEAF_TYPES:
                    child = lp[3](sub, sink if lean else {"type": t})
                if child is not None:
                    # The property's place is built only when something is reported there.
                    if name not in req:  # optional: nullable instead (null is new here)
                        psp = sp + ("properties", name)
                        bucket.nulls.append(ip + (name,))
                        diags.append((OPTIONAL_PAIR, "#", psp, ()))  # its two diagnostics, in one record
                        trans.append((null_change, "#", psp, ""))
                        if opt_refuses or null_refuses:
                            self.refusals += opt_refuses + null_refuses
                        if not lean:  # (a form not kept needs no null)
                            if lp[2]:
                                child = _with_null_own(child)  # an enum or const takes null its own way
                            else:
                                child["type"] = [t, "null"]
                    if lp[1]:
                        self._record_steps(sub, lp[1], sp + ("properties", name))
                    out_props[name] = None if lean else child
                    continue
            psp = sp + ("properties", name)
            if sub is False:
                self.report("boolean-subschema", psp, value="false")
                if name in req:
                    self.report("unsatisfiable-schema", psp, value=f"property {name!r} is required but its schema is false")
                else:
                    self.change("removed-false-subschema", psp)
                continue
            pip = ip + (name,)
            # Decide before descending, so findings and null paths come parent first.
            optional = name not in req
            if type(sub) is dict and type(t := sub.get("type")) is str and t != "null" and sub.get("nullable") is not True:
                original_null = False  # allows_null's first test, inline: one plain type
            elif (type(sub) is dict and len(sub) == 1 and type(ref := sub.get("$ref")) is str
                  and (known := self.ref_nulls.get(ref)) is not None):
                original_null = known  # a bare $ref: allows_null's answer for its target, remembered
            else:
                original_null = allows_null(sub, self)
            if original_null:
                bucket.legit.append(pip)
            elif optional:
                bucket.nulls.append(pip)
            if optional:
                if original_null:
                    diags.append((opt_code, "#", psp, (("name", name),)))
                else:
                    diags.append((OPTIONAL_PAIR, "#", psp, ()))  # both diagnostics, in one record
                    trans.append((null_change, "#", psp, ""))
                if opt_refuses or (null_refuses and not original_null):
                    self.refusals += opt_refuses + (null_refuses and not original_null)
            child = None
            if leaf_ok and type(sub) is dict:
                if len(sub) == 1 and ref_plain and type(ref := sub.get("$ref")) is str:
                    # A bare reference: what node() makes of it, without the general path.
                    if (known := self.ref_names.get(ref)) is not None and (target := known[0]) and target in self.defs_out:
                        # Resolved and queued before (_target's and _ref's common case, inline; the
                        # root, named "", keeps to _ref).
                        if known[1]:
                            trans.append((repointed, "#", psp + ("$ref",), known[1]))
                        bucket.refs.append((pip, target))
                        if lean:
                            out_props[name] = None
                            continue
                        child = {"$ref": _DEF_REFS.get(target) or _def_ref(target)}
                        # with_null's answer for a bare $ref (see _with_null_own)
                        out_props[name] = {"anyOf": [child, {"type": "null"}]} if optional and not original_null else child
                        continue
                    child = self._ref(ref, {}, psp, pip)
                elif lp and sub["type"] == "null":  # a planned leaf the pass above left: null is its value
                    child = self._leaf(sub, lp, psp)
                elif ((ct := sub.get("type")) == "object" or ct == "array") and _RESHAPING.isdisjoint(sub):
                    # A nested object or array: node()'s own first step, without its checks.
                    cp = self.container_plans.get(keys := tuple(sub))
                    if cp is None:
                        cp = self._container_plan(keys)
                    if cp:
                        child = self._container(sub, cp, ct, psp, pip, depth + 1, nest + 1, False)
            if child is None:
                child = self.node(sub, psp, pip, depth + 1, nest + 1)
            if lean:
                child = None
            elif optional and not original_null:
                t = child.get("type")
                if type(t) is str and t != "null" and _NOT_PLAIN_NULLABLE.isdisjoint(child):
                    child["type"] = [t, "null"]  # _with_null_own's common case, inline
                else:
                    child = _with_null_own(child)
            out_props[name] = child
        self.n_props += len(out_props)
        self.n_chars += sum(map(len, out_props))
        if lean:
            return  # the strict form is not kept
        out["properties"] = out_props
        out["required"] = list(out_props)
        out["additionalProperties"] = False

    def _array(self, s: dict, out: dict, sp: tuple, ip: NullPath, depth: int, nest: int) -> None:
        items = s.get("items", MISSING)
        if items is MISSING:
            self.report("array-missing-items", sp)
            return
        if isinstance(items, list):
            self.report("tuple-items", sp + ("items",))
            return
        if items is False:
            self.report("false-subschema-unrepresentable", sp + ("items",))
            return
        isp = sp + ("items",)
        if type(items) is dict and nest < NEST_GUARD and self.fast:
            lp = self.leaf_plans.get(keys := tuple(items))
            if lp is None:
                lp = self._leaf_plan(keys)
            if lp and (leaf := self._leaf(items, lp, isp)) is not None:
                out["items"] = leaf
                return
        out["items"] = self.node(items, isp, ip + (ITEMS,), depth + 1, nest + 1)

    # -- after the walk --------------------------------------------------------------------
    def _check_finite(self, out: dict) -> None:
        """Refuse what no finite value satisfies: required recursion, bare `$ref` cycles."""
        defs = {name: d for name, d in self.defs_out.items() if isinstance(d, dict)}
        for name, d in defs.items():
            seen = {name}
            cur = d
            while len(cur) == 1 and "$ref" in cur and cur["$ref"].startswith("#/$defs/"):
                nxt = cur["$ref"][len("#/$defs/"):].replace("~1", "/").replace("~0", "~")
                if nxt in seen:
                    self.report("unsatisfiable-schema", (self.defs_src.get(name, "$defs"), name),
                              value="a cycle of $refs with no schema in it")
                    return
                seen.add(nxt)
                cur = defs.get(nxt, {})
        if self.refusals:
            return
        # Least fixed point: a definition is finite once some finite value satisfies it. A
        # worklist: a schema is looked at again only when a definition it refers to turned
        # finite (repeated sweeps would be quadratic in a chain of definitions).
        finite: dict[str, bool] = {name: False for name in defs}
        finite[""] = False
        schemas = {"": out, **defs}
        referrers: dict[str, list[str]] = {}
        for name in schemas:
            bucket = self.buckets.get(name)
            targets = {t for _, t in bucket.refs} if bucket is not None else _refs_in(schemas[name])
            for t in targets:
                referrers.setdefault(t, []).append(name)
        todo = list(schemas)
        while todo:
            name = todo.pop()
            if not finite[name] and _finite(schemas[name], finite):
                finite[name] = True
                todo.extend(n for n in referrers.get(name, ()) if not finite[n])
        if not finite[""]:
            self.report("unsatisfiable-schema", (), value="no finite value satisfies it: a required property recurses without end")

    def _check_limits(self) -> None:
        r = self.r
        limits = r.limits
        if (
            self.n_props <= limits["max_properties"][0]
            and self.n_chars <= limits["max_string_chars"][0]
            and self.n_enum <= limits["max_enum_values"][0]
            and self.deepest[0] <= limits["max_depth"][0]
        ):
            return  # within every limit: the common case
        if self.n_props > r.limit("max_properties"):
            self.diag(r.limits["max_properties"][1], (), count=self.n_props, limit=r.limit("max_properties"))
        if self.n_chars > r.limit("max_string_chars"):
            self.diag(r.limits["max_string_chars"][1], (), count=self.n_chars, limit=r.limit("max_string_chars"))
        if self.n_enum > r.limit("max_enum_values"):
            self.diag(r.limits["max_enum_values"][1], (), count=self.n_enum, limit=r.limit("max_enum_values"))
        depth, where = self.deepest
        if depth > r.limit("max_depth") and not self.guarded:
            self.diag(r.limits["max_depth"][1], where, count=depth, limit=r.limit("max_depth"))

    def _finish_null_paths(self) -> None:
        buckets = self.buckets
        root = buckets[""]
        if len(buckets) == 1 and not root.refs:
            # No definitions: the root's own paths, nothing to expand (most tools).
            nulls = root.nulls
            if not nulls:
                return
            legit = set(root.legit) if root.legit else ()
        else:
            nulls, legit = self._expand_null_paths()
            if not nulls:
                return
        for p in nulls:
            if p in legit:
                self.report("ambiguous-null-path", (), value="/".join("*" if s is ITEMS else s for s in p))
                return
        self.null_paths = tuple(dict.fromkeys(nulls))

    def _expand_null_paths(self) -> tuple[list[NullPath] | None, Any]:
        """Null paths (and legit null paths) of the root with every $ref expanded, in walk order.

        Linear in the reference graph plus the paths produced: no per-definition graph search,
        no recursion (a chain of definitions may be far longer than Python's stack).
        """
        buckets = self.buckets
        # Definitions whose subtree has something to strip: those reaching a bucket with nulls.
        referrers: dict[str, list[str]] = {}
        for name, b in buckets.items():
            for _, t in b.refs:
                referrers.setdefault(t, []).append(name)
        has = {name for name, b in buckets.items() if b.nulls}
        todo = list(has)
        while todo:
            for name in referrers.get(todo.pop(), ()):
                if name not in has:
                    has.add(name)
                    todo.append(name)
        # A recursive definition that has something to strip makes the paths unbounded.
        if has:
            cyclic = self._cyclic(has)
            for name in sorted(has):
                if name in cyclic:
                    self.report("unbounded-null-paths", (self.defs_src.get(name, "$defs"), name) if name else (),
                              name=name or "#")
                    return None, ()
        memo: dict[tuple[str, str, bool], Any] = {}

        def expand(attr: str, counting: bool = False) -> Any:
            # Depth-first from the root; a definition already on the path is skipped (cycles
            # only ever carry legit paths here), a finished one is reused from the memo.
            # `counting` gives how many paths the listing would hold, in time linear in the
            # reference graph, without listing them.
            def start(name: str) -> Any:
                paths = getattr(buckets[name], attr)
                return len(paths) if counting else list(paths)

            frames = [["", start(""), 0]]
            on_path = {""}
            done: Any = None
            while frames:
                frame = frames[-1]
                name = frame[0]
                refs = buckets[name].refs
                if done is not None:
                    if counting:
                        frame[1] += done
                    else:
                        frame[1].extend(map(_Join, repeat(refs[frame[2] - 1][0]), done))
                    done = None
                while frame[2] < len(refs):
                    ip, target = refs[frame[2]]
                    frame[2] += 1
                    if target in on_path or target not in buckets:
                        continue
                    if attr == "nulls" and target not in has:
                        continue
                    sub = memo.get((target, attr, counting))
                    if sub is not None:
                        if counting:
                            frame[1] += sub
                        else:
                            frame[1].extend(map(_Join, repeat(ip), sub))
                        continue
                    frames.append([target, start(target), 0])
                    on_path.add(target)
                    break
                else:
                    memo[(name, attr, counting)] = done = frame[1]
                    frames.pop()
                    on_path.discard(name)
            if counting:
                return done
            # Joined only here, once per path: a prefix per level would copy a path through a
            # chain of n definitions n times.
            return [_flat(p) for p in done] if done else []

        n_nulls = expand("nulls", counting=True)
        if n_nulls > NULL_PATHS_GUARD:
            self.report("too-many-null-paths", (), count=n_nulls, limit=NULL_PATHS_GUARD)
            return None, ()
        if not n_nulls:
            return None, ()
        n_legit = expand("legit", counting=True) if any(b.legit for b in buckets.values()) else 0
        if self.fast and self._blocked():
            # Refused already (or lossy where that blocks): no path will be used, and only an
            # ambiguous one is still reported.
            # Each legit path is looked for among the null paths without listing them.
            if not n_legit:
                return None, ()
            if n_legit <= NULL_PATHS_GUARD:
                index: dict[str, tuple] = {}
                if not any(self._has_path(p, "nulls", has, index) for p in dict.fromkeys(expand("legit"))):
                    return None, ()
        if n_legit <= NULL_PATHS_GUARD:
            return expand("nulls"), (set(expand("legit")) if n_legit else ())
        # Too many legit paths to list: each null path is looked for among them instead.
        return expand("nulls"), _PathSearch(self, "legit", set(buckets))

    def _has_path(self, path: NullPath, attr: str, targets: set[str], index: dict[str, tuple]) -> bool:
        """Whether `path` is one of the root's `attr` paths ("nulls" or "legit") with $refs to
        `targets` expanded, without listing them: a search from the root through each $ref whose
        instance path begins what is left of `path`. For null paths (once no definition in `has`
        is recursive) this is exactly what _expand_null_paths lists. `index` keeps, per bucket, its
        paths as a set and its $refs by instance path."""
        buckets = self.buckets
        n = len(path)
        seen = set()
        todo = [("", 0)]
        while todo:
            state = todo.pop()
            if state in seen:
                continue
            seen.add(state)
            name, i = state
            entry = index.get(name)
            if entry is None:
                b = buckets[name]
                by_ip: dict[NullPath, list[str]] = {}
                for ip, target in b.refs:
                    if target in targets and target in buckets:
                        by_ip.setdefault(ip, []).append(target)
                entry = index[name] = (set(getattr(b, attr)), by_ip)
            paths, by_ip = entry
            rest = path[i:]
            if rest in paths:
                return True
            if by_ip:
                for k in range(n - i + 1):
                    for target in by_ip.get(rest[:k], ()):
                        todo.append((target, i + k))
        return False

    def _cyclic(self, among: set[str]) -> set[str]:
        """The definitions of `among` that reach themselves through $refs without leaving it
        (Tarjan's strongly connected components of the graph `among` induces). Whatever refers to a
        member of `among` is a member (as in _expand_null_paths' `has`), so no cycle through a
        member leaves it."""
        buckets = self.buckets
        edges = {name: list(dict.fromkeys(t for _, t in buckets[name].refs if t in among)) for name in among}
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        on_stack: set[str] = set()
        stack: list[str] = []
        cyclic: set[str] = set()
        for start in among:
            if start in index:
                continue
            work = [(start, 0)]
            while work:
                node, i = work.pop()
                if i == 0:
                    index[node] = low[node] = len(index)
                    stack.append(node)
                    on_stack.add(node)
                succ = edges[node]
                if i < len(succ):
                    work.append((node, i + 1))
                    t = succ[i]
                    if t == node:
                        cyclic.add(node)
                    if t not in index:
                        work.append((t, 0))
                    elif t in on_stack:
                        low[node] = min(low[node], index[t])
                    continue
                if low[node] == index[node]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == node:
                            break
                    if len(component) > 1:
                        cyclic.update(component)
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
        return cyclic



def _pattern_verdict(r: Rules, pattern: str) -> tuple:
    """("invalid", reason, column) or ("ok", ((feature, (action, diagnostic, transformation)), ...)).

    Parsed as ECMA-262 with the `u` flag (what JSON Schema recommends), falling back to the
    non-unicode grammar (which also accepts identity escapes such as `\\-` that many real
    patterns use). lark loads only here, on the first pattern, never on import.
    """
    cache = r.__dict__.get("_pattern_verdicts")
    if cache is None:
        cache = r.__dict__["_pattern_verdicts"] = {}
    verdict = cache.get(pattern)
    if verdict is None:
        from toolcast._regex import RegexSyntaxError, analyze

        try:
            try:
                used = analyze(pattern, unicode=True)
            except RegexSyntaxError as first:
                try:
                    used = analyze(pattern, unicode=False)
                except RegexSyntaxError:
                    raise first from None
        except RegexSyntaxError as exc:
            verdict = ("invalid", exc.message, exc.position + 1)
        else:
            table = getattr(r.module, "REGEX_FEATURES", {})
            classes = getattr(r.module, "REGEX_FEATURE_CLASSES", {})
            found = sorted(f for f in used if f in table)
            verdict = ("ok", tuple((f, classes[table[f][0]]) for f in found))
        if len(cache) >= 4096:  # bounded: a long-running process may see endless distinct patterns
            cache.clear()
        cache[pattern] = verdict
    return verdict


def _pattern_kept(r: Rules, pattern: str) -> bool:
    """Whether Walk._pattern keeps this pattern (it records why when it does not)."""
    verdict = _pattern_verdict(r, pattern)
    return verdict[0] != "invalid" and all(action != "drop" for _f, (action, _d, _t) in verdict[1])


class _PathSearch:
    """`p in` answered by Walk._has_path: the paths of one kind, too many to list."""

    __slots__ = ("attr", "index", "targets", "walk")

    def __init__(self, walk: Walk, attr: str, targets: set[str]) -> None:
        self.walk, self.attr, self.targets, self.index = walk, attr, targets, {}

    def __contains__(self, path: NullPath) -> bool:
        return self.walk._has_path(path, self.attr, self.targets, self.index)


class _Join:
    """A null path not yet joined: `head` (an instance path) followed by `tail` (a path or a _Join)."""

    __slots__ = ("head", "tail")

    def __init__(self, head: NullPath, tail: Any) -> None:
        self.head, self.tail = head, tail


def _flat(p: Any) -> NullPath:
    if type(p) is not _Join:
        return p
    parts = []
    while type(p) is _Join:
        parts.append(p.head)
        p = p.tail
    parts.append(p)
    return tuple(chain.from_iterable(parts))
