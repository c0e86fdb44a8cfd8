"""Independent oracle: would the provider accept this tool exactly as toolcast sends it, strict or not?

Written only from ``/work/shared/reference/provider-facts.md`` ("PF"): §1.1-§1.2 and §1.7 (OpenAI
tool shapes, names, references), §2.1 (Anthropic tool shape), §3.1-§3.3 (Gemini and Vertex
declarations, the `parameters` Schema and `parametersJsonSchema`), §5 (C-7, C-10), §8 and above
all §9 ("what the form sent without strict must satisfy ... These apply whatever the strict flag
says: a request carrying one such tool fails as a whole"). It imports nothing from toolcast; it
builds on the sibling oracles (``openai_strict``, ``anthropic``, ``gemini``), which hold the
shape and name rules and the strict subsets.

``sent_violations(tool, target, api, status)`` -> sorted list of (rule, path) for one tool as
sent: the rules every sent form must meet (below), plus the strict subset of the provider's own
oracle when the tool is sent strict. ``openai_violations``, ``anthropic_violations``,
``gemini_violations`` are the same per provider. Empty list == accepted.

Rule ids of this module (the sibling oracles' ids are passed through unchanged)
--------------------------------------------------------------------------------
Every provider, every form
  not-unicode-text        a string (a key too) holding an unpaired UTF-16 surrogate: a request is UTF-8
                          JSON text (RFC 8259 §8.1), which cannot carry one (checked first, alone)
  root-admits-null        the root admits null (``nullable: true``, a type list with "null", null in
                          a root enum/const): the arguments are always an object (PF §3.3 Root; §9
                          OpenAI "must have type 'object'"; §8 Gemini "should be of type OBJECT").
OpenAI (``parameters``; any strict flag)
  root-not-object         ``type`` is not exactly "object" (a type list is not an object root)   PF §9
  root-keyword            ``oneOf``/``anyOf``/``allOf``/``enum``/``not`` at the top level         PF §9
  not-draft-2020-12       not a valid 2020-12 schema (jsonschema metaschema)     conservative: sheet silent
  ref-not-local           a ``$ref`` that is not ``#`` or a ``#/...`` JSON pointer (external, URI
                          built on ``$id``, or a plain-name anchor)    PF §1.7 "External $ref: unsupported"
  ref-unresolvable        a ``#/...`` pointer that names no schema in the document        PF §1.7 (local)
  ref-under-embedded-id   a ``#...`` pointer inside a subschema carrying ``$id``: it resolves against
                          that resource, i.e. by ``$id`` (conservative: "no $id-based refs")
Anthropic (``input_schema``; strict or not)
  root-combinator         ``oneOf``/``allOf``/``anyOf`` at the top level                     PF §8, §9
  property-key            a ``properties`` key anywhere not matching ``^[a-zA-Z0-9_.-]{1,64}$`` PF §8
  not-draft-2020-12       invalid draft 2020-12 ("It must match JSON Schema draft 2020-12")    PF §8
  ref-not-local, ref-unresolvable, ref-under-embedded-id    as for OpenAI   PF §2.3 "External $ref unsupported"
Gemini / Vertex ``parametersJsonSchema`` (sent without strict; "Gemini has no loose mode")
  root-not-object         ``type`` not exactly "object"                                  PF §3.3 Root, §8
  root-keyword            ``anyOf``/``oneOf``/``allOf``/``enum``/``not`` at the root  PF §8 (top-level anyOf
                          rejected); the rest by the OpenAI reading of §9 (conservative)
  ref-siblings            ``$ref`` beside a keyword not starting with ``$``                        PF §3.3
  ref-not-local           a ``$ref`` other than ``#`` or ``#/$defs/<name>``   PF §3.3 ($ref, $defs listed)
  ref-unresolvable        ``#/$defs/<name>`` with no such root definition                         PF §3.3
  ref-under-embedded-id   as above (a ref resolved against a non-root ``$id``)          conservative
  recursion-through-required  a cycle of references none of whose steps is a property left out of
                          its object's ``required`` ("may only be used within non-required
                          properties. (Nullable properties are not sufficient.)")        PF §3.3, C-10
  not-draft-2020-12       invalid 2020-12 (e.g. draft-04 boolean ``exclusiveMinimum``)  PF §8 by analogy
  any-of-not-alone        (Vertex) ``anyOf``, or ``oneOf`` (read as anyOf), beside any other keyword  PF §8, §3.3
  parameter-name          (Vertex) a ``properties`` key outside ``^[a-zA-Z_][a-zA-Z0-9_]{0,63}$``  PF §3.1
  enum-type               an ``enum`` holding a value that is no string or number ("supported for strings
                          and numbers"; the declaration is read in every mode)                    PF §3.3
  Keywords outside the §3.3 list are NOT flagged here ("While the full JSON Schema may be sent,
  not all features are supported"); the strict reading (``gemini.violations``) flags them.
Gemini / Vertex ``parameters`` (OpenAPI subset; the same strict or not)
  enum-type               ``enum`` on anything but STRING, or on Vertex an INTEGER with format enum whose values are
                          integers written as strings ("Invalid value at '…enum[0]' (TYPE_STRING)") PF §9, §3.2
  root-keyword            ``anyOf`` at the root                                 PF §8 (top-level anyOf)
  plus ``gemini.parameters_violations`` (PF §3.2, §8).

Readings where the sheet is silent are the strictest ones, as in the sibling oracles: a cycle of
references counts wherever it is in the document (used from the root or not); an ``items``,
``additionalProperties`` or ``anyOf`` step does not make recursion "non-required"; a typeless node
holding ``enum`` in ``parameters`` is not a STRING.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from typing import Any

from jsonschema import Draft202012Validator

from . import anthropic as anthropic_oracle
from . import facts
from . import gemini as gemini_oracle
from . import openai_strict as openai_oracle

__all__ = ["anthropic_violations", "gemini_violations", "json_schema_violations", "openai_violations",
           "parameters_enum_violations", "sent_violations", "subschemas"]

OPENAI_ROOT_FORBIDDEN = ("oneOf", "anyOf", "allOf", "enum", "not")  # PF §9, the 400 text
ANTHROPIC_ROOT_FORBIDDEN = ("oneOf", "allOf", "anyOf")  # PF §8, §9
GEMINI_ROOT_FORBIDDEN = ("anyOf", "oneOf", "allOf", "enum", "not")  # PF §8 + the §9 OpenAI reading

# (no format checks: `pattern` is ECMA-262, which jsonschema's regex check reads with Python's re)
_META = Draft202012Validator(Draft202012Validator.META_SCHEMA)
_MISSING = object()
_DRAFT_VERDICTS: dict[str, list[tuple[str, str]]] = {}

# Where a 2020-12 schema (or a draft-07 spelling a provider may read) holds subschemas.
_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_ONE = ("additionalProperties", "additionalItems", "unevaluatedProperties", "unevaluatedItems", "not", "if",
        "then", "else", "contains", "propertyNames", "contentSchema")
_LISTS = ("anyOf", "allOf", "oneOf", "prefixItems")


# ------------------------------------------------------------------------------------------
# Entry points
# ------------------------------------------------------------------------------------------

def sent_violations(tool: Any, target: str, api: str | None, status: str,
                    version: str | None = None) -> list[tuple[str, str]]:
    """(rule, path) pairs for one tool as toolcast sends it to `target` through `api`, sent with
    `status` "strict" or "non-strict" (Gemini and Vertex declarations carry no flag: the status
    says whether the strict reading applies). `version`: the rule version the tool was compiled
    under (a date, or a CompileResult's ``rules``), so the provider's facts are that version's
    reading of the documents (oracles/facts.py); None is OpenAI's reading of 2026-10-17 and the
    newest reading of the other families."""
    if version is not None and "@" in version:
        version = version.partition("@")[2]
    if not _utf8_text(tool):  # every provider, every form: a request is UTF-8 JSON text (RFC 8259 §8.1)
        return [("not-unicode-text", "#")]
    if target == "openai":
        return openai_violations(tool, api or "responses", version)
    if target == "anthropic":
        return anthropic_violations(tool, version)
    if target in ("gemini", "vertex"):
        return gemini_violations(tool, target, api or "parameters", strict=status == "strict", version=version)
    from . import more  # the targets added in issue 40: their own oracles (imported when needed)

    if target in more.TARGETS:
        return sorted(more.violations(tool, target, status, version))
    raise ValueError(f"unknown target {target!r}")


def openai_violations(tool: Any, api: str = "responses", version: str | None = None) -> list[tuple[str, str]]:
    """An OpenAI function tool, Responses (flat) or Chat (nested), whatever its `strict` flag:
    shape, name and (when strict) the strict subset from ``openai_strict`` under `version`'s
    reading; PF §9 on `parameters`."""
    out = {(v.rule, v.path) for v in openai_oracle.tool_violations(tool, api, profile=version or "2026-10-17")}
    if not isinstance(tool, dict):
        return sorted(out)
    fn, base = (tool, "#") if api == "responses" else (tool.get("function"), "#/function")
    if not isinstance(fn, dict):
        return sorted(out)
    params = fn.get("parameters")
    if params is None:  # PF §1.1: Chat may omit it, Responses may send null (no parameters)
        return sorted(out)
    at = f"{base}/parameters"
    if not isinstance(params, dict) or params.get("type") != "object":
        out.add(("root-not-object", at))  # PF §9
    if isinstance(params, dict):
        out |= {("root-keyword", f"{at}/{k}") for k in OPENAI_ROOT_FORBIDDEN if k in params}  # PF §9
        out |= _prefixed(at, _root_null(params) + _draft_2020_12(params) + _pointer_refs(params))
    return sorted(out)


def anthropic_violations(tool: Any, version: str | None = None) -> list[tuple[str, str]]:
    """A Messages API tool, strict or not: ``anthropic.tool_violations`` (shape, name, root object,
    2020-12, keys; the strict subset when strict) plus PF §8/§9 on every `input_schema`."""
    out = set(anthropic_oracle.tool_violations(tool, version))
    schema = tool.get("input_schema") if isinstance(tool, dict) else None
    if isinstance(schema, dict):
        at = "input_schema"
        key_rule = facts.reading("anthropic", version).property_key  # PF §8
        out |= {("root-combinator", f"{at}/{k}") for k in ANTHROPIC_ROOT_FORBIDDEN if k in schema}  # PF §8, §9
        out |= {("property-key", f"{at}{p}/properties/{k}") for p, n in subschemas(schema)
                for k in _keys(n) if not re.fullmatch(key_rule, k)}  # PF §8
        # (draft 2020-12 validity: checked by anthropic.tool_violations, PF §8)
        out |= _prefixed(at, _root_null(schema) + _pointer_refs(schema))
    return sorted(out)


def gemini_violations(decl: Any, provider: str = "gemini", api: str = "parameters", *,
                      strict: bool = False, version: str | None = None) -> list[tuple[str, str]]:
    """A Gemini API or Vertex AI function declaration: its shape and name (``gemini``), and its
    schema: `parameters` (PF §3.2, §8, §9) or `parametersJsonSchema` (PF §3.3, §8; the strict
    reading of ``gemini.violations`` too when sent strict)."""
    if not isinstance(decl, dict):
        return [("declaration-shape", "")]
    key = "parameters" if api == "parameters" else "parametersJsonSchema"
    other = "parametersJsonSchema" if key == "parameters" else "parameters"
    # (the declaration without its schema, read with the facts of the API it was compiled for)
    out = set(gemini_oracle.declaration_violations({k: v for k, v in decl.items() if k != key}, provider, version,
                                                   api=api))
    if other in decl:
        out.add(("wrong-parameter-form", other))  # toolcast's api decides the form
    if key not in decl:
        return sorted(out)
    schema = decl[key]
    if key == "parameters":
        out |= set(gemini_oracle.parameters_violations(schema, provider, version))
        out |= _prefixed(key, parameters_enum_violations(schema, provider))
        if isinstance(schema, dict):
            out |= _prefixed(key, _root_null(schema))
            if "anyOf" in schema:
                out.add(("root-keyword", f"{key}/anyOf"))  # PF §8
    else:
        if strict:
            out |= set(gemini_oracle.violations(schema, provider, version))
        out |= _prefixed(key, json_schema_violations(schema, provider, version))
    return sorted(out)


# ------------------------------------------------------------------------------------------
# Gemini / Vertex
# ------------------------------------------------------------------------------------------

def json_schema_violations(schema: Any, provider: str = "gemini", version: str | None = None) -> list[tuple[str, str]]:
    """What Gemini (or Vertex) rejects in a `parametersJsonSchema` sent without the strict reading."""
    f = gemini_oracle.facts_of(provider, "json-schema", version)
    if not isinstance(schema, dict) or schema.get("type") != "object":
        out = [("root-not-object", "#")]  # PF §3.3 Root, §8
        if not isinstance(schema, dict):
            return out
    else:
        out = []
    out += [("root-keyword", f"#/{k}") for k in GEMINI_ROOT_FORBIDDEN if k in schema]
    out += _root_null(schema) + _draft_2020_12(schema)
    defs = schema.get("$defs") if isinstance(schema.get("$defs"), dict) else {}
    for path, node, embedded in _walk(schema):
        if "$ref" in node:
            if [k for k in node if not (isinstance(k, str) and k.startswith("$"))]:
                out.append(("ref-siblings", path))  # PF §3.3
            ref = node["$ref"]
            if embedded and isinstance(ref, str) and ref.startswith("#"):
                out.append(("ref-under-embedded-id", path))
            elif not (ref == "#" or (isinstance(ref, str) and ref.startswith("#/$defs/") and "/" not in ref[8:])):
                out.append(("ref-not-local", path))
            elif ref != "#" and _unescape(ref[8:]) not in defs:
                out.append(("ref-unresolvable", path))
        # PF §8 "When using anyOf, it must be the only field set"; PF §3.3 `oneOf` "interpreted the same as anyOf"
        out += [("any-of-not-alone", path) for k in ("anyOf", "oneOf") if f.any_of_alone and k in node and len(node) > 1]
        if isinstance(node.get("enum"), list) and not all(
                isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in node["enum"]):
            out.append(("enum-type", path))  # PF §3.3
        if f.parameter_name is not None:
            out += [("parameter-name", f"{path}/properties/{k}") for k in _keys(node)
                    if not re.fullmatch(f.parameter_name, k)]  # PF §3.1
    out += [("recursion-through-required", f"#/$defs/{c}" if c else "#") for c in _required_cycles(schema, defs)]
    return out


def parameters_enum_violations(schema: Any, provider: str = "gemini") -> list[tuple[str, str]]:
    """PF §9: `enum` only on STRING, or on Vertex on INTEGER given as strings (integer literals) with `format: enum`."""
    out = []
    stack = [("#", schema)]
    while stack:
        path, node = stack.pop()
        if not isinstance(node, dict):
            continue
        if "enum" in node:
            t, values = node.get("type"), node["enum"]
            # (on INTEGER as the Schema's own example writes one: format enum, integers as strings)
            ok = t == "STRING" or (provider == "vertex" and t == "INTEGER" and node.get("format") == "enum"
                                   and isinstance(values, list)
                                   and all(isinstance(v, str) and re.fullmatch(r"-?[0-9]+", v) for v in values))
            if not ok:
                out.append(("enum-type", path))
        if isinstance(node.get("properties"), dict):
            stack += [(f"{path}/properties/{k}", v) for k, v in node["properties"].items()]
        for k in ("items", "additionalProperties"):
            if isinstance(node.get(k), dict):
                stack.append((f"{path}/{k}", node[k]))
        if isinstance(node.get("anyOf"), list):
            stack += [(f"{path}/anyOf/{i}", v) for i, v in enumerate(node["anyOf"])]
    return out


def _required_cycles(schema: dict, defs: dict) -> list[str]:
    """The reference targets ("" the root, else a root definition name) on a cycle of references
    whose every step passes through no property left out of its object's `required` (PF §3.3)."""
    graph: dict[str, set[str]] = {"": _required_refs({k: v for k, v in schema.items() if k != "$defs"})}
    graph.update({name: _required_refs(body) for name, body in defs.items()})
    on_cycle = []
    for start in graph:
        seen, todo = set(), list(graph[start])
        while todo:
            n = todo.pop()
            if n == start:
                on_cycle.append(start)
                break
            if n not in seen and n in graph:
                seen.add(n)
                todo += graph[n]
    return on_cycle


def _required_refs(body: Any) -> set[str]:
    """Targets of the `$ref`s reachable in `body` without stepping into a non-required property."""
    found: set[str] = set()
    stack = [body]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        ref = node.get("$ref")
        if ref == "#":
            found.add("")
        elif isinstance(ref, str) and ref.startswith("#/$defs/"):
            found.add(_unescape(ref[8:]))
        required = node.get("required") if isinstance(node.get("required"), list) else []
        for key, child in _children(node):
            if key[0] == "properties" and key[1] not in required:
                continue  # a non-required property: recursion through it is allowed
            stack.append(child)
    return found


# ------------------------------------------------------------------------------------------
# Shared checks
# ------------------------------------------------------------------------------------------

def _utf8_text(tool: Any) -> bool:
    """Whether every string of `tool` (keys included) is Unicode text, which UTF-8 can carry: a Python
    string may hold an unpaired UTF-16 surrogate (json.loads of a `\\ud800` escape), which no request can."""
    try:
        json.dumps(tool, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    except (TypeError, ValueError):
        return True  # (not JSON at all: the rules below say so)
    return True


def _root_null(schema: dict) -> list[tuple[str, str]]:
    """The root admits null: arguments are always an object (every provider, every form)."""
    t = schema.get("type")
    admits = (schema.get("nullable") is True or (isinstance(t, list) and "null" in t) or t == "null"
              or (isinstance(schema.get("enum"), list) and None in schema["enum"])
              or ("const" in schema and schema["const"] is None))
    return [("root-admits-null", "#")] if admits else []


def _draft_2020_12(schema: Any) -> list[tuple[str, str]]:
    """Not a valid draft 2020-12 schema (the metaschema). The
    verdict is kept per schema text: the same original schema is sent to every provider."""
    try:
        key = json.dumps(schema, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):  # not JSON at all
        return [("not-draft-2020-12", "#")]
    found = _DRAFT_VERDICTS.get(key)
    if found is None:
        error = next(iter(_META.iter_errors(schema)), None)
        found = [] if error is None else [
            ("not-draft-2020-12", "#" + "".join(f"/{_escape(p)}" for p in error.absolute_path))]
        _DRAFT_VERDICTS[key] = found
    return found


def _pointer_refs(schema: dict) -> list[tuple[str, str]]:
    """`$ref`s must be `#` or a `#/...` JSON pointer naming a schema in this document (PF §1.7,
    §2.3: external references are unsupported; conservative: none resolved by `$id`)."""
    out = []
    for path, node, embedded in _walk(schema):
        if "$ref" not in node:
            continue
        ref = node["$ref"]
        if not (isinstance(ref, str) and (ref == "#" or ref.startswith("#/"))):
            out.append(("ref-not-local", path))
        elif embedded:
            out.append(("ref-under-embedded-id", path))
        elif _resolve(schema, ref) is _MISSING:
            out.append(("ref-unresolvable", path))
    return out


def _resolve(doc: Any, ref: str) -> Any:
    node = doc
    for token in ref[2:].split("/") if ref != "#" else []:
        token = _unescape(token)
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return _MISSING
    return node if isinstance(node, (dict, bool)) else _MISSING


def subschemas(schema: Any) -> list[tuple[str, dict]]:
    """(JSON pointer, node) for every dict subschema of `schema`, the root included."""
    return [(p, n) for p, n, _ in _walk(schema)]


def _walk(schema: Any):
    """(pointer, node, under a non-root `$id`) for every dict subschema, through every 2020-12
    applicator (and draft-07's `definitions`, `dependencies`, tuple `items`)."""
    stack = [("#", schema, False, True)]
    while stack:
        path, node, embedded, is_root = stack.pop()
        if not isinstance(node, dict):
            continue
        embedded = embedded or (not is_root and isinstance(node.get("$id"), str))
        yield path, node, embedded
        stack += [(f"{path}/{'/'.join(_escape(str(k)) for k in key)}", child, embedded, False)
                  for key, child in _children(node)]


def _children(node: dict):
    """((keyword, name-or-index...), child) for every subschema position of `node`."""
    for k in _MAPS:
        if isinstance(node.get(k), dict):
            yield from (((k, name), v) for name, v in node[k].items())
    for k in _ONE:
        if isinstance(node.get(k), dict):
            yield (k,), node[k]
    for k in _LISTS:
        if isinstance(node.get(k), list):
            yield from (((k, i), v) for i, v in enumerate(node[k]))
    items = node.get("items")
    if isinstance(items, dict):
        yield ("items",), items
    elif isinstance(items, list):
        yield from ((("items", i), v) for i, v in enumerate(items))
    if isinstance(node.get("dependencies"), dict):
        yield from ((("dependencies", n), v) for n, v in node["dependencies"].items() if isinstance(v, dict))


def _keys(node: dict) -> list[str]:
    props = node.get("properties")
    return [str(k) for k in props] if isinstance(props, dict) else []


def _prefixed(at: str, found: list[tuple[str, str]]) -> set[tuple[str, str]]:
    return {(rule, at + path[1:]) for rule, path in found}


def _escape(token: Any) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return urllib.parse.unquote(token).replace("~1", "/").replace("~0", "~")
