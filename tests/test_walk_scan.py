"""The document scan after the walk: a plain root is walked before the scan (walker._compile), which
then reads only a document the walk could not vouch for. Every value that is not JSON is still
refused at its place, and a resource the scan would bundle still is, wherever the walk left it."""

from __future__ import annotations

import collections
import json

import pytest

import toolcast.walk.walker as walker
from toolcast import compile_tool
from toolcast.rules import get_rules
from toolcast.walk import Walk, walk_schema
from toolcast.walk.values import non_json

_NAN = float("nan")


def _root(**extra) -> dict:
    """A plain root (walked before the scan) with one leaf property, and `extra` beside it."""
    return {"type": "object", "properties": {"q": {"type": "string", "description": "d"}}, "required": ["q"],
            **extra}


# A value the document scan refuses, in each kind of place the walk leaves unread or reads by
# its plan: (the schema, the place the refusal names).
HOSTILE = [
    (_root(items={"a": _NAN}), ("items", "a")),  # `items` of an object: never walked
    (_root(additionalProperties={"type": "string", "default": _NAN}), ("additionalProperties", "default")),
    (_root(properties={"q": {"type": "string", "default": {"x": [1, _NAN]}}}), ("properties", "q", "default", "x", 1)),
    (_root(properties={"q": {"type": "string", "x-ext": {"deep": float("inf")}}}), ("properties", "q", "x-ext", "deep")),
    (_root(properties={"q": {"type": "string", "examples": [{1, 2}]}}), ("properties", "q", "examples", 0)),
    (_root(properties={"q": {"type": "number", "enum": [1.0, _NAN]}}), ("properties", "q", "enum", 1)),
    (_root(properties={"q": {"type": "string"}, 7: {"type": "string"}}), ("properties",)),
    (_root(properties={"q": {"type": "string", "description": b"bytes"}}), ("properties", "q", "description")),
    (_root(properties={"q": {"type": "array", "items": [{"type": "string", "default": _NAN}]}}),
     ("properties", "q", "items", 0, "default")),
    (_root(properties={"q": {"type": "object", "properties": {"r": {"type": "integer", "minimum": _NAN}}}}),
     ("properties", "q", "properties", "r", "minimum")),
]


@pytest.mark.parametrize(("target", "strict"), [("openai", "auto"), ("openai", True), ("gemini", "auto"),
                                                ("anthropic", True)])
@pytest.mark.parametrize(("schema", "place"), HOSTILE)
def test_a_value_that_is_not_json_is_refused_at_its_place(schema, place, target, strict) -> None:
    res = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, strict=strict)
    assert non_json(schema)[0] == place  # (the scan's own answer)
    assert res.status == "refused"
    codes = [d.code.split("/", 1)[1] for d in res.diagnostics]
    assert codes == ["non-json-value"]  # the refusal alone, as when the scan ran first
    assert res.diagnostics[0].path == "#" + "".join(f"/{p}" for p in place)


def test_a_container_subclass_is_read_as_plain() -> None:
    """A dict subclass below a plain root: the scan makes the document plain before the walk that
    counts (plain_containers), so the result is that of the plain document."""
    plain = _root(properties={"q": {"type": "string", "description": "d"}, "r": {"type": "integer"}})
    odd = _root(properties={"q": collections.OrderedDict(type="string", description="d"), "r": {"type": "integer"}})
    for target in ("openai", "gemini"):
        a = compile_tool({"name": "t", "description": "d", "inputSchema": plain}, target=target).to_dict()
        b = compile_tool({"name": "t", "description": "d", "inputSchema": odd}, target=target).to_dict()
        assert json.dumps(a) == json.dumps(b)


def test_a_plain_document_is_not_scanned(monkeypatch) -> None:
    """The commonest document, every value read by the walk's plans: no scan at all."""
    calls = []
    real = walker._plain_flags

    def counting(doc):
        calls.append(doc)
        return real(doc)

    monkeypatch.setattr(walker, "_plain_flags", counting)
    import toolcast.walk.document as document

    monkeypatch.setattr(document, "_plain_flags", counting)
    schema = _root(properties={"q": {"type": "string", "description": "d", "default": "x"},
                               "n": {"type": "integer", "minimum": 0},
                               "o": {"type": "object", "properties": {"e": {"type": "string", "enum": ["a", "b"]}}},
                               "l": {"type": "array", "items": {"type": "number"}}})
    w = Walk(get_rules("openai"))
    out = walk_schema(w, schema)
    assert out["properties"]["o"]["properties"]["e"]["enum"] in (["a", "b"], ["a", "b", None])
    assert w.scanned and calls == []


@pytest.mark.parametrize("name", ["$anchor", "$id", "$ref"])
def test_a_property_named_as_a_resource_walks_again_after_the_scan(name) -> None:
    """A property name the scan notes as a resource or a reference: the walk cannot vouch for the
    document, the scan runs and settles it (bundling, here with nothing to move), and the walk
    starts again from a fresh state: the result is that of any other name, nothing recorded twice."""
    def walked(n: str) -> tuple:
        w = Walk(get_rules("openai"))
        out = walk_schema(w, _root(properties={"q": {"type": "string"}, n: {"type": "string"}}))
        return json.dumps(out).replace(json.dumps(n), '"NAME"'), [
            (d[0], d[2][:-1] + ("NAME",) if d[2] and d[2][-1] == n else d[2]) for d in w.diags], [
            (t[0], t[2][:-1] + ("NAME",) if t[2] and t[2][-1] == n else t[2]) for t in w.trans]

    assert walked(name) == walked("x")
