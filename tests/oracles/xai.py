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
``tool_violations(tool, status, version)`` = sent_violations, plus guarantee_violations when status is
"strict". The facts a docs change moves (keys, formats, the supported list, the figures, regex features,
the keywords rejected everywhere, circular references) are the reading in ``facts.py`` of ``version`` (a
date, or "xai@date"; None is the newest reading).
"""

from __future__ import annotations

from typing import Any

from oracles import facts as _facts
from oracles.more_schema import properties_of, ref_violations, reference_graph_cycle, walk
from oracles.regex_features import uses_any


def tool_violations(tool: Any, status: str = "strict", version: str | None = None) -> list[tuple[str, str]]:
    out = sent_violations(tool, version)
    if status == "strict" and not any(r in ("tool-shape", "root-not-object") for r, _ in out):
        out += guarantee_violations(tool["function"]["parameters"], version)
    return out


def sent_violations(tool: Any, version: str | None = None) -> list[tuple[str, str]]:
    f = _facts.reading("xai", version)
    if not isinstance(tool, dict) or tool.get("type") != "function" or not isinstance(tool.get("function"), dict):
        return [("tool-shape", "")]
    fn = tool["function"]
    out = [("tool-unknown-key", k) for k in tool if k not in ("type", "function")]
    out += [("tool-unknown-key", f"function/{k}") for k in fn if k not in f.function_keys]
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
        out += [("contains-count", f"{at}/{k}") for k in sorted(f.rejected_everywhere) if k in node]
        if isinstance(node.get("items"), list):
            out.append(("items-array", f"{at}/items"))
    return out


def guarantee_violations(schema: dict, version: str | None = None) -> list[tuple[str, str]]:
    f = _facts.reading("xai", version)
    out: list[tuple[str, str]] = []
    for at, node in walk(schema):
        out += [("best-effort-keyword", f"{at}/{k}") for k in node if k not in f.supported]
        if isinstance(node.get("allOf"), list) and len(node["allOf"]) > 1:
            out.append(("all-of-many", f"{at}/allOf"))
        if "format" in node and node["format"] not in f.formats:
            out.append(("format", f"{at}/format"))
        out += [("over-limit", f"{at}/{k}") for k, cap in f.limits.items()
                if isinstance(node.get(k), (int, float)) and not isinstance(node.get(k), bool) and node[k] > cap]
        if isinstance(node.get("pattern"), str) and uses_any(node["pattern"], f.regex_unsupported):
            out.append(("regex-feature", f"{at}/pattern"))
        if "additionalProperties" in node and not isinstance(node["additionalProperties"], bool):
            out.append(("best-effort-keyword", f"{at}/additionalProperties"))
    if not f.circular_refs and reference_graph_cycle(schema):
        out.append(("circular-ref", "#"))
    return out + ref_violations(schema)
