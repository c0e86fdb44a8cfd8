"""The provider-neutral catalogue (spec/catalogue.yaml), `extends` across providers, `rules diff`
across providers, and a spec folder loaded at run time (toolcast.rules.load_spec_dir, --spec DIR,
TOOLCAST_SPEC_PATH)."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rule_facts import limit

from toolcast import rules as registry
from toolcast import rules_diff
from toolcast.cli import rules as rules_cli
from toolcast.rules import SpecFolderError, get_rules

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_tables  # noqa: E402
import speclib  # noqa: E402
from spec_versions import default_version  # noqa: E402

OPENAI = default_version("openai")
ANTHROPIC = default_version("anthropic")


def acme_yaml(parent: str = f"openai@{OPENAI}", extra: str = "") -> str:
    """An OpenAI-compatible host as data: OpenAI's rules without `pattern`, at most 64 properties."""
    return f"""\
provider: acme
version: "2026-01-01"
reviewed: "2026-01-01"
extends: {parent}
summary: >-
  An OpenAI-compatible host: function tools with a strict flag, no `pattern`, 64 properties.
terms:
  provider_name: Acme Cloud
  docs: "https://acme.example/docs/tools"
catalogue_cite: [ACME-TOOLS]
sources:
  ACME-TOOLS:
    title: "Acme Cloud — tool calling"
    url: "https://acme.example/docs/tools"
    date: "2026-01-01"
    evidence: D
limits:
  max_properties: {{value: 64, cite: [ACME-TOOLS]}}
keywords:
  pattern: {{class: tier1, value: string, cite: [ACME-TOOLS]}}
{extra}"""


def tool(**props) -> dict:
    return {"name": "t", "description": "d", "inputSchema": {
        "type": "object", "properties": props, "required": list(props), "additionalProperties": False}}


@pytest.fixture
def spec(tmp_path) -> Path:
    d = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", d)
    return d


@pytest.fixture
def fresh_registry():
    """The rules registry as it was before the test loaded a spec folder into it."""
    saved = (dict(registry.VERSIONS), dict(registry.DEFAULTS), dict(registry.FAMILIES), dict(registry._LOADED),
             registry.PROVIDERS)
    yield registry
    for live, old in zip((registry.VERSIONS, registry.DEFAULTS, registry.FAMILIES, registry._LOADED), saved,
                         strict=False):
        live.clear()
        live.update(old)
    registry.PROVIDERS = saved[4]
    registry._load.cache_clear()
    registry._RESOLVED.clear()


def built(spec: Path) -> dict:
    found, _files = gen_tables.build(spec)
    return found


# -- the catalogue -----------------------------------------------------------------------------
def test_every_provider_base_extends_the_catalogue_and_states_only_what_differs():
    cat = speclib.load_yaml(ROOT / "spec" / "catalogue.yaml").data
    for provider in ("openai", "anthropic", "gemini", "gemini-parameters", "vertex", "vertex-parameters"):
        base = [f for f in sorted((ROOT / "spec" / provider).glob("*.yaml"))
                if "extends" not in speclib.load_yaml(f).data or speclib.load_yaml(f).data["extends"] == "catalogue"]
        doc = speclib.load_yaml(base[0]).data
        assert doc["extends"] == "catalogue", provider
        # Most catalogue codes are not restated at all, and none is restated whole.
        prefix = doc.get("target", {}).get("name", provider)
        own = {c.split("/", 1)[1]: e for c, e in doc["diagnostics"].items()
               if c.startswith(prefix + "/") and c.split("/", 1)[1] in cat["diagnostics"]}
        whole = [c for c, e in own.items() if e and {"severity", "outcome", "message"} <= set(e)]
        assert len(whole) < len(cat["diagnostics"]) // 10, (provider, whole)
        assert not [c for c, e in own.items() if e and "pattern" in e], provider  # (the catalogue's)


def test_a_catalogue_message_is_filled_in_with_each_providers_name(spec):
    # One edit in the catalogue changes the message of every provider, each naming itself.
    cat = spec / "catalogue.yaml"
    text = cat.read_text(encoding="utf-8")
    new = re.sub(r'(  tool-name-missing:.*?message: )"[^"]*"', r'\1"The tool has no name; {provider_name} needs one."',
                 text, count=1, flags=re.S)
    assert new != text
    cat.write_text(new, encoding="utf-8")
    found = built(spec)
    names = {"openai": "OpenAI", "anthropic": "Anthropic", "gemini": "Gemini", "vertex": "Vertex AI"}
    for provider, name in names.items():
        for version in found[provider].values():
            d = version.resolved["diagnostics"][f"{provider}/tool-name-missing"]
            assert d["message"] == f"The tool has no name; {name} needs one."
            assert d["severity"] == "error" and d["outcome"] == "refuses"


