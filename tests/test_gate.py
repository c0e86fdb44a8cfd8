"""The CI gate: findings at file:line:col, SARIF, GitHub annotations, baselines, --quiet and --summary."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from rule_facts import unsupported_format

from toolcast import github
from toolcast.cli.main import main
from toolcast.loader import load

SARIF_SCHEMA = Path(__file__).resolve().parent / "schemas" / "sarif-schema-2.1.0.json"
# A format the default rules drop (lossy): the finding these tests place, taken from the rules, not pinned.
LOST = unsupported_format()


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def at(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the first `needle` in text."""
    pos = text.index(needle)
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


TOOL_JSON = """\
{
  "name": "fetch_url",
  "description": "Fetch a page.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "url": {"type": "string", "format": "LOST"},
      "depth": {"type": "integer"}
    },
    "required": ["url"]
  }
}
""".replace("LOST", LOST)

TOOL_YAML = """\
tools:
  - name: fetch_url
    description: Fetch a page.
    inputSchema:
      type: object
      properties:
        url:
          type: string
          format: LOST
        depth: {type: integer}
      required: [url]
""".replace("LOST", LOST)


def findings(out: str) -> dict[tuple[str, str], dict]:
    (res,) = json.loads(out)["results"]
    return {(d["code"], d["path"]): d for d in res["diagnostics"]}


@pytest.mark.parametrize("name,text", [("t.json", TOOL_JSON), ("t.yaml", TOOL_YAML),
                                       ("t.jsonl", "\n" + json.dumps(json.loads(TOOL_JSON)) + "\n")])
