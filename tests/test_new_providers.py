"""The providers added as data in issue 40 (spec/mcp, spec/deepseek, spec/xai, spec/mistral, spec/bedrock):
each is a compile target built from its YAML alone, its rules follow its cited facts
(docs/provider-facts-more.md), and the whole corpus goes through it with zero crashes and every emitted
tool accepted by the target's independent oracle (tests/oracles/more.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from oracles import bedrock as bedrock_oracle
from oracles import deepseek as deepseek_oracle
from oracles import mcp as mcp_oracle
from oracles import xai as xai_oracle
from oracles.more import TARGETS, violations
from oracles.more_schema import properties_of, walk
from rule_facts import limit, limit_entry

import toolcast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import corpus_report

WEATHER = {"name": "get_weather", "description": "Weather for a city.",
           "inputSchema": {"type": "object", "properties": {"city": {"type": "string"},
                                                            "unit": {"type": "string", "enum": ["c", "f"]}},
                           "required": ["city"]}}


def _with(prop: dict, name: str = "t", **root) -> dict:
    return {"name": name, "description": "d",
            "inputSchema": {"type": "object", "properties": {"p": prop}, "required": ["p"], **root}}


def _codes(res) -> set[str]:
    return {str(d.code) for d in res.diagnostics}


# ---------------------------------------------------------------------------------------- the corpus

@pytest.fixture(scope="module")
def corpus() -> list[tuple[str, list[dict]]]:
    return corpus_report.corpus_sets(corpus_report.default_corpus())


@pytest.mark.parametrize("target", TARGETS)
def test_corpus_compiles_without_crash_and_passes_the_oracle(corpus, target: str) -> None:
    crashes, rejected, statuses = [], [], {"strict": 0, "non-strict": 0, "refused": 0}
    for set_name, tools in corpus:
        for i, tool in enumerate(tools):
            try:
                res = toolcast.compile_tool(tool, target=target)
            except Exception as exc:  # counted, never hidden
                crashes.append((set_name, i, repr(exc)[:200]))
                continue
            statuses[res.status] += 1
            if res.tool is not None:
                found = [v for v in violations(res.tool, target, res.status, res.rules)]
                if found:
                    rejected.append((set_name, tool.get("name"), res.status, found[:3]))
    assert not crashes, crashes[:5]
    assert not rejected, rejected[:5]
    assert statuses["strict"] + statuses["non-strict"] > 0


def _boolean_properties(tool: dict) -> bool:
    schema = tool.get("inputSchema", tool.get("parameters", tool.get("input_schema")))
    return any(v is True or v is False for _, node in walk(schema) for v in properties_of(node).values())


def test_the_corpus_reaches_xai_and_mcp_2025_without_what_they_reject(corpus) -> None:
    """The corpus holds `true`/`false` property schemas (xAI and MCP 2025-11-25 reject them; xAI also
    maxContains/minContains and empty enum/anyOf): each tool either is refused or is sent as its
    oracle accepts, MCP 2025-11-25 included (the corpus test above checks the default, 2026-07-28)."""
    hits = [t for _, tools in corpus for t in tools if _boolean_properties(t)]
    assert hits, "no corpus tool has a boolean property schema any more: this test covers nothing"
    rejected = []
    for _, tools in corpus:
        for tool in tools:
            res = toolcast.compile_tool(tool, target="mcp", rules="mcp@2025-11-25")
            if res.tool is not None and mcp_oracle.tool_violations(res.tool, "2025-11-25"):
                rejected.append(("mcp@2025-11-25", tool.get("name"), mcp_oracle.tool_violations(res.tool, "2025-11-25")[:2]))
    for tool in hits:
        res = toolcast.compile_tool(tool, target="xai")
        assert res.tool is not None and res.status == "non-strict", (tool.get("name"), _codes(res))
        assert "wrote-boolean-property-schema" in {str(t.code) for t in res.transformations}
        assert not xai_oracle.sent_violations(res.tool)
    assert not rejected, rejected[:5]


def _sent(tool: dict, target: str = "xai", rules: str | None = None):
    res = toolcast.compile_tool(tool, target=target, rules=rules, strict="false")
    return res, (None if res.tool is None else res.tool.get("inputSchema") or res.tool["function"]["parameters"])


def test_xai_sent_form_writes_boolean_property_schemas_as_objects_anywhere() -> None:
    tool = _with({"type": "array", "items": {"type": "object", "properties": {"any": True, "never": False}}})
    res, schema = _sent(tool)
    item = schema["properties"]["p"]["items"]["properties"]
    assert item == {"any": {}, "never": {"not": {}}}
    assert not xai_oracle.sent_violations(res.tool)
    changes = {(str(t.code), t.path, t.lossy) for t in res.transformations}
    assert ("wrote-boolean-property-schema", "#/properties/p/items/properties/never", False) in changes
    # the input is never changed, and `additionalProperties: false` (a boolean, not a property) stays
    assert tool["inputSchema"]["properties"]["p"]["items"]["properties"]["any"] is True
    res, schema = _sent(_with({"type": "object", "additionalProperties": False, "properties": {"a": True}}))
    assert schema["properties"]["p"] == {"type": "object", "additionalProperties": False, "properties": {"a": {}}}


def test_xai_sent_form_drops_max_and_min_contains_as_lossy() -> None:
    prop = {"type": "array", "contains": {"type": "string"}, "minContains": 1, "maxContains": 3,
            "items": {"type": "object", "properties": {"maxContains": {"type": "integer"}}, "maxContains": 1}}
    res, schema = _sent(_with(prop, maxContains=2))
    assert res.status == "non-strict"
    assert schema["properties"]["p"] == {"type": "array", "contains": {"type": "string"},
                                         "items": {"type": "object", "properties": {"maxContains": {"type": "integer"}},
                                                   "additionalProperties": True}}
    assert "maxContains" not in schema
    assert not xai_oracle.sent_violations(res.tool)
    dropped = [(t.path, t.lossy) for t in res.transformations if str(t.code) == "dropped-sent-keyword"]
    assert dropped == [("#/maxContains", True), ("#/properties/p/minContains", True),
                       ("#/properties/p/maxContains", True), ("#/properties/p/items/maxContains", True)]


@pytest.mark.parametrize("prop", [{"type": "string", "enum": []}, {"anyOf": []},
                                  {"type": "object", "properties": {"q": {"type": "array", "items": {"enum": []}}}}])
def test_xai_refuses_an_empty_enum_or_any_of_in_every_form(prop: dict) -> None:
    for strict in ("false", "auto"):
        res = toolcast.compile_tool(_with(prop), target="xai", strict=strict)
        assert res.status == "refused" and res.tool is None
        # (an empty anyOf is no valid JSON Schema either: refused as such when the walk does not run)
        assert _codes(res) & {"xai/unsatisfiable-schema", "xai/invalid-keyword-value"}, _codes(res)


def test_mcp_2025_lists_boolean_property_schemas_as_objects_and_2026_as_written() -> None:
    tool = _with({"type": "object", "properties": {"a": True, "b": False}})
    res, schema = _sent(tool, "mcp", "mcp@2025-11-25")
    assert schema["properties"]["p"]["properties"] == {"a": {}, "b": {"not": {}}}
    assert not mcp_oracle.tool_violations(res.tool, "2025-11-25")
    res, schema = _sent(tool, "mcp", "mcp@2026-07-28")
    assert schema["properties"]["p"]["properties"] == {"a": True, "b": False}
    assert not mcp_oracle.tool_violations(res.tool, "2026-07-28")
    # MCP takes maxContains and an empty enum: nothing is dropped or refused there
    res, schema = _sent(_with({"type": "array", "maxContains": 1, "contains": {"enum": []}}), "mcp", "mcp@2025-11-25")
    assert schema["properties"]["p"]["maxContains"] == 1 and schema["properties"]["p"]["contains"] == {"enum": []}


# ---------------------------------------------------------------------------------------- MCP


def test_mcp_emits_a_tools_list_entry_with_no_strict_flag() -> None:
    res = toolcast.compile_tool(WEATHER, target="mcp")
    assert res.status == "strict"
    assert set(res.tool) == {"name", "description", "inputSchema"}
    schema = res.tool["inputSchema"]
    # optional properties stay optional and objects stay open: nothing narrows an MCP tool
    assert schema["required"] == ["city"] and "additionalProperties" not in schema
    assert not res.null_paths
    assert not mcp_oracle.tool_violations(res.tool, "2026-07-28")


@pytest.mark.parametrize(("name", "listed"), [("admin.tools.list", True), ("a" * 128, True), ("a" * 129, False),
                                              ("get weather", False), ("user/profile", False)])
def test_mcp_tool_names_follow_the_spec(name: str, listed: bool) -> None:
    res = toolcast.compile_tool({**WEATHER, "name": name}, target="mcp")
    assert (res.status != "refused") is listed, _codes(res)


def test_mcp_keeps_what_openai_strict_would_drop() -> None:
    tool = _with({"type": "string", "minLength": 2, "pattern": "^(?=a)", "format": "uri", "title": "P"})
    res = toolcast.compile_tool(tool, target="mcp")
    assert res.status == "strict", _codes(res)
    assert res.tool["inputSchema"]["properties"]["p"] == tool["inputSchema"]["properties"]["p"]


def test_mcp_writes_a_declared_draft_07_schema_as_2020_12() -> None:
    tool = {"name": "t", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                                         "properties": {"a": {"type": "array", "items": [{"type": "string"}]}}}}
    res = toolcast.compile_tool(tool, target="mcp")
    assert res.tool is not None
    assert not mcp_oracle.tool_violations(res.tool, "2026-07-28")
    if res.status == "strict":
        assert "$schema" not in res.tool["inputSchema"]


def test_mcp_refuses_a_non_object_root_and_an_external_reference() -> None:
    assert toolcast.compile_tool({"name": "t", "inputSchema": {"type": "string"}}, target="mcp").status == "refused"
    ext = _with({"$ref": "https://example.com/schema.json"})
    assert toolcast.compile_tool(ext, target="mcp").status == "refused"


def test_mcp_2026_07_28_keeps_x_mcp_header_and_2025_11_25_does_not() -> None:
    tool = _with({"type": "string", "x-mcp-header": "X-Region"})
    new = toolcast.compile_tool(tool, target="mcp", rules="mcp@2026-07-28")
    old = toolcast.compile_tool(tool, target="mcp", rules="mcp@2025-11-25")
    assert new.status == "strict" and new.tool["inputSchema"]["properties"]["p"]["x-mcp-header"] == "X-Region"
    # an unknown keyword to 2025-11-25 (an annotation it gives no meaning): dropped, reported
    assert "x-mcp-header" not in old.tool["inputSchema"]["properties"]["p"]
    assert "mcp/unknown-keyword" in _codes(old)


# ---------------------------------------------------------------------------------------- DeepSeek


def test_deepseek_strict_tool_is_closed_all_required_in_the_chat_shape() -> None:
    res = toolcast.compile_tool(WEATHER, target="deepseek")
    assert res.status == "strict"
    fn = res.tool["function"]
    assert res.tool["type"] == "function" and fn["strict"] is True
    assert fn["parameters"]["additionalProperties"] is False
    assert set(fn["parameters"]["required"]) == {"city", "unit"}
    assert [list(p) for p in res.null_paths] == [["unit"]]
    assert not deepseek_oracle.tool_violations(res.tool)


@pytest.mark.parametrize(("prop", "strict"), [
    ({"type": "string", "format": "email"}, True),       # one of the five formats
    ({"type": "string", "format": "date-time"}, False),  # not among them (OpenAI's is)
    ({"type": "string", "minLength": 1}, False),         # named unsupported
    ({"type": "array", "items": {"type": "string"}, "maxItems": 3}, False),  # named unsupported
    ({"type": "integer", "minimum": 1, "maximum": 5}, True),
    ({"type": "string", "pattern": "^\\d{6}$"}, True),
])
def test_deepseek_keywords_follow_its_guide(prop: dict, strict: bool) -> None:
    res = toolcast.compile_tool(_with(prop), target="deepseek")
    assert (res.status == "strict") is strict, _codes(res)


def test_deepseek_allows_recursion_and_has_no_openai_limits() -> None:
    node = {"type": "object", "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}, "required": ["v", "kids"]}
    rec = {"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"n": {"$ref": "#/$defs/node"}},
                                                             "required": ["n"], "$defs": {"node": node}}}
    assert toolcast.compile_tool(rec, target="deepseek").status == "strict"
    # Ten values in each of enough properties to pass OpenAI's limit on enum values in total (read from
    # its default rules), which DeepSeek does not document.
    cap = limit_entry("enum-values")
    assert cap is not None and limit("enum-values", target="deepseek") is None
    n = cap.value // 10 + 1
    many = {"name": "t", "description": "d", "inputSchema": {
        "type": "object", "properties": {f"p{i}": {"type": "string", "enum": [f"v{j}" for j in range(10)]}
                                         for i in range(n)}, "required": [f"p{i}" for i in range(n)]}}
    assert toolcast.compile_tool(many, target="deepseek").status == "strict"
    openai = toolcast.compile_tool(many, target="openai")
    assert openai.status != "strict" and cap.code in {d.code for d in openai.diagnostics}


# ---------------------------------------------------------------------------------------- xAI


def test_xai_keeps_optional_properties_and_sends_no_strict_flag() -> None:
    res = toolcast.compile_tool(WEATHER, target="xai")
    assert res.status == "strict"
    fn = res.tool["function"]
    assert "strict" not in fn
    assert fn["parameters"]["required"] == ["city"] and not res.null_paths
    assert not xai_oracle.tool_violations(res.tool, "strict")


@pytest.mark.parametrize(("prop", "strict"), [
    ({"type": "string", "format": "uri"}, True),
    ({"type": "string", "format": "hostname"}, False),
    ({"type": "string", "pattern": "^[a-z]+$"}, True),
    ({"type": "string", "pattern": "^(?=a)b"}, False),   # lookahead: not supported
    ({"type": "string", "pattern": "^a.c$"}, False),     # `.` matches newlines on xAI: wider
    ({"type": "integer", "multipleOf": 2}, False),       # not in the page's list
    ({"type": "string", "maxLength": 10}, True),
    ({"not": {"type": "string"}}, False),                # best-effort
])
def test_xai_keywords_follow_its_guide(prop: dict, strict: bool) -> None:
    res = toolcast.compile_tool(_with(prop), target="xai")
    assert (res.status == "strict") is strict, _codes(res)


def test_xai_refuses_circular_references_in_the_guaranteed_form() -> None:
    node = {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}
    rec = {"name": "t", "inputSchema": {"type": "object", "properties": {"n": {"$ref": "#/$defs/node"}},
                                        "$defs": {"node": node}}}
    res = toolcast.compile_tool(rec, target="xai")
    assert res.status == "non-strict" and "xai/recursive-schema" in _codes(res)


# ---------------------------------------------------------------------------------------- Mistral, Bedrock


@pytest.mark.parametrize("target", ["mistral", "bedrock"])
def test_no_strict_where_the_subset_is_undocumented(target: str) -> None:
    auto = toolcast.compile_tool(WEATHER, target=target)
    assert auto.status == "non-strict" and f"{target}/too-many-strict-tools" in _codes(auto)
    assert toolcast.compile_tool(WEATHER, target=target, strict="true").status == "refused"
    assert not violations(auto.tool, target, auto.status)


def test_bedrock_converse_tool_spec_shape() -> None:
    res = toolcast.compile_tool({**WEATHER, "description": ""}, target="bedrock")
    spec = res.tool["toolSpec"]
    assert spec["name"] == "get_weather" and "description" not in spec  # NonEmptyString: an empty one is left out
    assert spec["inputSchema"] == {"json": res.tool["toolSpec"]["inputSchema"]["json"]}
    assert spec["inputSchema"]["json"]["type"] == "object" and "strict" not in spec
    assert not bedrock_oracle.tool_violations(res.tool)


@pytest.mark.parametrize("target", ["deepseek", "xai", "mistral", "bedrock"])
def test_dotted_names_are_refused_where_the_rule_is_letters_digits_underscore_dash(target: str) -> None:
    assert toolcast.compile_tool({**WEATHER, "name": "math.factorial"}, target=target).status == "refused"


# ---------------------------------------------------------------------------------------- the oracles


def test_the_oracles_flag_what_the_facts_say() -> None:
    """Each oracle rejects the documented counter-examples (so a clean corpus run means something)."""
    ds = {"type": "function", "function": {"name": "t", "strict": True, "parameters": {
        "type": "object", "properties": {"a": {"type": "string", "minLength": 1, "format": "date"}},
        "required": [], "additionalProperties": True}}}
    assert {r for r, _ in deepseek_oracle.tool_violations(ds)} >= {"unsupported-keyword", "format", "not-closed",
                                                                  "not-all-required"}
    xa = {"type": "function", "function": {"name": "t", "parameters": {
        "type": "object", "properties": {"a": True, "b": {"enum": []}, "c": {"type": "string", "pattern": "\\bx"}}}}}
    assert {r for r, _ in xai_oracle.tool_violations(xa, "strict")} >= {"boolean-property", "empty-variants",
                                                                       "regex-feature"}
    assert mcp_oracle.tool_violations({"name": "a" * 129, "inputSchema": {"type": "object"}}) == [("name-invalid", "name")]
    assert mcp_oracle.tool_violations({"name": "t", "inputSchema": {"type": "object", "properties": {"a": True}}},
                                      "2025-11-25") == [("property-not-object", "#/properties/a")]
    assert bedrock_oracle.tool_violations({"toolSpec": {"name": "t", "description": "",
                                                        "inputSchema": {"json": {"type": "object"}}}}) \
        == [("description-empty", "toolSpec/description")]


# ---------------------------------------------------------------------------------------- the proxy


def test_the_proxy_lists_what_the_mcp_target_emits() -> None:
    """`toolcast proxy --target mcp` lists each server tool as the MCP target compiles it: nothing narrowed
    (no `additionalProperties` added, optional properties left optional) and no non-strict mark."""
    from test_proxy import ECHO, proxied, run

    async def go():
        async with proxied("--target", "mcp", "--server", f"echo={ECHO}") as session:
            return {t.name: t for t in (await session.list_tools()).tools}

    tools = run(go())
    listed = tools["echo__echo"].model_dump(by_alias=True, exclude_none=True)
    assert not mcp_oracle.tool_violations({k: v for k, v in listed.items() if k in ("name", "description", "inputSchema")})
    schema = listed["inputSchema"]
    assert "additionalProperties" not in schema and schema["required"] == ["text"]
    assert "$defs" not in schema  # no mark: MCP has no strict form to keep a client off
    assert schema == toolcast.compile_tool({"name": "echo", "inputSchema": schema}, target="mcp").tool["inputSchema"]
