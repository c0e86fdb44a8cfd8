"""What the interpreter can honour: its handlers by keyword, the policy rules it applies and the patterns each action reports."""

from __future__ import annotations

# What each action (a family of keyword handlers, or a step of the compile policy) can report
# itself, as diagnostic patterns and change patterns. A provider's spec maps every one of them to
# its own code, severity, outcome and message (`pattern:` in its diagnostic catalogue; a
# transformation code is its own pattern unless it says otherwise), and tools/gen_tables.py refuses
# a catalogue that lacks one. Codes a spec names directly (keyword classes, limits, regex feature
# classes) are not listed here: the walk reports whatever code the spec gives there.
REPORTS: dict[str, tuple[str, ...]] = {
    # the root and the tool around it (walk.root)
    "root": ("empty-parameters", "boolean-subschema", "root-schema-not-object", "root-schema-anyof"),
    # values every keyword is checked against (walk.keywords)
    "values": ("invalid-keyword-value", "enum-value-not-scalar", "non-schema-subschema", "boolean-subschema",
               "false-subschema-unrepresentable", "schema-too-deep", "too-many-schema-nodes"),
    # leaves: enum, const, format, pattern, a count taken only as 0 or 1 (walk.keywords)
    "leaves": ("unsatisfiable-schema", "unsupported-string-format", "pattern-invalid", "unsupported-keyword"),
    # rewrites named by a keyword's handler (walk.keywords)
    "rewrites": ("const-converted-to-enum", "unsupported-keyword", "nullable-keyword-converted",
                 "nullable-without-effect", "annotation-keyword-dropped", "nested-definitions"),
    # types (walk.keywords)
    "types": ("type-inferred", "schema-missing-type"),
    # objects (walk.containers)
    "objects": ("empty-parameters", "open-map", "free-form-object", "object-missing-additional-properties",
                "additional-properties-true", "extra-properties-no-longer-accepted", "additional-properties-schema",
                "required-property-undefined", "boolean-subschema", "unsatisfiable-schema", "strict-optional-property",
                "nullable-instead-of-omitted", "optional-null-sent", "explicit-null-stripped"),
    # arrays and anyOf branches (walk.containers)
    "arrays": ("array-missing-items", "tuple-items", "false-subschema-unrepresentable", "boolean-subschema",
               "unsatisfiable-schema"),
    # combinators: allOf merge, oneOf -> anyOf, $ref siblings (walk.combinators)
    "combinators": ("all-of-merged", "one-of-converted-to-any-of", "one-of-exclusive-converted", "ref-with-siblings",
                    "ref-sibling-conflict", "non-schema-subschema", "unsatisfiable-schema", "inlined-schema-too-large"),
    # references and definitions (walk.refs)
    "references": ("invalid-keyword-value", "legacy-definitions-keyword", "conflicting-definitions-keywords",
                   "external-ref", "unsupported-ref-target", "unresolvable-ref", "unsatisfiable-schema",
                   "root-schema-not-object", "false-subschema-unrepresentable", "unused-definition"),
    # the document before the walk: JSON values, its dialect, its resources (walk.document)
    "document": ("non-json-value", "unsupported-dialect", "ref-sibling-ignored", "keyword-not-in-dialect",
                 "invalid-keyword-value", "unresolvable-ref", "unsupported-ref-target", "nested-definitions",
                 "annotation-keyword-dropped"),
    # after the walk: finiteness and null paths (walk.nullpaths)
    "after": ("unsatisfiable-schema", "ambiguous-null-path", "unbounded-null-paths", "too-many-null-paths"),
    # objects in a dialect without `additionalProperties` (policy objects `unlisted`, walk.containers)
    "unlisted-objects": ("additional-properties-unexpressed",),
    # the OpenAPI-subset schema form after the walk (policy schema_form `openapi-subset`, walk.subset)
    "subset": ("inlined-schema-too-large", "type-union-unrepresentable", "enum-values-not-strings", "unresolvable-ref",
               "unsatisfiable-schema"),
    # the form sent without strict, made acceptable to the provider (policy sent_*, toolcast.sendable)
    "sent": ("root-schema-not-object", "external-ref", "unresolvable-ref", "unsupported-ref-target",
             "unsupported-dialect", "nested-definitions", "annotation-keyword-dropped",
             "unsatisfiable-schema"),  # (policy sent_empty: toolcast.sent_rules)
    # the tool's name and description, and the strict-mode policy (compile)
    "tool": ("tool-name-missing", "tool-name-too-long", "tool-name-invalid-characters", "missing-tool-description",
             "description-invisible-characters", "description-over-char-limit", "description-too-long",
             "strict-disabled", "schema-too-deep", "sent-non-strict", "lossy-change-refused", "duplicate-tool-name",
             "non-json-value"),
}

