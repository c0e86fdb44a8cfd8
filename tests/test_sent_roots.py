"""Roots that reach a provider only once something at the root is followed or merged (issue 41's
fuzz, helper F's rows #1-#4 and the description crash): each kind in several shapes, over every
target, API and strict mode, judged by the independent oracle (tests/oracles/sent.py through
sent_support.Checker), and what toolcast reports about it.

- A root `allOf` whose part (directly, through a `$ref` or a chain of them, in a nested allOf) holds
  what the root checks refuse (anyOf/oneOf, a keyword a provider refuses at the root, no object):
  reported as the same root holding it directly is, at the part, and never sent strict.
- A root `$ref` to a definition that also admits null: read as the object alone, as such a root is.
- A root `type: ["object"]`: sent as `"object"`.
- A `$ref` into `definitions` spelled with percent escapes: repointed when `definitions` is sent as
  `$defs`, as the plain spelling is; one into `$defs` is written `#/$defs/<name>` where the provider
  reads only that spelling (Gemini and Vertex `parametersJsonSchema`).
- A description no UTF-8 body can carry: not a tool (InvalidToolError), as the loader says.
"""

from __future__ import annotations

import copy

import pytest
from sent_support import MODES, TARGETS, Checker, label

import toolcast

OBJ_A = {"type": "object", "properties": {"a": {"type": "string"}}}
OBJ_B = {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]}

