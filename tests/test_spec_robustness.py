"""Malformed spec files are rejected by the generator with file:line (and the path inside the file).

Each case writes one bad rule version into a copy of spec/ and runs gen_tables.build on it:
a schema violation, a duplicate key, a keyword in two classes, an unknown code, a bad
citation, and a few more. The real spec/ and src/ are never touched.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_tables  # noqa: E402
import speclib  # noqa: E402
from spec_versions import LATEST, NEXT, after  # noqa: E402

NEW = NEXT  # a date after every version


@pytest.fixture
def spec(tmp_path) -> Path:
    d = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", d)
    return d


def write(spec: Path, body: str, header: str | None = None) -> Path:
    f = spec / "openai" / f"{NEW}.yaml"
    head = header if header is not None else (
        f'provider: openai\nversion: "{NEW}"\nreviewed: "{NEW}"\nextends: "{LATEST}"\nsummary: test\n')
    f.write_text(head + body, encoding="utf-8")
    return f


def error(spec: Path) -> speclib.SpecError:
    with pytest.raises(speclib.SpecError) as info:
        gen_tables.build(spec)
    err = info.value
    assert err.file.endswith(f"{NEW}.yaml"), err
    assert str(err).startswith(f"{err.file}:{err.line}:") if err.line else True
    return err


def test_copy_of_the_real_spec_builds(spec):
    gen_tables.build(spec)


@pytest.mark.parametrize("body, line, words", [
    # schema violations (spec/spec.schema.json)
    ("keywords:\n  minLength: {class: supported, value: count, cite: [O-SO], bogus: 1}\n", 7, ["bogus"]),
    ("limits:\n  max_depth: {value: ten, code: openai/schema-too-deep, cite: [O-SO]}\n", 7, ["ten"]),
    ("keywords:\n  minLength: {class: supported, value: count}\n", 7, ["cite", "not valid"]),
    ("formats: [uri]\n", 6, ["array", "object"]),
])
def test_schema_violation_is_located(spec, body, line, words):
    write(spec, body)
    err = error(spec)
    assert err.line == line, (err.line, str(err))
    text = str(err).lower()
    assert any(w.lower() in text for w in words), str(err)


def test_duplicate_key_is_located(spec):
    write(spec, "keywords:\n  minLength: {class: supported, value: count, cite: [O-SO]}\n"
                "  minLength: {class: tier2, value: count, cite: [O-SO]}\n")
    err = error(spec)
    assert err.line == 8 and "duplicate key 'minLength'" in err.message


def test_duplicate_key_in_flow_mapping(spec):
    write(spec, "keywords:\n  minLength: {class: supported, class: tier2, value: count, cite: [O-SO]}\n")
    err = error(spec)
    assert err.line == 7 and "duplicate key 'class'" in err.message


def test_keyword_in_two_classes_is_rejected(spec):
    """A keyword has one `class`; naming it twice (in two class blocks) is a duplicate key."""
    write(spec, "keywords:\n  uniqueItems: {class: tier1, value: bool, cite: [O-NODE]}\n"
                "  uniqueItems: {class: supported, value: bool, cite: [O-SO]}\n")
    err = error(spec)
    assert err.line == 8 and "uniqueItems" in err.message


def test_keyword_in_an_unknown_class(spec):
    write(spec, "keywords:\n  uniqueItems: {class: tier9, value: bool, cite: [O-SO]}\n")
    err = error(spec)
    assert err.line == 7 and "tier9" in err.message


def test_unknown_diagnostic_code_in_a_limit(spec):
    write(spec, "limits:\n  max_depth: {value: 10, code: openai/no-such-code, cite: [O-SO]}\n")
    err = error(spec)
    assert err.line is not None and 7 <= err.line <= 8 and "openai/no-such-code" in err.message


def test_unknown_diagnostic_code_in_a_class(spec):
    write(spec, "keyword_classes:\n  tier1: {action: drop, diagnostic: openai/nope, transformation: dropped-unsupported-keyword}\n")
    err = error(spec)
    assert err.line is not None and 7 <= err.line <= 8 and "openai/nope" in err.message


def test_code_without_provider_prefix(spec):
    write(spec, 'diagnostics:\n  not-prefixed:\n    severity: error\n    outcome: refuses\n    message: "m"\n'
                '    docs: "https://example.com"\n    cite: [O-SO]\n')
    err = error(spec)
    assert err.line is not None and 6 <= err.line <= 8 and "not-prefixed" in err.message


def test_bad_citation_is_located(spec):
    write(spec, "keywords:\n  minLength: {class: supported, value: count, cite: [O-SO, NO-SUCH-SOURCE]}\n")
    err = error(spec)
    assert err.line == 7 and "NO-SUCH-SOURCE" in err.message


def test_citation_of_a_malformed_source(spec):
    write(spec, 'sources:\n  X-1: {title: "no url"}\nformats:\n  uri: [X-1]\n')
    err = error(spec)
    assert err.line in (7, 8)


def test_not_a_mapping(spec):
    write(spec, "", header="- just\n- a list\n")
    err = error(spec)
    assert err.line in (None, 1)


def test_invalid_yaml_is_located(spec):
    write(spec, "keywords:\n  minLength: {class: supported,, value\n")
    err = error(spec)
    assert err.line in (7, 8)


def test_version_not_matching_file_name(spec):
    other = after(NEW)
    write(spec, "", header=f'provider: openai\nversion: "{other}"\nreviewed: "{NEW}"\nextends: "{LATEST}"\nsummary: t\n')
    err = error(spec)
    assert err.line == 2 and other in err.message


def test_yaml_alias_in_a_spec_is_rejected(spec):
    write(spec, "formats:\n  uri: &c [O-SO]\n  iri: *c\n")
    err = error(spec)
    assert err.line in (7, 8) and "alias" in err.message and err.path == "formats.iri"


def test_generator_cli_reports_file_line_and_exits_nonzero(spec, tmp_path):
    write(spec, "formats:\n  uri: [NOPE]\n")
    p = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_tables.py"), "--spec", str(spec), "--out",
                        str(tmp_path / "tables"), "--docs", str(tmp_path / "codes.md")], capture_output=True, text=True, timeout=120)
    assert p.returncode != 0
    assert f"{NEW}.yaml:7" in p.stderr + p.stdout
    assert "Traceback" not in p.stderr
    assert not (tmp_path / "tables").exists() or not any((tmp_path / "tables").iterdir())
