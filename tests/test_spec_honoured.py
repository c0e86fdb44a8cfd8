"""The generator refuses, with file:line, a spec the interpreter cannot honour; a second provider is data."""

from __future__ import annotations

import functools
import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path

import pytest
from spec_folder import openai_only_spec

from toolcast.compile import compile_tool
from toolcast.rules import Rules
from toolcast.walk import actions

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_tables  # noqa: E402
import speclib  # noqa: E402

NEW = "9999-12-31"  # the version each test writes, extending 2026-10-17


@pytest.fixture
def spec(tmp_path) -> Path:
    d = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", d)
    return d


@pytest.fixture
def openai_spec(tmp_path) -> Path:
    """spec/ with OpenAI's files only: a refusal there needs no other provider's tables built."""
    return openai_only_spec(tmp_path)


def new_version(spec: Path, body: str) -> Path:
    # (named for no day a maintainer will date a version: a real new version never collides)
    f = spec / "openai" / f"{NEW}.yaml"
    f.write_text(f'provider: openai\nversion: "{NEW}"\nreviewed: "2026-12-01"\nextends: "2026-10-17"\n'
                 f"summary: test\n{body}", encoding="utf-8")
    return f


def refusal(spec: Path) -> speclib.SpecError:
    with pytest.raises(speclib.SpecError) as info:
        gen_tables.build(spec)
    return info.value


def second_provider(spec: Path, keep_patterns: bool) -> Path:
    """spec/acme: OpenAI's history copied under another provider name, its codes renamed."""
    acme = spec / "acme"
    acme.mkdir()
    for f in sorted((spec / "openai").glob("*.yaml")):
        text = f.read_text(encoding="utf-8").replace("provider: openai", "provider: acme")
        text = re.sub(r"\bopenai/(?=[a-z])", "acme/", text)
        if not keep_patterns:
            text = re.sub(r"(?m)^ +pattern: [a-z0-9-]+\n", "", text)
        (acme / f.name).write_text(text, encoding="utf-8")
    return acme


def _load(path: Path, name: str):
    module_spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def test_not_given_the_all_of_merge_is_refused_at_generation(spec):
    # The experiment of issue 16: this passed the generator, and `not` then vanished without a
    # finding (a tool with `not` compiled strict with none).
    f = new_version(spec, "keywords:\n  not: {class: rewrite, value: schema, handler: merge-all-of, cite: [O-SO]}\n")
    err = refusal(spec)
    assert err.file == str(f) and err.line == 7 and err.path == "keywords.not.handler"
    assert "handler 'merge-all-of' belongs to keyword 'allOf'" in err.message
    assert "no action that applies it to 'not'" in err.message


def test_a_keep_class_with_a_rewrite_handler_is_refused(spec):
    new_version(spec, "keywords:\n  not: {class: tier1, value: schema, handler: merge-all-of, cite: [O-SO]}\n")
    assert "only rewrite keywords take a rewrite handler" in refusal(spec).message


def test_a_structural_keyword_must_be_kept(spec):
    # The walk reads `properties` wherever it is; dropping it would still close the object over them.
    f = new_version(spec, "keywords:\n  properties: {class: tier1, value: schema-map, cite: [O-SO]}\n")
    err = refusal(spec)
    assert err.file == str(f) and err.line == 7 and "its class must keep it, not drop it" in err.message


def test_a_policy_rule_the_walk_has_no_action_for_is_refused(spec):
    # (optional_properties `allowed` became an action for Anthropic, objects `open` one for Vertex's
    # parameters; anyOf at the root is not one yet)
    f = new_version(spec, "policy:\n  root_combinators: {rule: allow, cite: [O-SO]}\n")
    err = refusal(spec)
    assert err.file == str(f) and err.line == 7 and err.path == "policy.root_combinators.rule"
    assert "no action for policy.root_combinators 'allow'" in err.message


def test_an_always_refused_code_must_refuse(spec):
    new_version(spec, "policy:\n  always_refused: {codes: [openai/unknown-keyword], cite: [O-SO]}\n")
    assert "'openai/unknown-keyword' must be a diagnostic whose outcome refuses" in refusal(spec).message


def test_a_pattern_named_twice_is_refused(spec):
    new_version(spec, "diagnostics:\n  openai/unknown-keyword: {pattern: free-form-object}\n")
    err = refusal(spec)
    assert err.path == "diagnostics.openai/unknown-keyword.pattern" and "already the pattern of" in err.message