CHANGES: dict[str, tuple[str, ...]] = {
    "root": ("closed-empty-parameters", "inferred-type"),
    "values": ("normalized-true-subschema",),
    "leaves": ("dropped-unsupported-format", "dropped-unsupported-keyword",
               "padded-unanchored-pattern"),  # (the last under policy pattern_match whole-string)
    "rewrites": ("converted-const-to-enum", "dropped-unsupported-keyword", "converted-nullable-to-type-union",
                 "dropped-ineffective-nullable", "dropped-annotation-keyword", "dropped-nested-definitions"),
    "types": ("inferred-type", "dropped-vacuous-keyword",  # (the last two under policy type_keywords per-type)
              "split-type-list-to-any-of"),
    "objects": ("closed-empty-parameters", "added-empty-properties", "added-additional-properties-false",
                "closed-open-object", "dropped-additional-properties-schema", "removed-false-subschema",
                "converted-optional-property-to-nullable", "stripped-explicit-null"),
    "arrays": ("removed-false-subschema",),
    "combinators": ("merged-all-of", "converted-exclusive-one-of-to-any-of", "converted-one-of-to-any-of",
                    "wrapped-ref-with-siblings", "merged-ref-siblings", "dropped-vacuous-ref-sibling",
                    "dropped-redundant-ref-sibling", "removed-false-subschema"),
    "references": ("renamed-definitions-to-defs", "rewrote-definitions-reference", "merged-ref-siblings",
                   "dropped-unused-definition"),
    "document": ("dropped-ignored-ref-sibling", "dropped-keyword-not-in-dialect", "converted-dialect-keyword",
                 "copied-ref-target-to-defs", "dropped-nested-definitions", "dropped-annotation-keyword"),
    "after": (),
    "unlisted-objects": ("dropped-additional-properties-false", "dropped-additional-properties-true"),
    "subset": ("inlined-reference", "converted-type-list-to-nullable", "split-type-list-to-any-of",
               "converted-null-branch-to-nullable", "moved-any-of-siblings-into-branches", "added-property-ordering",
               "dropped-non-string-enum", "converted-number-enum-to-strings", "converted-number-enum-to-integer"),
    # (and the root read as an object in every form: sendable.object_root)
    "sent": ("narrowed-root-to-object", "converted-dialect-keyword", "copied-ref-target-to-defs",
             "dropped-nested-definitions", "dropped-annotation-keyword", "inlined-reference", "merged-root-combinator",
             "merged-root-all-of", "dropped-root-keyword", "dropped-ref-sibling-annotation",
             "wrapped-ref-siblings-in-all-of", "made-recursive-property-optional", "cut-recursive-reference",
             "moved-any-of-siblings-into-branches", "renamed-definitions-to-defs", "rewrote-definitions-reference",
             "repointed-reference",
             "dropped-sent-keyword", "wrote-boolean-property-schema", "dropped-unevaluated-keyword",
             "stated-open-object", "kept-object-unstated", "converted-nullable-to-type-union",
             "padded-unanchored-pattern",
             "wrote-enum-values-as-types", "widened-enum-values-to-types"),
    # (policy sent_keywords, sent_property_schemas, sent_open_objects, sent_nullable, pattern_match,
    # sent_enum_values)
    "tool": ("renamed-input-schema-to-parameters", "enabled-strict-mode", "stripped-description-characters",
             "truncated-description-to-char-limit", "truncated-description",
             "described-enforced-constraint",  # (enforce=True: toolcast.enforce)
             "inferred-type"),  # (the root of an original schema sent: compile._typed_root)
}

