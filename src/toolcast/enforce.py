"""Enforce: which lossy changes a call's arguments can be checked for, the notes that tell the model, and the check itself."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from toolcast.formats import CHECKED_FORMATS
from toolcast.model import pointer
from toolcast.sent_dialect import OLDER, as_2020_12
from toolcast.tool_input import copy_json
from toolcast.walk.actions import CONSTRAINING
from toolcast.walk.dialect import dialect_of
from toolcast.walk.values import MISSING, ref_pointer

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
    "dropped-sent-keyword": "keyword", "widened-enum-values-to-types": "keyword",
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
    not hold as an object, one beside a `$ref` (the walk writes nothing there), or a note
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
    if "$ref" in node:
        return None  # (the walk writes nothing beside `$ref`: its own description goes in an `anyOf` wrapper)
    if any(k in node for k in (r.sent_alone if policy.get("sent_any_of") == "alone" else ("anyOf",) if policy.get("schema_form") == "openapi-subset" else ())):
        return None  # (`anyOf` (or what is read as it) alone in its schema; the OpenAPI subset moves annotations into its branches)
    old = node.get("description")
    text = f"{old} ({note})" if type(old) is str and old else note
    cap = r.description_max_chars
    if (cap is not None and len(text) > cap) or len(text.encode("utf-8")) > r.description_max_bytes:
        return None
    new = _ordered({**node, "description": text}, r)
    return _replaced(root, place, new)


def _ordered(node: dict, r: Any) -> dict:
    order, last = r.order_index, len(r.order_index)
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
_ALIASES = {"$defs": "definitions", "anyOf": "oneOf"}  # (the walk's names for what the original may spell otherwise)
# Keywords whose value maps names to schemas, or lists schemas: a step into them reaches no schema yet.
_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"})
_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})


class _Unplaced(Exception):
    """A narrowing the check cannot put where the compile made it (the tool is then not enforced)."""


def meaning(schema: Any, trans: list, r: Any) -> Any:
    """`schema` (a copy the caller owns, changed in place) with the narrowings the walk recorded in `trans` (its
    records: code, base, the node's tokens, note) put where the walk made them. A node the walk merged from pieces
    (`allOf` branches, a `$ref`'s target and its siblings, the keywords beside an `anyOf` moved into each branch)
    is found in its pieces, and closed as the compile closes the merged node: no property but those its pieces
    declare (`additionalProperties: false` beside all their names, in an `allOf` entry of the node, so that every
    dialect reads it). Raises _Unplaced where a narrowing has no place the check can hold it."""
    if type(schema) is not dict:
        return schema
    changes = r.changes
    wanted = {changes[p]: p for p in _NARROWINGS if p in changes}
    copied, joined, pushed = _merges(trans, changes)
    edits = []  # found first, made after: what an edit adds is no piece of another node
    for rec in trans:
        pattern = wanted.get(rec[0])
        if pattern is None or rec[1] != "#":
            continue
        tokens = _placed(rec[2], copied)
        if pattern == "inferred-type":
            kind = rec[3][1:].split(",")[0].split(")")[0] if type(rec[3]) is str else ""
            if kind not in _JSON_TYPES:
                continue  # (a type from an enum's values, which says no more than the enum)
            edits.append((() if tokens == ("type",) else tokens, {"type": kind}, None))
            continue
        if pattern == "closed-open-object":
            tokens = tokens[:-1]  # (the record names the `additionalProperties` it closed)
        pieces = _pieces_at(schema, tokens, joined, pushed)
        if pieces:  # (none: the walk's node is not in the original, as a `true` root)
            edits.append((tokens, {"type": "object"} if pattern == "closed-empty-parameters" else {}, pieces))
    for tokens, added, pieces in edits:
        anchor, at = _anchor(schema, tokens)
        rest = tokens[at:]
        if not rest and (pieces is None or (len(pieces) == 1 and pieces[0] is anchor)):
            for k, v in added.items():
                anchor.setdefault(k, v)
            if pieces is not None and anchor.get("additionalProperties", True) in (True, {}):
                anchor["additionalProperties"] = False
            continue
        if pieces is not None:
            added = {**added, **_closer(pieces)}
        entries = anchor.setdefault("allOf", [])
        if type(entries) is not list:
            raise _Unplaced(tokens)
        entries.append(_wrapped(schema, tokens, at, added, joined, pushed))
    return schema


def _merges(trans: list, changes: dict) -> tuple[dict, set, set]:
    """(each `$ref` target the walk copied into `$defs` (and walked there): its name -> its place; the walk's
    paths of the nodes it merged with their pieces: `allOf` merged in, `$ref` siblings merged with the target, a
    `$ref` inlined; those of the nodes whose keywords beside an `anyOf` went into each branch)."""
    copied, joined, pushed = {}, set(), set()
    for rec in trans:
        if rec[0] == changes.get("copied-ref-target-to-defs") and type(rec[3]) is str and rec[3].startswith("(as #/$defs/"):
            copied[rec[3][len("(as #/$defs/"):-1]] = rec[2]
    merged, ref, inlined = (changes.get(p) for p in ("merged-all-of", "merged-ref-siblings", "inlined-reference"))
    for rec in trans:
        code = rec[0]
        if rec[1] != "#" or code not in (merged, ref, inlined):
            continue
        place = _placed(rec[2], copied)
        if code != merged:  # (at the node, or at its `$ref`)
            joined.add(place[:-1] if place[-1:] == ("$ref",) else place)
        elif place[-1:] == ("allOf",):
            joined.add(place[:-1])
        elif place[-1:] == ("anyOf",):
            pushed.add(place[:-1])
    return copied, joined, pushed


def _placed(tokens: tuple, copied: dict) -> tuple:
    """A walk's path in the original: one into a copied `$ref` target goes to the target's own place."""
    if len(tokens) >= 2 and tokens[0] == "$defs" and tokens[1] in copied:
        return (*copied[tokens[1]], *tokens[2:])
    return tokens


def _child(root: Any, node: Any, t: Any, depth: int = 0) -> Any:
    """What `node` holds at step `t` of a walk's path (through the target of a `$ref` it holds, as the walk
    reads an inlined one), or MISSING."""
    if type(node) is dict:
        if t not in node:
            t = _ALIASES.get(t, t)
        if t in node:
            return node[t]
        ref = node.get("$ref")
        if type(ref) is str and depth < 32:
            return _child(root, _target(root, ref), t, depth + 1)
    elif type(node) is list and type(t) is int and 0 <= t < len(node):
        return node[t]
    return MISSING


def _target(root: Any, ref: str) -> Any:
    """The schema a same-document pointer `$ref` names in `root`, or MISSING."""
    tokens = ref_pointer(ref) if ref[:1] == "#" else None
    if tokens is None:
        return MISSING
    node = root
    for t in tokens:
        if type(node) is list:
            t = int(t) if t.isdigit() else -1
        node = _child(root, node, t, 32)  # (a pointer names a place: no `$ref` is followed on the way)
        if node is MISSING:
            return MISSING
    return node


def _expanded(root: Any, nodes: list) -> list:
    """`nodes` and, nested, what the walk merges into them: their `allOf` branches and their `$ref`s' targets."""
    out, seen, stack = [], set(), list(reversed(nodes))
    while stack:
        node = stack.pop()
        if type(node) is not dict or id(node) in seen:
            continue
        seen.add(id(node))
        out.append(node)
        more = list(node["allOf"]) if type(node.get("allOf")) is list else []
        if type(node.get("$ref")) is str:
            more.append(_target(root, node["$ref"]))
        stack.extend(reversed(more))
    return out


def _pieces_at(root: Any, tokens: tuple, joined: set, pushed: set) -> list:
    """The schema objects of the original the walk's node at `tokens` is made of: one, or the pieces it merged
    (through `allOf`, `$ref`, and the keywords beside an `anyOf`, which each branch holds too)."""
    found = _expanded(root, [root]) if () in joined else [root]
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t == "anyOf" and tokens[:i] in pushed and i + 1 < len(tokens):
            k, step = tokens[i + 1], []
            for node in found:
                branches = _child(root, node, "anyOf")
                if type(branches) is list and type(k) is int and 0 <= k < len(branches):
                    step.append(branches[k])
                step.append({key: v for key, v in node.items() if key not in ("anyOf", "oneOf")})
            i += 2
            found = _expanded(root, step)
            continue
        step = [c for c in (_child(root, node, t) for node in found) if c is not MISSING]
        i += 1
        found = _expanded(root, step) if len(step) > 1 or tokens[:i] in joined else step
    return [n for n in found if type(n) is dict]


def _anchor(root: Any, tokens: tuple) -> tuple[dict, int]:
    """(the last schema object the original holds along `tokens` under the path's own names, how many tokens lead
    to it): what is added there applies exactly where the walk's node does, when the steps after it are plain."""
    anchor, at, node, schema = root, 0, root, True
    for i, t in enumerate(tokens):
        if type(node) is dict:
            if t not in node:
                t = _ALIASES.get(t, t)
            child = node.get(t, MISSING)
        elif type(t) is int and 0 <= t < len(node):
            child = node[t]
        else:
            break
        schema = not schema or (t not in _MAPS and t not in _LISTS and type(child) is not list)
        if type(child) is not dict and (schema or type(child) is not list):
            break
        node = child
        if schema:
            anchor, at = child, i + 1
    if type(anchor) is not dict:
        raise _Unplaced(tokens)
    return anchor, at


def _closer(pieces: list) -> dict:
    """The merged node's closing: no property but those its pieces declare (by name or by pattern)."""
    out: dict = {}
    for piece in pieces:
        for key in ("properties", "patternProperties"):
            if type(piece.get(key)) is dict:
                out.setdefault(key, {}).update({name: {} for name in piece[key]})
    out["additionalProperties"] = False
    return out


def _wrapped(root: Any, tokens: tuple, at: int, added: dict, joined: set, pushed: set) -> dict:
    """`added` (keywords for the walk's node at `tokens`) as a schema for the node at `tokens[:at]`: under the
    properties, pattern properties and items between them; _Unplaced where a step is one no such schema can
    name alone (a branch, an `additionalProperties` that depends on its neighbours)."""
    if at == len(tokens):
        return added
    t = tokens[at]
    nxt = tokens[at + 1] if at + 1 < len(tokens) else MISSING
    if t in ("properties", "patternProperties", "dependentSchemas") and type(nxt) is str:
        return {t: {nxt: _wrapped(root, tokens, at + 2, added, joined, pushed)}}
    if t == "prefixItems" and type(nxt) is int:
        return {t: [{} for _ in range(nxt)] + [_wrapped(root, tokens, at + 2, added, joined, pushed)]}
    if t == "items" and not any("prefixItems" in p or type(p.get("items")) is list
                                for p in _pieces_at(root, tokens[:at], joined, pushed)):
        return {t: _wrapped(root, tokens, at + 1, added, joined, pushed)}
    raise _Unplaced(tokens)


# How a subschema's verdict reaches its holder's. A format the validator cannot check (`int32`) always passes. Where
# a subschema that passes more only ever makes the whole pass more (`properties`, `items`, `allOf`, `anyOf`,
# `then`/`else`, an `if` without a `then` (it then only names the properties it evaluates), a `$ref` from such a
# place...: "the same way"), the check accepts a little more than the tool means there, and the provider, which
# keeps the format, holds the rest. Under `not` the whole passes less (under two, more again). Under a `oneOf` of
# two or more branches (a second branch met), an `if` beside a `then` (`then` applied), or a `contains` beside a
# `maxContains` (one match too many) it goes either way: the check would reject what the tool means.
_SAME_ONE = ("items", "additionalItems", "additionalProperties", "unevaluatedItems", "unevaluatedProperties",
             "propertyNames", "then", "else")
_SAME_MAPS = ("properties", "patternProperties", "dependentSchemas", "dependencies")
_SAME_LISTS = ("allOf", "anyOf", "prefixItems", "items")


def _subschemas(node: dict, sign: int):
    """(each subschema `node` applies, its verdict's sign in the whole's: 1 the same way, -1 the other, 0 either)."""
    for k in _SAME_ONE:
        if type(node.get(k)) is dict:
            yield node[k], sign
    for k in _SAME_MAPS:
        if type(node.get(k)) is dict:
            yield from ((v, sign) for v in node[k].values())
    for k in _SAME_LISTS:
        if type(node.get(k)) is list:
            yield from ((v, sign) for v in node[k])
    if "not" in node:
        yield node["not"], -sign
    if type(node.get("oneOf")) is list:
        yield from ((v, sign if len(node["oneOf"]) < 2 else 0) for v in node["oneOf"])
    if "if" in node:
        yield node["if"], 0 if "then" in node else sign
    if "contains" in node:
        yield node["contains"], 0 if "maxContains" in node else sign


def _uncheckable_flips(root: Any, dropped: list) -> bool | None:
    """Whether `root` names a format the validator cannot check where its always passing can turn the verdict of
    the whole the other way (under a `not`, a `oneOf`, an `if` beside a `then`, ...: see _subschemas), or in a
    subschema the sent schema drops (`dropped`: there no provider checks it either), following each `$ref` from
    where it stands; None where a reference cannot be followed (an anchor, another resource)."""
    seen: set = set()
    stack = [(root, 1), *((v, 0) for v in dropped)]
    while stack:
        node, sign = stack.pop()
        if type(node) is not dict or (id(node), sign) in seen:
            continue
        seen.add((id(node), sign))
        f = node.get("format")
        if sign != 1 and type(f) is str and f not in CHECKED_FORMATS:
            return True
        if node is not root and "$id" in node:
            return None  # (its references resolve against another base)
        for key in ("$ref", "$dynamicRef", "$recursiveRef"):
            if key in node:
                target = _target(root, node[key]) if key == "$ref" and type(node[key]) is str else MISSING
                if target is MISSING:
                    return None
                stack.append((target, sign))
        stack.extend(_subschemas(node, sign))
    return False


def _dropped(pairs: tuple, meant: Any) -> list:
    """The subschemas the enforced changes in `pairs` leave out of the sent schema (a `not`, a `then`, ...), in
    `meant`."""
    out: list = []
    for _, rec in pairs:
        keyword = rec[2][-1]
        # (no subschema: a value, a format, a regex; a `oneOf`'s branches are sent, as `anyOf`)
        found, v = _at(meant, rec[2]) if keyword not in ("oneOf", "anyOf", "format", "pattern", "enum", "const") else (False, None)
        if found:
            out.extend(v.values() if keyword in _SAME_MAPS and type(v) is dict else v if type(v) is list else [v])
    return out


def _formats_named(schema: Any) -> tuple[list, bool]:
    """(the formats the validator checks that `schema` names anywhere, which the check asserts (dropped or kept: a
    kept one decides between `oneOf` branches as much), whether it names one the validator cannot check)."""
    out: set = set()
    unknown = False
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
            stack.extend(v for v in node.values() if type(v) is dict or type(v) is list)
        elif type(node) is list:
            stack.extend(v for v in node if type(v) is dict or type(v) is list)
    return sorted(out), unknown


# --------------------------------------------------------------------------- the compiler's step


def _in_2020_12(schema: Any, r: Any) -> Any:
    """`schema` (a copy the caller owns), where it declares an older dialect, written whole in 2020-12 terms as the
    compile writes a form it sends (exact), so that the walk's paths (read in those terms) find their places, and
    what meaning() adds is read where draft-07 would ignore it (beside a `$ref`)."""
    declared = dialect_of(schema["$schema"]) if type(schema) is dict and "$schema" in schema else None
    if declared not in OLDER:
        return schema
    from toolcast.sendable import _tuple_items

    out = as_2020_12(schema, declared, r, [])
    _tuple_items(out, r, [])
    return out


def apply(walk: Any, compiled: Any, schema: Any, r: Any, describe_places: bool) -> tuple | None:
    """For a walk whose only blocking findings are lossy changes: (the compiled schema, with the notes
    unless `describe_places` is false, and the result's enforcement: (Enforced tuple, the places of the
    enforced findings, the ArgumentCheck)), the notes' records added to the walk; None when a loss
    cannot be checked on the arguments."""
    pairs = enforceable(walk.trans, walk.lossy_codes, schema, r)
    if pairs is None:
        return None
    from toolcast.validation import ArgumentCheck

    try:
        meant = meaning(_in_2020_12(copy_json(schema), r), walk.trans, r)
    except _Unplaced:
        return None
    named, unknown = _formats_named(meant)
    if unknown and _uncheckable_flips(meant, _dropped(pairs, meant)) is not False:
        return None  # (a format the validator cannot check decides a `oneOf`, a `not`, ..., or is dropped with one)
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