def test_a_copy_under_another_provider_whose_catalogue_lacks_patterns_is_refused(spec):
    # The second experiment of issue 16: this passed the generator, and a free-form object then
    # compiled "strict" (the walker's own openai/ codes never counted as refusing under acme) and
    # reading its diagnostics raised KeyError.
    acme = second_provider(spec, keep_patterns=False)
    err = refusal(spec)
    assert err.file == str(acme / "2024-08-06.yaml") and err.path == "diagnostics"
    assert err.line == speclib.load_yaml(acme / "2024-08-06.yaml").lines[("diagnostics",)]
    # (the patterns most codes report come from spec/catalogue.yaml, which the copy keeps: what is
    # left to strip are those of the codes only OpenAI's base writes, such as infinite-recursion)
    assert re.search(r"the catalogue has no code for pattern '[a-z-]+', which the (interpreter's '[a-z]+' action|"
                     r"walk) reports", err.message)


def test_a_second_provider_is_yaml_only(spec, tmp_path):
    second_provider(spec, keep_patterns=True)
    out = tmp_path / "tables"
    assert gen_tables.main(["--spec", str(spec), "--out", str(out), "--docs", str(tmp_path / "codes.md")]) == 0
    header = (out / "acme_2026_10_17.py").read_text(encoding="utf-8").splitlines()[0]
    assert "Rules acme@2026-10-17 (provider acme)" in header
    acme = Rules(_load(out / "acme_2026_10_17.py", "tc_acme_2026_10_17"))
    free_form = {"name": "t", "description": "d", "inputSchema": {
        "type": "object", "properties": {"meta": {"type": "object"}}, "required": ["meta"]}}
    res = compile_tool(free_form, rules=acme)
    assert res.status == "non-strict" and res.rules == "acme@2026-10-17"
    codes = {(d.code, d.path, d.outcome) for d in res.diagnostics}
    assert ("acme/free-form-object", "#/properties/meta", "refuses") in codes
    assert all(d.code.startswith("acme/") for d in res.diagnostics)
    assert compile_tool(free_form, rules=acme, strict=True).status == "refused"
    optional = {"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    res = compile_tool(optional, rules=acme)
    assert res.status == "strict" and res.null_paths == (("a",),)
    assert [d.code for d in res.diagnostics if d.path == "#/properties/a"] == [
        "acme/strict-optional-property", "acme/nullable-instead-of-omitted"]
    bad_name = compile_tool({"name": "a b", "inputSchema": {"type": "object"}}, rules=acme, strict=False)
    assert bad_name.status == "refused" and "acme/tool-name-invalid-characters" in {d.code for d in bad_name.diagnostics}


def _rules_of_new_version(spec: Path, tmp_path: Path, body: str) -> Rules:
    new_version(spec, body)
    out = tmp_path / "tables"
    assert gen_tables.main(["--spec", str(spec), "--out", str(out), "--docs", str(tmp_path / "codes.md")]) == 0
    module = gen_tables.module_name("openai", NEW)
    return Rules(_load(out / f"{module}.py", f"tc_{module}_{tmp_path.name}"))


def test_what_may_stand_beside_a_ref_is_the_spec_s(spec, tmp_path):
    tool = {"name": "t", "description": "d", "inputSchema": {
        "type": "object", "required": ["a"], "additionalProperties": False,
        "properties": {"a": {"$ref": "#/$defs/A", "title": "The A"}},
        "$defs": {"A": {"type": "string"}}}}
    wrapped = compile_tool(tool)  # title is an annotation beside $ref: the ref is wrapped, not inlined
    assert wrapped.tool["parameters"]["properties"]["a"] == {"title": "The A", "anyOf": [{"$ref": "#/$defs/A"}]}
    only_description = _rules_of_new_version(
        spec, tmp_path, "policy:\n  ref_siblings: {keywords: [description], cite: [O-PY]}\n")
    inlined = compile_tool(tool, rules=only_description)
    assert inlined.tool["parameters"]["properties"]["a"] == {"type": "string", "title": "The A"}
    assert "merged-ref-siblings" in {t.code for t in inlined.transformations}


def test_a_limit_is_read_by_what_it_counts(spec, tmp_path):
    # The walk compares its property count with the limit that says `counts: properties`.
    swapped = _rules_of_new_version(spec, tmp_path, "limits:\n"
                                    "  max_properties: {value: 1000, code: openai/too-many-properties, cite: [O-SO], counts: enum-values}\n"
                                    "  max_enum_values: {value: 2, code: openai/too-many-enum-values, cite: [O-SO], counts: properties}\n")
    tool = {"name": "t", "description": "d", "inputSchema": {
        "type": "object", "required": ["a", "b", "c"], "additionalProperties": False,
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}}}}
    res = compile_tool(tool, rules=swapped)
    found = [(d.code, d.message) for d in res.diagnostics if d.code.startswith("openai/too-many")]
    assert found == [("openai/too-many-enum-values", "The schema has 3 enum values in total; OpenAI accepts at most 2.")]


