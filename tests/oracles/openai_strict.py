"""Independent oracle: would OpenAI strict mode accept this compiled schema / tool?

Written only from the team's provider fact sheet, §1 (cited as "PF §1.x"; the
sheet is not in the repository, its public sources are cited by URL in
``spec/openai/*.yaml``), the rejection messages quoted in ``upstream.md`` §5 P1 and the
evidence notes of ``peers.md`` §4. It deliberately does NOT import anything from
toolcast, so that it can disagree with the compiler's rule tables.

Public API
----------
``violations(schema, *, profile="2026-10-17") -> list[Violation]``
    Everything in a *compiled* ``parameters`` schema that OpenAI strict mode
    rejects (or that we treat as rejected under the strictest reading of the
    facts; see "Decisions" below). Empty list == acceptable.
``tool_violations(tool, api="responses"|"chat", *, profile=...) -> list[Violation]``
    The same for a whole emitted function tool (shape, ``strict``, name,
    description, and ``violations`` on ``parameters`` when ``strict`` is true).
``schema_stats(schema) -> SchemaStats`` / ``nesting_depth(schema) -> int``
    The counting used for the limits (PF §1.8), reusable by other tests.
``validate_instance(schema, instance) -> bool`` / ``instance_errors(...)``
    Draft 2020-12 validation with a registry that resolves only local refs.

Rule ids (``Violation.rule``)
-----------------------------
Schema structure
  root-not-object                root is not a dict whose ``type`` is exactly "object"
  root-any-of                    root carries ``anyOf``
  not-a-schema                   a subschema position holds a non-dict, non-bool value
  boolean-schema                 a subschema is ``true``/``false``
  missing-type                   node has no ``type`` and is not an anyOf/$ref/enum/const node
  invalid-type                   ``type`` is not a known name or a non-empty list of unique known names
  additional-properties-not-false  object node whose ``additionalProperties`` is not literally false
  missing-properties             object node without a ``properties`` key
  required-mismatch              object ``required`` is not exactly the property keys (once each)
  array-missing-items            array node without ``items``
  items-not-single-schema        ``items`` is a list (tuple form)
  anyof-invalid                  ``anyOf`` is not a non-empty list
  enum-invalid                   ``enum`` is not a non-empty list
  enum-value-not-scalar          an enum value is not string/number/bool/null
  const-not-scalar               ``const`` is not string/number/bool/null
  format-unsupported             ``format`` outside the nine supported formats
  unsupported-keyword            a keyword the facts name as unsupported (allOf, oneOf, not, ...)
  unlisted-keyword               any other keyword outside the profile's allowlist
  invalid-keyword-value          an allowlisted keyword with a malformed value
  defs-not-at-root               ``$defs`` anywhere but the root
  ref-not-local                  ``$ref`` not exactly ``#`` or ``#/$defs/<name>``
  ref-unresolvable               ``#/$defs/<name>`` with no such root definition
  ref-siblings                   ``$ref`` with any sibling keyword
  ref-cycle                      a chain of pure ``$ref`` nodes that loops (never reaches a schema)
  no-finite-instance             no finite JSON value satisfies the root (e.g. required recursion)
Limits (PF §1.8, current-docs column)
  too-many-properties            > 5,000 properties in total
  too-deep                       > 10 levels of nesting (see "Counting")
  too-many-string-chars          > 120,000 chars of property names, $defs names, string enum/const values
  too-many-enum-values           > 1,000 enum values in total
  enum-string-too-long           an enum with > 250 values whose string values total > 15,000 chars
Robustness
  walk-limit                     the walk stopped (node budget or descent guard); schema too hostile to check fully
Tool level (``tool_violations``)
  tool-shape, tool-unknown-key, strict-missing, strict-not-bool, name-invalid,
  description-invalid, description-too-long, description-invisible-chars, parameters-invalid

Counting conventions (PF §1.8 gives only the numbers; these are our choices)
--------------------------------------------------------------------------
* Nesting level counts object/array nesting of the *instance data*: the root
  schema is level 1; a ``properties`` value or an ``items`` schema is one level
  deeper than the node holding it; ``anyOf`` branches sit at the level of the
  ``anyOf`` node; ``$ref`` is not followed; each ``$defs`` entry is measured from
  its own root (level 1). The depth of a schema is the highest level of any node
  whose ``type`` is or includes "object" or "array" (scalar leaves do not add a
  level; ``count_scalars=True`` counts them too). So ``{"type":"object"}`` nested
  10 times is depth 10 (ok), 11 times is depth 11 (``too-deep``).
* Properties: ``len(properties)`` summed over every node in the document
  (including ``$defs``), each node once; refs are not expanded.
* Characters: Python ``len`` (Unicode code points) of every property name
  occurrence, every ``$defs`` name, every string enum value and every string
  ``const`` value; duplicates count each time.
* Enum values: ``len(enum)`` summed over every node; ``const`` is not an enum value.
* "String enum with more than 250 values": an ``enum`` list with > 250 entries;
  its size is the total length of its string entries.

Decisions on ambiguous facts (strictest reading unless noted)
-------------------------------------------------------------
* Acceptable typeless nodes: ``anyOf`` nodes (PF §1.5 "anyOf ... nested only",
  linked-list example), ``$ref`` nodes (PF §1.7), ``enum`` nodes (PF §1.5 lists
  enum as a type) and ``const`` nodes (PF §1.5 unlisted-accepted; only where the
  profile allows ``const``). Anything else without ``type`` is ``missing-type``
  ("schema must have a 'type' key", upstream §5 P1).
* ``$ref`` siblings: *any* sibling, including ``description``/``title``, is a
  violation (PF §1.4 says unsupported; the Java SDK tolerates title/description,
  the Python SDK inlines) — strictest reading.
* ``required`` must be present even when ``properties`` is ``{}`` ("'required' is
  required to be supplied and to be an array including every key").
* ``minLength``/``maxLength`` (C-1): allowed in profile 2026-10-17, unlisted in
  2026-08-20 (together with ``const`` and ``title``).
* ``default``, ``examples``, ``definitions``, ``nullable``, ``$schema``, ``$id``,
  ``$comment``: outside the allowlist -> ``unlisted-keyword`` (PF §1.6 marks them
  unknown / unlisted; C-5 says strip ``default``).
* Keywords are not checked against the node's type (e.g. ``pattern`` on an
  integer is not flagged): PF gives per-type lists only as "supported", not as
  rejections.
* ``type``/``enum`` consistency (e.g. ``type: ["string","null"]`` with an enum
  that lacks null) is not flagged: it is OpenAI's own documented example.
* ``no-finite-instance`` is a semantic check beyond the provider facts
  (peers.md §4 highlight 2: unsatisfiable recursive required refs).
"""

