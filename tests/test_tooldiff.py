"""`toolcast diff`: every classification, per-target regressions, the four formats, --git and --fail-on."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from git_repo import git as run_git
from git_repo import repo

from toolcast.cli.main import main
from toolcast.tooldiff import compare_schemas, compare_tools

SARIF_SCHEMA = Path(__file__).resolve().parent / "schemas" / "sarif-schema-2.1.0.json"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def obj(props: dict, required: tuple = (), **more) -> dict:
    return {"type": "object", "properties": props, "required": list(required), **more}


S = {"type": "string"}
N = {"type": "number"}

# (description, old schema, new schema, the one (kind, code, path) expected)
CASES = [
    ("new required parameter", obj({"a": S}, ("a",)), obj({"a": S, "b": S}, ("a", "b")),
     ("breaking", "required-parameter-added", "#/properties/b")),
    ("new optional parameter", obj({"a": S}), obj({"a": S, "b": S}), ("safe", "optional-parameter-added", "#/properties/b")),
    ("removed parameter", obj({"a": S, "b": S}), obj({"a": S}), ("breaking", "parameter-removed", "#/properties/b")),
    ("made required", obj({"a": S}), obj({"a": S}, ("a",)), ("breaking", "parameter-made-required", "#/required")),
    ("made optional", obj({"a": S}, ("a",)), obj({"a": S}), ("safe", "parameter-made-optional", "#/properties/a")),
    ("type narrowed", obj({"a": {"type": ["string", "null"]}}), obj({"a": S}),
     ("breaking", "type-narrowed", "#/properties/a/type")),
    ("number to integer is narrowed", obj({"a": N}), obj({"a": {"type": "integer"}}),
     ("breaking", "type-narrowed", "#/properties/a/type")),
    ("type widened", obj({"a": {"type": "integer"}}), obj({"a": N}), ("safe", "type-widened", "#/properties/a/type")),
    ("type changed", obj({"a": S}), obj({"a": N}), ("breaking", "type-changed", "#/properties/a/type")),
    ("enum value removed", obj({"a": {"enum": ["x", "y"]}}), obj({"a": {"enum": ["x"]}}),
     ("breaking", "enum-value-removed", "#/properties/a/enum")),
    ("enum value added", obj({"a": {"enum": ["x"]}}), obj({"a": {"enum": ["x", "y"]}}),
     ("safe", "enum-value-added", "#/properties/a/enum")),
    ("enum reordered", obj({"a": {"enum": ["x", "y"]}}), obj({"a": {"enum": ["y", "x"]}}),
     ("info", "enum-reordered", "#/properties/a/enum")),
    ("enum added", obj({"a": S}), obj({"a": {**S, "enum": ["x"]}}), ("breaking", "enum-added", "#/properties/a/enum")),
    ("enum removed", obj({"a": {**S, "enum": ["x"]}}), obj({"a": S}), ("safe", "enum-removed", "#/properties/a")),
    ("const added", obj({"a": S}), obj({"a": {**S, "const": "x"}}), ("breaking", "const-added", "#/properties/a/const")),
    ("minimum raised", obj({"a": {**N, "minimum": 0}}), obj({"a": {**N, "minimum": 1}}),
     ("breaking", "bound-tightened", "#/properties/a/minimum")),
    ("maximum lowered", obj({"a": {**N, "maximum": 9}}), obj({"a": {**N, "maximum": 5}}),
     ("breaking", "bound-tightened", "#/properties/a/maximum")),
    ("maxLength raised", obj({"a": {**S, "maxLength": 5}}), obj({"a": {**S, "maxLength": 9}}),
     ("safe", "bound-loosened", "#/properties/a/maxLength")),
    ("minItems lowered", obj({"a": {"type": "array", "minItems": 2}}), obj({"a": {"type": "array", "minItems": 1}}),
     ("safe", "bound-loosened", "#/properties/a/minItems")),
    ("bound added", obj({"a": S}), obj({"a": {**S, "maxLength": 9}}), ("breaking", "bound-added", "#/properties/a/maxLength")),
    ("bound removed", obj({"a": {**S, "maxLength": 9}}), obj({"a": S}), ("safe", "bound-removed", "#/properties/a")),
    ("multipleOf 2 to 4", obj({"a": {**N, "multipleOf": 2}}), obj({"a": {**N, "multipleOf": 4}}),
     ("breaking", "bound-tightened", "#/properties/a/multipleOf")),
    ("multipleOf 4 to 2", obj({"a": {**N, "multipleOf": 4}}), obj({"a": {**N, "multipleOf": 2}}),
     ("safe", "bound-loosened", "#/properties/a/multipleOf")),
    ("pattern added", obj({"a": S}), obj({"a": {**S, "pattern": "^x"}}), ("breaking", "pattern-added", "#/properties/a/pattern")),
    ("pattern removed", obj({"a": {**S, "pattern": "^x"}}), obj({"a": S}), ("safe", "pattern-removed", "#/properties/a")),
    ("format changed", obj({"a": {**S, "format": "uri"}}), obj({"a": {**S, "format": "email"}}),
     ("breaking", "format-changed", "#/properties/a/format")),
    ("closed", obj({"a": S}), obj({"a": S}, additionalProperties=False),
     ("breaking", "additional-properties-closed", "#/additionalProperties")),
    ("opened", obj({"a": S}, additionalProperties=False), obj({"a": S}), ("safe", "additional-properties-allowed", "#")),
    ("anyOf branch removed", obj({"a": {"anyOf": [S, N]}}), obj({"a": {"anyOf": [S]}}),
     ("breaking", "branch-removed", "#/properties/a/anyOf")),
    ("anyOf branch added", obj({"a": {"anyOf": [S]}}), obj({"a": {"anyOf": [S, N]}}),
     ("safe", "branch-added", "#/properties/a/anyOf/1")),
    ("allOf branch added", obj({"a": {"allOf": [S]}}), obj({"a": {"allOf": [S, {"maxLength": 3}]}}),
     ("breaking", "branch-added", "#/properties/a/allOf/1")),
    ("nested in items", obj({"a": {"type": "array", "items": obj({"b": S})}}),
     obj({"a": {"type": "array", "items": obj({"b": S, "c": S}, ("c",))}}),
     ("breaking", "required-parameter-added", "#/properties/a/items/properties/c")),
    ("description of a parameter", obj({"a": {**S, "description": "old"}}), obj({"a": {**S, "description": "new"}}),
     ("info", "description-changed", "#/properties/a/description")),
    ("default changed", obj({"a": {**S, "default": "x"}}), obj({"a": {**S, "default": "y"}}),
     ("info", "default-changed", "#/properties/a/default")),
    ("$ref changed", obj({"a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": S, "B": S}}),
     obj({"a": {"$ref": "#/$defs/B"}}, **{"$defs": {"A": S, "B": S}}), ("breaking", "reference-changed", "#/properties/a/$ref")),
    ("a keyword not classified", obj({"a": S}), obj({"a": {**S, "x-vendor": 1}}),
     ("breaking", "keyword-changed", "#/properties/a/x-vendor")),
    ("false schema", obj({"a": True}), obj({"a": False}), ("breaking", "not-added", "#/properties/a/not")),
]


@pytest.mark.parametrize("what,old,new,expected", CASES, ids=[c[0] for c in CASES])
def test_each_change_is_classified_with_its_place(what: str, old: dict, new: dict, expected: tuple) -> None:
    got = [(c.kind, c.code, c.path) for c in compare_schemas("t", old, new)]
    assert got == [expected], what


def test_the_same_schema_is_no_change_and_keyword_order_does_not_matter() -> None:
    a = obj({"a": S, "b": {"type": "integer", "minimum": 0}}, ("a",))
    b = {"required": ["a"], "properties": {"a": S, "b": {"minimum": 0, "type": "integer"}}, "type": "object"}
    assert compare_schemas("t", a, b) == []


@pytest.mark.parametrize(("old", "new", "expected"), [
    # true is not 1 and 0 is not false, in JSON (Python's == called these "no change": s13j #5)
    ({"enum": [True, "auto"]}, {"enum": [1, "auto"]}, {("breaking", "enum-value-removed"), ("safe", "enum-value-added")}),
    ({"const": 0}, {"const": False}, {("breaking", "const-changed")}),
    (obj({"a": {"enum": [True]}}), obj({"a": {"enum": [1]}}), {("breaking", "enum-value-removed"), ("safe", "enum-value-added")}),
    ({"maximum": 1}, {"maximum": True}, {("breaking", "bound-changed")}),
    ({"x-flag": True}, {"x-flag": 1}, {("breaking", "keyword-changed")}),
    ({"default": 1}, {"default": True}, {("info", "default-changed")}),
    # and 1 is 1.0: no change at all
    ({"enum": [1, 2], "minimum": 0, "const": 2}, {"enum": [1.0, 2.0], "minimum": 0.0, "const": 2.0}, set()),
    ({"anyOf": [{"const": 1}, {"minimum": 3}]}, {"anyOf": [{"minimum": 3.0}, {"const": 1.0}]}, set()),
])
def test_values_are_compared_as_json_values(old: dict, new: dict, expected: set) -> None:
    assert {(c.kind, c.code) for c in compare_schemas("t", old, new)} == expected


def test_tools_added_removed_renamed_and_described() -> None:
    old = {"get": ("Get it.", obj({"a": S})), "old_name": (None, obj({"q": S}))}
    new = {"get": ("Get it now.", obj({"a": S})), "new_name": (None, obj({"q": S})), "extra": (None, obj({}))}
    got = {(c.tool, c.kind, c.code) for c in compare_tools(old, new)}
    assert got == {("get", "info", "description-changed"), ("new_name", "safe", "tool-added"),
                   ("extra", "safe", "tool-added"), ("old_name", "breaking", "tool-removed")}
    removed = next(c for c in compare_tools(old, new) if c.code == "tool-removed")
    assert "new_name" in removed.message and removed.side == "old"  # the hint of a rename


OLD = {"tools": [
    {"name": "refund", "description": "Refund.", "inputSchema": obj({"id": S, "mode": {"type": "string", "enum": ["a", "b"]}},
                                                                    ("id",), additionalProperties=False)},
    {"name": "gone", "inputSchema": obj({"q": S}, ("q",), additionalProperties=False)},
]}
NEW = {"tools": [
    {"name": "refund", "description": "Refund an order.",
     "inputSchema": obj({"id": S, "mode": {"type": "string", "enum": ["a"]}, "why": S,
                         "tags": {"type": "object", "additionalProperties": S}}, ("id", "why"), additionalProperties=False)},
]}


def write_pair(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(OLD, indent=2), encoding="utf-8")
    new.write_text(json.dumps(NEW, indent=2), encoding="utf-8")
    return old, new


def test_text_report_lists_changes_with_file_line_and_regressions(tmp_path: Path) -> None:
    old, new = write_pair(tmp_path)
    code, out, _ = run("diff", str(old), str(new))
    assert code == 1
    text = new.read_text()
    line = text[:text.index('"why"')].count("\n") + 1
    assert "breaking      #/properties/why: new required parameter `why`" in out
    assert f"{new}:{line}:" in out
    assert "breaking      #/properties/mode/enum: enum value(s) removed: \"b\"" in out
    assert "informational description: description changed" in out
    assert "breaking      name: tool `gone` removed" in out and f"({old}:" in out
    # the open map makes refund non-strict for OpenAI: a regression, with the reason
    assert "regressed  refund: strict → non-strict" in out and "open-map" in out
    assert out.rstrip().endswith("1 regression(s), 0 fix(es) over 1 target(s)")


def test_fail_on_levels_and_exit_codes(tmp_path: Path) -> None:
    old, new = write_pair(tmp_path)
    assert run("diff", str(old), str(new), "--fail-on", "never")[0] == 0
    assert run("diff", str(old), str(old))[0] == 0
    assert run("diff", str(old), str(old), "--fail-on", "any")[0] == 0
    safe_only = tmp_path / "safe.json"
    more = json.loads(json.dumps(OLD))
    more["tools"][1]["description"] = "Now described."
    safe_only.write_text(json.dumps(more), encoding="utf-8")
    assert run("diff", str(old), str(safe_only))[0] == 0  # informational only: not breaking
    assert run("diff", str(old), str(safe_only), "--fail-on", "any")[0] == 1


def test_a_fix_is_reported_per_target(tmp_path: Path) -> None:
    old, new = write_pair(tmp_path)
    code, out, _ = run("diff", str(new), str(old), "--target", "openai,anthropic", "--format", "json", "--fail-on", "never")
    doc = json.loads(out)
    assert code == 0
    openai = next(t for t in doc["targets"] if t["target"] == "openai")
    assert [(f["name"], f["old"], f["new"]) for f in openai["fixed"]] == [("refund", "non-strict", "strict")]
    assert [t["target"] for t in doc["targets"]] == ["openai", "anthropic"]


def test_json_document(tmp_path: Path) -> None:
    old, new = write_pair(tmp_path)
    code, out, _ = run("diff", str(old), str(new), "--format", "json")
    doc = json.loads(out)
    assert code == 1
    by = {(c["tool"], c["code"]): c for c in doc["changes"]}
    why = by[("refund", "required-parameter-added")]
    text = new.read_text()
    assert (why["kind"], why["path"], why["file"]) == ("breaking", "#/properties/why", str(new))
    assert why["line"] == text[:text.index('"why"')].count("\n") + 1
    assert by[("gone", "tool-removed")]["file"] == str(old)
    assert doc["summary"] == {"breaking": 3, "safe": 1, "info": 1, "regressed": 1, "fixed": 0,
                              "fail_on": "breaking", "failed": True}
    assert doc["targets"][0]["regressed"][0]["reason"]


def test_sarif_is_valid_and_github_annotations_land_on_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, new = write_pair(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("diff", "old.json", "new.json", "--format", "sarif")
    log = json.loads(out)
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    results = log["runs"][0]["results"]
    rules = [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]
    assert all(rules[r["ruleIndex"]] == r["ruleId"] for r in results)
    why = next(r for r in results if r["ruleId"] == "toolcast-diff/required-parameter-added")
    assert why["level"] == "error"
    assert why["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "new.json", "uriBaseId": "%SRCROOT%"}
    assert any(r["ruleId"] == "toolcast-diff/regressed" and r["properties"]["target"] == "openai" for r in results)
    code, out, _ = run("diff", "old.json", "new.json", "--format", "github")
    assert code == 1
    text = new.read_text()
    line = text[:text.index('"why"')].count("\n") + 1
    assert any(a.startswith(f"::error file=new.json,line={line},") and "required-parameter-added" in a
               for a in out.splitlines())
    assert any(a.startswith("::error file=old.json,") and "tool `gone` removed" in a for a in out.splitlines())


def test_bad_input_is_a_clear_error_with_its_place_and_exit_2(tmp_path: Path) -> None:
    old, _ = write_pair(tmp_path)
    bad = tmp_path / "bad.yaml"
    bad.write_text("tools:\n  - name: x\n    inputSchema: [\n", encoding="utf-8")
    code, out, err = run("diff", str(old), str(bad))
    assert code == 2 and f"error: {bad}:" in out and "Traceback" not in out + err
    code, out, err = run("diff", str(old))
    assert code == 2 and "give OLD and NEW" in err
    twice = tmp_path / "twice.json"
    twice.write_text(json.dumps([OLD["tools"][0], OLD["tools"][0]]), encoding="utf-8")
    code, out, _ = run("diff", str(old), str(twice), "--format", "json")
    assert code == 2 and "defined twice" in json.loads(out)["errors"][0]["message"]
    assert run("diff", str(old), str(old), "--target", "nope")[0] == 2


def test_directories_match_tools_by_name_across_files(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    (a / "all.json").write_text(json.dumps(OLD), encoding="utf-8")
    (b / "one.yaml").write_text("name: gone\ninputSchema: {type: object, properties: {q: {type: string}}, "
                                "required: [q], additionalProperties: false}\n", encoding="utf-8")
    (b / "two.json").write_text(json.dumps(OLD["tools"][0]), encoding="utf-8")
    code, out, _ = run("diff", str(a), str(b))
    assert (code, out.splitlines()[1]) == (0, "no change to the tool definitions")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_revision_against_the_work_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo(tmp_path)

    def git(*args: str) -> None:
        run_git(tmp_path, *args)

    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "t.json").write_text(json.dumps(OLD, indent=2), encoding="utf-8")
    (tmp_path / "README.md").write_text("not a tool\n")
    git("add", ".")
    git("commit", "-q", "-m", "one")
    (tmp_path / "tools" / "t.json").write_text(json.dumps(NEW, indent=2), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("diff", "--git", "HEAD", "tools", "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["errors"] == []
    codes = {(c["tool"], c["code"]): c for c in doc["changes"]}
    gone = codes[("gone", "tool-removed")]
    assert gone["file"] == "HEAD:tools/t.json" and gone["line"] is not None  # the place in the old blob
    assert codes[("refund", "required-parameter-added")]["file"] == "tools/t.json"
    # the work tree is as it was: nothing checked out
    assert json.loads((tmp_path / "tools" / "t.json").read_text()) == NEW
    # from a subdirectory, paths are relative to it; an unknown revision is a usage error
    monkeypatch.chdir(tmp_path / "tools")
    assert run("diff", "--git", "HEAD", ".")[0] == 1
    code, _, err = run("diff", "--git", "no-such-rev", ".")
    assert code == 2 and "no-such-rev" in err
    # a path new since REV: everything in it is added
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "x.json").write_text(json.dumps(OLD["tools"][1]), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("diff", "--git", "HEAD", "more", "--format", "json")
    assert code == 0 and [c["code"] for c in json.loads(out)["changes"]] == ["tool-added"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_revision_follows_a_committed_symbolic_link_as_the_work_tree_does(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # The work tree's side read the file a link names (as check does), the revision's refused the
    # link: an unchanged tree was "tool-added" and exit 2 (the red-team's round of the twelfth session).
    repo(tmp_path)

    def git(*args: str) -> None:
        run_git(tmp_path, *args)

    for d in ("tools", "shared", "shared/deep"):
        (tmp_path / d).mkdir()
    (tmp_path / "shared" / "deep" / "t.json").write_text(json.dumps(OLD, indent=2), encoding="utf-8")
    (tmp_path / "shared" / "hop.json").symlink_to("deep/t.json")  # (a link to a link)
    (tmp_path / "tools" / "link.json").symlink_to("../shared/hop.json")
    (tmp_path / "tools" / "dangling.json").symlink_to("../nowhere.json")
    git("add", ".")
    git("commit", "-q", "-m", "one")
    (tmp_path / "tools" / "dangling.json").unlink()
    monkeypatch.chdir(tmp_path / "tools")
    code, out, _ = run("diff", "--git", "HEAD", ".", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and doc["changes"] == []  # (the dangling link alone: an input that cannot be read)
    assert [e.get("source", e.get("path")) for e in doc["errors"]] == ["HEAD:dangling.json"], doc["errors"]
    (tmp_path / "shared" / "deep" / "t.json").write_text(json.dumps(NEW, indent=2), encoding="utf-8")
    code, out, _ = run("diff", "--git", "HEAD", ".", "--format", "json")
    assert code == 2 and {c["code"] for c in json.loads(out)["changes"]} >= {"tool-removed", "required-parameter-added"}


def test_yaml_places_and_a_regression_alone_fails_the_gate(tmp_path: Path) -> None:
    old = tmp_path / "old.yaml"
    new = tmp_path / "new.yaml"
    old.write_text("name: tag\ninputSchema:\n  type: object\n  properties:\n    label: {type: string}\n"
                   "  required: [label]\n  additionalProperties: false\n", encoding="utf-8")
    new.write_text("name: tag\ninputSchema:\n  type: object\n  properties:\n    label: {type: string}\n"
                   "    extra:\n      type: object\n      additionalProperties: {type: string}\n"
                   "  required: [label]\n  additionalProperties: false\n", encoding="utf-8")
    code, out, _ = run("diff", str(old), str(new), "--format", "json")
    doc = json.loads(out)
    (change,) = doc["changes"]
    assert (change["code"], change["kind"], change["line"], change["column"]) == ("optional-parameter-added", "safe", 6, 5)
    assert code == 1 and doc["summary"]["regressed"] == 1  # only a regression: still fails `breaking`
    # Gemini's parameters API has no additionalProperties: both versions are non-strict there, no regression
    assert run("diff", str(old), str(new), "--target", "gemini")[0] == 0


def test_a_schema_too_deep_to_compare_is_a_change_to_review_not_a_crash() -> None:
    def deep(leaf: dict) -> dict:
        for _ in range(5000):
            leaf = {"anyOf": [leaf]}
        return leaf

    old = {"deep": (None, deep({"type": "string"}))}
    new = {"deep": (None, deep({"type": "integer"})), "deeper": (None, deep({}))}
    got = [(c.tool, c.kind, c.code) for c in compare_tools(old, new)]
    assert got == [("deep", "breaking", "schema-too-deep"), ("deeper", "safe", "tool-added")]
