"""The baseline file, read and written as carefully as the tool files: a path that is not a regular
file is never replaced or read without end, and a symlink is written through."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

from toolcast.cli.main import main

TOOL = str(Path(__file__).resolve().parents[1] / "examples" / "refund_order.json")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_write_baseline_never_replaces_a_fifo_or_a_directory(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "dir").mkdir()
    for target in (fifo, tmp_path / "dir"):
        code, out, err = run("check", TOOL, "--write-baseline", str(target))
        assert code == 2 and "not written: it is not a regular file" in out + err
    assert fifo.is_fifo() and (tmp_path / "dir").is_dir()  # (a FIFO was replaced by a regular file)


def test_write_baseline_writes_through_a_symlink(tmp_path: Path) -> None:
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    assert run("check", TOOL, "--write-baseline", str(real))[0] == 0
    link.symlink_to(real.name)
    real.write_text(json.dumps({**json.loads(real.read_text()), "findings": []}))
    assert run("check", TOOL, "--write-baseline", str(link))[0] == 0
    assert link.is_symlink() and len(json.loads(real.read_text())["findings"]) > 0


def test_a_baseline_that_is_not_a_regular_file_or_is_huge_is_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # (read, it blocked the run)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as fh:
        fh.truncate(65 * 1024 * 1024)  # (sparse: nothing is written)
    for path, needle in ((fifo, "not a regular file"), ("/dev/zero", "not a regular file"), (huge, "larger than 64 MiB")):
        code, out, err = run("check", TOOL, "--baseline", str(path))
        assert code == 2 and f"cannot read the baseline: {needle}" in out + err and "Traceback" not in out + err