# Root bodies the root checks read (each refused, or rewritten, where it is the root itself).
ROOT_BODIES = {
    "anyOf": {"anyOf": [OBJ_A, OBJ_B]},
    "oneOf": {"oneOf": [OBJ_A, OBJ_B]},
    "anyOf-null": {"anyOf": [{"type": "object"}, {"type": "null"}]},
    "anyOf-integer": {"anyOf": [{"type": "integer"}]},
    "const": {"const": "c"},
    "enum-null": {"enum": [None]},
    "not": {"type": "object", "not": {"required": ["a"]}, "properties": {"a": {"type": "string"}}},
    "if": {"type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]}, **OBJ_A},
}


def _all_of_shapes(body: dict) -> dict:
    """The root allOf shapes `body` reaches the root through."""
    b = copy.deepcopy
    return {
        "direct": {"allOf": [b(body)]},
        "beside-an-object": {"allOf": [b(OBJ_A), b(body)]},
        "ref-defs": {"allOf": [{"$ref": "#/$defs/R"}], "$defs": {"R": b(body)}},
        "ref-definitions": {"allOf": [{"$ref": "#/definitions/R"}], "definitions": {"R": b(body)}},
        "ref-chain": {"allOf": [{"$ref": "#/$defs/Q"}], "$defs": {"Q": {"$ref": "#/$defs/R"}, "R": b(body)}},
        "nested": {"allOf": [{"allOf": [b(OBJ_A), b(body)]}]},
        "nested-ref": {"allOf": [{"allOf": [{"$ref": "#/$defs/R"}]}], "$defs": {"R": b(body)}},
        "root-ref-to-allOf": {"$ref": "#/$defs/W", "$defs": {"W": {"allOf": [b(body)]}}},
        # (a typed root beside its allOf, with nothing else a root check reads: the commonest root's path)
        "typed": {"type": "object", "allOf": [b(body)]},
        "typed-beside-properties": {"type": "object", "properties": {"c": {"type": "boolean"}}, "allOf": [b(body)]},
    }


# (name, the root the merge makes of it, written as a root, the schema): beside another part, the
# root is the two merged.
_MERGED = {"beside-an-object": OBJ_A, "nested": OBJ_A, "typed": {"type": "object"},
           "typed-beside-properties": {"type": "object", "properties": {"c": {"type": "boolean"}}}}
ALL_OF_CASES = [(f"{k}/{shape}", {**_MERGED.get(shape, {}), **body}, s)
                for k, body in ROOT_BODIES.items() for shape, s in _all_of_shapes(body).items()]

# A typed object root whose enum holds null: a known kind of its own (a root `{"type": "object",
# "enum": [null]}` is rejected the same way), not one that comes of the merge.
KNOWN = frozenset({"enum-null/beside-an-object", "enum-null/nested"})
ROOT_CODES = ("root-schema-anyof", "root-schema-not-object")


def _tool(schema: object, description: object = "d") -> dict:
    return {"name": "t", "description": description, "inputSchema": schema}


def _judge(cases: list[tuple[str, dict]]) -> None:
    """Every tool sent for every target, API and mode passes the oracle."""
    failures = []
    for target, api in TARGETS:
        for mode in MODES:
            checker = Checker(target, api, mode)
            for name, schema in cases:
                checker.check(_tool(schema), name)
            if checker.rejected:
                failures.append(checker.report("roots"))
    assert not failures, "\n".join(failures)


def _sent_schema(tool: dict) -> dict:
    """The schema object a tool is sent with, in each target's tool shape."""
    tool = tool.get("function", tool.get("toolSpec", tool))
    for key in ("parameters", "input_schema", "parametersJsonSchema", "inputSchema"):
        if key in tool:
            schema = tool[key]
            return schema["json"] if key == "inputSchema" and "json" in schema else schema
    raise AssertionError(tool)


def _root_codes(res: toolcast.CompileResult) -> set[str]:
    return {d.code.rpartition("/")[2] for d in res.diagnostics if d.code.rpartition("/")[2] in ROOT_CODES}


@pytest.mark.parametrize("body_name", list(ROOT_BODIES))
def test_a_root_all_of_part_is_sent_as_accepted(body_name: str) -> None:
    _judge([(name, s) for name, body, s in ALL_OF_CASES if name.startswith(body_name + "/") and name not in KNOWN])


@pytest.mark.parametrize(("name", "body", "schema"), ALL_OF_CASES, ids=[c[0] for c in ALL_OF_CASES])
def test_a_root_all_of_part_is_reported_as_the_root_holding_it_is(name: str, body: dict, schema: dict) -> None:
    """What the root checks say of `body` as the root, they say of it as a part of the root's
    allOf (at the part), and a tool refused strict there is never strict here."""
    for target, api in TARGETS:
        for mode in MODES:
            direct = toolcast.compile_tool(_tool(body), target=target, api=api, strict=mode)
            wrapped = toolcast.compile_tool(_tool(schema), target=target, api=api, strict=mode)
            where = label(target, api, mode)
            if mode is True:  # (the walk's root checks; without strict, sendable lifts the root its own way)
                missing = _root_codes(direct) - _root_codes(wrapped)
                assert not missing, (where, missing, [(d.code, d.path) for d in wrapped.diagnostics])
            if direct.status != "strict":
                assert wrapped.status != "strict", (where, wrapped.tool)
            if "root-schema-anyof" in _root_codes(direct) and not name.endswith("/root-ref-to-allOf"):
                paths = [d.path for d in wrapped.diagnostics if d.code.endswith("/root-schema-anyof")]
                assert paths and all(p.startswith("#/allOf/") for p in paths), (where, paths)


def test_a_root_all_of_part_with_an_any_of_is_refused_where_the_root_any_of_is() -> None:
    """Gemini `parameters` (the converted form, sent whatever the mode) refuses a root anyOf: so
    a part's, and nothing with a root anyOf is sent."""
    schema = {"allOf": [{"$ref": "#/$defs/R"}], "$defs": {"R": {"anyOf": [OBJ_A, OBJ_B]}}}
    for target in ("gemini", "vertex"):
        for mode in MODES:
            res = toolcast.compile_tool(_tool(schema), target=target, api="parameters", strict=mode)
            assert res.status == "refused" and res.tool is None
            assert [d.path for d in res.diagnostics if d.code.endswith("/root-schema-anyof")] == ["#/allOf/0/anyOf"]
    res = toolcast.compile_tool(_tool(schema), target="openai", strict="auto")
    assert res.status == "non-strict" and "anyOf" not in res.tool["parameters"]
    assert [d.path for d in res.diagnostics if d.code.endswith("/root-schema-anyof")] == ["#/allOf/0/anyOf"]


NULLABLE = {"type": "object", "nullable": True, "properties": {"a": {"type": "string"}}}
NULL_REF_CASES = [
    ("defs", {"$ref": "#/$defs/X", "$defs": {"X": NULLABLE}}),
    ("definitions", {"$ref": "#/definitions/X", "definitions": {"X": NULLABLE}}),
    ("chain", {"$ref": "#/$defs/Q", "$defs": {"Q": {"$ref": "#/$defs/X"}, "X": NULLABLE}}),
    ("long-chain", {"$ref": "#/$defs/P", "$defs": {"P": {"$ref": "#/$defs/Q"}, "Q": {"$ref": "#/$defs/X"}, "X": NULLABLE}}),
    ("description-beside", {"$ref": "#/$defs/X", "description": "x", "$defs": {"X": NULLABLE}}),
    ("to-a-property", {"type": "object", "properties": {"x": NULLABLE}, "$ref": "#/properties/x"}),
    ("bare", {"$ref": "#/$defs/X", "$defs": {"X": {"type": "object", "nullable": True}}}),
    ("recursive", {"$ref": "#/$defs/X", "$defs": {"X": {**NULLABLE, "properties": {"c": {"$ref": "#/$defs/X"}}}}}),
    ("null-branch", {"$ref": "#/$defs/X", "$defs": {"X": {"anyOf": [OBJ_A, {"type": "null"}]}}}),
    ("type-list", {"$ref": "#/$defs/X", "$defs": {"X": {"type": ["object", "null"], **{"properties": OBJ_A["properties"]}}}}),
]


def test_a_root_ref_to_a_nullable_definition_is_sent_as_accepted() -> None:
    _judge(NULL_REF_CASES)


@pytest.mark.parametrize(("name", "schema"), NULL_REF_CASES, ids=[c[0] for c in NULL_REF_CASES])
def test_a_root_ref_that_admits_null_is_read_as_the_object_alone(name: str, schema: dict) -> None:
    """The narrowing a root that also admits null gets (narrowed-root-to-object), after the root's
    `$ref` is followed, on the walk's path and on the original's: nothing sent admits null at the root."""
    for target, api in TARGETS:
        for mode in MODES:
            res = toolcast.compile_tool(_tool(schema), target=target, api=api, strict=mode)
            if res.tool is None:
                continue
            codes = {t.code.rpartition("/")[2] for t in res.transformations}
            assert "narrowed-root-to-object" in codes, (label(target, api, mode), codes)
            params = _sent_schema(res.tool)
            assert params.get("nullable") is not True and params.get("type") in ("object", "OBJECT"), (
                label(target, api, mode), params)


OBJECT_LIST_CASES = [
    ("direct", {"type": ["object"], "properties": {"a": {"type": "string"}}}),
    ("open", {"type": ["object"], "additionalProperties": {}}),  # (the strict form refuses it: sent as it was)
    ("any-of-object", {"type": ["object"], "anyOf": {}}),
    ("root-ref", {"$ref": "#/$defs/X", "$defs": {"X": {"type": ["object"], "properties": {"a": {"type": "string"}}}}}),
    ("root-ref-definitions", {"$ref": "#/definitions/X", "definitions": {"X": {"type": ["object"]}}}),
]


def test_a_root_type_list_of_object_alone_is_sent_as_accepted() -> None:
    _judge(OBJECT_LIST_CASES)


@pytest.mark.parametrize(("name", "schema"), OBJECT_LIST_CASES, ids=[c[0] for c in OBJECT_LIST_CASES])
def test_a_root_type_list_of_object_alone_is_written_object(name: str, schema: dict) -> None:
    for target, api in TARGETS:
        for mode in MODES:
            res = toolcast.compile_tool(_tool(schema), target=target, api=api, strict=mode)
            if res.tool is None:
                continue
            sent = _sent_schema(res.tool)
            assert sent["type"] in ("object", "OBJECT"), (label(target, api, mode), sent)


ESCAPED_REF_CASES = [
    ("escaped-d", {"type": "object", "properties": {"a": {"$ref": "#/%64efinitions/D0"}},
                   "definitions": {"D0": {"type": "string"}}}),
    ("escaped-slash", {"type": "object", "properties": {"a": {"$ref": "#/definitions%2FD0"}, "b": {"$ref": "#/definitions/D0"}},
                       "definitions": {"D0": {"type": "string"}}}),
    ("escaped-name", {"type": "object", "properties": {"a": {"$ref": "#/%64efinitions/D%200"}},
                      "definitions": {"D 0": {"type": "string"}}}),
    ("escaped-deeper", {"type": "object", "properties": {"a": {"$ref": "#/%64efinitions/D0/properties/x"}},
                        "definitions": {"D0": {"type": "object", "properties": {"x": {"type": "string"}}}}}),
    ("escaped-dollar-defs", {"type": "object", "properties": {"a": {"$ref": "#/%24defs/D0"}, "b": {"$ref": "#/$defs/D0"}},
                             "additionalProperties": {}, "$defs": {"D0": {"type": "string"}}}),
    ("escaped-open", {"type": "object", "properties": {"a": {"$ref": "#/%64efinitions/D0"}}, "additionalProperties": {},
                      "definitions": {"D0": {"type": "string"}}}),
]


def test_an_escaped_reference_into_definitions_is_sent_as_accepted() -> None:
    _judge(ESCAPED_REF_CASES)


@pytest.mark.parametrize(("name", "schema"), ESCAPED_REF_CASES, ids=[c[0] for c in ESCAPED_REF_CASES])
def test_an_escaped_reference_into_definitions_follows_the_rename(name: str, schema: dict) -> None:
    """Sent without strict with `definitions` named `$defs`: no reference names `definitions`."""
    for target, api in (("openai", "responses"), ("anthropic", None), ("mcp", None), ("gemini", "json-schema")):
        res = toolcast.compile_tool(_tool(schema), target=target, api=api, strict=False)
        assert res.tool is not None, label(target, api)
        text = repr(res.tool)
        assert "$defs" in text and "efinitions" not in text, (label(target, api), res.tool)
        if api == "json-schema":  # (policy sent_references local: `#/$defs/<name>` as it is spelled)
            assert "%" not in text, res.tool


@pytest.mark.parametrize("description", ["a\udc80b", "\ud83d", "\udfff"])
def test_a_description_no_utf8_body_can_carry_is_no_tool(description: str) -> None:
    for target, api in TARGETS:
        with pytest.raises(toolcast.InvalidToolError, match="unpaired UTF-16 surrogate") as exc:
            toolcast.compile_tool(_tool({"type": "object"}, description), target=target, api=api)
        assert exc.value.field == "description"


def test_the_error_quotes_a_long_description_around_its_surrogate_only() -> None:
    description = "x" * 5000 + "near\ud800here" + "y" * 5000
    with pytest.raises(toolcast.InvalidToolError) as exc:
        toolcast.compile_tool(_tool({"type": "object"}, description), target="openai")
    message = str(exc.value)
    assert len(message) < 300 and "near\\ud800here" in message and message.startswith("#/description: '...")


def test_a_name_no_utf8_body_can_carry_is_never_sent() -> None:
    for target, api in TARGETS:
        res = toolcast.compile_tool({"name": "t\ud800", "description": "d", "inputSchema": {"type": "object"}},
                                    target=target, api=api)
        assert res.status == "refused" and res.tool is None, label(target, api)


# A root `type: object` whose `const` or `enum` no object is: no call's arguments (an object) could
# satisfy it. Refused in every mode as a root that is no object, never sent (strict it was sent as it
# was, and the fallback once widened it to every object). The last two admit an object: controls.
NO_OBJECT_ROOTS = [
    ("const-null", {"type": "object", "const": None}),
    ("const-number", {"type": "object", "properties": {"a": {"type": "string"}}, "const": 1}),
    ("enum-null", {"type": "object", "enum": [None]}),
    ("enum-empty", {"type": "object", "enum": []}),
    ("enum-scalars", {"type": ["object"], "enum": ["a", 1, True]}),
    ("ref-to-one", {"$ref": "#/$defs/a", "$defs": {"a": {"type": "object", "enum": [1]}}}),
]
OBJECT_ROOTS = [
    ("enum-with-an-object", {"type": "object", "enum": [None, {"a": 1}]}),
    ("const-object", {"type": "object", "const": {"a": 1}}),
]


@pytest.mark.parametrize(("name", "schema"), NO_OBJECT_ROOTS + OBJECT_ROOTS,
                         ids=[c[0] for c in NO_OBJECT_ROOTS + OBJECT_ROOTS])
def test_a_root_whose_const_or_enum_is_no_object_is_refused_in_every_mode(name: str, schema: dict) -> None:
    refused = (name, schema) in NO_OBJECT_ROOTS
    for target, api in TARGETS:
        for mode in MODES:
            res = toolcast.compile_tool(_tool(copy.deepcopy(schema)), target=target, api=api, strict=mode)
            codes = {d.code.split("/")[1] for d in res.diagnostics if d.severity == "error"}
            where = label(target, api, mode)
            assert ("root-schema-not-object" in codes) is refused, where
            if refused:
                assert res.status == "refused", where


# A root that still says something of null once read as an object (the run-time red-team's round 3):
# `nullable: true` where a dialect is declared (which does not define it: object_root reads OpenAPI's
# only where none is), and null among a root enum's values beside an object.
DIALECTS = ("https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#",
            "http://json-schema.org/draft-04/schema#")
NULL_AT_THE_ROOT = {
    **{f"nullable/{d.split('/')[-2]}": {"$schema": d, "type": "object", "nullable": True, **OBJ_A} for d in DIALECTS},
    "enum-object-null": {"type": "object", "enum": [{"a": "x"}, None], "properties": {"a": {"type": "string"}}},
    "enum-object-null-untyped": {"enum": [None, {"a": "x"}]},
    "enum-object-null-declared": {"$schema": DIALECTS[1], "type": "object", "enum": [{"a": "x"}, None]},
}


def test_a_root_that_says_null_is_sent_as_the_object_alone() -> None:
    _judge(sorted(NULL_AT_THE_ROOT.items()))
    for name, schema in NULL_AT_THE_ROOT.items():
        for target, api in TARGETS:
            res = toolcast.compile_tool(_tool(copy.deepcopy(schema)), target=target, api=api, strict=False)
            if res.tool is None:
                continue
            sent = _sent_schema(res.tool)
            assert sent.get("nullable") is not True and None not in sent.get("enum", ()), (name, label(target, api))
            if "enum" in sent:  # (the object among the values kept where the root keeps its enum)
                assert sent["enum"] == [{"a": "x"}], (name, label(target, api))


# A typed root whose allOf part admits more than objects (pydantic's Optional model merged in): the
# root's type decides, so the merged root is an object (found by a red team: refused as no object).
WIDER_PART_CASES = [
    ("type-list", {"type": "object", "allOf": [{"type": ["object", "null"]}], "properties": {"a": {"type": "string"}}}),
    ("ref-type-list", {"type": "object", "allOf": [{"$ref": "#/$defs/N"}],
                       "$defs": {"N": {"type": ["object", "null"], "properties": {"a": {"type": "string"}}}}}),
    ("two-parts", {"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}}, {"type": ["null", "object"]}]}),
]


@pytest.mark.parametrize(("name", "schema"), WIDER_PART_CASES, ids=[c[0] for c in WIDER_PART_CASES])
def test_a_typed_root_with_a_wider_all_of_part_is_an_object(name: str, schema: dict) -> None:
    for target, api in TARGETS:
        for mode in MODES:
            res = toolcast.compile_tool(_tool(schema), target=target, api=api, strict=mode)
            codes = [d.code for d in res.diagnostics]
            assert not any(c.endswith("/root-schema-not-object") for c in codes), (label(target, api, mode), codes)
            if mode != True:  # noqa: E712 (strict true: some targets send no tool strict)
                assert res.status != "refused", (label(target, api, mode), codes)
    _judge([(name, schema)])
