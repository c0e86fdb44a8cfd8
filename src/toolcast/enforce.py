"""Enforce: which lossy changes a call's arguments can be checked for, the notes that tell the model, and the check itself."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from toolcast.formats import CHECKED_FORMATS
from toolcast.model import pointer
from toolcast.tool_input import copy_json
from toolcast.walk.actions import CONSTRAINING

# How the loss of each lossy change pattern is checked on a call's arguments, against the tool's
# original schema. A change not listed here (or a kind whose check is not available for the value
# at hand) is not checkable: it stays lossy under enforce. Keyword-class drops (a tier-1 or tier-2
# keyword) are "keyword" and regex-feature-class drops are "pattern", whatever code a catalogue
# gives them. The table names patterns only, never a provider.
#   keyword: the keyword is a JSON Schema constraint the validator implements (CONSTRAINING);
#   format:  the validator checks the dropped format (toolcast.formats.CHECKED_FORMATS);
#   pattern: the dropped regex is one the validator's engine reads (an ECMA-262 dialect);
#   schema:  the original schema says it in full (the form sent without strict widened it).
CHECKABLE = {
    "dropped-unsupported-keyword": "keyword",
    "dropped-unsupported-format": "format",
    "converted-one-of-to-any-of": "keyword",
    "dropped-additional-properties-schema": "keyword",
    "dropped-additional-properties-false": "keyword",
    "dropped-non-string-enum": "keyword",
    "merged-root-combinator": "schema",
    "dropped-root-keyword": "schema",
    "dropped-sent-keyword": "keyword",
    "made-recursive-property-optional": "schema",
    "cut-recursive-reference": "schema",
}
# Lossy changes deliberately left out, and why (read by the tests, so the table stays complete):
NOT_CHECKABLE = {
    # the null is stripped before the arguments are checked: an explicit null and an omission look alike
    "stripped-explicit-null": "the handler cannot tell an explicit null from an omitted property",
    "dropped-conflicting-definitions": "which of two clashing definitions the tool meant is not known",
    "widened-invalid-subschema": "the original holds no schema at that place",
    "widened-false-subschema": "reserved: never recorded",
}
# A note longer than this is cut (with "..."), so a large dropped subschema cannot crowd a description.
NOTE_MAX = 120
# The change pattern of the note added to a description (its own code in every catalogue).
DESCRIBED = "described-enforced-constraint"


@dataclass(frozen=True)
class Enforced:
    """A constraint the sent schema cannot carry and the run time checks: its place (a JSON pointer into
    the tool's schema, the lossy change's path, e.g. `#/properties/url/format`), what it says (e.g.
    `format: uri`), and the lossy change's code."""

    path: str
    constraint: str
    code: str

    def to_dict(self) -> dict:
        return {"path": self.path, "constraint": self.constraint, "code": self.code}


_KINDS: dict[str, dict[str, str]] = {}


def _kinds(r: Any) -> dict[str, str]:
    """Transformation code -> kind of check, for rules `r` (from CHECKABLE and the keyword and regex
    classes that drop)."""
    kinds = _KINDS.get(r.id)
    if kinds is None:
        m = r.module
        kinds = {code: CHECKABLE[p] for p, code in r.changes.items() if p in CHECKABLE}
        for entry in m.KEYWORD_CLASSES.values():
            if entry[0] == "drop" and entry[2]:
                kinds.setdefault(entry[2], "keyword")
        for entry in m.REGEX_FEATURE_CLASSES.values():
            if entry[0] == "drop" and entry[2]:
                kinds.setdefault(entry[2], "pattern")
        _KINDS[r.id] = kinds
    return kinds


def _at(schema: Any, tokens: tuple) -> tuple[bool, Any]:
    """(found, the value at `tokens` in `schema`), reading `$defs` as `definitions` where only that is there."""
    node = schema
    for t in tokens:
        if type(node) is dict:
            if t not in node:  # (the walk's own names for what the original spells otherwise)
                t = {"$defs": "definitions", "anyOf": "oneOf"}.get(t, t)
            if t not in node:
                return False, None
            node = node[t]
        elif type(node) is list and type(t) is int and 0 <= t < len(node):
            node = node[t]
        else:
            return False, None
    return True, node


def _short(value: Any) -> str:
    text = value if type(value) is str else json.dumps(value, ensure_ascii=False, sort_keys=True,
                                                       separators=(",", ":"))
    return text if len(text) <= NOTE_MAX else text[:NOTE_MAX - 3] + "..."