def test_a_catalogue_template_naming_no_term_of_the_provider_is_refused(spec):
    cat = spec / "catalogue.yaml"
    text = cat.read_text(encoding="utf-8")
    cat.write_text(re.sub(r'(  tool-name-missing:.*?message: )"[^"]*"', r'\1"No name; {vendor_label} needs one."',
                          text, count=1, flags=re.S), encoding="utf-8")
    with pytest.raises(speclib.SpecError) as info:
        built(spec)
    assert "unknown placeholder {vendor_label}" in info.value.message
    assert info.value.path.endswith("tool-name-missing.message")


# -- extends across providers ------------------------------------------------------------------
def test_a_provider_extends_another_providers_rules_and_names_itself(spec):
    (spec / "acme").mkdir()
    (spec / "acme" / "2026-01-01.yaml").write_text(acme_yaml(), encoding="utf-8")
    r = built(spec)["acme"]["2026-01-01"].resolved
    openai = built(ROOT / "spec")["openai"][OPENAI].resolved
    # Every OpenAI code, under acme's prefix; no code of another prefix is left anywhere.
    assert {c.replace("openai/", "acme/", 1) for c in openai["diagnostics"]} == set(r["diagnostics"])
    assert r["limits"]["max_properties"] == {"value": 64, "code": "acme/too-many-properties", "cite": ["ACME-TOOLS"],
                                             "counts": "properties"}
    assert r["keyword_classes"]["tier1"]["diagnostic"] == "acme/unsupported-keyword"
    assert all(c.startswith("acme/") for c in r["policy"]["always_refused"]["codes"])
    text = json.dumps({k: v for k, v in r.items() if k != "sources"})  # (OpenAI's sources stay: SDK paths)
    assert "openai/" not in text
    # Messages name Acme Cloud, links point at its docs, except the provider-neutral ones.
    d = r["diagnostics"]
    assert d["acme/duplicate-tool-name"]["message"].endswith("Acme Cloud requires unique names.")
    assert not [c for c, e in d.items() if "OpenAI" in e["message"]]
    assert d["acme/tool-name-too-long"]["docs"] == "https://acme.example/docs/tools"
    assert d["acme/tool-name-too-long"]["cite"] == ["ACME-TOOLS"]
    assert d["acme/non-json-value"]["docs"].startswith("https://www.rfc-editor.org/")
    assert not [c for c, e in d.items() if "openai.com" in e["docs"]]
    assert r["keywords"]["pattern"]["class"] == "tier1"
    assert r["keywords"]["minLength"] == openai["keywords"]["minLength"]  # the rest is OpenAI's


