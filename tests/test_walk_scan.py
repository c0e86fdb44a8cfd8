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


# -- roots that declare a dialect, and roots with definitions (walked before the scan too) -------------
_D07, _D06 = "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-06/schema#"
_D2019, _D2020 = "https://json-schema.org/draft/2019-09/schema", "https://json-schema.org/draft/2020-12/schema"


def _declared(dialect: str, **extra) -> dict:
    return _root(**{"$schema": dialect, **extra})


def _defined(used: dict, unused: dict, **extra) -> dict:
    """A root with a property referring to definition `A` (`used`) and a definition `U` nothing refers to."""
    return _root(properties={"q": {"type": "string"}, "a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": used, "U": unused}},
                 **extra)


_LEAF = {"type": "string"}
HOSTILE_ROOTS = [
    (_declared(_D07, properties={"q": {"type": "string", "default": _NAN}}), ("properties", "q", "default")),
    (_declared(_D2020, properties={"q": {"type": "string", "x-ext": {"if": b"x"}}}), ("properties", "q", "x-ext", "if")),
    (_declared(_D2019, properties={"q": {"type": "array", "items": _LEAF, "prefixItems": [{"default": _NAN}]}}),
     ("properties", "q", "prefixItems", 0, "default")),
    (_declared(_D06, properties={"q": {"anyOf": [_LEAF, {"type": "null", "default": float("inf")}]}}),
     ("properties", "q", "anyOf", 1, "default")),
    (_declared(_D07, properties={"q": {"type": "string", "enum": ["a", {"$id": "#x", "v": {1}}]}}),
     ("properties", "q", "enum", 1, "v")),
    (_defined(_LEAF, {"type": "string", "default": _NAN}), ("$defs", "U", "default")),
    (_defined({"type": "object", "properties": {"x": {"type": "integer", "minimum": _NAN}}}, _LEAF),
     ("$defs", "A", "properties", "x", "minimum")),
    (_defined(_LEAF, {"type": "object", "properties": {"x": {"$anchor": "x", "examples": [{1: 2}]}}}),
     ("$defs", "U", "properties", "x", "examples", 0)),
    (_defined({"anyOf": [_LEAF, {"type": "integer", "x-e": float("-inf")}]}, _LEAF),
     ("$defs", "A", "anyOf", 1, "x-e")),
]


@pytest.mark.parametrize(("target", "strict"), [("openai", "auto"), ("openai", True), ("gemini", "auto"),
                                                ("anthropic", True)])
@pytest.mark.parametrize(("schema", "place"), HOSTILE_ROOTS)
def test_a_value_that_is_not_json_is_refused_below_a_declared_dialect_or_in_a_definition(schema, place, target,
                                                                                        strict) -> None:
    res = compile_tool({"name": "t", "description": "d", "inputSchema": schema}, target=target, strict=strict)
    assert non_json(schema)[0] == place  # (the scan's own answer)
    assert res.status == "refused"
    codes = [d.code.split("/", 1)[1] for d in res.diagnostics]
    assert codes == ["non-json-value"]
    assert res.diagnostics[0].path == "#" + "".join(f"/{p}" for p in place)


def _counting_scan(monkeypatch) -> list:
    """The document scans made (walker's and document's, not a look at one value), as they are made."""
    import toolcast.walk.document as document

    calls: list = []
    real = walker._plain_flags

    def counting(doc, *limit):
        calls.append(doc)
        return real(doc, *limit)

    monkeypatch.setattr(walker, "_plain_flags", counting)
    monkeypatch.setattr(document, "_plain_flags", counting)
    return calls


@pytest.mark.parametrize("dialect", [_D07, _D06, _D2019, _D2020])
def test_a_plain_document_in_a_declared_dialect_is_not_scanned(monkeypatch, dialect) -> None:
    """A root declaring a dialect that the scan would let stand (anything but draft-04, with nothing
    in it the dialect reads otherwise): walked without the document scan, as a root without `$schema`."""
    calls = _counting_scan(monkeypatch)
    schema = _declared(dialect, properties={"q": {"type": "string", "description": "d", "default": "x"},
                                            "n": {"type": "integer", "minimum": 0},
                                            "o": {"type": "array", "items": {"type": "number"}}})
    w = Walk(get_rules("openai"))
    out = walk_schema(w, schema)
    assert out["properties"]["q"] == {"type": "string", "description": "d"}
    assert w.scanned and calls == []