# -- a loss cannot pass as kept: each edit below compiled a tool strict with a constraint gone ----

_MINIMUM = {"name": "t", "description": "d", "inputSchema": {
    "type": "object", "required": ["n"], "additionalProperties": False,
    "properties": {"n": {"type": "integer", "minimum": 3}}}}


@pytest.mark.parametrize("cls", ["annotation", "default", "unknown"])
def test_a_constraint_in_a_class_whose_drop_loses_nothing_is_refused(spec, cls):
    f = new_version(spec, f"keywords:\n  minimum: {{class: {cls}, value: number, cite: [O-SO]}}\n")
    err = refusal(spec)
    assert (err.file, err.line, err.path) == (str(f), 7, "keywords.minimum.class")
    assert f"keyword 'minimum' constrains values, but class {cls!r} drops it" in err.message
    assert "which is not lossy" in err.message


def test_an_annotation_may_still_go_to_a_class_whose_drop_loses_nothing(spec, tmp_path):
    # `title` says nothing about values: dropping it is a fix, and the tool stays strict.
    rules = _rules_of_new_version(spec, tmp_path, "keywords:\n  title: {class: annotation, value: string, cite: [O-SO]}\n")
    tool = {"name": "t", "description": "d", "inputSchema": {
        "type": "object", "required": ["n"], "additionalProperties": False,
        "properties": {"n": {"type": "integer", "title": "N"}}}}
    res = compile_tool(tool, rules=rules)
    assert res.status == "strict"
    assert [(d.code, d.outcome) for d in res.diagnostics] == [("openai/annotation-keyword-dropped", "fixes")]
    # and a constraint moved to a lossy class is a lossy change, sent non-strict
    lossy = _rules_of_new_version(spec, tmp_path / "b", "keywords:\n  minimum: {class: tier1, value: number, cite: [O-SO]}\n")
    assert compile_tool(_MINIMUM, rules=lossy).status == "non-strict"


def test_a_class_edit_that_turns_every_drop_into_a_fix_is_refused(spec):
    # The class's keywords come from the versions before; the edit is the class's transformation.
    f = new_version(spec, "keyword_classes:\n  tier1: {action: drop, diagnostic: openai/unsupported-keyword,"
                          " transformation: dropped-annotation-keyword}\n")
    err = refusal(spec)
    assert (err.file, err.line, err.path) == (str(f), 7, "keyword_classes.tier1.transformation")
    assert "reports its drops as lossy ('openai/unsupported-keyword')" in err.message


def test_a_class_that_drops_lossily_but_says_it_fixes_is_refused(spec):
    new_version(spec, "keyword_classes:\n  annotation: {action: drop, diagnostic: openai/annotation-keyword-dropped,"
                      " transformation: dropped-unsupported-keyword}\n")
    err = refusal(spec)
    assert err.path == "keyword_classes.annotation.diagnostic"
    assert "drops with a lossy transformation, but its diagnostic 'openai/annotation-keyword-dropped' says the outcome 'fixes'" in err.message


def test_a_constraint_a_provider_leaves_unlisted_is_refused(spec):
    # A new provider's file that forgets `minimum`: the `unknown` class would drop it as a fix.
    acme = second_provider(spec, keep_patterns=True)
    first = acme / "2024-08-06.yaml"
    text = first.read_text(encoding="utf-8")
    assert "\n  minimum: " in text
    first.write_text(re.sub(r"(?m)^  minimum: .*\n", "", text), encoding="utf-8")
    err = refusal(spec)
    assert err.file == str(first) and err.path == "keywords"
    assert err.line == speclib.load_yaml(first).lines[("keywords",)]
    assert "keyword 'minimum' constrains values but is not listed" in err.message