def test_extending_another_provider_needs_its_own_name(spec):
    (spec / "acme").mkdir()
    text = acme_yaml().replace("  provider_name: Acme Cloud\n", "")
    (spec / "acme" / "2026-01-01.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(speclib.SpecError) as info:
        built(spec)
    assert info.value.path == "terms" and "terms.provider_name" in info.value.message


def test_extending_an_unknown_version_of_another_provider_is_refused(spec):
    (spec / "acme").mkdir()
    (spec / "acme" / "2026-01-01.yaml").write_text(acme_yaml(parent="openai@1999-01-01"), encoding="utf-8")
    with pytest.raises(speclib.SpecError) as info:
        built(spec)
    assert info.value.path == "extends" and "unknown version 'openai@1999-01-01'" in info.value.message


# -- rules diff across providers ---------------------------------------------------------------
def test_rules_diff_across_providers_compares_codes_by_pattern():
    d = rules_diff.diff_rules(get_rules(f"openai@{OPENAI}"), get_rules(f"anthropic@{ANTHROPIC}"))
    by_code = {x["code"]: x for x in d["diagnostics"]}
    # A pattern both report is not "added" under one prefix and "removed" under the other.
    assert "openai/tool-name-missing" not in by_code
    assert set(by_code["anthropic/tool-name-missing"]["fields"]) == {"docs"}
    changed = by_code["anthropic/array-missing-items"]
    assert changed["change"] == "changed" and set(changed["fields"]) == {"message", "docs"}
    # Only one side's codes are added or removed, each under its own provider's name.
    assert by_code["openai/default-keyword-dropped"]["change"] == "removed"
    assert by_code["anthropic/recursive-schema"]["change"] == "added"
    # Classes that report the same pattern under each prefix are not listed as changed.
    assert not [x for x in d["classes"] if x["kind"] == "keyword" and x["class"] == "tier1"]


def test_rules_diff_text_lists_a_changed_docs_link_once():
    out = io.StringIO()
    rules_cli.diff(out, f"openai@{OPENAI}", f"anthropic@{ANTHROPIC}", "text")
    text = out.getvalue()
    assert "\ndocs links\n" in text
    assert "~ anthropic/boolean-subschema" not in text  # (its docs link is its only difference)


# -- a spec folder loaded at run time ----------------------------------------------------------
def test_load_spec_dir_adds_a_provider_extending_a_builtin_one(tmp_path, fresh_registry):
    (tmp_path / "acme").mkdir()
    (tmp_path / "acme" / "2026-01-01.yaml").write_text(acme_yaml(), encoding="utf-8")
    assert registry.load_spec_dir(tmp_path) == ("acme",)
    assert "acme" in registry.providers() and registry.default_version("acme") == "2026-01-01"
    r = get_rules("acme")
    assert r.id == "acme@2026-01-01" and r.extends == f"openai@{OPENAI}"
    assert r.limit("max_properties") == 64 and r.dropped("pattern")
    assert r.patterns["duplicate-tool-name"] == "acme/duplicate-tool-name"
    assert "Acme Cloud" in r.diagnostics["acme/duplicate-tool-name"].message
    assert r.wire["default_api"] == get_rules(f"openai@{OPENAI}").wire["default_api"]  # OpenAI's wire, inherited
    # The same rules as the generator writes for the folder inside spec/.
    out = io.StringIO()
    rules_cli.diff(out, f"openai@{OPENAI}", "acme", "json")
    d = json.loads(out.getvalue())
    assert [x["keyword"] for x in d["keywords"]] == ["pattern"]
    assert [(x["limit"], x["to"]) for x in d["limits"]] == [("max_properties", 64)]


def test_load_spec_dir_refuses_a_bad_file_with_its_line(tmp_path, fresh_registry):
    (tmp_path / "acme").mkdir()
    text = acme_yaml(extra="formats:\n  uri: [NO-SUCH-SOURCE]\n")
    (tmp_path / "acme" / "2026-01-01.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(SpecFolderError) as info:
        registry.load_spec_dir(tmp_path)
    line = text.splitlines().index("  uri: [NO-SUCH-SOURCE]") + 1
    assert f"2026-01-01.yaml:{line}: formats.uri[0]: citation 'NO-SUCH-SOURCE' is not in sources" in str(info.value)
    assert "acme" not in registry.providers()


def test_load_spec_dir_refuses_to_replace_a_builtin_provider(tmp_path, fresh_registry):
    (tmp_path / "openai").mkdir()
    text = acme_yaml().replace("provider: acme", "provider: openai").replace('version: "2026-01-01"',
                                                                            'version: "2030-01-01"')
    (tmp_path / "openai" / "2030-01-01.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(SpecFolderError, match="provider 'openai' is built in"):
        registry.load_spec_dir(tmp_path)
    assert registry.available("openai")[-1] != "2030-01-01"


def _run(args: list[str], env: dict | None = None) -> subprocess.CompletedProcess:
    full = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-c", "import sys; from toolcast.cli.main import main; sys.exit(main())", *args],
                          capture_output=True, text=True, env=full, timeout=300)


def test_the_cli_loads_a_spec_folder_by_option_and_by_environment(tmp_path):
    (tmp_path / "acme").mkdir()
    (tmp_path / "acme" / "2026-01-01.yaml").write_text(acme_yaml(), encoding="utf-8")
    p = _run(["--spec", str(tmp_path), "rules", "show", "acme"])
    assert p.returncode == 0, p.stderr
    assert "acme@2026-01-01" in p.stdout and "acme/too-many-properties" in p.stdout
    p = _run(["rules", "diff", f"openai@{OPENAI}", "acme@2026-01-01"], env={"TOOLCAST_SPEC_PATH": str(tmp_path)})
    assert p.returncode == 0, p.stderr
    # (OpenAI's figure read from the rules diffed, whatever a newer default version makes it)
    assert re.search(rf"^  max_properties +{limit('properties', rules=f'openai@{OPENAI}')} -> 64 ", p.stdout, re.M), p.stdout
    p = _run(["rules", "show", "acme"])
    assert p.returncode == 2 and "unknown rule version 'acme'" in p.stderr
    p = _run(["--spec", str(tmp_path / "missing"), "rules", "list"])
    assert p.returncode == 2 and "not a folder" in p.stderr


def test_new_rules_version_scaffolds_a_provider_that_extends_another(spec):
    import new_rules_version

    path, parent = new_rules_version.scaffold(spec, "acme", "2026-01-01", parent=f"openai@{OPENAI}")
    assert path == spec / "acme" / "2026-01-01.yaml" and parent == f"openai@{OPENAI}"
    r = built(spec)["acme"]["2026-01-01"].resolved
    assert r["extends"] == f"openai@{OPENAI}" and "acme/too-many-properties" in r["diagnostics"]
    with pytest.raises(SystemExit, match="exists"):
        new_rules_version.scaffold(spec, "acme", "2026-02-01", parent=f"openai@{OPENAI}")