# The two diagnostics of an optional property made nullable (recorded as one model.OPTIONAL_PAIR).
OPTIONAL_PATTERNS = ("strict-optional-property", "nullable-instead-of-omitted")

# Handler -> the keyword it is defined for (at-most: each count keyword; with the entry's `max`). A
# keep handler refines how a kept keyword's value is checked; a rewrite handler turns the keyword into
# something strict mode takes.
KEEP_HANDLERS = {"format": "format", "pattern": "pattern", "at-most-one": "minItems",
                 "at-most": ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties")}
REWRITE_HANDLERS = {
    "const-to-enum": "const",
    "one-of-to-any-of": "oneOf",
    "merge-all-of": "allOf",
    "definitions-to-defs": "definitions",
    "openapi-nullable": "nullable",
}
# Keywords the walk reads itself wherever they appear (objects, arrays, types, anyOf, $ref and
# definitions): a spec must keep them, since a dropped one would still steer the walk.
STRUCTURAL = ("type", "properties", "required", "additionalProperties", "items", "anyOf", "$ref", "$defs")

# JSON Schema's keywords that constrain the values a schema accepts: the 2020-12 Validation,
# Applicator and Unevaluated vocabularies, the references, the older drafts' forms of them, and
# `format` and OpenAPI's `nullable` as the walk reads them (an unsupported format is dropped as a
# lossy change). The rest (annotations, `$id`/`$anchor`/`$schema`, storage such as `$defs`) say
# nothing about which values are valid. A class that drops one of these loses values, so
# tools/gen_tables.py refuses a spec that drops one without a lossy change (or a refusal), or
# that leaves one unlisted (the `unknown` class would drop it).
CONSTRAINING = frozenset({
    "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "maxLength", "minLength", "pattern", "format", "maxItems", "minItems", "uniqueItems", "maxContains",
    "minContains", "maxProperties", "minProperties", "required", "dependentRequired", "nullable",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "prefixItems", "items",
    "contains", "properties", "patternProperties", "additionalProperties", "propertyNames",
    "unevaluatedItems", "unevaluatedProperties", "$ref", "$dynamicRef", "$recursiveRef",
    "additionalItems", "dependencies",
})

# Change patterns the walk records where the schema it sends accepts other values than the tool
# does (a constraint dropped or weakened, a value the tool accepts refused, a null the handler
# would see stripped): a catalogue must mark each one `lossy: true`, since a tool's status counts
# a change as lossy only by that flag. (A change marked lossy that loses nothing costs a strict
# tool, but hides nothing, so the generator lets it be.)
LOSSY_CHANGES = ("dropped-unsupported-keyword", "dropped-unsupported-format", "converted-one-of-to-any-of",
                 "dropped-additional-properties-schema", "dropped-additional-properties-false",
                 "stripped-explicit-null", "dropped-non-string-enum", "merged-root-combinator", "dropped-root-keyword",
                 "made-recursive-property-optional", "cut-recursive-reference", "dropped-sent-keyword",
                 "widened-enum-values-to-types")
# Diagnostic patterns the walk reports only beside one of those changes: their outcome must say
# so (lossy, or refuses), not fixes or reports.
LOSSY_REPORTS = ("unsupported-keyword", "unsupported-string-format", "one-of-converted-to-any-of",
                 "additional-properties-schema", "additional-properties-unexpressed", "explicit-null-stripped",
                 "enum-values-not-strings")

# Diagnostic patterns the walk reports where it gives a place up: it leaves the keyword or the
# reference out, sends `{}` or nothing there, or cannot strip the nulls it forced. The schema it
# sends then accepts values the tool rejects (or the other way round), so each one must refuse:
# with any other outcome, such a tool would be sent strict and silently wrong.
GIVES_UP = ("non-json-value", "unsupported-dialect", "non-schema-subschema", "false-subschema-unrepresentable",
            "schema-too-deep", "root-schema-not-object", "tuple-items",
            "required-property-undefined", "invalid-keyword-value", "enum-value-not-scalar",
            "enum-value-type-unsupported", "pattern-invalid", "schema-missing-type", "unsatisfiable-schema",
            "external-ref", "unresolvable-ref", "unsupported-ref-target", "ref-sibling-conflict",
            "conflicting-definitions-keywords", "ambiguous-null-path", "too-many-null-paths",
            "unbounded-null-paths", "inlined-schema-too-large", "type-union-unrepresentable",
            "recursive-schema", "infinite-recursion", "lossy-change-refused", "too-many-schema-nodes")
# The same, under one policy rule only: where objects are closed, an open map or a free-form
# object is left unclosed and unwalked (under `open` or `unlisted` it keeps its meaning); where the
# root may not be a combinator, one is walked as it is, for its findings only.
POLICY_GIVES_UP: dict[tuple[str, str], tuple[str, ...]] = {
    ("objects", "closed"): ("open-map", "free-form-object"),
    ("root_combinators", "refuse"): ("root-schema-anyof",),
}

# The structural policy a spec states (spec.schema.json, policy) -> the rules the walk applies.
# Any other value is refused by tools/gen_tables.py: the walk has no action for it yet.
POLICY = {
    # nullable: made required and nullable, with a null path; allowed: left optional, no null path
    "optional_properties": ("nullable", "allowed"),
    # closed: additionalProperties false everywhere; unlisted: the dialect has no additionalProperties
    # (objects stay open, and a closed object or a typed map is a lossy change, see walk.unlisted);
    # open: objects stay as written (false kept, true dropped, a typed map lossy, see walk.unlisted)
    "objects": ("closed", "unlisted", "open"),
    "root_type": ("object",),
    "root_combinators": ("refuse",),  # anyOf / oneOf at the root
    "definitions": ("root",),  # $defs only at the root; nested ones dropped
}
# Optional policy rules (a spec may leave them out) -> the rules the walk applies; the first is
# what the walk does when a spec states none.
OPTIONAL_POLICY = {
    "recursion": ("allow", "refuse"),  # refuse: a definition that reaches itself through $refs
    # openapi-subset: after the walk, the schema is rewritten into the OpenAPI 3.0 Schema subset
    # (references inlined, one type per node plus nullable, string enums; walk.subset)
    "schema_form": ("json-schema", "openapi-subset"),
    # what a tool not sent strict carries: its original schema, or (where the API's field takes only
    # a subset, so the original would be rejected) the converted schema with its lossy changes
    "non_strict": ("original", "converted"),
    # under schema_form openapi-subset: an enum of numbers is dropped (lossy), or (a dialect that
    # documents INTEGER enums written as strings) written as strings on an INTEGER node, a NUMBER
    # enum of integers made an INTEGER one, and any other NUMBER enum dropped (lossy)
    "number_enums": ("drop", "as-strings"),
    # What the provider accepts in the form sent without strict (the original, made acceptable by
    # toolcast.sendable; the first value is what a spec that states none gets):
    # any: keywords of any kind beside `$ref`; dollar-only: only keywords starting with `$` (an
    # annotation is dropped, a constraint moved with the `$ref` into an allOf)
    "sent_ref_siblings": ("any", "dollar-only"),
    # any: recursion anywhere; non-required-properties: a cycle of references must pass through a
    # property its object does not require (one that does is made optional, lossy)
    "sent_recursion": ("any", "non-required-properties"),
    # any: anyOf beside other keywords; alone: anyOf the only keyword of its schema (the others
    # move into its branches, exact)
    "sent_any_of": ("any", "alone"),
    # any: references sent as written; local: every `$ref` names `#` or a root definition (`$id`
    # and anchors resolved, exact); one to a resource outside the document refuses the tool
    "sent_references": ("any", "local"),
    # The metaschema the form sent without strict must be valid against, its keyword values checked
    # wherever they stand (toolcast.sent_valid; one it rejects refuses the tool, invalid-keyword-value):
    # declared: the dialect its `$schema` names, 2020-12 where it names none; or that dialect whatever
    # it declares
    "sent_metaschema": ("declared", "2020-12", "draft-07"),
    # annotated: the metaschema's `format`s are not checked; asserted: they are (jsonschema's
    # check_schema): every `pattern` and `patternProperties` name must compile with Python's `re`,
    # wherever it stands (toolcast.sent_formats; one that does not refuses the tool, invalid-keyword-value)
    "sent_metaschema_formats": ("annotated", "asserted"),
    # any: a property's schema may be `true`/`false`; objects: every value of `properties` is a schema
    # object (`true` written `{}`, `false` written `{"not": {}}`, exact; toolcast.sent_rules)
    "sent_property_schemas": ("any", "objects"),
    # as-written: an object schema that says nothing of other keys admits them, as JSON Schema reads
    # it; explicit: the provider closes such an object, so the form sent without strict states
    # `additionalProperties: true` on it (exact; toolcast.sent_rules)
    "sent_open_objects": ("as-written", "explicit"),
    # as-written: OpenAPI's `nullable` left as it is in the form sent without strict; type-union: the
    # provider constrains that form but does not read `nullable`, so null is added to the `type`
    # beside it, `nullable` left out (exact; toolcast.sent_rules)
    "sent_nullable": ("as-written", "type-union"),
    # search: a `pattern` matches anywhere in the string (ECMA-262, JSON Schema); whole-string: the
    # provider matches it against the whole string, its `.` matching every character, so each side
    # no top-level `^`/`$` anchors is written `.*`, in every form (exact; walk.regex, toolcast.sent_rules)
    "pattern_match": ("search", "whole-string"),
    # any: an enum's values as written; typed: only of the types policy enum_values names, in the form
    # sent without strict too: a value of another type written as a `type` (null; true and false
    # together, exact), or widened to its type (lossy; toolcast.sent_enums)
    "sent_enum_values": ("any", "typed"),
    # any: a keyword that constrains one JSON type only stays on a schema whose type excludes it (JSON
    # Schema ignores it there); per-type: the strict form drops it there, exact (walk.vacuous)
    "type_keywords": ("any", "per-type"),
}
# policy sent_keywords `drop` (keywords the provider rejects anywhere in the form sent without strict,
# dropped, lossy) may not list these: the walk and sendable read them (a dropped `$ref`, `$defs`,
# `$schema` or `properties` would leave a document that no longer says what it said, or nothing).
SENT_UNDROPPABLE = ("type", "properties", "required", "additionalProperties", "items", "anyOf", "$ref", "$defs",
                    "definitions", "$schema", "$id", "id", "$anchor", "$dynamicAnchor")
# policy sent_empty `refuse`: keywords whose empty list no value satisfies (an empty `allOf` or
# `required` says nothing, so a tool is never refused for one): a schema with one refuses the tool.
SENT_EMPTY_UNSATISFIABLE = ("enum", "anyOf", "oneOf")
# The root keywords toolcast.sendable can rid a sent form of (policy sent_root_keywords lists those
# a provider refuses at the root whatever the strict flag): anyOf/oneOf lifted into one object
# (lossy), allOf merged, the rest dropped (lossy).
SENT_ROOT_KEYWORDS = ("anyOf", "oneOf", "allOf", "enum", "const", "not", "if", "then", "else")
# Patterns reported only under a policy rule a spec selects: its catalogue needs them only then
# (`property_keys` and `enum_values` are selected by being present: rule "present"; an optional
# rule a spec leaves out selects its default, the first of OPTIONAL_POLICY's).
POLICY_REPORTS: dict[tuple[str, str], tuple[str, ...]] = {
    # after the walk (walk.walker), or where a definition is met again inside its own inlining
    ("recursion", "refuse"): ("recursive-schema",),
    ("recursion", "allow"): ("infinite-recursion",),  # after the walk (walk.nullpaths), or as above
    ("property_keys", "present"): ("property-key-invalid",),  # (walk.containers)
    ("enum_values", "present"): ("enum-value-type-unsupported",),  # (walk.keywords)
    ("type_keywords", "per-type"): ("keyword-not-for-type",),  # (walk.vacuous)
}
# What a limit can count, as the walk counts it. A spec need not limit each: a provider that
# documents no figure for one leaves it out, and the walk then counts it without bound.
COUNTERS = (
    "properties",  # properties of every object, in total
    "string-chars",  # characters of property and definition names, enum and const strings
    "enum-values",  # enum values, in total
    "depth",  # nesting of objects and arrays
    "enum-size",  # values of one enum (the threshold of enum-chars)
    "enum-chars",  # characters of one enum's string values, above enum-size values
)

# Every pattern some action can report (those of policy rules included), and every change pattern.
POLICY_ONLY_REPORTS = frozenset(p for ps in POLICY_REPORTS.values() for p in ps)
ALL_REPORTS = frozenset(p for ps in REPORTS.values() for p in ps) | POLICY_ONLY_REPORTS
ALL_CHANGES = frozenset(p for ps in CHANGES.values() for p in ps)

# Keywords whose subschemas sit where narrowing them does not narrow the whole: the walk applies
# strict mode's rules (objects closed, properties required) to every subschema it descends into,
# which is sound only where the subschema's constraint is monotone in the schema around it
# (properties, items, anyOf, allOf, additionalProperties, $defs, ...). Inside `not`, a narrower
# subschema widens the schema; a narrower `if` skips its `then`; a narrower `oneOf` branch can
# make a value match exactly one branch where it matched two; a narrower `contains` counts fewer
# items, which `maxContains` then lets through. So a spec may not keep these (class keep) unless a
# handler rewrites them (oneOf: one-of-to-any-of).
NON_MONOTONE = {
    "not": "negated", "if": "conditional", "then": "conditional", "else": "conditional",
    "oneOf": "counted (exactly one branch must match)", "contains": "counted (minContains, maxContains)",
}

# Of REPORTED_WHERE_SELECTED, what a spec selects by a handler in use or a field it sets: the
# generator refuses `status: reserved` ("never emitted") on those codes where it is selected.
SELECTED_BY = {
    ("handler", "const-to-enum"): ("const-converted-to-enum", "converted-const-to-enum"),
    ("handler", "one-of-to-any-of"): ("one-of-converted-to-any-of", "converted-one-of-to-any-of"),
    ("handler", "openapi-nullable"): ("nullable-keyword-converted", "converted-nullable-to-type-union"),
    ("handler", "merge-all-of"): ("all-of-merged", "merged-all-of"),
    ("handler", "format"): ("unsupported-string-format", "dropped-unsupported-format"),
    ("handler", "pattern"): ("pattern-invalid",),
    ("description", "max_chars"): ("description-over-char-limit", "truncated-description-to-char-limit"),
}

# Kept keywords that the strict rules of a policy break (tools/gen_tables.py refuses them there).
# Under optional_properties nullable every optional property is sent, null where the model leaves
# it out, and the null stripped before the handler: a keyword that counts or tests which properties
# an object holds then reads a different object in the provider than in the tool (`minProperties: 2`
# passes {"a": null, "b": null}, which reaches the handler as {}; `maxProperties: 1` passes nothing).
PRESENCE = ("minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "dependencies",
            "propertyNames")
# Under nullable, slots whose members are properties named by a pattern, not a name: a null path
# names each step exactly, so a property made nullable below one would keep its null.
PATTERN_MEMBERS = ("patternProperties",)
# Under objects closed, applicators whose subschemas apply to the same object as the schema around
# them (a conjunction): each closed on its own rejects the properties the others declare, so no
# object is valid. The walk merges allOf's parts first (handler merge-all-of) and nothing else.
CONJUNCTIVE = ("allOf", "dependentSchemas")

# Keywords the document pass reads before any keyword table (walk.document, walk.dialect,
# walk.resources): `$schema` names the dialect the document is rewritten from into 2020-12 terms,
# `$id` / draft-04 `id` / `$anchor` / `$dynamicAnchor` are the resources every `$ref` is resolved
# against and repointed at a root definition. Kept as plain values they would be sent beside a body
# that no longer means what they say (a draft-04 label on a 2020-12 body, anchors and bases of
# references already resolved), so a spec may not keep them.
DOCUMENT = ("$schema", "$id", "id", "$anchor", "$dynamicAnchor")
# References the walk does not resolve at all: kept, one would be sent pointing at a definition the
# walk never walked (not closed, not checked) or left out as unused.
UNRESOLVED_REFS = ("$dynamicRef", "$recursiveRef", "$recursiveAnchor")

# What the walk does with a keyword no entry lists (keyword_classes.unknown): it drops it, with the
# class's findings; any other action would make unlisted keywords vanish without one.
UNKNOWN_ACTIONS = ("drop",)

# Kept keyword -> the keep handler without which the walk keeps its value unchecked: a `format`
# outside the spec's list, a `pattern` that is no regex or uses a feature the spec drops.
HANDLER_REQUIRED = {"format": "format", "pattern": "pattern"}

# The parameters each pattern is reported with (the message placeholders it can fill; any other
# shows as "?"), and those of the codes a spec names directly: a keyword class's drop, a limit (by
# what it counts: `enum-size` is reported only with `enum-chars`), a regex feature class, a budget.
PARAMS: dict[str, tuple[str, ...]] = {
    "additional-properties-schema": (), "additional-properties-true": (), "additional-properties-unexpressed": (),
    "all-of-merged": (), "ambiguous-null-path": ("value",), "annotation-keyword-dropped": ("keyword",),
    "array-missing-items": (), "boolean-subschema": ("value",), "conflicting-definitions-keywords": ("name",),
    "const-converted-to-enum": (), "description-invisible-characters": ("count",),
    "description-over-char-limit": ("count", "limit"), "description-too-long": ("count", "limit"),
    "duplicate-tool-name": ("name",), "empty-parameters": (), "enum-value-not-scalar": ("keyword", "value"),
    "enum-value-type-unsupported": ("expected", "keyword", "value"), "enum-values-not-strings": ("value",),
    "explicit-null-stripped": ("name",), "external-ref": ("value",), "extra-properties-no-longer-accepted": (),
    "false-subschema-unrepresentable": (), "free-form-object": (), "infinite-recursion": ("name",),
    "inlined-schema-too-large": ("limit",), "invalid-keyword-value": ("expected", "keyword", "value"),
    "keyword-not-in-dialect": ("keyword", "value"), "legacy-definitions-keyword": (),
    "lossy-change-refused": ("value",), "missing-tool-description": (), "nested-definitions": ("keyword",),
    "non-json-value": ("value",), "non-schema-subschema": ("value",), "nullable-instead-of-omitted": ("name",),
    "nullable-keyword-converted": (), "nullable-without-effect": ("value",),
    "object-missing-additional-properties": (), "one-of-converted-to-any-of": (),
    "one-of-exclusive-converted": ("value",), "open-map": (), "optional-null-sent": ("name",),
    "pattern-invalid": ("position", "reason", "value"), "property-key-invalid": ("name", "pattern"),
    "recursive-schema": ("name",), "ref-sibling-conflict": ("keyword",), "ref-sibling-ignored": ("keyword", "value"),
    "ref-with-siblings": ("value",), "required-property-undefined": ("name",), "root-schema-anyof": ("keyword",),
    "root-schema-not-object": ("value",), "schema-missing-type": (), "schema-too-deep": ("count", "limit"),
    "too-many-schema-nodes": ("limit",),
    "sent-non-strict": ("value",), "strict-disabled": (), "strict-optional-property": ("name",),
    "too-many-null-paths": ("count", "limit"), "tool-name-invalid-characters": ("name", "pattern"),
    "tool-name-missing": (), "tool-name-too-long": ("count", "limit"), "tuple-items": (),
    "type-inferred": ("keyword", "value"), "type-union-unrepresentable": ("value",), "unbounded-null-paths": ("name",),
    "unresolvable-ref": ("value",), "unsatisfiable-schema": ("value",), "unsupported-dialect": ("value",),
    "unsupported-keyword": ("keyword",), "unsupported-ref-target": ("value",), "unsupported-string-format": ("format",),
    "unused-definition": ("name",), "keyword-not-for-type": ("expected", "keyword", "value"),
}
CLASS_PARAMS = ("keyword",)
LIMIT_PARAMS = {"properties": ("count", "limit"), "string-chars": ("count", "limit"), "enum-values": ("count", "limit"),
                "depth": ("count", "limit"), "enum-size": (), "enum-chars": ("count", "limit", "threshold", "value")}
REGEX_CLASS_PARAMS = ("feature", "value")
BUDGET_PARAMS = ("count", "limit")

# Patterns (diagnostic or change) an action reports only under a policy rule, beside those of
# POLICY_REPORTS: (rule, the values that select them) -> patterns. Null paths come only from
# optional properties made nullable; objects are closed, or left open, by `objects`; the OpenAPI
# subset is written only under `schema_form`.
REPORTED_UNDER: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {
    ("optional_properties", ("nullable",)): (
        "strict-optional-property", "nullable-instead-of-omitted", "optional-null-sent", "explicit-null-stripped",
        "ambiguous-null-path", "unbounded-null-paths", "too-many-null-paths", "converted-optional-property-to-nullable",
        "stripped-explicit-null"),
    ("objects", ("closed",)): ("object-missing-additional-properties", "extra-properties-no-longer-accepted",
                               "added-additional-properties-false", "closed-open-object", "added-empty-properties"),
    ("objects", ("unlisted",)): ("additional-properties-unexpressed", "dropped-additional-properties-false"),
    ("objects", ("unlisted", "open")): ("dropped-additional-properties-true",),
    ("schema_form", ("openapi-subset",)): (
        "inlined-schema-too-large", "type-union-unrepresentable", "enum-values-not-strings", "inlined-reference",
        "converted-type-list-to-nullable", "split-type-list-to-any-of", "converted-null-branch-to-nullable",
        "added-property-ordering", "dropped-non-string-enum"),
    ("number_enums", ("as-strings",)): ("converted-number-enum-to-strings", "converted-number-enum-to-integer"),
    ("type_keywords", ("per-type",)): ("dropped-vacuous-keyword", "split-type-list-to-any-of"),
    ("pattern_match", ("whole-string",)): ("padded-unanchored-pattern",),
    ("sent_enum_values", ("typed",)): ("wrote-enum-values-as-types", "widened-enum-values-to-types"),
}
# Patterns reported only where a spec's keywords or fields call for them (a handler, a kept
# annotation, a description cap, keywords beside `$ref`): a catalogue's `status: reserved` for one
# of these is taken at its word. Every other pattern of REPORTS and CHANGES (and those of
# REPORTED_UNDER and POLICY_REPORTS under their rule) is reported whatever a spec states, so
# tools/gen_tables.py refuses a reserved code for it ("never emitted" would be false).
REPORTED_WHERE_SELECTED = frozenset({
    "const-converted-to-enum", "converted-const-to-enum",  # handler const-to-enum
    "unsupported-keyword", "dropped-unsupported-keyword",  # handlers at-most-one, one-of-to-any-of
    "one-of-converted-to-any-of", "one-of-exclusive-converted", "converted-one-of-to-any-of",
    "converted-exclusive-one-of-to-any-of",  # handler one-of-to-any-of
    "nullable-keyword-converted", "nullable-without-effect", "converted-nullable-to-type-union",
    "dropped-ineffective-nullable",  # handler openapi-nullable
    "all-of-merged", "merged-all-of",  # handler merge-all-of
    "unsupported-string-format", "dropped-unsupported-format",  # handler format
    "pattern-invalid",  # handler pattern
    "description-over-char-limit", "truncated-description-to-char-limit",  # description.max_chars
    "wrapped-ref-with-siblings", "ref-with-siblings", "merged-ref-siblings",  # policy.ref_siblings keywords
    "moved-any-of-siblings-into-branches",  # annotations kept beside anyOf (schema_form openapi-subset)
    # the form sent without strict, where the original needs them (policy sent_*, root_type)
    "narrowed-root-to-object", "inlined-reference", "merged-root-combinator", "merged-root-all-of",
    "dropped-root-keyword", "dropped-ref-sibling-annotation", "wrapped-ref-siblings-in-all-of",
    "made-recursive-property-optional", "cut-recursive-reference", "copied-ref-target-to-defs",
    "converted-dialect-keyword", "repointed-reference", "dropped-sent-keyword", "wrote-boolean-property-schema",
    "dropped-unevaluated-keyword", "stated-open-object", "kept-object-unstated",
    "described-enforced-constraint",  # compile_tool(enforce=True)
})
