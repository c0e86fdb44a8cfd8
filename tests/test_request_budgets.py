"""Budgets belong to a request: a tool that exceeds a budget of strict tools on its own is never sent
strict (compile_tool, every mode), and a CLI run over files is a set of definitions (the budgets it
would exceed sent together are noted once) unless --request makes it one request."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import toolcast
from toolcast.budgets import strict_budgets
from toolcast.cli.main import main
from toolcast.compile import compile_request
from toolcast.rules import get_rules


def _optional_tool(n: int, name: str = "many_optional") -> dict:
    """An Anthropic tool with `n` optional parameters (closed, so nothing else keeps it from strict)."""
    props = {f"o{i}": {"type": "string"} for i in range(n)}
    return {"name": name, "description": "d",
            "input_schema": {"type": "object", "properties": props, "additionalProperties": False}}


def _union_tool(n: int, name: str = "many_unions", type_list: bool = False) -> dict:
    """An Anthropic tool with `n` required union-typed parameters (anyOf, or a list of types)."""
    union = {"type": ["string", "integer"]} if type_list else {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    props = {f"u{i}": dict(union) for i in range(n)}
    return {"name": name, "description": "d",
            "input_schema": {"type": "object", "properties": props, "required": list(props),
                             "additionalProperties": False}}


def _codes(res: toolcast.CompileResult) -> list[str]:
    return [d.code for d in res.diagnostics]


# -- a tool that alone exceeds a budget of strict tools ------------------------------------------

ALONE = [
    (_optional_tool(30), "anthropic/too-many-optional-parameters", "max_optional_parameters (30 > 24)"),
    (_union_tool(20), "anthropic/too-many-union-parameters", "max_union_parameters (20 > 16)"),
    (_union_tool(20, type_list=True), "anthropic/too-many-union-parameters", "max_union_parameters (20 > 16)"),
]


@pytest.mark.parametrize("rules", ["2025-11-14", "2026-01-29"])
@pytest.mark.parametrize("tool,code,why", ALONE)
def test_a_tool_past_a_strict_budget_alone_is_sent_non_strict_under_auto(tool, code, why, rules):
    res = toolcast.compile_tool(tool, target="anthropic", rules=rules)
    assert res.status == "non-strict"
    assert res.tool is not None and res.tool.get("strict") is not True
    assert res.tool["input_schema"] == tool["input_schema"]  # its original schema, as a non-strict compile sends it
    assert code in _codes(res)
    (reason,) = [d for d in res.diagnostics if d.code == "anthropic/sent-non-strict"]
    assert why in reason.message and "on its own" in reason.message
    assert res.null_paths == ()


@pytest.mark.parametrize("tool,code,why", ALONE)
def test_a_tool_past_a_strict_budget_alone_is_refused_under_strict_true(tool, code, why):
    res = toolcast.compile_tool(tool, target="anthropic", strict=True)
    assert res.status == "refused" and res.tool is None
    assert code in _codes(res)
    assert "anthropic/sent-non-strict" not in _codes(res)
    # At the limit itself, the tool stays strict.
    at_limit = _optional_tool(24) if "optional" in code else _union_tool(16)
    assert toolcast.compile_tool(at_limit, target="anthropic", strict=True).status == "strict"


@pytest.mark.parametrize("rules", ["2025-11-14", "2026-01-29"])
def test_a_tool_past_a_strict_budget_whose_original_cannot_be_sent_is_refused_with_both_reasons(rules):
    """The strict form drops a subschema that cannot apply (`items` beside an object root), the form
    sent without strict keeps it, and it names a remote `$ref`, which is never fetched: past the
    budget, the tool is refused, saying why for each form, and never "non-strict" with nothing sent."""
    tool = _optional_tool(30)
    tool["input_schema"]["items"] = {"$ref": "https://example.com/elsewhere.json"}
    res = toolcast.compile_tool(tool, target="anthropic", rules=rules)
    assert res.status == "refused" and res.tool is None
    assert {"anthropic/too-many-optional-parameters", "anthropic/external-ref"} <= set(_codes(res))
    assert "anthropic/sent-non-strict" not in _codes(res)
    # Past the request's total, the same: the third tool goes over it and its original cannot be sent.
    third = _optional_tool(10, "third")
    third["input_schema"]["items"] = {"$ref": "https://example.com/elsewhere.json"}
    req = compile_request([_optional_tool(10, "first"), _optional_tool(10, "second"), third, _optional_tool(2, "small")],
                          target="anthropic", rules=rules)
    assert [r.status for r in req.results] == ["strict", "strict", "refused", "strict"]
    assert {"anthropic/too-many-optional-parameters", "anthropic/external-ref"} <= set(_codes(req.results[2]))
    assert [t["name"] for t in req.tools] == ["first", "second", "small"]


def test_a_request_does_not_report_a_tool_demoted_alone_twice():
    """Demoted by its own counts, the tool counts as non-strict in the request: one budget finding, and
    it leaves the request's strict budgets to the others."""
    small = [_optional_tool(10, "a"), _optional_tool(10, "b")]
    req = compile_request([small[0], _optional_tool(30), small[1]], target="anthropic")
    assert [r.status for r in req.results] == ["strict", "non-strict", "strict"]
    assert _codes(req.results[1]).count("anthropic/too-many-optional-parameters") == 1
    (reason,) = [d for d in req.results[1].diagnostics if d.code == "anthropic/sent-non-strict"]
    assert reason.message.endswith("max_optional_parameters (30 > 24) on its own.")  # (the tool's rule, not the request's)
    assert req.usage[1] == ()
    used = {u.budget: (u.used, u.total) for u in req.usage[2]}
    assert used["max_optional_parameters"] == (10, 20)
    refused = compile_request([_optional_tool(30)], target="anthropic", strict=True).results[0]
    assert refused.status == "refused" and _codes(refused).count("anthropic/too-many-optional-parameters") == 1


