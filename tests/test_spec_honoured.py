"""The generator refuses, with file:line, a spec the interpreter cannot honour; a second provider is data."""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
from pathlib import Path

import pytest

from toolcast.compile import compile_tool
from toolcast.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_tables  # noqa: E402
import speclib  # noqa: E402


@pytest.fixture
def spec(tmp_path) -> Path:
    d = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", d)
    return d


def new_version(spec: Path, body: str) -> Path:
    f = spec / "openai" / "2026-12-01.yaml"
    f.write_text('provider: openai\nversion: "2026-12-01"\nreviewed: "2026-12-01"\nextends: "2026-10-17"\n'
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
    assert re.search(r"the catalogue has no code for pattern '[a-z-]+', which the interpreter's '[a-z]+' action "
                     r"reports", err.message)


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
    return Rules(_load(out / "openai_2026_12_01.py", f"tc_openai_2026_12_01_{tmp_path.name}"))


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