@pytest.mark.parametrize("pattern", actions.LOSSY_CHANGES)
def test_a_change_that_loses_values_must_be_marked_lossy(openai_spec, pattern):
    spec = openai_spec
    code = _catalogue()[1][pattern]
    f = new_version(spec, f"transformations:\n  {code}: {{lossy: false}}\n")
    err = refusal(spec)
    assert (err.file, err.line, err.path) == (str(f), 7, f"transformations.{code}.lossy")
    assert "must be marked lossy: true" in err.message


@pytest.mark.parametrize("pattern", actions.LOSSY_REPORTS)
def test_a_finding_beside_a_lossy_change_cannot_say_it_fixes(openai_spec, pattern):
    spec = openai_spec
    code = _catalogue()[0][pattern]
    new_version(spec, f"diagnostics:\n  {code}: {{outcome: fixes}}\n")
    err = refusal(spec)
    assert err.path == f"diagnostics.{code}.outcome" and "must be lossy or refuses, not 'fixes'" in err.message


@functools.cache
def _catalogue() -> tuple[dict, dict]:
    """(diagnostic pattern -> code, change pattern -> code) of the version the test versions extend."""
    r = speclib.resolve(speclib.discover(ROOT / "spec")["openai"], "2026-10-17")
    by_pattern = {e["pattern"]: code for code, e in r["diagnostics"].items() if "pattern" in e}
    changes = {e.get("pattern", code): code for code, e in r["transformations"].items()}
    return by_pattern, changes


# (those OpenAI's catalogue has: recursive-schema and enum-value-type-unsupported are other providers')
_GIVING_UP = [p for p in (*actions.GIVES_UP, *(p for ps in actions.POLICY_GIVES_UP.values() for p in ps))
              if p in _catalogue()[0]]


@pytest.mark.parametrize("pattern", _GIVING_UP)
def test_a_finding_where_the_walk_gives_up_must_refuse(openai_spec, pattern):
    spec = openai_spec
    code = _catalogue()[0][pattern]
    outcome = ("lossy", "reports", "fixes")[_GIVING_UP.index(pattern) % 3]
    new_version(spec, f"diagnostics:\n  {code}: {{outcome: {outcome}}}\n")
    err = refusal(spec)
    if err.path.startswith("policy.always_refused"):  # (a code OpenAI refuses in every mode says so first)
        assert f"{code!r} must be a diagnostic whose outcome refuses" in err.message
    else:
        assert err.path == f"diagnostics.{code}.outcome"
        assert f"its outcome must be refuses, not {outcome!r}" in err.message


def test_the_loss_declarations_name_what_the_walk_reports():
    assert set(actions.LOSSY_CHANGES) <= actions.ALL_CHANGES
    assert set(actions.LOSSY_REPORTS) | set(actions.GIVES_UP) <= actions.ALL_REPORTS
    assert {p for ps in actions.POLICY_GIVES_UP.values() for p in ps} <= actions.ALL_REPORTS
    assert set(actions.STRUCTURAL) - {"$defs"} <= actions.CONSTRAINING
    for (rule_name, rule) in actions.POLICY_GIVES_UP:
        assert rule in actions.POLICY[rule_name]


_ORDER_WITH_NOT = ("output_order:\n  [$ref, type, title, description, enum, const, pattern, format, minLength, maxLength,"
                   " multipleOf, minimum, maximum, exclusiveMinimum, exclusiveMaximum, minItems, maxItems, items,"
                   " properties, required, additionalProperties, anyOf, $defs, not]\n")


def test_a_kept_applicator_must_be_walked_as_schemas(openai_spec):
    # `not` kept as a plain value would be sent as written: its schema not closed, not checked.
    f = new_version(openai_spec, _ORDER_WITH_NOT + "keywords:\n  not: {class: supported, value: any, cite: [O-SO]}\n")
    err = refusal(openai_spec)
    assert (err.file, err.line, err.path) == (str(f), 9, "keywords.not.value")
    assert "'not' holds schemas (schema), so a class that keeps it needs value 'schema', not 'any'" in err.message


