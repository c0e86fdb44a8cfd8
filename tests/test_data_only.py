"""Rule changes are data only: edit YAML in a copy of spec/, regenerate there, observe the change."""

from __future__ import annotations

import importlib.util
import io
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from toolcast.cli import rules as rules_cli
from toolcast.compile import compile_tool
from toolcast.rules import Rules, get_rules

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import gen_tables  # noqa: E402
import new_rules_version  # noqa: E402
from spec_versions import DEFAULT, LATEST, NEXT  # noqa: E402

# The reviewed version these edits start from: its rules are known here (uri is not a format, at most
# 5,000 properties, ...). Each new version extends it by name and is dated NEXT, after every version,
# so the tests mean the same whatever versions a maintainer adds.
BASE = "2026-10-17"


class Copy:
    """A temporary spec/ copy with its own generated tables, loaded without touching toolcast._tables."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.spec = tmp / "spec"
        shutil.copytree(ROOT / "spec", self.spec)
        self.python_before = sorted(p.relative_to(ROOT) for p in (ROOT / "src").rglob("*.py"))

    def file(self, version: str) -> Path:
        return self.spec / "openai" / f"{version}.yaml"

    def append(self, version: str, text: str) -> None:
        with self.file(version).open("a", encoding="utf-8") as fh:
            fh.write("\n" + text.strip("\n") + "\n")

    def new_version(self, version: str, text: str = "", default: bool = False, parent: str | None = BASE) -> None:
        new_rules_version.scaffold(self.spec, "openai", version, make_default=default, parent=parent)
        if text:
            self.append(version, text)

    def regenerate(self) -> dict[str, Rules]:
        out = self.tmp / "tables"
        code = gen_tables.main(["--spec", str(self.spec), "--out", str(out), "--docs", str(self.tmp / "codes.md")])
        assert code == 0
        index = _load(out / "__init__.py", f"tc_idx_{id(self)}_{len(list(out.glob('*')))}")
        rules = {}
        for v in index.VERSIONS["openai"]:
            name = index.module_name("openai", v)
            rules[v] = Rules(_load(out / f"{name}.py", f"tc_{id(self)}_{name}"))
        return rules


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def copy(tmp_path):
    c = Copy(tmp_path)
    yield c
    # Nothing under src/ was added or removed by the edit-and-regenerate cycle.
    assert sorted(p.relative_to(ROOT) for p in (ROOT / "src").rglob("*.py")) == c.python_before


def tool(**props) -> dict:
    return {"name": "t", "description": "d", "inputSchema": {
        "type": "object", "properties": props, "required": list(props), "additionalProperties": False}}


def codes(res) -> set[tuple[str, str]]:
    return {(d.code, d.path) for d in res.diagnostics}


def diff_json(a: Rules, b: Rules, impact: list[str] | None = None) -> dict:
    out = io.StringIO()
    rules_cli.diff(out, a.id, b.id, "json", impact, rules_a=a, rules_b=b)
    return json.loads(out.getvalue())


def test_unchanged_copy_generates_the_checked_in_tables(copy):
    out = copy.tmp / "tables"
    gen_tables.main(["--spec", str(copy.spec), "--out", str(out), "--docs", str(copy.tmp / "codes.md")])
    for generated in sorted(out.glob("*.py")):
        checked_in = ROOT / "src" / "toolcast" / "_tables" / generated.name
        # The header names the spec file relative to the spec's parent, identical in the copy.
        assert generated.read_text() == checked_in.read_text(), generated.name


def test_move_a_keyword_from_tier2_to_supported(copy):
    t = tool(code={"type": "string", "maxLength": 8})
    before = copy.regenerate()["2026-08-20"]
    res = compile_tool(t, rules=before)
    assert res.status == "non-strict"
    assert ("openai/undocumented-constraint-keyword", "#/properties/code/maxLength") in codes(res)

    copy.append("2026-08-20", "keywords:\n  maxLength: {class: supported, value: count, cite: [O-SO]}")
    rules = copy.regenerate()
    res = compile_tool(t, rules=rules["2026-08-20"])
    assert res.status == "strict"
    assert res.tool["parameters"]["properties"]["code"]["maxLength"] == 8
    d = diff_json(rules["2025-11-30"], rules["2026-08-20"])
    moved = {k["keyword"]: k for k in d["keywords"]}
    assert moved["maxLength"]["from"]["class"] == "tier2"
    assert moved["maxLength"]["to"]["class"] == "supported"
    assert moved["maxLength"]["cite"] == ["O-SO"]


def test_add_a_format(copy):
    t = tool(home={"type": "string", "format": "uri"})
    res = compile_tool(t, rules=copy.regenerate()[BASE])
    assert ("openai/unsupported-string-format", "#/properties/home/format") in codes(res)

    copy.new_version(NEXT, """
