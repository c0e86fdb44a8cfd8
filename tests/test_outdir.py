"""`--out DIR`: all or nothing per run, locked, deleting only what toolcast provably wrote, modes kept.

The kill, full-disk and concurrency cases run the CLI in a child process with a time bound. A
child that must stop at a given step runs `HARNESS`, which wraps one step of `outdir.Batch` to
touch a flag file and wait: the test then kills it (or lets it go) at exactly that point.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolcast import outdir, render
from toolcast._output import jsonout as _jsonout
from toolcast.cli.main import main
from toolcast.loader import InputError

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file semantics (flock, modes, SIGKILL)")

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOOD = [str(EXAMPLES / n) for n in ("refund_order.json", "mcp_tools_list.json", "pydantic_contact.json")]
BOUND = 60  # seconds any child may take

HARNESS = r"""
import os, sys, time
from toolcast import outdir
from toolcast.cli.main import main

step, flag, go = os.environ["PAUSE_STEP"], os.environ["PAUSE_FLAG"], os.environ.get("PAUSE_GO", "")

def pause():
    open(flag, "w").close()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (go and os.path.exists(go)):
        time.sleep(0.01)

if step == "add":  # after the fifth tool file of the batch
    real_add, seen = outdir.Batch.add, []
    def add(self, *a):
        real_add(self, *a)
        seen.append(1)
        if len(seen) == 5:
            pause()
    outdir.Batch.add = add
elif step in ("switch", "switched"):
    real_switch = outdir.Batch._switch
    def switch(self):
        if step == "switch":
            pause()
        old = real_switch(self)
        if step == "switched":
            pause()
        return old
    outdir.Batch._switch = switch
elif step == "staged":  # the staging directory made, not locked yet
    real_lock = outdir._lock
    def lock(path, given):
        if "-new-" in str(path):
            pause()
        return real_lock(path, given)
    outdir._lock = lock
elif step == "between-renames":  # a system without an atomic exchange, stopped half-way
    outdir.exchange = lambda a, b: False
    real_rename = os.rename
    def rename(a, b):
        real_rename(a, b)
        if "-old-" in str(b):
            pause()
    os.rename = rename
sys.exit(main(sys.argv[1:]))
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def tools_file(tmp_path: Path, n: int, *, name: str = "tools.json", prefix: str = "t", big: int = 0) -> str:
    props = {f"p{i}": {"type": "string", "description": "x" * big} for i in range(3)}
    tools = [{"name": f"{prefix}{i}", "description": "d", "inputSchema": {"type": "object", "properties": props}} for i in range(n)]
    p = tmp_path / name
    p.write_text(json.dumps({"tools": tools}))
    return str(p)


def snapshot(d: Path) -> dict[str, tuple[bytes | str, int]]:
    """Every entry under d (recursively): its bytes (or link target, or "dir") and its mode."""
    out = {}
    for p in sorted(d.rglob("*")):
        st = p.lstat()
        if p.is_symlink():
            body: bytes | str = "-> " + os.readlink(p)
        elif p.is_dir():
            body = "dir"
        else:
            body = p.read_bytes()
        out[str(p.relative_to(d))] = (body, st.st_mode)
    return out


def assert_consistent(d: Path) -> dict:
    """The manifest describes exactly the tool files DIR holds, with their content hashes."""
    manifest = json.loads((d / "manifest.json").read_text(encoding="utf-8"))
    listed = {t["file"]: t["sha256"] for t in manifest["tools"]}
    present = {p.name for p in d.iterdir() if p.name.endswith(".json")} - {"manifest.json"}
    assert present == set(listed)
    for fname, digest in listed.items():
        body = (d / fname).read_bytes()
        assert hashlib.sha256(body).hexdigest() == digest, fname
        assert ("parameters" in json.loads(body)) == (manifest["api"] == "responses"), fname
    return manifest


def leftovers(d: Path) -> list[str]:
    beside = [p.name for p in d.parent.iterdir() if p.name.startswith(f".{d.name}.toolcast-")]
    inside = [p.name for p in d.iterdir() if p.name.startswith(".toolcast-")] if d.is_dir() else []
    return sorted(beside + inside)