def enforceable(trans: list, lossy_codes: frozenset, schema: Any, r: Any) -> tuple | None:
    """The (Enforced, record) pairs of the lossy changes in `trans` (the walk's records), or None
    when one of them cannot be checked on the arguments against `schema` (the original)."""
    kinds = _kinds(r)
    out = []
    for rec in dict.fromkeys(t for t in trans if t[0] in lossy_codes):
        code, base, tokens = rec[0], rec[1], rec[2]
        kind = kinds.get(code)
        if kind is None or base != "#" or not tokens:
            return None
        keyword = tokens[-1]
        found, value = _at(schema, tokens)
        if kind == "keyword":
            if keyword not in CONSTRAINING or not found:
                return None
            constraint = "exactly one of the options (oneOf)" if keyword == "oneOf" else f"{keyword}: {_short(value)}"
        elif kind == "format":
            if not found or value not in CHECKED_FORMATS:
                return None
            constraint = f"format: {value}"
        elif kind == "pattern":
            if not found or type(value) is not str:
                return None
            constraint = f"pattern: {_short(value)}"
        else:  # schema: the original says it; nothing to tell beyond what was sent
            constraint = f"{keyword}: as the original schema states it"
        out.append((Enforced(pointer("#", tokens), constraint, code), rec))
    return tuple(out)


# --------------------------------------------------------------------------- the model is told


def describe(compiled: Any, enforced: tuple, r: Any) -> tuple[Any, list]:
    """`compiled` with a note in the description of each place where an enforced constraint applies
    (a copy along the paths changed), and the records of those notes. A place the sent schema does
    not hold as an object, one beside a `$ref` where the provider takes no description, or a note
    that would take the description past the provider's limits is left alone."""
    code = r.changes.get(DESCRIBED)
    if code is None or "description" not in r.kept:
        return compiled, []
    by_place: dict[tuple, list[str]] = {}
    for e, rec in enforced:
        by_place.setdefault(rec[2][:-1], []).append(e.constraint)
    records = []
    for place, notes in by_place.items():
        note = "; ".join(dict.fromkeys(notes))
        changed = _with_note(compiled, place, note, r)
        if changed is not None:
            compiled = changed
            records.append((code, "#", (*place, "description"), f"({note})"))
    return compiled, records


def _with_note(root: Any, place: tuple, note: str, r: Any) -> Any:
    """`root` with `note` added to the description at `place` (copied along the way), or None."""
    found, node = _at(root, place)
    if not found or type(node) is not dict:
        return None
    policy = r.policy
    if "$ref" in node and ("description" not in r.ref_siblings or policy.get("sent_ref_siblings") == "dollar-only"):
        return None  # (a provider that takes nothing beside `$ref`)
    if "anyOf" in node and (policy.get("sent_any_of") == "alone" or policy.get("schema_form") == "openapi-subset"):
        return None  # (`anyOf` alone in its schema; the OpenAPI subset moves annotations into its branches)
    old = node.get("description")
    text = f"{old} ({note})" if type(old) is str and old else note
    cap = r.description_max_chars
    if (cap is not None and len(text) > cap) or len(text.encode("utf-8")) > r.description_max_bytes:
        return None
    new = _ordered({**node, "description": text}, r)
    return _replaced(root, place, new)


def _ordered(node: dict, r: Any) -> dict:
    order = r.order_index
    last = len(order)
    return dict(sorted(node.items(), key=lambda kv: order.get(kv[0], last)))


def _replaced(root: Any, place: tuple, new: Any) -> Any:
    if not place:
        return new
    head, rest = place[0], place[1:]
    copy = dict(root) if type(root) is dict else list(root)
    copy[head] = _replaced(root[head], rest, new)
    return copy


# --------------------------------------------------------------------------- what the check judges

# The change patterns that narrow what the original means (a type inferred from a node's keywords, an
# object closed): what the tool means is the original with them, and the run time judges that. Under
# `oneOf` or `not` a narrowed branch widens the whole (`""` meets both `{"properties": ...}` and
# `{"type": "string"}`, but not `{"type": "object", ...}`), so the raw original is not it.
_NARROWINGS = ("inferred-type", "added-additional-properties-false", "closed-open-object", "closed-empty-parameters")
_JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "null", "object", "array"})


def meaning(schema: Any, trans: list, r: Any) -> Any:
    """`schema` (a copy the caller owns, changed in place) with the narrowings the walk recorded in
    `trans` (its records: code, base, the node's tokens, note) put where the walk made them. A node the
    walk merged from `allOf` branches (its path is the merged one) is found in its branches; it is
    closed with `unevaluatedProperties` there, which sees the branches' properties."""
    changes = r.changes
    wanted = {changes[p]: p for p in _NARROWINGS if p in changes}
    copied = {}  # a `$ref` target the walk copied into `$defs` (and walked there): its name -> its place
    for rec in trans:
        if rec[0] == changes.get("copied-ref-target-to-defs") and type(rec[3]) is str and rec[3].startswith("(as #/$defs/"):
            copied[rec[3][len("(as #/$defs/"):-1]] = rec[2]
    merged_code = changes.get("merged-all-of")
    merged = {_placed(rec[2], copied)[:-1] for rec in trans if rec[0] == merged_code and rec[1] == "#" and rec[2]}
    for rec in trans:
        pattern = wanted.get(rec[0])
        if pattern is None or rec[1] != "#":
            continue
        tokens = _placed(rec[2], copied)
        if pattern == "inferred-type":
            kind = rec[3][1:].split(",")[0].split(")")[0] if type(rec[3]) is str else ""
            if kind not in _JSON_TYPES:
                continue  # (a type from an enum's values, which says no more than the enum)
            for node in _nodes(schema, () if tokens == ("type",) else tokens, merged):
                node.setdefault("type", kind)
            continue
        if pattern == "closed-open-object":
            tokens = tokens[:-1]  # (the record names the `additionalProperties` it closed)
        nodes = _nodes(schema, tokens, merged)
        if len(nodes) != 1:
            continue  # (an object merged from pieces in two places: no one place closes it)
        node = nodes[0]
        if pattern == "closed-empty-parameters":
            node.setdefault("type", "object")
        if tokens in merged or "$ref" in node:
            node["unevaluatedProperties"] = False
        elif node.get("additionalProperties", True) in (True, {}):
            node["additionalProperties"] = False
    return schema


