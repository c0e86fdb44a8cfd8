"""Hypothesis strategies and helpers for the fidelity tests: schemas in toolcast's subset, instances, narrowing.

Everything here is written from the JSON Schema 2020-12 semantics, not from toolcast's code,
so that the tests can disagree with the compiler:

* ``schemas()`` draws parameter schemas within the subset toolcast claims to support (nested
  objects, arrays, enums, const, anyOf/oneOf/allOf, local and recursive ``$ref``, formats,
  numeric and length bounds, optional and nullable mixes, annotations, unknown keywords).
* ``instances(schema)`` draws values aimed at a schema (mostly valid, some near misses) and
  ``mutated()`` perturbs them, so both verdicts are exercised.
* ``fill_legit_nulls`` / ``narrowed`` / ``model_forms`` implement the comparison rules of the
  fidelity properties (see tests/test_fidelity.py).

Hypothesis profiles: ``toolcast-ci`` (default, short) and ``toolcast-long`` (selected by
setting ``TOOLCAST_FUZZ_EXAMPLES=N``, which also sets max_examples=N). Tests use the
``SETTINGS`` decorator below rather than loading a profile globally, so other test modules
keep their own settings.
"""

from __future__ import annotations

import copy
import os
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

try:
    from oracles.openai_strict import _validator
except ImportError:  # pragma: no cover - when tests/ becomes a package
    from tests.oracles.openai_strict import _validator

# -- profiles -----------------------------------------------------------------------------

