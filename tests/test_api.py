"""The Python API: shapes read, policy, purity, determinism, strict_schema errors, messages."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from rule_facts import unsupported_format

import toolcast
from toolcast import ITEMS, StrictSchemaError, compile_tool, compile_tools
from toolcast.openai import strict_schema

OPTIONAL = {"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["q"]}


def test_conduit_doctest_d1() -> None:
    schema, paths = strict_schema(OPTIONAL)
    assert schema["properties"]["limit"] == {"type": ["integer", "null"]}
    assert sorted(schema["required"]) == ["limit", "q"]
    assert schema["additionalProperties"] is False
    assert paths == (("limit",),)


def test_conduit_doctest_d2_error_names_node_and_keyword() -> None:
    with pytest.raises(StrictSchemaError) as info:
        strict_schema({"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 2}]}}})
    err = info.value
    assert err.path == "#/properties/v/oneOf"
    assert err.keyword_or_limit == "oneOf"
    assert err.code == "openai/one-of-converted-to-any-of"
    # Every finding, each under its own code (the walk records an optional property's two as one).
    assert [d[:3] for d in err.diagnostics if d[2] == ("properties", "v")] == [
        ("openai/strict-optional-property", "#", ("properties", "v")),
        ("openai/nullable-instead-of-omitted", "#", ("properties", "v"))]


def test_strict_schema_error_for_a_limit_names_the_limit() -> None:
    from toolcast.rules import get_rules

    over = get_rules(None).limit("max_enum_values") + 1  # (one past the default rules' limit, not pinned)
    schema = {"type": "object", "properties": {"e": {"enum": list(range(over))}}, "required": ["e"]}
    with pytest.raises(StrictSchemaError) as info:
        strict_schema(schema)
    assert info.value.keyword_or_limit == "max_enum_values"
    assert info.value.code == "openai/too-many-enum-values"


@pytest.mark.parametrize(
    "tool,api,expected_shape",
    [
        ({"name": "t", "inputSchema": OPTIONAL}, "responses", "flat"),
        ({"name": "t", "input_schema": OPTIONAL}, "responses", "flat"),
        ({"type": "function", "name": "t", "parameters": OPTIONAL}, "chat", "nested"),
        ({"type": "function", "function": {"name": "t", "parameters": OPTIONAL}}, "responses", "flat"),
    ],
)
def test_every_input_shape_in_every_api(tool: dict, api: str, expected_shape: str) -> None:
    r = compile_tool(tool, api=api)
    assert r.status == "strict"
    if expected_shape == "flat":
        assert set(r.tool) == {"type", "name", "parameters", "strict"}
        assert r.tool["strict"] is True
    else:
        assert set(r.tool) == {"type", "function"}
        assert r.tool["function"]["strict"] is True
    assert r.null_paths == (("limit",),)


def test_mcp_sdk_tool_object_is_read() -> None:
    from mcp.types import Tool

    r = compile_tool(Tool(name="t", description="d", inputSchema=OPTIONAL))
    assert r.status == "strict" and r.tool["name"] == "t"


def test_input_is_never_mutated() -> None:
    tool = {"name": "t", "description": "d\u200b", "inputSchema": {**OPTIONAL, "$defs": {"A": {"type": "object"}}, "properties": {**OPTIONAL["properties"], "a": {"$ref": "#/$defs/A", "description": "x"}, "o": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}}}
    before = copy.deepcopy(tool)
    for strict in ("auto", True, False):
        compile_tool(tool, strict=strict)
    assert tool == before


def test_a_bundled_document_is_never_mutated() -> None:
    # Bundling copies only what changes (a repointed `$ref`, a nested resource's keywords dropped,
    # a target hoisted into the root's `$defs`); the caller's containers stay as they were.
    schema = {"$id": "https://x.invalid/s.json", "type": "object", "required": ["a", "b", "c"],
              "properties": {"a": {"$ref": "#/properties/c"}, "b": {"$ref": "n.json"},
                             "c": {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"],
                                   "additionalProperties": False}},
              "$defs": {"n": {"$id": "n.json", "type": "string", "$defs": {"m": {"type": "integer"}}}}}
    tool = {"name": "t", "inputSchema": schema}
    before = copy.deepcopy(tool)
    for target in ("openai", "gemini"):
        res = compile_tool(tool, target=target)
        assert res.status != "refused", res.diagnostics
    assert tool == before


def test_output_is_byte_stable_and_shares_nothing_with_the_input() -> None:
    tool = {"name": "t", "inputSchema": {"type": "object", "properties": {"z": {"type": "string"}, "a": {"type": "object", "properties": {"k": {"type": "string"}}}}}}
    a = json.dumps(compile_tool(tool).to_dict())
    b = json.dumps(compile_tool(copy.deepcopy(tool)).to_dict())
    assert a == b
    assert list(json.loads(a)["tool"]["parameters"]["properties"]) == ["z", "a"]  # author's order
    # Non-strict output is a copy too.
    r = compile_tool({"name": "t", "inputSchema": {"type": "object", "properties": {"m": {"type": "object"}}}})
    assert r.status == "non-strict"
    r.tool["parameters"]["properties"]["m"]["x"] = 1
    assert compile_tool({"name": "t", "inputSchema": {"type": "object", "properties": {"m": {"type": "object"}}}}).tool["parameters"]["properties"]["m"] == {"type": "object"}


def test_policy_matrix() -> None:
    lost = unsupported_format()  # (a format the default rules drop, lossy: from the rules, not pinned)
    lossy = {"name": "f", "inputSchema": {"type": "object", "properties": {"u": {"type": "string", "format": lost}}, "required": ["u"]}}
    refusing = {"name": "g", "inputSchema": {"type": "object", "properties": {"m": {"type": "object"}}, "required": ["m"]}}
    expect = {
        ("auto", False): ("non-strict", "non-strict"),
        ("auto", True): ("strict", "non-strict"),
        (True, False): ("refused", "refused"),
        (True, True): ("strict", "refused"),
        (False, False): ("non-strict", "non-strict"),
        (False, True): ("non-strict", "non-strict"),
    }
    for (strict, allow), (want_lossy, want_refusing) in expect.items():
        assert compile_tool(lossy, strict=strict, allow_lossy=allow).status == want_lossy, (strict, allow)
        assert compile_tool(refusing, strict=strict, allow_lossy=allow).status == want_refusing, (strict, allow)
    r = compile_tool(lossy)
    assert r.tool["strict"] is False and r.tool["parameters"] == lossy["inputSchema"]
    assert any(d.code == "openai/sent-non-strict" and "dropped-unsupported-format" in d.message for d in r.diagnostics)


def test_invalid_names_are_refused_in_every_mode() -> None:
    for strict in ("auto", True, False):
        r = compile_tool({"name": "a.b", "inputSchema": {"type": "object"}}, strict=strict)
        assert r.status == "refused" and r.tool is None


@pytest.mark.parametrize("target", ["openai", "anthropic", "gemini", "vertex"])
@pytest.mark.parametrize("schema,place", [
    ({"type": "string"}, "#/type"), ({"type": ["string", "null"]}, "#/type"), ({"enum": ["a", "b"]}, "#"),
    ("a string", "#"), ([{"type": "object"}], "#"),
])
def test_a_root_that_is_no_object_schema_is_refused_with_strict_off_too(target: str, schema, place: str) -> None:
    # Found by testing: every provider's rules list root-schema-not-object among the codes refused in
    # every mode, but with strict off the schema is not walked, and only non-JSON values were looked
    # for: {"type": "string"} was sent as the parameters of a non-strict tool (the API rejects it).
    for strict in ("auto", True, False):
        r = compile_tool({"name": "t", "inputSchema": schema}, target=target, strict=strict)
        assert r.status == "refused" and r.tool is None, (strict, r.status)
        assert [d.path for d in r.diagnostics if d.code.endswith("/root-schema-not-object")] == [place], strict
    # An object root is sent as it is with strict off.
    assert compile_tool({"name": "t", "inputSchema": {"type": ["object"]}}, target=target, strict=False).status != "refused"


def test_compile_tools_refuses_a_repeated_name() -> None:
    rs = compile_tools([{"name": "x", "inputSchema": {}}, {"name": "x", "inputSchema": {}}, {"name": "y"}])
    assert [r.status for r in rs] == ["strict", "refused", "strict"]
    assert rs[1].diagnostics[-1].code == "openai/duplicate-tool-name"


def test_not_a_tool_raises_a_clear_error() -> None:
    with pytest.raises(toolcast.InvalidToolError, match="not a tool"):
        compile_tool({"foo": 1})
    with pytest.raises(toolcast.InvalidToolError):
        compile_tool([1, 2])


def test_rules_selection_and_unknown_versions() -> None:
    assert compile_tool({"name": "t"}, rules="2026-08-20").rules == "openai@2026-08-20"
    assert compile_tool({"name": "t"}, rules="openai@2026-10-17").rules == "openai@2026-10-17"
    assert compile_tool({"name": "t"}, rules="latest").rules.startswith("openai@")
    with pytest.raises(toolcast.UnknownRulesError, match="available: openai@"):
        compile_tool({"name": "t"}, rules="1999-01-01")


def test_messages_are_pinned_for_a_few_codes() -> None:
    r = compile_tool({"name": "t", "inputSchema": {"type": "object", "properties": {"limit": {"type": "integer"}}}})
    msgs = {d.code: d.message for d in r.diagnostics}
    assert msgs["openai/strict-optional-property"] == "Property 'limit' is optional; strict mode requires every property to be listed in `required`."
    assert msgs["openai/object-missing-additional-properties"] == "The object does not set `additionalProperties: false`, which strict mode requires."
    r = compile_tool({"name": "bad name"})
    assert r.diagnostics[0].message == "Tool name 'bad name' has characters OpenAI does not accept; names must match ^[A-Za-z0-9_-]{1,64}$."
    assert r.diagnostics[0].docs_url.startswith("https://")


def test_null_paths_in_json_use_null_for_items() -> None:
    r = compile_tool({"name": "t", "inputSchema": {"type": "object", "properties": {"xs": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "string"}}}}}, "required": ["xs"]}})
    assert r.null_paths == (("xs", ITEMS, "n"),)
    assert r.to_dict()["null_paths"] == [["xs", None, "n"]]


def test_a_null_path_that_anyof_branches_share_is_listed_once() -> None:
    # Each branch walks the same instance place: the walk lists the path once, not per branch.
    obj = {"type": "object", "properties": {"n": {"type": "string"}, "m": {"type": "integer"}}, "required": ["m"]}
    r = compile_tool({"name": "t", "inputSchema": {"type": "object", "required": ["x"], "properties": {
        "x": {"anyOf": [obj, {**obj, "properties": {**obj["properties"], "k": {"type": "boolean"}}}]}}}})
    assert r.status == "strict"
    assert r.null_paths == (("x", "n"), ("x", "k"))
    nullable = [d.path for d in r.diagnostics if d.code == "openai/nullable-instead-of-omitted"]
    assert nullable == ["#/properties/x/anyOf/0/properties/n", "#/properties/x/anyOf/1/properties/n",
                        "#/properties/x/anyOf/1/properties/k"]


def test_description_cap_keeps_whole_characters() -> None:
    r = compile_tool({"name": "t", "description": "€" * 2000})  # 3 bytes each
    d = r.tool["description"]
    assert len(d.encode()) <= 4096 and d == "€" * (4096 // 3)


_HEAVY = ('yaml', 'lark', 'jsonschema', 'mcp', 'openai', 'pydantic')


def _modules_after(code: str, heavy: tuple[str, ...] = _HEAVY) -> set[str]:
    probe = code + f"; import sys; print(','.join(m for m in {heavy!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(filter(None, out.stdout.strip().split(",")))


def test_import_and_compile_stay_light() -> None:
    assert _modules_after("import toolcast") == set()
    plain = "{'name': 't', 'inputSchema': {'type': 'object', 'properties': {'a': {'type': 'string'}}}}"
    assert _modules_after(f"import toolcast; toolcast.compile_tool({plain})") == set()
    # The regex grammar is loaded only when a pattern has to be analysed.
    with_pattern = "{'name': 't', 'inputSchema': {'type': 'object', 'properties': {'a': {'type': 'string', 'pattern': '^a'}}}}"
    assert _modules_after(f"import toolcast; toolcast.compile_tool({with_pattern})") <= {"lark"}


def test_urllib_parse_is_imported_by_the_first_document_that_needs_it() -> None:
    """A same-document `$ref` is resolved without urllib.parse; an absolute one needs RFC 3986's
    join, which imports it then (and resolves as before)."""
    local = ("{'name': 't', 'inputSchema': {'type': 'object', 'properties': {'a': {'$ref': '#/$defs/x'}}, "
             "'$defs': {'x': {'type': 'string'}}}}")
    assert _modules_after(f"import toolcast; toolcast.compile_tool({local})", ("urllib.parse",)) == set()
    absolute = ("{'name': 't', 'inputSchema': {'$id': 'https://example.com/r.json', 'type': 'object', "
                "'properties': {'a': {'$ref': 'https://example.com/r.json#/$defs/x'}}, "
                "'$defs': {'x': {'type': 'string'}}}}")
    code = f"import toolcast; r = toolcast.compile_tool({absolute}); assert r.status == 'strict', r.status"
    assert _modules_after(code, ("urllib.parse",)) == {"urllib.parse"}


def test_the_cli_starts_without_dataclasses() -> None:
    """`toolcast compile` starts in a fresh process each time: dataclasses would bring inspect, ast
    and dis with it, about 10 ms of every start-up (measured against `python -c pass`)."""
    example = str(Path(__file__).resolve().parent.parent / "examples" / "refund_order.json")
    run = f"import io, toolcast.cli.main; assert toolcast.cli.main.main(['compile', {example!r}], stdout=io.StringIO()) == 0"
    assert _modules_after(run, ("dataclasses", "inspect", "ast", *_HEAVY)) == set()


def test_a_plain_cli_compile_writes_the_emit_code_of_its_target_only() -> None:
    """Listing the targets (the CLI's help) builds no emit function; the compile builds its own
    target's on its first emit (each is source compiled at run time). `secrets` (and the hashlib,
    random and hmac it brings) is imported only to write a baseline."""
    example = str(Path(__file__).resolve().parent.parent / "examples" / "refund_order.json")
    run = f"import io, toolcast.cli.main; assert toolcast.cli.main.main(['compile', {example!r}], stdout=io.StringIO()) == 0"
    built = ("; from toolcast.providers import EMITTERS; "
             "print(','.join(n for n, t in EMITTERS.items() if t.emit.__code__.co_filename.startswith('<wire')))")
    out = subprocess.run([sys.executable, "-c", run + built], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "openai"
    assert _modules_after(run, ("secrets",)) == set()


def test_findings_are_read_only_records_built_on_first_read() -> None:
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"a": {"type": "string", "default": "x"}, "b": {"$ref": 5}}}})
    # A $ref that is not a string is reported once, though two checks find it.
    codes = [(d.code, d.path) for d in res.diagnostics]
    assert codes.count(("openai/invalid-keyword-value", "#/properties/b/$ref")) == 1
    assert len(codes) == len(set(codes)) and res.status == "refused"  # (an invalid value refuses in every mode)
    assert res.lossy is any(t.lossy for t in res.transformations)
    d = res.diagnostics[0]
    with pytest.raises(AttributeError):
        d.code = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        res.status = "strict"  # type: ignore[misc]
    assert d == toolcast.Diagnostic(d.code, d.base, d.tokens, d.params, d.entry) and hash(d) == hash(
        toolcast.Diagnostic(d.code, d.base, d.tokens, d.params, d.entry))
    assert res.diagnostics is res.diagnostics  # built once
    assert d.to_dict()["message"] == d.message and d.message.strip()


def test_results_pickle_and_copy_with_their_findings() -> None:
    """A result crosses process boundaries (multiprocessing) and deep-copies like plain data."""
    import pickle

    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"a": {"type": "string", "format": "not-a-format"}}}})
    for other in (pickle.loads(pickle.dumps(res)), copy.deepcopy(res)):
        assert other == res and other.to_dict() == res.to_dict()
        assert other.tool is not res.tool and other.lossy == res.lossy
        assert [d.message for d in other.diagnostics] == [d.message for d in res.diagnostics]


def test_a_plain_install_can_compile_patterns() -> None:
    """`pip install toolcast` (no extras) brings what compiling needs: lark analyses `pattern`."""
    import importlib.metadata

    requires = importlib.metadata.requires("toolcast") or []
    core = [r for r in requires if "extra ==" not in r]
    assert any(r.replace(" ", "").startswith("lark") for r in core), core
    res = compile_tool({"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}$"}}, "required": ["code"]}})
    assert res.status == "strict" and res.tool["parameters"]["properties"]["code"]["pattern"] == "^[A-Z]{3}$"


def test_compiling_pauses_the_cycle_collector_and_always_restores_it(monkeypatch) -> None:
    """A large compile (definitions, or many root properties) and compile_tools turn the cyclic GC
    off while they run (the walk makes no cycles) and back on afterwards, also when they raise;
    a small tool is compiled with it on, and a caller's own `gc.disable()` stays."""
    import gc

    from toolcast import compile as compile_mod
    from toolcast.compile import PAUSE_GC_PROPERTIES
    seen = []
    walk_schema = compile_mod.walk_schema

    def spied(walk, schema):
        seen.append(gc.isenabled())
        if schema.get("boom"):
            raise KeyError("boom")  # a bug inside the walk: the collector must come back on
        return walk_schema(walk, schema)

    monkeypatch.setattr(compile_mod, "walk_schema", spied)
    small = {"name": "s", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
    wide = {"name": "w", "inputSchema": {"type": "object", "properties": {
        f"p{i}": {"type": "string"} for i in range(PAUSE_GC_PROPERTIES + 1)}}}
    with_defs = {"name": "d", "parameters": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
                                             "$defs": {"A": {"type": "string"}}}}
    assert gc.isenabled()
    for tool, running in ((small, True), (wide, False), (with_defs, False)):
        seen.clear()
        compile_tool(tool)
        assert seen == [running] and gc.isenabled()
    seen.clear()
    compile_tools([small, wide, with_defs])
    assert seen == [False, False, False] and gc.isenabled()
    seen.clear()
    with pytest.raises(KeyError):
        compile_tool({"name": "b", "parameters": {"boom": True, "$defs": {}}})
    assert seen == [False] and gc.isenabled()
    with pytest.raises(toolcast.InvalidToolError):
        compile_tools([small, 5])
    assert gc.isenabled()
    gc.disable()
    try:
        seen.clear()
        compile_tool(wide)
        compile_tools([small])
        assert seen == [False, False] and not gc.isenabled()
    finally:
        gc.enable()


