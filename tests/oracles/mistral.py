"""Independent oracle: would Mistral accept this emitted Chat Completions tool?

Written only from docs/provider-facts-more.md §5 ("PFM §5": mistral-common's request validator and the
client SDK's Function model). It imports nothing from toolcast. What `strict` enforces is not documented,
so a tool sent with `strict: true` is itself a violation here (the spec must never claim it).

``tool_violations(tool, version)`` -> list of (rule, path); empty == accepted. The facts (name rule, keys,
dialect, whether a strict subset is documented) are the reading in ``facts.py`` of ``version`` (a date, or
"mistral@date"; None is the newest reading):
  tool-shape / tool-unknown-key     not {"type": "function", "function": {name, description?, parameters, strict?}}
  name-invalid          `name` outside ^[a-zA-Z0-9_-]{1,64}$ ("Function name was ... but must be ...")
  description-invalid   `description` present and not a string
  parameters-missing    no `parameters` object (the SDK model requires it)
  not-draft-07          `parameters` fails Draft7Validator.check_schema ("Invalid tool schema"), whose
                        check asserts the metaschema's formats (jsonschema >= 4.17, which mistral-common
                        requires): a `pattern` or `patternProperties` name Python's `re` cannot compile
  root-not-object       the root `type` is not "object" (conservative: the docs' every example; silent)
  strict-unknown        `strict: true`
"""

from __future__ import annotations

import re
from typing import Any

from oracles import facts as _facts
from oracles.more_schema import metaschema_violations


def tool_violations(tool: Any, version: str | None = None) -> list[tuple[str, str]]:
    f = _facts.reading("mistral", version)
    if not isinstance(tool, dict) or tool.get("type") != "function" or not isinstance(tool.get("function"), dict):
        return [("tool-shape", "")]
    fn = tool["function"]
    out = [("tool-unknown-key", k) for k in tool if k not in ("type", "function")]
    out += [("tool-unknown-key", f"function/{k}") for k in fn if k not in f.function_keys]
    if not isinstance(fn.get("name"), str) or not re.fullmatch(f.name, fn["name"]):
        out.append(("name-invalid", "function/name"))
    if "description" in fn and not isinstance(fn["description"], str):
        out.append(("description-invalid", "function/description"))
    if fn.get("strict") is True and not f.strict_subset:
        out.append(("strict-unknown", "function/strict"))
    schema = fn.get("parameters")
    if not isinstance(schema, dict):
        return out + [("parameters-missing", "function/parameters")]
    out += metaschema_violations(schema, f.dialect, formats=True)  # (check_schema asserts formats: PFM §5)
    if schema.get("type") != "object":
        out.append(("root-not-object", "function/parameters"))
    return out
