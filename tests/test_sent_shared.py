"""The original sent without strict takes the walk's bundle of the document (Walk.bundled) where it
would bundle the very same input in the same dialect, and bundles its own copy everywhere else: the
result is the same either way, and `bundle` runs once per bundled document where the two agree."""

from __future__ import annotations

import pytest
from sent_support import compiled_unmutated

from toolcast import compile as compile_mod
from toolcast import sent_refs
from toolcast.sendable import sendable as _sendable

FREE = {"type": "object"}  # a free-form object: no target sends it strict, so the original is sent
DEEP = {"$ref": "#/properties/a/properties/b"}  # a pointer below a root definition: bundled
A = {"type": "object", "properties": {"b": {"type": "string"}}}
TARGETS = [("openai", "responses"), ("anthropic", None), ("gemini", "json-schema"), ("vertex", "json-schema")]

# Documents the walk bundles as they are: the original sent takes its result.
SHARED = {
    "deep pointer": {"type": "object", "properties": {"a": A, "c": DEEP, "x": FREE}},
    "nested resource": {"type": "object", "properties": {
        "r": {"$id": "https://example.com/r", "type": "object", "properties": {"s": {"$ref": "#/$defs/t"}},
              "$defs": {"t": {"type": "string"}}}, "x": FREE}},
    "2020-12 declared, definitions renamed after": {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
        "definitions": {"d": {"type": "string"}},
        "properties": {"a": A, "c": DEEP, "d": {"$ref": "#/definitions/d"}, "x": FREE}},
}
# Documents whose two bundles would differ: what the original sent holds here (checked below) is
# not in the walk's bundle.
DIFFERENT = {
    # The walk reads draft-07 as 2020-12 (a `$ref`'s siblings dropped, Walk's dialect rewrite); the
    # original sent to these providers, which read it as 2020-12 (sent_metaschema), is written in
    # 2020-12 terms by sent_dialect in its own copy (`minimum` beside the `$ref`, which draft-07
    # ignores, dropped there too), then bundled.
    "a dialect rewrite": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                          "properties": {"a": A, "c": {"$ref": "#/properties/a/properties/b", "minimum": 1},
                                         "x": FREE}},
    # sendable writes the tuple form as `prefixItems` in its copy before bundling it; the walk
    # bundled the document as it was.
    "a tuple `items`": {"type": "object", "properties": {
        "a": A, "c": DEEP, "p": {"type": "array", "items": [{"type": "string"}], "additionalItems": False},
        "x": FREE}},
    # The walk bundles the document with its tuples made lists (plain_containers); the original
    # sent is its own copy, its tuples made lists too (copy_json), bundled in turn.
    "a tuple container": {"type": "object", "properties": {
        "a": A, "c": DEEP, "e": {"type": "string", "enum": ("u", "v")}, "x": FREE}},
}


_compile = compiled_unmutated


def _unshared(monkeypatch: pytest.MonkeyPatch) -> None:
    """The original sent bundles its own copy whatever the walk did (as at 8398165)."""
    monkeypatch.setattr(compile_mod, "sendable",
                        lambda sent, r, diags, trans, seen=None, bundled=None: _sendable(sent, r, diags, trans, seen))


def _parameters(out: dict) -> dict:
    tool = out["tool"]
    return tool.get("parameters") or tool.get("input_schema") or tool.get("inputSchema") or tool["parametersJsonSchema"]


@pytest.mark.parametrize("target,api", TARGETS)
@pytest.mark.parametrize("case", sorted(SHARED))
def test_the_original_sent_takes_the_walks_bundle(case: str, target: str, api: str | None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    schema = SHARED[case]
    with monkeypatch.context() as m:
        _unshared(m)
        expected = _compile(schema, target, api)
    assert expected["status"] == "non-strict" and "$defs" in _parameters(expected)

    def no_second_bundle(*args: object, **kwargs: object) -> None:
        raise AssertionError("bundled again")

    monkeypatch.setattr(sent_refs, "bundle", no_second_bundle)
    assert _compile(schema, target, api) == expected


@pytest.mark.parametrize("target,api", TARGETS)
@pytest.mark.parametrize("case", sorted(DIFFERENT))
def test_the_original_sent_bundles_its_own_copy_where_the_inputs_differ(case: str, target: str, api: str | None,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    schema = DIFFERENT[case]
    out = _compile(schema, target, api)
    assert out["status"] == "non-strict"
    sent = _parameters(out)
    c = sent["properties"]["c"]
    if case == "a dialect rewrite":
        assert "minimum" not in c and not any("minimum" in s for s in c.get("allOf", ()))
        assert sent["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    elif case == "a tuple `items`":
        assert sent["properties"]["p"]["prefixItems"] == [{"type": "string"}]
    else:
        assert sent["properties"]["e"]["enum"] == ["u", "v"]  # (a list, as JSON writes the tuple: copy_json)
    assert c.get("$ref", "#/$defs/").startswith("#/$defs/")  # (bundled all the same)
    _unshared(monkeypatch)
    assert _compile(schema, target, api) == out
