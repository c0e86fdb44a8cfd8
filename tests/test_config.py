"""[tool.toolcast] in pyproject.toml: discovery, precedence under flags, errors naming key and file, `toolcast config`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from toolcast.cli.main import main
from toolcast.cli.parser import build_parser
from toolcast.config import apply_config, load_config

TOOL = {"name": "pick", "inputSchema": {"type": "object", "properties": {"when": {"type": "string", "format": "date"},
                                                                         "n": {"type": "integer"}}, "required": ["when"]}}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "pick.json").write_text(json.dumps(TOOL), encoding="utf-8")
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "src" / "pkg")
    return tmp_path


def write(project: Path, body: str, where: str = "") -> Path:
    path = project / where / "pyproject.toml"
    path.write_text('[project]\nname = "demo"\n\n[tool.toolcast]\n' + body, encoding="utf-8")
    return path


def parsed(*argv: str) -> object:
    args = build_parser().parse_args(list(argv))
    apply_config(args, list(argv))
    return args


def test_the_nearest_pyproject_with_the_table_is_found_and_paths_are_relative_to_it(project: Path) -> None:
    write(project, 'paths = ["tools"]\nstrict = "true"\n')
    (project / "src" / "pyproject.toml").write_text('[tool.black]\nline-length = 90\n')  # no [tool.toolcast]: passed by
    args = parsed("check")
    assert args.paths == ["../../tools"] and args.strict == "true"
    code, out, _ = run("check", "--format", "json", "--fail-on", "never")
    assert code == 0 and json.loads(out)["strict"] == "true"
    write(project, 'strict = "false"\n', "src")  # a nearer one with the table wins (no merging, as ruff)
    args = parsed("check", "x.json")
    assert args.strict == "false" and args.paths == ["x.json"]


def test_flags_override_the_file(project: Path) -> None:
    write(project, 'targets = ["anthropic", "openai"]\nstrict = false\nfail-on = "never"\nenforce = true\n'
                   'baseline = "base.json"\nout = "build"\n')
    args = parsed("check", "--strict", "auto", "--targ", "gemini", "t.json")  # an abbreviation is the flag too
    assert (args.strict, args.target, args.fail_on, args.paths) == ("auto", "gemini", "never", ["t.json"])
    assert args.baseline == "../../base.json" and getattr(args, "enforce", None) is True
    args = parsed("check")
    assert (args.strict, args.target, getattr(args, "targets", ["anthropic"])) == ("false", "anthropic", ["anthropic", "openai"])
    args = parsed("compile", "--out", "here")
    assert args.out == "here" and not hasattr(args, "fail_on")
    assert parsed("compile").out == "../../build"


def test_fail_on_from_the_file_decides_the_exit(project: Path) -> None:
    write(project, 'paths = ["tools"]\nfail-on = "info"\n')
    code, _, _ = run("check", "--format", "json")
    assert code == 1  # the optional `n` is at least a note
    assert run("check", "--format", "json", "--fail-on", "never")[0] == 0


@pytest.mark.parametrize("body,needle", [
    ('target = "openai"\n', "unknown key 'target'"),
    ('fail_on = "never"\n', "unknown key 'fail_on' (did you mean 'fail-on'?)"),
    ('strict = "maybe"\n', "[tool.toolcast] strict: expected \"auto\", \"true\", \"false\" or a boolean, not a string"),
    ('paths = "tools"\n', "[tool.toolcast] paths: expected a list of strings, not a string"),
    ('enforce = "yes"\n', "[tool.toolcast] enforce: expected a boolean"),
    ('targets = ["openai", 3]\n', "[tool.toolcast] targets: expected a string or a list of strings"),
    ('targets = "openai,nope"\n', "[tool.toolcast] targets: invalid choice: 'nope'"),
    ('fail-on = "sometimes"\n', "[tool.toolcast] fail-on: invalid choice: 'sometimes'"),
    ('out = 3\n', "[tool.toolcast] out: expected a string, not an integer"),
    ('paths = [\n', "invalid TOML"),
])
def test_a_bad_key_or_value_is_a_usage_error_naming_key_and_file(project: Path, body: str, needle: str) -> None:
    path = write(project, body)
    code, out, err = run("check", str(project / "tools"))
    assert code == 2 and str(path) in err and needle in err, err
    assert "Traceback" not in err and out == ""
    assert run("config")[0] == 2


def test_diff_takes_targets_and_with_git_paths(project: Path) -> None:
    write(project, 'targets = "all"\npaths = ["tools"]\n')
    args = parsed("diff", "a.json", "b.json")
    assert args.target == "all" or args.target == ["openai", "anthropic", "gemini", "vertex"]
    assert args.paths == ["a.json", "b.json"]
    code, out, _ = run("diff", str(project / "tools"), str(project / "tools"), "--format", "json")
    from toolcast.providers import EMITTERS

    # (every registered target: the four built in first, then those the spec adds, as the registry orders them)
    assert code == 0 and [t["target"] for t in json.loads(out)["targets"]] == list(EMITTERS)
    assert [t["target"] for t in json.loads(out)["targets"]][:4] == ["openai", "anthropic", "gemini", "vertex"]
    args = parsed("diff", "--git", "HEAD")
    assert args.paths == ["../../tools"]


def test_the_config_command_says_where_each_setting_comes_from(project: Path) -> None:
    path = write(project, 'targets = ["openai", "anthropic"]\nstrict = true\n')
    code, out, _ = run("config", "--strict", "auto", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["file"] == str(path)
    s = {k: (v["value"], v["source"]) for k, v in doc["settings"].items()}
    check = build_parser()._subparsers._group_actions[0].choices["check"]
    assert s["targets"] == (["openai", "anthropic"], str(path))
    assert s["strict"] == ("auto", "flag")
    assert s["fail-on"] == (check.get_default("fail_on"), "default")  # check's real default
    assert s["paths"] == ([], "default") and s["enforce"] == (False, "default") and s["out"] == (None, "default")
    code, out, _ = run("config")
    lines = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert out.splitlines()[0] == f"[tool.toolcast] from {path}"
    assert lines["strict"].split()[1:] == ['"true"', str(path)]
    assert lines["baseline"].split()[1:] == ["(none)", "default"]
    code, _, err = run("config", "--strict", "maybe")
    assert code == 2 and "--strict" in err and "maybe" in err


def test_without_a_table_the_config_command_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_config(tmp_path) is None
    code, out, _ = run("config")
    assert code == 0 and out.startswith("no [tool.toolcast] in a pyproject.toml from")


def test_a_pyproject_that_does_not_name_toolcast_is_passed_by_unparsed(project: Path) -> None:
    path = write(project, 'strict = "true"\n')
    (project / "src" / "pyproject.toml").write_text("[project\nname = broken", encoding="utf-8")  # not TOML
    cfg = load_config()
    assert cfg is not None and cfg.path == path
    (project / "src" / "pyproject.toml").write_text("[tool.toolcast\n", encoding="utf-8")
    code, _, err = run("config")
    assert code == 2 and "invalid TOML" in err and str(project / "src" / "pyproject.toml") in err


def test_mcp_servers_given_beside_the_file_are_read(project: Path) -> None:
    # `--mcp`/`--mcp-url` append to a list: with a table in force they raised an internal error
    # (the red-team's round of the twelfth session); `paths` from the file stand aside for them.
    write(project, 'paths = ["tools"]\nstrict = "auto"\n')
    args = parsed("compile", "--mcp", "srv one", "--mcp", "srv two")
    assert args.mcp == ["srv one", "srv two"] and args.paths == []
    args = parsed("check", "--mcp-url", "http://127.0.0.1:9/mcp")
    assert args.mcp_url == ["http://127.0.0.1:9/mcp"] and args.strict == "auto"
    code, out, err = run("check", "--mcp-url", "http://127.0.0.1:9/mcp")
    assert code == 2 and "internal error" not in out + err and "MCP server at 'http://127.0.0.1:9/mcp' failed" in out + err


def test_the_first_baseline_is_written_where_the_file_names_one(project: Path) -> None:
    # The documented adoption: `baseline = ...` in the table, no baseline yet, `check --write-baseline`.
    # It read the missing file first and exited 2 (the red-team's round of the twelfth session).
    write(project, 'paths = ["tools"]\nbaseline = "toolcast-baseline.json"\n')
    code, out, err = run("check", "--write-baseline", str(project / "toolcast-baseline.json"))
    assert code == 0, err
    assert (project / "toolcast-baseline.json").is_file() and "to the baseline" in out
    assert run("check")[0] == 0  # (now read: its findings are known)
    (project / "toolcast-baseline.json").unlink()
    code, _, err = run("check")  # (without --write-baseline a missing baseline is still an error)
    assert code == 2 and "baseline" in err


def test_files_are_named_from_the_file_s_directory_wherever_the_run_starts(project: Path, monkeypatch) -> None:
    """With a [tool.toolcast] in force, reports and the manifest name each file relative to the
    pyproject.toml's directory (`tools/pick.json`, never `../../tools/pick.json`): an annotation
    lands on the file, and --fail-on-change gives one answer from any directory (red-team s13j #9,
    s12a #6). Without a table, a PATH is named as given."""
    write(project, 'paths = ["tools"]\nout = "generated"\n')
    rel = str(Path("tools") / "pick.json")
    assert run("compile")[0] == 0  # from src/pkg
    manifest = json.loads((project / "generated" / "manifest.json").read_text())
    assert [t["source"] for t in manifest["tools"]] == [rel]
    assert run("compile", "--fail-on-change")[0] == 0
    monkeypatch.chdir(project)
    assert run("compile", "--fail-on-change")[0] == 0
    assert run("compile", str(project / "tools"), "--fail-on-change")[0] == 0  # (an absolute PATH too)
    monkeypatch.chdir(project / "src")
    text = run("check", "--format", "github")[1]
    assert f"file={rel},line=1," in text and "file=../" not in text
    log = json.loads(run("check", "--format", "sarif")[1])
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"] for loc in r["locations"]}
    assert uris == {"tools/pick.json"}
    assert f"{rel}:1:" in run("check", "../tools")[1]  # (a PATH given on the command line too)
    (project / "pyproject.toml").unlink()
    assert f"{Path('..') / rel}:1:" in run("check", "../tools")[1]  # no table: as given


def test_files_are_named_by_the_directories_on_disk(tmp_path: Path, monkeypatch) -> None:
    """A PATH through a symlink to the checkout (a logical `$PWD/tools`) or `link/..` names the file
    read, relative to the pyproject.toml's directory, not the text (red-team s14n F2)."""
    repo = tmp_path / "repo"
    (repo / "tools").mkdir(parents=True)
    (repo / "tools" / "pick.json").write_text(json.dumps(TOOL), encoding="utf-8")
    write(repo, 'paths = ["tools"]\nout = "generated"\n')
    (tmp_path / "repolink").symlink_to("repo")
    monkeypatch.chdir(repo)  # (the working directory as the system gives it: physical)
    assert run("compile")[0] == 0
    logical = str(tmp_path / "repolink" / "tools")
    assert run("compile", logical, "--fail-on-change")[0] == 0
    manifest = json.loads((repo / "generated" / "manifest.json").read_text())
    assert [t["source"] for t in manifest["tools"]] == [str(Path("tools") / "pick.json")]
    assert "file=tools/pick.json,line=1," in run("check", logical, "--format", "github")[1]
    (repo / "elsewhere" / "deep").mkdir(parents=True)
    (repo / "elsewhere" / "b.json").write_text(json.dumps(TOOL), encoding="utf-8")
    (repo / "sub").mkdir()
    (repo / "sub" / "lnk").symlink_to(Path("..") / "elsewhere" / "deep")
    monkeypatch.chdir(repo / "sub")
    text = run("check", str(Path("lnk") / ".." / "b.json"), "--format", "github")[1]
    assert "file=elsewhere/b.json,line=1," in text, text
    (repo / "tools" / "more").symlink_to(repo / "elsewhere")  # (a symlinked folder under the
    text = run("check", str(Path("..") / "tools" / "more" / "b.json"), "--format", "github")[1]  # directory keeps its name)
    assert "file=tools/more/b.json,line=1," in text, text
