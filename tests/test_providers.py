"""Targets other than OpenAI: the policy actions their specs select, request budgets, the official
SDKs' typed params, and the corpus and large schemas through every target with its oracle."""

from __future__ import annotations

import copy

import pytest
from oracles import anthropic as anthropic_oracle
from oracles import gemini as gemini_oracle
from rule_facts import limit_entry, rules_of, unlimited_target
from sdk_checks import sdk_round_trip
from test_corpora import CORPUS, corpus_report

import toolcast
from toolcast.compile import compile_request

TARGETS = ("openai", "anthropic", "gemini", "vertex")


def _tool(schema: dict, name: str = "t") -> dict:
    return {"name": name, "description": "d", "inputSchema": schema}


def _codes(res: toolcast.CompileResult) -> list[tuple[str, str]]:
    return [(d.code, d.path) for d in res.diagnostics]


# -- policy actions a spec selects ------------------------------------------------------------

def test_optional_properties_allowed_keeps_them_optional_without_null_paths():
    schema = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"],
              "additionalProperties": False}
    res = toolcast.compile_tool(_tool(schema), target="anthropic")
    assert res.status == "strict" and res.null_paths == ()
    assert res.tool["input_schema"]["required"] == ["a"]
    assert res.tool["input_schema"]["properties"]["b"] == {"type": "integer"}  # no null added
    # OpenAI's policy, on the same tool, still makes it required and nullable.
    res = toolcast.compile_tool(_tool(schema))
    assert res.null_paths == (("b",),) and res.tool["parameters"]["required"] == ["a", "b"]


def test_recursion_refused_where_the_spec_says_so():
    schema = {"type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}, "required": ["n"],
              "$defs": {"N": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/N"}, {"type": "null"}]}},
                              "required": ["next"], "additionalProperties": False}}}
    for target, code in (("anthropic", "anthropic/recursive-schema"), ("gemini", "gemini/recursive-schema")):
        res = toolcast.compile_tool(_tool(schema), target=target, strict=True)
        assert res.status == "refused" and (code, "#/$defs/N") in _codes(res)
    assert toolcast.compile_tool(_tool(schema)).status == "strict"  # OpenAI supports recursion


def test_property_keys_refuse_in_every_mode():
    schema = {"type": "object", "properties": {"$.xgafv": {"type": "string"}}}
    res = toolcast.compile_tool(_tool(schema), target="anthropic")
    assert res.status == "refused" and ("anthropic/property-key-invalid", "#/properties/$.xgafv") in _codes(res)
    assert "^[a-zA-Z0-9_.-]{1,64}$" in next(d.message for d in res.diagnostics if d.code.endswith("key-invalid"))
    assert toolcast.compile_tool(_tool(schema)).status == "strict"


@pytest.mark.parametrize("target,api", (("anthropic", None), ("vertex", "json-schema")))
def test_property_keys_refuse_where_the_original_schema_is_sent(target, api):
    """A tool sent with its original schema sends every property name in it: with strict off (not
    walked), or under auto where the name sits in a place the walk dropped (`not`), a name the
    provider rejects refuses the tool rather than failing the request."""
    key = {"type": "object", "properties": {"$.xgafv": {"type": "string"}}}
    res = toolcast.compile_tool(_tool(key), target=target, api=api, strict=False)
    assert res.status == "refused" and res.tool is None
    assert (f"{target}/property-key-invalid", "#/properties/$.xgafv") in _codes(res)
    hidden = {"type": "object", "properties": {"n": {"not": {"type": "object", "properties": {"a b": {}}}}}}
    for strict in ("auto", False):
        res = toolcast.compile_tool(_tool(hidden), target=target, api=api, strict=strict)
        assert res.status == "refused", strict
        assert (f"{target}/property-key-invalid", "#/properties/n/not/properties/a b") in _codes(res)
    fine = {"type": "object", "properties": {"n": {"not": {"type": "object", "properties": {"a.b": {}}}}}}
    assert toolcast.compile_tool(_tool(fine), target="anthropic", strict=False).status == "non-strict"
    assert toolcast.compile_tool(_tool(key), strict=False).status == "non-strict"  # (OpenAI: no key rule)


