"""What the loader reads: YAML as JSON values only, directories of tool files, bare JSON Schema files."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from toolcast.cli.main import main
from toolcast.loader import load


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def write(path: Path, content: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    return path


TOOL = {"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}

DATES = """\
name: when
description: d
inputSchema:
  type: object
  properties:
    day: {type: string, enum: [2024-01-01, 2024-01-02], default: 2001-12-14}
    at: {type: string, const: 2001-12-14t21:59:43.10-05:00}
"""


def test_yaml_dates_stay_the_strings_their_author_wrote(tmp_path: Path) -> None:
    path = write(tmp_path / "when.yaml", DATES)
    (item,), errors = load(str(path))
    assert errors == []
    day = item.tool["inputSchema"]["properties"]["day"]
    assert day["enum"] == ["2024-01-01", "2024-01-02"] and day["default"] == "2001-12-14"
    assert item.tool["inputSchema"]["properties"]["at"]["const"] == "2001-12-14t21:59:43.10-05:00"
    # The crash the issue reports: --format json and --out with a date in a YAML tool.
    code, out, err = run("compile", str(path), "--format", "json", "--out", str(tmp_path / "gen"))
    assert code == 0, out + err
    emitted = json.loads(out)["results"][0]["tool"]["parameters"]["properties"]["day"]
    assert emitted["enum"] == ["2024-01-01", "2024-01-02", None]
    assert (tmp_path / "gen" / "when.json").is_file()


def test_yaml_scalars_are_typed_by_the_yaml_1_2_core_schema(tmp_path: Path) -> None:
    # YAML 1.1's yes/no/on and base-60 numbers became booleans and ints under `type: string`,
    # sent with no finding (the red-team's round s13j #6).
    path = write(tmp_path / "pick.yaml", """\
name: pick
inputSchema:
  type: object
  properties:
    answer: {type: string, enum: [yes, no, maybe, on, off, y, n, NO]}
    level: {type: string, enum: [12:30:00, 1_000, +.5, 1e3]}
    count: {type: integer, enum: [010, 0o10, 0x10, -3, +4], default: 1}
    flag: {type: boolean, enum: [true, False, TRUE]}
    on: {type: [string, "null"], default: ~, examples: [Null, NULL]}
