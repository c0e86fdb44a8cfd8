"""Nulls and omission: OpenAPI `nullable` as OpenAPI 3.0.3 reads it, optional properties that
already accept null (optional_null), and a non-null `default` (issues 21 and 17)."""

from __future__ import annotations

import io
import json

import jsonschema
import pytest

import toolcast
from toolcast import strip_nulls
from toolcast.cli.main import main
from toolcast.openai import strict_schema


def _compile(props: dict, required: list | None = None, **kw):
    schema = {"type": "object", "properties": props}
    if required is not None:
        schema["required"] = required
    return toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, **kw)


def _codes(res) -> set[str]:
    return {d.code for d in res.diagnostics}


def _accepts(res, instance) -> bool:
    return jsonschema.Draft202012Validator(res.tool["parameters"]).is_valid(instance)


# -- 21.3: `nullable` has an effect only where OpenAPI 3.0.3 gives it one ------------------------

INEFFECTIVE = {
    "no type (oneOf)": {"oneOf": [{"type": "string"}, {"type": "integer"}], "nullable": True},
    "no type (allOf)": {"allOf": [{"$ref": "#/$defs/S"}], "nullable": True},
    "beside $ref": {"$ref": "#/$defs/S", "nullable": True},
    "enum without null": {"type": "string", "enum": ["a", "b"], "nullable": True},
}


@pytest.mark.parametrize("case", INEFFECTIVE)
def test_ineffective_nullable_is_dropped_and_null_stays_rejected(case: str) -> None:
    schema = {"type": "object", "properties": {"x": INEFFECTIVE[case]}, "required": ["x"],
              "$defs": {"S": {"type": "string"}}}
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema})
    assert res.status == "strict" and not res.lossy
    assert "openai/nullable-without-effect" in _codes(res)
    assert "openai/nullable-keyword-converted" not in _codes(res)
    assert not _accepts(res, {"x": None})  # the original (read as OpenAPI 3.0.3) rejects it too
    assert res.null_paths == ()


def test_nullable_beside_type_still_takes_effect() -> None:
    res = _compile({"x": {"type": "string", "nullable": True}}, ["x"])
    assert "openai/nullable-keyword-converted" in _codes(res)
    assert "openai/nullable-without-effect" not in _codes(res)
    assert _accepts(res, {"x": None}) and res.null_paths == ()


def test_optional_oneof_with_ineffective_nullable_gets_a_consistent_null_path() -> None:
    # Before: the compiled schema accepted null as a real value (the nullable rewrite) while the
    # null path stripped it, so a real null could never reach the handler.
    res = _compile({"milestone": {"oneOf": [{"type": "string"}, {"type": "integer"}], "nullable": True}})
    assert res.status == "strict"
    assert res.null_paths == (("milestone",),)
    assert "openai/nullable-without-effect" in _codes(res)
    # Null is accepted only as "left out", and strip_nulls turns it back into an omission.
    assert _accepts(res, {"milestone": None}) and strip_nulls({"milestone": None}, res.null_paths) == {}


# -- 21.4: omission is a value the model loses ------------------------------------------------

def test_optional_property_that_accepts_null_is_reported_on_each_property() -> None:
    res = _compile({"body": {"type": ["string", "null"]},
                    "title": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
                    "n": {"type": "integer"}})
    sent = [d for d in res.diagnostics if d.code == "openai/optional-null-reaches-handler"]
    assert [d.path for d in sent] == ["#/properties/body", "#/properties/title"]
    assert sent[0].severity == "warning" and "handler receives" in sent[0].message
    assert res.null_paths == (("n",),)
    assert res.status == "strict" and not res.lossy


def test_optional_null_omit_strips_that_null_too_and_is_reported_lossy() -> None:
    res = _compile({"body": {"type": ["string", "null"]}, "n": {"type": "integer"}}, optional_null="omit")
    assert res.status == "strict"
    assert res.null_paths == (("body",), ("n",))
    assert "openai/explicit-null-stripped" in _codes(res)
    assert "openai/optional-null-reaches-handler" not in _codes(res)
    lossy = [t for t in res.transformations if t.lossy]
    assert [(t.code, t.path) for t in lossy] == [("stripped-explicit-null", "#/properties/body")]
    assert res.tool["parameters"]["properties"]["body"] == {"type": ["string", "null"]}
    assert strip_nulls({"body": None, "n": None}, res.null_paths) == {}


def test_optional_null_reaches_every_entry_point() -> None:
    schema = {"type": "object", "properties": {"body": {"type": ["string", "null"]}}}
    _, paths = strict_schema(schema, optional_null="omit")
    assert paths == (("body",),)
    assert strict_schema(schema)[1] == ()
    tool = {"name": "t", "description": "d", "parameters": schema}
    (res,) = toolcast.compile_tools([tool], optional_null="omit")
    assert res.null_paths == (("body",),)
    with pytest.raises(ValueError, match="optional_null"):
        toolcast.compile_tool(tool, optional_null="drop")