def test_every_finding_has_the_line_and_column_of_its_key(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, out, _ = run("check", str(path), "--format", "json", "--fail-on", "never")
    assert code == 0
    got = findings(out)
    fmt = got[("openai/unsupported-string-format", "#/properties/url/format")]
    assert (fmt["line"], fmt["column"]) == at(text, '"format"' if name != "t.yaml" else f"format: {LOST}")
    depth = got[("openai/strict-optional-property", "#/properties/depth")]
    assert (depth["line"], depth["column"]) == at(text, '"depth"' if name != "t.yaml" else "depth:")
    # A place that is not in the source (the missing additionalProperties) gets its object's.
    root = got[("openai/object-missing-additional-properties", "#")]
    assert (root["line"], root["column"]) == at(text, '"inputSchema"' if name != "t.yaml" else "inputSchema:")
    assert all(isinstance(d["line"], int) and isinstance(d["column"], int) for d in got.values())


def test_text_output_shows_path_line_col(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(TOOL_JSON, encoding="utf-8")
    _, out, _ = run("compile", str(path))
    line, col = at(TOOL_JSON, '"format"')
    assert f"not applied {path}:{line}:{col}  #/properties/url/format  " in out  # a non-strict tool sends its original


def test_positions_are_not_computed_unless_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(TOOL_JSON, encoding="utf-8")
    (item,), _ = load(str(path))
    assert item.where is None
    (item,), _ = load(str(path), positions=True)
    assert item.where.locate("name", ()) == at(TOOL_JSON, '"name"')


def test_a_tool_from_an_mcp_server_names_the_server_and_tool() -> None:
    from toolcast import render
    from toolcast.compile import compile_tool

    res = compile_tool(json.loads(TOOL_JSON))
    d = res.diagnostics[0]
    assert render.place_text("mcp:uvx my-server --flag#tools[3]", res, None, d) == "mcp:uvx my-server --flag tool fetch_url"
    buf = io.StringIO()
    github.render(buf, [("mcp:srv#tools[0]", res)], [None], [], shown=render.shows(False, None))
    assert buf.getvalue().startswith("::error title=openai/")
    assert "::MCP server `srv`, tool fetch_url: fetch_url #" in buf.getvalue()


def sarif(*paths: str, extra: tuple = ()) -> dict:
    code, out, err = run("check", *paths, "--format", "sarif", *extra)
    assert code in (0, 1, 2) and not err, err
    return json.loads(out)


def test_sarif_is_valid_with_one_rule_per_code_and_regions(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(TOOL_JSON, encoding="utf-8")
    log = sarif(str(path), str(tmp_path / "missing.json"))
    jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(log)
    (r,) = log["runs"]
    rules = r["tool"]["driver"]["rules"]
    ids = [x["id"] for x in rules]
    assert ids == sorted(set(ids)) and {x["ruleId"] for x in r["results"]} == set(ids)
    for res in r["results"]:
        rule = rules[res["ruleIndex"]]
        assert rule["id"] == res["ruleId"] and rule["helpUri"].startswith("https://")
        assert rule["defaultConfiguration"]["level"] == res["level"]
    fmt = next(x for x in r["results"] if x["ruleId"] == "openai/unsupported-string-format")
    region = fmt["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == at(TOOL_JSON, '"format"')
    assert rules[fmt["ruleIndex"]]["fullDescription"]["text"].startswith("`format: {format}` is not one of")
    assert rules[fmt["ruleIndex"]]["defaultConfiguration"]["level"] == "error"
    assert fmt["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == path.as_uri()
    # The unreadable file is reported, and the run marked as not successful.
    (inv,) = r["invocations"]
    assert inv["executionSuccessful"] is False and "cannot read" in inv["toolExecutionNotifications"][0]["message"]["text"]


def test_sarif_says_a_fix_a_non_strict_tool_does_not_send_is_not_applied(tmp_path: Path) -> None:
    # The message said "fixed" of a change left out of what was sent (the text report: "not applied").
    props = {"type": "object", "properties": {"u": {"type": "string"}}}
    lossy = {"type": "object", "properties": {"u": {"type": "string", "format": LOST}}}
    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"name": "sent", "parameters": props}, {"name": "plain", "parameters": lossy}]))
    handled = {(x["properties"]["tool"], x["ruleId"]): x["message"]["text"].rpartition(" (")[2]
               for x in sarif(str(path))["runs"][0]["results"]}
    assert handled["sent", "openai/object-missing-additional-properties"] == "fixed; the tool compiles strict)"
    assert handled["plain", "openai/object-missing-additional-properties"] == "not applied; the tool compiles non-strict)"
    assert handled["plain", "openai/unsupported-string-format"] == "not applied; the tool compiles non-strict)"
    assert handled["plain", "openai/sent-non-strict"] == "note; the tool compiles non-strict)"


def test_sarif_fingerprints_are_stable_across_runs_and_line_moves(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(TOOL_JSON, encoding="utf-8")
    first = sarif(str(path))
    assert sarif(str(path)) == first  # byte-stable: the same input, the same log
    path.write_text("\n\n\n" + TOOL_JSON.replace('"type": "object",', '"type": "object",\n\n'), encoding="utf-8")
    moved = sarif(str(path))

    def prints(log: dict) -> dict:
        return {(x["ruleId"], x["properties"]["schemaPath"]): (x["partialFingerprints"], x["locations"][0]["physicalLocation"]["region"]["startLine"])
                for x in log["runs"][0]["results"]}

    a, b = prints(first), prints(moved)
    assert a.keys() == b.keys()
    assert all(a[k][0] == b[k][0] for k in a)  # same fingerprint
    assert all(b[k][1] > a[k][1] for k in a)  # on another line


def test_sarif_relative_paths_stay_relative(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "t.json").write_text(TOOL_JSON, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    log = sarif("tools")
    loc = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert loc == {"uri": "tools/t.json", "uriBaseId": "%SRCROOT%"}


def test_sarif_relative_uris_are_percent_encoded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Written as they were, `#` and `?` read as a fragment and a query: a reader looked up `tools/a b%`.
    from urllib.parse import unquote, urlsplit

    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "a b%#?é.json").write_text(TOOL_JSON, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    loc = sarif("tools")["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert loc == {"uri": "tools/a%20b%25%23%3F%C3%A9.json", "uriBaseId": "%SRCROOT%"}
    parts = urlsplit(loc["uri"])
    assert (parts.query, parts.fragment) == ("", "") and unquote(parts.path) == "tools/a b%#?é.json"


def non_utf8_dir(tmp_path: Path) -> Path:
    """tools/ holding caf<0xE9>.json (a tool with findings) and b<0xE9>.json (not JSON)."""
    tools = tmp_path / "tools"
    tools.mkdir()
    try:
        (tools / os.fsdecode(b"caf\xe9.json")).write_text(TOOL_JSON, encoding="utf-8")
        (tools / os.fsdecode(b"b\xe9.json")).write_text("{bad", encoding="utf-8")
    except (OSError, UnicodeError):
        pytest.skip("the file system takes only UTF-8 names")
    return tools


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_a_file_name_that_is_not_utf8_is_named_in_every_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               fmt: str) -> None:
    # Every format but text and github ended in "internal error: UnicodeEncodeError ... surrogates not allowed".
    non_utf8_dir(tmp_path)
    monkeypatch.chdir(tmp_path)
    exe = Path(sys.executable).with_name("toolcast")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "toolcast.cli.main"]
    res = subprocess.run(cmd + ["check", "tools", "--format", fmt], capture_output=True, timeout=60,
                         env={**os.environ, "NO_COLOR": "1"})
    assert res.returncode == 2 and b"internal error" not in res.stderr, res.stderr  # (the file that is not JSON)
    out = res.stdout.decode("utf-8")  # (a byte that is not UTF-8 is never written as itself)
    if fmt in ("text", "github"):  # the bytes escaped, as a control character is
        line, col = at(TOOL_JSON, '"format"')
        assert f"tools/caf\\xe9.json:{line}:{col}" in out and "tools/b\\xe9.json:1:2" in out
        assert fmt == "text" or "file=" not in out  # (no file of the repository has that name)
    elif fmt == "json":
        doc = json.loads(out)
        assert doc["results"][0]["source"] == os.fsdecode(b"tools/caf\xe9.json")
        assert doc["errors"][0]["source"] == os.fsdecode(b"tools/b\xe9.json")
    else:
        run_ = json.loads(out)["runs"][0]
        jsonschema.Draft4Validator(json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))).validate(json.loads(out))
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run_["results"]}
        (note,) = run_["invocations"][0]["toolExecutionNotifications"]
        assert uris == {"tools/caf%E9.json"}
        assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "tools/b%E9.json"