sources:
  NEW-URI:
    title: "A test source saying uri is accepted"
    url: "https://example.invalid/uri"
    date: "2026-12"
formats:
  uri: [NEW-URI]
""")
    rules = copy.regenerate()
    res = compile_tool(t, rules=rules[NEXT])
    assert res.status == "strict"
    assert res.tool["parameters"]["properties"]["home"]["format"] == "uri"
    d = diff_json(rules[BASE], rules[NEXT])
    assert d["formats"]["added"] == [{"format": "uri", "cite": ["NEW-URI"]}]
    assert d["citations"]["NEW-URI"]["url"] == "https://example.invalid/uri"
    assert d["sources"]["added"] == ["NEW-URI"]


def test_change_a_limit(copy):
    t = tool(a={"type": "string"}, b={"type": "string"}, c={"type": "string"}, d={"type": "string"})
    assert compile_tool(t, rules=copy.regenerate()[BASE]).status == "strict"
    copy.new_version(NEXT, "limits:\n  max_properties: {value: 3, code: openai/too-many-properties, cite: [O-SO]}")
    rules = copy.regenerate()
    res = compile_tool(t, rules=rules[NEXT], strict=True)
    assert res.status == "refused"
    (diag,) = [x for x in res.diagnostics if x.code == "openai/too-many-properties"]
    assert "4 properties" in diag.message and "at most 3" in diag.message
    d = diff_json(rules[BASE], rules[NEXT])
    assert d["limits"] == [{"limit": "max_properties", "from": 5000, "to": 3, "code": "openai/too-many-properties",
                            "cite": ["O-SO"]}]


def test_change_a_message(copy):
    t = tool(a={"type": "string", "x-vendor": 1})
    copy.new_version(NEXT, 'diagnostics:\n  openai/unknown-keyword: {message: "Vendor key {keyword} ignored."}')
    rules = copy.regenerate()
    (diag,) = [x for x in compile_tool(t, rules=rules[NEXT]).diagnostics if x.code == "openai/unknown-keyword"]
    assert diag.message == "Vendor key x-vendor ignored."
    assert diag.severity == "warning"  # the other fields are inherited
    d = diff_json(rules[BASE], rules[NEXT])
    (change,) = d["diagnostics"]
    assert change["code"] == "openai/unknown-keyword" and change["change"] == "changed"
    assert change["fields"]["message"][1] == "Vendor key {keyword} ignored."


def test_change_severity_and_outcome_shows_in_diff_and_compile(copy):
    t = tool(a={"type": "string", "x-vendor": 1})
    copy.new_version(NEXT, "diagnostics:\n  openai/unknown-keyword: {severity: error, outcome: refuses}")
    rules = copy.regenerate()
    assert compile_tool(t, rules=rules[BASE]).status == "strict"
    assert compile_tool(t, rules=rules[NEXT]).status == "non-strict"
    (change,) = diff_json(rules[BASE], rules[NEXT])["diagnostics"]
    assert change["fields"] == {"severity": ["warning", "error"], "outcome": ["fixes", "refuses"]}


def test_add_a_regex_feature_to_unsupported(copy):
    t = tool(pair={"type": "string", "pattern": r"^(a+)-\1$"})
    res = compile_tool(t, rules=copy.regenerate()[BASE])
    assert res.status == "strict"
    assert ("openai/regex-feature-unconfirmed", "#/properties/pair/pattern") in codes(res)

    copy.new_version(NEXT, "regex_features:\n  backreference: {class: unsupported, cite: [O-SO]}")
    rules = copy.regenerate()
    res = compile_tool(t, rules=rules[NEXT], strict=True, allow_lossy=True)
    assert ("openai/regex-feature-unsupported", "#/properties/pair/pattern") in codes(res)
    assert "pattern" not in res.tool["parameters"]["properties"]["pair"]
    assert compile_tool(t, rules=rules[NEXT]).status == "non-strict"
    d = diff_json(rules[BASE], rules[NEXT])
    assert d["regex_features"] == [{"feature": "backreference", "from": "unconfirmed", "to": "unsupported", "cite": ["O-SO"]}]


def test_add_a_new_default_version_with_impact(copy, tmp_path):
    order = ", ".join(get_rules(f"openai@{BASE}").output_order)
    copy.new_version(NEXT, f"""
