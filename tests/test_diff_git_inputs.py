"""`toolcast diff --git REV`: the revision's side reads the same files as the work tree's (the
red-team's round s13j #1: a file named by its PATH, an absolute PATH, a submodule)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from git_repo import commit, git, repo

from toolcast.cli.main import main

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

TOOLS = {"tools": [
    {"name": "a", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
    {"name": "b", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
]}


def run(*argv: str) -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    code = main([*argv, "--format", "json"], stdout=out, stderr=err)
    return code, json.loads(out.getvalue())


@pytest.mark.parametrize("name", ["defs", "tools.json5", ".tools.json", ".hidden/t.json"])
def test_a_file_named_by_its_path_is_read_at_the_revision_whatever_its_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    repo(tmp_path)
    f = tmp_path / name
    f.parent.mkdir(exist_ok=True)
    f.write_text(json.dumps(TOOLS), encoding="utf-8")
    commit(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, doc = run("diff", "--git", "HEAD", name)
    assert (code, doc["changes"], doc["errors"]) == (0, [], [])
    f.write_text(json.dumps({"tools": TOOLS["tools"][:1]}), encoding="utf-8")
    code, doc = run("diff", "--git", "HEAD", name)
    assert code == 1 and [(c["tool"], c["code"]) for c in doc["changes"]] == [("b", "tool-removed")]


def test_an_absolute_or_dotted_path_filters_hidden_files_below_it_as_the_work_tree_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo(tmp_path)
    (tmp_path / "tools" / ".drafts").mkdir(parents=True)
    (tmp_path / "sub").mkdir()
    (tmp_path / "tools" / "t.json").write_text(json.dumps(TOOLS), encoding="utf-8")
    (tmp_path / "tools" / ".drafts" / "d.json").write_text(json.dumps({"name": "draft", "inputSchema": {}}))
    (tmp_path / "tools" / "notes.txt").write_text("not a tool")
    commit(tmp_path)
    monkeypatch.chdir(tmp_path / "sub")
    for path in (str(tmp_path / "tools"), "../tools", "../sub/../tools"):
        code, doc = run("diff", "--git", "HEAD", path)
        assert (code, doc["changes"], doc["errors"]) == (0, [], []), path


def test_tools_in_a_submodule_are_read_from_its_clone_and_a_missing_one_is_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo(tmp_path / "lib")
    (tmp_path / "lib" / "t.json").write_text(json.dumps(TOOLS), encoding="utf-8")
    commit(tmp_path / "lib")
    top = tmp_path / "top"
    repo(top)
    (top / "tools").mkdir()
    (top / "tools" / "own.json").write_text(json.dumps({"name": "own", "inputSchema": {}}), encoding="utf-8")
    git(top, "submodule", "add", "-q", "../lib", "tools/vendor")
    commit(top)
    monkeypatch.chdir(top)
    code, doc = run("diff", "--git", "HEAD", "tools")
    assert (code, doc["changes"], doc["errors"]) == (0, [], [])
    t = top / "tools" / "vendor" / "t.json"
    t.write_text(json.dumps({"tools": [TOOLS["tools"][0], {**TOOLS["tools"][1], "inputSchema": {
        "type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}]}), encoding="utf-8")
    code, doc = run("diff", "--git", "HEAD", "tools")
    assert code == 1 and [(c["tool"], c["code"]) for c in doc["changes"]] == [("b", "parameter-made-required")]
    assert doc["changes"][0]["file"] == "tools/vendor/t.json"
    # not checked out (a CI checkout without submodules): an error naming it, never skipped in silence
    git(top, "submodule", "deinit", "-q", "-f", "tools/vendor")
    code, doc = run("diff", "--git", "HEAD", "tools")
    assert code == 2
    assert [(e["source"], "not checked out" in e["message"]) for e in doc["errors"]] == [("HEAD:tools/vendor", True)]


def test_the_configs_baseline_under_path_is_no_tool_file_on_either_side(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # check skips the baseline the config names; diff read it as a tool file on both sides: exit 2
    # on every run (s13j #1d).
    repo(tmp_path)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "t.json").write_text(json.dumps(TOOLS), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.toolcast]\npaths = ["tools"]\n'
                                             'baseline = "tools/toolcast-baseline.json"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert main(["check", "--write-baseline", "tools/toolcast-baseline.json"], stdout=out, stderr=io.StringIO()) == 0
    commit(tmp_path)
    code, doc = run("diff", "--git", "HEAD")
    assert (code, doc["changes"], doc["errors"]) == (0, [], [])


def test_a_committed_link_to_a_file_outside_the_repository_reads_the_same_file_on_both_sides(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The revision's side refused it (exit 2 on every run) while the work tree read it (s13j #15).
    (tmp_path / "shared.json").write_text(json.dumps(TOOLS), encoding="utf-8")
    (tmp_path / "other.json").write_text(json.dumps({"name": "other", "inputSchema": {}}), encoding="utf-8")
    top = tmp_path / "top"
    repo(top)
    (top / "tools").mkdir()
    (top / "tools" / "abs.json").symlink_to(tmp_path / "shared.json")
    (top / "tools" / "rel.json").symlink_to("../../other.json")
    commit(top)
    monkeypatch.chdir(top)
    code, doc = run("diff", "--git", "HEAD", "tools")
    assert (code, doc["changes"], doc["errors"]) == (0, [], [])
    # a link changed since: the revision's file is not here to read, which is said
    (top / "tools" / "rel.json").unlink()
    (top / "tools" / "rel.json").symlink_to(tmp_path / "other.json")
    code, doc = run("diff", "--git", "HEAD", "tools")
    assert code == 2 and [e["source"] for e in doc["errors"]] == ["HEAD:tools/rel.json"]