_LONG = os.environ.get("TOOLCAST_FUZZ_EXAMPLES")
settings.register_profile(
    "toolcast-ci",
    max_examples=int(os.environ.get("TOOLCAST_CI_EXAMPLES", "100")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    # CI runs the same examples every time (a red CI must be reproducible); local runs
    # explore new ones. TOOLCAST_FUZZ_EXAMPLES runs the long profile.
    derandomize=bool(os.environ.get("CI")),
    print_blob=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
)
settings.register_profile(
    "toolcast-long",
    max_examples=int(_LONG or "5000"),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
)
PROFILE = "toolcast-long" if _LONG else "toolcast-ci"
SETTINGS = settings(settings.get_profile(PROFILE))


def examples(n_ci: int) -> settings:
    """SETTINGS with a different CI example count (long runs keep the long count)."""
    if _LONG:
        return SETTINGS
    return settings(SETTINGS, max_examples=n_ci)


def _rule_versions() -> tuple[str, ...]:
    from toolcast import rules

    return tuple(f"openai@{v}" for v in sorted(rules.available("openai"), reverse=True))


# Every rule version toolcast ships, newest first. The oracle checks each against the documented
# facts of its date (tests/oracles/facts.py: the newest reading on or before it).
RULES = _rule_versions()
PROFILE_OF = {r: r.split("@")[1] for r in RULES}

# -- schema generation --------------------------------------------------------------------

PROP_NAMES = ("a", "b", "id", "name", "tags", "x y", "n.1", "_k")
DEF_NAMES = ("D0", "D1", "D2")
FORMATS = ("date-time", "date", "time", "email", "uuid", "ipv4", "hostname", "duration", "ipv6")
# Patterns whose ECMA-262 and Python meanings agree, so st.from_regex produces matches.
PATTERN_EXAMPLES = {
    "^[a-z]+$": ["abc", "x"],
    "^[0-9]{2,4}$": ["12", "2024"],
    "ab": ["ab", "xaby"],
    "^x": ["x", "xyz"],
    "[A-Z]": ["A", "aBc"],
}
PATTERNS = tuple(PATTERN_EXAMPLES)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([0.5, -1.5, 2.0, 1e3]),
    st.sampled_from(["", "a", "b", "x y", "0", "null"]),
)
JSON = st.recursive(
    SCALARS,
    lambda kids: st.one_of(
        st.lists(kids, max_size=3), st.dictionaries(st.sampled_from(PROP_NAMES + ("z",)), kids, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def _annotate(draw: Any, node: dict) -> dict:
    """Annotations, `default` and unknown keywords: they constrain nothing."""
    extra = draw(
        st.dictionaries(
            st.sampled_from(["description", "title", "default", "examples", "$comment", "x-vendor", "deprecated"]),
            st.just(None),
            max_size=2,
        )
    )
    out = dict(node)
    for k in extra:
        if k in ("description", "title", "$comment"):
            out[k] = draw(st.sampled_from(["some text", "Ünïcode ✓", ""]))
        elif k == "examples":
            out[k] = [draw(SCALARS)]
        elif k == "deprecated":
            out[k] = draw(st.booleans())
        else:
            out[k] = draw(JSON)
    return out


@st.composite
def _string(draw: Any) -> dict:
    s: dict = {"type": "string"}
    if draw(st.booleans()):
        lo = draw(st.integers(0, 3))
        s["minLength"] = lo
        if draw(st.booleans()):
            s["maxLength"] = lo + draw(st.integers(0, 4))
    if draw(st.integers(0, 3)) == 0:
        s["pattern"] = draw(st.sampled_from(PATTERNS))
    if draw(st.integers(0, 3)) == 0:
        s["format"] = draw(st.sampled_from(FORMATS))
    return s


@st.composite
def _number(draw: Any) -> dict:
    s: dict = {"type": draw(st.sampled_from(["integer", "number"]))}
    for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        if draw(st.integers(0, 3)) == 0:
            s[k] = draw(st.sampled_from([-3, 0, 1, 2.5, 10]))
    if draw(st.integers(0, 4)) == 0:
        s["multipleOf"] = draw(st.sampled_from([2, 0.5, 3]))
    return s


def _leaves() -> st.SearchStrategy:
    return st.one_of(
        _string(),
        _number(),
        st.just({"type": "boolean"}),
        st.just({"type": "null"}),
        st.sampled_from([{"type": ["string", "null"]}, {"type": ["integer", "null"]}, {"type": ["string", "integer"]}]),
        st.lists(SCALARS, min_size=1, max_size=4, unique_by=lambda v: (type(v).__name__, v)).map(lambda e: {"enum": e}),
        st.sampled_from([["a", "b"], ["a", None]]).map(lambda e: {"type": "string", "enum": e} if None not in e else {"type": ["string", "null"], "enum": e}),
        SCALARS.map(lambda v: {"const": v}),
        st.sampled_from(DEF_NAMES).map(lambda d: {"$ref": f"#/$defs/{d}"}),
    ).flatmap(_annotate)


@st.composite
def _object(draw: Any, kids: st.SearchStrategy) -> dict:
    names = draw(st.lists(st.sampled_from(PROP_NAMES), min_size=1, max_size=4, unique=True))
    props = {n: draw(kids) for n in names}
    s: dict = {"type": "object", "properties": props}
    if draw(st.integers(0, 5)) == 0:
        del s["type"]  # typeless: inferred (a reported narrowing)
    req = [n for n in names if draw(st.booleans())]
    if req or draw(st.booleans()):
        s["required"] = req
    ap = draw(st.sampled_from(["missing", "missing", "false", "false", "true"]))
    if ap != "missing":
        s["additionalProperties"] = ap == "false"
    return s


@st.composite
def _array(draw: Any, kids: st.SearchStrategy) -> dict:
    s: dict = {"type": "array", "items": draw(kids)}
    if draw(st.booleans()):
        lo = draw(st.integers(0, 2))
        s["minItems"] = lo
        if draw(st.booleans()):
            s["maxItems"] = lo + draw(st.integers(0, 3))
    return s


@st.composite
def _combinator(draw: Any, kids: st.SearchStrategy) -> dict:
    kind = draw(st.sampled_from(["anyOf", "anyOf", "nullable", "oneOf", "allOf", "objects"]))
    if kind == "nullable":
        return {"anyOf": [draw(kids), {"type": "null"}]}
    if kind == "objects":
        # Object branches that declare different properties: null paths name properties, not
        # branches, so fill_nulls must fill each branch's own (issue 21 item 5).
        return {"anyOf": draw(st.lists(_object(kids), min_size=2, max_size=3))}
    if kind == "oneOf":
        # Mostly branches of different types, which toolcast can prove exclusive.
        branches = draw(st.lists(st.one_of(_string(), _number(), st.just({"type": "boolean"}), kids), min_size=1, max_size=3))
        return {"oneOf": branches}
    if kind == "allOf":
        branches = draw(st.lists(kids, min_size=1, max_size=2))
        if draw(st.booleans()):
            branches.append(draw(_object(kids)))
        return {"allOf": branches}
    return {"anyOf": draw(st.lists(kids, min_size=1, max_size=3))}


def _subschemas(max_leaves: int = 8) -> st.SearchStrategy:
    return st.recursive(
        _leaves(),
        lambda kids: st.one_of(_object(kids), _object(kids), _array(kids), _combinator(kids)).flatmap(_annotate),
        max_leaves=max_leaves,
    )


@st.composite
def schemas(draw: Any, max_leaves: int = 8) -> dict:
    """A parameters schema: an object root, sometimes with `$defs` (maybe recursive) or a root `$ref`."""
    kids = _subschemas(max_leaves)
    root = draw(_object(kids))
    if "type" not in root and draw(st.booleans()):
        root["type"] = "object"
    if draw(st.integers(0, 2)) == 0:
        defs = {}
        for name in DEF_NAMES:
            # A definition is often an object whose properties are all required (recursion-friendly).
            body = draw(st.one_of(_object(kids), kids))
            if draw(st.booleans()) and isinstance(body.get("properties"), dict):
                body["required"] = list(body["properties"])
            defs[name] = body
        key = draw(st.sampled_from(["$defs", "$defs", "definitions"]))
        if key == "definitions":
            defs = _rename_refs(defs)
            root = _rename_refs(root)
        root[key] = defs
        if draw(st.integers(0, 4)) == 0:
            root = {"$ref": f"#/{key}/D0", key: defs}
            if draw(st.booleans()):
                root["description"] = "root via $ref"
    else:
        # No definitions: replace refs by something concrete (or keep one dangling case rare).
        root = _replace_refs(root)
    return root


def _rename_refs(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: (v.replace("#/$defs/", "#/definitions/") if k == "$ref" and isinstance(v, str) else _rename_refs(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_rename_refs(x) for x in node]
    return node


def _replace_refs(node: Any) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return {"type": "string", **rest}
        return {k: (_replace_refs(v) if k not in ("enum", "const", "default", "examples", "x-vendor") else v) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace_refs(x) for x in node]
    return node


# -- reference resolution (local only) ----------------------------------------------------


def resolve(root: dict, ref: str) -> Any:
    """The target of a local JSON-pointer `$ref` ("#", "#/$defs/x", "#/a/b/0"), or None."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    node: Any = root
    for raw in ref[2:].split("/"):
        tok = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and tok in node:
            node = node[tok]
        elif isinstance(node, list) and tok.isdigit() and int(tok) < len(node):
            node = node[int(tok)]
        else:
            return None
    return node


# -- instance generation ------------------------------------------------------------------

_FORMAT_VALUES = {
    "date-time": ["2024-01-02T03:04:05Z"],
    "date": ["2024-01-02"],
    "time": ["03:04:05Z"],
    "email": ["a@example.com"],
    "uuid": ["123e4567-e89b-12d3-a456-426614174000"],
    "ipv4": ["10.0.0.1"],
    "ipv6": ["::1"],
    "hostname": ["example.com"],
    "duration": ["P1D"],
}
_IMPLIED = (
    ("object", ("properties", "required", "additionalProperties", "minProperties", "maxProperties", "patternProperties", "propertyNames")),
    ("array", ("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains")),
    ("string", ("pattern", "format", "minLength", "maxLength")),
    ("number", ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")),
)


def _gen(draw: Any, s: Any, root: Any, depth: int) -> Any:
    if not isinstance(s, dict) or depth > 8:
        return draw(SCALARS) if depth <= 8 else None
    if draw(st.integers(0, 15)) == 0:
        return draw(JSON)  # a near miss somewhere inside
    if isinstance(s.get("$ref"), str):
        target = resolve(root, s["$ref"])
        if isinstance(target, dict):
            rest = {k: v for k, v in s.items() if k != "$ref"}
            return _gen(draw, {**target, **rest} if rest else target, root, depth + 1)
        return draw(SCALARS)
    if isinstance(s.get("allOf"), list):
        merged = {k: v for k, v in s.items() if k != "allOf"}
        for b in s["allOf"]:
            if isinstance(b, dict):
                b = _deref(b, root)
                for k, v in b.items():
                    if k == "properties" and isinstance(merged.get(k), dict) and isinstance(v, dict):
                        merged[k] = {**merged[k], **v}
                    elif k == "required" and isinstance(merged.get(k), list) and isinstance(v, list):
                        merged[k] = merged[k] + v
                    else:
                        merged.setdefault(k, v)
        return _gen(draw, merged, root, depth)
    for kw in ("anyOf", "oneOf"):
        if isinstance(s.get(kw), list) and s[kw]:
            branch = draw(st.sampled_from(s[kw]))
            rest = {k: v for k, v in s.items() if k not in ("anyOf", "oneOf")}
            if isinstance(branch, dict):
                branch = _deref(branch, root)
                return _gen(draw, {**rest, **branch}, root, depth)
            return _gen(draw, rest, root, depth)
    if "const" in s:
        return copy.deepcopy(s["const"])
    if isinstance(s.get("enum"), list) and s["enum"]:
        return copy.deepcopy(draw(st.sampled_from(s["enum"])))
    t = s.get("type")
    if isinstance(t, list):
        t = draw(st.sampled_from(t)) if t else None
    if t is None:
        implied = [name for name, kws in _IMPLIED if any(k in s for k in kws)]
        t = implied[0] if implied else draw(st.sampled_from(["string", "integer", "boolean", "null", "object", "array"]))
    if t == "null":
        return None
    if t == "boolean":
        return draw(st.booleans())
    if t in ("integer", "number"):
        return _gen_number(draw, s, t)
    if t == "string":
        return _gen_string(draw, s)
    if t == "array":
        items = s.get("items", {})
        lo = s.get("minItems", 0) if isinstance(s.get("minItems"), int) else 0
        hi = s.get("maxItems", lo + 3) if isinstance(s.get("maxItems"), int) else lo + 3
        n = draw(st.integers(lo, max(lo, min(hi, lo + 3)))) if depth < 5 else lo
        return [_gen(draw, items, root, depth + 1) for _ in range(n)]
    if t == "object":
        props = s.get("properties") if isinstance(s.get("properties"), dict) else {}
        req = s.get("required") if isinstance(s.get("required"), list) else []
        out: dict = {}
        for name, sub in props.items():
            if name in req or (depth < 5 and draw(st.booleans())):
                out[name] = _gen(draw, sub, root, depth + 1)
        for name in req:
            if name not in out:
                out[name] = draw(SCALARS)
        if s.get("additionalProperties") is not False and draw(st.integers(0, 5)) == 0:
            out["extra"] = draw(SCALARS)
        return out
    return draw(SCALARS)


def _deref(b: dict, root: Any, hops: int = 0) -> dict:
    while isinstance(b.get("$ref"), str) and hops < 8:
        target = resolve(root, b["$ref"])
        if not isinstance(target, dict):
            return b
        rest = {k: v for k, v in b.items() if k != "$ref"}
        b = {**target, **rest}
        hops += 1
    return b


def _gen_number(draw: Any, s: dict, t: str) -> Any:
    lo = max([v for v in (s.get("minimum"), s.get("exclusiveMinimum")) if isinstance(v, (int, float))] or [-10])
    hi = min([v for v in (s.get("maximum"), s.get("exclusiveMaximum")) if isinstance(v, (int, float))] or [10])
    lo_i, hi_i = int(lo) - 1, int(hi) + 1
    if lo_i > hi_i:
        lo_i, hi_i = hi_i, lo_i
    m = s.get("multipleOf")
    if isinstance(m, (int, float)) and m > 0:
        k = draw(st.integers(int(lo_i / m) - 1, int(hi_i / m) + 1))
        v = k * m
        return int(v) if t == "integer" and float(v).is_integer() else v
    if t == "integer":
        return draw(st.integers(lo_i, hi_i))
    return draw(st.one_of(st.integers(lo_i, hi_i), st.sampled_from([lo, hi, (lo + hi) / 2, lo + 0.5])))


def _gen_string(draw: Any, s: dict) -> str:
    fmt = s.get("format")
    if fmt in _FORMAT_VALUES and draw(st.integers(0, 3)) > 0:
        return draw(st.sampled_from(_FORMAT_VALUES[fmt]))
    pat = s.get("pattern")
    if isinstance(pat, str) and pat in PATTERNS and draw(st.integers(0, 3)) > 0:
        return draw(st.sampled_from(PATTERN_EXAMPLES[pat]))
    lo = s.get("minLength", 0) if isinstance(s.get("minLength"), int) else 0
    hi = s.get("maxLength", lo + 5) if isinstance(s.get("maxLength"), int) else lo + 5
    return draw(st.text(alphabet="abxyz09A ✓", min_size=max(0, lo - 1), max_size=max(lo, hi) + 1))


def instances(schema: Any, root: Any = None) -> st.SearchStrategy:
    """Values aimed at ``schema`` (relative to ``root`` for `$ref`): mostly valid, some not."""
    root = schema if root is None else root
    return st.composite(lambda draw: _gen(draw, schema, root, 0))()


@st.composite
def mutated(draw: Any, value: Any) -> Any:
    """One small change somewhere in ``value``: replace, delete or add a key, or null it out."""
    paths: list[tuple] = []

    def collect(v: Any, p: tuple) -> None:
        paths.append(p)
        if len(paths) > 200:
            return
        if isinstance(v, dict):
            for k, x in v.items():
                collect(x, p + (k,))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                collect(x, p + (i,))

    collect(value, ())
    path = draw(st.sampled_from(paths))
    op = draw(st.sampled_from(["replace", "null", "delete", "add", "add"]))
    value = copy.deepcopy(value)
    if not path:
        return draw(JSON) if op != "null" else None
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    target = parent[last]
    if op == "replace":
        parent[last] = draw(JSON)
    elif op == "null":
        parent[last] = None
    elif op == "delete" and isinstance(parent, dict):
        del parent[last]
    elif op == "add" and isinstance(target, dict):
        target[draw(st.sampled_from(PROP_NAMES + ("zz",)))] = draw(SCALARS)
    elif op == "add" and isinstance(target, list):
        target.append(draw(SCALARS))
    else:
        parent[last] = draw(SCALARS)
    return value


# -- comparison rules ---------------------------------------------------------------------


class Judge:
    """Validity under one root schema (Draft 2020-12, local refs only, formats as annotations)."""

    def __init__(self, root: Any):
        self.root = root
        self.v = _validator(root)

    def valid(self, instance: Any) -> bool:
        return self.v.is_valid(instance)

    def valid_under(self, sub: Any, instance: Any) -> bool:
        return self.v.evolve(schema=sub).is_valid(instance)


def fill_legit_nulls(x: Any, schema: Any, judge: Judge, depth: int = 0) -> Any:
    """``x`` with ``None`` for every omitted optional property whose original schema accepts null.

    A strict model must send every property; where the original already accepted null, toolcast
    records no null path (null is a real value there), so the model sends null and the handler
    receives it. Follows properties, items, `$ref`, allOf and the anyOf/oneOf branches ``x``
    satisfies; derived from the original schema only.
    """
    if depth > 60 or not isinstance(schema, dict):
        return x
    if isinstance(schema.get("$ref"), str):
        target = resolve(judge.root, schema["$ref"])
        x = fill_legit_nulls(x, target, judge, depth + 1)
    for kw in ("allOf",):
        for b in schema.get(kw, []) if isinstance(schema.get(kw), list) else []:
            x = fill_legit_nulls(x, b, judge, depth + 1)
    for kw in ("anyOf", "oneOf"):
        for b in schema.get(kw, []) if isinstance(schema.get(kw), list) else []:
            if judge.valid_under(b, x):
                x = fill_legit_nulls(x, b, judge, depth + 1)
    if isinstance(x, dict) and isinstance(schema.get("properties"), dict):
        req = schema.get("required") if isinstance(schema.get("required"), list) else []
        out = dict(x)
        for name, sub in schema["properties"].items():
            if name in out:
                out[name] = fill_legit_nulls(out[name], sub, judge, depth + 1)
            elif name not in req and sub is not False and judge.valid_under(sub, None):
                out[name] = None
        x = out
    if isinstance(x, list) and isinstance(schema.get("items"), (dict, bool)):
        x = [fill_legit_nulls(v, schema["items"], judge, depth + 1) for v in x]
    return x


_SUBSCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
_SUBSCHEMA_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
                  "additionalItems", "unevaluatedItems", "unevaluatedProperties", "contentSchema")
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")


def narrowed(schema: Any, *, close: bool, infer: bool, root: bool = True, piece: bool = False) -> Any:
    """The original schema with toolcast's *reported* narrowings applied, independently.

    close: objects with properties accept no undeclared property (``openai/object-missing-
    additional-properties``, ``openai/extra-properties-no-longer-accepted``); a root without
    properties is the empty object (``openai/empty-parameters``).
    infer: a node without `type` whose keywords apply to one type only gets that type
    (``openai/type-inferred`` / ``inferred-type``).
    `allOf` branches are pieces of one node (toolcast merges them, ``merged-all-of``, then infers the
    merged node's type and closes it): a piece gets no type and is not closed by itself; the node
    holding them gets the type the pieces' keywords imply together, and is closed with
    `unevaluatedProperties`, which sees every piece's properties.
    An instance the original accepts but this rejects was excluded by a reported narrowing.
    """
    if root and close and (schema is True or schema is None or schema == {}):
        return {"type": "object", "additionalProperties": False}  # openai/empty-parameters
    if not isinstance(schema, dict):
        return schema
    s = dict(schema)
    for k in _SUBSCHEMA_MAPS:
        if isinstance(s.get(k), dict):
            # Definitions are not the parameter root: only the real root gets root-only rules.
            s[k] = {n: narrowed(v, close=close, infer=infer, root=False) for n, v in s[k].items()}
    for k in _SUBSCHEMA_ONE:
        if k in s:
            s[k] = narrowed(s[k], close=close, infer=infer, root=False)
    for k in _SUBSCHEMA_LISTS:
        if isinstance(s.get(k), list):
            s[k] = [narrowed(v, close=close, infer=infer, root=False, piece=k == "allOf") for v in s[k]]
    if infer and not piece and not root and isinstance(s.get("allOf"), list):
        # The merged node's type: inferred from every piece's keywords, where none decides it (the
        # root is an object whatever they say: below).
        keys = _merged_keys(s)
        if not keys & {"type", "$ref", "anyOf", "oneOf", "enum", "const"}:
            implied = [name for name, kws in _IMPLIED if not keys.isdisjoint(kws)]
            if len(implied) == 1:
                s["type"] = implied[0]
    elif infer and not piece and "type" not in s and not any(k in s for k in ("$ref", "anyOf", "oneOf", "allOf", "enum", "const")):
        implied = [name for name, kws in _IMPLIED if any(k in s for k in kws)]
        if len(implied) == 1:
            s["type"] = implied[0]
        elif root and not implied:
            s["type"] = "object"
    if root and infer and "type" not in s and "$ref" not in s:
        s["type"] = "object"
    if root and close and "type" not in s and "$ref" in s:
        # A root `$ref` is inlined at the root, where openai/empty-parameters closes a target with
        # no object keywords (`{"maximum": 10}`): the arguments are an object either way.
        s["type"] = "object"
    if close and piece and (s.get("additionalProperties") is True or s.get("additionalProperties") == {}):
        # A piece that says other names are allowed evaluates them all: left so, the holder's
        # `unevaluatedProperties` below would see no name to reject (toolcast closes the merged node).
        del s["additionalProperties"]
    if close and not piece:
        ap = s.get("additionalProperties")
        if isinstance(s.get("allOf"), list) and _declares_properties(s):
            if ap is None or ap is True or ap == {}:
                s.pop("additionalProperties", None)
                s["unevaluatedProperties"] = False
        elif isinstance(s.get("properties"), dict) and s["properties"]:
            if ap is None or ap is True or ap == {}:
                s["additionalProperties"] = False
        elif root and ap is None and not any(k in s for k in ("$ref", "anyOf", "oneOf", "allOf", "enum", "const")):
            # openai/empty-parameters: the tool takes no parameters at all.
            s["additionalProperties"] = False
            if "type" not in s:
                s["type"] = "object"
    return s


def _merged_keys(s: Any) -> set:
    """The keywords of `s` and of its `allOf` pieces (nested): the merged node's."""
    if not isinstance(s, dict):
        return set()
    keys = set(s) - {"allOf"}
    for b in s["allOf"] if isinstance(s.get("allOf"), list) else ():
        keys |= _merged_keys(b)
    return keys


def _declares_properties(s: Any) -> bool:
    """Whether `s` or one of its `allOf` pieces (nested) declares a property."""
    if not isinstance(s, dict):
        return False
    if isinstance(s.get("properties"), dict) and s["properties"]:
        return True
    return isinstance(s.get("allOf"), list) and any(_declares_properties(b) for b in s["allOf"])


# Codes (diagnostic or transformation) that report a narrowing, and which rule they map to.
NARROWING_CLOSE = frozenset({
    "openai/object-missing-additional-properties",
    "openai/extra-properties-no-longer-accepted",
    "openai/empty-parameters",
    "closed-open-object",
    "added-additional-properties-false",
    "closed-empty-parameters",
})
NARROWING_INFER = frozenset({"openai/type-inferred", "inferred-type"})


def narrowing_of(result: Any) -> tuple[bool, bool]:
    codes = {d.code for d in result.diagnostics} | {t.code for t in result.transformations}
    return bool(codes & NARROWING_CLOSE), bool(codes & NARROWING_INFER)


def model_forms(x: Any, null_paths: Any, limit: int = 8) -> list:
    """Every argument object a strict model could send for ``x``: ``x`` with ``None`` at any
    subset of the omitted null-path positions (``strip_nulls`` maps each back to ``x``).

    ``fill_nulls`` fills all of them; inside an anyOf, a branch that lacks one of those
    properties needs a form with fewer. Beyond ``limit`` positions only all/none are tried.
    """
    from toolcast import fill_nulls

    full = fill_nulls(x, null_paths)
    positions: list[tuple] = []

    def diff(a: Any, b: Any, p: tuple) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for k, v in b.items():
                if k not in a:
                    positions.append(p + (k,))
                else:
                    diff(a[k], v, p + (k,))
        elif isinstance(a, list) and isinstance(b, list):
            for i, (u, v) in enumerate(zip(a, b, strict=False)):
                diff(u, v, p + (i,))

    diff(x, full, ())
    if len(positions) > limit:
        return [full, x] if full != x else [x]
    forms = []
    for mask in range(2 ** len(positions) - 1, -1, -1):
        y = copy.deepcopy(x)
        for bit, pos in enumerate(positions):
            if mask >> bit & 1:
                node = y
                for step in pos[:-1]:
                    node = node[step]
                node[pos[-1]] = None
        forms.append(y)
    return forms