keywords:
  uniqueItems: {{class: supported, value: bool, cite: [O-SO]}}
output_order: [{order}, uniqueItems]
""", default=True)
    spec_text = copy.file(NEXT).read_text()
    assert f'extends: "{BASE}"' in spec_text and "default: true" in spec_text
    assert "default: true" not in copy.file(DEFAULT).read_text()
    rules = copy.regenerate()
    index = _load(copy.tmp / "tables" / "__init__.py", "tc_idx_default_check")
    assert index.DEFAULTS["openai"] == NEXT
    assert index.VERSIONS["openai"][-1] == NEXT
    assert rules[NEXT].output_order[-1] == "uniqueItems"
    tools = tmp_path / "tools.jsonl"
    tools.write_text(json.dumps(tool(tags={"type": "array", "items": {"type": "string"}, "uniqueItems": True})) + "\n")
    d = diff_json(rules[BASE], rules[NEXT], [str(tools)])
    assert d["impact"]["counts"]["outcome_changed"] == 1
    assert d["impact"]["outcomes"] == [{"from": "non-strict", "to": "strict", "tools": 1}]
    (detail,) = d["impact"]["tools"]
    assert {"code": "openai/unsupported-keyword", "path": "#/properties/tags/uniqueItems"} in detail["diagnostics_removed"]


def test_scaffolded_version_is_valid_at_once_and_changes_nothing(copy):
    copy.new_version(NEXT, parent=None)  # as spec/README.md says: it extends the latest
    rules = copy.regenerate()
    assert f'extends: "{LATEST}"' in copy.file(NEXT).read_text()
    d = diff_json(rules[LATEST], rules[NEXT])
    assert not any(d[k] for k in ("keywords", "limits", "regex_features", "diagnostics", "transformations"))
    assert d["formats"] == {"added": [], "removed": []}


def test_scaffold_refuses_an_older_or_existing_version(copy):
    with pytest.raises(SystemExit, match="already exists"):
        new_rules_version.scaffold(copy.spec, "openai", LATEST)
    with pytest.raises(SystemExit, match="must be newer"):
        new_rules_version.scaffold(copy.spec, "openai", "2026-01-01")
    with pytest.raises(SystemExit, match="not a real date"):
        new_rules_version.scaffold(copy.spec, "openai", "2026-13-01")
    assert sorted(p.name for p in (copy.spec / "openai").glob("*.yaml")) == sorted(
        p.name for p in (ROOT / "spec" / "openai").glob("*.yaml"))


def test_scaffold_cli_runs_on_a_copy(copy):
    import subprocess

    proc = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "new_rules_version.py"), "openai", NEXT, "--spec", str(copy.spec)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"openai@{LATEST} openai@{NEXT}" in proc.stdout
    assert NEXT in copy.regenerate()


def test_a_bad_edit_is_reported_with_file_and_line(copy, capsys):
    copy.new_version(NEXT, "keywords:\n  maxProperties: {class: supported, value: count, cite: [NOPE]}")
    code = gen_tables.main(["--spec", str(copy.spec), "--out", str(copy.tmp / "t"), "--docs", str(copy.tmp / "c.md")])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{NEXT}.yaml:" in err and "NOPE" in err


def test_add_a_code_to_the_catalogue(copy):
    copy.new_version(NEXT, """
diagnostics:
  openai/example-new-code:
    severity: info
    outcome: reports
    message: "A new finding about {keyword}."
    docs: "https://developers.openai.com/api/docs/guides/function-calling"
    cite: [O-FC]
transformations:
  example-new-change: {lossy: false, detail: "A new change."}
