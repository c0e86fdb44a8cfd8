"""tools/refresh_corpus.py on fake checkouts in tmp_path, and the vendored corpus against its own records."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from fnmatch import fnmatch
from pathlib import Path, PurePosixPath

import pytest
from corpus_paths import CORPUS

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("refresh_corpus", ROOT / "tools" / "refresh_corpus.py")
refresh_corpus = importlib.util.module_from_spec(_spec)
sys.modules["refresh_corpus"] = refresh_corpus  # dataclasses look their module up
_spec.loader.exec_module(refresh_corpus)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def jsts_checkout(tmp_path: Path) -> Path:
    co = tmp_path / "JSON-Schema-Test-Suite"
    _write(co / "tests" / "draft2020-12" / "enum.json", '[{"description": "new", "schema": {}, "tests": []}]\n')
    _write(co / "tests" / "draft2020-12" / "added.json", "[]\n")
    _write(co / "tests" / "draft2020-12" / "optional" / "format.json", "[]\n")  # not taken (not recursive)
    _write(co / "tests" / "draft7" / "enum.json", "[]\n")  # another draft: not taken
    _write(co / "remotes" / "draft2020-12" / "integer.json", '{"type": "integer"}\n')
    _write(co / "remotes" / "draft2020-12" / "nested" / "string.json", '{"type": "string"}\n')
    return co


@pytest.fixture
def dest(tmp_path: Path) -> Path:
    d = tmp_path / "corpus"
    _write(d / "jsts" / "enum.json", "[]\n")  # changes
    _write(d / "jsts" / "gone.json", "[]\n")  # no longer upstream: removed
    _write(d / "jsts" / "remotes" / "draft2020-12" / "integer.json", '{"type": "integer"}\n')  # unchanged
    _write(d / "jsts" / "remotes" / "draft2020-12" / "old.json", "{}\n")  # removed
    _write(d / "SOURCES.md", "kept\n")  # not owned by any source
    return d


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = refresh_corpus.main(list(argv))
    finally:
        sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def test_refresh_copies_reports_and_removes(jsts_checkout: Path, dest: Path) -> None:
    code, out, err = run("--jsts", str(jsts_checkout), "--dest", str(dest))
    assert code == 0, err
    lines = [line.split() for line in out.splitlines()[1:-1]]
    assert lines == [
        ["added", "jsts/added.json"],
        ["changed", "jsts/enum.json"],
        ["removed", "jsts/gone.json"],
        ["unchanged", "jsts/remotes/draft2020-12/integer.json"],
        ["added", "jsts/remotes/draft2020-12/nested/string.json"],
        ["removed", "jsts/remotes/draft2020-12/old.json"],
    ]
    assert out.splitlines()[0].startswith(f"jsts: {jsts_checkout} @ ")
    assert out.splitlines()[-1].startswith("changed 5 file(s)")
    assert _tree(dest) == {
        "SOURCES.md": b"kept\n",
        "jsts/added.json": b"[]\n",
        "jsts/enum.json": b'[{"description": "new", "schema": {}, "tests": []}]\n',
        "jsts/remotes/draft2020-12/integer.json": b'{"type": "integer"}\n',
        "jsts/remotes/draft2020-12/nested/string.json": b'{"type": "string"}\n',
    }
    # A second run finds nothing to do.
    code, out, _ = run("--jsts", str(jsts_checkout), "--dest", str(dest))
    assert code == 0 and out.splitlines()[-1] == f"changed 0 file(s) under {dest}"


def test_dry_run_writes_nothing(jsts_checkout: Path, dest: Path) -> None:
    before = _tree(dest)
    code, out, _ = run("--jsts", str(jsts_checkout), "--dest", str(dest), "--dry-run")
    assert code == 0 and "would change 5 file(s)" in out
    assert _tree(dest) == before


def test_a_missing_file_names_it_and_writes_nothing(jsts_checkout: Path, dest: Path, tmp_path: Path) -> None:
    store = tmp_path / "schemastore"
    for name in refresh_corpus.SCHEMASTORE[1:]:  # package.json is missing
        _write(store / "src" / "schemas" / "json" / f"{name}.json", "{}\n")
    before = _tree(dest)
    code, out, err = run("--jsts", str(jsts_checkout), "--schemastore", str(store), "--dest", str(dest))
    assert code == 2 and out == ""
    assert "--schemastore" in err and "src/schemas/json/package.json" in err and "nothing was written" in err
    assert "Traceback" not in err
    assert _tree(dest) == before  # the good checkout was not applied either
    code, _, err = run("--jsts", str(tmp_path / "nowhere"), "--dest", str(dest))
    assert code == 2 and "not a directory" in err


def test_yaml_is_converted_and_bad_yaml_is_reported(tmp_path: Path) -> None:
    co, dest = tmp_path / "oai", tmp_path / "corpus"
    src = _write(co / "src" / "schemas" / "validation" / "schema.yaml", "type: object\nproperties:\n  a: {type: string}\n")
    assert run("--openapi", str(co), "--dest", str(dest))[0] == 0
    text = (dest / "large" / "openapi-3.1-schema.json").read_text(encoding="utf-8")
    assert text == json.dumps({"type": "object", "properties": {"a": {"type": "string"}}}, indent=2) + "\n"
    src.write_text("a: [unclosed\n", encoding="utf-8")
    code, _, err = run("--openapi", str(co), "--dest", str(dest))
    assert code == 2 and "schema.yaml: not valid YAML" in err
    assert (dest / "large" / "openapi-3.1-schema.json").read_text(encoding="utf-8") == text


def test_converted_sets_list_the_tools_that_changed(tmp_path: Path) -> None:
    def jsonl(*tools: dict) -> str:
        return "".join(json.dumps(t) + "\n" for t in tools)

    dest, co = tmp_path / "corpus", tmp_path / "converted"
    a, b, c = ({"name": n, "inputSchema": {"type": "object"}} for n in "abc")
    _write(dest / "mcp.jsonl", jsonl(a, b))
    _write(co / "mcp.jsonl", jsonl({"name": "a", "inputSchema": {"type": "object", "properties": {}}}, c))
    code, out, err = run("--converted", str(co), "--dest", str(dest))
    assert code == 0, err
    mcp = out.splitlines()
    at = mcp.index("  changed   mcp.jsonl")
    assert mcp[at + 1:at + 4] == ["    ~ a", "    - b", "    + c"]
    _write(co / "mcp.jsonl", "{not json\n")
    code, _, err = run("--converted", str(co), "--dest", str(dest))
    assert code == 2 and "nothing was written" in err


def _bfcl_checkout(root: Path) -> Path:
    data = root / "berkeley-function-call-leaderboard" / "bfcl_eval" / "data"
    entry = {"id": "simple_python_0", "question": [], "function": [
        {"name": "área", "description": "d", "parameters": {"type": "dict", "properties": {
            "w": {"type": "float", "default": "dict"}, "xs": {"type": "tuple", "items": {"type": "any"}},
            "m": {"type": "HashMap", "additionalProperties": {"type": "String"}}}, "required": ["w"]}}]}
    for category in refresh_corpus.BFCL_CATEGORIES:
        _write(data / f"BFCL_v4_{category}.json", json.dumps(entry) + "\n" if category == "simple_python" else "")
    # The same doc again (dropped: the first wins) and one that differs only in its schema (kept).
    again = dict(entry, id="multiple_3")
    changed = {"id": "multiple_4", "function": [dict(entry["function"][0], parameters={"type": "dict", "properties": {}})]}
    _write(data / "BFCL_v4_multiple.json", json.dumps(again) + "\n" + json.dumps(changed) + "\n")
    _write(data / "multi_turn_func_doc" / "math_api.json", json.dumps({"name": "add", "parameters": {"type": "dict"}}) + "\n")
    _write(data / "unused_datasets" / "question" / "BFCL_v4_rest.json", "")
    _write(data / "unused_datasets" / "question" / "BFCL_v4_sql.json", "")
    return data


def test_bfcl_docs_are_converted_as_sources_md_says(tmp_path: Path) -> None:
    co, dest = tmp_path / "gorilla", tmp_path / "corpus"
    data = _bfcl_checkout(co)
    code, _, err = run("--gorilla", str(co), "--dest", str(dest))
    assert code == 0, err
    text = (dest / "bfcl.jsonl").read_text(encoding="utf-8")
    assert "área" in text  # non-ASCII is written as it is
    first, second, third = (json.loads(line) for line in text.splitlines())
    assert first == {
        "name": "área", "description": "d",
        "inputSchema": {"type": "object", "properties": {
            "w": {"type": "number", "default": "dict"},  # values of default are not types
            "xs": {"type": "array", "items": {}},  # `any` is unconstrained: its type is removed
            "m": {"type": "object", "additionalProperties": {"type": "string"}}}, "required": ["w"]},
        "source": "ShishirPatil/gorilla:berkeley-function-call-leaderboard/bfcl_eval/data/BFCL_v4_multiple.json",
        "ref": "multiple_3",
        "bfcl_original_types": {"/properties/w": "float", "/properties/xs": "tuple", "/properties/xs/items": "any",
                                "/properties/m": "HashMap", "/properties/m/additionalProperties": "String"},
    }
    assert (second["ref"], second["inputSchema"]) == ("multiple_4", {"type": "object", "properties": {}})
    assert third == {"name": "add", "description": None, "inputSchema": {"type": "object"},
                     "source": "ShishirPatil/gorilla:berkeley-function-call-leaderboard/bfcl_eval/data/multi_turn_func_doc/math_api.json"}
    (data / "BFCL_v4_live_simple.json").unlink()
    code, _, err = run("--gorilla", str(co), "--dest", str(dest))
    assert code == 2 and "BFCL_v4_live_simple.json" in err and "nothing was written" in err


def test_vscode_tools_with_an_input_schema_are_taken(tmp_path: Path) -> None:
    co, dest = tmp_path / "vscode-copilot-chat", tmp_path / "corpus"
    tools = [{"name": "a", "modelDescription": "for the model", "userDescription": "for people", "toolReferenceName": "ra",
              "inputSchema": {"type": "object"}},
             {"name": "b", "modelDescription": "no schema"},
             {"name": "c", "inputSchema": {}}]
    _write(co / "package.json", json.dumps({"contributes": {"languageModelTools": tools}}))
    assert run("--vscode-copilot-chat", str(co), "--dest", str(dest))[0] == 0
    recs = [json.loads(line) for line in (dest / "agent_tools.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["name"], r["description"], r.get("toolReferenceName")) for r in recs] == [("a", "for the model", "ra"), ("c", None, None)]
    _write(co / "package.json", json.dumps({"contributes": {}}))
    code, _, err = run("--vscode-copilot-chat", str(co), "--dest", str(dest))
    assert code == 2 and "package.json: no contributes.languageModelTools" in err


def test_commit_of_a_git_checkout(tmp_path: Path) -> None:
    co = tmp_path / "repo"
    _write(co / "f.txt", "x\n")
    git = ["git", "-C", str(co), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    try:
        subprocess.run(["git", "init", "-q", str(co)], check=True, capture_output=True)
        subprocess.run([*git, "add", "f.txt"], check=True, capture_output=True)
        subprocess.run([*git, "commit", "-qm", "x"], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("git is not installed: the commit of a checkout cannot be shown")
    head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    assert refresh_corpus.commit_of(co) == head
    assert refresh_corpus.commit_of(tmp_path).startswith("unknown")
    (co / "sub").mkdir()  # a folder inside the checkout is not a checkout of its own
    assert refresh_corpus.commit_of(co / "sub").startswith("unknown")


def _owner(rel: str):
    """The script's pick that writes tests/corpus/<rel>, or None."""
    for _what, picks in refresh_corpus.SOURCES.values():
        for pick in picks:
            if pick.tree and rel.startswith(pick.target + "/"):
                return pick
            if pick.glob and PurePosixPath(rel).parent.as_posix() == pick.target and fnmatch(rel.rsplit("/", 1)[1], pick.glob):
                return pick
            if not (pick.tree or pick.glob) and rel == pick.target:
                return pick
    return None


def test_every_vendored_file_has_a_source_and_a_record() -> None:
    """Each file under tests/corpus is written by some source of the script and named in SOURCES.md."""
    records = (CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    checked = 0
    for path in sorted(CORPUS.rglob("*")):
        rel = path.relative_to(CORPUS).as_posix()
        if not path.is_file() or rel == "SOURCES.md" or rel.startswith("LICENSES/"):
            continue
        pick = _owner(rel)
        assert pick is not None, f"tests/corpus/{rel}: no source of tools/refresh_corpus.py writes it"
        named = f"`{pick.target}/" if (pick.tree or pick.glob) else f"`{pick.target}`"
        assert named in records, f"tests/corpus/{rel}: SOURCES.md does not name {named}"
        checked += 1
    assert checked > 60
    for licence in sorted((CORPUS / "LICENSES").iterdir()):
        assert f"`{licence.name}`" in records, f"LICENSES/{licence.name} is not referred to in SOURCES.md"
