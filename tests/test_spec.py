"""The rule spec: OpenAI's history as versions, citations, and the loader's checks with file:line errors."""

from __future__ import annotations

import itertools
import shutil
import sys
from pathlib import Path

import pytest

from toolcast import _tables
from toolcast.rules import get_rules

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_tables  # noqa: E402
import speclib  # noqa: E402
from spec_versions import DEFAULT, LATEST, NEXT, VERSIONS, after  # noqa: E402

# The reviewed readings of OpenAI's history, in order. Versions a maintainer adds join the chain;
# these stay in it.
REVIEWED = ("2024-08-06", "2025-05-20", "2025-11-30", "2026-08-20", "2026-10-17")
HISTORY = VERSIONS
LIMIT_NAMES = ("max_properties", "max_depth", "max_string_chars", "max_enum_values", "large_enum_threshold",
               "large_enum_chars")


def limits(version: str) -> tuple:
    r = get_rules(version)
    return tuple(r.limit(n) for n in LIMIT_NAMES)


def test_generated_tables_are_fresh(capsys):
    assert gen_tables.main(["--check"]) == 0, capsys.readouterr().out


def test_history_is_one_chain_from_the_launch():
    assert _tables.VERSIONS["openai"] == HISTORY
    assert [v for v in HISTORY if v in REVIEWED] == list(REVIEWED)
    assert _tables.DEFAULTS["openai"] == DEFAULT
    assert get_rules("2024-08-06").extends is None
    for older, newer in itertools.pairwise(HISTORY):
        assert get_rules(newer).extends == older
    # Extending files state only what changed: none repeats the catalogue or the slots. `output_order` is
    # restated whole (spec/README.md), and the generator requires every supported keyword in it: a file
    # states it only to add the keywords it makes supported, keeping the order it extends.
    for older, v in itertools.pairwise(HISTORY):
        doc = speclib.load_yaml(ROOT / "spec" / "openai" / f"{v}.yaml").data
        for section in ("diagnostics", "transformations", "keywords"):
            assert len(doc.get(section, {})) < 25, (v, section)
        assert "slots" not in doc, v
        if "output_order" in doc:
            before, after = get_rules(older), get_rules(v)
            added = [k for k in after.output_order if k not in before.output_order]
            made_supported = {k for k, e in (doc.get("keywords") or {}).items()
                              if isinstance(e, dict) and e.get("class") == "supported"
                              and (k not in before.keywords or before.keywords[k][0] != "supported")}
            assert added and set(added) <= made_supported, (v, added, made_supported)
            assert [k for k in after.output_order if k in before.output_order] == list(before.output_order), v


def test_launch_limits_and_when_they_changed():
    assert limits("2024-08-06") == (100, 5, 15000, 500, 250, 7500)
    assert limits("2025-05-20") == (100, 5, 15000, 500, 250, 7500)  # raised later, not at the widening
    assert limits("2025-11-30") == (5000, 10, 120000, 1000, 250, 15000)
    assert limits("2026-10-17") == limits("2025-11-30")
    assert get_rules("2024-08-06").limits["max_properties"][2] == ("O-LAUNCH-LIMITS",)
    assert get_rules("2024-08-06").limits["max_enum_values"][2] == ("O-LAUNCH-ENUM",)


WIDENED = ("pattern", "format", "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
           "minItems", "maxItems")