from __future__ import annotations

import math
import re
import urllib.parse
from dataclasses import dataclass
from typing import Any

from . import facts as _facts

__all__ = [
    "LIMITS",
    "PROFILES",
    "SUPPORTED_FORMATS",
    "SchemaStats",
    "Violation",
    "instance_errors",
    "nesting_depth",
    "schema_stats",
    "tool_violations",
    "validate_instance",
    "violations",
]

# --------------------------------------------------------------------------
# Facts
# --------------------------------------------------------------------------

# PF §1.5: supported types (+ null via type arrays / {"type":"null"} branches).
TYPE_NAMES = frozenset({"string", "number", "boolean", "integer", "object", "array", "null"})

# The documented facts that change between readings (allowlist, formats, limits) live in ONE mapping,
# tests/oracles/facts.py, keyed by rule version date; a profile names a reading by its date.
SUPPORTED_FORMATS = _facts.NINE_FORMATS  # PF §1.6, since the widening

# Keyword allowlists per reading (a profile is any rule version date on or after the first reading).
PROFILES: dict[str, frozenset[str]] = {d: r.allowlist for d, r in _facts.OPENAI.items()}
_BASE_ALLOWLIST = frozenset().union(*PROFILES.values())

# Keywords the facts name as unsupported/rejected (PF §1.6, §1.7, §1.10 openai-node
# set; upstream §5 P1 "'oneOf' is not permitted"). Everything else outside the
# allowlist is "unlisted-keyword".
UNSUPPORTED_KEYWORDS = frozenset(
    {
        "allOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
        "patternProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "prefixItems",
        "additionalItems",
        "uniqueItems",
        "contains",
        "minContains",
        "maxContains",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$recursiveRef",
        "$recursiveAnchor",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
    }
)

# PF §1.8, "Current docs" column (C-2: use the docs values): the reading's limits, facts.py.
LIMITS = _facts.openai("2025-11-30").limits

# Hostile-input guards (not provider facts).
MAX_NODES = 50_000  # schema nodes visited before giving up
MAX_WALK_DEPTH = 128  # schema descents (properties/items/anyOf/$defs) before giving up

_MISSING = object()


@dataclass(frozen=True)
class Violation:
    path: str  # JSON-pointer-like, "#" is the schema root, e.g. "#/properties/a"
    rule: str  # short kebab id, see module docstring
    detail: str


