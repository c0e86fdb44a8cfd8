"""What the providers' documents say, per reading: the ONE mapping from rule version to documented facts.

Every independent oracle takes the facts a docs change can move from here, for every provider family
(``FAMILY_CHANGES``: openai, anthropic, gemini, gemini-parameters, vertex, vertex-parameters, mcp,
deepseek, xai, mistral, bedrock), at the rule version a tool was compiled under (``reading(family,
version)``; a CompileResult's ``rules`` is such a version). Every reading is written from the team's
provider fact sheet ("PF", cited by section; its public sources are cited by URL in ``spec/``), from
docs/provider-facts-more.md ("PFM") and from rejection messages users reported, never from
``spec/*.yaml`` or ``toolcast._tables``: where the compiler's rule data and this file disagree, a test
fails, and one of the two readings of the docs is wrong.

A reading is named by the date of the rule version it belongs to and states only what the documents
changed since the reading before it. A rule version with no reading of its own has the facts of the
newest reading dated on or before it, so a version that changes nothing the oracles check needs no
entry here. A version that does change one (a format, a keyword, a limit, a name rule, a budget) adds a
reading with the same date to its family (spec/README.md, the maintainer workflow, step 6).
``openai(version)`` and ``OPENAI`` are OpenAI's readings as ``Reading`` objects (openai_strict.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

# PF §1.6 string `format`: the nine formats of the guide; "'uri' is not a valid format" (peers §4).
NINE_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})

# PF §1.4-§1.7: what strict mode keeps, whatever the reading: structure, enum/anyOf/$ref/$defs, the
# description annotation.
_STRUCTURE = frozenset({"type", "properties", "required", "additionalProperties", "items", "enum", "anyOf",
                        "$ref", "$defs", "description"})
# PF §6 "≈2025-05-20": Structured Outputs adds pattern, format, numeric bounds and minItems/maxItems.
_WIDENING = frozenset({"pattern", "format", "multipleOf", "minimum", "maximum", "exclusiveMinimum",
                       "exclusiveMaximum", "minItems", "maxItems"})
# PF §1.6 C-1 and §6 2026-07-13 (openai-node docs): minLength/maxLength unsupported only by fine-tuned
# models; const (PF §1.5, unlisted-accepted) and title (PF §1.6, S O-JAVA allowlist).
_BASE_MODEL_EXTRAS = frozenset({"minLength", "maxLength", "const", "title"})


@dataclass(frozen=True)
class Reading:
    """The facts one reading of OpenAI's strict-mode documents gives."""

    date: str
    allowlist: frozenset  # keywords a compiled strict schema may carry
    formats: frozenset  # `format` values strict mode accepts
    limits: dict  # PF §1.8, the counters of openai_strict.LIMITS


# Each entry: what changed from the reading before it (the first states everything).
OPENAI_CHANGES: dict[str, dict] = {
    # Strict mode launches (PF §1.8 "Launch docs (2024-08)" column: community t/918388, t/974416). No
    # pattern, format, bounds or lengths yet (PF §6 ≈2025-05-20 row names what came later).
    "2024-08-06": {
        "allowlist": _STRUCTURE,
        "formats": frozenset(),
        "limits": {"properties": 100, "depth": 5, "string_chars": 15_000, "enum_values": 500,
                   "big_enum_threshold": 250, "big_enum_chars": 7_500},
    },
    # The widening (PF §6 ≈2025-05-20; PF §1.6): the nine keywords and the nine formats.
    "2025-05-20": {"allowlist+": _WIDENING, "formats": NINE_FORMATS},
    # The guide's current limits (PF §1.8 "Current docs (O-SO, 2025-11 → 2026-09)"; the day of the
    # raise is not pinned, the oldest copy that shows them is headed 2025-11-30).
    "2025-11-30": {"limits": {"properties": 5_000, "depth": 10, "string_chars": 120_000, "enum_values": 1_000,
                              "big_enum_threshold": 250, "big_enum_chars": 15_000}},
    # Lookaround rejected (a regex fact the oracles do not check) and the 1,024-character description
    # cap no longer documented: nothing here changes for the schema oracle.
    # Base models accept minLength, maxLength, const and title (PF §1.6 C-1; §6 2026-07-13).
    "2026-10-17": {"allowlist+": _BASE_MODEL_EXTRAS},
}