""")
    (item,), errors = load(str(path))
    assert errors == []
    props = item.tool["inputSchema"]["properties"]
    assert props["answer"]["enum"] == ["yes", "no", "maybe", "on", "off", "y", "n", "NO"]
    assert props["level"]["enum"] == ["12:30:00", "1_000", 0.5, 1000.0]
    assert props["count"]["enum"] == [10, 8, 16, -3, 4] and props["count"]["default"] == 1
    assert [type(v) for v in props["count"]["enum"]] == [int] * 5
    assert props["flag"]["enum"] == [True, False, True]
    assert props["on"]["default"] is None and props["on"]["examples"] == [None, None]


@pytest.mark.parametrize(
    "value,needle",
    [
        ("!!binary aGVsbG8=", "!!binary"),
        ("!!set {a, b}", "!!set"),
        ("!!omap [a: 1]", "!!omap"),
        ("!!timestamp 2024-01-01", "!!timestamp"),
        ("!!python/object:os.system x", "!!python/object:os.system"),
        ("!mine x", "!mine"),
        (".nan", "NaN and infinite"),
        ("{1: x}", "mapping key 1 is not a string"),
        ("{null: x}", "mapping key None is not a string"),
        ("{<<: {type: string}}", "merge keys"),
    ],
)
def test_yaml_values_json_has_not_are_errors_at_their_line(tmp_path: Path, value: str, needle: str) -> None:
    path = write(tmp_path / "bad.yaml", f"name: t\ninputSchema:\n  type: object\n  default: {value}\n")
    other = write(tmp_path / "good.json", json.dumps(TOOL))
    code, out, err = run("compile", str(path), str(other), "--format", "json")
    assert code == 2 and "Traceback" not in out + err
    doc = json.loads(out)
    (error,) = doc["errors"]
    assert needle in error["message"] and error["source"].endswith("bad.yaml") and error["line"] == 4
    assert [r["name"] for r in doc["results"]] == ["t"]  # the other file is still compiled


def test_a_directory_is_read_recursively_in_sorted_order_with_a_rule_for_what_is_skipped(tmp_path: Path) -> None:
    tools = tmp_path / "tools"
    for rel, name in [("b.json", "b"), ("a/z.yaml", "az"), ("a/b.jsonl", "ab"), ("c.yml", "c")]:
        tool = {**TOOL, "name": name}
        write(tools / rel, json.dumps(tool))
    write(tools / ".hidden.json", json.dumps({**TOOL, "name": "hidden_file"}))
    write(tools / ".git" / "x.json", json.dumps({**TOOL, "name": "hidden_dir"}))
    write(tools / "notes.txt", "not a tool")
    write(tools / "README.md", "# not a tool")
    out_dir = tools / "gen"
    code, out, err = run("compile", str(tools), "--strict", "true", "--out", str(out_dir), "--format", "json")
    assert code == 0, out + err
    names = [r["name"] for r in json.loads(out)["results"]]
    assert names == ["ab", "az", "b", "c"]  # a/b.jsonl, a/z.yaml, b.json, c.yml
    # The second run skips its own --out (and an --out of another run, by its manifest).
    again = run("compile", str(tools), "--out", str(out_dir), "--format", "json")
    assert [r["name"] for r in json.loads(again[1])["results"]] == names
    code, out, _ = run("check", str(tools), "--format", "json", "--fail-on", "never")
    assert code == 0 and [r["name"] for r in json.loads(out)["results"]] == names
    from toolcast.loader import tool_files

    assert [p.name for p in tool_files(tools)] == ["b.jsonl", "z.yaml", "b.json", "c.yml"]


def test_the_readme_ci_recipe_runs_on_a_directory(tmp_path: Path) -> None:
    write(tmp_path / "tools" / "refund.json", json.dumps(TOOL))
    code, out, _ = run("compile", str(tmp_path / "tools"), "--strict", "true", "--out", str(tmp_path / "generated"))
    assert code == 0 and "1 tool(s): 1 strict" in out
    assert sorted(p.name for p in (tmp_path / "generated").iterdir()) == ["manifest.json", "t.json"]


BARE = {"type": "object", "description": "Look a word up.", "properties": {"word": {"type": "string"}}, "required": ["word"]}


def test_a_bare_json_schema_is_a_tool_named_after_the_file(tmp_path: Path) -> None:
    path = write(tmp_path / "lookup_word.json", json.dumps(BARE, indent=2))
    code, out, err = run("compile", str(path), "--format", "json")
    assert code == 0, out + err
    (res,) = json.loads(out)["results"]
    assert res["name"] == "lookup_word" and res["status"] == "strict"
    assert res["tool"]["description"] == "Look a word up."
    assert res["tool"]["parameters"]["properties"] == {"word": {"type": "string"}}
    code, out, _ = run("compile", str(path), "--name", "define", "--format", "json")
    assert code == 0 and json.loads(out)["results"][0]["name"] == "define"
    # --name names one schema; with two, or with none, it is a usage error.
    other = write(tmp_path / "other.json", json.dumps(BARE))
    code, _, err = run("compile", str(path), str(other), "--name", "define")
    assert code == 2 and "--name names one bare JSON Schema; 2 were read" in err
    code, _, err = run("compile", str(write(tmp_path / "tool.json", json.dumps(TOOL))), "--name", "x")
    assert code == 2 and "0 were read" in err


def test_a_bare_schema_on_stdin_needs_a_name() -> None:
    out = io.StringIO()
    code = main(["compile", "-"], stdout=out, stderr=io.StringIO(), stdin=io.BytesIO(json.dumps(BARE).encode()))
    assert code == 2 and "give --name" in out.getvalue()
    out = io.StringIO()
    code = main(["compile", "-", "--name", "define"], stdout=out, stderr=io.StringIO(), stdin=io.BytesIO(json.dumps(BARE).encode()))
    assert code == 0 and "define" in out.getvalue()


def test_not_a_tool_and_not_a_schema_is_still_an_error(tmp_path: Path) -> None:
    code, out, _ = run("compile", str(write(tmp_path / "x.json", '{"foo": 1}')))
    assert code == 2 and "not a tool" in out


def test_unprintable_characters_in_yaml_are_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "nul.yaml"
    path.write_bytes(b"name: t\x00\n")
    code, out, err = run("compile", str(path))
    assert code == 2 and "special characters are not allowed" in out and "internal error" not in out + err


def test_a_baseline_inside_the_directory_is_not_read_as_a_tool(tmp_path: Path) -> None:
    write(tmp_path / "t.json", json.dumps(TOOL))
    base = str(tmp_path / "toolcast-baseline.json")
    assert run("check", str(tmp_path), "--write-baseline", base)[0] == 0
    code, out, _ = run("check", str(tmp_path), "--baseline", base, "--format", "json", "--fail-on", "info")
    assert code == 0, out
    assert [r["name"] for r in json.loads(out)["results"]] == ["t"] and json.loads(out)["errors"] == []


def test_a_directory_that_cannot_be_listed_is_an_input_error_and_its_outputs_stay(tmp_path: Path, monkeypatch) -> None:
    # Found by testing as an unprivileged user: `chmod 000 tools/sub` made a directory scan skip
    # it with exit 0, and `--out` then removed the outputs of the tools in it. (The suite may run
    # as root, which reads any directory: the listing is refused here as the OS refuses it.)
    import os

    tools = tmp_path / "tools"
    write(tools / "good.json", json.dumps(TOOL))
    write(tools / "sub" / "other.json", json.dumps({**TOOL, "name": "other"}))
    out_dir = tmp_path / "generated"
    assert run("compile", str(tools), "--out", str(out_dir))[0] == 0
    before = {p.name: p.read_bytes() for p in out_dir.iterdir()}
    assert "other.json" in before

    real = os.scandir

    def refuse(path=".", *a):
        if Path(path).name == "sub":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *a)

    monkeypatch.setattr(os, "scandir", refuse)
    code, out, _ = run("compile", str(tools), "--summary")
    assert code == 2
    assert f"{tools / 'sub'}: cannot read the directory: Permission denied" in out
    assert "1 tool(s)" in out  # the readable tool is still compiled
    code, out, _ = run("compile", str(tools), "--out", str(out_dir))
    assert code == 2
    assert {p.name: p.read_bytes() for p in out_dir.iterdir()} == before
    # Given as PATH itself, the directory says why it has no tools.
    code, out, _ = run("compile", str(tools / "sub"), "--summary")
    assert code == 2 and "cannot read the directory: Permission denied" in out and "no tool files" not in out


def test_a_fifo_in_a_scanned_directory_is_reported_not_opened(tmp_path: Path) -> None:
    # Opening a FIFO blocks until something writes to it: a scan of a directory holding one named
    # like a tool file hung. It is an input error now, and the other tools are compiled.
    import os
    import subprocess
    import sys

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    tools = tmp_path / "tools"
    write(tools / "good.json", json.dumps(TOOL))
    os.mkfifo(tools / "pipe.json")
    proc = subprocess.run([sys.executable, "-c", "import sys; from toolcast.cli.main import main; sys.exit(main())",
                           "compile", str(tools), "--summary"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"{tools / 'pipe.json'}: not a regular file; not read" in proc.stdout
    assert "1 tool(s): 1 strict" in proc.stdout


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_an_unpaired_surrogate_is_an_input_error_of_its_tool_alone(tmp_path: Path, fmt: str) -> None:
    # Found by testing as an adversary would: JSON's "\ud800" escape parses to a string no UTF-8
    # output can hold, and every report format ended in "internal error: UnicodeEncodeError",
    # the tools after it unreported. (A surrogate pair, an emoji, is text and stays.)
    bad = {"name": "s22", "inputSchema": {"type": "object", "properties": {"\ud800": {"type": "string"}}}}
    good = [{"name": "g1", "inputSchema": {"type": "object"}},
            {"name": "g2", "description": "ok \U0001F600", "inputSchema": {"type": "object"}}]
    path = write(tmp_path / "mix.json", json.dumps([good[0], bad, good[1]]))
    assert "\\ud800" in path.read_text(encoding="utf-8")
    code, out, err = run("check", str(path), "--format", fmt, "--fail-on", "never")
    assert code == 2 and "internal error" not in out + err
    assert "g1" in out and "g2" in out
    text = out + err
    assert "unpaired UTF-16 surrogate" in text and "#/inputSchema/properties/\\ud800" in text.replace("\\\\", "\\")
    yaml_path = write(tmp_path / "s.yaml", 'name: "\\U0000D800"\ninputSchema: {type: object}\n')
    code, out, err = run("compile", str(yaml_path), "--format", fmt)
    assert code == 2 and "internal error" not in out + err and "unpaired UTF-16 surrogate" in out + err


def test_a_bad_json_lines_line_is_an_error_of_that_line_alone(tmp_path: Path) -> None:
    # Found by testing as a user would: one line that is not JSON made the whole file an input
    # error, the good lines around it not compiled (a line that is JSON but not a tool already
    # failed alone).
    good_a = json.dumps({"name": "a", "inputSchema": {"type": "object"}})
    good_b = json.dumps({"name": "b", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}})
    path = write(tmp_path / "t.jsonl", f"{good_a}\nnot json\n\n{good_b}\n")
    code, out, _ = run("compile", str(path))
    assert code == 2
    assert f"error: {path}:2:1: invalid JSON" in out
    assert f"{path}#[0]" in out and f"{path}#[2]" in out and "2 tool(s): 2 strict" in out
    # Positions of the lines after the bad one are still theirs.
    assert f"{path}:4:" in out
    items, errors = load(str(path))
    assert [i.tool["name"] for i in items] == ["a", "b"] and [(e.line, e.column) for e in errors] == [(2, 1)]


@pytest.mark.parametrize("name,content", [
    ("empty.yaml", ""), ("comments.yaml", "# nothing here\n"), ("blank.jsonl", "\n\n"),
    ("list.json", "[]"), ("tools.json", '{"tools": []}'),
])
def test_a_file_that_holds_no_tool_is_an_input_error(tmp_path: Path, name: str, content: str) -> None:
    # The README's promise for files in a directory ("nothing is skipped silently"); an empty YAML
    # file, a comment-only one, a blank JSON Lines file and an empty list were read as 0 tools, exit 0.
    path = write(tmp_path / "tools" / name, content)
    write(tmp_path / "tools" / "z.json", json.dumps(TOOL))
    code, out, _ = run("compile", str(tmp_path / "tools"), "--summary")
    assert code == 2 and f"error: {path}: holds no tool" in out and "1 tool(s)" in out
    code, out, _ = run("compile", str(path))
    assert code == 2 and "holds no tool" in out


def test_a_value_that_is_not_a_tool_is_reported_at_its_line_and_column(tmp_path: Path) -> None:
    # Found by testing as a user would: these input errors named the tool (#[1]) but no line or
    # column, though the contract is file:line:col wherever the place is in the source.
    path = write(tmp_path / "d.json", '[{"name": "a", "inputSchema": {"type": "object"}},\n {"name": "b",\n'
                                      '  "description": 5, "inputSchema": {}}, 42]')
    code, out, _ = run("compile", str(path), "--format", "json")
    errors = {e["source"]: (e["line"], e["column"]) for e in json.loads(out)["errors"]}
    assert code == 2 and errors == {f"{path}#[1]": (3, 3), f"{path}#[2]": (3, 41)}
    listed = write(tmp_path / "t.json", '{\n  "tools": 5}')
    code, out, _ = run("compile", str(listed))
    assert code == 2 and f"{listed}:2:3: `tools` must be a list" in out


@pytest.mark.parametrize("doc,needle", [
    ({"tools": [{"name": "t", "inputSchema": {"type": "object"}}], "name": "weird", "inputSchema": {"type": "object"}},
     "holds both a tool (`inputSchema`) and a `tools` list"),
    ({"name": "a", "inputSchema": {"type": "object"}, "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}},
     "`inputSchema` and `parameters` give different schemas"),
    ({"type": "function", "function": {"name": "chat2", "parameters": {"type": "object"}}, "name": "other"},
     "`name` and `function.name` differ"),
    # Compared as JSON: `true` is not `1`, though Python's == says it is.
    ({"name": "a", "inputSchema": {"type": "object", "properties": {"x": {"const": 1}}},
      "parameters": {"type": "object", "properties": {"x": {"const": True}}}},
     "`inputSchema` and `parameters` give different schemas"),
])
def test_an_ambiguous_tool_is_an_input_error_not_a_silent_choice(tmp_path, doc, needle):
    # Each compiled one side and dropped the other without a word (a whole tools list, once).
    path = tmp_path / "x.json"
    path.write_text(json.dumps(doc))
    out = io.StringIO()
    assert main(["compile", str(path)], stdout=out, stderr=out) == 2
    assert needle in out.getvalue()


def test_the_same_schema_given_twice_is_not_ambiguous():
    from toolcast import compile_tool

    res = compile_tool({"name": "a", "inputSchema": {"type": "object"}, "parameters": {"type": "object"}})
    assert res.status == "strict"


@pytest.mark.parametrize("name,text,key,place", [
    # The key spelt again later in the file (in another object) is not the duplicate's place.
    ("spelt.json", '{"name": "t",\n "inputSchema": {"type": "object",\n  "properties": {"a": {"type": "string", '
                   '"type": "string"}},\n  "$defs": {"q": {"type": "integer"}}}}\n', "type", (3, 42)),
    # Written as an escape, so the key's plain spelling is nowhere in the text.
    ("escaped.json", '{"name": "t",\n "inputSchema": {"type": "object", "properties": {"\\u00e9": {},\n'
                     '   "\\u00e9": {}}}}', "é", (3, 4)),
    ("mixed.json", '{"name": "t", "inputSchema": {"x": {"\\u00e9": 1, "é": 2}}}', "é", (1, 50)),
    # A key spelt inside a string value, or in an array, is not a key.
    ("value.json", '{"description": "\\"name\\": 1", "name": "t", "inputSchema": [{"name": 1}],\n "name": "u"}', "name", (2, 2)),
    ("line.jsonl", '{"name": "a", "inputSchema": {"type": "object"}}\n{"name": "b", "inputSchema": {}, "name": "c"}\n',
     "name", (2, 34)),
])
def test_a_duplicate_key_is_reported_at_its_own_line_and_column(tmp_path: Path, name: str, text: str, key: str,
                                                                 place: tuple) -> None:
    # Found by testing as an adversary would: the line was that of the key's last spelling anywhere
    # in the file (or none for an escaped key), and there was no column; YAML gave both.
    path = write(tmp_path / name, text)
    _, errors = load(str(path))
    assert [(e.message, (e.line, e.column)) for e in errors] == [
        (f"invalid JSON: duplicate key {key!r} (a key may appear once per object)", place)]


def test_json_lines_end_at_newlines_only_and_errors_are_at_their_own_line(tmp_path: Path) -> None:
    # Found by testing as an adversary would: U+2028, U+2029 and U+0085 (allowed inside a JSON
    # string) split a line, so the tool was lost, phantom errors came, and every later line was
    # numbered one too many; and a line cut short was reported at the start of the next line.
    lines = ['{"name": "a", "description": "x\u2028y\u2029z\x85w", "inputSchema": {"type": "object"}}',
             '{"name": "b",  "inputSchema": {"type": "object"}}',
             '{bad',
             '{"name": "c", "inputSchema": {"type": "object"}',
             '{"name": "d", "inputSchema": {"type": "object"}}']
    for end in ("\n", "\r\n"):
        path = tmp_path / "t.jsonl"
        path.write_bytes(end.join(lines).encode("utf-8") + end.encode())
        items, errors = load(str(path), positions=True)
        assert [i.tool["name"] for i in items] == ["a", "b", "d"]
        assert items[0].tool["description"] == "x\u2028y\u2029z\x85w"
        assert [i.source for i in items] == [f"{path}#[0]", f"{path}#[1]", f"{path}#[4]"]
        assert [i.where.locate("#", ()) for i in items] == [(1, 41), (2, 16), (5, 15)]
        assert [(e.line, e.column) for e in errors] == [(3, 2), (4, len(lines[3]) + 1)]
        assert "Expecting ',' delimiter" in errors[1].message


@pytest.mark.parametrize("bad", [0, 1, 2])
def test_json_lines_in_a_json_file_or_on_stdin_lose_only_their_bad_line(tmp_path: Path, bad: int) -> None:
    # Found by testing as an adversary would: JSON Lines named .json or on stdin were read as JSON
    # Lines only when every line was JSON; one bad line lost every tool, reported at the next line.
    lines = [json.dumps({"name": n, "inputSchema": {"type": "object"}}) for n in "abc"]
    lines[bad] = lines[bad][:-1]  # cut short
    text = "\n".join(lines) + "\n"
    path = write(tmp_path / "three.json", text)
    for items, errors in (load(str(path), positions=True), load("-", stdin=io.BytesIO(text.encode()))):
        assert [i.tool["name"] for i in items] == [n for i, n in enumerate("abc") if i != bad]
        assert [(e.line, e.column) for e in errors] == [(bad + 1, len(lines[bad]) + 1)]
        assert "Expecting ',' delimiter" in errors[0].message


def test_a_second_json_document_is_not_json_lines_and_says_so(tmp_path: Path) -> None:
    path = write(tmp_path / "two.json", '{\n "name": "a", "inputSchema": {}\n}\n{\n "name": "b", "inputSchema": {}\n}\n')
    items, errors = load(str(path))
    assert items == [] and [(e.line, e.column) for e in errors] == [(4, 1)]
    assert errors[0].message.startswith("invalid JSON: Extra data") and "JSON Lines" in errors[0].message


@pytest.mark.parametrize("where", ["sub", ""])
def test_a_fifo_named_manifest_json_in_a_scanned_directory_is_reported_not_opened(tmp_path: Path, where: str) -> None:
    # Found by testing as an adversary would: the check for another run's --out directory opened
    # each directory's manifest.json before the "not a regular file" check, and a FIFO hung the scan.
    import os
    import subprocess
    import sys

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    tools = tmp_path / "tools"
    write(tools / "a.json", json.dumps(TOOL))
    (tools / where).mkdir(exist_ok=True)
    os.mkfifo(tools / where / "manifest.json")
    proc = subprocess.run([sys.executable, "-c", "import sys; from toolcast.cli.main import main; sys.exit(main())",
                           "check", str(tools), "--summary"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"{tools / where / 'manifest.json'}: not a regular file; not read" in proc.stdout
    assert "1 tool(s): 1 strict" in proc.stdout


@pytest.mark.parametrize("manifest", ["[" * 100000 + "]" * 100000, '{"toolcast": ' + "[" * 100000 + "]" * 100000 + "}"])
def test_a_manifest_json_too_deep_to_read_is_not_another_runs_and_the_scan_goes_on(tmp_path: Path, manifest: str) -> None:
    # Found by testing as an adversary would: the check for another run's --out directory let the
    # RecursionError of a deeply nested manifest.json out, an internal error, every tool lost.
    tools = tmp_path / "tools"
    write(tools / "a.json", json.dumps(TOOL))
    write(tools / "sub" / "manifest.json", manifest)
    items, errors = load(str(tools))
    assert [i.tool["name"] for i in items] == ["t"]
    assert [(e.source, e.message) for e in errors] == [
        (str(tools / "sub" / "manifest.json"), "invalid JSON: nested too deeply to be a tool definition")]
    code, out, err = run("check", str(tools), "--summary")
    assert code == 2 and "internal error" not in out + err and "1 tool(s)" in out


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x7f"])
def test_an_unprintable_character_in_yaml_is_reported_at_its_line_and_column(tmp_path: Path, char: str) -> None:
    # The place was known (an offset) but shown as "position 23" in the message, with no line:col.
    path = write(tmp_path / "u.yaml", f'name: t\ndescription: "ab{char}c"\n')
    _, errors = load(str(path))
    assert [(e.message, e.line, e.column) for e in errors] == [
        (f"invalid YAML: unacceptable character #x{ord(char):04x}: special characters are not allowed", 2, 17)]


@pytest.mark.parametrize("name,text,place", [
    ("deep.json", '{"name": "t",\n "inputSchema": ' + '{"a": ' * 200000 + "1" + "}" * 200001, (2, 17 + 6 * 499)),  # (the outer object is level 1)
    ("deep.jsonl", '{"name": "t", "inputSchema": {}}\n' + "[" * 200000 + "]" * 200000, (2, 501)),
    ("deep.yaml", "name: t\ninputSchema: " + "[" * 200000 + "]" * 200000, None),
])
def test_a_value_nested_too_deeply_is_reported_with_a_place(tmp_path: Path, name: str, text: str, place: Any) -> None:
    path = write(tmp_path / name, text)
    _, errors = load(str(path))
    (error,) = errors
    assert error.message.endswith("nested too deeply to be a tool definition")
    if place is not None:  # (JSON: the first bracket past 500 levels; YAML: where its reader stopped)
        assert (error.line, error.column) == place
    else:
        assert error.line == 2 and error.column is not None and error.column > 13


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x85"])
def test_a_yaml_error_after_a_unicode_line_separator_in_a_string_is_at_its_line(tmp_path: Path, sep: str) -> None:
    # PyYAML (YAML 1.1) ends a line at U+2028, U+2029 and U+0085 even inside a quoted string, so an
    # error after one was reported a line or more too far down; findings' places count \n only.
    path = write(tmp_path / "s.yaml", f'name: t\ndescription: "a{sep}b{sep}c"\ninputSchema:\n  type: object\n'
                                      "  default: !!binary aGVsbG8=\n")
    _, errors = load(str(path))
    assert [(e.line, e.column) for e in errors] == [(5, 12)] and "!!binary" in errors[0].message


@pytest.mark.parametrize("text,place", [
    ('{"name": "t",\n "inputSchema": {"type": "object"}\n\n', (2, 35)),
    ('[{"name": "t", "inputSchema": {"type": "object"}},\n', (1, 51)),
    ('{"name": "t", "description": "d  \r\n', (1, 34)),  # (a control character in a string: at it)
    ('{"name": "t", "description": "d  ', (1, 30)),  # (an unterminated string: where it starts)
    ("\n\n", (1, 1)),
])
def test_a_json_text_cut_short_is_reported_where_it_stops(tmp_path: Path, text: str, place: tuple) -> None:
    # A text that ended too soon was reported past its last line (json places the error after the
    # trailing newlines), the same as a JSON Lines line cut short was reported on the next line.
    _, errors = load(str(write(tmp_path / "cut.json", text)))
    assert [(e.line, e.column) for e in errors] == [place]


def test_a_symlink_loop_in_a_scanned_directory_is_reported_with_out_given_too(tmp_path: Path) -> None:
    # Found while fixing the scan's other hangs and crashes: with --out (or a baseline) given, each
    # file's path was resolved to compare with it, and a symlink loop raised RuntimeError there.
    import os

    tools = tmp_path / "tools"
    write(tools / "a.json", json.dumps(TOOL))
    os.symlink("loop.json", tools / "loop.json")
    os.symlink("c.json", tools / "b.json")
    os.symlink("b.json", tools / "c.json")
    items, errors = load(str(tools), skip=(tmp_path / "gen",))
    assert [i.tool["name"] for i in items] == ["t"]
    assert [(e.source, e.message) for e in errors] == [
        (str(tools / n), "not a regular file; not read") for n in ("b.json", "c.json", "loop.json")]
    code, out, err = run("compile", str(tools), "--out", str(tmp_path / "gen"), "--summary")
    assert code == 2 and "internal error" not in out + err and not (tmp_path / "gen").exists()


@pytest.mark.parametrize("data,message,place", [
    # The column was the byte's offset in its line, not the characters before it.
    ('{"name": "t",\n "description": "\u00e9\u00e9\u00e9 '.encode() + b'\xff"}\n', "byte 0xff at offset 38", (2, 22)),
    # After a BOM, the byte and offset named were three bytes early (a ':' that is UTF-8).
    (b'\xef\xbb\xbf{"name": "\xff"}', "byte 0xff at offset 13", (1, 11)),
])
def test_a_byte_that_is_not_utf8_is_named_and_placed_right(tmp_path: Path, data: bytes, message: str, place: tuple) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(data)
    _, errors = load(str(path))
    assert [(e.message, (e.line, e.column)) for e in errors] == [(f"not UTF-8 text ({message})", place)]


@pytest.mark.parametrize("before", ["1." + "5" * 4400, "-" + "5" * 4300, "1e" + "0" * 4400])
def test_an_integer_past_the_digit_limit_is_placed_at_itself_not_an_earlier_long_number(tmp_path: Path, before: str) -> None:
    # A long float (or a negative integer of exactly 4300 digits) before it took its place.
    path = write(tmp_path / "n.json", '{"name": "t", "inputSchema": {"minimum": ' + before + ',\n "maximum": '
                 + "1" * 4301 + "}}")
    _, errors = load(str(path))
    assert [(e.message, e.line, e.column) for e in errors] == [("invalid JSON: a number of more than 4300 digits", 2, 13)]
