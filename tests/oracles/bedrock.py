"""Independent oracle: would Amazon Bedrock's Converse API accept this emitted tool (`toolSpec`)?

Written only from docs/provider-facts-more.md §4 ("PFM §4": the bedrock-runtime service model in botocore,
and the opening of the structured-output guide). It imports nothing from toolcast. The strict subset is
not documented in what could be retrieved, so a tool sent with `strict: true` is itself a violation here
(the spec must never claim it).

``tool_violations(tool, version)`` -> list of (rule, path); empty == accepted. The facts (name rule, the
toolSpec's keys, whether a strict subset is documented) are the reading in ``facts.py`` of ``version`` (a
date, or "bedrock@date"; None is the newest reading):
  tool-shape            not `{"toolSpec": {...}}`, or a key outside name/description/inputSchema/strict
  name-invalid          `name` not matching [a-zA-Z0-9_-]+ with 1 to 64 characters          PFM §4 Name
  description-empty     `description` present and not a non-empty string (NonEmptyString, min 1)
  input-shape           `inputSchema` not `{"json": <object>}`
  root-not-object       the JSON schema's top-level `type` is not "object" ("must be object")
  strict-unknown        `strict: true` (the subset is not known: never claimed)
"""

from __future__ import annotations

import re
from typing import Any

from oracles import facts as _facts


def tool_violations(tool: Any, version: str | None = None) -> list[tuple[str, str]]:
    f = _facts.reading("bedrock", version)
    if not isinstance(tool, dict) or set(tool) != {"toolSpec"} or not isinstance(tool["toolSpec"], dict):
        return [("tool-shape", "")]
    spec = tool["toolSpec"]
    out = [("tool-shape", f"toolSpec/{k}") for k in spec if k not in f.spec_keys]
    if not isinstance(spec.get("name"), str) or not re.fullmatch(f.name, spec["name"]):
        out.append(("name-invalid", "toolSpec/name"))
    if "description" in spec and not (isinstance(spec["description"], str) and spec["description"]):
        out.append(("description-empty", "toolSpec/description"))
    if spec.get("strict") is True and not f.strict_subset:
        out.append(("strict-unknown", "toolSpec/strict"))
    schema = spec.get("inputSchema")
    if not isinstance(schema, dict) or set(schema) != {"json"} or not isinstance(schema["json"], dict):
        return out + [("input-shape", "toolSpec/inputSchema")]
    if schema["json"].get("type") != "object":
        out.append(("root-not-object", "toolSpec/inputSchema/json"))
    return out
