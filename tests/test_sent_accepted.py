"""Every tool toolcast sends is accepted: the independent oracle of its provider and form
(tests/oracles/sent.py, written from the provider fact sheet §1-§3, §8, §9) on every tool sent,
strict or not, for every target and API and every strict mode ("auto", True, False).

Inputs: the vendored corpus (tests/corpus: mcp.jsonl, agent_tools.jsonl and large/ whole, bfcl.jsonl
sampled as BFCL_STRIDE says; read as tools/corpus_report.py reads them), every JSON-Schema-Test-Suite
schema (tests/corpus/jsts) as a tool's parameters, and generated schemas (tests/strategies.py). A failure names the set, the
target, the API, the mode, each rejected tool and the oracle's (rule, path) pairs.

Besides the provider's rules, the tool must say what toolcast reports: a tool reported strict is
sent with `strict: true` (OpenAI, Anthropic), a non-strict one without it; `strict=True` never sends
a tool non-strict and `strict=False` never sends one strict (DESIGN, Policy).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from corpus_paths import CORPUS, JSTS
from hypothesis import Phase, given, settings
from oracles.sent import sent_violations
from sent_support import MODES, TARGETS, Checker, label
from strategies import examples, schemas

from toolcast import matrix, providers
from toolcast.tool_input import resolve_target

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from corpus_report import corpus_sets  # the corpus as every report reads it


def _named(tools: list[dict], set_name: str) -> list[tuple[str, dict]]:
    return [(f"{set_name}#{i} {t.get('name')!r}", t) for i, t in enumerate(tools)]


# bfcl.jsonl is 3,466 small, alike schemas; judging each one sent in every form costs about a
# minute (the 2020-12 metaschema check), so it is sampled, deterministically: every BFCL_STRIDE-th
# tool, and every tool whose schema uses anything beyond the plain keywords below (or an enum on a
# type other than string), chosen from the input alone. The other sets are checked whole.
BFCL_STRIDE = 8
PLAIN = frozenset({"type", "properties", "required", "description", "items", "enum", "default", "format", "title"})
PLAIN_TYPES = (None, "string", "integer", "number", "boolean", "array", "object")


def unusual(node: object) -> bool:
    if not isinstance(node, dict):
        return False
    if set(node) - PLAIN or not isinstance(node.get("type"), (str, type(None))) or node.get("type") not in PLAIN_TYPES:
        return True
    if "enum" in node and node.get("type") not in ("string", None):
        return True
    props = node.get("properties")
    return any(unusual(v) for v in props.values()) if isinstance(props, dict) else unusual(node.get("items"))


def _sampled(name: str, tools: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    if name != "bfcl.jsonl":
        return tools
    return [(n, t) for i, (n, t) in enumerate(tools) if i % BFCL_STRIDE == 0 or unusual(t.get("inputSchema"))]


CORPUS_SETS = {name: _sampled(name, _named(tools, name)) for name, tools in corpus_sets(CORPUS)}


def jsts_tools() -> list[tuple[str, dict]]:
    out = []
    for f in sorted(JSTS.glob("*.json")):
        for i, group in enumerate(json.loads(f.read_text(encoding="utf-8"))):
            out.append((f"jsts {f.stem}[{i}]", {"name": "t", "description": "d", "parameters": group["schema"]}))
    return out


JSTS_TOOLS = jsts_tools()


def run(tools: list[tuple[str, dict]], target: str, api: str | None, mode: object) -> Checker:
    checker = Checker(target, api, mode)
    for name, tool in tools:
        checker.check(tool, name)
    return checker


def _matrix() -> list:
    return [pytest.param(target, api, mode, id=label(target, api, mode)) for target, api in TARGETS for mode in MODES]


def test_the_corpus_is_all_here():
    """Every set the reports read is checked (a renamed or emptied set fails here, not silently)."""
    assert set(CORPUS_SETS) >= {"agent_tools.jsonl", "bfcl.jsonl", "mcp.jsonl", "large/"}
    assert len(CORPUS_SETS["mcp.jsonl"]) >= 400 and len(CORPUS_SETS["large/"]) >= 10
    assert len(CORPUS_SETS["bfcl.jsonl"]) >= 3466 // BFCL_STRIDE + 100 and len(JSTS_TOOLS) >= 380


@pytest.mark.parametrize("set_name", ["agent_tools.jsonl", "bfcl.jsonl", "mcp.jsonl", "large/"])
@pytest.mark.parametrize("target,api,mode", _matrix())
def test_corpus_tools_sent_are_accepted(set_name: str, target: str, api: str | None, mode: object) -> None:
    checker = run(CORPUS_SETS[set_name], target, api, mode)
    # (a target that never sends strict sends nothing under strict=true: every tool is refused)
    never_strict = mode is True and matrix.never_strict(resolve_target(target, api, None)[2])
    assert checker.sent > 0 or set_name == "large/" or never_strict, \
        f"{set_name}: nothing sent under {label(target, api, mode)}"
    if checker.rejected:
        pytest.fail(checker.report(set_name), pytrace=False)


@pytest.mark.parametrize("target,api,mode", _matrix())
def test_jsts_schemas_sent_are_accepted(target: str, api: str | None, mode: object) -> None:
    checker = run(JSTS_TOOLS, target, api, mode)
    if checker.rejected:
        pytest.fail(checker.report("JSON-Schema-Test-Suite"), pytrace=False)


@pytest.mark.parametrize("target,api", [pytest.param(t, a, id=label(t, a)) for t, a in TARGETS])
# No shrinking: a failure prints the generated schema as drawn (shrinking one took half a minute).
@settings(examples(25), phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(schema=schemas(max_leaves=6))
def test_generated_schemas_sent_are_accepted(target: str, api: str | None, schema: dict) -> None:
    for mode in MODES:
        checker = Checker(target, api, mode)
        checker.check({"name": "generated", "description": "d", "inputSchema": schema}, "generated")
        if checker.rejected:
            pytest.fail(f"{checker.report('generated schema')}\n  schema: {json.dumps(schema)}", pytrace=False)


@pytest.mark.parametrize("target,api", [pytest.param(t, a, id=label(t, a)) for t, a in TARGETS])
def test_the_oracle_is_not_blind(target: str, api: str | None) -> None:
    """The check above would catch a bad tool: a root that is not an object, sent as toolcast
    would send it in each form, is rejected by the oracle of every provider and form."""
    schema = {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "null"}]}
    if target == "openai":
        tool = {"type": "function", "name": "t", "description": "d", "parameters": schema, "strict": False}
        if api == "chat":
            tool = {"type": "function", "function": {k: v for k, v in tool.items() if k != "type"}}
    elif target == "anthropic":
        tool = {"name": "t", "description": "d", "input_schema": schema}
    elif api == "parameters":
        tool = {"name": "t", "description": "d", "parameters": {"anyOf": [{"type": "OBJECT"}], "nullable": True}}
    elif target in ("gemini", "vertex"):
        tool = {"name": "t", "description": "d", "parametersJsonSchema": schema}
    else:  # a target whose envelope is data (its wire section): the envelope toolcast would emit
        shapes = providers.target(target)
        tool = shapes.emit("t", "d", schema, False, shapes.DEFAULT_API)
    rules = {r for r, _ in sent_violations(tool, target, api, "non-strict")}
    assert rules & {"root-not-object", "root-combinator", "root-keyword", "input-not-object"}, rules