@dataclass(frozen=True)
class SchemaStats:
    properties: int
    depth: int
    string_chars: int
    enum_values: int
    nodes: int
    complete: bool  # False when the walk stopped at a hostile-input guard


def _esc(token: Any) -> str:
    s = token if isinstance(token, str) else repr(token)
    return s.replace("~", "~0").replace("/", "~1")


def _join(path: str, *tokens: Any) -> str:
    for t in tokens:
        path = f"{path}/{_esc(t)}"
    return path


def _is_scalar(v: Any) -> bool:
    if v is None or isinstance(v, (str, bool, int)):
        return True
    if isinstance(v, float):
        return math.isfinite(v)  # NaN/Infinity are not JSON
    return False


def _is_number(v: Any) -> bool:
    return (
        isinstance(v, (int, float))
        and not isinstance(v, bool)
        and (not isinstance(v, float) or math.isfinite(v))
    )


def _is_nonneg_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _parse_ref(ref: Any) -> tuple[str, str | None]:
    """Classify a $ref. Returns (kind, def_name): kind in root|def|bad."""
    if not isinstance(ref, str):
        return "bad", None
    if ref == "#":
        return "root", None
    prefix = "#/$defs/"
    if ref.startswith(prefix):
        seg = ref[len(prefix) :]
        if seg and "/" not in seg:
            name = urllib.parse.unquote(seg).replace("~1", "/").replace("~0", "~")
            return "def", name
    return "bad", None


# --------------------------------------------------------------------------
# The walker
# --------------------------------------------------------------------------


