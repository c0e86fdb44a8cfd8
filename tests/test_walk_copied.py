"""A document the walk reads before the document scan (a plain object root) that it cannot vouch for,
where the walk has already settled that the original is sent without strict: the scan's pass makes
the copy sent (walker._vouched, Walk.copied), so the document is read once for both, and the result
is the one the two passes give."""

from __future__ import annotations

import copy

import pytest

import toolcast.compile as compile_mod
import toolcast.walk.walker as walker_mod
from toolcast import compile_tool
from toolcast.sent_copy import looked_copy
from toolcast.walk.values import _plain_flags

# Each: a plain object root the walk reads first, with a value it leaves to the scan (a free-form
# object: not walked), so _vouched scans the document after the walk.
SCHEMAS = {
    "a free-form object (refused, sent without strict)": {
        "type": "object",
        "properties": {"q": {"type": "string", "description": "the query"},
                       "meta": {"type": "object", "description": "anything"},
                       "tags": {"type": "array", "items": {"type": "string"}, "default": ["a", "b"]}},
        "required": ["q"],
    },
    "a free-form object beside nested objects": {
        "type": "object",
        "properties": {"filter": {"type": "object", "properties": {"since": {"type": "string", "format": "date"}},
                                  "additionalProperties": False, "required": ["since"]},
                       "extra": {"type": "object"}},
    },
}
TARGETS = ("openai", "anthropic", "gemini")


def _tool(schema: dict) -> dict:
    return {"name": "t", "description": "d", "inputSchema": schema}


@pytest.mark.parametrize("case", sorted(SCHEMAS))
def test_the_copy_sent_is_made_in_the_scans_pass_after_the_walk(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    schema = SCHEMAS[case]
    original = copy.deepcopy(schema)
    copied, scanned = [], []
    monkeypatch.setattr(compile_mod, "looked_copy", lambda s: copied.append(s) or looked_copy(s))
    monkeypatch.setattr(walker_mod, "_plain_flags", lambda s, *a: scanned.append(s) or _plain_flags(s, *a))
    res = compile_tool(_tool(schema))
    assert res.status == "non-strict"
    assert copied == [] and scanned == []  # (one pass: the scan's, which made the copy sent)
    sent = res.tool["parameters"]
    assert sent["properties"] == original["properties"]
    for name, prop in schema["properties"].items():  # a copy, sharing nothing with the input
        assert sent["properties"][name] is not prop
    assert schema == original


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("strict", ["auto", True, False])
@pytest.mark.parametrize("case", sorted(SCHEMAS))
def test_the_result_is_the_one_the_two_passes_give(case: str, strict: object, target: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    tool = _tool(SCHEMAS[case])
    merged = compile_tool(tool, target=target, strict=strict).to_dict()
    monkeypatch.setattr(walker_mod, "scanned_copy", lambda s: None)  # (the scan and the copy in their own passes)
    assert compile_tool(tool, target=target, strict=strict).to_dict() == merged


@pytest.mark.parametrize(("name", "strict"), [("a.b", "auto"), ("t", True)])
def test_no_copy_is_made_for_a_tool_never_sent_without_strict(name: str, strict: object,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # A name the rules refuse, or strict=True: the tool is refused whatever the walk finds.
    made = []
    monkeypatch.setattr(walker_mod, "scanned_copy", lambda s: made.append(s))
    res = compile_tool({"name": name, "description": "d", "inputSchema": SCHEMAS[sorted(SCHEMAS)[0]]}, strict=strict)
    assert res.status == "refused" and res.tool is None
    assert made == []