def test_a_document_with_definitions_is_walked_before_the_scan(monkeypatch) -> None:
    """A root with definitions and no `$schema` (pydantic's shape): each definition walked, or, unused,
    looked at alone; the document is not scanned."""
    calls = _counting_scan(monkeypatch)
    schema = _defined({"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]},
                      {"type": "string", "default": "u"})
    w = Walk(get_rules("openai"))
    out = walk_schema(w, schema)
    assert out["$defs"]["A"]["properties"]["x"] == {"type": "integer"}
    assert "U" not in out["$defs"]
    assert w.scanned and calls == []


# A document the walk reads first and then cannot vouch for, for what the declared dialect rewrites,
# a resource to bundle or a name the scan notes, each where the walk reads it and where it does not:
# the result must be that of the scan first.
SETTLED_FIRST = [
    _declared(_D07, properties={"q": {"type": "array", "items": _LEAF, "minContains": 1}}),
    _declared(_D07, properties={"q": {"type": "object", "properties": {"r": _LEAF}, "items": {"if": _LEAF}}}),
    _declared(_D06, properties={"q": {"type": "string", "if": {"minLength": 1}, "then": {"maxLength": 3}}}),
    _declared(_D07, properties={"q": {"type": "string", "nullable": True}}),
    _declared(_D07, properties={"q": {"type": "string"}, "nullable": {"type": "boolean"}}),
    _declared(_D07, properties={"q": {"type": "string", "default": {"nullable": True}}}),
    _declared(_D07, properties={"q": {"type": "string", "examples": [{"if": 1}]}}),
    _declared(_D07, properties={"q": {"type": "string", "$id": "#q"}}),
    _declared(_D07, properties={"q": {"type": "string", "$anchor": "q"}}),
    _declared(_D07, properties={"q": {"type": "string"}, "then": {"type": "integer"}}),
    _declared(_D2019, properties={"q": {"type": "array", "items": _LEAF, "prefixItems": [_LEAF]}}),
    _declared(_D2019, properties={"q": {"type": "object", "properties": {"r": _LEAF},
                                        "dependentRequired": {"r": ["q"]}}}),
    _declared(_D2020, properties={"q": {"type": "string", "nullable": True}}),
    _declared(_D07, properties={"q": {"type": "object", "properties": {"r": _LEAF}, "required": ["r"],
                                      "additionalProperties": False, "dependentRequired": {"r": ["q"]}}}),
    _declared(_D06, properties={"q": {"type": "object", "properties": {"r": _LEAF}, "additionalProperties": False,
                                      "dependentRequired": {"r": []}, "description": "d"}}),
    _declared(_D07, properties={"q": {"type": "object", "properties": {"r": _LEAF},
                                      "additionalProperties": {"type": "string", "unevaluatedItems": False}}}),
    _declared(_D07, properties={"q": {"anyOf": [_LEAF, {"type": "null", "if": {}}]}}),
    _declared("http://json-schema.org/draft-04/schema#", properties={"q": {"type": "number", "minimum": 1,
                                                                           "exclusiveMinimum": True}}),
    _defined(_LEAF, {"type": "object", "properties": {"x": {"$id": "x.json", "type": "string"}}}),
    _defined(_LEAF, {"type": "object", "properties": {"x": {"$ref": "#/properties/q"}}}),
    _defined({"type": "object", "properties": {"x": {"$anchor": "x", "type": "string"}}}, _LEAF),
    _defined({"type": "object", "properties": {"x": {"type": "string"}, "$ref": _LEAF}}, _LEAF),
    _root(properties={"q": _LEAF, "a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": _LEAF, "$id": _LEAF}}),
    _root(properties={"q": _LEAF, "a": {"$ref": "#/definitions/A"}}, definitions={"A": _LEAF, "U": {"$anchor": "u"}}),
    _root(properties={"q": _LEAF, "a": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": _LEAF}},
          definitions={"A": {"$id": "u.json"}}),
]


@pytest.mark.parametrize(("target", "strict"), [("openai", "auto"), ("openai", True), ("gemini", "auto"),
                                                ("anthropic", True), ("deepseek", "auto")])
@pytest.mark.parametrize("schema", SETTLED_FIRST)
def test_a_document_settled_before_the_walk_gives_what_the_scan_first_gives(monkeypatch, schema, target,
                                                                            strict) -> None:
    tool = {"name": "t", "description": "d", "inputSchema": schema}
    walked_first = json.dumps(compile_tool(tool, target=target, strict=strict).to_dict(), sort_keys=True)
    monkeypatch.setattr(walker, "_first", lambda schema: False)
    scanned_first = json.dumps(compile_tool(tool, target=target, strict=strict).to_dict(), sort_keys=True)
    assert walked_first == scanned_first