class _Walk:
    def __init__(self, schema: Any, allow: frozenset[str], count_scalars: bool = False,
                 reading: _facts.Reading | None = None):
        self.schema = schema
        self.allow = allow
        self.formats = reading.formats if reading is not None else SUPPORTED_FORMATS
        self.limits = reading.limits if reading is not None else LIMITS
        self.count_scalars = count_scalars
        self.out: list[Violation] = []
        self.properties = 0
        self.string_chars = 0
        self.enum_values = 0
        self.nodes = 0
        self.max_level = 0
        self.too_deep_path: str | None = None
        self.complete = True
        self.defs: dict[str, Any] = {}
        self.ref_sites: list[tuple[str, Any]] = []

    def add(self, path: str, rule: str, detail: str) -> None:
        self.out.append(Violation(path, rule, detail))

    def run(self) -> None:
        root = self.schema
        # PF §1.4: "Root objects must not be `anyOf` and must be an object".
        if not isinstance(root, dict):
            self.add(
                "#",
                "root-not-object",
                f"root schema must be an object schema, got {type(root).__name__}",
            )
            return
        if not (isinstance(root.get("type"), str) and root["type"] == "object"):
            self.add(
                "#",
                "root-not-object",
                f"root 'type' must be exactly \"object\", got {root.get('type', '<missing>')!r}",
            )
        if "anyOf" in root:
            self.add("#", "root-any-of", "root schema must not use anyOf (PF §1.4)")
        defs = root.get("$defs", _MISSING)
        if isinstance(defs, dict):
            self.defs = defs

        # stack entries: (node, path, level, walk_depth, is_root)
        stack: list[tuple[Any, str, int, int, bool]] = [(root, "#", 1, 0, True)]
        while stack:
            node, path, level, wdepth, is_root = stack.pop()
            if isinstance(node, bool):
                # peers §4 #28: boolean subschemas; OpenAI needs dict schemas (PF §1.4 all rules).
                self.add(path, "boolean-schema", f"boolean subschema {node!r} is not allowed")
                continue
            if not isinstance(node, dict):
                self.add(
                    path, "not-a-schema", f"subschema must be an object, got {type(node).__name__}"
                )
                continue
            self.nodes += 1
            if self.nodes > MAX_NODES:
                self.complete = False
                self.add(
                    path, "walk-limit", f"more than {MAX_NODES} schema nodes; stopped checking"
                )
                return
            if wdepth > MAX_WALK_DEPTH:
                if self.complete:
                    self.add(
                        path,
                        "walk-limit",
                        f"more than {MAX_WALK_DEPTH} nested subschemas; stopped descending",
                    )
                self.complete = False
                continue
            children = self.check_node(node, path, level, wdepth, is_root)
            stack.extend(reversed(children))

    # ------------------------------------------------------------------
    def check_node(self, node: dict, path: str, level: int, wdepth: int, is_root: bool):
        children: list[tuple[Any, str, int, int, bool]] = []
        allow = self.allow

        # --- keywords (PF §1.6/§1.7 allowlist; openai-node unsupported set PF §1.10)
        for key in node:
            if not isinstance(key, str):
                self.add(path, "unlisted-keyword", f"non-string keyword {key!r}")
            elif key == "$defs":
                if not is_root:
                    # PF §1.7 / task: definitions live only at the root.
                    self.add(
                        _join(path, key),
                        "defs-not-at-root",
                        "$defs is only allowed at the root schema",
                    )
            elif key in UNSUPPORTED_KEYWORDS:
                # e.g. "'oneOf' is not permitted" (upstream §5 P1), allOf/not/if (PF §1.7)
                self.add(
                    _join(path, key),
                    "unsupported-keyword",
                    f"'{key}' is not permitted in strict mode",
                )
            elif key not in allow:
                self.add(
                    _join(path, key),
                    "unlisted-keyword",
                    f"'{key}' is not in the strict-mode keyword allowlist",
                )

        # --- $ref (PF §1.7 local only; PF §1.4 no siblings)
        has_ref = "$ref" in node
        if has_ref:
            ref = node["$ref"]
            kind, name = _parse_ref(ref)
            if kind == "bad":
                self.add(
                    _join(path, "$ref"),
                    "ref-not-local",
                    f"$ref must be '#' or '#/$defs/<name>', got {ref!r}",
                )
            elif kind == "def" and name not in self.defs:
                self.add(
                    _join(path, "$ref"),
                    "ref-unresolvable",
                    f"$ref {ref!r} names no root $defs entry",
                )
            siblings = [k for k in node if k != "$ref"]
            if siblings:
                self.add(
                    path,
                    "ref-siblings",
                    f"$ref must stand alone; siblings: {', '.join(map(repr, siblings))}",
                )

        # --- type (PF §1.5; "schema must have a 'type' key", upstream §5 P1)
        types: list[str] = []
        t = node.get("type", _MISSING)
        if t is _MISSING:
            typeless_ok = (
                "anyOf" in node
                or has_ref
                or "enum" in node
                or ("const" in node and "const" in allow)
            )
            if not typeless_ok:
                self.add(
                    path,
                    "missing-type",
                    "schema must have a 'type' key (or be an anyOf/$ref/enum/const node)",
                )
        elif isinstance(t, str):
            if t in TYPE_NAMES:
                types = [t]
            else:
                self.add(_join(path, "type"), "invalid-type", f"unknown type {t!r}")
        elif isinstance(t, list):
            good = [x for x in t if isinstance(x, str) and x in TYPE_NAMES]
            if not t or len(good) != len(t) or len(set(good)) != len(good):
                self.add(
                    _join(path, "type"),
                    "invalid-type",
                    f"type list must be non-empty unique known names, got {t!r}",
                )
            types = list(dict.fromkeys(good))
        else:
            self.add(
                _join(path, "type"),
                "invalid-type",
                f"type must be a string or list, got {type(t).__name__}",
            )

        is_object = "object" in types
        is_array = "array" in types
        if is_object or is_array or self.count_scalars:
            self.max_level = max(self.max_level, level)
            if level > self.limits["depth"] and self.too_deep_path is None:
                self.too_deep_path = path

        # --- object (PF §1.4)
        props = node.get("properties", _MISSING)
        if is_object:
            ap = node.get("additionalProperties", _MISSING)
            if ap is not False:
                # "`additionalProperties` is required to be supplied and to be false"
                shown = "<missing>" if ap is _MISSING else repr(ap)
                self.add(
                    path,
                    "additional-properties-not-false",
                    f"additionalProperties must be false, got {shown}",
                )
            if props is _MISSING:
                # "object schema missing properties" (PF §1.4, E)
                self.add(path, "missing-properties", "object schema missing properties")
            req = node.get("required", _MISSING)
            keys = list(props) if isinstance(props, dict) else []
            problem = None
            if req is _MISSING:
                problem = "'required' is missing"
            elif not isinstance(req, list):
                problem = f"'required' must be a list, got {type(req).__name__}"
            else:
                strs = [r for r in req if isinstance(r, str)]
                if len(strs) != len(req):
                    problem = "'required' entries must be strings"
                elif len(set(strs)) != len(strs):
                    problem = "'required' has duplicate entries"
                else:
                    req_set = set(strs)
                    missing = [k for k in keys if k not in req_set]
                    extra = [r for r in strs if r not in props] if isinstance(props, dict) else strs
                    if missing or extra:
                        problem = f"missing from required: {missing!r}; not properties: {extra!r}"
            if problem:
                # "'required' is required to be supplied and to be an array including every key in properties"
                self.add(path, "required-mismatch", problem)
        else:
            ap = node.get("additionalProperties", _MISSING)
            if ap is not _MISSING and ap is not False:
                self.add(
                    _join(path, "additionalProperties"),
                    "invalid-keyword-value",
                    "additionalProperties may only be false",
                )
            req = node.get("required", _MISSING)
            if req is not _MISSING and not (
                isinstance(req, list) and all(isinstance(r, str) for r in req)
            ):
                self.add(
                    _join(path, "required"),
                    "invalid-keyword-value",
                    "required must be a list of strings",
                )

        if props is not _MISSING:
            if isinstance(props, dict):
                self.properties += len(props)
                for name, sub in props.items():
                    if isinstance(name, str):
                        self.string_chars += len(name)
                    children.append(
                        (sub, _join(path, "properties", name), level + 1, wdepth + 1, False)
                    )
            else:
                self.add(
                    _join(path, "properties"),
                    "invalid-keyword-value",
                    "properties must be an object",
                )

        # --- array (PF §1.4 "array schema missing items"; PF §1.6 single schema only)
        items = node.get("items", _MISSING)
        if is_array and items is _MISSING:
            self.add(path, "array-missing-items", "array schema missing items")
        if items is not _MISSING:
            if isinstance(items, list):
                self.add(
                    _join(path, "items"),
                    "items-not-single-schema",
                    "items must be a single schema, not a list",
                )
            else:
                children.append((items, _join(path, "items"), level + 1, wdepth + 1, False))

        # --- anyOf (PF §1.7; branches at the same level)
        if "anyOf" in node:
            branches = node["anyOf"]
            if not isinstance(branches, list) or not branches:
                self.add(
                    _join(path, "anyOf"),
                    "anyof-invalid",
                    "anyOf must be a non-empty list of schemas",
                )
            else:
                for i, sub in enumerate(branches):
                    children.append((sub, _join(path, "anyOf", i), level, wdepth + 1, False))

        # --- enum (PF §1.5, §1.8)
        if "enum" in node:
            values = node["enum"]
            if not isinstance(values, list) or not values:
                self.add(_join(path, "enum"), "enum-invalid", "enum must be a non-empty list")
            else:
                self.enum_values += len(values)
                chars = 0
                for i, v in enumerate(values):
                    if not _is_scalar(v):
                        self.add(
                            _join(path, "enum", i),
                            "enum-value-not-scalar",
                            f"enum value of type {type(v).__name__} is not a JSON scalar",
                        )
                    elif isinstance(v, str):
                        chars += len(v)
                self.string_chars += chars
                if len(values) > self.limits["big_enum_threshold"] and chars > self.limits["big_enum_chars"]:
                    self.add(
                        _join(path, "enum"),
                        "enum-string-too-long",
                        f"enum with {len(values)} values (> {self.limits['big_enum_threshold']}) has {chars} chars of strings (> {self.limits['big_enum_chars']})",
                    )

        # --- const (PF §1.5: counted in the 120,000-char limit)
        if "const" in node:
            c = node["const"]
            if not _is_scalar(c):
                self.add(
                    _join(path, "const"),
                    "const-not-scalar",
                    f"const of type {type(c).__name__} is not a JSON scalar",
                )
            elif isinstance(c, str):
                self.string_chars += len(c)

        # --- format (PF §1.6; "'uri' is not a valid format")
        if "format" in node:
            f = node["format"]
            if not isinstance(f, str):
                self.add(_join(path, "format"), "invalid-keyword-value", "format must be a string")
            elif f not in self.formats:
                self.add(
                    _join(path, "format"), "format-unsupported", f"{f!r} is not a valid format"
                )

        # --- other allowlisted keyword values
        for key in ("description", "title", "pattern"):
            if key in node and not isinstance(node[key], str):
                self.add(_join(path, key), "invalid-keyword-value", f"{key} must be a string")
        for key in ("minLength", "maxLength", "minItems", "maxItems"):
            if key in node and not _is_nonneg_int(node[key]):
                self.add(
                    _join(path, key),
                    "invalid-keyword-value",
                    f"{key} must be a non-negative integer",
                )
        for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if key in node and not _is_number(node[key]):
                self.add(_join(path, key), "invalid-keyword-value", f"{key} must be a number")
        if "multipleOf" in node and not (_is_number(node["multipleOf"]) and node["multipleOf"] > 0):
            self.add(
                _join(path, "multipleOf"),
                "invalid-keyword-value",
                "multipleOf must be a number > 0",
            )

        # --- $defs at the root (PF §1.7): each measured from its own root (level 1)
        if is_root and "$defs" in node:
            defs = node["$defs"]
            if isinstance(defs, dict):
                for name, sub in defs.items():
                    if isinstance(name, str):
                        self.string_chars += len(name)
                    children.append((sub, _join(path, "$defs", name), 1, wdepth + 1, False))
            else:
                self.add(_join(path, "$defs"), "invalid-keyword-value", "$defs must be an object")
        return children

    # ------------------------------------------------------------------
    def finish(self) -> None:
        """Limit checks (PF §1.8) and reference-graph checks after the walk."""
        if not isinstance(self.schema, dict):
            return
        if self.properties > self.limits["properties"]:
            self.add(
                "#",
                "too-many-properties",
                f"{self.properties} properties in total (max {self.limits['properties']})",
            )
        if self.max_level > self.limits["depth"]:
            self.add(
                self.too_deep_path or "#",
                "too-deep",
                f"{self.max_level} levels of nesting (max {self.limits['depth']})",
            )
        if self.string_chars > self.limits["string_chars"]:
            self.add(
                "#",
                "too-many-string-chars",
                f"{self.string_chars} chars of names/enum/const strings (max {self.limits['string_chars']})",
            )
        if self.enum_values > self.limits["enum_values"]:
            self.add(
                "#",
                "too-many-enum-values",
                f"{self.enum_values} enum values in total (max {self.limits['enum_values']})",
            )
        if not self.complete:
            return
        self._ref_cycles()
        self._satisfiability()

    def _alias_target(self, node: Any) -> str | None:
        """For a pure $ref node, the key of what it points at ('#' or a def name)."""
        if isinstance(node, dict) and "$ref" in node:
            kind, name = _parse_ref(node["$ref"])
            if kind == "root":
                return "\x00root"
            if kind == "def" and name in self.defs:
                return name
        return None

    def _ref_cycles(self) -> None:
        # Nodes of the alias graph: root ("\x00root") and each def; edge when the
        # body itself is a $ref. Each node has out-degree <= 1, so walk chains.
        def body(key: str) -> Any:
            return self.schema if key == "\x00root" else self.defs.get(key)

        state: dict[str, int] = {}  # 1 = on current chain, 2 = done
        for start in ["\x00root", *[k for k in self.defs if isinstance(k, str)]]:
            if start in state:
                continue
            chain: list[str] = []
            cur: str | None = start
            while cur is not None and cur not in state:
                state[cur] = 1
                chain.append(cur)
                cur = self._alias_target(body(cur))
            if cur is not None and state.get(cur) == 1:
                cyc = chain[chain.index(cur) :]
                names = ["#" if c == "\x00root" else f"#/$defs/{_esc(c)}" for c in cyc]
                self.add(
                    names[0],
                    "ref-cycle",
                    "pure $ref cycle never reaches a schema: " + " -> ".join(names + [names[0]]),
                )
            for c in chain:
                state[c] = 2

    def _satisfiability(self) -> None:
        """Least fixed point: which of root/defs admit a finite instance."""
        keys = ["\x00root", *[k for k in self.defs if isinstance(k, str)]]
        sat: dict[str, bool] = {k: False for k in keys}
        budget = [2_000_000]

        def ok(node: Any, depth: int) -> bool:
            budget[0] -= 1
            if depth > MAX_WALK_DEPTH or budget[0] < 0:
                return True  # give up conservatively
            if isinstance(node, bool):
                return node
            if not isinstance(node, dict):
                return True  # already a violation
            if "$ref" in node:
                kind, name = _parse_ref(node["$ref"])
                if kind == "root":
                    return sat["\x00root"]
                if kind == "def" and name in self.defs:
                    return sat.get(name, True)
                return True
            parts = []
            if "anyOf" in node and isinstance(node["anyOf"], list) and node["anyOf"]:
                parts.append(any(ok(b, depth + 1) for b in node["anyOf"]))
            if "enum" in node or "const" in node:
                parts.append(True)
            t = node.get("type", _MISSING)
            ts = [t] if isinstance(t, str) else (t if isinstance(t, list) else [])
            ts = [
                x for x in ts if isinstance(x, str) and x in TYPE_NAMES
            ]  # bad names: already reported
            if ts:
                tok = False
                for x in ts:
                    if x in ("string", "number", "integer", "boolean", "null"):
                        tok = True
                    elif x == "array":
                        mi = node.get("minItems", 0)
                        tok = (
                            tok
                            or not (_is_nonneg_int(mi) and mi > 0)
                            or ok(node.get("items", True), depth + 1)
                        )
                    elif x == "object":
                        props = node.get("properties", {})
                        req = node.get("required", [])
                        if isinstance(props, dict) and isinstance(req, list):
                            tok = tok or all(
                                ok(props[r], depth + 1)
                                for r in req
                                if isinstance(r, str) and r in props
                            )
                        else:
                            tok = True
                    if tok:
                        break
                parts.append(tok)
            return all(parts) if parts else True

        for _ in range(len(keys) + 1):
            changed = False
            for k in keys:
                if not sat[k]:
                    body = self.schema if k == "\x00root" else self.defs[k]
                    if ok(body, 0):
                        sat[k] = True
                        changed = True
            if not changed or budget[0] < 0:
                break
        if budget[0] >= 0 and not sat["\x00root"]:
            bad = [f"#/$defs/{_esc(k)}" for k in keys[1:] if not sat[k]]
            self.add(
                "#",
                "no-finite-instance",
                "no finite JSON value satisfies the schema (required recursion?)"
                + (f"; unsatisfiable: {', '.join(bad)}" if bad else ""),
            )


