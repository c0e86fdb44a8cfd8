"""The command line: inputs, outputs, exit codes, errors with places, --out files and colour."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rule_facts import lost_formats, unsupported_format
from spec_versions import DEFAULT

from toolcast.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOOD = [str(EXAMPLES / n) for n in ("refund_order.json", "mcp_tools_list.json", "pydantic_contact.json")]


def run(*argv: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.BytesIO(stdin) if stdin is not None else None)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    p = tmp_path / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return str(p)


TOOL = {"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}


def test_examples_compile_and_json_document() -> None:
    code, out, _ = run("compile", *GOOD, "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["command"] == "compile" and doc["rules"] == f"openai@{DEFAULT}"
    assert doc["summary"]["tools"] == len(doc["results"]) == 6
    by_name = {r["name"]: r for r in doc["results"]}
    refund = by_name["refund_order"]
    assert refund["status"] == "strict"
    assert refund["null_paths"] == [["amount"], ["reason"], ["items"], ["items", None, "note"]]
    assert refund["tool"]["strict"] is True and refund["tool"]["name"] == "refund_order"
    assert {d["code"] for d in refund["diagnostics"]} >= {"openai/strict-optional-property"}
    assert all(set(t) == {"code", "path", "detail", "lossy"} for t in refund["transformations"])
    # fetch_url's `format` (uri in the example) is lossy exactly where the default rules do not take it.
    example = next(t for t in json.loads((EXAMPLES / "mcp_tools_list.json").read_text(encoding="utf-8"))["tools"]
                   if t["name"] == "fetch_url")
    fetch = by_name["fetch_url"]
    lost = lost_formats(example["inputSchema"])
    assert fetch["status"] == ("non-strict" if lost else "strict") and fetch["tool"]["strict"] is not bool(lost)
    formats = {d["path"] for d in fetch["diagnostics"] if d["code"] == "openai/unsupported-string-format"}
    assert formats == ({"#/properties/url/format"} if lost else set())


def test_refused_tool_exits_1_and_text_says_why() -> None:
    code, out, _ = run("compile", str(EXAMPLES / "dotted_names.json"))
    assert code == 1
    assert "✗ git.status  refused" in out and "openai/tool-name-invalid-characters" in out
    assert out.rstrip().endswith("2 tool(s): 0 strict, 0 non-strict, 2 refused")


def test_check_fail_on_levels(tmp_path: Path) -> None:
    strict_ready = write(tmp_path, "s.json", json.dumps({"name": "s", "description": "d", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False}}))
    warn_only = write(tmp_path, "w.json", json.dumps({"name": "w", "description": "d", "parameters": {"type": "object", "properties": {"a": {"type": "string", "default": "x"}}, "required": ["a"], "additionalProperties": False}}))
    assert run("check", strict_ready)[0] == 0
    assert run("check", warn_only)[0] == 0
    assert run("check", warn_only, "--fail-on", "warning")[0] == 1
    assert run("check", *GOOD)[0] == 1
    assert run("check", *GOOD, "--fail-on", "never")[0] == 0
    code, out, _ = run("check", warn_only, "--format", "json")
    assert code == 0
    assert "tool" not in json.loads(out)["results"][0]


def test_stdin_json_lines_and_chat_api() -> None:
    lines = (json.dumps(TOOL) + "\n" + json.dumps({**TOOL, "name": "u"}) + "\n").encode()
    code, out, _ = run("compile", "-", "--api", "chat", "--format", "json", stdin=lines)
    assert code == 0
    doc = json.loads(out)
    assert [r["tool"]["function"]["name"] for r in doc["results"]] == ["t", "u"]
    assert doc["results"][0]["source"].startswith("<stdin>")


def test_yaml_input(tmp_path: Path) -> None:
    path = write(tmp_path, "tools.yaml", "tools:\n  - name: y\n    description: d\n    inputSchema:\n      type: object\n      properties:\n        a: {type: string}\n")
    code, out, _ = run("compile", path, "--format", "json")
    assert code == 0 and json.loads(out)["results"][0]["null_paths"] == [["a"]]


@pytest.mark.parametrize(
    "name,content,needle",
    [
        ("bad.json", '{"name": "t",\n  "inputSchema": {"type": "object",}\n}', "bad.json:2:"),
        ("nan.json", '{"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "number", "maximum": NaN}}}}',
         "nan.json:1:99: invalid JSON: NaN is not valid JSON"),
        # The token's place, not a word of a string that spells it.
        ("inf.json", '{"name": "t", "description": "-Infinity",\n "inputSchema": {"enum": [1, -Infinity]}}',
         "inf.json:2:30: invalid JSON: -Infinity is not valid JSON"),
        ("big.json", '{"name": "t", "description": "1e999",\n\n  "inputSchema": {"maximum": 1e999}}',
         "big.json:3:30: invalid JSON: the number 1e999 is beyond the range of a 64-bit float"),
        ("dup.json", '{"name": "t",\n "name": "u"}', "dup.json:2:2: invalid JSON: duplicate key 'name'"),
        ("latin1.json", b'{"name": "caf\xe9"}', "not UTF-8 text"),
        ("alias.yaml", "a: &x {type: object}\nb: *x\n", "YAML aliases"),
        ("dupkey.yaml", "name: a\nname: b\n", "dupkey.yaml:2:1: invalid YAML: duplicate key 'name'"),
        ("scalar.json", "42", "expected a tool"),
        ("notatool.json", '{"foo": 1}', "not a tool"),
    ],
)
def test_bad_inputs_exit_2_with_file_and_place(tmp_path: Path, name: str, content: str | bytes, needle: str) -> None:
    path = write(tmp_path, name, content)
    code, out, err = run("compile", path)
    assert code == 2
    assert needle in out + err
    assert "Traceback" not in out + err


def test_unreadable_paths(tmp_path: Path) -> None:
    code, out, _ = run("compile", str(tmp_path / "missing.json"))
    assert code == 2 and "missing.json: cannot read" in out
    code, out, _ = run("compile", str(tmp_path))
    assert code == 2 and "a directory with no tool files" in out  # a directory is read for its tool files


def test_one_bad_tool_never_stops_the_others(tmp_path: Path) -> None:
    path = write(tmp_path, "mixed.json", json.dumps({"tools": [TOOL, 5, {**TOOL, "name": "v"}]}))
    code, out, _ = run("compile", path, "--format", "json")
    doc = json.loads(out)
    assert code == 2
    assert [r["name"] for r in doc["results"]] == ["t", "v"]
    assert doc["errors"][0]["source"].endswith("mixed.json#tools[1]")


def test_usage_errors() -> None:
    code, _, err = run("compile", "--rules", "2000-01-01", *GOOD)
    assert code == 2 and "available: openai@" in err
    code, _, err = run("compile")
    assert code == 2 and "give at least one PATH" in err
    code, _, err = run("compile", *GOOD, "--strict", "maybe")
    assert code == 2 and "invalid choice" in err
    assert run("frobnicate")[0] == 2


def test_out_dir_files_manifest_and_byte_stability(tmp_path: Path) -> None:
    tools = {"tools": [
        {"name": "CON", "description": "d", "inputSchema": {"type": "object"}},
        {"name": "manifest", "description": "d", "inputSchema": {"type": "object"}},
        {"name": "ok_tool", "description": "d", "inputSchema": {"type": "object"}},
        {"name": "Ok_Tool", "description": "d", "inputSchema": {"type": "object"}},
        {"name": "plain-tool", "description": "d", "inputSchema": {"type": "object"}},
        {"name": "../x", "description": "d", "inputSchema": {"type": "object"}},
    ]}
    src = write(tmp_path, "tools.json", json.dumps(tools))
    out = tmp_path / "out"
    code, _, _ = run("compile", src, "--out", str(out))
    assert code == 1  # ../x is refused
    files = sorted(p.name for p in out.iterdir())
    manifest = json.loads((out / "manifest.json").read_text())
    assert [t["name"] for t in manifest["tools"]] == ["CON", "Ok_Tool", "manifest", "ok_tool", "plain-tool"]
    assert manifest["refused"] == ["../x"]
    names = {t["name"]: t["file"] for t in manifest["tools"]}
    assert names["plain-tool"] == "plain-tool.json"
    assert names["CON"].startswith("CON-") and names["manifest"].startswith("manifest-")
    # Names that differ only in case would clash on macOS and Windows: both get a hash.
    assert names["Ok_Tool"].startswith("Ok_Tool-") and names["ok_tool"].startswith("ok_tool-")
    assert len({n.lower() for n in names.values()}) == len(names)
    assert set(files) == set(names.values()) | {"manifest.json"}
    assert not list(tmp_path.glob("x*")) and not (tmp_path / "x.json").exists()
    snapshot = {p.name: p.read_bytes() for p in out.iterdir()}
    run("compile", src, "--out", str(out))
    assert {p.name: p.read_bytes() for p in out.iterdir()} == snapshot
    # A tool that disappears takes its file with it; nothing else is touched.
    (out / "notes.txt").write_text("mine")
    tools["tools"] = tools["tools"][4:5]
    write(tmp_path, "tools.json", json.dumps(tools))
    run("compile", src, "--out", str(out))
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "notes.txt", "plain-tool.json"]
    assert not list(out.glob(".toolcast-*"))


def test_colour_only_on_a_tty(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    tty = Tty()
    main(["compile", GOOD[0]], stdout=tty, stderr=io.StringIO())
    assert "\x1b[" in tty.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    tty = Tty()
    main(["compile", GOOD[0]], stdout=tty, stderr=io.StringIO())
    assert "\x1b[" not in tty.getvalue()
    plain = io.StringIO()
    monkeypatch.delenv("NO_COLOR")
    main(["compile", GOOD[0]], stdout=plain, stderr=io.StringIO())
    assert "\x1b[" not in plain.getvalue()


def test_mcp_server_that_cannot_start_is_a_clear_input_error() -> None:
    code, out, err = run("check", "--mcp", "toolcast-no-such-server-xyz", "--mcp-timeout", "10")
    assert code == 2
    assert "mcp:toolcast-no-such-server-xyz" in out and "Traceback" not in out + err


def test_console_script_runs_in_a_fresh_process(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("toolcast")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "toolcast.cli.main"]
    res = subprocess.run(cmd + ["compile", GOOD[0], "--format", "json"], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "NO_COLOR": "1"})
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["results"][0]["name"] == "refund_order"


def test_compile_tools_of_a_real_mcp_server() -> None:
    code, out, err = run("compile", "--mcp", f"{sys.executable} -m mcp_server_time --local-timezone UTC", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    names = {r["name"]: r for r in doc["results"]}
    assert set(names) == {"get_current_time", "convert_time"}
    assert all(r["status"] == "strict" for r in names.values())
    assert names["convert_time"]["source"].startswith("mcp:")


def _parsers(parser: argparse.ArgumentParser, prog: str = "toolcast"):
    """Every parser of the command line with its command words: the root, each subcommand, ..."""
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, f"{prog} {name}")


def test_every_option_of_every_command_has_help_and_shows_its_default() -> None:
    from toolcast.cli.main import build_parser

    missing, no_default, seen = [], [], set()
    for prog, parser in _parsers(build_parser()):
        formatter = parser._get_formatter()
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            name = f"{prog} {'/'.join(action.option_strings) or action.metavar or action.dest}"
            seen.add(name)
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(name)
                continue
            # An option with no value by default (--out, --rules, a flag) has none to show.
            shown = formatter._expand_help(action)
            if action.default not in (None, False, argparse.SUPPRESS, []) and "(default: " not in shown:
                no_default.append(name)
    assert missing == [], f"options without help: {missing}"
    assert no_default == [], f"options whose help does not show the default: {no_default}"
    # The walk reached the options the issue named.
    for name in ("toolcast compile --api", "toolcast compile --strict", "toolcast compile --format",
                 "toolcast compile --target", "toolcast check --fail-on", "toolcast compile --rules",
                 "toolcast compile --out", "toolcast compile --mcp", "toolcast compile --mcp-timeout",
                 "toolcast rules diff --impact", "toolcast --version"):
        assert name in seen, name


def test_help_text_shows_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    assert "--strict {auto,true,false} auto: a tool that cannot be sent strict" in text
    assert "(default: auto)" in text and "(default: openai responses" in text and "(default: 30.0)" in text
    assert main(["check", "--help"]) == 0
    assert "(default: blocking)" in " ".join(capsys.readouterr().out.split())


def test_version_says_which_build_runs(capsys: pytest.CaptureFixture[str]) -> None:
    import toolcast

    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    info = toolcast.build_info()
    assert out == f"{info}\n"
    assert out.startswith(f"toolcast {toolcast.__version__} (")
    if info.compiled:
        assert out == f"toolcast {toolcast.__version__} (compiled with Cython: {', '.join(info.compiled)})\n"
    else:
        assert out == f"toolcast {toolcast.__version__} (pure Python)\n"


@pytest.mark.parametrize("command,needle", [
    ("", "empty MCP server command"),
    ("   ", "empty MCP server command"),
    ("echo 'x", "cannot parse MCP server command"),
])
def test_an_mcp_command_that_names_no_program_is_an_input_error(command: str, needle: str) -> None:
    # Found by testing as a user would: `--mcp ""` ended in "internal error: IndexError" (and a
    # coroutine never awaited), `--mcp "echo 'x"` in "internal error: ValueError".
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (no "coroutine was never awaited")
        code, out, err = run("compile", "--mcp", command)
    assert code == 2 and needle in out and "internal error" not in out + err


@pytest.mark.parametrize("url,line", [
    ("notaurl", "error: mcp:notaurl: MCP server URL 'notaurl' is not an http:// or https:// URL"),
    ("file:///x", "error: mcp:file:///x: MCP server URL 'file:///x' is not an http:// or https:// URL"),
    ("http://127.0.0.1:99999/", "error: mcp:http://127.0.0.1:99999/: MCP server URL 'http://127.0.0.1:99999/' is "
                                "not a valid URL: Port out of range 0-65535"),
    (" ", "error: mcp:<invalid URL>: MCP server URL must be a non-empty string, got ' '"),
    ("http://user:pw@/p?token=abc", "error: mcp:http:///p: MCP server URL 'http:///p' names no host"),
    ("http://user:pw@h:99999/?token=abc", "error: mcp:http://h:99999/: MCP server URL 'http://h:99999/' is not a "
                                          "valid URL: Port out of range 0-65535"),
])
def test_an_mcp_url_that_is_not_one_is_one_clean_line(url: str, line: str) -> None:
    # Each printed "RuntimeWarning: coroutine 'list_tools_http' was never awaited" and a tracemalloc
    # hint; the source read `mcp:://notaurl`, and an invalid URL's user info and query were shown.
    exe = Path(sys.executable).with_name("toolcast")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "toolcast.cli.main"]
    res = subprocess.run(cmd + ["compile", "--mcp-url", url], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and res.stderr == "" and res.stdout.splitlines()[0] == line


@pytest.mark.parametrize("argv", [
    ("compile", "examples/refund_order.json", "--mcp-timeout", "-1"),
    ("compile", "examples/refund_order.json", "--mcp-timeout", "nan"),
    ("compile", "examples/refund_order.json", "--mcp-timeout", "0"),
    ("proxy", "--server", "a=echo", "--timeout", "inf"),
    ("proxy", "--server", "a=echo", "--server-timeout", "a=-1"),
])
def test_a_timeout_must_be_a_number_of_seconds_above_zero(argv: tuple) -> None:
    # They were taken as given: "did not answer within -1 s".
    code, out, err = run(*argv)
    assert code == 2 and "above 0" in out + err and "internal error" not in out + err


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_names_and_paths_cannot_write_terminal_sequences_or_lines(tmp_path: Path, fmt: str) -> None:
    # Found by testing as an adversary would: a tool name or property name with ESC sequences
    # (clear the screen, set the window title) or CR/LF was written raw into the report's header
    # and path column (and into --format github), forging lines in a terminal or a CI log.
    evil = "evil\x1b[2J\x1b]0;pwn\x07"
    tool = {"name": evil, "inputSchema": {"type": "object", "properties": {
        "p\x1b[31mRED\r\nFAKE LINE": {"type": "string"}, "caf\u00e9 \u202eeman": {"type": "string"}}}}
    path = tmp_path / "esc.json"
    path.write_text(json.dumps(tool), encoding="utf-8")
    code, out, err = run("check", str(path), "--format", fmt, "--fail-on", "never")
    assert code == 0 and "internal error" not in err
    assert not any(c in out for c in "\x1b\r\x07\u202e")
    assert "FAKE LINE" in out and not any(line.startswith("FAKE LINE") for line in out.splitlines())
    assert "evil\\x1b[2J\\x1b]0;pwn\\x07" in out and "\\u202e" in out and "caf\u00e9" in out


def test_a_console_that_cannot_encode_the_report_still_gets_it(tmp_path: Path) -> None:
    # An ASCII (or cp1252) stdout: the status marks fall back to ASCII and any other character the
    # stream lacks (a name, a description, a path) is written as its escape, not an internal error.
    tool = write(tmp_path, "café.json", json.dumps({"name": "café", "inputSchema": {"type": "object", "properties": {}}}))
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    exe = Path(sys.executable).with_name("toolcast")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "toolcast.cli.main"]
    res = subprocess.run(cmd + ["compile", GOOD[0], tool], capture_output=True, timeout=60, env=env)
    assert res.returncode == 1, res.stderr  # the tool named café is refused; the other compiles
    out = res.stdout.decode("ascii")  # nothing but ASCII was written
    assert "internal error" not in res.stderr.decode("ascii", "replace")
    assert out.startswith("+ ") and "\nx caf\\xe9 " in out
    assert "caf\\xe9.json" in out
    # A stream that can write the marks keeps them.
    buf = io.StringIO()
    assert main(["compile", GOOD[0]], stdout=buf) == 0 and buf.getvalue().startswith("✓ ")


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_and_sarif_stay_json_on_a_console_of_any_encoding(tmp_path: Path, encoding: str, fmt: str) -> None:
    # The text report's fallback (a character the console lacks written as \xe9, \U0001f600) made
    # invalid JSON: machine-readable output escapes as JSON does, and only ASCII when not UTF-8.
    tool = write(tmp_path, "emo.json", json.dumps({"name": "ok", "description": "smile \U0001f600 caf\u00e9", "inputSchema": {
        "type": "object", "properties": {"caf\u00e9 \U0001f600": {"type": "string"}}}}, ensure_ascii=False))
    exe = Path(sys.executable).with_name("toolcast")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "toolcast.cli.main"]
    res = subprocess.run(cmd + ["compile", tool, "--format", fmt], capture_output=True, timeout=60,
                         env={**os.environ, "PYTHONIOENCODING": encoding})
    assert res.returncode == 0, res.stderr
    assert res.stdout.isascii()  # so it reads the same as UTF-8 and as the console's encoding
    doc = json.loads(res.stdout.decode("utf-8"))
    if fmt == "json":
        assert doc["results"][0]["tool"]["description"] == "smile \U0001f600 caf\u00e9"
        assert "\\ud83d\\ude00" in res.stdout.decode("ascii")  # a surrogate pair, as JSON spells it
    else:
        paths = {r["properties"]["schemaPath"] for r in doc["runs"][0]["results"]}
        assert "#/properties/caf\u00e9 \U0001f600" in paths


@pytest.mark.parametrize("argv,needle", [
    (("--rules", "1999"), "unknown rule version '1999'"),
    (("--rules", "anthropic@latest"), "are not openai's"),
    (("--target", "anthropic", "--api", "chat"), "--api chat: the proxy lists target anthropic's tools as JSON "
                                                 "Schema, under --api messages"),
    (("--target", "gemini", "--api", "parameters"), "under --api json-schema"),
    (("--target", "nowhere"), "nowhere"),
])
def test_proxy_refuses_at_startup_what_compile_refuses(argv: tuple, needle: str) -> None:
    # These started the proxy (exit 0), the rules or API silently not the ones asked for.
    code, _out, err = run("proxy", "--server", f"a={sys.executable} -c pass", *argv)
    assert code == 2 and needle in err, (code, err)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [("rules", "list"), ("rules", "show"), ("--version",), ("--help",),
                                  ("compile", "--help")])  # (argparse dropped a failed --help: exit 0)
def test_a_full_stdout_is_said_plainly_not_an_internal_error(argv: tuple) -> None:
    exe = Path(sys.executable).with_name("toolcast")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "toolcast.cli.main"]
    with open("/dev/full", "w") as full:
        res = subprocess.run(cmd + list(argv), stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert res.returncode == 2 and "cannot write the output: No space left on device" in res.stderr
    assert "internal error" not in res.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
@pytest.mark.parametrize("targets", [("--target", "openai"), ("--target", "openai", "--target", "anthropic")])
def test_a_report_that_cannot_be_written_leaves_out_as_it_was(tmp_path: Path, fmt: str, targets: tuple) -> None:
    # JSON, SARIF and annotations are written at the end: --out was switched in before them, so a
    # full disk under stdout exited 2 with DIR already replaced (the red-team's round of the twelfth
    # session). DIR is switched in only once the report is written.
    exe = Path(sys.executable).with_name("toolcast")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "toolcast.cli.main"]
    tool = tmp_path / "a.json"
    tool.write_text(json.dumps({"name": "a", "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}}))
    gen = tmp_path / "gen"
    argv = cmd + ["compile", str(tool), "--out", str(gen), "--format", fmt, *targets]
    assert subprocess.run(argv, capture_output=True, timeout=60).returncode == 0
    before = {p: p.read_bytes() for p in sorted(gen.rglob("*")) if p.is_file()}
    tool.write_text(json.dumps({"name": "a", "parameters": {"type": "object", "properties": {"y": {"type": "string"}}}}))
    with open("/dev/full", "w") as full:
        res = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert res.returncode == 2 and "cannot write the report: No space left on device" in res.stderr
    assert {p: p.read_bytes() for p in sorted(gen.rglob("*")) if p.is_file()} == before
    assert "left unchanged" in res.stderr
    res = subprocess.run(argv, capture_output=True, text=True, timeout=60)  # (a report that can be written: switched)
    assert res.returncode == 0 and {p: p.read_bytes() for p in sorted(gen.rglob("*")) if p.is_file()} != before


@pytest.mark.parametrize("argv,redirect,needle", [
    (("compile", "-"), "<&-", "<stdin>: cannot read: standard input is closed"),
    (("check", "-", "--format", "json"), "<&-", "cannot read: standard input is closed"),
    (("compile", "{good}"), ">&-", "toolcast: cannot write the report: standard output is closed"),
    (("compile", "{good}", "--format", "sarif"), ">&-", "toolcast: cannot write the report: standard output is closed"),
    (("rules", "list"), ">&-", "toolcast: cannot write the output: standard output is closed"),
    (("--version",), ">&-", "toolcast: cannot write the output: standard output is closed"),
    (("proxy", "--server", "a=python3"), "<&-", "toolcast proxy: standard input is closed"),
    (("proxy", "--server", "a=python3"), ">&-", "toolcast proxy: standard output is closed"),
])
def test_a_closed_standard_stream_is_a_plain_error(argv: tuple, redirect: str, needle: str) -> None:
    # Each was "internal error: AttributeError: 'NoneType' object has no attribute 'buffer'" (or 'write').
    exe = Path(sys.executable).with_name("toolcast")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "toolcast.cli.main"]
    argv = tuple(a.replace("{good}", GOOD[0]) for a in argv)
    res = subprocess.run(["sh", "-c", f'exec "$@" {redirect}', "sh", *cmd, *argv], capture_output=True, text=True,
                         timeout=60, stdin=subprocess.DEVNULL)
    assert res.returncode == 2 and needle in res.stdout + res.stderr, (res.stdout, res.stderr)
    assert "internal error" not in res.stdout + res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_a_reader_that_stops_reading_loses_the_report_and_nothing_else(tmp_path: Path, fmt: str) -> None:
    # `compile many.json | head -1` ended in "cannot write the report: Broken pipe" (with a TMPDIR
    # hint for json), exit 2, and --out left unchanged. The run now goes on quietly, as without the pipe.
    lost = unsupported_format()  # (every other tool loses it: refused under --strict true)
    tools = [{"name": f"t{i}", "inputSchema": {"type": "object", "properties": {"a": {"type": "string", "format": lost}
                                                                                 if i % 2 else {"type": "string"}}}}
             for i in range(400)]  # (a report far bigger than a pipe's buffer)
    path = write(tmp_path, "many.json", json.dumps(tools))
    exe = Path(sys.executable).with_name("toolcast")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "toolcast.cli.main"]

    def argv(out: str) -> list[str]:
        return cmd + ["compile", path, "--format", fmt, "--out", str(tmp_path / out), "--strict", "true"]

    whole = subprocess.run(argv("all"), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
    proc = subprocess.Popen(argv("piped"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None and proc.stdout.read(1)
    proc.stdout.close()  # (the reader goes, the rest of the report unread)
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == whole.returncode == 1 and err == whole.stderr == b""  # (tools refused)
    assert (tmp_path / "piped" / "manifest.json").read_bytes() == (tmp_path / "all" / "manifest.json").read_bytes()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_stdout_is_not_blamed_on_tmpdir() -> None:
    # The hint to set TMPDIR was given for any error writing the JSON report, a full stdout too.
    exe = Path(sys.executable).with_name("toolcast")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "toolcast.cli.main"]
    with open("/dev/full", "w") as full:
        res = subprocess.run(cmd + ["compile", GOOD[0], "--format", "json"], stdout=full, stderr=subprocess.PIPE,
                             text=True, timeout=60)
    assert res.returncode == 2 and res.stderr == "toolcast: cannot write the report: No space left on device\n"


def test_a_number_beyond_pythons_digit_limit_is_reported_at_its_place(tmp_path: Path) -> None:
    path = write(tmp_path, "big.json", '{"name": "t", "inputSchema": {"type": "object",\n "maximum": ' + "9" * 5000 + "}}")
    code, out, err = run("compile", path)
    assert code == 2 and "big.json:2:13: invalid JSON: a number of more than 4300 digits" in out + err
    assert "set_int_max_str_digits" not in out + err


def test_an_empty_path_is_an_input_error_not_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by testing as an adversary would: `toolcast compile "$SRC" --out gen` with SRC unset
    # compiled every tool file under the working directory and wrote gen/, exit 0.
    write(tmp_path, "x.json", json.dumps(TOOL))
    monkeypatch.chdir(tmp_path)
    for argv in (("check", ""), ("compile", "", "--out", "gen"), ("compile", "", "x.json", "--out", "gen")):
        code, out, err = run(*argv)
        assert code == 2, out + err
        assert 'error: "": is empty; give a file, a directory or - for standard input' in out
        assert not (tmp_path / "gen").exists()
    # No file is named in the machine formats: `""` is how the message shows the PATH, not a file.
    code, out, _ = run("check", "", "--format", "github")
    assert code == 2 and out.startswith('::error title=toolcast input error::"": is empty;'), out
    code, out, _ = run("check", "", "--format", "sarif")
    (note,) = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert code == 2 and "locations" not in note and note["message"]["text"].startswith('"": is empty;')


def test_a_path_whose_name_is_too_long_is_an_input_error_of_its_own(tmp_path: Path) -> None:
    # Found while fixing PATH handling: Path.is_dir raised for it (ENAMETOOLONG; EACCES for a parent
    # that cannot be searched), and the run stopped there, the other PATHs' tools unreported.
    good = write(tmp_path, "t.json", json.dumps(TOOL))
    long = str(tmp_path / ("a" * 5000))
    code, out, err = run("compile", good, long, "--summary")
    assert code == 2, out + err
    assert f"error: {long}: cannot read: File name too long" in out and "1 tool(s): 1 strict" in out


@pytest.mark.parametrize("targets", [(), ("--target", "openai", "--target", "anthropic")])
def test_an_empty_out_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, targets: tuple) -> None:
    # `--out "$GEN"` with GEN unset compiled, wrote nothing and exited 0 (the red-team's round of the
    # twelfth session), as an empty PATH is an error.
    monkeypatch.chdir(tmp_path)
    code, out, err = run("compile", GOOD[0], "--out", "", *targets)
    assert code == 2 and "--out is empty" in err and out == "" and list(tmp_path.iterdir()) == []


def test_python_dash_m_toolcast_is_the_command(tmp_path):
    """`python -m toolcast` runs the same command as `toolcast` (its exit code and output)."""
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "toolcast", "compile", str(bad)], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 2 and "bad.json:1:2: invalid JSON" in run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    run = subprocess.run([sys.executable, "-m", "toolcast", "--version"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("toolcast")
