"""Every SARIF result code scanning is given has a file to point at, or no `locations` at all: a
location with only a logicalLocation makes GitHub reject the whole upload (the red-team's round
s13j #3). And diff's fingerprints tell the targets apart, as check's do."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import jsonschema
import pytest
from git_repo import git as run_git
from git_repo import repo

from toolcast import probe_sarif, sarif
from toolcast.cli.main import main
from toolcast.compile import compile_tool

SCHEMA = json.loads((Path(__file__).resolve().parent / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
TOOL = {"name": "fetch", "inputSchema": {"type": "object", "properties": {"url": {"type": "string", "format": "uri"},
                                                                          "n": {"type": "integer"}}}}


def run(*argv: str, stdin: bytes = b"") -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.BytesIO(stdin))
    return code, json.loads(out.getvalue())


def uploadable(log: dict) -> list[dict]:
    """The log is valid SARIF and each of its results' locations has a physical artifact."""
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    results = log["runs"][0]["results"]
    for r in results:
        for loc in r.get("locations", []):
            assert loc["physicalLocation"]["artifactLocation"]["uri"], r
    return results


def test_a_tool_from_stdin_or_an_mcp_server_has_no_locations() -> None:
    code, log = run("check", "-", "--format", "sarif", "--fail-on", "never", stdin=json.dumps(TOOL).encode())
    results = uploadable(log)
    assert code == 0 and results and all("locations" not in r for r in results)
    assert {r["properties"]["origin"] for r in results} == {"<stdin>"}
    res = compile_tool(TOOL)
    results = uploadable(sarif.log([("mcp:uvx srv#tools[0]", res)], [None], []))
    assert results and all("locations" not in r and r["properties"]["origin"] == "mcp:uvx srv" for r in results)


def test_a_probe_verdict_without_a_file_has_no_locations() -> None:
    v = SimpleNamespace(status="rejected", arguments_valid=None, tool="fetch", target="openai", api="responses",
                        model="m", rules="r", kind="schema", message="no", argument_errors=[], source="<stdin>",
                        http_status=400, notes=[])
    (result,) = uploadable(probe_sarif.log([v], []))
    assert "locations" not in result
    # each verdict its own fingerprint: per tool and target (s13j #11f)
    w = SimpleNamespace(**{**vars(v), "target": "anthropic", "api": "messages"})
    prints = [r["partialFingerprints"]["toolcastProbe/v1"] for r in probe_sarif.log([v, w], [])["runs"][0]["results"]]
    assert len(set(prints)) == 2


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_diff_locates_a_removed_tool_at_its_old_path_and_fingerprints_each_target(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo(tmp_path)

    def git(*args: str) -> None:
        run_git(tmp_path, *args)

    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "gone.json").write_text(json.dumps({**TOOL, "name": "gone"}), encoding="utf-8")
    strict = {"name": "kept", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}},
                                             "required": ["q"], "additionalProperties": False}}
    (tmp_path / "tools" / "kept.json").write_text(json.dumps(strict), encoding="utf-8")
    git("add", "-A")
    git("commit", "-q", "-m", "one")
    (tmp_path / "tools" / "gone.json").unlink()
    open_map = {"type": "object", "additionalProperties": {"type": "string"}}  # (non-strict wherever that exists)
    kept = {**strict, "inputSchema": {**strict["inputSchema"], "properties": {"q": {"type": "string"}, "m": open_map}}}
    (tmp_path / "tools" / "kept.json").write_text(json.dumps(kept), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, log = run("diff", "--git", "HEAD", "tools", "--format", "sarif", "--target", "all")
    results = uploadable(log)
    assert code == 1 and all(r.get("locations") for r in results)
    (removed,) = [r for r in results if r["ruleId"] == "toolcast-diff/tool-removed"]
    assert removed["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "tools/gone.json", "uriBaseId": "%SRCROOT%"}, "region": {"startLine": 1}}
    regressed = [r for r in results if r["ruleId"] == "toolcast-diff/regressed"]
    assert len(regressed) >= 2
    assert len({r["partialFingerprints"]["toolcastDiff/v1"] for r in regressed}) == len(regressed)
