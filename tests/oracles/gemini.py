"""Independent oracle: would the Gemini API (or Vertex AI) accept this function declaration's parametersJsonSchema or parameters?

Written only from ``/work/shared/reference/provider-facts.md`` §3.1 (declaration and names),
§3.3 (the `parametersJsonSchema` keyword list), §5 (C-6 description, C-7 names, C-10 recursion)
and §8 (root object; on Vertex, anyOf as the only field of its schema). It imports nothing from toolcast. Where the sheet is unsure it takes the
strictest reading: keywords outside the documented list are violations (they are "likely
ignored", so a schema relying on them is not enforced), recursion is a violation (allowed only
"to a limited degree"), and on Vertex the documented parameter-name rule applies here too.

For `parameters` (the OpenAPI `Schema` subset) it follows §3.2 and §8: only the Schema's fields,
`type` one uppercase value of the Type enum (a list is rejected), enums of strings, `format` one
that does something (the proto's older list; Vertex adds email and byte), no `additionalProperties`
on the Gemini API (Vertex has it), no `$ref`/`$defs` (an inlined form is what the SDK sends), a
root of type OBJECT, `properties` only on an OBJECT, no empty `properties` (rejected in 2025), and on
Vertex `anyOf` alone in its node and the parameter-name rule.

``declaration_violations(decl, provider="gemini"|"vertex", version=None)`` -> list of (rule, path).
``request_violations(tools)`` -> the shape of the request's ``tools`` value.

The facts a docs change can move (the name and parameter-name rules, the declaration's keys, the
listed keywords and formats, the Schema's fields, types and formats, `anyOf` alone) are read from
``facts.py``: families ``gemini``/``vertex`` (`parametersJsonSchema`) and ``gemini-parameters``/
``vertex-parameters`` (`parameters`), at the rule version the declaration was compiled under
(``version``: a date, or a CompileResult's ``rules``; None is the newest reading).
"""

from __future__ import annotations

import re
from typing import Any

from . import facts as _facts


def facts_of(provider: str, api: str, version: str | None = None) -> _facts.Facts:
    """The reading for target `provider` ("gemini" or "vertex") through `api` ("parameters" or
    "json-schema") at `version` (a date, or "family@date" of either of the target's families)."""
    family = f"{provider}-parameters" if api == "parameters" else provider
    if version is not None and "@" in version:
        version = version.partition("@")[2]
    return _facts.reading(family, version)


def declaration_violations(decl: Any, provider: str = "gemini", version: str | None = None, *,
                           api: str | None = None) -> list[tuple[str, str]]:
    """`api`: the API the declaration was compiled for, whose family's facts apply (by default the
    form it carries: `parameters`, else `parametersJsonSchema`)."""
    if not isinstance(decl, dict):
        return [("declaration-shape", "")]
    api = api or ("parameters" if "parameters" in decl else "json-schema")
    f = facts_of(provider, api, version)
    out = [("unknown-key", k) for k in decl if k not in f.declaration_keys]
    if "parameters" in decl and "parametersJsonSchema" in decl:
        out.append(("both-parameter-forms", ""))  # mutually exclusive
    if not isinstance(decl.get("name"), str) or not re.fullmatch(f.name, decl["name"]):
        out.append(("name-invalid", "name"))
    if f.description_required and not isinstance(decl.get("description"), str):
        out.append(("description-missing", "description"))  # C-6: always send one
    if "parameters" in decl:
        return out + parameters_violations(decl["parameters"], provider, version)
    schema = decl.get("parametersJsonSchema")
    if schema is None:
        return out
    return out + violations(schema, provider, version)