SENT_AS = {"openai": "parameters", "anthropic": "input_schema", "gemini": "parametersJsonSchema",
           "vertex": "parametersJsonSchema"}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("root,sent", [
    ({"properties": {"a": {"type": "string"}}, "patternProperties": {"^x": {}}},  # (an open map: non-strict)
     {"type": "object", "properties": {"a": {"type": "string"}}, "patternProperties": {"^x": {}}}),
    ({"description": "no parameters"}, {"type": "object", "description": "no parameters"}),
    ({}, {"type": "object"}),
    (True, {"type": "object", "properties": {}}),
])
def test_an_original_schema_is_sent_with_its_root_typed(target, root, sent):
    """Every provider's rules require an object root (Anthropic rejects an input_schema without
    `type`): the original schema a non-strict tool is sent with gains the type it did not say, and
    the change is reported as applied."""
    api = "json-schema" if target in ("gemini", "vertex") else None
    before = copy.deepcopy(root)
    for strict in (False, "auto"):
        res = toolcast.compile_tool(_tool(root), target=target, api=api, strict=strict)
        if res.status == "strict":  # (auto: a tool without parameters goes strict)
            assert strict == "auto" and (before is True or "properties" not in before)
            continue
        assert res.status == "non-strict", (strict, _codes(res))
        assert res.tool[SENT_AS[target]] == sent
        assert any(t.code == "inferred-type" and t.applied for t in res.transformations)
        assert root == before  # (the input is left as it was)


def test_enum_value_types():
    schema = {"type": "object", "properties": {"b": {"type": "boolean", "enum": [True]}}, "required": ["b"],
              "additionalProperties": False}
    res = toolcast.compile_tool(_tool(schema), target="gemini", api="json-schema", strict=True)
    assert res.status == "refused" and ("gemini/enum-value-type-unsupported", "#/properties/b/enum") in _codes(res)
    assert toolcast.compile_tool(_tool(schema), target="anthropic").status == "strict"


def test_a_counter_without_limit_is_unbounded():
    # One property past OpenAI's limit (read from its default rules); a target whose rules document no
    # such limit counts them without bound.
    cap = limit_entry("properties")
    assert cap is not None
    n = cap.value + 1
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(n)},
            "required": [f"p{i}" for i in range(n)], "additionalProperties": False}
    openai = toolcast.compile_tool(_tool(wide))
    assert openai.status == "non-strict" and cap.code in {d.code for d in openai.diagnostics}
    free = unlimited_target("properties")
    assert toolcast.compile_tool(_tool(wide), target=free).status == "strict"
    assert rules_of(free).counted("properties").value > 10**9


def test_rules_of_another_provider_are_a_clear_error():
    with pytest.raises(ValueError, match="not anthropic's"):
        toolcast.compile_tool(_tool({"type": "object"}), target="anthropic", rules="openai@2026-10-17")
    with pytest.raises(ValueError, match="unknown api 'chat' for target 'anthropic'"):
        toolcast.compile_tool(_tool({"type": "object"}), target="anthropic", api="chat")
    res = toolcast.compile_tool(_tool({"type": "object"}), target="anthropic", rules="2025-11-14")
    assert res.rules == "anthropic@2025-11-14"


# -- request budgets ----------------------------------------------------------------------------

def _closed(n_optional: int = 0, name: str = "t") -> dict:
    props = {"r": {"type": "string"}, **{f"o{i}": {"type": "string"} for i in range(n_optional)}}
    return _tool({"type": "object", "properties": props, "required": ["r"], "additionalProperties": False}, name)