def test_a_schema_large_below_a_small_root_is_walked_with_the_collector_paused(monkeypatch) -> None:
    """compile_tool decides from the root alone; a walk that meets more than
    PAUSE_GC_AFTER_PROPERTIES properties on its way down pauses the collector itself (the allOf
    parts and depth curves of the benchmark spent a fifth of their time in it), keeps it paused
    for compile_tool's copy of a non-strict schema, and always turns it back on."""
    import gc

    from toolcast import compile as compile_mod
    from toolcast.rules import get_rules
    from toolcast.walk import PAUSE_GC_AFTER_PROPERTIES, Walk, descent, walk_schema, walker

    seen = []
    object_rules = descent._object_rules

    def spied(walk, *rest):  # (read once per object, as a module global: patched in both builds)
        seen.append(gc.isenabled())
        return object_rules(walk, *rest)

    copies = []
    # (the copy of the original a tool sent non-strict sends: made by the compile, or in the scan's
    # pass once the walk has settled that the original is sent)
    looked_copy, scanned_copy = compile_mod.looked_copy, walker.scanned_copy

    def copy_spy(value):
        copies.append(gc.isenabled())
        return looked_copy(value)

    def scan_spy(value):
        copies.append(gc.isenabled())
        return scanned_copy(value)

    monkeypatch.setattr(descent, "_object_rules", spied)
    monkeypatch.setattr(compile_mod, "looked_copy", copy_spy)
    monkeypatch.setattr(walker, "scanned_copy", scan_spy)
    big = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(PAUSE_GC_AFTER_PROPERTIES + 1)}}
    after = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    schema = {"type": "object", "properties": {"a": big, "z": after}, "required": ["a", "z"]}
    assert gc.isenabled()
    # root, then `a` (which pauses it on entry, before its rules are read), then `z`: the same from
    # compile_tool and the walk
    assert compile_tool({"name": "t", "parameters": schema}).status == "strict"
    assert seen == [True, False, False] and gc.isenabled()
    seen.clear()
    walk_schema(Walk(get_rules()), schema)
    assert seen == [True, False, False] and gc.isenabled()
    # Sent non-strict (a free-form object refuses): still paused for the copy.
    seen.clear()
    loose = {**schema, "properties": {**schema["properties"], "z": {"type": "object"}}}
    assert compile_tool({"name": "t", "parameters": loose}).status == "non-strict"
    assert copies == [False] and gc.isenabled()
    # A walk that ends in RecursionError (reported as too deep) turns it back on too.
    deep: dict = {"type": "string"}
    for _ in range(600):
        deep = {"allOf": [deep]}
    res = compile_tool({"name": "t", "parameters": {**schema, "properties": {"a": big, "d": deep}}})
    assert "openai/schema-too-deep" in {d.code for d in res.diagnostics} and gc.isenabled()
    # A caller's own gc.disable() stays.
    gc.disable()
    try:
        seen.clear()
        compile_tool({"name": "t", "parameters": schema})
        assert seen == [False, False, False] and not gc.isenabled()
    finally:
        gc.enable()


