"""The node budget: a Python-built document whose subtrees are shared is refused once its walk passes walk.budget.NODE_BUDGET nodes, instead of being walked once per path without end."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pytest

import toolcast
from toolcast.render import render_text
from toolcast.rules import get_rules
from toolcast.walk import Walk, walk_schema

CORPUS = Path(__file__).parent / "corpus"
TARGETS = {"openai": "openai", "anthropic": "anthropic", "gemini": "gemini"}  # target -> its codes' prefix
SMALL = 5_000  # a budget the tests can pass in a moment: the mechanism is the same at any figure


def shared(levels: int, leaf: dict | None = None) -> dict:
    """An object whose two properties are the same object, `levels` deep: 2**levels places."""
    s = leaf if leaf is not None else {"type": "string"}
    for _ in range(levels):
        s = {"type": "object", "properties": {"a": s, "b": s}, "required": ["a", "b"]}
    return s


def shared_any_of(levels: int) -> dict:
    """An anyOf whose two branches are the same object, `levels` deep, none accepting null: asking
    whether an optional property of this type already accepts null reads every path."""
    s: dict = {"type": "string"}
    for _ in range(levels):
        s = {"anyOf": [s, s]}
    return s


def tool(name: str, schema: dict) -> dict:
    return {"name": name, "description": "A tool.", "parameters": schema}


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> int:
    from toolcast.walk import budget

    monkeypatch.setattr(budget, "NODE_BUDGET", SMALL)
    return SMALL


def _only_finding(res: toolcast.CompileResult, code: str) -> toolcast.Diagnostic:
    found = [d for d in res.diagnostics if d.code == code]
    assert len(found) == 1, [d.code for d in res.diagnostics]
    return found[0]


@pytest.mark.timeout(900)  # a hang guard, not a speed test: before the budget this never finished
def test_a_document_shared_at_each_of_40_levels_is_refused_at_the_real_budget() -> None:
    from toolcast.walk.budget import NODE_BUDGET

    res = toolcast.compile_tool(tool("dag", shared(40)))
    assert res.status == "refused"
    d = _only_finding(res, "openai/too-many-schema-nodes")
    assert d.severity == "error"
    assert f"{NODE_BUDGET:,}" in d.message
    # Every other finding of the paths walked before the budget ran out gives way to this one.
    assert [x.code for x in res.diagnostics] == ["openai/too-many-schema-nodes"]
    assert res.transformations == ()


def shared_values(levels: int) -> dict:
    """shared(), each level also carrying the level below as its `examples` and `default`: values a
    plan copies or drops, each as large as the rest of the document."""
    s: dict = {"type": "string"}
    for _ in range(levels):
        s = {"type": "object", "properties": {"a": s, "b": s}, "required": ["a", "b"],
             "examples": [s, s], "default": {"a": s}}
    return s


@pytest.mark.timeout(900)  # a hang guard: before the walk's values look was bounded, this never finished
@pytest.mark.parametrize("target", ["openai", "gemini"])
def test_values_shared_at_every_level_are_refused_at_the_real_budget(target: str) -> None:
    res = toolcast.compile_tool(tool("dag", shared_values(40)), target=target)
    assert res.status == "refused"
    assert [d.code for d in res.diagnostics] == [f"{TARGETS[target]}/too-many-schema-nodes"]


def test_the_look_at_a_value_a_plan_copies_is_bounded() -> None:
    from toolcast.walk.values import VALUE_LOOK, _plain_flags, plain_value

    big = [{"a": [i]} for i in range(VALUE_LOOK)]  # 2 * VALUE_LOOK + 1 containers, plain JSON
    assert _plain_flags([big]) == 0
    assert _plain_flags([big], VALUE_LOOK) == -1  # past the look: not vouched for here
    assert not plain_value(big)
    assert plain_value(big, 0)  # unbounded (a definition the walk never entered: looked at once)
    assert plain_value(big[: VALUE_LOOK // 4])
    assert not plain_value([{"a": float("nan")}])
    # The compile does not depend on where the look stops: the node is then read in full.
    schema = {"type": "object", "properties": {"x": {"type": "array", "examples": [big], "default": big}}}
    for target in TARGETS:
        res = toolcast.compile_tool(tool("t", schema), target=target)
        again = toolcast.compile_tool(tool("t", json.loads(json.dumps(schema))), target=target)
        assert res.status == again.status and res.tool == again.tool
        assert [d.code for d in res.diagnostics] == [d.code for d in again.diagnostics]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("strict", [True, False, "auto"])
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_shared_document_is_refused_in_every_mode(small_budget: int, target: str, strict) -> None:
    res = toolcast.compile_tool(tool("dag", shared(40)), target=target, strict=strict)
    assert res.status == "refused"
    assert res.tool is None
    d = _only_finding(res, f"{TARGETS[target]}/too-many-schema-nodes")
    assert f"{small_budget:,}" in d.message
    # The place the budget ran out at: a path of the document, named.
    assert d.path.startswith("#/properties/")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("strict", [True, False, "auto"])
def test_a_shared_any_of_under_an_optional_property_is_refused(small_budget: int, strict) -> None:
    """allows_null (asked of an optional property before the walk enters it) counts too."""
    schema = {"type": "object", "properties": {"x": shared_any_of(40)}}
    res = toolcast.compile_tool(tool("dag", schema), strict=strict)
    assert res.status == "refused"
    _only_finding(res, "openai/too-many-schema-nodes")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("strict", [False, "auto"])
def test_a_shared_document_under_a_dropped_keyword_is_refused_by_the_copy_sent(small_budget: int, strict) -> None:
    """The walk does not enter what the rules drop (`contains` under OpenAI); the copy of the
    original sent without strict would, once per path: it counts too."""
    schema = {"type": "object", "properties": {"x": {"type": "array", "items": {"type": "string"},
                                                     "contains": shared(40)}}, "required": ["x"]}
    res = toolcast.compile_tool(tool("dag", schema), strict=strict)
    assert res.status == "refused"
    d = _only_finding(res, "openai/too-many-schema-nodes")
    assert d.path.startswith("#/properties/x/contains")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("strict", [True, False, "auto"])
def test_a_shared_all_of_is_refused(small_budget: int, strict) -> None:
    """Merging allOf parts that are the same object at every level merges once per path: it counts too."""
    s: dict = {"type": "string"}
    for _ in range(40):
        s = {"allOf": [s, {"description": "a part"}, s]}
    res = toolcast.compile_tool(tool("dag", {"type": "object", "properties": {"x": s}, "required": ["x"]}), strict=strict)
    assert res.status == "refused"
    _only_finding(res, "openai/too-many-schema-nodes")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_one_shared_document_does_not_stop_the_other_tools(small_budget: int, target: str) -> None:
    plain = tool("plain", {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]})
    out = toolcast.compile_tools([plain, tool("dag", shared(40)), dict(plain, name="plain2")], target=target)
    by_name = {r.name: r for r in out}
    assert by_name["dag"].status == "refused"
    assert by_name["plain"].status == by_name["plain2"].status == "strict"
    assert by_name["plain"].tool is not None


@pytest.mark.timeout(300)
def test_the_text_report_names_the_code_the_place_and_the_limit(small_budget: int) -> None:
    res = toolcast.compile_tool(tool("dag", shared(40)))
    d = _only_finding(res, "openai/too-many-schema-nodes")
    out = io.StringIO()
    render_text(out, [("tools.py", res)], [], command="compile")
    text = out.getvalue()
    assert "openai/too-many-schema-nodes" in text
    assert d.path in text
    assert f"{small_budget:,}" in text


@pytest.mark.parametrize("strict", [True, "auto"])
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_shared_document_within_the_budget_compiles_as_its_written_out_copy(target: str, strict) -> None:
    """Below the budget nothing changes: sharing is invisible, as before."""
    dag = tool("dag", shared(8, {"type": "string", "description": "leaf"}))
    written_out = json.loads(json.dumps(dag))
    a = toolcast.compile_tool(dag, target=target, strict=strict)
    b = toolcast.compile_tool(written_out, target=target, strict=strict)
    assert a.status == b.status
    assert a.tool == b.tool
    assert [(d.code, d.path) for d in a.diagnostics] == [(d.code, d.path) for d in b.diagnostics]
    assert dag == copy.deepcopy(written_out)  # (the input is not changed)


@pytest.mark.parametrize("target", ["openai", "anthropic", "gemini", "deepseek", "mcp"])
def test_the_largest_real_schemas_visit_a_fiftieth_of_the_budget(target: str) -> None:
    """The budget leaves real schemas a wide margin: the largest in the corpus (tests/corpus/large)
    visit at most a fiftieth of it, in a walk that builds the strict form and in one that does not."""
    from toolcast.compile import resolve_target
    from toolcast.walk.budget import NODE_BUDGET

    rules = resolve_target(target, None, None)[2]
    most = 0
    for path in sorted((CORPUS / "large").glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        for builds in (True, False):
            w = Walk(rules)
            w.builds = builds
            walk_schema(w, schema)
            assert not any(d[0].endswith("/too-many-schema-nodes") for d in w.diags)
            most = max(most, NODE_BUDGET - w.nodes_left)
    assert 1_000 < most <= NODE_BUDGET // 50


def test_every_provider_refuses_it_in_every_mode() -> None:
    """The code is in every default rule version's always_refused: no form of such a tool is sent."""
    for name in ("openai", "anthropic", "gemini", "vertex", "mcp", "deepseek", "xai", "mistral", "bedrock"):
        r = get_rules(name)
        code = r.patterns["too-many-schema-nodes"]
        assert code in r.always_refused, name