# --------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------


def _reading(profile: str) -> _facts.Reading:
    """The documented facts of a profile: a rule version date (facts.py, the newest reading on or before it)."""
    try:
        return _facts.openai(profile)
    except (ValueError, TypeError):
        raise ValueError(f"unknown profile {profile!r}; readings: {sorted(PROFILES)}") from None


def _allowlist(profile: str) -> frozenset[str]:
    return _reading(profile).allowlist


def violations(schema: Any, *, profile: str = "2026-10-17") -> list[Violation]:
    """All OpenAI strict-mode violations of a compiled ``parameters`` schema, under the documented
    facts of `profile` (a rule version date; tests/oracles/facts.py)."""
    reading = _reading(profile)
    w = _Walk(schema, reading.allowlist, reading=reading)
    w.run()
    w.finish()
    return w.out


def schema_stats(schema: Any, *, count_scalars: bool = False) -> SchemaStats:
    """Counts used for PF §1.8 limits, with the conventions in the module docstring."""
    w = _Walk(schema, _BASE_ALLOWLIST, count_scalars=count_scalars)
    if isinstance(schema, dict):
        w.run()
    return SchemaStats(
        w.properties, w.max_level, w.string_chars, w.enum_values, w.nodes, w.complete
    )


def nesting_depth(schema: Any, *, count_scalars: bool = False) -> int:
    """Object/array nesting depth (root object = 1; anyOf same level; $defs from own root)."""
    return schema_stats(schema, count_scalars=count_scalars).depth