def test_dict_and_list_subclasses_and_tuples_compile_as_the_plain_json_they_stand_for() -> None:
    """A schema built of dict subclasses (OrderedDict, a class of the caller's), list subclasses and
    tuples is the JSON document it serialises to: the same result, key order included, as the
    plain document (the walk reads plain dicts and lists; compiled, its methods take exact ones)."""
    from collections import OrderedDict

    class Schema(dict):
        pass

    class Items(list):
        pass

    plain = {"type": "object", "properties": {
        "a": {"type": "string", "enum": ["x", "y"]},
        "b": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/D"}]},
        "c": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "number"}}}},
        "d": {"allOf": [{"type": "string"}, {"maxLength": 3}]}},
        "required": ["a"], "$defs": {"D": {"type": "boolean"}}}
    built = Schema(type="object", properties=OrderedDict([
        ("a", Schema(type="string", enum=Items(["x", "y"]))),
        ("b", OrderedDict(anyOf=(Schema(type="integer"), Schema({"$ref": "#/$defs/D"})))),
        ("c", Schema(type="array", items=OrderedDict(type="object", properties=Schema(n=Schema(type="number"))))),
        ("d", Schema(allOf=Items([Schema(type="string"), OrderedDict(maxLength=3)])))]),
        required=("a",), **{"$defs": OrderedDict(D=Schema(type="boolean"))})
    assert json.loads(json.dumps(built)) == plain
    for strict in ("auto", True, False):
        a = compile_tool({"name": "t", "description": "d", "parameters": plain}, strict=strict).to_dict()
        b = compile_tool({"name": "t", "description": "d", "parameters": built}, strict=strict).to_dict()
        assert json.dumps(a) == json.dumps(b), strict


