"""A walk that no longer builds the strict form (Walk.builds): once a caller that sends no refused
form (compile_tool, strict_schema) sees the walk refuse something, or where it never uses the form
(a tool sent with strict off), the walk keeps no property's form, but its findings, counts and
refusals are those of a walk that builds it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import RULES, examples, schemas

from toolcast.rules import get_rules
from toolcast.walk import Walk, walk_schema

CORPUS = Path(__file__).parent / "corpus"


def _walked(schema: object, rules: str, builds_refused: bool = True, builds: bool = True) -> tuple[Walk, dict]:
    w = Walk(get_rules(rules))
    w.builds_refused = builds_refused
    w.builds = builds
    return w, walk_schema(w, schema)


def _findings(w: Walk) -> tuple:
    return (w.diags, w.trans, w.refusals, w.n_props, w.n_chars, w.n_enum, w.deepest, w.guarded)


def _same_findings(schema: object, rules: str) -> tuple[Walk, Walk]:
    built, _ = _walked(schema, rules)
    lean, _ = _walked(schema, rules, builds_refused=False)
    assert _findings(lean) == _findings(built)
    # Never built (a tool sent with strict off, walked for what its rules refuse in every mode):
    # those findings are the same.
    unbuilt, _ = _walked(schema, rules, builds=False)
    always = get_rules(rules).always_refused
    assert [d for d in unbuilt.diags if d[0] in always] == [d for d in built.diags if d[0] in always]
    if not built.refusals:
        assert lean.builds and lean.null_paths == built.null_paths  # nothing refused: the form is built
    return built, lean


def _refused_first(n: int) -> dict:
    """An object whose first property is refused (an open map) and `n` optional leaves follow, enum
    leaves among them (an optional enum's null is counted, as the form built would hold it)."""
    props: dict = {"map": {"type": "object", "additionalProperties": {"type": "string"}}}
    for i in range(n):
        props[f"p{i}"] = ({"type": "string", "enum": [f"v{j}" for j in range(3)]} if i % 3 == 0
                          else {"type": "object", "properties": {"x": {"type": "integer", "enum": [1, 2]}}}
                          if i % 3 == 1 else {"type": "number", "minimum": 0})
    return {"type": "object", "properties": props, "required": ["map"], "additionalProperties": False}


def test_a_refused_schema_keeps_no_property_form_and_the_same_findings() -> None:
    schema = _refused_first(300)
    built, lean = _same_findings(schema, "openai")
    assert built.refusals and lean.n_enum == built.n_enum > 300 // 3  # (each optional enum's null counted)
    assert not lean.builds
    _, out = _walked(schema, "openai", builds_refused=False)
    assert "properties" not in out  # refused at its first property: the root keeps none
    _, kept = _walked(schema, "openai")
    assert len(kept["properties"]) == 301


def test_the_limits_count_what_a_form_not_built_would_hold() -> None:
    """Counted past the limit after the refusal: the limit is still reported."""
    schema = _refused_first(6000)
    _, lean = _same_findings(schema, "openai")
    too_many = get_rules("openai").counted("properties").code
    assert any(d[0] == too_many for d in lean.diags)


@pytest.mark.parametrize("name", sorted(p.name for p in (CORPUS / "large").glob("*.json")))
def test_the_large_corpus_walks_to_the_same_findings(name: str) -> None:
    schema = json.loads((CORPUS / "large" / name).read_text())
    for rules in ("openai", "gemini-parameters"):
        _same_findings(schema, rules)


@examples(150)
@given(schemas(), st.sampled_from(RULES + ("gemini-parameters", "anthropic")))
def test_generated_schemas_walk_to_the_same_findings(schema: object, rules: str) -> None:
    _same_findings(schema, rules)