def start_paused(tmp_path: Path, step: str, *argv: str, go: bool = False) -> tuple[subprocess.Popen, Path, Path]:
    flag, release = tmp_path / f"paused-{step}", tmp_path / f"go-{step}"
    env = {**os.environ, "PAUSE_STEP": step, "PAUSE_FLAG": str(flag), "PAUSE_GO": str(release) if go else ""}
    env.pop("TOOLCAST_DEBUG", None)
    proc = subprocess.Popen([PY, "-c", HARNESS, *argv], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + BOUND
    while not flag.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            out, err = proc.communicate(timeout=BOUND)
            pytest.fail(f"the child never reached {step!r}: exit {proc.returncode}\n{out.decode()}\n{err.decode()}")
        time.sleep(0.01)
    return proc, flag, release


def cli(*argv: str, preexec=None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TOOLCAST_DEBUG"}
    return subprocess.run([PY, "-m", "toolcast.cli.main", *argv], capture_output=True, text=True, timeout=BOUND,
                          env=env, preexec_fn=preexec)


# -- issue 17, item 10: a run with an input error leaves DIR as it was ------------------------------


@pytest.mark.parametrize("bad", ["{", '{"tools": [{"description": "no name"}]}', "[1, 2]"], ids=["json", "no-name", "not-tools"])
def test_any_input_error_leaves_out_exactly_as_it_was(tmp_path: Path, bad: str) -> None:
    out = tmp_path / "generated"
    assert run("compile", *GOOD, "--out", str(out))[0] == 0
    before = snapshot(out)
    typo = tmp_path / "typo.json"
    typo.write_text(bad)
    code, stdout, err = run("compile", str(typo), "--out", str(out))
    assert code == 2 and "typo.json" in stdout
    assert snapshot(out) == before
    assert "left unchanged" in err and str(out) in err
    # The good files beside the bad one do not get written either: the run is one batch.
    code, _, err = run("compile", GOOD[0], str(typo), "--out", str(out), "--api", "chat", "--format", "json")
    assert code == 2 and snapshot(out) == before and "left unchanged" in err
    assert leftovers(out) == []


def test_an_input_error_never_creates_the_out_dir(tmp_path: Path) -> None:
    typo = tmp_path / "typo.json"
    typo.write_text("{")
    out = tmp_path / "new" / "generated"
    assert run("compile", GOOD[0], str(typo), "--out", str(out))[0] == 2
    assert not (tmp_path / "new").exists()


# -- issue 17, item 11: modes ---------------------------------------------------------------------


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o002], ids=["022", "027", "002"])
def test_files_get_the_umask_mode_and_replaced_files_keep_theirs(tmp_path: Path, umask: int) -> None:
    out = tmp_path / "generated"
    old = os.umask(umask)
    try:
        assert run("compile", GOOD[0], "--out", str(out))[0] == 0
        for p in out.iterdir():
            assert p.stat().st_mode & 0o777 == 0o666 & ~umask, p.name
        assert out.stat().st_mode & 0o777 == 0o777 & ~umask
        os.chmod(out / "refund_order.json", 0o640)
        os.chmod(out / "manifest.json", 0o604)
        os.chmod(out, 0o750)
        assert run("compile", GOOD[0], "--out", str(out), "--api", "chat")[0] == 0
    finally:
        os.umask(old)
    assert json.loads((out / "refund_order.json").read_text())["type"] == "function"
    assert (out / "refund_order.json").stat().st_mode & 0o777 == 0o640
    assert (out / "manifest.json").stat().st_mode & 0o777 == 0o604
    assert out.stat().st_mode & 0o777 == 0o750


# -- issue 22, item 2: delete only what toolcast wrote ------------------------------------------


