"""Independent oracle: is this a tool definition the MCP specification lets a server list (`tools/list`)?

Written only from docs/provider-facts-more.md §1 ("PFM §1": MCP 2025-11-25 and 2026-07-28, the
spec pages, schema.ts and the generated schema.json). It imports nothing from toolcast.

``tool_violations(tool, version)`` -> list of (rule, path); empty == what the spec requires. ``version``
is the rule version the tool was compiled under (a date, or "mcp@date"; None is the newest reading): the
facts a spec revision moves (the Tool's keys, the name rule, property schemas, external references) are
its reading in ``facts.py``. Rules:

  tool-shape            not an object                                                    PFM §1 Tool object
  tool-unknown-key      a key outside the Tool interface of that version (`execution` only 2025-11-25)
  name-invalid          `name` not a string matching ^[A-Za-z0-9_.-]{1,128}$ (a SHOULD; the conservative
                        reading, C-P6, treats it as required of a listed tool)            PFM §1 Tool name
  description-invalid   `description` present and not a string
  strict-key            a `strict` key (MCP has no strict flag; covered by tool-unknown-key too)
  input-not-object      `inputSchema` missing, not an object, or its `type` not exactly "object"
  property-not-object   (2025-11-25) a root `properties` value that is not an object: schema.json
                        types each as {type: object}, so `true`/`false` do not validate
  required-invalid      root `required` not a list of strings (schema.json)
  dialect-unknown       a `$schema` that names no JSON Schema dialect (a dialect MAY be declared; an
                        implementation must error on one it does not support)           PFM §1 Dialect
  not-<dialect>         not a valid schema of its declared dialect, or of 2020-12 when none is declared
                        ("Schemas MUST be valid according to their declared or default dialect")
  ref-not-local         (2026-07-28) a `$ref` that is not a local pointer: no network dereference, and
                        an unresolved external reference SHOULD be rejected              PFM §1 $ref
  ref-unresolvable      a local pointer that names nothing (the schema is not valid in its dialect)
"""

from __future__ import annotations

import re
from typing import Any

from oracles import facts as _facts
from oracles.more_schema import metaschema_violations, ref_violations

# $schema URI -> the metaschema its schemas are checked with (more_schema.metaschema_violations).
# (compared without the scheme and an empty fragment: http and https spellings both occur)
DIALECTS = {"json-schema.org/draft/2020-12/schema": "2020-12", "json-schema.org/draft/2019-09/schema": "2019-09",
            "json-schema.org/draft-07/schema": "draft-07", "json-schema.org/draft-06/schema": "draft-06",
            "json-schema.org/draft-04/schema": "draft-04"}


def tool_violations(tool: Any, version: str | None = None) -> list[tuple[str, str]]:
    f = _facts.reading("mcp", version)
    if not isinstance(tool, dict):
        return [("tool-shape", "")]
    out = [("tool-unknown-key", k) for k in tool if k not in f.tool_keys]
    if "strict" in tool:
        out.append(("strict-key", "strict"))
    if not isinstance(tool.get("name"), str) or not re.fullmatch(f.name, tool["name"]):
        out.append(("name-invalid", "name"))
    if "description" in tool and not isinstance(tool["description"], str):
        out.append(("description-invalid", "description"))
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return out + [("input-not-object", "inputSchema")]
    return out + schema_violations(schema, version)


def schema_violations(schema: dict, version: str | None = None) -> list[tuple[str, str]]:
    """What the spec requires of an `inputSchema` (already known to be an object with type "object")."""
    f = _facts.reading("mcp", version)
    out: list[tuple[str, str]] = []
    props = schema.get("properties")
    if f.property_schemas == "objects" and isinstance(props, dict):
        out += [("property-not-object", f"#/properties/{k}") for k, v in props.items() if not isinstance(v, dict)]
    req = schema.get("required")
    if "required" in schema and not (isinstance(req, list) and all(isinstance(r, str) for r in req)):
        out.append(("required-invalid", "#/required"))
    declared = schema.get("$schema")
    dialect = f.default_dialect if declared is None else DIALECTS.get(_uri(declared))
    if dialect is None:
        return out + [("dialect-unknown", "#/$schema")]
    out += metaschema_violations(schema, dialect)
    refs = ref_violations(schema)
    if not f.refs_local_only:  # nothing stated about external references; an unresolvable local one is invalid
        refs = [r for r in refs if r[0] != "ref-not-local"]
    return out + refs


def _uri(declared: object) -> str:
    """A $schema value without its scheme and its empty fragment."""
    text = declared if isinstance(declared, str) else ""
    text = text[:-1] if text.endswith("#") else text
    return text.split("://", 1)[1] if "://" in text else text
