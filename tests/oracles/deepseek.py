"""Independent oracle: would DeepSeek accept this emitted Chat Completions tool (strict mode, Beta)?

Written only from docs/provider-facts-more.md §2 ("PFM §2": DeepSeek's Tool Calls guide, "`strict` Mode
(Beta)" and "Support Json Schema Types In `strict` Mode") and §7 (C-P1..C-P3, C-P7). It imports nothing
from toolcast.

``tool_violations(tool, version)`` -> list of (rule, path); empty == accepted. The shape and name always; a
tool with ``strict: true`` also under the strict subset. The facts a docs change moves (name rule, keys,
formats, types, keywords) are the reading in ``facts.py`` of ``version`` (a date, or "deepseek@date"; None
is the newest reading):

  tool-shape / tool-unknown-key / name-invalid / description-invalid / strict-not-bool   PFM §2 Tool shape, Name
  root-not-object        `parameters` not an object schema with `type` exactly "object" (conservative:
                         DeepSeek is silent on the root; the OpenAI-compatible reading)
  unsupported-keyword    a keyword outside the documented list: type, properties, required,
                         additionalProperties, items, enum, anyOf, $ref, $def/$defs (C-P2), description,
                         pattern, format, and for numbers const, default, minimum, maximum,
                         exclusiveMinimum, exclusiveMaximum, multipleOf. minLength, maxLength, minItems,
                         maxItems are named unsupported; allOf, oneOf, not, title, ... are unlisted.
  unsupported-type       a `type` outside object, string, number, integer, boolean, array, and `null`
                         (null is unlisted; accepted here by reading C-P7: optional fields need it)
  number-keyword         const/default/minimum/... on a node that is not only number/integer
  not-closed             an object without `additionalProperties: false`
  not-all-required       an object whose `required` is not every key of `properties`
  format                 a `format` other than email, hostname, ipv4, ipv6, uuid
  items-not-schema       `items` that is not one schema
  enum-not-scalar        an enum value that is an object or array
  ref-not-local / ref-unresolvable   a `$ref` that is not a local pointer naming a schema
  not-2020-12            invalid JSON Schema ("The server will validate the JSON Schema")
"""

from __future__ import annotations

import re
from typing import Any

from oracles import facts as _facts
from oracles.more_schema import metaschema_violations, properties_of, ref_violations, types_of, walk


def tool_violations(tool: Any, version: str | None = None) -> list[tuple[str, str]]:
    f = _facts.reading("deepseek", version)
    if not isinstance(tool, dict) or tool.get("type") != "function" or not isinstance(tool.get("function"), dict):
        return [("tool-shape", "")]
    fn = tool["function"]
    out = [("tool-unknown-key", k) for k in tool if k not in ("type", "function")]
    out += [("tool-unknown-key", f"function/{k}") for k in fn if k not in f.function_keys]
    if not isinstance(fn.get("name"), str) or not re.fullmatch(f.name, fn["name"]):
        out.append(("name-invalid", "function/name"))
    if "description" in fn and not isinstance(fn["description"], str):
        out.append(("description-invalid", "function/description"))
    if "strict" in fn and not isinstance(fn["strict"], bool):
        out.append(("strict-not-bool", "function/strict"))
    schema = fn.get("parameters")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return out + [("root-not-object", "function/parameters")]
    if fn.get("strict") is True:
        out += violations(schema, version)
    return out


def violations(schema: dict, version: str | None = None) -> list[tuple[str, str]]:
    """What DeepSeek's strict mode rejects in a parameters schema."""
    f = _facts.reading("deepseek", version)
    allowed = f.allowed | f.number_only
    out: list[tuple[str, str]] = []
    for at, node in walk(schema):
        types = types_of(node)
        out += [("unsupported-keyword", f"{at}/{k}") for k in node if k not in allowed]
        out += [("unsupported-type", at) for t in types if t not in f.types]
        if any(k in node for k in f.number_only) and not (types and types <= {"number", "integer", "null"}):
            out.append(("number-keyword", at))
        if "object" in types or "properties" in node:
            if node.get("additionalProperties") is not False:
                out.append(("not-closed", at))
            req = node.get("required") if isinstance(node.get("required"), list) else []
            if set(properties_of(node)) != set(req):
                out.append(("not-all-required", at))
        if "format" in node and node["format"] not in f.formats:
            out.append(("format", at))
        if "items" in node and not isinstance(node["items"], dict):
            out.append(("items-not-schema", at))
        if isinstance(node.get("enum"), list) and any(isinstance(v, (dict, list)) for v in node["enum"]):
            out.append(("enum-not-scalar", at))
    return out + ref_violations(schema) + metaschema_violations(schema, "2020-12")