def test_budgets_are_reported_per_tool_in_input_order():
    req = compile_request([_closed(10, "a"), _closed(20, "b"), _closed(5, "c")], target="anthropic")
    assert [r.status for r in req.results] == ["strict", "non-strict", "strict"]
    assert ("anthropic/too-many-optional-parameters", "#") in _codes(req.results[1])
    assert req.results[1].tool is not None and "strict" not in req.results[1].tool
    used = {u.budget: (u.used, u.total) for u in req.usage[2]}
    assert used == {"max_strict_tools": (1, 2), "max_optional_parameters": (5, 15)}
    assert req.usage[1] == ()  # the non-strict tool uses no strict budget
    strict_true = toolcast.compile_tools([_closed(10, "a"), _closed(20, "b")], target="anthropic", strict=True)
    assert [r.status for r in strict_true] == ["strict", "refused"] and strict_true[1].tool is None


def _applied(res: toolcast.CompileResult) -> dict[str, bool]:
    return {f.code: f.applied for f in (*res.diagnostics, *res.transformations)}


def test_a_request_reports_the_changes_of_a_tool_it_demotes_or_refuses_as_not_applied():
    """A tool sent non-strict or refused by a budget, or refused as a repeated name, sends none of the
    fixes of its strict form: as when the walk decides it, they are `applied: false`."""
    open_tool = _tool({"type": "object", "properties": {"a": {"type": "string"}}}, "t20")
    tools = [_closed(0, f"t{i}") for i in range(20)]
    for strict, status in (("auto", "non-strict"), (True, "refused")):
        res = compile_request([*tools, open_tool], target="anthropic", strict=strict).results[20]
        applied = _applied(res)
        assert res.status == status and "additionalProperties" not in str(res.tool)
        assert applied["anthropic/object-missing-additional-properties"] is False
        assert applied["added-additional-properties-false"] is False
        assert applied["anthropic/too-many-strict-tools"] is True  # (no change: applies to the tool)
        assert res.to_dict()["transformations"][-1]["applied"] is False
    demoted = compile_request([*tools, open_tool], target="anthropic").results[20]
    assert _applied(demoted)["renamed-input-schema-to-parameters"] is True  # its input_schema is sent
    many = [_tool({"type": "object", "properties": {"a": {"type": "string"}}}, f"t{i}") for i in range(129)]
    assert _applied(toolcast.compile_tools(many)[128])["openai/object-missing-additional-properties"] is False
    repeated = toolcast.compile_tools([open_tool, open_tool], target="openai")[1]
    assert repeated.status == "refused"
    assert _applied(repeated)["openai/strict-optional-property"] is False