def _readings(changes: dict[str, dict]) -> dict[str, Reading]:
    out: dict[str, Reading] = {}
    last: Reading | None = None
    for date in sorted(changes):
        change = changes[date]
        if last is None:
            last = Reading(date, change["allowlist"], change["formats"], change["limits"])
        else:
            last = replace(
                last,
                date=date,
                allowlist=(change.get("allowlist", last.allowlist) | change.get("allowlist+", frozenset()))
                - change.get("allowlist-", frozenset()),
                formats=(change.get("formats", last.formats) | change.get("formats+", frozenset()))
                - change.get("formats-", frozenset()),
                limits={**last.limits, **change.get("limits", {})},
            )
        out[date] = last
    return out


OPENAI: dict[str, Reading] = _readings(OPENAI_CHANGES)


def openai(version: str) -> Reading:
    """The facts for OpenAI rule version `version` (a date): its reading, or the newest before it."""
    earlier = [d for d in OPENAI if d <= version]
    if not earlier:
        raise ValueError(f"no documented OpenAI reading on or before {version!r}; known: {sorted(OPENAI)}")
    return OPENAI[max(earlier)]


# ------------------------------------------------------------------------------------------------------
# Every other provider family: the same mapping, one dict of readings per family (spec/<family>/<date>.yaml
# names the versions; these name the facts). A reading states only what its documents changed since the
# reading before it: a key replaces the fact, `key+` adds to a set, `key-` takes from a set, and a dict
# value (limits, budgets) is merged key by key. The first reading of a family states everything. Written
# from the fact sheets: "PF" is the team's provider-facts (§2 Anthropic, §3 Gemini/Vertex, §5, §8, §9) and
# "PFM" docs/provider-facts-more.md (§1 MCP, §2 DeepSeek, §3 xAI, §4 Bedrock, §5 Mistral, §7 readings).
# ------------------------------------------------------------------------------------------------------

_TYPES = frozenset({"object", "array", "string", "integer", "number", "boolean", "null"})

# The Gemini API and Vertex declarations (PF §3.1), shared by each target's two families (one per API).
_GEMINI_DECLARATION = {
    # PF §3.1, the Gemini API text since 2025-10-15: letters, digits, `_ : . -`, at most 64.
    "name": r"^[a-zA-Z0-9_:.\-]{1,64}$",
    "declaration_keys": frozenset({"name", "description", "parameters", "parametersJsonSchema", "response",
                                   "responseJsonSchema", "behavior"}),
    "description_required": True,  # PF §3.1 "Required." (C-6: always send one)
    "parameter_name": None,  # property names: not documented on the Gemini API
    "any_of_alone": False,
}
_VERTEX_DECLARATION = {
    # PF §3.1, the Vertex proto (C-7: the stricter of its two texts): start with a letter or `_`, at most 64.
    "name": r"^[a-zA-Z_][a-zA-Z0-9_.\-]{0,63}$",
    "declaration_keys": frozenset({"name", "description", "parameters", "parametersJsonSchema", "response",
                                   "responseJsonSchema"}),  # `behavior` is the Gemini API's only
    "description_required": True,  # C-6: "Optional." on Vertex, but always sent (the conservative reading)
    "parameter_name": r"^[a-zA-Z_][a-zA-Z0-9_]{0,63}$",  # PF §3.1 tool.proto:241
    "any_of_alone": True,  # PF §8: "it must be the only field set"
}
# PF §3.3: the `parametersJsonSchema` keyword list (the `responseJsonSchema` list, applied by inference).
_JSON_SCHEMA_LISTED = frozenset({"$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum",
                                 "items", "prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf",
                                 "oneOf", "properties", "additionalProperties", "required", "propertyOrdering"})
# PF §3.2: the `parameters` Schema's fields (Vertex adds additionalProperties; ref/defs are never sent).
_SCHEMA_FIELDS = frozenset({"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
                            "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength",
                            "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum",
                            "maximum"})
_SCHEMA_TYPES = frozenset({"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"})
# PF §3.2 `format`, C-8: the proto's older list, the formats that do something (the conservative reading).
_SCHEMA_FORMATS = frozenset({"float", "double", "int32", "int64", "enum", "date-time"})