def test_a_slot_must_hold_what_the_keyword_holds(openai_spec, tmp_path):
    # patternProperties walked as one schema: its patterns read as unknown keywords, their schemas dropped.
    order = _ORDER_WITH_NOT.replace(", not]", ", patternProperties]")
    body = order + "keywords:\n  patternProperties: {class: supported, value: schema-map, cite: [O-SO]}\nslots:\n"
    f = new_version(openai_spec, body + "  patternProperties: {kind: schema, depth: 1}\n")
    err = refusal(openai_spec)
    assert (err.file, err.line, err.path) == (str(f), 11, "slots.patternProperties.kind")
    assert "holds schemas as a 'map'; a slot of kind 'schema' would walk them as something else" in err.message
    # the right kind generates (where optional properties stay optional: see the test after), and
    # the map's schemas are walked
    allowed = "policy:\n  optional_properties: {rule: allowed, cite: [O-SO]}\n"
    rules = _rules_of_new_version(openai_spec, tmp_path, body + "  patternProperties: {kind: map, depth: 1}\n" + allowed)
    tool = {"name": "t", "description": "d", "inputSchema": {
        "type": "object", "required": ["a"], "additionalProperties": False, "properties": {"a": {"type": "string"}},
        "patternProperties": {"^x": {"type": "integer", "not": {"const": 1}}}}}
    res = compile_tool(tool, rules=rules)
    assert res.status == "non-strict"
    assert ("openai/unsupported-keyword", "#/patternProperties/^x/not") in {(d.code, d.path) for d in res.diagnostics}


_PRESENCE_TOOL = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}


@pytest.mark.parametrize("kw, value, rule", [
    # (keyword kept, a value for it, the policy rule that breaks it)
    ("minProperties", "2", "optional_properties"),  # {"a": null, "b": null} passes, the handler gets {}
    ("maxProperties", "1", "optional_properties"),  # every property sent: nothing passes
    ("dependentRequired", '{"a": ["b"]}', "optional_properties"),  # {"a": "x", "b": null} reaches it as {"a": "x"}
    ("dependentSchemas", '{"a": {"properties": {"b": {"const": "y"}}}}', "optional_properties"),
    ("propertyNames", '{"maxLength": 0}', "optional_properties"),
    ("patternProperties", '{"^x": {"type": "object", "properties": {"q": {"type": "string"}}}}', "optional_properties"),
    ("allOf", '[{"properties": {"a": {"type": "string"}}}, {"properties": {"b": {"type": "string"}}}]', "objects"),
])
def test_a_keyword_the_policy_breaks_cannot_be_kept(openai_spec, tmp_path, kw, value, rule):
    # Each generated, and compiled a strict tool that lost values without a finding, or that no call
    # could satisfy (the red-team's round of the twelfth session): under nullable optional properties
    # a present null is not an absent property; under closed objects, parts closed apart.
    order = _ORDER_WITH_NOT.replace(", not]", f", {kw}]")
    value_kind = {"patternProperties": "schema-map", "dependentSchemas": "schema-map", "propertyNames": "schema",
                  "allOf": "schema-list", "minProperties": "count", "maxProperties": "count"}.get(kw, "any")
    slot = {"patternProperties": "map", "dependentSchemas": "map", "propertyNames": "schema", "allOf": "list"}.get(kw)
    body = order + f"keywords:\n  {kw}: {{class: supported, value: {value_kind}, cite: [O-SO]}}\n"
    body += f"slots:\n  {kw}: {{kind: {slot}, depth: 1}}\n" if slot else ""
    f = new_version(openai_spec, body)
    err = refusal(openai_spec)
    assert (err.file, err.line, err.path) == (str(f), 9, f"keywords.{kw}.class")
    assert f"policy.{rule}" in err.message and "cannot keep it" in err.message
    if kw in actions.CONJUNCTIVE:  # (closed objects break it whatever optional properties become)
        return
    # Where optional properties stay optional (no nulls sent), the same keyword is kept.
    rules = _rules_of_new_version(openai_spec, tmp_path, body + "policy:\n  optional_properties: {rule: allowed, cite: [O-SO]}\n")
    schema = {**_PRESENCE_TOOL, kw: json.loads(value)}
    res = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, rules=rules, strict=True)
    assert res.status == "strict" and not res.null_paths
    assert kw in res.tool["parameters"]


def test_a_value_handler_on_a_dropped_keyword_is_refused(openai_spec, tmp_path):
    f = new_version(openai_spec, "keywords:\n  format: {class: tier1, value: string, handler: format, cite: [O-SO]}\n")
    err = refusal(openai_spec)
    assert (err.file, err.line, err.path) == (str(f), 7, "keywords.format.handler")
    assert "'format' checks the value of a kept keyword, but class 'tier1' drops 'format'" in err.message
    # A version that only moves the keyword to a dropping class inherits its handler: that generates,
    # and the keyword is dropped as a lossy change.
    rules = _rules_of_new_version(openai_spec, tmp_path, "keywords:\n  format: {class: tier1, value: string, cite: [O-SO]}\n")
    tool = {"name": "t", "description": "d", "inputSchema": {
        "type": "object", "required": ["e"], "additionalProperties": False,
        "properties": {"e": {"type": "string", "format": "email"}}}}
    res = compile_tool(tool, rules=rules)
    assert res.status == "non-strict"
    assert ("openai/unsupported-keyword", "#/properties/e/format") in {(d.code, d.path) for d in res.diagnostics}