""")
    rules = copy.regenerate()
    assert rules[NEXT].diagnostics["openai/example-new-code"][:2] == ("info", "reports")
    d = diff_json(rules[BASE], rules[NEXT])
    assert d["diagnostics"] == [{"code": "openai/example-new-code", "change": "added", "severity": "info",
                                 "outcome": "reports", "cite": ["O-FC"]}]
    assert d["transformations"] == [{"code": "example-new-change", "change": "added", "lossy": False}]
    back = diff_json(rules[NEXT], rules[BASE])
    assert back["diagnostics"][0]["change"] == "removed"


# -- edits the interpreter cannot honour: each is refused at the offending key's file:line --------

ORDER = ("[$ref, type, title, description, enum, const, pattern, format, minLength, maxLength, multipleOf, minimum, "
         "maximum, exclusiveMinimum, exclusiveMaximum, minItems, maxItems, items, properties, required, "
         "additionalProperties, anyOf, $defs")


def refusal(copy: Copy, capsys, file: Path, line_text: str) -> str:
    """The generator's error for the edited copy, checked to name `file` at the (last) line holding
    `line_text`; the unedited files of the copy are the repository's, which generate."""
    lines = file.read_text(encoding="utf-8").splitlines()
    line = max(i for i, text in enumerate(lines, 1) if line_text in text)
    code = gen_tables.main(["--spec", str(copy.spec), "--out", str(copy.tmp / "t"), "--docs", str(copy.tmp / "c.md")])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"{file}:{line}:" in err, (line, err)
    return err


@pytest.mark.parametrize(("kw", "value", "why"), [
    ("not", "schema", "negated"), ("if", "schema", "conditional"), ("else", "schema", "conditional"),
    ("oneOf", "schema-list", "counted"), ("contains", "schema", "counted"),
])
def test_keeping_a_keyword_whose_schemas_the_walk_cannot_narrow_is_refused(copy, capsys, kw, value, why):
    # Closing the objects inside `not` (or an `if`, a oneOf branch, a counted `contains`) widens the
    # schema around it: {"x": {"a": "s", "b": 1}} was sent strict and accepted where the tool refused it.
    copy.new_version(NEXT, f"keywords:\n  {kw}: {{class: supported, value: {value}, cite: [O-SO]}}\n"
                           f"output_order: {ORDER}, {kw}]")
    err = refusal(copy, capsys, copy.file(NEXT), f"  {kw}:")
    assert f"{kw!r} holds schemas in a {why}" in err and "cannot keep it" in err


def test_a_constraint_beside_ref_is_refused(copy, capsys):
    # Read as an annotation, `minimum` beside `$ref` (and in an allOf merge) let the nearer one win:
    # allOf [{type: integer, minimum: 5}, {minimum: 1}] was sent strict as minimum 1.
    copy.new_version(NEXT, "policy:\n  ref_siblings: {keywords: [description, title, minimum], cite: [O-PY]}")
    err = refusal(copy, capsys, copy.file(NEXT), "ref_siblings:")
    assert "'minimum' is not an annotation" in err


def test_an_unknown_keyword_action_the_walk_does_not_apply_is_refused(copy, capsys):
    # With `keep`, unlisted keywords vanished with no finding at all.
    copy.new_version(NEXT, "keyword_classes:\n  unknown:\n    action: keep")
    err = refusal(copy, capsys, copy.file(NEXT), "action: keep")
    assert "only drop to unlisted keywords, not 'keep'" in err


def test_removing_a_constraining_keyword_is_refused(copy, capsys):
    # Left unlisted, `uniqueItems` would fall to class unknown, whose drop is not lossy.
    copy.new_version(NEXT, "keywords:\n  uniqueItems: null")
    err = refusal(copy, capsys, copy.file(NEXT), "uniqueItems: null")
    assert "'uniqueItems' constrains values but is not listed" in err


@pytest.mark.parametrize(("kw", "value", "why"), [
    ("$schema", "any", "is read by the document pass"), ("$id", "any", "is read by the document pass"),
    ("$dynamicRef", "string", "is a reference the walk does not resolve"),
])
def test_keeping_a_keyword_the_walk_resolves_or_cannot_is_refused(copy, capsys, kw, value, why):
    # A kept `$schema` sent a draft-04 label on the 2020-12 body the walk rewrote it into.
    copy.new_version(NEXT, f"keywords:\n  {kw}: {{class: supported, value: {value}, cite: [O-JAVA]}}\n"
                           f"output_order: {ORDER}, {kw}]")
    err = refusal(copy, capsys, copy.file(NEXT), f"  {kw}:")
    assert f"{kw!r} {why}" in err


@pytest.mark.parametrize(("message", "problem"), [
    ("Vendor key {keyword:d} ignored.", "takes no format spec"),
    ("Vendor key {keyword.__class__.__mro__} ignored.", "plain name"),
    ("Vendor key {keyword} ignored ({limit}).", "{limit} are never given to 'openai/unknown-keyword'"),
])
def test_a_message_the_interpreter_cannot_fill_is_refused(copy, capsys, message, problem):
    # `{keyword:d}` made `toolcast check` end in "internal error: ValueError: Unknown format code 'd'".
    copy.new_version(NEXT, f'diagnostics:\n  openai/unknown-keyword: {{message: "{message}"}}')
    err = refusal(copy, capsys, copy.file(NEXT), "openai/unknown-keyword:")
    assert problem in err


