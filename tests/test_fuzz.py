"""Fuzzing with hypothesis (short in CI; TOOLCAST_FUZZ_EXAMPLES=N for long runs; atheris: fuzz/README.md).

Contracts: compile_tool raises only InvalidToolError (not a tool at all), strict_schema only
StrictSchemaError, and the result always serialises; the CLI, fed arbitrary bytes or
arbitrary JSON, exits 0, 1 or 2 with no traceback and no "internal error". Crashes found
here become regression tests (test_hostile.py, test_fidelity.py).
"""

from __future__ import annotations

import io
import json

from hypothesis import assume, given
from hypothesis import strategies as st
from oracles.openai_strict import tool_violations
from strategies import PROFILE_OF, RULES, SETTINGS, examples

import toolcast
from toolcast.cli.main import main as cli_main
from toolcast.openai import strict_schema

KEYWORDS = ["type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "oneOf",
            "allOf", "not", "$ref", "$defs", "definitions", "format", "pattern", "minimum", "maxLength", "nullable",
            "default", "description", "title", "prefixItems", "if", "then", "x-y", "a", "b"]
TYPES = st.sampled_from(["object", "string", "integer", "number", "array", "null", "boolean", "bogus"])
REFS = st.sampled_from(["#", "#/$defs/a", "#/$defs/b", "#/definitions/a", "#/properties/a", "http://x/y", "a.json", "#/$defs/a~1b"])
LEAF = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False, width=32),
                 st.text(max_size=4), TYPES, REFS, st.lists(TYPES, max_size=3))
VALUES = st.recursive(
    LEAF,
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(st.sampled_from(KEYWORDS), kids, max_size=5)),
    max_leaves=25,
)
KNOWN_BUG_RULES = {"no-finite-instance", "ref-cycle", "enum-value-not-scalar", "const-not-scalar"}


def _compile(tool, **kw):
    try:
        return toolcast.compile_tool(tool, **kw)
    except toolcast.InvalidToolError:
        return None


@SETTINGS
@given(params=VALUES, name=st.one_of(st.just("t"), st.text(max_size=70)), api=st.sampled_from(["responses", "chat"]),
       strict=st.sampled_from(["auto", True, False]), rules=st.sampled_from(RULES))
def test_compile_tool_never_crashes(params, name, api, strict, rules):
    res = _compile({"name": name, "description": "d", "parameters": params}, api=api, strict=strict, rules=rules)
    if res is None:
        return
    json.dumps(res.to_dict(), allow_nan=False)
    assert res.status in ("strict", "non-strict", "refused")
    assert (res.tool is None) == (res.status == "refused")
    if res.status == "strict":
        bad = {v.rule for v in tool_violations(res.tool, api, profile=PROFILE_OF[rules])}
        assert bad <= KNOWN_BUG_RULES, bad
        assert not res.lossy


@examples(100)
@given(tool=VALUES)
def test_any_value_as_a_tool(tool):
    res = _compile(tool)
    if res is not None:
        json.dumps(res.to_dict(), allow_nan=False)


@examples(100)
@given(schema=VALUES)
def test_strict_schema_raises_only_its_error(schema):
    try:
        out, paths = strict_schema(schema)
    except toolcast.StrictSchemaError as exc:
        assert exc.code and exc.path.startswith("#")
        return
    except RecursionError:
        assume(False)  # known bug (see test_hostile.py)
    json.dumps(out, allow_nan=False)
    assert isinstance(paths, tuple)


@examples(100)
@given(args=VALUES, paths=st.lists(st.lists(st.one_of(st.sampled_from(["a", "b", "type"]), st.none()), max_size=4), max_size=4))
def test_strip_and_fill_nulls_never_crash(args, paths):
    stripped = toolcast.strip_nulls(args, paths)
    filled = toolcast.fill_nulls(args, paths)
    assert toolcast.strip_nulls(stripped, paths) == stripped
    assert toolcast.strip_nulls(filled, paths) == toolcast.strip_nulls(stripped, paths) or filled != args


def _run_cli(argv, data: bytes):
    out, err = io.StringIO(), io.StringIO()
    code = cli_main(argv, stdout=out, stderr=err, stdin=io.BytesIO(data))
    text = err.getvalue()
    assert code in (0, 1, 2), (code, text)
    assert "internal error" not in text and "Traceback" not in text, text
    return code, out.getvalue()


@examples(100)
@given(data=st.binary(max_size=300), cmd=st.sampled_from(["compile", "check"]), fmt=st.sampled_from(["text", "json"]))
def test_cli_on_arbitrary_bytes(data, cmd, fmt):
    _code, out = _run_cli([cmd, "-", "--format", fmt], data)
    if fmt == "json":
        json.loads(out)


@examples(100)
@given(doc=VALUES, wrap=st.sampled_from(["tool", "list", "tools", "raw"]), fmt=st.sampled_from(["text", "json"]),
       strict=st.sampled_from(["auto", "true", "false"]))
def test_cli_on_arbitrary_json(doc, wrap, fmt, strict):
    if wrap == "tool":
        doc = {"name": "t", "description": "d", "inputSchema": doc}
    elif wrap == "list":
        doc = [{"name": "t", "inputSchema": doc}, {"name": "t", "parameters": doc}]
    elif wrap == "tools":
        doc = {"tools": [{"name": "u", "inputSchema": doc}]}
    _code, out = _run_cli(["compile", "-", "--format", fmt, "--strict", strict], json.dumps(doc).encode())
    if fmt == "json":
        json.loads(out)


@examples(60)
@given(argv=st.lists(st.sampled_from(["compile", "check", "rules", "list", "show", "-", "--format", "json", "--strict",
                                      "maybe", "--rules", "openai@1999-01-01", "--out", "--api", "chat", "--fail-on",
                                      "warning", "--bogus", "x.json"]), max_size=6))
def test_cli_on_arbitrary_arguments(argv):
    assume("--out" not in argv)  # never write into the working tree
    _run_cli(argv, b'{"name": "t", "inputSchema": {"type": "object"}}')
