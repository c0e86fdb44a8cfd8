"""ToolSet naming: sanitizing, truncation with hashes, collisions, order independence, immutability."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rule_facts import unsupported_format

from toolcast.toolset import ExposedTool, NamingReport, ToolSet

VALID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def tool(name: str, **extra: object) -> dict:
    return {"name": name, "description": f"does {name}", "inputSchema": {"type": "object"}, **extra}


def h8(server: str, name: str) -> str:
    return hashlib.sha256(f"{server}/{name}".encode()).hexdigest()[:8]


def test_plain_names_are_prefix_double_underscore_tool_in_input_order():
    ts, report = ToolSet.build({"files": [tool("read"), tool("write")], "git": [tool("status")]})
    assert ts.names == ("files__read", "files__write", "git__status")
    assert list(ts) == list(ts.names)
    assert not report and report.renames == () and report.dropped == ()
    read = ts["files__read"]
    assert (read.server, read.tool, read.prefix) == ("files", "read", "files")
    assert read.description == "does read"
    assert ts.lookup("git", "status") is ts["git__status"]
    assert ts.lookup("git", "nope") is None
    assert "files__write" in ts and "files__nope" not in ts
    assert ts.get("files__nope") is None
    assert ts.servers == ("files", "git")


def test_invalid_characters_in_tool_and_prefix_become_underscores_and_are_reported():
    ts, report = ToolSet.build({"my.server": [tool("read.file"), tool("ok")], "x y": [tool("a/b")]})
    assert ts.names == ("my_server__read_file", "my_server__ok", "x_y__a_b")
    exposed = ts["my_server__read_file"]
    # The originals stay for dispatch.
    assert (exposed.server, exposed.tool, exposed.prefix) == ("my.server", "read.file", "my_server")
    assert {(r.server, r.tool, r.exposed, r.reasons) for r in report.renames} == {
        ("my.server", "read.file", "my_server__read_file", ("sanitized",)),
        ("my.server", "ok", "my_server__ok", ("sanitized",)),
        ("x y", "a/b", "x_y__a_b", ("sanitized",)),
    }
    assert report.renames[0].requested == "my.server__read.file"


def test_unicode_names_are_sanitized_per_character():
    ts, _ = ToolSet.build({"srv": [tool("résumé")]})
    assert ts.names == ("srv__r_sum_",)


def test_empty_prefix_exposes_bare_tool_names():
    ts, report = ToolSet.build({"": [tool("search"), tool("a.b")]})
    assert ts.names == ("search", "a_b")
    assert [r.reasons for r in report.renames] == [("sanitized",)]


def test_long_name_is_truncated_to_64_with_hash_of_original_prefix_and_name():
    long_name = "x" * 80
    ts, report = ToolSet.build({"server": [tool(long_name)]})
    (name,) = ts.names
    assert len(name) == 64
    assert name == ("server__" + long_name)[:55] + "_" + h8("server", long_name)
    assert ts[name].tool == long_name
    assert report.renames[0].reasons == ("truncated",)


def test_exactly_64_characters_is_not_truncated():
    name = "t" * (64 - len("srv__"))
    ts, report = ToolSet.build({"srv": [tool(name)]})
    assert ts.names == ("srv__" + name,)
    assert not report


def test_long_names_sharing_a_prefix_stay_distinct():
    base = "read_" + "a" * 70
    names = [base + "_one", base + "_two", base + "_three"]
    ts, report = ToolSet.build({"files": [tool(n) for n in names]})
    assert len(set(ts.names)) == 3
    assert all(len(n) == 64 and VALID.match(n) for n in ts.names)
    assert {ts[n].tool for n in ts.names} == set(names)
    assert all(r.reasons == ("truncated",) for r in report.renames)


def test_sanitize_collision_keeps_clean_name_and_hashes_the_renamed_one():
    # "a.b" sanitizes to "a_b", which another tool has natively.
    ts, report = ToolSet.build({"srv": [tool("a.b"), tool("a_b")]})
    assert ts.lookup("srv", "a_b").name == "srv__a_b"
    renamed = ts.lookup("srv", "a.b").name
    assert renamed == "srv__a_b_" + h8("srv", "a.b")
    (rename,) = report.renames
    assert rename.tool == "a.b" and rename.reasons == ("sanitized", "collision")


def test_collision_between_server_prefixes_that_sanitize_alike():
    ts, report = ToolSet.build({"a.b": [tool("x")], "a_b": [tool("x")]})
    assert ts.lookup("a_b", "x").name == "a_b__x"
    assert ts.lookup("a.b", "x").name == "a_b__x_" + h8("a.b", "x")
    assert [r.server for r in report.renames] == ["a.b"]


def test_clean_names_that_join_alike_are_decided_by_sorted_originals():
    # ("a", "b__c") and ("a__b", "c") both join to "a__b__c" without any sanitizing.
    ts, report = ToolSet.build({"a__b": [tool("c")], "a": [tool("b__c")]})
    assert ts.lookup("a", "b__c").name == "a__b__c"  # "a" < "a__b"
    assert ts.lookup("a__b", "c").name == "a__b__c_" + h8("a__b", "c")
    assert report.renames[0].reasons == ("collision",)


def test_naming_does_not_depend_on_input_order():
    servers = {
        "a.b": [tool("x"), tool("y.z"), tool("q" * 70)],
        "a_b": [tool("x"), tool("y_z")],
        "c": [tool("x"), tool("x" * 70)],
    }
    expected = None
    for server_order in itertools.permutations(servers):
        for flip in (False, True):
            built = {s: list(reversed(servers[s])) if flip else servers[s] for s in server_order}
            ts, _ = ToolSet.build(built)
            mapping = {(t.server, t.tool): t.name for t in ts.tools}
            if expected is None:
                expected = mapping
            assert mapping == expected
    assert len(set(expected.values())) == 7


def test_order_of_the_toolset_follows_input_order():
    ts, _ = ToolSet.build([("z", [tool("b"), tool("a")]), ("a", [tool("c")])])
    assert ts.names == ("z__b", "z__a", "a__c")


def test_hash_collision_with_a_literal_name_gets_a_salted_hash():
    # A tool literally named like the hashed name another tool would get.
    hashed = "srv__a_b_" + h8("srv", "a.b")
    ts, _ = ToolSet.build({"srv": [tool("a.b"), tool("a_b"), tool(hashed[len("srv__") :])]})
    assert len(set(ts.names)) == 3
    assert ts.lookup("srv", "a_b").name == "srv__a_b"
    assert ts.lookup("srv", hashed[len("srv__") :]).name == hashed
    other = ts.lookup("srv", "a.b").name
    assert other not in {"srv__a_b", hashed} and VALID.match(other)


def test_duplicate_and_nameless_tools_are_dropped_and_reported():
    ts, report = ToolSet.build(
        {"srv": [tool("a"), tool("a"), {"description": "no name"}, tool("")]}
    )
    assert ts.names == ("srv__a",)
    assert [(d.tool, d.reason) for d in report.dropped] == [
        ("a", "listed twice by the same server"),
        (None, "missing or empty tool name"),
        (None, "missing or empty tool name"),
    ]
    assert any("dropped" in line for line in report.lines())


@pytest.mark.parametrize("junk", [None, "read", 5, ["a"]], ids=["null", "string", "number", "list"])
def test_an_entry_that_is_no_tool_is_dropped_and_the_others_are_exposed(junk):
    # (raised TypeError, and the whole toolset was lost for one bad entry)
    ts, report = ToolSet.build({"srv": [tool("a"), junk, tool("b")], "git": [tool("status")]})
    assert ts.names == ("srv__a", "srv__b", "git__status")
    assert [(d.server, d.tool, d.reason) for d in report.dropped] == [
        ("srv", None, f"not a tool: {type(junk).__name__}")]


def test_a_lone_surrogate_in_a_name_that_is_hashed_still_builds():
    # A "\ud800" escape in a listing decodes to a lone surrogate (no UTF-8 form); hashing the
    # name for a truncation or a collision raised UnicodeEncodeError, losing every tool.
    long_name, clashing = "x\ud800" * 40, "a\ud800"
    ts, report = ToolSet.build({"srv": [tool(long_name), tool(clashing), tool("a_"), tool("ok")]})
    assert len(ts) == 4 and all(VALID.match(n) for n in ts.names) and "srv__ok" in ts
    assert ts.lookup("srv", long_name).name != ts.lookup("srv", clashing).name
    assert {r.tool: r.reasons for r in report.renames}[clashing] == ("sanitized", "collision")


def test_duplicate_server_prefix_is_an_error():
    with pytest.raises(ValueError, match="given twice"):
        ToolSet.build([("s", [tool("a")]), ("s", [tool("b")])])


def test_accepts_tools_list_result_and_mcp_sdk_objects():
    mcp_types = pytest.importorskip("mcp.types")
    sdk_tools = [
        mcp_types.Tool(
            name="get.time",
            description="now",
            input_schema={"type": "object", "properties": {"tz": {"type": "string"}}},
        )
    ]
    listing = mcp_types.ListToolsResult(tools=sdk_tools)
    ts, _ = ToolSet.build({"t": listing, "u": {"tools": [tool("x")]}, "v": sdk_tools})
    assert ts.names == ("t__get_time", "u__x", "v__get_time")
    exposed = ts["t__get_time"]
    assert exposed.tool == "get.time"
    assert exposed.input_schema["properties"]["tz"] == {"type": "string"}
    # The wire (camelCase) names are used, never the SDK's snake_case attributes.
    assert "inputSchema" in exposed.original() and "input_schema" not in exposed.original()


def test_to_tool_carries_exposed_name_and_is_a_fresh_copy():
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    source = tool("find.x", inputSchema=schema, annotations={"readOnlyHint": True})
    ts, _ = ToolSet.build({"s": [source]})
    exposed = ts["s__find_x"]
    first = exposed.to_tool()
    assert first == {**source, "name": "s__find_x"}
    first["inputSchema"]["properties"]["q"]["type"] = "integer"
    first["inputSchema"]["required"].append("zzz")
    assert exposed.to_tool()["inputSchema"] == schema
    assert exposed.original()["name"] == "find.x"
    # Mutating the caller's input after build does not reach the toolset either.
    schema["properties"]["q"]["type"] = "boolean"
    assert exposed.input_schema["properties"]["q"]["type"] == "string"


def test_toolset_and_its_parts_are_immutable():
    ts, report = ToolSet.build(
        {"s": [tool("a", inputSchema={"type": "object", "required": ["x"]})]}
    )
    exposed = ts["s__a"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        exposed.name = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        exposed.input_schema["type"] = "string"  # type: ignore[index]
    with pytest.raises(TypeError):
        exposed.definition["name"] = "b"  # type: ignore[index]
    assert isinstance(exposed.input_schema["required"], tuple)
    with pytest.raises(AttributeError):
        ts._tools = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        ts["s__b"] = exposed  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.renames = ()  # type: ignore[misc]
    assert isinstance(report, NamingReport) and isinstance(exposed, ExposedTool)


def test_toolset_rejects_invalid_or_duplicate_exposed_names_when_built_by_hand():
    ts, _ = ToolSet.build({"s": [tool("a")]})
    good = ts["s__a"]
    with pytest.raises(ValueError, match="invalid exposed name"):
        ToolSet([dataclasses.replace(good, name="has space")])
    with pytest.raises(ValueError, match="duplicate"):
        ToolSet([good, good])


names = st.text(alphabet=st.sampled_from("ab_-.:/ é" + "xyz"), min_size=1, max_size=90)


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.text(alphabet="ab._-", max_size=12), st.lists(names, max_size=6), max_size=4)
)
def test_property_every_exposed_name_is_valid_unique_and_resolves_back(servers):
    built = {s: [tool(n) for n in dict.fromkeys(ns)] for s, ns in servers.items()}
    ts, report = ToolSet.build(built)
    assert len(ts) == sum(len(v) for v in built.values())
    assert all(VALID.match(n) for n in ts.names)
    for server, tools_ in built.items():
        for t in tools_:
            exposed = ts.lookup(server, t["name"])
            assert exposed is not None and ts[exposed.name] is exposed
    # Every name that differs from the plain join is reported, and nothing else.
    changed = {
        (t.server, t.tool)
        for t in ts.tools
        if t.name != (f"{t.server}__{t.tool}" if t.server else t.tool)
    }
    assert changed == {(r.server, r.tool) for r in report.renames}
    # Rebuilding from reversed input gives the same names.
    ts2, _ = ToolSet.build({s: list(reversed(v)) for s, v in reversed(list(built.items()))})
    assert {(t.server, t.tool): t.name for t in ts2.tools} == {
        (t.server, t.tool): t.name for t in ts.tools
    }


# --------------------------------------------------------------------------- tools(toolset)


def core(name: str):
    """A name from the compiler core; skip (only) while the core does not provide it yet."""
    try:
        module = __import__("toolcast", fromlist=[name])
        return getattr(module, name)
    except (ImportError, AttributeError) as exc:
        pytest.skip(f"toolcast.{name} not available yet: {exc}")


FIND = {
    "name": "find",
    "description": "Find things.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "q": {"type": "string"},
            "limit": {"type": "integer"},
            "tags": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"k": {"type": "string"}, "note": {"type": "string"}},
                    "required": ["k"],
                },
            },
        },
        "required": ["q"],
    },
}
OPEN_MAP = {
    "name": "set.meta",
    "inputSchema": {
        "type": "object",
        "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}},
        "required": ["m"],
    },
}
LOSSY = {
    "name": "fetch",
    "inputSchema": {
        "type": "object",
        "properties": {"url": {"type": "string", "format": unsupported_format()}},  # (lossy under the default rules)
        "required": ["url"],
    },
}


@pytest.fixture
def compiled_toolset():
    core("compile_tool")
    ts, _ = ToolSet.build({"s": [FIND, OPEN_MAP, LOSSY]})
    assert ts.names == ("s__find", "s__set_meta", "s__fetch")
    return ts


def _name(tool_dict: dict, api: str) -> str:
    return tool_dict["name"] if api == "responses" else tool_dict["function"]["name"]


def _body(tool_dict: dict, api: str) -> dict:
    return tool_dict if api == "responses" else tool_dict["function"]


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_tools_auto_sends_strict_where_possible_and_falls_back_per_tool(compiled_toolset, api):
    from toolcast.providers.openai import tools

    sent, report = tools(compiled_toolset, api=api)
    assert [_name(t, api) for t in sent] == ["s__find", "s__set_meta", "s__fetch"]
    assert all(t["type"] == "function" for t in sent)
    if api == "chat":
        assert all(set(t) == {"type", "function"} for t in sent)
    find, meta, fetch = (_body(t, api) for t in sent)
    assert find["strict"] is True and find["description"] == "Find things."
    assert find["parameters"]["properties"]["limit"]["type"] == ["integer", "null"]
    # Fallbacks carry "strict": false explicitly and the server's original schema.
    assert meta["strict"] is False and meta["parameters"] == OPEN_MAP["inputSchema"]
    assert fetch["strict"] is False and fetch["parameters"] == LOSSY["inputSchema"]
    items = core("ITEMS")
    assert set(report.null_paths) == {"s__find"}
    assert set(report.null_paths["s__find"]) == {("limit",), ("tags",), ("tags", items, "note")}
    assert [(f.name, f.codes) for f in report.fallbacks] == [
        ("s__set_meta", ("openai/open-map",)),
        ("s__fetch", ("dropped-unsupported-format",)),
    ]
    assert (
        "open-map" in report.fallbacks[0].reason and "#/properties/m" in report.fallbacks[0].reason
    )
    name, reason, codes = report.fallbacks[1]  # unpacks as a plain (name, reason, codes) tuple
    assert codes == ("dropped-unsupported-format",)
    assert name == "s__fetch" and "accept values the original rejects" in reason
    assert report.excluded == ()
    assert report.results["s__find"].status == "strict"


def test_tools_strict_true_excludes_and_allow_lossy_admits(compiled_toolset):
    from toolcast.providers.openai import tools

    sent, report = tools(compiled_toolset, strict=True)
    assert [t["name"] for t in sent] == ["s__find"]
    assert [e.name for e in report.excluded] == ["s__set_meta", "s__fetch"]
    assert "openai/lossy-change-refused" in report.excluded[1].codes
    assert report.fallbacks == ()
    sent, report = tools(compiled_toolset, strict="true", allow_lossy=True)
    assert [(t["name"], t["strict"]) for t in sent] == [("s__find", True), ("s__fetch", True)]
    assert [e.name for e in report.excluded] == ["s__set_meta"]
    assert report.null_paths["s__fetch"] == ()


@pytest.mark.parametrize("strict", [False, "false"])
def test_tools_strict_false_sends_every_original_schema(compiled_toolset, strict):
    from toolcast.providers.openai import tools

    sent, report = tools(compiled_toolset, api="chat", strict=strict)
    assert [(t["function"]["strict"], t["function"]["parameters"]) for t in sent] == [
        (False, FIND["inputSchema"]),
        (False, OPEN_MAP["inputSchema"]),
        (False, LOSSY["inputSchema"]),
    ]
    assert dict(report.null_paths) == {} and report.fallbacks == () and report.excluded == ()


def test_tools_rejects_bad_options_and_report_is_immutable(compiled_toolset):
    from toolcast.providers.openai import tools

    with pytest.raises(ValueError):
        tools(compiled_toolset, strict="maybe")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        tools(compiled_toolset, api="assistants")  # type: ignore[arg-type]
    _, report = tools(compiled_toolset)
    with pytest.raises(TypeError):
        report.null_paths["x"] = ()  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.fallbacks = ()  # type: ignore[misc]


def test_tools_does_not_mutate_the_toolset(compiled_toolset):
    from toolcast.providers.openai import tools

    before = [t.to_tool() for t in compiled_toolset.tools]
    sent, _ = tools(compiled_toolset)
    sent[0]["parameters"]["properties"].clear()
    assert [t.to_tool() for t in compiled_toolset.tools] == before
    assert compiled_toolset["s__find"].original()["name"] == "find"


def test_tools_is_available_from_toolcast_openai():
    openai_mod = pytest.importorskip("toolcast.openai")
    from toolcast.providers import openai as _openai_runtime

    if not hasattr(openai_mod, "tools"):
        pytest.skip("toolcast.openai does not expose the run-time loop yet")
    assert openai_mod.tools is _openai_runtime.tools
    assert openai_mod.tool_calls is _openai_runtime.tool_calls
    assert openai_mod.tool_output is _openai_runtime.tool_output


def test_a_tool_nested_too_deeply_is_dropped_alone_and_reported():
    deep: dict = {"type": "string"}
    for _ in range(600):  # (1,200 levels: a copy by recursion would exhaust Python's stack)
        deep = {"type": "object", "properties": {"x": deep}}
    toolset, report = ToolSet.build([("s", [{"name": "deep", "inputSchema": deep},
                                            {"name": "ok", "inputSchema": {"type": "object"}}])])
    assert [t.name for t in toolset.tools] == ["s__ok"]
    assert report.lines() == ["s/deep: dropped (its definition nests more than 200 levels deep)"]


def test_a_tool_without_a_name_is_reported_as_unnamed_not_none():
    _, report = ToolSet.build([("s", [{"name": "", "inputSchema": {"type": "object"}}, 7])])
    assert report.lines() == ["s/(unnamed): dropped (missing or empty tool name)", "s/(unnamed): dropped (not a tool: int)"]