@pytest.mark.parametrize("kw", ["pattern", "format"])
def test_restating_a_kept_keyword_without_its_handler_is_refused(copy, capsys, kw):
    # Entries merge whole: restated to change a citation, `pattern` lost its handler, and an
    # unclosed group or a lookahead was sent strict with no finding.
    copy.new_version(NEXT, f"keywords:\n  {kw}: {{class: supported, value: string, cite: [O-SO]}}")
    err = refusal(copy, capsys, copy.file(NEXT), f"  {kw}:")
    assert f"kept keyword {kw!r} needs `handler: {kw}`" in err


def test_a_second_family_for_one_target_and_api_is_refused(copy, capsys):
    # It took over `--target gemini --api parameters` by the order of the folders.
    shutil.copytree(copy.spec / "gemini-parameters", copy.spec / "gemini-zz")
    (file,) = (copy.spec / "gemini-zz").glob("*.yaml")
    file.write_text(file.read_text(encoding="utf-8").replace("provider: gemini-parameters", "provider: gemini-zz"),
                    encoding="utf-8")
    err = refusal(copy, capsys, file, "target: {name: gemini, api: parameters}")
    assert "compiled by rule family 'gemini-parameters' already" in err


def test_impact_under_rules_without_an_emitter_is_a_clean_error(copy, tmp_path):
    # A provider's rules written before its emitter generate and diff; --impact said
    # "internal error: KeyError: 'acme'". It is now an error toolcast reports as such (exit 2).
    from toolcast.model import ToolcastError

    (copy.spec / "acme").mkdir()
    text = (copy.spec / "gemini" / "2025-11-05.yaml").read_text(encoding="utf-8")
    text = text.replace("provider: gemini", "provider: acme").replace("gemini/", "acme/")
    text = text.replace("target: {name: gemini, api: json-schema}\n", "")
    # (and no wire: rules written before the shapes that make a target; Gemini's, copied as it is,
    # would name the API of the family it leaves behind, which the generator refuses)
    text = re.sub(r"(?ms)^wire:\n.*?(?=^\S)", "", text)
    assert "\nwire:" not in text
    (copy.spec / "acme" / "2025-11-05.yaml").write_text(text, encoding="utf-8")
    copy.regenerate()
    out = copy.tmp / "tables"
    gemini, acme = (Rules(_load(out / f"{p}_2025_11_05.py", f"tc_emit_{p}_{id(copy)}")) for p in ("gemini", "acme"))
    assert diff_json(gemini, acme)["to"] == "acme@2025-11-05"
    tools = tmp_path / "tools.jsonl"
    tools.write_text(json.dumps(tool(a={"type": "string"})) + "\n")
    with pytest.raises(ToolcastError, match="acme@2025-11-05 name target 'acme', which toolcast cannot compile to"):
        diff_json(gemini, acme, [str(tools)])


@pytest.mark.parametrize(("section", "text", "problem"), [
    ("name", 'name:\n  pattern: "^[A-Za-z0-9_-{1,64}$"\n  max_length: 64\n  cite: [O-PY]', "not a regular expression"),
    ("description", "description:\n  max_bytes: 4096\n  strip_ranges:\n    - [0x200F, 0x200B]\n  cite: [E-DESC]",
     "range [0x200f, 0x200b] is empty"),
])
def test_a_regex_the_rules_cannot_compile_is_refused(copy, capsys, section, text, problem):
    # Both ended gen_tables in a raw re.error traceback.
    copy.new_version(NEXT, text)
    err = refusal(copy, capsys, copy.file(NEXT), "pattern:" if section == "name" else "- [0x200F")
    assert problem in err


@pytest.mark.parametrize(("section", "code"), [
    ("diagnostics", "openai/unknown-keyword"), ("diagnostics", "openai/strict-optional-property"),
    ("transformations", "converted-optional-property-to-nullable"),
])
def test_reserving_a_code_the_walk_reports_is_refused(copy, capsys, section, code):
    # Reserved codes are never emitted, says the catalogue; these were.
    copy.new_version(NEXT, f"{section}:\n  {code}: {{status: reserved}}")
    err = refusal(copy, capsys, copy.file(NEXT), f"  {code}:")
    assert f"{code!r} is marked reserved (never emitted), but" in err