def test_a_planted_manifest_deletes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    out.mkdir()
    outside = tmp_path / "precious.json"
    outside.write_text("{}")
    (out / "package.json").write_text('{"name": "app"}\n')
    (out / "escape.json").symlink_to(outside)
    package_hash = hashlib.sha256(b"other content").hexdigest()
    (out / "manifest.json").write_text(json.dumps({"tools": [
        {"name": "a", "file": "package.json"},                           # no hash: not proven
        {"name": "b", "file": "package.json", "sha256": package_hash},   # a hash that does not match
        {"name": "c", "file": "../precious.json", "sha256": hashlib.sha256(b"{}").hexdigest()},
        {"name": "d", "file": str(outside), "sha256": hashlib.sha256(b"{}").hexdigest()},
        {"name": "e", "file": "escape.json", "sha256": hashlib.sha256(b"{}").hexdigest()},
        {"name": "f", "file": 5}, "junk",
        {"name": "h", "file": "notes.txt", "sha256": hashlib.sha256(b"mine").hexdigest()},
    ]}))
    (out / "notes.txt").write_text("mine")
    before = {"package.json": (out / "package.json").read_bytes(), "precious": outside.read_bytes()}
    code, _, err = run("compile", GOOD[0], "--out", str(out))
    assert code == 0
    assert (out / "package.json").read_bytes() == before["package.json"]
    assert outside.read_bytes() == before["precious"] and (out / "escape.json").is_symlink()
    assert (out / "notes.txt").read_text() == "mine"
    assert "package.json: listed in manifest.json" in err and "escape.json" in err and "precious.json" in err
    # A manifest can state any hash: with the right one, package.json is still not a tool file.
    (out / "manifest.json").write_text(json.dumps({"tools": [
        {"name": "g", "file": "package.json", "sha256": hashlib.sha256(before["package.json"]).hexdigest()}]}))
    code, _, err = run("compile", GOOD[0], "--out", str(out))
    assert code == 0 and (out / "package.json").read_bytes() == before["package.json"]
    assert "package.json: listed in manifest.json with its hash, but not a tool file as toolcast writes them" in err
    assert "Traceback" not in err


def test_a_manifest_or_listed_file_nested_too_deeply_to_parse_is_not_ours(tmp_path: Path) -> None:
    # Both were "internal error: RecursionError" (the parser's depth), and DIR left without a word.
    out = tmp_path / "generated"
    out.mkdir()
    deep = ("[" * 100_000 + "]" * 100_000 + "\n").encode()
    (out / "deep.json").write_bytes(deep)
    (out / "manifest.json").write_text(json.dumps({"toolcast": "0", "tools": [
        {"name": "d", "file": "deep.json", "sha256": hashlib.sha256(deep).hexdigest()}]}))
    code, _, err = run("compile", GOOD[0], "--out", str(out))
    assert code == 0 and "deep.json: listed in manifest.json with its hash, but not a tool file" in err
    assert (out / "deep.json").read_bytes() == deep and (out / "refund_order.json").exists()
    (out / "deep.json").unlink()
    (out / "manifest.json").write_bytes(deep)
    code, _, err = run("compile", GOOD[0], "--out", str(out))
    assert code == 0 and not err
    assert_consistent(out)


def test_an_unexpected_error_says_out_was_left_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "generated"

    def broken(self: outdir.Batch) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(outdir.Batch, "_build", broken)
    monkeypatch.delenv("TOOLCAST_DEBUG", raising=False)
    code, _, err = run("compile", GOOD[0], "--out", str(out))
    assert code == 2 and err.splitlines()[0] == f"toolcast: {out}: left unchanged" and "internal error" in err
    assert not out.exists() and not leftovers(out)


def test_a_stale_file_goes_only_while_it_holds_what_toolcast_wrote(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    assert run("compile", tools_file(tmp_path, 3), "--out", str(out))[0] == 0
    (out / "t1.json").write_text('{"edited": true}\n')
    code, _, err = run("compile", tools_file(tmp_path, 1), "--out", str(out), "--format", "json")
    assert code == 0
    assert not (out / "t2.json").exists()  # unchanged since toolcast wrote it: removed
    assert (out / "t1.json").read_text() == '{"edited": true}\n'  # edited by hand: kept, and said
    assert "t1.json: listed in manifest.json, but its content is not what toolcast wrote; kept" in err
    assert [t["file"] for t in json.loads((out / "manifest.json").read_text())["tools"]] == ["t0.json"]


@pytest.mark.parametrize("target", [["--target", "anthropic"], ["--target", "gemini"],
                                    ["--target", "vertex", "--api", "json-schema"], ["--api", "chat"]])
def test_a_stale_file_of_any_target_goes(tmp_path: Path, target: list[str]) -> None:
    # Only OpenAI's Responses shape ("type": "function" at the top) was taken as a tool file: an
    # Anthropic or Gemini tool whose source was removed stayed in DIR, "not a tool file", for good.
    out = tmp_path / "generated"
    assert run("compile", tools_file(tmp_path, 3), *target, "--out", str(out))[0] == 0
    code, _, err = run("compile", tools_file(tmp_path, 1), *target, "--out", str(out))
    assert code == 0 and not err
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "t0.json"]