FAMILY_CHANGES: dict[str, dict[str, dict]] = {
    "openai": OPENAI_CHANGES,
    # PF §2. Strict tool use in beta from 2025-11-14; GA about 2026-01-29 moved the parameter and dropped
    # the header (PF §2.2 History) and changed no fact below: GA has no reading of its own.
    "anthropic": {
        "2025-11-14": {
            "name": r"^[a-zA-Z0-9_-]{1,64}$",  # PF §2.1
            "property_key": r"^[a-zA-Z0-9_.-]{1,64}$",  # PF §8
            "tool_keys": frozenset({"name", "description", "input_schema", "strict", "type", "cache_control",
                                    "defer_loading", "allowed_callers", "eager_input_streaming",
                                    "input_examples"}),  # PF §2.1
            # PF §2.3: what the strict subset lists as supported.
            "allowed": frozenset({"type", "properties", "required", "additionalProperties", "items", "enum", "const",
                                  "anyOf", "allOf", "$ref", "$defs", "definitions", "default", "format", "pattern",
                                  "minItems", "title", "description"}),
            "formats": frozenset({"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6",
                                  "uuid"}),  # PF §2.3
            "min_items": frozenset({0, 1}),  # PF §2.3 "only the values 0 and 1"
            # PF §2.3 regex: backreferences, lookahead/lookbehind, \b/\B not supported.
            "regex_unsupported": frozenset({"backreference", "lookaround", "word-boundary"}),
            "recursion": False,  # PF §2.3 "Recursive schemas: unsupported"
            "root_combinators": frozenset({"anyOf", "oneOf", "allOf"}),  # PF §8, §9
            "budgets": {"strict-tools": 20, "optional-parameters": 24, "union-parameters": 16},  # PF §2.4
        },
    },
    # PF §3.3, §3.5 2025-11-05 "Expanded JSON Schema support" (the json-schema API of each target).
    "gemini": {"2025-11-05": {**_GEMINI_DECLARATION, "listed": _JSON_SCHEMA_LISTED,
                              "formats": frozenset({"date-time", "date", "time"}), "types": _TYPES}},
    "vertex": {"2025-11-05": {**_VERTEX_DECLARATION, "listed": _JSON_SCHEMA_LISTED,
                              "formats": frozenset({"date-time", "date", "time"}), "types": _TYPES}},
    # PF §3.2 and §8: the `parameters` Schema (the Gemini API proto of 2025-10-15, the Vertex proto of 2025-05-12).
    "gemini-parameters": {"2025-10-15": {**_GEMINI_DECLARATION, "schema_fields": _SCHEMA_FIELDS,
                                         "schema_types": _SCHEMA_TYPES, "schema_formats": _SCHEMA_FORMATS,
                                         "type_required": True}},  # the Gemini API proto: `type` required
    "vertex-parameters": {"2025-05-12": {**_VERTEX_DECLARATION,
                                         "schema_fields": _SCHEMA_FIELDS | {"additionalProperties"},
                                         "schema_types": _SCHEMA_TYPES,
                                         "schema_formats": _SCHEMA_FORMATS | {"email", "byte"},
                                         "type_required": False}},
    # PFM §1: a tool as `tools/list` lists it.
    "mcp": {
        "2025-11-25": {
            "name": r"^[A-Za-z0-9_.-]{1,128}$",  # PFM §1 Tool name (a SHOULD; C-P6 reads it as required)
            "tool_keys": frozenset({"name", "title", "description", "icons", "inputSchema", "outputSchema",
                                    "annotations", "execution", "_meta"}),
            "property_schemas": "objects",  # schema.json types each `properties` value as an object
            "refs_local_only": False,  # nothing stated about external references
            "default_dialect": "2020-12",  # PFM §1 Dialect (SEP-1613)
        },
        # `execution` moved to an extension; any 2020-12 schema as a property; no network dereference.
        "2026-07-28": {"tool_keys-": frozenset({"execution"}), "property_schemas": "any", "refs_local_only": True},
    },
    # PFM §2 (DS-TC, "`strict` Mode (Beta)") and §7 C-P1..C-P3, C-P7.
    "deepseek": {
        "2026-12-06": {
            "name": r"^[a-zA-Z0-9_-]{1,64}$",  # PFM §2 Name (DS-API)
            "function_keys": frozenset({"name", "description", "parameters", "strict"}),
            "formats": frozenset({"email", "hostname", "ipv4", "ipv6", "uuid"}),
            # the listed types, and `null` (unlisted; C-P7: an optional property can only be nullable)
            "types": _TYPES,
            "number_only": frozenset({"const", "default", "minimum", "maximum", "exclusiveMinimum",
                                      "exclusiveMaximum", "multipleOf"}),
            # the listed keywords; `$def` as the guide spells it and `$defs` as 2020-12 does (C-P2)
            "allowed": frozenset({"type", "properties", "required", "additionalProperties", "items", "enum", "anyOf",
                                  "$ref", "$def", "$defs", "description", "pattern", "format"}),
        },
    },
    # PFM §3 (X-SO, "Structured Outputs", which tool schemas follow) and §7 C-P4.
    "xai": {
        "2026-12-06": {
            "function_keys": frozenset({"name", "description", "parameters", "strict"}),
            "formats": frozenset({"date", "time", "date-time", "email", "uuid", "ipv4", "ipv6", "uri"}),
            "supported": frozenset({"type", "properties", "required", "additionalProperties", "items", "enum",
                                    "const", "anyOf", "oneOf", "allOf", "$ref", "$defs", "pattern", "format",
                                    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
                                    "maxLength", "minItems", "maxItems", "minProperties", "maxProperties",
                                    "description", "title"}),
            "limits": {"minLength": 2048, "maxLength": 2048, "minItems": 256, "maxItems": 256, "minProperties": 64,
                       "maxProperties": 64},
            "regex_unsupported": frozenset({"backreference", "unicode-property-escape", "word-boundary",
                                            "lookaround", "modifiers", "conditional"}),
            "rejected_everywhere": frozenset({"maxContains", "minContains"}),  # PFM §3 Rejected (400)
            "circular_refs": False,  # "non-circular references only"
        },
    },
    # PFM §5: mistral-common's validator and the SDK's Function model; no documented strict subset.
    "mistral": {"2026-12-06": {"name": r"^[a-zA-Z0-9_-]{1,64}$",
                               "function_keys": frozenset({"name", "description", "parameters", "strict"}),
                               "dialect": "draft-07", "strict_subset": False}},
    # PFM §4: the bedrock-runtime service model; the strict subset was not retrievable.
    "bedrock": {"2026-12-06": {"name": r"^[a-zA-Z0-9_-]{1,64}$",
                               "spec_keys": frozenset({"name", "description", "inputSchema", "strict"}),
                               "strict_subset": False}},
}