def parameters_violations(schema: Any, provider: str = "gemini", version: str | None = None) -> list[tuple[str, str]]:
    """What the `parameters` Schema (OpenAPI subset) of PF §3.2 rejects in `schema`."""
    if not isinstance(schema, dict) or schema.get("type") != "OBJECT":
        return [("root-not-object", "#")]  # PF §8
    f = facts_of(provider, "parameters", version)
    out: list[tuple[str, str]] = []
    fields = f.schema_fields
    parameter_name = f.parameter_name
    stack = [("#", schema)]
    while stack:
        path, node = stack.pop()
        if not isinstance(node, dict):
            out.append(("not-a-schema", path))
            continue
        out += [("unknown-field", f"{path}/{k}") for k in node if k not in fields]
        t = node.get("type")
        if t is not None and t not in f.schema_types:
            out.append(("type-not-one-enum-value", path))  # a list: "Proto field is not repeating"
        if "nullable" in node and not isinstance(node["nullable"], bool):
            out.append(("nullable-not-bool", path))
        if "enum" in node and not (isinstance(node["enum"], list) and all(isinstance(x, str) for x in node["enum"])):
            out.append(("enum-not-strings", path))
        if "format" in node and node["format"] not in f.schema_formats:
            out.append(("format", path))
        props = node.get("properties")
        if props is not None:
            if t != "OBJECT":
                out.append(("properties-not-on-object", path))  # PF §8: "only allowed for OBJECT type"
            if not isinstance(props, dict) or not props:
                out.append(("properties-empty", path))
            else:
                stack += [(f"{path}/properties/{k}", v) for k, v in props.items()]
                if parameter_name is not None:
                    out += [("parameter-name", f"{path}/properties/{k}") for k in props
                            if not re.fullmatch(parameter_name, k)]
        order = node.get("propertyOrdering")
        if order is not None and not (isinstance(order, list) and isinstance(props, dict) and set(order) <= set(props)):
            out.append(("property-ordering", path))
        if "items" in node:
            stack.append((f"{path}/items", node["items"]))
        if isinstance(node.get("additionalProperties"), dict):
            stack.append((f"{path}/additionalProperties", node["additionalProperties"]))
        if "anyOf" in node:
            if not isinstance(node["anyOf"], list) or not node["anyOf"]:
                out.append(("any-of-empty", path))
            else:
                stack += [(f"{path}/anyOf/{i}", v) for i, v in enumerate(node["anyOf"])]
            if f.any_of_alone and len(node) > 1:
                out.append(("any-of-not-alone", path))  # PF §8
        if t is None and "anyOf" not in node and f.type_required:
            out.append(("type-missing", path))  # the Gemini API proto: type is required
    return out


def violations(schema: Any, provider: str = "gemini", version: str | None = None) -> list[tuple[str, str]]:
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return [("root-not-object", "#")]  # PF §3.3 root, §8
    f = facts_of(provider, "json-schema", version)
    out = [("root-combinator", k) for k in ("anyOf", "oneOf") if k in schema]
    defs = schema.get("$defs") if isinstance(schema.get("$defs"), dict) else {}
    for path, node in _walk(schema, "#"):
        out += [("unlisted-keyword", f"{path}/{k}") for k in node if k not in f.listed]
        t = node.get("type")
        if t is not None and not ((isinstance(t, str) and t in f.types)
                                  or (isinstance(t, list) and t and set(t) <= f.types)):
            out.append(("type-invalid", path))
        if "format" in node and node["format"] not in f.formats:
            out.append(("format", path))
        if "enum" in node and not (isinstance(node["enum"], list) and all(
                isinstance(x, str) or (isinstance(x, (int, float)) and not isinstance(x, bool)) for x in node["enum"])):
            out.append(("enum-not-strings-or-numbers", path))
        if "$ref" in node:
            if [k for k in node if not k.startswith("$")]:
                out.append(("ref-siblings", path))  # only `$` keywords may stand beside $ref
            ref = node["$ref"]
            if not (isinstance(ref, str) and ref.startswith("#/$defs/") and _def_name(ref) in defs):
                out.append(("ref-not-local", path))
        if f.any_of_alone and "anyOf" in node and len(node) > 1:
            out.append(("any-of-not-alone", path))  # PF §8: "it must be the only field set"
        if f.parameter_name is not None and isinstance(node.get("properties"), dict):
            out += [("parameter-name", f"{path}/properties/{k}") for k in node["properties"]
                    if not re.fullmatch(f.parameter_name, k)]
    if _recursive(schema, defs):
        out.append(("recursive", "#"))
    return out