def test_a_tool_a_budget_demotes_reports_the_changes_of_the_schema_it_sends():
    """Demoted past Anthropic's strict tools, a tool whose root said no type is sent its original
    schema with the type: that change is reported, applied."""
    typeless = _tool({"properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False},
                     "t20")
    tools = [_closed(0, f"t{i}") for i in range(20)]
    res = compile_request([*tools, typeless], target="anthropic").results[20]
    assert res.status == "non-strict" and res.tool["input_schema"]["type"] == "object"
    sent = [t for t in res.transformations if t.code == "inferred-type" and t.applied]
    assert [t.path for t in sent] == ["#/type"]


def test_openai_tools_budget_refuses_in_every_mode():
    tools = [_closed(0, f"t{i}") for i in range(129)]
    for strict in ("auto", False):
        res = toolcast.compile_tools(tools, strict=strict)
        assert res[127].status != "refused" and res[128].status == "refused"
        assert ("openai/too-many-tools", "#") in _codes(res[128])


def test_openai_loop_tools_are_one_request():
    """openai.tools gives one request's `tools`, as anthropic.tools and gemini.tools do: the tools past
    OpenAI's 128 are left out (reported in `excluded`), not sent to fail the whole request."""
    import toolcast.openai

    toolset, _ = toolcast.ToolSet.build({"s": [{"name": f"t{i}", "inputSchema": {"type": "object"}} for i in range(130)]})
    for api in ("responses", "chat"):
        tools, report = toolcast.openai.tools(toolset, api=api)
        assert len(tools) == 128 and [e.name for e in report.excluded] == ["s__t128", "s__t129"]
        assert report.excluded[0].codes == ("openai/too-many-tools",)


def test_cli_applies_budgets_over_one_invocation_with_request(tmp_path, capsys):
    """With --request the invocation is one request (without it, a set of definitions: see
    tests/test_request_budgets.py)."""
    import json

    from toolcast.cli.main import main

    path = tmp_path / "tools.json"
    path.write_text(json.dumps([_closed(0, f"t{i}") for i in range(21)]), encoding="utf-8")
    assert main(["compile", str(path), "--target", "anthropic", "--format", "json", "--request"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in doc["results"]].count("strict") == 20
    assert doc["results"][20]["status"] == "non-strict" and doc["target"] == "anthropic"
    assert main(["compile", str(path), "--target", "anthropic", "--rules", "openai@2026-10-17"]) == 2


def test_gemini_request_tools_entry():
    req = compile_request([_closed(0, "a"), _closed(1, "b")], target="gemini")
    assert req.tools == [{"functionDeclarations": [r.tool for r in req.results]}]
    assert gemini_oracle.request_violations(req.tools) == []
    openai_req = compile_request([_closed(0, "a")])
    assert openai_req.tools == [openai_req.results[0].tool]  # OpenAI's tools are the list itself


# -- the official SDKs accept every emitted tool ------------------------------------------------

def _sdk_check(target: str):
    if target == "anthropic":
        anthropic_types = pytest.importorskip("anthropic.types")
        from pydantic import TypeAdapter

        adapter = TypeAdapter(anthropic_types.ToolParam)
        return lambda tool: adapter.validate_python(tool)
    genai_types = pytest.importorskip("google.genai.types")
    return lambda tool: genai_types.FunctionDeclaration.model_validate(tool)


def _corpus_tools() -> list[dict]:
    tools = []
    for _, batch in corpus_report.corpus_sets(CORPUS):
        tools.extend(batch)
    return tools


needs_corpus = pytest.mark.skipif(not (CORPUS / "mcp.jsonl").is_file(), reason="shared corpus not found")


@needs_corpus
@pytest.mark.parametrize("target,api", (("anthropic", None), ("gemini", "json-schema"), ("vertex", "json-schema"),
                                        ("gemini", "parameters"), ("vertex", "parameters")))
def test_corpus_through_every_target(target, api):
    """Every corpus tool and large schema compiles without a crash; every strict output passes the
    target's oracle (every `parameters` declaration, strict or not: it carries the converted
    Schema); the official SDK's typed params accept every emitted tool (and, for `parameters`,
    give it back unchanged)."""
    check = _sdk_check(target)
    outcomes = {"strict": 0, "non-strict": 0, "refused": 0}
    for tool in _corpus_tools():
        res = toolcast.compile_tool(tool, target=target, api=api)
        outcomes[res.status] += 1
        if res.tool is None:
            continue
        check(res.tool)
        if api == "parameters":
            found = gemini_oracle.declaration_violations(res.tool, target)
            assert found == [], (tool["name"], found)
            assert sdk_round_trip(res.tool) == res.tool, tool["name"]
            continue
        if res.status != "strict":
            continue
        if target == "anthropic":
            assert anthropic_oracle.tool_violations(res.tool) == [], (tool["name"], anthropic_oracle.tool_violations(res.tool))
        else:
            found = gemini_oracle.declaration_violations(res.tool, target)
            assert found == [], (tool["name"], found)
    assert outcomes["strict"] > 0.3 * sum(outcomes.values()), outcomes


@needs_corpus
def test_anthropic_budgets_hold_over_the_corpus_as_one_request():
    req = compile_request(_corpus_tools(), target="anthropic")
    sent = [r.tool for r in req.results if r.tool is not None]
    assert anthropic_oracle.request_violations(sent) == []
    assert sum(r.status == "strict" for r in req.results) == 20


# -- the compatibility matrix and cross-provider diffs ----------------------------------------

def test_rules_matrix_formats_and_cells(capsys):
    import json

    from toolcast.cli.main import main

    assert main(["rules", "matrix", "--format", "json"]) == 0
    m = json.loads(capsys.readouterr().out)
    assert {"anthropic@2026-01-29", "gemini@2025-11-05", "vertex@2025-11-05", "openai@2026-10-17"} <= set(m["columns"])
    assert m["keywords"]["minLength"]["anthropic@2026-01-29"]["state"] == "dropped-with-loss"
    assert m["keywords"]["minLength"]["openai@2026-10-17"]["state"] == "kept"
    assert m["keywords"]["oneOf"]["gemini@2025-11-05"] == {"state": "converted", "detail": "one-of-to-any-of"}
    assert m["keywords"]["title"]["openai@2024-08-06"]["state"] == "dropped-without-loss"
    assert m["budgets"]["strict-tools"]["anthropic@2026-01-29"] == 20 and m["budgets"]["tools"]["openai@2026-10-17"] == 128
    assert m["limits"]["properties"]["anthropic@2026-01-29"] is None
    assert m["policy"]["optional_properties"]["anthropic@2026-01-29"] == "allowed"
    for fmt in ("text", "markdown"):
        assert main(["rules", "matrix", "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert "anthropic@2026-01-29" in out and "request: strict-tools" in out


def test_docs_matrix_is_generated_and_checked(tmp_path):
    import importlib.util

    from test_corpora import ROOT

    spec = importlib.util.spec_from_file_location("gen_tables_m", ROOT / "tools" / "gen_tables.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    from toolcast import matrix

    committed = (ROOT / "docs" / "matrix.md").read_text(encoding="utf-8")
    assert committed.endswith(matrix.render(matrix.of_all(), "markdown"))
    docs = tmp_path / "codes.md"
    out = tmp_path / "tables"
    assert gen.main(["--out", str(out), "--docs", str(docs)]) == 0
    assert (tmp_path / "matrix.md").read_text(encoding="utf-8") == committed
    (tmp_path / "matrix.md").write_text("stale\n", encoding="utf-8")
    assert gen.main(["--check", "--out", str(out), "--docs", str(docs)]) == 1


def test_rules_diff_across_providers_with_impact(tmp_path, capsys):
    import json

    from toolcast.cli.main import main

    path = tmp_path / "t.json"
    path.write_text(json.dumps(_tool({"type": "object", "properties": {"s": {"type": "string", "minLength": 1}},
                                      "required": ["s"]})), encoding="utf-8")
    assert main(["rules", "diff", "anthropic@2026-01-29", "openai@2026-10-17", "--impact", str(path),
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    text = json.dumps(doc)
    assert "minLength" in text and "anthropic/unsupported-keyword" in text


@needs_corpus
def test_target_report_is_fresh_and_without_crashes():
    import importlib.util

    from test_corpora import ROOT

    spec = importlib.util.spec_from_file_location("target_report", ROOT / "tools" / "target_report.py")
    report = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(report)
    stats = report.collect(CORPUS)
    # Every target under each of its APIs (labelled "gemini (parameters)" and so on).
    # every registered target, issue 40's data-only ones (mcp, deepseek, ...) included
    from toolcast.providers import EMITTERS

    assert {t.split(" ")[0] for _, t in stats} == set(EMITTERS) and all(s["crashes"] == 0 for s in stats.values())
    assert {"gemini (parameters)", "vertex (json-schema)"} <= {t for _, t in stats}
    assert (ROOT / "docs" / "target-report.md").read_text(encoding="utf-8") == report.render(stats), (
        "docs/target-report.md is stale: run python tools/target_report.py")


def test_a_provider_name_alone_is_its_default_version():
    from toolcast.rules import parse_spec

    assert parse_spec("vertex") == ("vertex", "2025-11-05")
    assert parse_spec("anthropic") == ("anthropic", "2026-01-29")
    assert parse_spec("2025-11-14", "anthropic") == ("anthropic", "2025-11-14")