def test_keywords_not_yet_allowed_at_launch():
    launch, widened = get_rules("2024-08-06"), get_rules("2025-05-20")
    for kw in WIDENED:
        assert launch.keywords[kw][0] == "tier1", kw
        assert widened.keywords[kw][0] == "supported", kw
        assert "O-WIDENING-2025" in widened.keywords[kw][6], kw
    assert launch.formats == frozenset()
    assert widened.formats == {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
    assert launch.keywords["maxLength"][0] == "tier1" and launch.keywords["maxLength"][6] == ("E-NOT-PERMITTED",)
    assert widened.keywords["maxLength"][0] == "tier2"
    assert get_rules("2026-10-17").keywords["maxLength"][0] == "supported"


def test_description_character_cap_is_dated_by_its_evidence():
    assert get_rules("2024-08-06").module.DESCRIPTION_MAX_CHARS == 1024
    assert get_rules("2025-11-30").module.DESCRIPTION_MAX_CHARS == 1024
    assert get_rules("2026-08-20").module.DESCRIPTION_MAX_CHARS is None  # `null` removed the inherited cap
    assert get_rules("2026-08-20").description_max_bytes == 4096
    from toolcast.compile import compile_tool

    t = {"name": "t", "description": "é" * 1100, "parameters": {"type": "object", "properties": {}}}
    old = compile_tool(t, rules="2025-05-20")
    assert len(old.tool["description"]) == 1024
    assert [d.code for d in old.diagnostics if d.code.startswith("openai/description")] == [
        "openai/description-over-char-limit"]
    new = compile_tool(t, rules="2026-08-20")
    assert len(new.tool["description"]) == 1100
    assert not [d for d in new.diagnostics if d.code.startswith("openai/description")]


def test_lookaround_becomes_unsupported_with_evidence():
    assert get_rules("2025-05-20").module.REGEX_FEATURES["lookahead"][0] == "unconfirmed"
    assert get_rules("2026-08-20").module.REGEX_FEATURES["lookahead"] == ("unsupported", ("E-LOOKAROUND",))
    assert get_rules("2026-10-17").module.REGEX_FEATURES["lookbehind"][0] == "unsupported"
    assert get_rules("2024-08-06").module.REGEX_FEATURES == {}


def test_every_citation_resolves_and_every_source_has_an_address():
    for v in HISTORY:
        r = get_rules(v)
        cited = set(r.module.NAME_CITE) | set(r.module.DESCRIPTION_CITE)
        for e in r.keywords.values():
            cited |= set(e[6])
        for lim in r.limits.values():
            cited |= set(lim[2])
        for c in r.module.FORMATS.values():
            cited |= set(c)
        for d in r.diagnostics.values():
            cited |= set(d[4])
        for f in r.module.REGEX_FEATURES.values():
            cited |= set(f[1])
        assert cited <= set(r.sources), (v, cited - set(r.sources))
        for sid, s in r.sources.items():
            # An observation (evidence O) points at its probe record in the repository instead.
            assert s[1].startswith("https://") or (s.evidence == "O" and s[1] == "spec/" + s.record), sid


# -- the loader's checks on a copy -------------------------------------------------------------
@pytest.fixture
def spec(tmp_path) -> Path:
    d = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", d)
    return d


def write(spec: Path, version: str, body: str) -> Path:
    f = spec / "openai" / f"{version}.yaml"
    f.write_text(f'provider: openai\nversion: "{version}"\nreviewed: "{version}"\nextends: "{LATEST}"\n'
                 f"summary: test\n{body}", encoding="utf-8")
    return f


def build_error(spec: Path) -> speclib.SpecError:
    with pytest.raises(speclib.SpecError) as info:
        gen_tables.build(spec)
    return info.value


def test_duplicate_key_points_at_its_line(spec):
    write(spec, NEXT, "formats:\n  uri: [O-SO]\n  uri: [O-SO]\n")
    err = build_error(spec)
    assert err.file.endswith(f"{NEXT}.yaml") and err.line == 8 and "duplicate key 'uri'" in err.message


def test_unknown_citation(spec):
    write(spec, NEXT, "formats:\n  uri: [NOPE]\n")
    err = build_error(spec)
    assert err.path == "formats.uri[0]" and "NOPE" in err.message and err.line == 7


def test_unknown_regex_feature_lists_the_known_ones(spec):
    write(spec, NEXT, "regex_features:\n  look-around: {class: unsupported, cite: [O-SO]}\n")
    err = build_error(spec)
    assert "unknown regex feature 'look-around'" in err.message and "lookahead" in err.message


def test_a_dropping_regex_class_must_be_lossy(spec):
    write(spec, NEXT, "regex_feature_classes:\n  unsupported: {action: drop, diagnostic: "
                              "openai/regex-feature-unsupported, transformation: truncated-description}\n")
    assert "not marked lossy" in build_error(spec).message


def test_pattern_handler_belongs_to_pattern(spec):
    write(spec, NEXT, "keywords:\n  maxLength: {class: supported, value: count, handler: pattern, cite: [O-SO]}\n")
    assert "belongs to keyword 'pattern'" in build_error(spec).message


def test_message_placeholders_are_checked(spec):
    write(spec, NEXT, 'diagnostics:\n  openai/unknown-keyword: {message: "bad {nonsense}"}\n')
    err = build_error(spec)
    assert "nonsense" in err.message and err.path == "diagnostics.openai/unknown-keyword.message"


def test_extending_an_unknown_version_lists_the_known(spec):
    f = write(spec, NEXT, "")
    unknown = after(NEXT)
    f.write_text(f.read_text().replace(f'extends: "{LATEST}"', f'extends: "{unknown}"'))
    err = build_error(spec)
    assert unknown in err.message and "2024-08-06" in err.message


def test_meta_schema_rejects_unknown_fields(spec):
    write(spec, NEXT, "regex_features:\n  lookahead: {class: unsupported, cite: [O-SO], note: x}\n")
    err = build_error(spec)
    assert err.path.startswith("regex_features.lookahead") and err.line == 7


def test_meta_schema_is_a_valid_draft_2020_12_schema():
    import json

    from jsonschema import Draft202012Validator

    meta = json.loads((ROOT / "spec" / "spec.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(meta)
    assert meta["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert meta["additionalProperties"] is False


def test_every_pattern_the_code_reports_is_declared_and_in_every_catalogue():
    """A pattern string in src/ that walk.actions does not declare, or a rule version does not map,
    would crash compiles under that version; the code spells no provider's codes itself."""
    import re

    from toolcast.rules import available, get_rules
    from toolcast.walk import actions

    files = [p for p in (ROOT / "src" / "toolcast").rglob("*.py") if "_tables" not in p.parts]
    src = "\n".join(p.read_text(encoding="utf-8") for p in files)
    reported = {a or b or c for a, b, c in re.findall(
        r'(?:self|walk)\.(?:report|refuse|record)\("([a-z0-9-]+)"|rep\.diag\("([a-z0-9-]+)"|(?:patterns|codes)\["([a-z0-9-]+)"\]', src)}
    changed = {a or b for a, b in re.findall(r'(?:self|rep)\.change\("([a-z0-9-]+)"|changes\["([a-z0-9-]+)"\]', src)}
    assert len(reported) > 30 and len(changed) > 15
    assert reported <= actions.ALL_REPORTS, sorted(reported - actions.ALL_REPORTS)
    assert changed <= actions.ALL_CHANGES, sorted(changed - actions.ALL_CHANGES)
    provider_modules = {"openai.py", "_openai_runtime.py"}
    assert not [p.name for p in files if p.name not in provider_modules and '"openai/' in p.read_text(encoding="utf-8")]
    needed = actions.ALL_REPORTS - actions.POLICY_ONLY_REPORTS  # (those only under a policy rule it selects)
    for version in available("openai"):
        r = get_rules(f"openai@{version}")
        assert set(r.patterns) >= needed, (version, sorted(needed - set(r.patterns)))
        assert set(r.changes) >= actions.ALL_CHANGES, (version, sorted(actions.ALL_CHANGES - set(r.changes)))
        assert set(r.patterns.values()) <= set(r.diagnostics) and set(r.changes.values()) <= set(r.transformations)
