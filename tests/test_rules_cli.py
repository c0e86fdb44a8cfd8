"""`toolcast rules list|show|diff`, `--impact`, and `--rules` version resolution."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from corpus_paths import CORPUS
from spec_versions import DEFAULT, LATEST, VERSIONS

from toolcast.cli.main import main


def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(stdin) if stdin is not None else None)
    return code, out.getvalue(), err.getvalue()


def run_json(*argv: str) -> dict:
    code, out, err = run(*argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def test_list_text_and_json():
    code, out, _ = run("rules", "list")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["version", "default", "reviewed"]
    row = next(line for line in lines if line.startswith(f"openai@{DEFAULT}"))
    assert row.split()[1] == "yes"
    data = run_json("rules", "list")
    ids = [v["id"] for v in data["versions"]]
    assert [i for i in ids if i.startswith("openai@")] == [f"openai@{v}" for v in VERSIONS]
    assert {"openai@2024-08-06", "openai@2025-05-20", "openai@2025-11-30", "openai@2026-08-20",
            "openai@2026-10-17"} <= set(ids)
    assert {"anthropic@2025-11-14", "anthropic@2026-01-29"} <= set(ids)  # every provider is listed
    by = {v["version"]: v for v in data["versions"] if v["id"].startswith("openai@")}
    assert by[DEFAULT]["default"] and by[LATEST]["latest"]
    assert [v for v, row in by.items() if row["default"]] == [DEFAULT] and [v for v, row in by.items() if row["latest"]] == [LATEST]
    assert by["2025-05-20"]["extends"] == "2024-08-06"
    assert by["2024-08-06"]["sources"] >= 10 and by["2026-10-17"]["sources"] > by["2024-08-06"]["sources"]


def test_show_resolves_every_spelling():
    a = run_json("rules", "show", "openai@2024-08-06")
    b = run_json("rules", "show", "2024-08-06")
    assert a == b
    assert a["limits"]["max_properties"] == {"value": 100, "code": "openai/too-many-properties", "cite": ["O-LAUNCH-LIMITS"]}
    assert a["formats"] == {} and "pattern" in a["keywords"]["tier1"]
    assert a["description"] == {"max_bytes": 4096, "max_chars": 1024}
    latest = run_json("rules", "show", "latest")
    assert latest == run_json("rules", "show", "openai@latest") == run_json("rules", "show", LATEST)
    assert latest["version"] == LATEST
    c = run_json("rules", "show", "2026-10-17")
    assert c["regex_features"]["lookahead"]["class"] == "unsupported"
    assert c["sources"]["E-LOOKAROUND"]["url"].startswith("https://github.com/")


def test_show_text_is_readable_tables():
    code, out, _ = run("rules", "show", "2025-05-20")
    assert code == 0
    assert out.startswith("openai@2025-05-20  reviewed")
    assert "  max_properties              100  openai/too-many-properties" in out
    assert "unconfirmed: pattern kept, openai/regex-feature-unconfirmed" in out
    assert "O-WIDENING-2025" in out and "https://github.com/run-llama/llama_index/issues/18799" in out


def test_unknown_version_is_a_usage_error_listing_the_available():
    for argv in (("rules", "show", "2025-01-01"), ("rules", "diff", "latest", "openai@1999-01-01"),
                 ("compile", "--rules", "nope", "-")):
        code, out, err = run(*argv, stdin="{}")
        assert code == 2, argv
        assert "unknown rule version" in err and "openai@2024-08-06" in err and "latest" in err
        assert out == ""


def test_rules_flag_accepts_version_provider_and_latest():
    t = json.dumps({"name": "t", "parameters": {"type": "object", "properties": {"n": {"type": "number", "minimum": 1}},
                                                "required": ["n"], "additionalProperties": False}})
    outs = {}
    for spelling in ("2024-08-06", "openai@2024-08-06", "2026-10-17", "latest", "openai@latest", LATEST):
        code, out, err = run("compile", "--rules", spelling, "--format", "json", "-", stdin=t)
        assert code == 0, err
        outs[spelling] = json.loads(out)["results"][0]["status"]
    assert outs["2024-08-06"] == outs["openai@2024-08-06"] == "non-strict"
    assert outs["2026-10-17"] == "strict"
    assert outs["latest"] == outs["openai@latest"] == outs[LATEST]


def test_diff_launch_to_widening():
    d = run_json("rules", "diff", "openai@2024-08-06", "openai@2025-05-20")
    assert (d["from"], d["to"]) == ("openai@2024-08-06", "openai@2025-05-20")
    moved = {k["keyword"]: k for k in d["keywords"]}
    assert moved["pattern"]["from"] == {"class": "tier1", "action": "drop", "handler": None}
    assert moved["pattern"]["to"] == {"class": "supported", "action": "keep", "handler": "pattern"}
    assert moved["pattern"]["cite"] == ["O-WIDENING-2025", "O-SO"]
    assert moved["minLength"]["to"]["class"] == "tier2"
    assert len(d["formats"]["added"]) == 9 and d["formats"]["removed"] == []
    assert d["limits"] == []  # the limits were raised later
    assert {x["feature"] for x in d["regex_features"]} >= {"lookahead", "backreference", "named-group"}
    assert d["citations"]["O-WIDENING-2025"]["date"] == "2025-05-21"


def test_diff_limits_and_regex_tiers_with_citations():
    d = run_json("rules", "diff", "2025-05-20", "2025-11-30")
    assert {x["limit"]: (x["from"], x["to"]) for x in d["limits"]} == {
        "max_properties": (100, 5000), "max_depth": (5, 10), "max_string_chars": (15000, 120000),
        "max_enum_values": (500, 1000), "large_enum_chars": (7500, 15000)}
    assert all(x["cite"] == ["O-SO"] for x in d["limits"])
    d = run_json("rules", "diff", "2025-11-30", "2026-08-20")
    assert {x["feature"]: (x["from"], x["to"], x["cite"]) for x in d["regex_features"]} == {
        "lookahead": ("unconfirmed", "unsupported", ["E-LOOKAROUND"]),
        "lookbehind": ("unconfirmed", "unsupported", ["E-LOOKAROUND"])}
    assert d["description"] == [{"field": "max_chars", "from": 1024, "to": None, "cite": ["E-DESC", "O-FC"]}]


def test_diff_text_and_reverse_direction():
    code, out, _ = run("rules", "diff", "2026-10-17", "2026-08-20")
    assert code == 0
    assert "rules diff openai@2026-10-17 -> openai@2026-08-20" in out
    assert "  minLength              supported              -> tier2                  [O-SO]" in out
    assert "citations" in out
    code, out, _ = run("rules", "diff", "latest", LATEST)
    assert code == 0 and "(no rule differences)" in out


def test_impact_reports_outcome_null_path_and_diagnostic_changes(tmp_path):
    tools = tmp_path / "tools.jsonl"
    tools.write_text("\n".join(json.dumps(t) for t in [
        {"name": "short", "inputSchema": {"type": "object", "properties": {
            "code": {"type": "string", "maxLength": 8}, "note": {"type": "string"}}, "required": ["code"]}},
        {"name": "same", "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}}}},
    ]) + "\n")
    d = run_json("rules", "diff", "2026-08-20", "2026-10-17", "--impact", str(tools))
    m = d["impact"]
    assert m["counts"] == {"tools": 2, "changed": 1, "outcome_changed": 1, "null_paths_changed": 1,
                           "diagnostics_changed": 1}
    assert m["outcomes"] == [{"from": "non-strict", "to": "strict", "tools": 1}]
    (t,) = m["tools"]
    assert (t["name"], t["from"], t["to"]) == ("short", "non-strict", "strict")
    assert t["null_paths_added"] == [["note"]]
    assert {"code": "openai/undocumented-constraint-keyword", "path": "#/properties/code/maxLength"} in t["diagnostics_removed"]
    assert m["codes_removed"]["openai/sent-non-strict"] == 1
    code, out, _ = run("rules", "diff", "2026-08-20", "2026-10-17", "--impact", str(tools))
    assert code == 0
    impact = out[out.index("impact on"):]
    assert impact.splitlines()[1].split() == ["changed:", "1", "outcome:", "1", "null", "paths:", "1", "diagnostics:", "1"]
    assert "non-strict -> strict" in impact and "+ null path [\"note\"]" in impact


def test_impact_text_escapes_what_the_tools_name(tmp_path):
    # A tool's name, its property names and its file name were written as they are: an escape
    # sequence reached the terminal and a newline forged a line of the report.
    forged = "\n      - openai/forged at #"
    tools = tmp_path / "a\x1b[2Jb.json"
    tools.write_text(json.dumps({"name": "e\x1b[2J" + forged, "inputSchema": {"type": "object", "properties": {
        "p\u202e" + forged: {"type": "string", "maxLength": 8}}, "required": ["p\u202e" + forged]}}))
    code, out, _ = run("rules", "diff", "2026-08-20", "2026-10-17", "--impact", str(tools), str(tools) + "\x1b[0m")
    assert code == 2
    impact = out[out.index("impact on"):]
    assert "\x1b" not in impact and "\u202e" not in impact
    assert not [line for line in impact.splitlines() if line.lstrip().startswith("- openai/forged")]
    assert "e\\x1b[2J\\x0a" in impact and "#/properties/p\\u202e\\x0a" in impact and "a\\x1b[2Jb.json" in impact


def test_impact_input_errors_exit_2_but_others_are_compiled(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"name": "g", "parameters": {"type": "object", "properties": {}}}))
    code, out, _ = run("rules", "diff", "2026-08-20", "latest", "--impact", str(good), str(tmp_path / "missing.json"))
    assert code == 2
    assert "impact on 1 tool(s)" in out and "input error:" in out


def test_impact_over_the_corpus():  # (its time: benchmarks/bounds.py)
    paths = sorted(str(p) for p in CORPUS.glob("*.jsonl"))
    d = run_json("rules", "diff", "2024-08-06", "latest", "--impact", *paths)
    m = d["impact"]
    assert m["errors"] == [] and m["counts"]["tools"] > 1000
    # The widening and the raised limits let many tools go strict.
    assert any(o["from"] == "non-strict" and o["to"] == "strict" for o in m["outcomes"])


# -- the library API behind the command (toolcast.rules_diff) ---------------------------------
def test_versions_and_resolved_tables_are_plain_data():
    from toolcast import rules_diff
    from toolcast.rules import get_rules

    data = rules_diff.versions()
    ids = [v["id"] for v in data["versions"]]
    assert "openai" in data["providers"] and data["providers"] == sorted(data["providers"])
    assert f"openai@{data['defaults']['openai']}" in ids
    # By provider, then version (a rule family for one API, gemini-parameters, follows gemini).
    assert next(i for i in ids if i.startswith("openai@")) == "openai@2024-08-06"
    assert ids == sorted(ids, key=lambda i: i.split("@"))
    launch = rules_diff.resolved(get_rules("2024-08-06"))
    assert launch["limits"]["max_properties"] == {"value": 100, "code": "openai/too-many-properties",
                                                  "cite": ["O-LAUNCH-LIMITS"]}
    assert launch["keyword_details"]["pattern"]["class"] == "tier1"
    assert launch["diagnostics"]["openai/strict-optional-property"]["severity"] == "error"
    assert json.loads(json.dumps(launch)) == launch  # JSON-ready: lists, not tuples


def test_diff_rules_as_api():
    from toolcast import rules_diff
    from toolcast.model import UnknownRulesError
    from toolcast.rules import get_rules

    a, b = get_rules("2024-08-06"), get_rules("2025-05-20")
    d = rules_diff.diff_rules(a, b)
    moved = {k["keyword"]: k for k in d["keywords"]}
    assert moved["pattern"]["from"] == {"class": "tier1", "action": "drop", "handler": None}
    assert moved["pattern"]["to"] == {"class": "supported", "action": "keep", "handler": "pattern"}
    assert d["citations"]["O-WIDENING-2025"]["date"] == "2025-05-21"
    back = rules_diff.diff_rules(b, a)
    assert {k["keyword"]: (k["from"], k["to"]) for k in back["keywords"]} == {
        k: (v["to"], v["from"]) for k, v in moved.items()}
    same = rules_diff.diff_rules(b, b)
    assert not any(same[k] for k in ("keywords", "limits", "name", "description", "regex_features", "classes",
                                     "diagnostics", "transformations", "citations"))
    assert rules_diff.compare("openai@2024-08-06", b) == d  # a spelling or a Rules, alike
    with pytest.raises(UnknownRulesError):
        rules_diff.compare("1999-01-01", "latest")


def test_impact_as_api(tmp_path):
    from toolcast import rules_diff

    tools = tmp_path / "tools.jsonl"
    tools.write_text(json.dumps({"name": "short", "inputSchema": {"type": "object", "properties": {
        "code": {"type": "string", "maxLength": 8}, "note": {"type": "string"}}, "required": ["code"]}}) + "\n")
    d = rules_diff.compare("2026-08-20", "2026-10-17", [str(tools), str(tmp_path / "missing.json")])
    m = d["impact"]
    assert m["counts"]["tools"] == 1 and m["counts"]["outcome_changed"] == 1
    assert m["tools"][0]["null_paths_added"] == [["note"]]
    assert len(m["errors"]) == 1 and "missing.json" in m["errors"][0]
    assert "impact" not in rules_diff.compare("2026-08-20", "2026-10-17")


def test_only_the_accessors_know_how_a_table_entry_is_laid_out():
    """The generated tables' entries are read by position in a few accessor functions of
    rules_diff and nowhere else in it or in rules_cli, so a change of their layout (named records)
    touches those functions only."""
    import ast

    import toolcast

    accessors = {"_keyword", "_limit", "_diagnostic", "_transformation", "_regex_feature", "_regex_class", "_source"}
    package = Path(toolcast.__file__).resolve().parent
    for module in ("rules_diff.py", "cli/rules.py"):
        tree = ast.parse((package / module).read_text(encoding="utf-8"))
        outside = []
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and fn.name not in accessors:
                outside += [(fn.name, n.lineno) for n in ast.walk(fn) if isinstance(n, ast.Subscript)
                            and isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, int)]
        assert outside == [], (module, outside)


def test_the_library_api_takes_a_version_as_the_cli_does():
    """docs/rules.md: `resolved(rules)` and `diff_rules(a, b)` are library API; a version spelled as
    `--rules` takes it is read as that version's Rules (it raised AttributeError on a string)."""
    from toolcast import rules_diff
    from toolcast.rules import get_rules

    assert rules_diff.resolved(f"openai@{DEFAULT}") == rules_diff.resolved(get_rules(f"openai@{DEFAULT}"))
    assert rules_diff.diff_rules(VERSIONS[0], f"openai@{DEFAULT}") == rules_diff.diff_rules(
        get_rules(VERSIONS[0]), get_rules(f"openai@{DEFAULT}"))