def test_a_compile_leaves_no_reference_cycles() -> None:
    """What pausing the collector rests on: results, findings (read or not) and the walk's own
    structures are freed by reference counting alone. A result that held a cycle (a finding
    whose deferred parameters referred to the list holding it did) survives every compile until
    the collector runs, and makes it run over whole results."""
    import gc

    tools = [
        {"name": "s", "inputSchema": {"type": "object", "properties": {"a": {"type": "string", "pattern": "^a+$"}}}},
        {"name": "n", "description": "d", "inputSchema": {"type": "object", "properties": {  # non-strict: refused part
            "a": {"not": {"type": "string"}}, "b": {"type": "integer"}}}},
        {"name": "l", "inputSchema": {"type": "object", "required": ["v"], "properties": {  # non-strict: lossy
            "v": {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 2}]}}}},
        {"name": "r", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
                                      "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/A"}}}}}},
        {"name": "bad name", "inputSchema": {"not": {}}},
    ]
    for policy in ({}, {"strict": True}, {"strict": True, "allow_lossy": True}, {"strict": False}):
        compile_tools(tools, **policy)  # one-off caches (the pattern grammar) out of the way
    gc.collect()
    gc.disable()
    try:
        for policy in ({}, {"strict": True}, {"strict": True, "allow_lossy": True}, {"strict": False}):
            for read in (False, True):
                results = [compile_tool(t, **policy) for t in tools] + list(compile_tools(tools, **policy))
                assert {r.status for r in results} >= {"refused"}
                if read:
                    for r in results:
                        r.to_dict()
                del results
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_repeated_findings_with_unhashable_parameters_are_removed_by_equality() -> None:
    """_unique_records cannot hash such records; the findings built from them are still read
    once each (this path raised TypeError while a second `_unique` shadowed the first)."""
    from toolcast.model import CompileResult
    from toolcast.rules import get_rules

    rec = ("openai/unsupported-keyword", "#", ("a",), (("keyword", ["x"]),))
    other = ("openai/unsupported-keyword", "#", ("a",), (("keyword", ["y"]),))
    res = CompileResult._from_records("t", "strict", None, (), [rec, rec, other], [], get_rules(None), "responses")
    assert [d.path for d in res.diagnostics] == ["#/a", "#/a"]
    assert res.diagnostics[0] != res.diagnostics[1]
