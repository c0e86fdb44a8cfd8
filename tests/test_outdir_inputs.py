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