def test_an_input_error_names_its_file_whatever_characters_the_name_holds(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # The file was taken to end at its first `#` (`c#d.json` -> `c`): another file, or none.
    (tmp_path / "c#d.json").write_text("{bad", encoding="utf-8")
    (tmp_path / "e#f.json").write_text('{"tools": [{"description": "no name"}]}', encoding="utf-8")
    (tmp_path / "k#[0]").write_text("{bad", encoding="utf-8")  # (as the loader names a tool in a file)
    monkeypatch.chdir(tmp_path)
    args = ("c#d.json", "e#f.json", "k#[0]")
    out = run("check", *args, "--format", "github")[1]
    files = [x.split("file=", 1)[1].split(",", 1)[0] for x in out.splitlines() if x.startswith("::error")]
    assert sorted(files) == ["c#d.json", "e#f.json", "k#[0]"]
    notes = sarif(*args)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    uris = [n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in notes]
    assert sorted(uris) == ["c%23d.json", "e%23f.json", "k%23%5B0%5D"]


def test_github_escaping_follows_the_workflow_command_rules() -> None:
    assert github.escape_data("50% a\r\nb: c, d") == "50%25 a%0D%0Ab: c, d"
    assert github.escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert github.command("error", "m: 1", file="x,y:z.json", line=3, col=4, title="openai/x") == (
        "::error file=x%2Cy%3Az.json,line=3,col=4,title=openai/x::m: 1")


def test_github_annotations_land_on_the_finding_lines(tmp_path: Path) -> None:
    path = tmp_path / "a,b.json"
    path.write_text(TOOL_JSON, encoding="utf-8")
    code, out, _ = run("check", str(path), "--format", "github")
    assert code == 1
    line, col = at(TOOL_JSON, '"format"')
    file = github.escape_property(str(path))
    assert f"::error file={file},line={line},col={col},title=openai/unsupported-string-format::fetch_url #/properties/url/format: " in out
    assert "::warning file=" in out and out.rstrip().endswith("1 tool(s): 0 strict, 1 non-strict, 0 refused")
    quiet = run("check", str(path), "--format", "github", "--quiet")[1]
    assert quiet.count("::") < out.count("::") and "unsupported-string-format" in quiet
    assert "::warning" not in quiet


def test_github_annotations_from_stdin_name_no_file() -> None:
    # `file=<stdin>` named a file the repository does not hold (input errors and SARIF left it out).
    out = io.StringIO()
    code = main(["check", "-", "--format", "github"], stdout=out, stderr=io.StringIO(),
                stdin=io.BytesIO(f"[{TOOL_JSON}, 5]".encode()))
    lines = out.getvalue().splitlines()[:-1]
    assert code == 2 and len(lines) > 2
    assert not any("file=" in x or "line=" in x or "col=" in x for x in lines), lines
    line, col = at("[" + TOOL_JSON, '"format"')
    assert f"::<stdin>:{line}:{col}: fetch_url #/properties/url/format: " in out.getvalue()
    assert "::<stdin>#[1]:" in lines[-1] and "title=toolcast input error" in lines[-1]


def test_baseline_fails_only_on_new_findings_matched_without_lines(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(TOOL_JSON, encoding="utf-8")
    base = tmp_path / "baseline.json"
    code, out, _ = run("check", str(path), "--write-baseline", str(base))
    assert code == 0 and "finding(s) to the baseline" in out
    doc = json.loads(base.read_text(encoding="utf-8"))
    entries = doc["findings"]
    assert doc["toolcast_baseline"] == 1 and entries == sorted(entries, key=lambda e: (e["tool"], e["code"], e["path"]))
    assert {"tool": "fetch_url", "code": "openai/unsupported-string-format", "path": "#/properties/url/format"} in entries
    again = tmp_path / "again.json"
    run("check", str(path), "--write-baseline", str(again))
    assert again.read_bytes() == base.read_bytes()  # deterministic
    assert run("check", str(path))[0] == 1
    assert run("check", str(path), "--baseline", str(base), "--fail-on", "info")[0] == 0
    # Lines move: still known.
    path.write_text("\n\n" + TOOL_JSON, encoding="utf-8")
    code, out, _ = run("check", str(path), "--baseline", str(base), "--fail-on", "info")
    assert code == 0 and f"{len(entries)} finding(s) in the baseline not shown" in out
    assert "    error" not in out
    # A new finding fails, and is the only one listed.
    path.write_text(TOOL_JSON.replace('"depth": {"type": "integer"}', '"depth": {"type": "integer"}, "when": {"type": "string", "format": "' + LOST + '"}'), encoding="utf-8")
    code, out, _ = run("check", str(path), "--baseline", str(base))
    assert code == 1 and "#/properties/when/format" in out and "#/properties/url/format" not in out
    code, out, _ = run("check", str(path), "--baseline", str(base), "--format", "json")
    states = {(d["path"], d["baseline"]) for d in json.loads(out)["results"][0]["diagnostics"]}
    assert ("#/properties/when/format", "new") in states and ("#/properties/url/format", "unchanged") in states
    log = sarif(str(path), extra=("--baseline", str(base)))
    assert {x["baselineState"] for x in log["runs"][0]["results"]} == {"new", "unchanged"}


def test_annotations_under_a_baseline_say_how_many_known_findings_they_left_out(tmp_path: Path) -> None:
    # The text report said it; the annotations listed only new findings and said nothing of the rest.
    path = tmp_path / "t.json"
    path.write_text(TOOL_JSON, encoding="utf-8")
    base = tmp_path / "baseline.json"
    assert run("check", str(path), "--write-baseline", str(base))[0] == 0
    known = len(json.loads(base.read_text(encoding="utf-8"))["findings"])
    path.write_text(TOOL_JSON.replace('"depth": {"type": "integer"}', '"depth": {"type": "integer"}, "when": {"type": "string", "format": "' + LOST + '"}'), encoding="utf-8")
    code, out, _ = run("check", str(path), "--baseline", str(base), "--format", "github")
    lines = out.splitlines()
    assert code == 1 and all("#/properties/when" in x for x in lines[:-1]) and len(lines) > 1
    assert lines[-1].endswith(f"; {known} finding(s) in the baseline not shown")
    assert "baseline" not in run("check", str(path), "--format", "github")[1].splitlines()[-1]


@pytest.mark.parametrize("content,needle", [
    (None, "cannot read the baseline"),
    ('{"findings": [}', "b.json:1:"),
    ('{"findings": []}', "not a toolcast baseline"),
    ('{"toolcast_baseline": true, "findings": []}', "not a toolcast baseline"),  # (true is not 1)
    ('{"toolcast_baseline": 1, "findings": [{"tool": "t"}]}', "findings[0] must hold"),
])
def test_a_bad_baseline_is_a_clear_usage_error(tmp_path: Path, content: str | None, needle: str) -> None:
    base = tmp_path / "b.json"
    if content is not None:
        base.write_text(content, encoding="utf-8")
    tool = tmp_path / "t.json"
    tool.write_text(TOOL_JSON, encoding="utf-8")
    code, out, err = run("check", str(tool), "--baseline", str(base))
    assert code == 2 and needle in err and "Traceback" not in out + err


def test_a_baseline_is_not_written_when_an_input_could_not_be_read(tmp_path: Path) -> None:
    tool = tmp_path / "t.json"
    tool.write_text(TOOL_JSON, encoding="utf-8")
    base = tmp_path / "b.json"
    code, out, _ = run("check", str(tool), str(tmp_path / "missing.json"), "--write-baseline", str(base))
    assert code == 2 and "not written" in out and not base.exists()


def test_write_baseline_never_replaces_a_file_that_is_not_a_baseline(tmp_path: Path) -> None:
    # Found by testing as a user would: `check victim.json --write-baseline victim.json` replaced
    # the tool file with a baseline (exit 0), and `check td --write-baseline td/b.json` left the
    # tool in b.json unchecked (the scan skips the baseline's path) and then replaced it.
    tool = tmp_path / "victim.json"
    tool.write_text(TOOL_JSON, encoding="utf-8")
    code, out, _ = run("check", str(tool), "--write-baseline", str(tool))
    assert code == 2 and "not a toolcast baseline" in out and "replacing it would lose it" in out
    assert tool.read_text(encoding="utf-8") == TOOL_JSON
    td = tmp_path / "td"
    td.mkdir()
    (td / "a.json").write_text(TOOL_JSON, encoding="utf-8")
    (td / "b.json").write_text(TOOL_JSON.replace("fetch_url", "second"), encoding="utf-8")
    before = (td / "b.json").read_bytes()
    code, out, _ = run("check", str(td), "--write-baseline", str(td / "b.json"))
    assert code == 2 and (td / "b.json").read_bytes() == before
    # A baseline there is replaced, as before.
    base = tmp_path / "base.json"
    assert run("check", str(tool), "--write-baseline", str(base))[0] == 0
    tool.write_text(TOOL_JSON.replace('"depth": {"type": "integer"}', '"depth": {"type": "integer"}, "w": {"type": "string", "format": "' + LOST + '"}'),
                    encoding="utf-8")
    assert run("check", str(tool), "--write-baseline", str(base))[0] == 0
    assert "#/properties/w/format" in base.read_text(encoding="utf-8")


def test_write_baseline_gives_the_mode_any_new_file_gets_and_keeps_a_replaced_one(tmp_path: Path) -> None:
    # It was written through mkstemp: always 0600, which other users and CI steps cannot read.
    import os
    import stat

    tool = tmp_path / "t.json"
    tool.write_text(TOOL_JSON, encoding="utf-8")
    base = tmp_path / "b.json"
    old = os.umask(0o022)
    try:
        assert run("check", str(tool), "--write-baseline", str(base))[0] == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(base.stat().st_mode) == 0o644
    base.chmod(0o640)
    assert run("check", str(tool), "--write-baseline", str(base))[0] == 0
    assert stat.S_IMODE(base.stat().st_mode) == 0o640
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".toolcast-")]


