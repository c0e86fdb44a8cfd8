"""Independent oracle: would xAI accept this emitted Chat Completions tool, and is its schema inside what
xAI guarantees (its `strict` is implicitly always true)?

Written only from docs/provider-facts-more.md §3 ("PFM §3": xAI's Structured Outputs page, which tool
schemas follow) and §7 (C-P4). It imports nothing from toolcast.

``sent_violations(tool)`` -> the rules every tool must meet (a 400 otherwise):
  tool-shape / tool-unknown-key / name-missing / description-invalid
  root-not-object        `parameters` not an object schema with `type` exactly "object" (conservative:
                         tool arguments are an object; the page is silent on the root)
  empty-variants         `enum` or `anyOf` with zero variants                         PFM §3 Rejected
  boolean-property       a property whose schema is `true` or `false`                  PFM §3 Rejected
  contains-count         `maxContains` / `minContains`                                  PFM §3 Rejected
  items-array            `items` given as an array                                      PFM §3 Rejected
``guarantee_violations(schema)`` -> what keeps a schema outside the guaranteed subset (a tool toolcast
calls strict must have none):
  best-effort-keyword    `not`, `if`/`then`/`else`, anything outside the supported list below
  all-of-many            `allOf` with more than one subschema
  format                 a `format` outside date, time, date-time, email, uuid, ipv4, ipv6, uri
  over-limit             minLength/maxLength > 2048, minItems/maxItems > 256, min/maxProperties > 64
  circular-ref           a `$ref` cycle ("non-circular references only")
  regex-feature          backreference, \\p{...}, \\b/\\B, lookaround, inline modifier in `pattern`
  ref-not-local / ref-unresolvable
Supported (kept): type, properties, required, additionalProperties (boolean), items, enum, const, anyOf,
oneOf, allOf (one subschema), $ref, $defs, pattern, format, the numeric bounds, the length/count bounds
within the figures, and the annotations description and title.
``tool_violations(tool, status)`` = sent_violations, plus guarantee_violations when status is "strict".
"""

from __future__ import annotations

import re
from typing import Any

from oracles.more_schema import properties_of, ref_violations, reference_graph_cycle, walk

FUNCTION_KEYS = {"name", "description", "parameters", "strict"}
FORMATS = {"date", "time", "date-time", "email", "uuid", "ipv4", "ipv6", "uri"}
SUPPORTED = {"type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "oneOf",
             "allOf", "$ref", "$defs", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
             "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "minProperties",
             "maxProperties", "description", "title"}
LIMITS = {"minLength": 2048, "maxLength": 2048, "minItems": 256, "maxItems": 256, "minProperties": 64,
          "maxProperties": 64}
# PFM §3 Regex: not supported. Checked outside character classes.
BAD_REGEX = re.compile(r"\\[1-9]|\\k<|\\[pP]\{|\\[bB]|\(\?<?[=!]|\(\?[a-zA-Z]+[):-]|\(\?\(")


def tool_violations(tool: Any, status: str = "strict") -> list[tuple[str, str]]:
    out = sent_violations(tool)
    if status == "strict" and not any(r in ("tool-shape", "root-not-object") for r, _ in out):
        out += guarantee_violations(tool["function"]["parameters"])
    return out


def sent_violations(tool: Any) -> list[tuple[str, str]]:
    if not isinstance(tool, dict) or tool.get("type") != "function" or not isinstance(tool.get("function"), dict):
        return [("tool-shape", "")]
    fn = tool["function"]
    out = [("tool-unknown-key", k) for k in tool if k not in ("type", "function")]
    out += [("tool-unknown-key", f"function/{k}") for k in fn if k not in FUNCTION_KEYS]
    if not isinstance(fn.get("name"), str) or not fn["name"]:
        out.append(("name-missing", "function/name"))
    if "description" in fn and not isinstance(fn["description"], str):
        out.append(("description-invalid", "function/description"))
    schema = fn.get("parameters")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return out + [("root-not-object", "function/parameters")]
    for at, node in walk(schema):
        for k in ("enum", "anyOf"):
            if isinstance(node.get(k), list) and not node[k]:
                out.append(("empty-variants", f"{at}/{k}"))
        out += [("boolean-property", f"{at}/properties/{k}") for k, v in properties_of(node).items()
                if isinstance(v, bool)]
        out += [("contains-count", f"{at}/{k}") for k in ("maxContains", "minContains") if k in node]
        if isinstance(node.get("items"), list):
            out.append(("items-array", f"{at}/items"))
    return out


def guarantee_violations(schema: dict) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for at, node in walk(schema):
        out += [("best-effort-keyword", f"{at}/{k}") for k in node if k not in SUPPORTED]
        if isinstance(node.get("allOf"), list) and len(node["allOf"]) > 1:
            out.append(("all-of-many", f"{at}/allOf"))
        if "format" in node and node["format"] not in FORMATS:
            out.append(("format", f"{at}/format"))
        out += [("over-limit", f"{at}/{k}") for k, cap in LIMITS.items()
                if isinstance(node.get(k), (int, float)) and not isinstance(node.get(k), bool) and node[k] > cap]
        if isinstance(node.get("pattern"), str) and BAD_REGEX.search(_outside_classes(node["pattern"])):
            out.append(("regex-feature", f"{at}/pattern"))
        if "additionalProperties" in node and not isinstance(node["additionalProperties"], bool):
            out.append(("best-effort-keyword", f"{at}/additionalProperties"))
    if reference_graph_cycle(schema):
        out.append(("circular-ref", "#"))
    return out + ref_violations(schema)


def _outside_classes(pattern: str) -> str:
    """The pattern with [...] classes blanked (inside a class, \\b is a backspace, not a boundary)."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            if not in_class:
                out.append(pattern[i:i + 2])
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
        elif c == "]" and in_class:
            in_class = False
        elif not in_class:
            out.append(c)
        i += 1
    return "".join(out)