# -- tools ------------------------------------------------------------------

# PF §1.2: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64"
_NAME_RE = re.compile(r"[a-zA-Z0-9_-]{1,64}")
DESCRIPTION_MAX_BYTES = 4096  # task brief; PF §1.2 only has an observed 1024-char error (unknown)

# upstream §5 P13: zero-width, bidi controls, TAG block.
_INVISIBLE_RE = re.compile(
    "[\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e"  # zero-width / invisible
    "\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069"  # bidi controls
    "\U000e0000-\U000e007f]"  # TAG block
)

# PF §1.1 shapes.
_RESPONSES_KEYS = frozenset(
    {
        "type",
        "name",
        "description",
        "parameters",
        "strict",
        "defer_loading",
        "allowed_callers",
        "output_schema",
    }
)
_CHAT_OUTER_KEYS = frozenset({"type", "function"})
_CHAT_FUNCTION_KEYS = frozenset({"name", "description", "parameters", "strict"})


def tool_violations(
    tool: Any, api: str = "responses", *, profile: str = "2026-10-17"
) -> list[Violation]:
    """Violations of a whole emitted function tool (PF §1.1-§1.3) plus its schema."""
    if api not in ("responses", "chat"):
        raise ValueError(f"api must be 'responses' or 'chat', got {api!r}")
    _allowlist(profile)  # validate the profile name early
    out: list[Violation] = []

    def add(path: str, rule: str, detail: str) -> None:
        out.append(Violation(path, rule, detail))

    if not isinstance(tool, dict):
        add("#", "tool-shape", f"tool must be an object, got {type(tool).__name__}")
        return out
    if tool.get("type") != "function":
        add(
            "#/type",
            "tool-shape",
            f"tool type must be 'function', got {tool.get('type', '<missing>')!r}",
        )

    if api == "responses":
        # Responses: flat {"type":"function","name",...,"parameters","strict"}
        for k in tool:
            if k not in _RESPONSES_KEYS:
                add(
                    _join("#", k),
                    "tool-unknown-key" if k != "function" else "tool-shape",
                    "Responses tools are flat; no nested 'function' object"
                    if k == "function"
                    else f"unknown tool key {k!r}",
                )
        fn, base = tool, "#"
        if "parameters" not in fn:
            # SDK: Required[Optional[dict]]
            add(
                "#",
                "tool-shape",
                "Responses function tools must carry a 'parameters' key (may be null)",
            )
    else:
        # Chat: nested {"type":"function","function":{...}}
        for k in tool:
            if k not in _CHAT_OUTER_KEYS:
                add(
                    _join("#", k),
                    "tool-shape" if k in _CHAT_FUNCTION_KEYS else "tool-unknown-key",
                    f"Chat tools nest {k!r} inside 'function'"
                    if k in _CHAT_FUNCTION_KEYS
                    else f"unknown tool key {k!r}",
                )
        fn, base = tool.get("function", _MISSING), "#/function"
        if not isinstance(fn, dict):
            add(base, "tool-shape", "Chat tools need a 'function' object")
            return out
        for k in fn:
            if k not in _CHAT_FUNCTION_KEYS:
                add(_join(base, k), "tool-unknown-key", f"unknown function key {k!r}")

    # strict always present and a bool (PF §1.3, C-3: emit strict explicitly)
    strict = fn.get("strict", _MISSING)
    if strict is _MISSING:
        add(base, "strict-missing", "'strict' must always be sent")
    elif not isinstance(strict, bool):
        add(
            _join(base, "strict"),
            "strict-not-bool",
            f"'strict' must be true or false, got {strict!r}",
        )

    name = fn.get("name", _MISSING)
    if not (isinstance(name, str) and _NAME_RE.fullmatch(name)):
        shown = "<missing>" if name is _MISSING else repr(name)
        add(
            _join(base, "name"),
            "name-invalid",
            f"name must match ^[a-zA-Z0-9_-]{{1,64}}$, got {shown}",
        )

    if "description" in fn:
        d = fn["description"]
        if not isinstance(d, str):
            add(_join(base, "description"), "description-invalid", "description must be a string")
        else:
            try:
                nbytes = len(d.encode("utf-8"))
            except UnicodeEncodeError:  # lone surrogates
                nbytes = -1
                add(
                    _join(base, "description"),
                    "description-invalid",
                    "description is not valid Unicode text",
                )
            if nbytes > DESCRIPTION_MAX_BYTES:
                add(
                    _join(base, "description"),
                    "description-too-long",
                    f"{nbytes} UTF-8 bytes (max {DESCRIPTION_MAX_BYTES})",
                )
            m = _INVISIBLE_RE.search(d)
            if m:
                add(
                    _join(base, "description"),
                    "description-invisible-chars",
                    f"invisible/bidi/TAG character U+{ord(m.group()):04X} at index {m.start()}",
                )

    params = fn.get("parameters", _MISSING)
    ppath = _join(base, "parameters")
    if strict is True:
        if not isinstance(params, dict):
            add(ppath, "parameters-invalid", "strict tools need a parameters object schema")
        else:
            for v in violations(params, profile=profile):
                out.append(Violation(ppath + v.path[1:], v.rule, v.detail))
    elif params is not _MISSING and params is not None and not isinstance(params, dict):
        add(
            ppath,
            "parameters-invalid",
            f"parameters must be an object or null, got {type(params).__name__}",
        )
    return out