def test_manifest_is_byte_stable_and_hashes_each_file(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    assert run("compile", *GOOD, "--out", str(out))[0] == 0
    text = (out / "manifest.json").read_text(encoding="utf-8")
    manifest = json.loads(text)
    assert text == outdir.dumps(manifest)
    assert [t["file"] for t in manifest["tools"]] == sorted(t["file"] for t in manifest["tools"])
    assert list(manifest["tools"][0])[:3] == ["name", "file", "sha256"]
    assert_consistent(out)


def test_a_source_whose_name_is_not_utf8_is_in_the_manifest_as_its_escape(tmp_path: Path) -> None:
    # The manifest could not be written ("internal error: UnicodeEncodeError"), and DIR was left
    # unchanged without the message saying so.
    tools, out = tmp_path / "tools", tmp_path / os.fsdecode(b"gen\xe9")
    tools.mkdir()
    try:
        (tools / os.fsdecode(b"caf\xe9.json")).write_text(json.dumps({"name": "t", "inputSchema": {"type": "object"}}))
    except (OSError, UnicodeError):
        pytest.skip("the file system takes only UTF-8 names")
    code, text, err = run("compile", str(tools), "--out", str(out), "--fail-on-change")
    assert code == 1 and not err  # written
    assert "caf\\xe9.json" in text and text.endswith("gen\\xe9 changed: regenerated files to review and commit\n")
    code, _, err = run("compile", str(tools), "--out", str(out), "--fail-on-change")
    assert code == 0 and not err  # and the same bytes again
    data = (out / "manifest.json").read_bytes()
    manifest = json.loads(data)
    assert manifest["tools"][0]["source"] == os.fsdecode(bytes(tools) + b"/caf\xe9.json")
    assert b"caf\\udce9.json" in data and data == _jsonout.utf8(outdir.dumps(manifest))
    assert_consistent(out)


# -- the user's own entries survive, as the same objects ----------------------------------------


def test_entries_toolcast_did_not_write_are_kept_as_they_are(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    out.mkdir()
    (out / "README.md").write_text("mine\n")
    (out / "sub").mkdir()
    (out / "sub" / "deep.txt").write_text("deep\n")
    (out / "link").symlink_to("README.md")
    (out / ".toolcast-123.tmp").write_text("left by an interrupted run of an older toolcast")
    ids = {n: (out / n).lstat().st_ino for n in ("README.md", "sub", "link")}
    for api in ("responses", "chat"):
        assert run("compile", *GOOD, "--out", str(out), "--api", api)[0] == 0
    assert (out / "README.md").read_text() == "mine\n" and (out / "sub" / "deep.txt").read_text() == "deep\n"
    assert os.readlink(out / "link") == "README.md"
    assert {n: (out / n).lstat().st_ino for n in ids} == ids
    assert not (out / ".toolcast-123.tmp").exists() and leftovers(out) == []
    assert_consistent(out)


def test_a_directory_where_a_tool_file_goes_is_an_error_and_nothing_changes(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    assert run("compile", GOOD[0], "--out", str(out))[0] == 0
    (out / "search_issues.json").mkdir()
    before = snapshot(out)
    code, stdout, _ = run("compile", *GOOD, "--out", str(out))
    assert code == 2 and "search_issues.json" in stdout and "a directory" in stdout
    assert snapshot(out) == before and leftovers(out) == []


# -- issue 22, item 7: say what is wrong with DIR --------------------------------------------------


def test_out_that_is_not_a_directory_is_named_for_what_it_is(tmp_path: Path) -> None:
    regular = tmp_path / "file"
    regular.write_text("data")
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    to_file = tmp_path / "to-file"
    to_file.symlink_to(regular)
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    cases = {
        str(loop): f"is a symbolic link that loops (to {loop})",
        str(regular): "is not a directory (a regular file)",
        str(dangling): f"is a dangling symbolic link (to {tmp_path / 'nowhere'})",
        str(to_file): "is not a directory: it is a symbolic link to a file",
        str(regular / "sub"): f"cannot be created: {regular} is not a directory (a regular file)",
    }
    for out, needle in cases.items():
        code, stdout, err = run("compile", GOOD[0], "--out", out)
        assert code == 2 and f"{out}: {needle}" in stdout, (out, stdout)
        assert "File exists" not in stdout + err and "Traceback" not in stdout + err
    assert regular.read_text() == "data" and not (tmp_path / "nowhere").exists()


def test_a_dir_the_system_will_not_switch_is_named_and_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "generated"
    assert run("compile", GOOD[0], "--out", str(out))[0] == 0
    before = snapshot(out)

    def busy(a: Path, b: Path) -> bool:
        raise OSError(16, "Device or resource busy", str(b))  # what a mount point answers

    monkeypatch.setattr(outdir, "exchange", busy)
    code, _, stderr = run("compile", *GOOD, "--out", str(out))
    # (DIR is switched in once the report is written, so the report is out: stderr says it failed)
    assert code == 2 and f"{out}: cannot be replaced: it is a mount point" in stderr and "left unchanged" in stderr
    assert snapshot(out) == before and leftovers(out) == []


def test_out_through_a_symlink_to_a_directory_writes_the_directory(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert run("compile", GOOD[0], "--out", str(link))[0] == 0
    assert link.is_symlink() and (real / "refund_order.json").is_file()


# -- issue 22, item 3: a batch is atomic as a whole --------------------------------------------


@pytest.mark.parametrize("step", ["add", "switch", "switched", "between-renames"])
def test_sigkill_mid_batch_never_shows_a_mixed_batch(tmp_path: Path, step: str) -> None:
    out = tmp_path / "generated"
    assert run("compile", tools_file(tmp_path, 12, name="a.json"), "--out", str(out))[0] == 0
    first = snapshot(out)
    proc, _, _ = start_paused(tmp_path, step, "compile", tools_file(tmp_path, 8, name="b.json", prefix="u"),
                              "--out", str(out), "--api", "chat")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=BOUND)
    if step == "between-renames":
        assert not out.exists()  # a reader sees no DIR for this instant, never a mixed one
    elif step == "switched":
        assert assert_consistent(out)["api"] == "chat"
    else:
        assert snapshot(out) == first
    assert leftovers(out)  # the interrupted run's staging (or old) directory
    # The next run cleans up what the killed one left, whatever its own outcome.
    assert run("compile", tools_file(tmp_path, 3, name="c.json", prefix="v"), "--out", str(out))[0] == 0
    assert assert_consistent(out)["api"] == "responses"
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "v0.json", "v1.json", "v2.json"]
    assert leftovers(out) == []


@pytest.mark.parametrize("existed", [True, False])
def test_sigterm_mid_batch_leaves_out_as_it_was_and_nothing_beside_it(tmp_path: Path, existed: bool) -> None:
    # SIGTERM left a DIR the run had created (empty) and the staging directory; ^C removed both.
    out = tmp_path / "a" / "generated"
    if existed:
        assert run("compile", tools_file(tmp_path, 12, name="a.json"), "--out", str(out))[0] == 0
    first = snapshot(out) if existed else None
    proc, _, _ = start_paused(tmp_path, "add", "compile", tools_file(tmp_path, 8, name="b.json", prefix="u"),
                              "--out", str(out))
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=BOUND)
    assert proc.returncode == 128 + signal.SIGTERM and f"toolcast: {out}: left unchanged" in err.decode()
    if existed:
        assert snapshot(out) == first and leftovers(out) == []
    else:
        assert not (tmp_path / "a").exists()  # (the directories the run made, the staging one in them)


def _full_disk() -> None:
    # Any file the child writes stops at 3,000 bytes (EFBIG: Python ignores SIGXFSZ).
    resource.setrlimit(resource.RLIMIT_FSIZE, (3000, 3000))


def test_a_full_disk_leaves_the_previous_batch_whole(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    assert run("compile", tools_file(tmp_path, 4, name="a.json"), "--out", str(out))[0] == 0
    first = snapshot(out)
    for size in (2000, 0):  # a tool file too big, then (many small files) a manifest too big
        p = cli("compile", tools_file(tmp_path, 2 if size else 60, name="b.json", prefix="u", big=size),
                "--out", str(out), "--api", "chat", preexec=_full_disk)
        assert p.returncode == 2, p.stdout + p.stderr
        assert "cannot write output: File too large" in p.stdout and "left as it was" in p.stdout
        # The README: such a run "says so on stderr" (the report on stdout may be redirected).
        assert "File too large" in p.stderr and "left as it was" in p.stderr
        assert "Traceback" not in p.stdout + p.stderr
        assert snapshot(out) == first and leftovers(out) == []
    fresh = tmp_path / "new" / "generated"
    p = cli("compile", tools_file(tmp_path, 2, name="b.json", big=2000), "--out", str(fresh), preexec=_full_disk)
    assert p.returncode == 2 and "File too large" in p.stdout and not (tmp_path / "new").exists()


def test_a_second_run_on_the_same_dir_is_refused_while_the_first_runs(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    assert run("compile", GOOD[0], "--out", str(out))[0] == 0
    for step in ("staged", "add", "switched"):
        proc, _, release = start_paused(tmp_path, step, "compile", tools_file(tmp_path, 8), "--out", str(out), go=True)
        try:
            p = cli("compile", *GOOD, "--out", str(out), "--api", "chat")
            assert p.returncode == 2
            assert f"{out}: another toolcast run is writing this directory" in p.stdout
            assert "left unchanged" not in p.stderr
        finally:
            release.touch()
        stdout, stderr = proc.communicate(timeout=BOUND)
        assert proc.returncode == 0, stdout.decode() + stderr.decode()
        assert assert_consistent(out)["api"] == "responses" and (out / "t7.json").exists()
        assert leftovers(out) == []


def test_concurrent_runs_each_win_or_are_refused_and_never_mix(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    files = [tools_file(tmp_path, 40, name=f"{i}.json", prefix=f"r{i}_") for i in range(4)]
    env = {k: v for k, v in os.environ.items() if k != "TOOLCAST_DEBUG"}
    for _ in range(3):
        procs = [subprocess.Popen([PY, "-m", "toolcast.cli.main", "compile", f, "--out", str(out), "--api", api],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                 for f, api in zip(files, ["chat", "responses"] * 2, strict=True)]
        # communicate() reads as it waits: a child whose report fills the pipe never blocks.
        outputs = [p.communicate(timeout=BOUND) for p in procs]
        results = [(p.returncode, o) for p, o in zip(procs, outputs, strict=True)]
        for code, (stdout, _) in results:
            assert code == 0 or (code == 2 and "another toolcast run is writing this directory" in stdout), stdout
        assert any(code == 0 for code, _ in results)
        manifest = assert_consistent(out)
        assert len({t["source"].split("#")[0] for t in manifest["tools"]}) == 1
        assert leftovers(out) == []


def test_a_file_created_in_dir_during_the_run_survives_it(tmp_path: Path) -> None:
    out = tmp_path / "generated"
    assert run("compile", GOOD[0], "--out", str(out))[0] == 0
    proc, _, release = start_paused(tmp_path, "switch", "compile", *GOOD, "--out", str(out), go=True)
    (out / "notes.txt").write_text("written while toolcast ran\n")
    release.touch()
    proc.communicate(timeout=BOUND)
    assert proc.returncode == 0
    assert (out / "notes.txt").read_text() == "written while toolcast ran\n"
    assert_consistent(out)


# -- issue 22, item 5: the JSON document is streamed, with the same bytes ---------------------------


def test_streamed_json_document_has_the_bytes_of_the_whole_one() -> None:
    from toolcast import compile_tool

    tools = json.loads((EXAMPLES / "mcp_tools_list.json").read_text())["tools"]
    results = [(f"src#{i}", compile_tool(t)) for i, t in enumerate(tools)]
    errors = [InputError("bad.json", "invalid JSON: ünïcode", 3, 4)]
    meta = {"toolcast": "x", "api": "responses", "rules": "r"}
    for command in ("compile", "check"):
        for rs, es, extra in ((results, errors, None), (results, [], {"out": {"dir": "d", "files": ["a"]}}),
                              ([], errors, None), ([], [], None)):
            stream = render.JsonStream(command=command, meta=meta)
            for source, r in rs:
                stream.add(source, r)
            buf = io.StringIO()
            stream.finish(buf, es, extra=extra)
            whole = render.document(rs, es, command=command, meta=meta)
            whole.update(extra or {})
            assert buf.getvalue() == json.dumps(whole, indent=2, ensure_ascii=False) + "\n"


def test_big_documents_spill_to_disk_and_stay_identical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render.JsonStream, "SPOOL_BYTES", 1024)
    code, streamed, _ = run("compile", *GOOD, "--format", "json")
    monkeypatch.undo()
    code2, small, _ = run("compile", *GOOD, "--format", "json")
    assert code == code2 == 0 and streamed == small and len(small) > 4096


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=5), kids, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(value=_json_values, depth=st.integers(0, 3), size=st.integers(1, 64))
def test_pieces_join_to_the_one_layout(value: object, depth: int, size: int) -> None:
    want = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + "  " * depth)
    assert "".join(_jsonout.chunks(value, depth=depth, size=size)) == want
    assert "".join(_jsonout.batched(_jsonout.chunks(value, depth=depth, size=1), size)) == want
    if isinstance(value, dict):
        # A list given as Lazy is written as that list, made one item at a time.
        pairs = [(k, _jsonout.Lazy(iter(v)) if isinstance(v, list) else v) for k, v in value.items()]
        assert "".join(_jsonout.object_chunks(pairs, depth=depth)) == want


def test_result_pairs_are_to_dict_with_source() -> None:
    from toolcast import compile_tool

    for tool in json.loads((EXAMPLES / "mcp_tools_list.json").read_text())["tools"]:
        r = compile_tool(tool)
        for with_tool in (True, False):
            want = {**r.to_dict(), "source": "s"}
            if not with_tool:
                want.pop("tool")
            got = json.loads("".join(_jsonout.object_chunks(render.result_pairs(r, "s", with_tool=with_tool))))
            assert list(got) == list(want) and got == want


def test_a_json_document_that_cannot_be_buffered_is_a_clear_error(tmp_path: Path) -> None:
    # About 6 MB of JSON: past the 4 MB kept in memory, the rest goes to a temporary file,
    # which the file-size limit stops (as a full TMPDIR would).
    big = tools_file(tmp_path, 250, big=8000)
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    env.pop("TOOLCAST_DEBUG", None)
    p = subprocess.run([PY, "-m", "toolcast.cli.main", "compile", big, "--format", "json"], capture_output=True, text=True,
                       timeout=BOUND, env=env, preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20)))
    assert p.returncode == 2 and p.stdout == ""
    assert "toolcast: cannot write the report: File too large" in p.stderr and "TMPDIR" in p.stderr
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr


def test_a_crlf_checkout_of_the_out_directory_is_no_change(tmp_path: Path) -> None:
    """DIR as Git's core.autocrlf checks it out (CRLF line ends): --fail-on-change sees no change,
    and a stale file that differs only by its line ends still leaves; one edited otherwise stays
    (red-team s13j #16)."""
    tools = tmp_path / "tools"
    tools.mkdir()
    for p in GOOD:
        (tools / Path(p).name).write_bytes(Path(p).read_bytes())
    out = tmp_path / "gen"

    def crlf() -> None:
        for p in out.iterdir():
            p.write_bytes(p.read_bytes().replace(b"\n", b"\r\n"))

    def compile_(*more: str) -> tuple[int, str]:
        err = io.StringIO()
        code = main(["compile", str(tools), "--out", str(out), "--fail-on-change", *more], stdout=io.StringIO(), stderr=err)
        return code, err.getvalue()

    assert compile_()[0] == 1  # (the first run writes DIR: a change)
    crlf()
    assert compile_() == (0, "")
    crlf()
    (tools / "pydantic_contact.json").unlink()
    gone = set(os.listdir(out))
    assert compile_() == (1, "")
    gone -= set(os.listdir(out))
    assert gone and all(b"\r" not in p.read_bytes() for p in out.iterdir())
    # a file that differs by more than its line ends is not toolcast's any more
    (tools / "mcp_tools_list.json").unlink()
    kept = next(t["file"] for t in json.loads((out / "manifest.json").read_text())["tools"] if "mcp_tools" in t["source"])
    crlf()
    (out / kept).write_bytes((out / kept).read_bytes().replace(b"\r\n}", b"\r\n}\r\n"))
    code, err = compile_()
    assert code == 1 and f"{kept}: listed in manifest.json, but its content is not what toolcast wrote; kept" in err