@dataclass(frozen=True)
class Facts:
    """One family's facts as of one reading: ``facts.name``, ``facts.formats``, ... (a missing fact is an
    AttributeError, so an oracle asking for one its family never states fails loudly)."""

    family: str
    date: str
    values: dict

    def __getattr__(self, name: str):
        try:
            return self.__dict__["values"][name]
        except KeyError:
            raise AttributeError(f"{self.__dict__.get('family')!r} states no fact {name!r}") from None


def _apply(last: dict, change: dict) -> dict:
    out = dict(last)
    for key, value in change.items():
        if key.endswith("+"):
            out[key[:-1]] = frozenset(out.get(key[:-1], frozenset())) | value
        elif key.endswith("-"):
            out[key[:-1]] = frozenset(out.get(key[:-1], frozenset())) - value
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


def readings(family: str) -> dict[str, Facts]:
    """Every reading of `family`, by date, each with every fact (the first states them all)."""
    if family not in FAMILY_CHANGES:
        raise ValueError(f"no documented facts for family {family!r}; known: {sorted(FAMILY_CHANGES)}")
    out: dict[str, Facts] = {}
    values: dict = {}
    for date in sorted(FAMILY_CHANGES[family]):
        values = _apply(values, FAMILY_CHANGES[family][date])
        out[date] = Facts(family, date, values)
    return out


def reading(family: str, version: str | None = None) -> Facts:
    """The facts of rule version `version` of `family`: its reading, or the newest dated before it.
    `version` is a date or "family@date" (a CompileResult's `rules`; its family must be `family`); None is
    the family's newest reading (for a check that names no version: pass the version a tool was compiled
    under wherever it is known, so a new version's facts apply to its tools only)."""
    if version is not None and "@" in version:
        named, _, version = version.partition("@")
        if named != family:
            raise ValueError(f"rule version {named}@{version} is not of family {family!r}")
    known = readings(family)
    if version is None:
        return known[max(known)]
    earlier = [d for d in known if d <= version]
    if not earlier:
        raise ValueError(f"no documented {family} reading on or before {version!r}; known: {sorted(known)}")
    return known[max(earlier)]