def test_cli_optional_null(tmp_path, capsys) -> None:
    f = tmp_path / "t.json"
    f.write_text(json.dumps({"name": "t", "description": "d", "inputSchema": {
        "type": "object", "properties": {"body": {"type": ["string", "null"]}}}}))

    def run(*argv: str) -> tuple[int, str]:
        out, err = io.StringIO(), io.StringIO()
        return main(list(argv), stdout=out, stderr=err), out.getvalue()

    code, text = run("compile", str(f), "--format", "json")
    default = json.loads(text)
    assert code == 0 and default["results"][0]["null_paths"] == []
    code, text = run("compile", str(f), "--format", "json", "--optional-null", "omit")
    omit = json.loads(text)
    assert code == 0 and omit["results"][0]["null_paths"] == [["body"]]
    assert omit["optional_null"] == "omit" and "optional_null" not in default
    capsys.readouterr()
    _, text = run("compile", "--help")
    helptext = text + capsys.readouterr().out
    assert "--optional-null" in helptext and "explicit" in helptext


# -- 17.15: a non-null default on a nullable optional property ----------------------------------

def test_nullable_with_default_says_the_null_reaches_the_handler() -> None:
    # pydantic: Optional[int] = 5
    prop = {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": 5}
    res = _compile({"n": prop})
    assert res.null_paths == ()  # null is a real value: it reaches the handler
    default = next(d for d in res.diagnostics if d.code == "openai/default-keyword-dropped")
    assert "when the model sends null for an optional value" not in default.message
    assert "reaches the handler" in default.message
    assert "openai/optional-null-reaches-handler" in _codes(res)
    # With "omit", the null is stripped, so the handler's own default (5) applies.
    res = _compile({"n": prop}, optional_null="omit")
    assert res.null_paths == (("n",),)


# -- 17.14: a non-strict tool's report says what was sent ----------------------------------------

def test_non_strict_report_marks_the_fixes_it_did_not_apply() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "format": "not-a-format"},
                                               "m": {"type": "object", "additionalProperties": {"type": "string"}}}}
    res = toolcast.compile_tool({"name": "t", "description": "d\u200b", "inputSchema": schema})
    assert res.status == "non-strict" and res.tool["parameters"] == schema  # the original is what is sent
    by_code = {d.code: d for d in res.diagnostics}
    for code in ("openai/object-missing-additional-properties", "openai/strict-optional-property",
                 "openai/unsupported-string-format"):
        assert by_code[code].applied is False
        assert by_code[code].to_dict()["applied"] is False
    # The tool's own fixes were applied: its description was cleaned in what was sent.
    assert by_code["openai/description-invisible-characters"].applied is True
    assert res.tool["description"] == "d"
    assert "applied" not in by_code["openai/description-invisible-characters"].to_dict()
    schema_changes = [t for t in res.transformations if t.path.startswith("#/")]
    assert schema_changes and all(t.applied is False and t.to_dict()["applied"] is False for t in schema_changes)
    assert all(t.applied for t in res.transformations if t.code == "renamed-input-schema-to-parameters")
    # Text output says so too, instead of "fixed".
    from toolcast import render

    out = io.StringIO()
    render.render_text(out, [("src", res)], [], command="compile")
    lines = [ln for ln in out.getvalue().splitlines() if "strict-optional-property" in ln]
    assert lines and all("not applied" in ln and " fixed " not in ln for ln in lines)


def test_strict_report_keeps_its_bytes() -> None:
    res = _compile({"a": {"type": "string"}})
    assert res.status == "strict"
    assert all(d.applied and "applied" not in d.to_dict() for d in res.diagnostics)
    assert all(t.applied and "applied" not in t.to_dict() for t in res.transformations)


def test_nullable_in_one_all_of_part_does_not_outvote_a_part_that_rejects_null() -> None:
    # allOf needs every part: null fails {"type": "string"}, so the merged schema must reject it,
    # and an optional property of that shape gets a null path that agrees.
    x = {"allOf": [{"type": "string", "nullable": True}, {"type": "string", "maxLength": 3}]}
    res = _compile({"x": x}, ["x"])
    assert res.status == "strict" and not res.lossy
    assert not _accepts(res, {"x": None})
    assert "openai/nullable-without-effect" in _codes(res)
    res = _compile({"x": x})
    assert res.null_paths == (("x",),)
    both = {"allOf": [{"type": "string", "nullable": True}, {"type": "string", "nullable": True, "maxLength": 3}]}
    res = _compile({"x": both}, ["x"])
    assert _accepts(res, {"x": None}) and "openai/nullable-without-effect" not in _codes(res)