def test_diff_lists_policy_budgets_and_wire_changes():
    # They were never compared: a page turning null paths off (policy) or a request budget showed
    # only its new source (the red-team's round of the twelfth session).
    from toolcast.rules_diff import diff_rules

    d = diff_rules(f"openai@{DEFAULT}", "anthropic")
    policy = {x["rule"]: x for x in d["policy"]}
    assert (policy["optional_properties"]["from"], policy["optional_properties"]["to"]) == ("nullable", "allowed")
    assert policy["optional_properties"]["cite"] and all(c in d["citations"] for x in d["policy"] for c in x["cite"])
    assert "anthropic/property-key-invalid" in policy["always_refused"]["to"]
    assert all(c.startswith("anthropic/") for c in policy["always_refused"]["from"])
    budgets = {x["budget"]: x for x in d["budgets"]}
    assert budgets["max_strict_tools"]["from"] is None and budgets["max_strict_tools"]["to"]["applies"] == "strict"
    assert {x["field"] for x in d["wire"]} >= {"default_api", "apis.messages", "apis.responses"}
    code, out, _ = run("rules", "diff", f"openai@{DEFAULT}", "anthropic")
    assert code == 0 and "\npolicy\n" in out and "optional_properties    nullable -> allowed" in out
    assert "\nrequest budgets\n" in out and "\nwire\n" in out
    same = diff_rules(f"openai@{DEFAULT}", f"openai@{DEFAULT}")
    assert same["policy"] == same["budgets"] == same["wire"] == []