def test_each_compile_reads_the_strict_budgets_of_its_own_rules_when_rule_versions_alternate():
    """budgets.strict_budgets keeps the last rule version's answer beside its per-version cache: a
    compile under another version in between, or a version whose budgets were replaced, must not be
    answered with it."""
    anthropic, openai = get_rules(None, "anthropic"), get_rules(None, "openai")
    unbudgeted = copy.copy(anthropic)
    unbudgeted.budgets = {}
    assert [strict_budgets(r) for r in (anthropic, openai, openai, anthropic, unbudgeted, anthropic)] == [
        True, False, False, True, False, True]
    big = _optional_tool(30)
    as_openai = {"name": big["name"], "parameters": big["input_schema"]}
    for _ in range(2):
        assert toolcast.compile_tool(big, target="anthropic").status == "non-strict"  # (past max_optional_parameters)
        assert toolcast.compile_tool(as_openai, target="openai").status == "strict"
        assert toolcast.compile_tool(big, target="anthropic", rules=unbudgeted).status == "strict"


# -- the CLI: a set of definitions, or with --request one request --------------------------------

def _tool_files(tmp_path, n: int = 200):
    d = tmp_path / "tools"
    d.mkdir()
    for i in range(n):
        tool = {"name": f"t{i:03}", "description": "d",
                "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
                                "additionalProperties": False}}
        (d / f"t{i:03}.json").write_text(json.dumps(tool), encoding="utf-8")
    return str(d)


def _summary(out: str) -> str:
    return next(line for line in out.splitlines() if " tool(s): " in line)


def test_cli_openai_run_over_200_files_is_a_set_of_definitions(tmp_path, capsys):
    tools = _tool_files(tmp_path)
    for command in ("compile", "check"):
        assert main([command, tools, "--target", "openai", "--summary"]) == 0
        out = capsys.readouterr().out
        assert _summary(out) == "200 tool(s): 200 strict, 0 non-strict, 0 refused"
        lines = out.splitlines()
        assert lines[-1] == "note: sent together in one request, these tools would exceed: max_tools (200 > 128)"
        assert lines[-2] == _summary(out)
        assert out.count("note: sent together") == 1
        assert "openai/too-many-tools" not in out


