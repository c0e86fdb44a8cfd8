"""`compile --out DIR` never puts a compiled tool in place of one of the run's own input files (the
red-team's round s13j #4: `compile tools/x.json --out tools` replaced the definition, exit 0)."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from toolcast.cli.main import main

TOOL = {"name": "refund_order", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def snapshot(d: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_ino) for p in sorted(d.iterdir())}


@pytest.mark.parametrize(("name", "content", "given"), [
    ("refund_order.json", TOOL, "tools/refund_order.json"),
    ("refund_order.json", {"tools": [TOOL, {**TOOL, "name": "other"}]}, "tools/refund_order.json"),
])
def test_an_output_that_would_replace_an_input_file_is_refused_and_dir_left_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, content: dict, given: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / name).write_text(json.dumps(content), encoding="utf-8")
    (tmp_path / "tools" / "README.md").write_text("mine\n", encoding="utf-8")
    before = snapshot(tmp_path / "tools")
    code, out, err = run("compile", given, "--out", "tools")
    assert code == 2 and "refund_order.json" in out and "an input of this run" in out, (out, err)
    assert snapshot(tmp_path / "tools") == before
    assert [p for p in os.listdir(tmp_path) if p != "tools"] == []  # (no staging directory left)


def test_out_as_the_working_directory_that_holds_the_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "refund_order.json").write_text(json.dumps(TOOL), encoding="utf-8")
    before = snapshot(tmp_path)
    code, out, _ = run("compile", "refund_order.json", "--out", ".")
    assert code == 2 and "an input of this run" in out and snapshot(tmp_path) == before


def test_an_input_elsewhere_with_the_same_name_is_no_reason_to_refuse(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "refund_order.json").write_text(json.dumps(TOOL), encoding="utf-8")
    assert run("compile", "tools", "--out", "gen")[0] == 0
    assert run("compile", "tools", "--out", "gen")[0] == 0  # (gen/refund_order.json is toolcast's own)
    assert json.loads((tmp_path / "tools" / "refund_order.json").read_text()) == TOOL


@pytest.mark.parametrize("targets", [["--target", "openai"], ["--target", "openai,anthropic"]])
def test_a_folder_skipped_as_an_out_directory_is_said_in_every_format(tmp_path: Path, monkeypatch,
                                                                      targets: list[str]) -> None:
    """A folder under PATH holding toolcast's manifest.json is skipped (another run's --out), and
    every format says so: a note in text, "skipped" in JSON, a SARIF notification, a ::notice
    (red-team s13j #14: a stray manifest made the gate stop checking a folder, in silence)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools" / "billing").mkdir(parents=True)
    (tmp_path / "tools" / "weather.json").write_text(json.dumps({**TOOL, "name": "weather"}))
    (tmp_path / "tools" / "billing" / "refund_order.json").write_text(json.dumps(TOOL))
    assert run("compile", "tools/billing", "--out", "gen")[0] == 0
    (tmp_path / "tools" / "billing" / "manifest.json").write_bytes((tmp_path / "gen" / "manifest.json").read_bytes())
    where = os.path.join("tools", "billing")
    why = "it holds the manifest.json of an --out directory"

    code, text, _ = run("check", "tools", *targets)
    assert code == 0 and f"note: {where}: skipped: {why}" in text
    code, text, _ = run("check", "tools", "--summary", "--quiet", *targets)
    assert f"note: {where}: skipped: {why}" in text
    doc = json.loads(run("check", "tools", "--format", "json", *targets)[1])
    assert [(s["path"], s["reason"][:len(why)]) for s in doc["skipped"]] == [(where, why)]
    log = json.loads(run("check", "tools", "--format", "sarif", *targets)[1])
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [(n["level"], n["descriptor"]["id"], n["properties"]["path"]) for n in notes] == [("note", "toolcast/skipped", where)]
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is True
    text = run("check", "tools", "--format", "github", *targets)[1]
    assert f"::notice title=toolcast skipped a directory::{where}: skipped: {why}" in text
    err = run("probe", "tools", "--dry-run", *targets)[2]  # (probe's formats have no place: stderr)
    assert f"toolcast: note: {where}: skipped: {why}" in err
    # the run's own --out is skipped as it always was, without a word
    code, text, _ = run("compile", "tools", "--out", "tools/billing")
    assert code == 0 and "skipped" not in text
    # nothing skipped: the JSON document is what it was
    assert "skipped" not in json.loads(run("check", "tools/weather.json", "--format", "json", *targets)[1])
    # a PATH that is such a folder itself is an input error that says why
    code, text, _ = run("check", "tools/billing", *targets)
    assert code == 2 and "holds the manifest.json of an --out directory" in text