def test_quiet_lists_only_what_blocks_or_is_lossy(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(TOOL_JSON, encoding="utf-8")
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps({"name": "ok", "description": "d", "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": False}}), encoding="utf-8")
    code, out, _ = run("compile", str(path), str(clean), "--quiet")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("~ fetch_url  non-strict")
    # (a non-strict tool's lossy change is listed as "not applied": its original schema is sent)
    assert all(" lossy " in x or " blocks " in x or " not applied " in x for x in lines[1:-1]) and len(lines) == 3
    assert "ok" not in out.replace("tool(s)", "") and lines[-1] == "2 tool(s): 1 strict, 1 non-strict, 0 refused"


def test_summary_is_one_line_per_tool(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(TOOL_JSON, encoding="utf-8")
    code, out, _ = run("check", str(path), "--summary")
    assert code == 1
    head, total = out.splitlines()
    assert head.startswith("~ fetch_url  non-strict  1 lossy, ") and "fixed" not in head and head.endswith(str(path))
    assert total == "1 tool(s): 0 strict, 1 non-strict, 0 refused"


@pytest.mark.parametrize("fmt", ["github", "sarif", "json"])
def test_summary_leaves_the_other_formats_and_their_places_alone(tmp_path: Path, fmt: str) -> None:
    # --summary loaded the tools without their places: annotations lost file/line/col, SARIF
    # results their physicalLocation, JSON findings their line and column.
    path = tmp_path / "t.json"
    path.write_text(TOOL_JSON, encoding="utf-8")
    full = run("check", str(path), "--format", fmt)
    assert run("check", str(path), "--format", fmt, "--summary") == full
    assert f"file={path}," in full[1] or "physicalLocation" in full[1] or '"line": 7' in full[1]


def test_summary_keeps_an_input_errors_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "tl.json"
    path.write_text('{"tools": 5}', encoding="utf-8")
    code, out, _ = run("compile", str(path), "--summary")
    assert code == 2 and f"error: {path}:1:2: `tools` must be a list" in out


def test_fail_on_change_exits_1_only_when_out_changed(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(TOOL_JSON, encoding="utf-8")
    gen = str(tmp_path / "gen")
    assert run("compile", str(path), "--out", gen, "--fail-on-change")[0] == 1  # created
    assert run("compile", str(path), "--out", gen, "--fail-on-change")[0] == 0  # unchanged
    path.write_text(TOOL_JSON.replace("Fetch a page.", "Fetch one page."), encoding="utf-8")
    code, out, _ = run("compile", str(path), "--out", gen, "--fail-on-change")
    assert code == 1 and "changed" in out
    assert run("compile", str(path), "--fail-on-change")[0] == 2  # needs --out


def test_every_new_option_says_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("compile", "check"):
        code, _, _ = run(command, "--help")
        out = capsys.readouterr().out
        assert code == 0
        for option in ("--format", "--quiet", "--summary", "--name"):
            assert option in out
        assert out.count("default") >= 4
    run("check", "--help")
    out = capsys.readouterr().out
    assert "--baseline FILE" in out and "--write-baseline FILE" in out


def test_help_states_the_directory_rule(capsys: pytest.CaptureFixture[str]) -> None:
    run("compile", "--help")
    out = " ".join(capsys.readouterr().out.split())
    assert "A directory PATH is read recursively, in sorted order of paths" in out
    assert "skipping hidden files and directories" in out and "manifest.json" in out


def test_the_documented_gate_table_counts_the_catalogue() -> None:
    from collections import Counter

    from toolcast.rules import get_rules

    rules = get_rules(None)
    cat, always_refused = rules.diagnostics, rules.always_refused
    kinds = Counter()
    for code, entry in cat.items():
        severity, outcome = entry.severity, entry.outcome
        if code in always_refused:
            kinds["always"] += 1
        elif severity == "error":
            kinds[outcome] += 1
        elif outcome == "lossy":  # (a lossy warning fails the default gate: its own row)
            kinds["warning-lossy"] += 1
        else:
            kinds[severity] += 1
    # (the gate table moved from the README to the documentation site's CI gate page)
    readme = (Path(__file__).resolve().parent.parent / "docs" / "ci-gate.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(): int(line.split("|")[2]) for line in readme.splitlines()
            if line.startswith("| ") and line.split("|")[2].strip().isdigit()}
    by_start = {k.split(" (")[0].split(",")[0]: v for k, v in rows.items()}
    assert by_start["name OpenAI cannot take"] == kinds["always"]
    assert by_start["other error"] == kinds["refuses"]
    assert rows[next(k for k in rows if k.startswith("error, lossy"))] == kinds["lossy"]
    assert rows[next(k for k in rows if k.startswith("error, fixed"))] == kinds["fixes"]
    assert rows[next(k for k in rows if k.startswith("warning, lossy"))] == kinds["warning-lossy"]
    assert rows[next(k for k in rows if k.startswith("warning, fixed"))] == kinds["warning"]
    assert rows[next(k for k in rows if k.startswith("info"))] == kinds["info"]


def test_github_annotation_levels_follow_the_gate(tmp_path: Path) -> None:
    # Fixes were `::error`s before the one finding that failed the run, which GitHub's cap of ten
    # annotations per level then hid (the red-team's round s13j #8).
    props = {f"p{i}": {"type": "string"} for i in range(11)} | {"url": {"type": "string", "format": unsupported_format()}}
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"name": "create", "inputSchema": {"type": "object", "properties": props}}), encoding="utf-8")
    code, out, _ = run("check", str(path), "--format", "github")
    errors = [line for line in out.splitlines() if line.startswith("::error")]
    assert code == 1 and len(errors) == 1 and "unsupported-string-format" in errors[0]
    assert all("strict-optional-property" not in e for e in errors)
    assert any(line.startswith("::notice") and "strict-optional-property" in line for line in out.splitlines())
    code, out, _ = run("check", str(path), "--format", "github", "--fail-on", "never")
    assert code == 0 and "::error" not in out
    code, out, _ = run("compile", str(path), "--format", "github")
    assert "::error" not in out  # (compile fails only on a refused tool)