def test_cli_openai_run_with_request_refuses_past_128(tmp_path, capsys):
    tools = _tool_files(tmp_path)
    assert main(["compile", tools, "--target", "openai", "--request", "--format", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    statuses = [r["status"] for r in doc["results"]]
    assert statuses.count("refused") == 72 and statuses[:128] == ["strict"] * 128
    assert all("openai/too-many-tools" in {d["code"] for d in r["diagnostics"]} for r in doc["results"][128:])
    assert "request_budgets" not in doc
    assert main(["compile", tools, "--request", "--summary"]) == 1
    out = capsys.readouterr().out
    assert _summary(out) == "200 tool(s): 128 strict, 0 non-strict, 72 refused" and "note:" not in out


def test_cli_anthropic_run_sends_every_tool_strict_and_notes_the_budget(tmp_path, capsys):
    tools = _tool_files(tmp_path)
    assert main(["compile", tools, "--target", "anthropic", "--summary"]) == 0
    out = capsys.readouterr().out
    assert _summary(out) == "200 tool(s): 200 strict, 0 non-strict, 0 refused"
    assert out.splitlines()[-1] == ("note: sent together in one request, these tools would exceed: "
                                    "max_strict_tools (200 > 20)")
    assert main(["compile", tools, "--target", "anthropic", "--request", "--summary"]) == 0
    out = capsys.readouterr().out
    assert _summary(out) == "200 tool(s): 20 strict, 180 non-strict, 0 refused" and "note:" not in out
    assert main(["compile", tools, "--target", "anthropic", "--request", "--strict", "true", "--summary"]) == 1
    assert _summary(capsys.readouterr().out) == "200 tool(s): 20 strict, 0 non-strict, 180 refused"


def test_cli_json_reports_the_request_budgets_once(tmp_path, capsys):
    tools = _tool_files(tmp_path)
    assert main(["compile", tools, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["summary"]["strict"] == 200
    assert doc["request_budgets"] == [{"budget": "max_tools", "code": "openai/too-many-tools", "count": 200,
                                       "limit": 128}]
    assert main(["check", tools, "--target", "anthropic", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["request_budgets"] == [{"budget": "max_strict_tools", "code": "anthropic/too-many-strict-tools",
                                       "count": 200, "limit": 20}]
    # Within every budget, the run says nothing of them.
    (tmp_path / "few").mkdir()
    few = _tool_files(tmp_path / "few", 3)
    assert main(["compile", few, "--format", "json"]) == 0
    assert "request_budgets" not in json.loads(capsys.readouterr().out)
    assert main(["compile", few]) == 0
    assert "note:" not in capsys.readouterr().out


def test_cli_notes_parameter_budgets_summed_over_the_run(tmp_path, capsys):
    """Each tool within every budget alone, the run's optional parameters summed past Anthropic's 24."""
    d = tmp_path / "tools"
    d.mkdir()
    for name in ("a", "b"):
        (d / f"{name}.json").write_text(json.dumps(_optional_tool(20, name)), encoding="utf-8")
    assert main(["compile", str(d), "--target", "anthropic", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in doc["results"]] == ["strict", "strict"]
    assert doc["request_budgets"] == [{"budget": "max_optional_parameters",
                                       "code": "anthropic/too-many-optional-parameters", "count": 40, "limit": 24}]
    assert main(["compile", str(d), "--target", "anthropic", "--request", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in doc["results"]] == ["strict", "non-strict"] and "request_budgets" not in doc


def test_cli_sarif_and_github_note_the_budgets(tmp_path, capsys):
    tools = _tool_files(tmp_path)
    assert main(["check", tools, "--format", "sarif"]) == 0
    log = json.loads(capsys.readouterr().out)
    jsonschema = pytest.importorskip("jsonschema")
    schema = Path(__file__).resolve().parent / "schemas" / "sarif-schema-2.1.0.json"
    jsonschema.Draft4Validator(json.loads(schema.read_text(encoding="utf-8"))).validate(log)
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is True
    (note,) = invocation["toolExecutionNotifications"]
    assert note["level"] == "note" and note["descriptor"] == {"id": "toolcast/request-budgets"}
    assert "max_tools (200 > 128)" in note["message"]["text"]
    assert not any(r["ruleId"] == "openai/too-many-tools" for r in log["runs"][0]["results"])
    assert main(["check", tools, "--format", "github"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == ("::notice title=toolcast request budgets::sent together in one request, "
                                    "these tools would exceed: max_tools (200 > 128)")


def test_cli_a_tool_past_a_budget_alone_is_demoted_in_both_modes(tmp_path, capsys):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(_optional_tool(30)), encoding="utf-8")
    for extra in ([], ["--request"]):
        assert main(["compile", str(path), "--target", "anthropic", "--format", "json", *extra]) == 0
        (res,) = json.loads(capsys.readouterr().out)["results"]
        assert res["status"] == "non-strict"
        assert "anthropic/too-many-optional-parameters" in {d["code"] for d in res["diagnostics"]}
        assert main(["compile", str(path), "--target", "anthropic", "--strict", "true", *extra]) == 1
        capsys.readouterr()