# -- instance validation ----------------------------------------------------


def _validator(schema: Any, check_formats: bool = False):
    from jsonschema import Draft202012Validator, validators
    from referencing import Registry
    from referencing.exceptions import NoSuchResource

    def retrieve(uri: str):  # never touch the network or the filesystem
        raise NoSuchResource(ref=uri)

    kwargs: dict[str, Any] = {"registry": Registry(retrieve=retrieve)}
    # The schema's declared dialect decides its meaning (draft-07 ignores what stands beside
    # `$ref`, draft-04 has boolean exclusive bounds); 2020-12 when it declares none or an unknown one.
    cls = validators.validator_for(schema, default=Draft202012Validator) if isinstance(schema, dict) else Draft202012Validator
    if check_formats:
        kwargs["format_checker"] = cls.FORMAT_CHECKER
    return cls(schema, **kwargs)


def instance_errors(schema: Any, instance: Any, *, check_formats: bool = False) -> list[str]:
    """Draft 2020-12 errors of ``instance`` against ``schema`` (local refs only).

    A non-local ``$ref`` raises ``referencing.exceptions.Unresolvable`` when it is reached.
    """
    v = _validator(schema, check_formats)
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
        for e in v.iter_errors(instance)
    ]


def validate_instance(schema: Any, instance: Any, *, check_formats: bool = False) -> bool:
    """True iff ``instance`` is valid against ``schema`` (its declared dialect, else Draft 2020-12; local refs only)."""
    return _validator(schema, check_formats).is_valid(instance)
