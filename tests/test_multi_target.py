"""Several targets in one run (`--target openai,anthropic`, `--target all`): one outcome per tool
and target in every format, a folder per target under --out, and single-target output unchanged."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest
from rule_facts import lost_formats

from toolcast.cli.main import main
from toolcast.cli.parser import parse_targets
from toolcast.providers import EMITTERS

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
REFUND = str(EXAMPLES / "refund_order.json")  # strict for openai, non-strict (lossy `minimum`) for anthropic
TOOLS = str(EXAMPLES / "mcp_tools_list.json")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_parse_targets() -> None:
    assert parse_targets("openai") == ["openai"]
    assert parse_targets("anthropic, openai,anthropic") == ["anthropic", "openai"]
    assert parse_targets("all") == list(EMITTERS)
    for bad in ("openai,nope", "", "all,openai"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_targets(bad)


@pytest.mark.parametrize("command", ["compile", "check"])
@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_one_target_output_is_what_it_was(command: str, fmt: str) -> None:
    # --target openai (now a list parsed by parse_targets) runs the single-target report, byte for byte.
    default = run(command, REFUND, TOOLS, "--format", fmt)
    assert run(command, REFUND, TOOLS, "--format", fmt, "--target", "openai") == default
    assert "portability" not in default[1] and "target(s)" not in default[1]
    if fmt == "json":
        doc = json.loads(default[1])
        assert doc["target"] == "openai" and "targets" not in doc and "target" not in doc["results"][0]


def test_text_groups_by_tool_with_portability_and_a_closing_summary() -> None:
    code, out, _ = run("compile", REFUND, TOOLS, "--target", "openai,anthropic")
    lines = out.splitlines()
    assert code == 0
    i = lines.index(f"refund_order  {REFUND}")
    assert lines[i + 1].startswith("  ✓ openai     strict  (openai@")
    anthropic = next(x for x in lines[i:] if x.startswith("  ~ anthropic"))
    assert "non-strict  (anthropic@" in anthropic
    assert "  portability: strict on 1 of 2 targets (openai); non-strict on anthropic" in lines
    assert "  portability: strict on 2 of 2 targets (openai, anthropic)" in lines  # create_file
    # fetch_url (format uri in the example) is non-strict on openai while the default rules drop its
    # format, and non-strict on anthropic whatever they say: read from the rules, not pinned.
    fetch = next(x for x in json.loads(Path(TOOLS).read_text(encoding="utf-8"))["tools"] if x["name"] == "fetch_url")
    lost = int(bool(lost_formats(fetch["inputSchema"])))
    assert lines[-3].startswith(f"openai: 5 tool(s): {4 - lost} strict, {1 + lost} non-strict, 0 refused")
    assert lines[-2].startswith("anthropic: 5 tool(s): 1 strict, 4 non-strict, 0 refused")
    assert lines[-1] == f"5 tool(s) on 2 target(s): 1 strict on all 2, {3 - lost} strict on 1 of 2, {1 + lost} strict on none"


def test_check_fails_when_one_target_fails() -> None:
    assert run("check", REFUND)[0] == 0
    assert run("check", REFUND, "--target", "openai,anthropic")[0] == 1
    assert run("check", REFUND, "--target", "openai,gemini")[0] == 0


def test_json_has_a_result_per_tool_and_target() -> None:
    code, out, _ = run("compile", REFUND, TOOLS, "--target", "all", "--format", "json")
    doc = json.loads(out)
    assert code == 0
    assert [t["target"] for t in doc["targets"]] == list(EMITTERS)
    assert {t["target"]: t["api"] for t in doc["targets"]}["gemini"] == "parameters"
    assert len(doc["results"]) == 5 * len(EMITTERS)
    first = doc["results"][: len(EMITTERS)]
    assert {r["name"] for r in first} == {"refund_order"} and [r["target"] for r in first] == list(EMITTERS)
    assert all(r["rules"].startswith(r["target"]) for r in doc["results"])
    assert doc["summary"]["tools"] == 5 and doc["summary"]["targets"]["anthropic"]["non-strict"] == 4
    refund = doc["portability"][0]
    assert refund["name"] == "refund_order" and refund["of"] == len(EMITTERS)
    assert refund["outcomes"]["openai"] == "strict" and refund["outcomes"]["anthropic"] == "non-strict"
    assert refund["strict_on"] == sum(1 for s in refund["outcomes"].values() if s == "strict")


def test_sarif_names_the_target_of_each_result() -> None:
    code, out, _ = run("check", REFUND, "--target", "openai,anthropic", "--format", "sarif", "--fail-on", "never")
    results = json.loads(out)["runs"][0]["results"]
    assert code == 0
    assert {r["properties"]["target"] for r in results} == {"openai", "anthropic"}
    assert all(r["message"]["text"].startswith(f"[{r['properties']['target']}] ") for r in results)
    prints = [r["partialFingerprints"]["toolcastFinding/v1"] for r in results]
    assert len(set(prints)) == len(prints)


def test_out_writes_a_folder_per_target(tmp_path: Path) -> None:
    out = tmp_path / "gen"
    code, text, _ = run("compile", REFUND, "--target", "openai,anthropic", "--out", str(out))
    assert code == 0
    for target in ("openai", "anthropic"):
        manifest = json.loads((out / target / "manifest.json").read_text())
        assert manifest["target"] == target
        tool = json.loads((out / target / "refund_order.json").read_text())
        assert ("name" in tool) and ("input_schema" in tool) == (target == "anthropic")
    assert f"wrote 1 file(s) and manifest.json to {out / 'openai'}" in text
    # Unchanged on a second run: --fail-on-change passes.
    assert run("compile", REFUND, "--target", "openai,anthropic", "--out", str(out), "--fail-on-change")[0] == 0


def test_api_must_be_every_targets_and_an_input_error_is_said_once(tmp_path: Path) -> None:
    code, _, err = run("compile", REFUND, "--target", "openai,anthropic", "--api", "chat")
    assert code == 2 and "--api chat is not an API of anthropic" in err
    assert run("compile", REFUND, "--target", "gemini,vertex", "--api", "json-schema")[0] == 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"name": "x", "parameters": {"type": "object"}, "description": 5}]))  # (compile says why)
    code, out, _ = run("check", str(bad), REFUND, "--target", "openai,anthropic")
    assert code == 2 and out.count("error: ") == 1


def test_a_folder_that_cannot_be_built_leaves_every_target_folder_as_it_was(tmp_path: Path, monkeypatch) -> None:
    """Every target's folder is built before any is switched in: a full disk while building the
    second leaves the first (already built) as it was too."""

    out = tmp_path / "gen"
    assert run("compile", REFUND, "--target", "openai,anthropic", "--out", str(out))[0] == 0
    before = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    _full_disk_for(monkeypatch, "anthropic")
    code, text, err = run("compile", REFUND, TOOLS, "--target", "openai,anthropic", "--out", str(out))
    assert code == 2
    assert "No space left on device" in text + err and "left unchanged" in err
    after = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gen"]  # no staging folder left behind


def _full_disk_for(monkeypatch, folder: str):
    """Batch._build made to fail as a full disk does for DIR/`folder`; returns the real one."""
    import errno

    from toolcast import outdir

    build = outdir.Batch._build

    def full(self):
        if self.dir.name == folder:
            raise OSError(errno.ENOSPC, "No space left on device")
        return build(self)

    monkeypatch.setattr(outdir.Batch, "_build", full)
    return build


def _tree(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_one_target_then_several_the_top_level_batch_leaves_in_the_same_switch(tmp_path: Path, monkeypatch) -> None:
    """`--out gen` then `--out gen --target openai,anthropic`: the first run's gen/manifest.json and
    the file it vouches for leave as stale files do, with the folders in one exchange; files that
    are not provably toolcast's stay, and a failed run leaves gen exactly as it was."""

    from toolcast import outdir

    out = tmp_path / "gen"
    assert run("compile", REFUND, "--out", str(out))[0] == 0
    (out / "README.md").write_text("mine\n")
    before = _tree(out)
    build = _full_disk_for(monkeypatch, "anthropic")
    code, _, err = run("compile", REFUND, "--target", "openai,anthropic", "--out", str(out))
    assert code == 2 and "left unchanged" in err and _tree(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gen"]
    monkeypatch.setattr(outdir.Batch, "_build", build)

    exchanges = []
    real = outdir.exchange
    monkeypatch.setattr(outdir, "exchange", lambda a, b: exchanges.append(b) or real(a, b))
    code, _, err = run("compile", REFUND, "--target", "openai,anthropic", "--out", str(out), "--fail-on-change")
    assert code == 1  # a change: the old batch left
    assert sorted(_tree(out)) == ["README.md", "anthropic/manifest.json", "anthropic/refund_order.json",
                                  "openai/manifest.json", "openai/refund_order.json"]
    assert f"{out / 'manifest.json'}: the manifest of an earlier one-target run; removed" in err
    assert [Path(b).name for b in exchanges] == ["gen"]  # the folders and the top level: one exchange
    assert run("compile", REFUND, "--target", "openai,anthropic", "--out", str(out), "--fail-on-change")[0] == 0

    # a file of the old batch someone edited stays, and so does the manifest that lists it
    assert run("compile", REFUND, TOOLS, "--out", str(out))[0] == 0
    (out / "refund_order.json").write_text("edited\n")
    code, _, err = run("compile", REFUND, "--target", "openai,anthropic", "--out", str(out))
    assert code == 0 and (out / "refund_order.json").read_text() == "edited\n" and (out / "manifest.json").exists()
    assert "its content is not what toolcast wrote; kept" in err and "kept for the files it lists that stay" in err
    assert not [p for p in out.iterdir() if p.suffix == ".json" and p.name not in ("manifest.json", "refund_order.json")]


def test_several_targets_then_one_the_target_folders_leave(tmp_path: Path) -> None:
    """`--target openai,anthropic --out gen` then `--out gen`: gen/openai/ and gen/anthropic/, each
    nothing but a batch toolcast wrote, leave with the switch; a folder with anything else stays, said why."""
    out = tmp_path / "gen"
    assert run("compile", REFUND, "--target", "openai,anthropic,gemini", "--out", str(out))[0] == 0
    (out / "gemini" / "notes.txt").write_text("mine\n")
    (out / "mine").mkdir()
    code, _, err = run("compile", REFUND, "--out", str(out), "--fail-on-change")
    assert code == 1
    assert sorted(_tree(out)) == ["gemini/manifest.json", "gemini/notes.txt", "gemini/refund_order.json",
                                  "manifest.json", "refund_order.json"]
    assert (out / "mine").is_dir()
    assert f"{out / 'anthropic'}/: the batch folder of an earlier run for several targets; removed" in err
    assert f"{out / 'gemini'}/: the batch folder of an earlier run for several targets, kept: it also holds notes.txt" in err
    assert run("compile", REFUND, "--out", str(out), "--fail-on-change")[0] == 0
    # and a change of targets drops the folder of a target no longer compiled
    assert run("compile", REFUND, "--target", "openai,anthropic", "--out", str(out))[0] == 0
    code, _, err = run("compile", REFUND, "--target", "openai,xai", "--out", str(out), "--fail-on-change")
    assert code == 1 and not (out / "anthropic").exists() and (out / "xai" / "manifest.json").exists()


def test_what_changes_between_the_judging_and_the_switch_stays(tmp_path: Path, monkeypatch) -> None:
    """Found by a red team: an entry judged toolcast's own and unchanged (a target folder of an
    earlier layout, a stale tool file) left with the switch even when something was written into it
    after it was judged (a slow report reader holds the run between the two)."""
    from toolcast import outdir

    out = tmp_path / "gen"
    assert run("compile", REFUND, "--target", "openai,anthropic", "--out", str(out))[0] == 0
    switch = outdir.Batch._switch

    def late_write(self):
        if (out / "anthropic").is_dir():
            (out / "anthropic" / "USERFILE.txt").write_text("precious\n")
        return switch(self)

    monkeypatch.setattr(outdir.Batch, "_switch", late_write)
    code, _, err = run("compile", REFUND, "--out", str(out))
    assert code == 0, err
    assert (out / "anthropic" / "USERFILE.txt").read_text() == "precious\n"
    assert "anthropic: changed while this run was under way; kept" in err
    assert "anthropic/: the batch folder of an earlier run for several targets; removed" not in err
    assert not (out / "openai").exists()  # (the folder nothing changed leaves, as it did)


def test_an_input_of_the_run_never_leaves_with_an_earlier_layout(tmp_path: Path) -> None:
    """Found by a red team: a one-target run refused to write over its own input, but the layout
    switch removed an input file (a stale tool file of the earlier batch) or a folder holding one."""
    out = tmp_path / "gen"
    assert run("compile", REFUND, "--out", str(out))[0] == 0
    (src := out / "refund_order.json").read_text()
    code, _, err = run("compile", str(src), "--out", str(out), "--target", "openai,anthropic")
    assert code == 0, err
    assert src.is_file() and "an input of this run; kept" in err
    inner = out / "anthropic" / "refund_order.json"
    code, _, err = run("compile", str(inner), "--out", str(out))
    assert code == 0, err
    assert inner.is_file() and "it holds an input of this run" in err


def test_two_targets_folders_that_are_one_directory_are_said_so(tmp_path: Path) -> None:
    """Found by a red team: DIR/openai a symlink to DIR/anthropic was refused as "another toolcast
    run is writing this directory"; it is this run's two targets that share one folder."""
    out = tmp_path / "gen"
    (out / "anthropic").mkdir(parents=True)
    (out / "openai").symlink_to("anthropic")
    code, text, err = run("compile", REFUND, "--target", "openai,anthropic", "--out", str(out))
    assert code == 2
    assert f"{out / 'anthropic'}: is the same directory on disk as {out / 'openai'}" in text + err
    assert "another toolcast run" not in text + err
    assert sorted(p.name for p in out.iterdir()) == ["anthropic", "openai"] and not any((out / "anthropic").iterdir())


def test_an_interrupted_run_says_its_out_dir_was_left_unchanged(tmp_path: Path, monkeypatch) -> None:
    """Found by a red team: ^C in a run for several targets said only "interrupted", where a
    one-target run says that DIR was left unchanged (it is, in both)."""
    from toolcast import outdir

    out = tmp_path / "gen"
    assert run("compile", REFUND, "--target", "openai,anthropic", "--out", str(out))[0] == 0
    before = _tree(out)

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(outdir.Batch, "_switch", interrupted)
    code, _, err = run("compile", REFUND, TOOLS, "--target", "openai,anthropic", "--out", str(out))
    assert code == 130 and f"toolcast: {out}: left unchanged\ntoolcast: interrupted" in err, err
    assert _tree(out) == before