def request_violations(tools: Any) -> list[str]:
    """The request's `tools`: a list holding one {"functionDeclarations": [...]} entry."""
    if tools == []:
        return []
    if not (isinstance(tools, list) and len(tools) == 1 and isinstance(tools[0], dict)
            and set(tools[0]) == {"functionDeclarations"} and isinstance(tools[0]["functionDeclarations"], list)):
        return ["tools-shape"]
    names = [d.get("name") for d in tools[0]["functionDeclarations"]]
    return ["duplicate-name"] if len(names) != len(set(names)) else []


def _walk(node: Any, path: str):
    stack = [(path, node)]
    while stack:
        p, n = stack.pop()
        if not isinstance(n, dict):
            continue
        yield p, n
        for key in ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas"):
            if isinstance(n.get(key), dict):
                stack += [(f"{p}/{key}/{k}", v) for k, v in n[key].items()]
        for key in ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"):
            if isinstance(n.get(key), dict):
                stack.append((f"{p}/{key}", n[key]))
        for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
            if isinstance(n.get(key), list):
                stack += [(f"{p}/{key}/{i}", v) for i, v in enumerate(n[key])]


def _recursive(schema: dict, defs: dict) -> bool:
    def refs(n: Any) -> set[str]:
        found = set()
        for _, node in _walk(n, "#"):
            r = node.get("$ref")
            if r == "#":
                found.add("")
            elif isinstance(r, str) and r.startswith("#/$defs/"):
                found.add(_def_name(r))
        return found

    graph = {"": refs({k: v for k, v in schema.items() if k != "$defs"}), **{k: refs(v) for k, v in defs.items()}}
    for start in graph:
        seen, todo = set(), list(graph[start])
        while todo:
            n = todo.pop()
            if n == start:
                return True
            if n not in seen and n in graph:
                seen.add(n)
                todo += graph[n]
    return False


def parameters_as_json_schema(node: Any) -> Any:
    """A `parameters` Schema read as the JSON Schema it means (PF §3.2, OpenAPI 3.0.3), for checking
    what it accepts with a JSON Schema validator: lowercase types, `nullable: true` as a type union
    with null (and null in its enum), no `additionalProperties` as open (OpenAPI's default),
    `propertyOrdering` and `example` as annotations, and an INTEGER or NUMBER enum written as
    strings (Vertex's own example) as those numbers."""
    if not isinstance(node, dict):
        return node
    out: dict = {}
    for k, v in node.items():
        if k in ("propertyOrdering", "example", "nullable"):
            continue
        if k == "type" and isinstance(v, str):
            out[k] = v.lower()
        elif k == "properties" and isinstance(v, dict):
            out[k] = {n: parameters_as_json_schema(x) for n, x in v.items()}
        elif k in ("items", "additionalProperties") and isinstance(v, dict):
            out[k] = parameters_as_json_schema(v)
        elif k == "anyOf" and isinstance(v, list):
            out[k] = [parameters_as_json_schema(x) for x in v]
        else:
            out[k] = v
    t = out.get("type")
    if isinstance(out.get("enum"), list) and t in ("integer", "number"):
        out["enum"] = [_number(x) if isinstance(x, str) else x for x in out["enum"]]
    if node.get("nullable") is True and isinstance(t, str):
        out["type"] = [t, "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    return out


def _number(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        return float(text)


def _def_name(ref: str) -> str:
    """The definition a `#/$defs/...` reference names: its pointer token percent-decoded, then
    unescaped (`~1` is `/`, `~0` is `~`; RFC 6901, as JSON Schema reads a URI fragment)."""
    from urllib.parse import unquote

    return unquote(ref[8:]).replace("~1", "/").replace("~0", "~")
