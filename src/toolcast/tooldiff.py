"""Classify what changed between two versions of a set of tools: breaking for callers, safe, or informational.

A *caller* is whoever sends a tool's arguments (the model, or code calling the tool). A change is
**breaking** when arguments the old definition accepted may be rejected now (a new required
parameter, a removed one, a narrower type, a removed enum value, a tighter bound), **safe** when
every old call is still accepted (a new optional parameter, a wider type, a looser bound), and
**informational** when it changes no call's validity (descriptions, titles, examples, defaults).
A change the walk does not know how to order (a keyword it has no rule for) is breaking: a gate
that has to guess errs on the side of review.

Tools are matched by name across all files of each side, so a tool moved between files is not a
change, and a renamed tool is one removed (breaking) and one added (safe).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from toolcast.model import pointer
from toolcast.walk.semantics import json_equal, json_key

BREAKING, SAFE, INFO = "breaking", "safe", "info"
KINDS = (BREAKING, SAFE, INFO)
KIND_WORD = {BREAKING: "breaking", SAFE: "safe", INFO: "informational"}

# Keywords that describe a value without constraining it: a change is informational.
ANNOTATIONS = frozenset({"description", "title", "examples", "default", "$comment", "deprecated", "readOnly",
                         "writeOnly", "example", "$schema", "$id", "contentMediaType", "contentEncoding"})
# Lower bounds (raising one rejects values it accepted) and upper bounds (lowering one does).
LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
# Keywords whose value is one subschema, compared in place.
ONE_SCHEMA = ("items", "additionalItems", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
              "if", "then", "else")
# Keywords whose value is a map of subschemas (compared name by name) and are not `properties`.
SCHEMA_MAPS = ("patternProperties", "dependentSchemas")
# What each keyword the walk handles is, for "added"/"removed" of a keyword it compares by value.
_HANDLED = frozenset({"type", "enum", "const", "required", "properties", "additionalProperties", "pattern", "format",
                      "multipleOf", "uniqueItems", "anyOf", "oneOf", "allOf", "not", "$ref", "$defs", "definitions",
                      "prefixItems", "nullable", "dependentRequired", *LOWER, *UPPER, *ONE_SCHEMA, *SCHEMA_MAPS,
                      *ANNOTATIONS})


@dataclass(frozen=True, slots=True)
class Change:
    """One classified change: its kind, a stable code, the tool, the place (tokens below `base`:
    "#" for the input schema, else a tool field) and why. `side` says which version holds the
    place ("new", or "old" for what exists only in the old version)."""

    kind: str
    code: str
    tool: str
    tokens: tuple
    message: str
    base: str = "#"
    side: str = "new"

    @property
    def path(self) -> str:
        """The place as a JSON pointer fragment (`#/properties/amount`), as findings give it."""
        return pointer(self.base, self.tokens)


def _canon(value: Any) -> str:
    """A value as canonical JSON, to compare and order enum members and subschemas."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def _shown(value: Any) -> str:
    text = _canon(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _as_schema(schema: Any) -> Any:
    """Boolean schemas as objects: `true` accepts all ({}), `false` none ({"not": {}})."""
    if schema is True:
        return {}
    if schema is False:
        return {"not": {}}
    return schema


def _types(schema: dict) -> frozenset | None:
    """The JSON types a schema's `type` admits (None: no `type`, every type), `nullable` included."""
    t = schema.get("type")
    if t is None:
        return None
    names = frozenset(x for x in ([t] if isinstance(t, str) else t if isinstance(t, list) else []) if isinstance(x, str))
    if schema.get("nullable") is True:
        names |= {"null"}
    return names


def _covers(wide: frozenset | None, narrow: frozenset | None) -> bool:
    """Whether every value of the types `narrow` is of the types `wide` (integer lies within number)."""
    if wide is None:
        return True
    if narrow is None:
        return False
    return all(t in wide or (t == "integer" and "number" in wide) for t in narrow)


class _Walk:
    """The comparison of one tool's two schemas; `out` collects its changes."""

    def __init__(self, tool: str, out: list[Change]) -> None:
        self.tool, self.out = tool, out

    def add(self, kind: str, code: str, at: tuple, message: str, side: str = "new") -> None:
        self.out.append(Change(kind, code, self.tool, tuple(at), message, side=side))

    def schema(self, old: Any, new: Any, at: tuple) -> None:
        old, new = _as_schema(old), _as_schema(new)
        if _same(old, new):
            return
        if not isinstance(old, dict) or not isinstance(new, dict):
            self.add(BREAKING, "schema-changed", at, f"the schema changed from {_shown(old)} to {_shown(new)}")
            return
        self.types(old, new, at)
        self.values(old, new, at)
        self.bounds(old, new, at)
        self.objects(old, new, at)
        self.subschemas(old, new, at)
        self.branches(old, new, at)
        self.others(old, new, at)

    def types(self, old: dict, new: dict, at: tuple) -> None:
        o, n = _types(old), _types(new)
        if o == n:
            return
        shown = (lambda ts: "any type" if ts is None else " | ".join(sorted(ts)))  # noqa: E731
        where = at + ("type",) if "type" in new else at
        if _covers(n, o):
            self.add(SAFE, "type-widened", where, f"type widened from {shown(o)} to {shown(n)}")
        elif _covers(o, n):
            self.add(BREAKING, "type-narrowed", where, f"type narrowed from {shown(o)} to {shown(n)}")
        else:
            self.add(BREAKING, "type-changed", where, f"type changed from {shown(o)} to {shown(n)}")

    def values(self, old: dict, new: dict, at: tuple) -> None:
        if not _same(old.get("enum"), new.get("enum")):
            self.enum(old.get("enum"), new.get("enum"), at)
        if not _same(old.get("const", _MISSING), new.get("const", _MISSING)):
            if "const" not in new:
                self.add(SAFE, "const-removed", at, f"const {_shown(old['const'])} removed: any value of the type is accepted")
            elif "const" not in old:
                self.add(BREAKING, "const-added", at + ("const",), f"const {_shown(new['const'])} added: only that value is accepted")
            else:
                self.add(BREAKING, "const-changed", at + ("const",),
                         f"const changed from {_shown(old['const'])} to {_shown(new['const'])}")
        for key, what in (("pattern", "pattern"), ("format", "format")):
            o, n = old.get(key), new.get(key)
            if _same(o, n):
                continue
            if n is None:
                self.add(SAFE, f"{what}-removed", at, f"{what} {_shown(o)} removed")
            elif o is None:
                self.add(BREAKING, f"{what}-added", at + (key,), f"{what} {_shown(n)} added")
            else:
                self.add(BREAKING, f"{what}-changed", at + (key,), f"{what} changed from {_shown(o)} to {_shown(n)}")
        if bool(old.get("uniqueItems")) != bool(new.get("uniqueItems")):
            if new.get("uniqueItems"):
                self.add(BREAKING, "unique-items-added", at + ("uniqueItems",), "uniqueItems added: repeated items are rejected")
            else:
                self.add(SAFE, "unique-items-removed", at, "uniqueItems removed: repeated items are accepted")

    def enum(self, o: Any, n: Any, at: tuple) -> None:
        if not isinstance(n, list):
            if isinstance(o, list):
                self.add(SAFE, "enum-removed", at, "enum removed: any value of the type is accepted")
            return
        if not isinstance(o, list):
            self.add(BREAKING, "enum-added", at + ("enum",), f"enum added: only {len(n)} value(s) are accepted")
            return
        old_set, new_set = {json_key(v): v for v in o}, {json_key(v): v for v in n}
        gone = [old_set[k] for k in old_set if k not in new_set]
        added = [new_set[k] for k in new_set if k not in old_set]
        if gone:
            self.add(BREAKING, "enum-value-removed", at + ("enum",),
                     f"enum value(s) removed: {', '.join(_shown(v) for v in gone)}")
        if added:
            self.add(SAFE, "enum-value-added", at + ("enum",), f"enum value(s) added: {', '.join(_shown(v) for v in added)}")
        if not gone and not added:
            self.add(INFO, "enum-reordered", at + ("enum",), "enum values reordered")

    def bounds(self, old: dict, new: dict, at: tuple) -> None:
        for keys, tighter in ((LOWER, lambda o, n: n > o), (UPPER, lambda o, n: n < o)):
            for key in keys:
                self.bound(key, old.get(key), new.get(key), tighter, at)
        o, n = old.get("multipleOf"), new.get("multipleOf")
        if not _same(o, n):
            if n is None:
                self.add(SAFE, "bound-removed", at, f"multipleOf {_shown(o)} removed")
            elif o is None or not _number(o) or not _number(n) or not _divides(n, o):
                self.add(BREAKING, "bound-tightened" if o is not None else "bound-added", at + ("multipleOf",),
                         f"multipleOf {'added' if o is None else f'changed from {_shown(o)} to'} {_shown(n)}")
            else:
                self.add(SAFE, "bound-loosened", at + ("multipleOf",), f"multipleOf loosened from {_shown(o)} to {_shown(n)}")

    def bound(self, key: str, o: Any, n: Any, tighter: Any, at: tuple) -> None:
        if _same(o, n):
            return
        if n is None:
            self.add(SAFE, "bound-removed", at, f"{key} {_shown(o)} removed")
        elif o is None:
            self.add(BREAKING, "bound-added", at + (key,), f"{key} {_shown(n)} added")
        elif not (_number(o) and _number(n)):  # (draft 4's boolean exclusiveMinimum, or a bad value)
            self.add(BREAKING, "bound-changed", at + (key,), f"{key} changed from {_shown(o)} to {_shown(n)}")
        elif tighter(o, n):
            self.add(BREAKING, "bound-tightened", at + (key,), f"{key} tightened from {_shown(o)} to {_shown(n)}")
        else:
            self.add(SAFE, "bound-loosened", at + (key,), f"{key} loosened from {_shown(o)} to {_shown(n)}")

    def objects(self, old: dict, new: dict, at: tuple) -> None:
        op = old.get("properties") if isinstance(old.get("properties"), dict) else {}
        np_ = new.get("properties") if isinstance(new.get("properties"), dict) else {}
        oreq = {r for r in old.get("required", []) if isinstance(r, str)} if isinstance(old.get("required"), list) else set()
        nreq = {r for r in new.get("required", []) if isinstance(r, str)} if isinstance(new.get("required"), list) else set()
        for name in op:
            if name not in np_:
                self.add(BREAKING, "parameter-removed", at + ("properties", name),
                         f"parameter `{name}` removed: a call that sends it may be rejected or have it ignored")
        for name, sub in np_.items():
            if name in op:
                self.schema(op[name], sub, at + ("properties", name))
            elif name in nreq:
                self.add(BREAKING, "required-parameter-added", at + ("properties", name),
                         f"new required parameter `{name}`: calls without it are rejected")
            else:
                self.add(SAFE, "optional-parameter-added", at + ("properties", name), f"new optional parameter `{name}`")
        for name in sorted(nreq - oreq):
            if name in op or name not in np_:
                self.add(BREAKING, "parameter-made-required", at + ("required",),
                         f"parameter `{name}` is required now: calls without it are rejected")
        for name in sorted(oreq - nreq):
            if name in np_ or name not in op:
                self.add(SAFE, "parameter-made-optional", at + ("properties", name) if name in np_ else at,
                         f"parameter `{name}` is optional now")
        self.additional(old, new, at)
        o, n = old.get("dependentRequired"), new.get("dependentRequired")
        if not _same(o, n):
            self.add(BREAKING if n else SAFE, "dependent-required-changed", at + (("dependentRequired",) if n else ()),
                     "dependentRequired " + ("changed" if o and n else "added" if n else "removed"))

    def additional(self, old: dict, new: dict, at: tuple) -> None:
        o, n = old.get("additionalProperties", True), new.get("additionalProperties", True)
        if _same(o, n) or (_open(o) and _open(n)):
            return
        if isinstance(o, dict) and isinstance(n, dict):
            self.schema(o, n, at + ("additionalProperties",))
        elif _open(n):
            self.add(SAFE, "additional-properties-allowed", at, "additional properties are accepted now")
        elif n is False:
            self.add(BREAKING, "additional-properties-closed", at + ("additionalProperties",),
                     "additionalProperties: false added: a call with a parameter not listed is rejected")
        else:
            self.schema(o, n, at + ("additionalProperties",))

    def subschemas(self, old: dict, new: dict, at: tuple) -> None:
        for key in ONE_SCHEMA:
            o, n = old.get(key), new.get(key)
            if _same(o, n):
                continue
            if n is None:
                self.add(SAFE, "subschema-removed", at, f"`{key}` removed")
            elif o is None and key in ("if", "then", "else"):
                self.add(BREAKING, "subschema-added", at + (key,), f"`{key}` added")
            elif isinstance(n, list) or isinstance(o, list):  # (draft 4's tuple `items`)
                self.add(BREAKING, "subschema-changed", at + (key,), f"`{key}` changed")
            else:
                self.schema({} if o is None else o, n, at + (key,))
        po, pn = old.get("prefixItems"), new.get("prefixItems")
        if not _same(po, pn) and isinstance(pn, list):
            po = po if isinstance(po, list) else []
            for i, sub in enumerate(pn):
                self.schema(po[i] if i < len(po) else {}, sub, at + ("prefixItems", i))
        elif not _same(po, pn):
            self.add(SAFE, "subschema-removed", at, "`prefixItems` removed")
        for key in SCHEMA_MAPS + ("$defs", "definitions"):
            o, n = old.get(key), new.get(key)
            if _same(o, n) or not isinstance(n, dict):
                if not _same(o, n) and n is None:
                    self.add(SAFE if key in SCHEMA_MAPS else INFO, "subschema-removed", at, f"`{key}` removed")
                continue
            o = o if isinstance(o, dict) else {}
            for name, sub in n.items():
                if name in o:
                    self.schema(o[name], sub, at + (key, name))
                elif key in SCHEMA_MAPS:
                    self.add(BREAKING, "subschema-added", at + (key, name), f"`{key}` entry `{name}` added")
                else:
                    self.add(INFO, "definition-added", at + (key, name), f"definition `{name}` added")
            for name in o:
                if name not in n:
                    self.add(SAFE if key in SCHEMA_MAPS else INFO, "subschema-removed" if key in SCHEMA_MAPS
                             else "definition-removed", at + (key,), f"`{key}` entry `{name}` removed")

    def branches(self, old: dict, new: dict, at: tuple) -> None:
        for key in ("anyOf", "oneOf", "allOf"):
            o, n = old.get(key), new.get(key)
            if _same(o, n):
                continue
            # allOf: each branch constrains (added narrows); anyOf/oneOf: each one admits (added widens).
            narrows = key == "allOf"
            o, n = (o if isinstance(o, list) else None), (n if isinstance(n, list) else None)
            if n is None:
                self.add(BREAKING if not narrows else SAFE, "branches-removed", at,
                         f"`{key}` removed" + ("" if narrows else ": its branches no longer each stand for a valid call"))
                continue
            if o is None:
                self.add(SAFE if not narrows else BREAKING, "branches-added", at + (key,), f"`{key}` added")
                continue
            self.branch_lists(key, o, n, narrows, at)
        o, n = old.get("not"), new.get("not")
        if not _same(o, n):
            if n is None:
                self.add(SAFE, "not-removed", at, "`not` removed")
            else:
                self.add(BREAKING, "not-changed" if o is not None else "not-added", at + ("not",),
                         "`not` " + ("changed" if o is not None else "added"))

    def branch_lists(self, key: str, o: list, n: list, narrows: bool, at: tuple) -> None:
        """Branches equal on both sides match whatever their order; the rest pair by position when
        both sides have as many, else each is one added or removed."""
        new_keys = [json_key(b) for b in n]
        old_keys = [json_key(b) for b in o]
        in_new, in_old = set(new_keys), set(old_keys)
        left_old = [i for i, k in enumerate(old_keys) if k not in in_new]
        left_new = [i for i, k in enumerate(new_keys) if k not in in_old]
        if len(left_old) == len(left_new):
            for i, j in zip(left_old, left_new, strict=True):
                self.schema(o[i], n[j], at + (key, j))
            return
        for i in left_old:
            self.add(SAFE if narrows else BREAKING, "branch-removed", at + (key,),
                     f"`{key}` branch {i} removed" + ("" if narrows else ": calls that matched only it are rejected"))
        for j in left_new:
            self.add(BREAKING if narrows else SAFE, "branch-added", at + (key, j), f"`{key}` branch {j} added")

    def others(self, old: dict, new: dict, at: tuple) -> None:
        for key in ("$ref",):
            if not _same(old.get(key), new.get(key)):
                if new.get(key) is None:
                    self.add(BREAKING, "reference-changed", at, f"`$ref` {_shown(old[key])} removed")
                else:
                    self.add(BREAKING, "reference-changed", at + (key,),
                             f"`$ref` changed from {_shown(old.get(key))} to {_shown(new[key])}")
        if old.get("nullable") is True and new.get("nullable") is not True and "type" not in old:
            self.add(BREAKING, "type-narrowed", at, "nullable removed: null is rejected")
        for key in ANNOTATIONS:
            if not _same(old.get(key, _MISSING), new.get(key, _MISSING)) and key not in ("$schema",):
                verb = "added" if key not in old else "removed" if key not in new else "changed"
                self.add(INFO, f"{_kebab(key)}-changed", at + ((key,) if key in new else ()), f"{key} {verb}")
        for key in sorted(set(old) | set(new)):
            if key in _HANDLED or _same(old.get(key, _MISSING), new.get(key, _MISSING)):
                continue
            verb = "added" if key not in old else "removed" if key not in new else "changed"
            self.add(BREAKING, "keyword-changed", at + ((key,) if key in new else ()),
                     f"`{key}` {verb} (a keyword toolcast diff does not classify: treated as breaking)")


_MISSING = object()


def _same(old: Any, new: Any) -> bool:
    """Equal as JSON values (true is not 1, 1 is 1.0), never Python's `==`."""
    return json_equal(old, new)


def _open(schema: Any) -> bool:
    """`true` or `{}`: a schema that accepts anything (never 1, which Python calls `True`)."""
    return schema is True or (isinstance(schema, dict) and not schema)


def _kebab(key: str) -> str:
    out = "".join("-" + c.lower() if c.isupper() else c for c in key.lstrip("$"))
    return out.lstrip("-")


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _divides(small: float, big: float) -> bool:
    """Whether every multiple of `big` is a multiple of `small` (multipleOf loosened)."""
    if small == 0:
        return False
    q = big / small
    return abs(q - round(q)) < 1e-9


def compare_schemas(tool: str, old: Any, new: Any) -> list[Change]:
    """The changes between two input schemas of the tool `tool`, in walk order."""
    out: list[Change] = []
    _Walk(tool, out).schema(_tool_schema(old), _tool_schema(new), ())
    return out


def _tool_schema(schema: Any) -> Any:
    # A tool without an input schema takes no parameters: an object with none.
    return {"type": "object"} if schema is None else schema


def _key(schema: Any) -> str | None:
    """A schema's canonical text, to spot a renamed tool (None: too deep to write)."""
    try:
        return _canon(schema)
    except RecursionError:
        return None


def compare_tools(old: dict[str, tuple], new: dict[str, tuple]) -> list[Change]:
    """The changes between two sets of tools, each `{name: (description, schema)}`: per tool in the
    new side's order, then the removed ones in the old side's order."""
    out: list[Change] = []
    by_schema = {_key(v[1]): name for name, v in new.items() if name not in old}
    by_schema.pop(None, None)
    for name, (desc, schema) in new.items():
        if name not in old:
            out.append(Change(SAFE, "tool-added", name, (), f"tool `{name}` added", base="name"))
            continue
        odesc, oschema = old[name]
        if not _same(odesc, desc):
            verb = "added" if odesc is None else "removed" if desc is None else "changed"
            out.append(Change(INFO, "description-changed", name, (), f"description {verb}", base="description"
                              if desc is not None else "name"))
        try:
            out.extend(compare_schemas(name, oschema, schema))
        except RecursionError:  # (a gate that cannot compare says so, as a change to review)
            out.append(Change(BREAKING, "schema-too-deep", name, (), "the input schema is nested too deeply to "
                                                                     "compare: review the change by hand"))
    for name, (_, schema) in old.items():
        if name not in new:
            twin = by_schema.get(_key(schema))
            hint = f" (tool `{twin}` was added with the same schema: renamed?)" if twin else ""
            out.append(Change(BREAKING, "tool-removed", name, (), f"tool `{name}` removed: calls to it fail{hint}",
                              base="name", side="old"))
    return out


STATUS_RANK = {"refused": 0, "non-strict": 1, "enforced": 2, "strict": 3}


def regressions(old: dict[str, Any], new: dict[str, Any]) -> tuple[list[tuple], list[tuple]]:
    """(regressed, fixed): for tools on both sides, (name, old result, new result) whose outcome
    got worse (strict → enforced → non-strict → refused) or better."""
    worse, better = [], []
    for name, res in new.items():
        if name not in old:
            continue
        o, n = STATUS_RANK.get(old[name].status, 0), STATUS_RANK.get(res.status, 0)
        if n < o:
            worse.append((name, old[name], res))
        elif n > o:
            better.append((name, old[name], res))
    return worse, better


def counts(changes: Iterable[Change]) -> dict[str, int]:
    c = dict.fromkeys(KINDS, 0)
    for ch in changes:
        c[ch.kind] += 1
    return c


def by_tool(changes: Iterable[Change]) -> Iterator[tuple[str, list[Change]]]:
    """The changes grouped by tool, tools in first-seen order."""
    groups: dict[str, list[Change]] = {}
    for ch in changes:
        groups.setdefault(ch.tool, []).append(ch)
    yield from groups.items()