def _placed(tokens: tuple, copied: dict) -> tuple:
    """A walk's path in the original: one into a copied `$ref` target goes to the target's own place."""
    if len(tokens) >= 2 and tokens[0] == "$defs" and tokens[1] in copied:
        return (*copied[tokens[1]], *tokens[2:])
    return tokens


def _nodes(schema: Any, tokens: tuple, merged: set) -> list:
    """The dicts at `tokens` (a walk's path) in `schema`: one, or the pieces of a node merged from
    `allOf` branches (the walk's path runs through the merged node); `$defs` read as `definitions`
    and `anyOf` as `oneOf` where only that is there."""
    found = [schema]
    for i, t in enumerate(tokens):
        step = []
        for node in found:
            pieces = _pieces(node) if tokens[:i] in merged else (node,)
            for piece in pieces:
                if type(piece) is dict:
                    if t not in piece:
                        t2 = {"$defs": "definitions", "anyOf": "oneOf"}.get(t, t)
                        if t2 in piece:
                            step.append(piece[t2])
                    else:
                        step.append(piece[t])
                elif type(piece) is list and type(t) is int and 0 <= t < len(piece):
                    step.append(piece[t])
        found = step
    return [n for n in found if type(n) is dict]


def _pieces(node: Any) -> list:
    """`node` and, nested, its `allOf` branches: what the walk merged into one node."""
    out = [node]
    if type(node) is dict and type(node.get("allOf")) is list:
        for branch in node["allOf"]:
            out.extend(_pieces(branch))
    return out


# Keywords under which a subschema's verdict can turn the whole's the other way (a branch that fails
# more makes `oneOf` or `not` accept more).
_DECIDING = ("oneOf", "not", "if")


def _formats_named(schema: Any) -> tuple[list, bool, bool]:
    """(the formats the validator checks that `schema` names anywhere, whether it names one the validator
    cannot check, whether it holds a `oneOf`, `not` or `if`). The check asserts every one of the first:
    the dropped ones the run time checks, and the kept ones the provider checks, which decide between
    `oneOf` branches as much. One it cannot check (an OpenAPI `int32` a provider keeps) reads as always
    met, which under `oneOf` or `not` rejects what the tool means."""
    out: set = set()
    unknown = deciding = False
    stack = [schema]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            f = node.get("format")
            if type(f) is str:
                if f in CHECKED_FORMATS:
                    out.add(f)
                else:
                    unknown = True
            if not deciding and any(k in node for k in _DECIDING):
                deciding = True
            stack.extend(v for v in node.values() if type(v) is dict or type(v) is list)
        elif type(node) is list:
            stack.extend(v for v in node if type(v) is dict or type(v) is list)
    return sorted(out), unknown, deciding


# --------------------------------------------------------------------------- the compiler's step


def apply(walk: Any, compiled: Any, schema: Any, r: Any, describe_places: bool) -> tuple | None:
    """For a walk whose only blocking findings are lossy changes: (the compiled schema, with the notes
    unless `describe_places` is false, and the result's enforcement: (Enforced tuple, the places of the
    enforced findings, the ArgumentCheck)), the notes' records added to the walk; None when a loss
    cannot be checked on the arguments."""
    pairs = enforceable(walk.trans, walk.lossy_codes, schema, r)
    if pairs is None:
        return None
    from toolcast.validation import ArgumentCheck

    meant = meaning(copy_json(schema), walk.trans, r)
    named, unknown, deciding = _formats_named(meant)
    if unknown and deciding:  # (a format the validator cannot check may decide a `oneOf`, a `not`)
        return None
    formats = tuple(dict.fromkeys([*(e.constraint[len("format: "):] for e, _ in pairs
                                     if e.constraint.startswith("format: ")), *named]))
    check = ArgumentCheck(meant, formats)
    if not check.ready():  # the validator cannot read the original (a regex, a reference): nothing is checked
        return None
    if describe_places:
        compiled, records = describe(compiled, pairs, r)
        walk.trans.extend(records)
    places = frozenset((rec[1], rec[2]) for _, rec in pairs)
    return compiled, (tuple(e for e, _ in pairs), places, check)


def argument_check(result: Any) -> Any:
    """The check a call's arguments get for `result`, a tool compiled with enforce=True and sent strict
    with enforced constraints (toolcast.validation.ArgumentCheck), else None."""
    enforcement = getattr(result, "_enforcement", None)
    return enforcement[2] if enforcement is not None and result.status == "strict" else None
