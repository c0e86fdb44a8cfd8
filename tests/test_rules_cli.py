"""`toolcast rules list|show|diff`, `--impact`, and `--rules` version resolution."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest

from toolcast.cli import main

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


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
    row = next(line for line in lines if line.startswith("openai@2026-10-17"))
    assert row.split()[1] == "yes"
    data = run_json("rules", "list")
    ids = [v["id"] for v in data["versions"]]
    assert [i for i in ids if i.startswith("openai@")] == [
        "openai@2024-08-06", "openai@2025-05-20", "openai@2025-11-30", "openai@2026-08-20", "openai@2026-10-17"]
    assert {"anthropic@2025-11-14", "anthropic@2026-01-29"} <= set(ids)  # every provider is listed
    by = {v["version"]: v for v in data["versions"] if v["id"].startswith("openai@")}
    assert by["2026-10-17"]["default"] and by["2026-10-17"]["latest"]
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
    assert latest["version"] == "2026-10-17" and latest["regex_features"]["lookahead"]["class"] == "unsupported"
    assert latest["sources"]["E-LOOKAROUND"]["url"].startswith("https://github.com/")


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
    for spelling in ("2024-08-06", "openai@2024-08-06", "latest", "openai@latest"):
        code, out, err = run("compile", "--rules", spelling, "--format", "json", "-", stdin=t)
        assert code == 0, err
        outs[spelling] = json.loads(out)["results"][0]["status"]
    assert outs == {"2024-08-06": "non-strict", "openai@2024-08-06": "non-strict",
                    "latest": "strict", "openai@latest": "strict"}


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
    code, out, _ = run("rules", "diff", "latest", "2026-10-17")
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


def test_impact_input_errors_exit_2_but_others_are_compiled(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"name": "g", "parameters": {"type": "object", "properties": {}}}))
    code, out, _ = run("rules", "diff", "2026-08-20", "latest", "--impact", str(good), str(tmp_path / "missing.json"))
    assert code == 2
    assert "impact on 1 tool(s)" in out and "input error:" in out


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not present")
def test_impact_over_the_corpus_runs_in_seconds():
    paths = sorted(str(p) for p in CORPUS.glob("*.jsonl"))
    start = time.perf_counter()
    d = run_json("rules", "diff", "2024-08-06", "latest", "--impact", *paths)
    elapsed = time.perf_counter() - start
    m = d["impact"]
    assert m["errors"] == [] and m["counts"]["tools"] > 1000
    # The widening and the raised limits let many tools go strict.
    assert any(o["from"] == "non-strict" and o["to"] == "strict" for o in m["outcomes"])
    assert elapsed < 15, elapsed