def test_a_transformation_pattern_no_action_records_is_refused(openai_spec):
    f = new_version(openai_spec, "transformations:\n  dropped-unknown-keyword: {pattern: dropped-everything}\n")
    err = refusal(openai_spec)
    assert (err.file, err.line, err.path) == (str(f), 7, "transformations.dropped-unknown-keyword.pattern")
    assert "no action records change pattern 'dropped-everything'" in err.message


def test_closing_objects_where_a_free_form_object_only_reports_is_refused_at_the_rule(spec):
    # Gemini's parameters dialect has no additionalProperties: a free-form object keeps its meaning
    # there, and only reports. A version that closes objects makes it a place the walk gives up.
    family = spec / "gemini-parameters"
    parent = "2025-10-15"  # (objects unlisted, free-form-object reports)
    f = family / f"{NEW}.yaml"
    f.write_text(f'provider: gemini-parameters\ntarget: {{name: gemini, api: parameters}}\nversion: "{NEW}"\n'
                 f'reviewed: "2026-12-01"\nextends: "{parent}"\nsummary: test\n'
                 "policy:\n  objects: {rule: closed, cite: [G-API]}\n", encoding="utf-8")
    err = refusal(spec)
    assert (err.file, err.line, err.path) == (str(f), 8, "policy.objects.rule")
    assert re.search(r"the walk reports 'gemini/(open-map|free-form-object)' where it gives the place up", err.message)


def test_a_provider_that_leaves_recursion_allowed_must_catalogue_its_infinite_kind(spec):
    # policy.recursion left out is `allow`: the walk then reports a definition that reaches itself
    # without a step into the value (infinite-recursion), so the catalogue needs a code for it.
    acme = second_provider(spec, keep_patterns=True)
    base = acme / "2024-08-06.yaml"
    text = base.read_text(encoding="utf-8")
    cut = re.sub(r"(?m)^  acme/infinite-recursion:\n(?:    .*\n)+", "", text)
    assert cut != text and "recursion:" not in speclib.load_yaml(base).data["policy"]
    base.write_text(cut, encoding="utf-8")
    err = refusal(spec)
    assert err.file == str(base) and err.path == "diagnostics"
    assert "pattern 'infinite-recursion', which the walk reports under policy.recursion 'allow'" in err.message


@pytest.mark.parametrize("kw, value, wanted", [("maxLength", "string", "count"), ("maxLength", "any", "count"),
                                                ("minimum", "any", "number"), ("multipleOf", "number", "positive-number")])
def test_a_kept_keyword_is_checked_as_the_metaschema_asks(openai_spec, kw, value, wanted):
    # `maxLength: "abc"` and `minimum: "zz"` were sent strict (a schema the provider rejects) and a
    # valid `maxLength: 5` refused (the red-team's round of the twelfth session).
    f = new_version(openai_spec, f"keywords:\n  {kw}: {{class: supported, value: {value}, cite: [O-SO]}}\n")
    err = refusal(openai_spec)
    assert (err.file, err.line, err.path) == (str(f), 7, f"keywords.{kw}.value")
    assert f"takes {wanted!r} values in JSON Schema 2020-12's metaschema" in err.message


def test_a_code_a_set_field_or_handler_reports_is_not_reserved(openai_spec):
    # description.max_chars set on a version where its code is reserved ("never emitted"): the code
    # was emitted all the same (the red-team's round of the twelfth session). The check found the
    # same of the built-in Gemini and Vertex versions' const-to-enum and pattern codes.
    f = new_version(openai_spec, "description: {max_chars: 20, cite: [O-SO]}\n")
    err = refusal(openai_spec)
    assert err.file == str(f) and "description-over-char-limit" in err.message and "marked reserved" in err.message
    for (section, name), patterns in actions.SELECTED_BY.items():
        assert set(patterns) <= actions.REPORTED_WHERE_SELECTED, (section, name)
