"""The wire shapes as data (the spec's `wire:` sections): every target's emit path, its registry
entry, the generic loop, and a provider added from a spec folder working in compile, check, the
loop and the proxy (issue 40's done-when)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from spec_folder import loaded_spec_folder

import toolcast
import toolcast.anthropic as tc_anthropic
import toolcast.gemini as tc_gemini
import toolcast.openai as tc_openai
from toolcast import rules as rules_registry
from toolcast.providers import EMITTERS, PROVIDER_OF, loop
from toolcast.providers import openai as providers_openai
from toolcast.providers.wire import fill
from toolcast.toolset import ToolSet

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from servers.openai_stub import chat_completion, openai_stub  # noqa: E402 - after the path insert

ACME = """\
provider: acme
version: "2026-12-01"
reviewed: "2026-12-01"
extends: openai@2026-10-17
default: true
summary: Acme's function tools, OpenAI's strict mode with at most 64 properties and 40-character names.
terms:
  provider_name: Acme
  docs: "https://acme.invalid/docs/tools"
catalogue_cite: [ACME-TOOLS]
sources:
  ACME-TOOLS:
    title: "Acme Cloud, Function tools (a made-up OpenAI-compatible host)"
    url: "https://acme.invalid/docs/tools"
    date: "2026-12"
    evidence: D
wire:
  default_api: chat
  proxy: {api: chat, mark_non_strict: false}
  apis:
    responses: null
    chat:
      tool: {type: function, function: {name: $name, description: "$description?", parameters: $schema, strict: "$strict?"}}
      calls:
        in: [choices, 0, message, tool_calls]
        match: {type: function}
        id: [id]
        name: [function, name]
        arguments: [function, arguments]
      result: {role: tool, tool_call_id: $id, name: $name, content: $text}
      cite: [ACME-TOOLS]
name:
  pattern: "^[A-Za-z0-9_-]{1,40}$"
  max_length: 40
  cite: [ACME-TOOLS]
limits:
  max_properties: {value: 64, cite: [ACME-TOOLS]}
"""
WEATHER = {"name": "get_weather", "description": "The weather in a city.",
           "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                           "required": ["city"]}}


@pytest.fixture
def acme(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A spec folder holding provider `acme`, loaded for this test only."""
    yield from loaded_spec_folder(tmp_path, monkeypatch, {"acme/2026-12-01.yaml": ACME})


# ---------------------------------------------------------------------------- the registry, emit


def test_the_built_in_targets_are_built_from_their_wire_sections():
    assert list(EMITTERS)[:4] == ["openai", "anthropic", "gemini", "vertex"]
    assert EMITTERS["openai"].APIS == providers_openai.APIS == ("responses", "chat")
    assert EMITTERS["anthropic"].APIS == ("messages",)
    # Gemini's two rule families (one per API) make one target.
    assert EMITTERS["gemini"].APIS == ("parameters", "json-schema") and EMITTERS["gemini"].proxy_api == "json-schema"
    assert PROVIDER_OF["openai"] == "openai" and PROVIDER_OF["vertex"] == "vertex"
    assert EMITTERS["openai"].NATIVE_SHAPES == ("openai", "chat") and EMITTERS["gemini"].NATIVE_SHAPES == ()
    assert EMITTERS["openai"].marks_non_strict and not EMITTERS["anthropic"].marks_non_strict


@pytest.mark.parametrize("target,api,strict,expected", [
    ("openai", "responses", False, {"type": "function", "name": "f", "parameters": {}, "strict": False}),
    ("openai", "chat", True, {"type": "function", "function": {"name": "f", "parameters": {}, "strict": True}}),
    ("anthropic", "messages", False, {"name": "f", "input_schema": {}}),
    ("anthropic", "messages", True, {"name": "f", "input_schema": {}, "strict": True}),
    ("gemini", "parameters", True, {"name": "f", "description": "", "parameters": {}}),
    ("vertex", "json-schema", False, {"name": "f", "description": "", "parametersJsonSchema": {}}),
])
def test_each_target_emits_the_envelope_its_wire_states(target, api, strict, expected):
    tool = EMITTERS[target].emit("f", None, {}, strict, api)
    assert tool == expected and list(tool) == list(expected)  # the key order too
    assert EMITTERS[target].schema_of(tool) == {}


def test_templates_fill_and_leave_out_optional_empty_fields():
    template = {"a": "$x", "b": "$y?", "c": [{"d": "$z?"}, 1], "e": {"f": "k"}}
    assert fill(template, {"x": None, "y": False, "z": ""}) == {"a": None, "c": [{}, 1], "e": {"f": "k"}}
    assert fill(template, {"x": 1, "y": True, "z": "t"}) == {"a": 1, "b": True, "c": [{"d": "t"}, 1], "e": {"f": "k"}}
    assert EMITTERS["gemini"].request_tools([]) == [] and EMITTERS["gemini"].request_tools([{"n": 1}]) == [
        {"functionDeclarations": [{"n": 1}]}]


# ---------------------------------------------------------------------------- the generic loop


def _toolset() -> ToolSet:
    toolset, _ = ToolSet.build([("s", [WEATHER])])
    return toolset


def _same_calls(a: list, b: list) -> None:
    assert [(c.call_id, c.name, c.server, c.tool, c.arguments) for c in a] == [
        (c.call_id, c.name, c.server, c.tool, c.arguments) for c in b]


def test_the_generic_loop_reads_the_built_in_providers_plain_responses_as_their_own_loops_do():
    ts = _toolset()
    args = '{"city": "Oslo", "days": null}'
    chat = chat_completion([("c1", "s__get_weather", args), ("c2", "nope", "{}")])
    responses = {"output": [{"type": "reasoning"}, {"type": "function_call", "call_id": "c1", "name": "s__get_weather",
                                                     "arguments": args}]}
    _, report = tc_openai.tools(ts)
    for response in (chat, responses, chat["choices"][0]["message"], responses["output"], responses["output"][1]):
        (mine, rejected), (theirs, their_rejected) = (loop.tool_calls(response, ts, report, target="openai"),
                                                      tc_openai.tool_calls(response, ts, report))
        _same_calls(mine, theirs)
        assert rejected == their_rejected
        assert [c.output("ok") for c in mine] == [c.output("ok") for c in theirs]
        assert [c.output(ValueError("no")) for c in mine] == [c.output(ValueError("no")) for c in theirs]
    message = {"content": [{"type": "text", "text": "x"}, {"type": "tool_use", "id": "t1", "name": "s__get_weather",
                                                          "input": {"city": "Oslo", "days": None}}]}
    _, report = tc_anthropic.tools(ts)
    _same_calls(loop.tool_calls(message, ts, report, target="anthropic")[0], tc_anthropic.tool_calls(message, ts, report)[0])
    gemini = {"candidates": [{"content": {"parts": [{"text": "x"}, {"functionCall": {"name": "s__get_weather",
                                                                                   "args": {"city": "Oslo"}}}]}}]}
    (call,), _ = loop.tool_calls(gemini, ts, target="gemini")
    (theirs,), _ = tc_gemini.tool_calls(gemini, ts)
    _same_calls([call], [theirs])
    assert call.output("ok") == theirs.output("ok") and call.output(ValueError("e")) == theirs.output(ValueError("e"))


def test_the_generic_loop_names_the_place_of_a_bad_shape():
    with pytest.raises(loop.ResponseShapeError, match=r"response\.choices\[0\]\.message\.tool_calls: "
                                                                 "expected a list, got int"):
        loop.tool_calls({"choices": [{"message": {"tool_calls": 3}}]}, _toolset(), target="openai")


# ---------------------------------------------------------------------------- a provider from a folder


def test_a_provider_from_a_spec_folder_compiles_under_its_own_wire_and_rules(acme):
    res = toolcast.compile_tool(WEATHER, target="acme")
    assert res.status == "strict" and res.api == "chat"
    assert res.tool == {"type": "function", "function": {
        "name": "get_weather", "description": "The weather in a city.", "parameters": res.tool["function"]["parameters"],
        "strict": True}}
    assert {d.code.split("/")[0] for d in res.diagnostics} == {"acme"}
    loose = toolcast.compile_tool({**WEATHER, "inputSchema": {"type": "object", "properties": {
        "p": {"type": "string"}}, "additionalProperties": {"type": "string"}}}, target="acme", strict=False)
    assert "strict" not in loose.tool["function"]  # `$strict?`: only strict: true is sent
    wide = toolcast.compile_tool({"name": "w", "description": "d", "inputSchema": {"type": "object", "properties": {
        f"p{i}": {"type": "string"} for i in range(70)}}}, target="acme", strict=True)
    assert wide.status == "refused" and "acme/too-many-properties" in {d.code for d in wide.diagnostics}


def test_a_provider_from_a_spec_folder_is_checked_by_the_cli(acme, tmp_path):
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([WEATHER, {**WEATHER, "name": "x" * 45}]), encoding="utf-8")
    env = {**os.environ, "TOOLCAST_SPEC_PATH": str(acme)}
    done = subprocess.run([sys.executable, "-m", "toolcast.cli.main", "check", str(tools), "--target", "acme",
                           "--format", "json"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1, done.stderr
    results = json.loads(done.stdout)["results"]
    assert [r["status"] for r in results] == ["strict", "refused"]
    assert "acme/tool-name-too-long" in {d["code"] for d in results[1]["diagnostics"]}


def test_a_provider_from_a_spec_folder_runs_the_loop_against_a_stub_of_its_api(acme):
    openai_sdk = pytest.importorskip("openai")
    seen: list[dict] = []

    def get_weather(city: str, days: int = 1) -> str:
        """The weather in a city."""
        seen.append({"city": city, "days": days})
        return f"sunny in {city}"

    toolset, _ = ToolSet.build([toolcast.tool(get_weather)])
    tools, report = loop.tools(toolset, target="acme")
    assert tools[0]["function"]["strict"] is True and report.null_paths == {"get_weather": (("days",),)}
    with openai_stub() as stub:
        stub.replies += [chat_completion([("call_1", "get_weather", '{"city": "Oslo", "days": null}'),
                                          ("call_2", "get_wether", "{}")]),
                         chat_completion([], content="It is sunny.")]
        client = openai_sdk.OpenAI(base_url=stub.base_url, api_key="test-key", max_retries=0)
        messages: list[Any] = [{"role": "user", "content": "Weather in Oslo?"}]
        first = client.chat.completions.create(model="acme-1", messages=messages, tools=tools)
        calls, rejected = loop.tool_calls(first, toolset, report, target="acme")  # the SDK's objects
        outputs = asyncio.run(toolcast.mcp_runtime.execute_tool_calls(calls, {}))
        messages += [first.choices[0].message.model_dump(exclude_none=True), *outputs, *rejected]
        client.chat.completions.create(model="acme-1", messages=messages, tools=tools)
    assert seen == [{"city": "Oslo", "days": 1}]  # the null the compile added was stripped: the default
    sent = stub.requests[1][1]["messages"]
    assert sent[2] == {"role": "tool", "tool_call_id": "call_1", "name": "get_weather", "content": "sunny in Oslo"}
    assert sent[3]["tool_call_id"] == "call_2" and sent[3]["name"] == "get_wether"
    assert sent[3]["content"].startswith("Error: unknown tool 'get_wether'. Did you mean 'get_weather'?")
    assert stub.requests[0][1]["tools"] == tools


def test_a_provider_from_a_spec_folder_is_proxied_to_an_mcp_client(acme):
    from test_proxy import ECHO, proxied, run, text_of

    async def go():
        env = {**os.environ, "TOOLCAST_SPEC_PATH": str(acme)}
        async with proxied("--server", f"echo={ECHO}", "--target", "acme", env=env) as session:
            listed = {t.name: t for t in (await session.list_tools()).tools}
            called = await session.call_tool("echo__echo", {"text": "hi", "count": None, "options": None})
            return listed, called

    listed, called = run(go())
    schema = listed["echo__echo"].input_schema
    assert schema["additionalProperties"] is False and schema["properties"]["count"]["type"] == ["integer", "null"]
    assert json.loads(text_of(called)) == {"text": "hi"}  # the nulls the compile added, stripped


def test_a_template_is_data_never_code():
    from toolcast.providers.wire import Target, WireError

    key = "x'] = 1; import os; v1['"
    wire = {"default_api": "a", "apis": {"a": {"tool": {key: "$name", "n": [1.5, {"k": None}], "s": "$schema"},
                                               "cite": ["X"]}}}
    tool = Target("t", [("t", wire)]).emit("f", None, {}, True, "a")
    assert tool == {key: "f", "n": [1.5, {"k": None}], "s": {}}
    with pytest.raises(WireError, match=r"unknown placeholder \$os"):
        Target("t", [("t", {**wire, "apis": {"a": {"tool": {"n": "$os", "s": "$schema"}, "cite": ["X"]}}})])


@pytest.mark.parametrize("description,strict", [(None, False), ("", None), ("d", True)])
def test_a_generated_emit_writes_what_fill_writes_in_the_template_s_order(description, strict):
    # The generated emit writes the entries before the first optional one as one display and the
    # rest one by one: the same tool as the template filled, key order too, at every level.
    from toolcast.providers.wire import Target

    template = {"k": "v", "name": "$name", "d": "$description?", "p": "$schema", "s": "$strict?",
                "n": [1, "$name", "$description?", {"x": "$schema", "y": "$strict?", "z": [2.5]}],
                "after": {"a": "$strict?", "b": {"c": "$name"}}, "last": "$name"}
    wire = {"default_api": "a", "apis": {"a": {"tool": template, "cite": ["X"]}}}
    tool = Target("t", [("t", wire)]).emit("f", description, {"type": "object"}, strict, "a")
    filled = fill(template, {"name": "f", "description": description, "schema": {"type": "object"}, "strict": strict})
    assert tool == filled and json.dumps(tool) == json.dumps(filled)  # (dumps: the order of every level)


def test_only_a_target_whose_wire_says_so_gets_the_proxy_s_non_strict_mark(acme):
    from toolcast._runtime.proxy_marks import NOT_STRICT_DEF, mark_non_strict

    tool = {"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {
        "m": {"type": "object", "additionalProperties": {"type": "string"}}}}}
    marked = {}
    for target in ("openai", "acme"):
        res = toolcast.compile_tool(tool, target=target)
        assert res.status == "non-strict"
        entry = {"name": "t", "inputSchema": dict(tool["inputSchema"])}
        mark_non_strict(entry, res, target)
        marked[target] = NOT_STRICT_DEF in entry["inputSchema"].get("$defs", {})
    assert marked == {"openai": True, "acme": False}


def test_a_provider_is_probed_only_where_its_own_spec_says_how(acme, tmp_path):
    from toolcast.probe_wire import KEY_ENV, SDK

    # Inherited from OpenAI's rules, `wire.probe` would send Acme's tools to api.openai.com: it is not.
    assert "acme" not in KEY_ENV and SDK["openai"] == "openai" and SDK["vertex"] == "google-genai-vertex"
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([WEATHER]), encoding="utf-8")
    env = {**os.environ, "TOOLCAST_SPEC_PATH": str(acme)}
    done = subprocess.run([sys.executable, "-m", "toolcast.cli.main", "probe", str(tools), "--target", "acme", "--dry-run"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and "target acme states no wire.probe" in done.stderr, done.stderr


@pytest.mark.parametrize("pattern", ["^[a-z_]+$", "^[A-Za-z0-9_-]{1,64}$"])
def test_a_name_cap_stands_apart_from_the_name_pattern(tmp_path, monkeypatch, pattern):
    # A name the pattern matches was accepted whatever the cap said (the red-team's round of the
    # twelfth session: 13 characters sent strict under `max_length: 12`).
    page = ACME.replace('  pattern: "^[A-Za-z0-9_-]{1,40}$"\n  max_length: 40', f'  pattern: "{pattern}"\n  max_length: 12')
    assert page != ACME
    for _ in loaded_spec_folder(tmp_path, monkeypatch, {"acme/2026-12-01.yaml": page}):
        over = toolcast.compile_tool({**WEATHER, "name": "abcdefghijklm"}, target="acme", strict=True)
        assert over.status == "refused" and "acme/tool-name-too-long" in {d.code for d in over.diagnostics}
        assert toolcast.compile_tool({**WEATHER, "name": "abcdefghijkl"}, target="acme", strict=True).status == "strict"


_HEAD = """\
provider: acme
version: "2026-12-01"
reviewed: "2026-12-01"
summary: One line that extends another provider's version.
terms: {provider_name: Acme, docs: "https://acme.invalid/docs/tools"}
catalogue_cite: [ACME-TOOLS]
sources:
  ACME-TOOLS: {title: "Acme", url: "https://acme.invalid/docs/tools", date: "2026-12", evidence: D}
"""


@pytest.mark.parametrize("family", sorted(f for f in rules_registry.WIRES))
def test_a_page_that_only_extends_a_family_is_a_target(tmp_path, monkeypatch, family):
    # Gemini's and Vertex's families (one per API) named the target's default API and proxy API,
    # which a provider extending one family has not got: every command crashed (WireError, exit 1;
    # the red-team's round of the twelfth session). The page's own first API stands for them.
    page = _HEAD + f"extends: {family}@{rules_registry.DEFAULTS[family]}\n"
    for _ in loaded_spec_folder(tmp_path, monkeypatch, {"acme/2026-12-01.yaml": page}):
        target = EMITTERS["acme"]
        assert target.DEFAULT_API in target.APIS and target.proxy_api in target.APIS
        res = toolcast.compile_tool(WEATHER, target="acme")
        assert res.tool is not None and target.schema_of(res.tool) is not None


@pytest.mark.parametrize("wire, needle", [
    ("wire: {default_api: responses, apis: {responses: null}}", "wire.default_api 'responses' is none of its APIs"),
    ("wire:\n  default_api: chat\n  proxy: {api: chat}\n  apis:\n    responses: null\n    chat:\n"
     "      tool: {type: function, function: {name: $name}}\n"
     "      result: {role: tool, tool_call_id: $id, content: $text}\n      cite: [ACME-TOOLS]",
     "wire.apis.chat.tool has no $schema"),
    ("wire:\n  default_api: chat\n  proxy: {api: chat}\n  apis:\n    responses: null\n    chat:\n"
     "      tool: {type: function, function: {name: $name, parameters: $schema}}\n"
     "      result: {role: tool, tool_call_id: $idd, content: $txt}\n      cite: [ACME-TOOLS]",
     "wire.apis.chat.result: unknown placeholder $idd"),
])
def test_a_wire_section_that_makes_no_target_is_refused_at_load(tmp_path, monkeypatch, wire, needle):
    # Each loaded, and then every command crashed where the targets are listed (--help included),
    # or the loop answered a call with {"tool_call_id": null, "content": null}.
    page = _HEAD + "extends: openai@2026-10-17\n" + wire + "\n"
    folder = tmp_path / "spec" / "acme"
    folder.mkdir(parents=True)
    (folder / "2026-12-01.yaml").write_text(page, encoding="utf-8")
    for name in ("VERSIONS", "DEFAULTS", "FAMILIES", "WIRES", "_LOADED", "PROVIDERS"):
        value = getattr(rules_registry, name)
        monkeypatch.setattr(rules_registry, name, type(value)(value))
    with pytest.raises(rules_registry.SpecFolderError) as info:
        rules_registry.load_spec_dir(tmp_path / "spec")
    assert f"{folder / '2026-12-01.yaml'}:" in str(info.value) and needle in str(info.value)
    assert "acme" not in rules_registry.providers() and "acme" not in EMITTERS


def test_a_spec_path_folder_that_cannot_load_is_said_plainly(tmp_path):
    # TOOLCAST_SPEC_PATH's folders are read where the CLI lists its targets, on import: a bad one
    # was a traceback and exit 1 (the red-team's round of the twelfth session); as `--spec` says it.
    (tmp_path / "acme").mkdir()
    (tmp_path / "acme" / "2026-12-01.yaml").write_text(_HEAD + "extends: [openai\n", encoding="utf-8")
    for folder in (tmp_path, tmp_path / "missing"):
        env = {**os.environ, "TOOLCAST_SPEC_PATH": str(folder)}
        for argv in (["rules", "list"], ["--help"], ["compile", str(HERE.parent / "examples" / "refund_order.json")]):
            done = subprocess.run([sys.executable, "-m", "toolcast.cli.main", *argv], capture_output=True, text=True,
                                  env=env, timeout=120)
            assert done.returncode == 2 and "Traceback" not in done.stderr, (argv, done.stderr)
            assert done.stderr.startswith(f"toolcast: TOOLCAST_SPEC_PATH: {folder}"), done.stderr


@pytest.mark.parametrize("section", ["name: {max_length: 10}", "name: {pattern: '^[a-z]+$'}", "description: {max_chars: 50}"])
def test_a_name_or_description_fact_cites_its_source(tmp_path, monkeypatch, section):
    # Accepted without one, and `rules diff` then credited the page's fact to OpenAI's sources (the
    # red-team's round of the twelfth session); limits, keywords and formats already had to cite.
    folder = tmp_path / "spec" / "acme"
    folder.mkdir(parents=True)
    (folder / "2026-12-01.yaml").write_text(_HEAD + "extends: openai@2026-10-17\n" + section + "\n", encoding="utf-8")
    for name in ("VERSIONS", "DEFAULTS", "FAMILIES", "WIRES", "_LOADED", "PROVIDERS"):
        value = getattr(rules_registry, name)
        monkeypatch.setattr(rules_registry, name, type(value)(value))
    with pytest.raises(rules_registry.SpecFolderError, match=r"2026-12-01\.yaml:10: .*'cite' is a dependency of"):
        rules_registry.load_spec_dir(tmp_path / "spec")
    cited = section[:-1] + ", cite: [ACME-TOOLS]}"
    if section.startswith("description"):  # (a cap OpenAI's 2026 versions leave out: its codes are reserved there)
        cited += ("\ndiagnostics:\n  acme/description-over-char-limit: {status: active}\n"
                  "transformations:\n  truncated-description-to-char-limit: {status: active}")
    (folder / "2026-12-01.yaml").write_text(_HEAD + "extends: openai@2026-10-17\n" + cited + "\n", encoding="utf-8")
    assert rules_registry.load_spec_dir(tmp_path / "spec") == ("acme",)


def test_an_unknown_version_to_extend_is_named_beside_the_ones_there_are(tmp_path, monkeypatch):
    # The hint listed only the folder's own versions (the red-team's round of the twelfth session).
    folder = tmp_path / "spec" / "acme"
    folder.mkdir(parents=True)
    (folder / "2026-12-01.yaml").write_text(_HEAD + "extends: openai@1999-01-01\n", encoding="utf-8")
    with pytest.raises(rules_registry.SpecFolderError) as info:
        rules_registry.load_spec_dir(tmp_path / "spec")
    assert "extends unknown version 'openai@1999-01-01'; known: " in str(info.value)
    assert f"openai@{rules_registry.DEFAULTS['openai']}" in str(info.value) and "anthropic@" not in str(info.value)


def test_two_spec_path_folders_for_one_provider_are_an_error(tmp_path):
    # The later silently replaced the earlier's versions (the red-team's round of the twelfth session).
    for name in ("one", "two"):
        (tmp_path / name / "acme").mkdir(parents=True)
        (tmp_path / name / "acme" / "2026-12-01.yaml").write_text(_HEAD + "extends: openai@2026-10-17\n", encoding="utf-8")
    env = {**os.environ, "TOOLCAST_SPEC_PATH": os.pathsep.join(str(tmp_path / n) for n in ("one", "two"))}
    done = subprocess.run([sys.executable, "-m", "toolcast.cli.main", "rules", "list"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 2 and f"provider 'acme' is defined by {tmp_path / 'one'} too" in done.stderr


def test_budgets_and_wire_merge_field_by_field_as_documented(tmp_path, monkeypatch):
    # spec/README: both merge as `field`, but a child had to restate whole entries (the red-team's
    # round of the twelfth session): `budgets.max_tools: {value: 2}` and `wire: {default_api: chat}`.
    page = _HEAD + ("extends: openai@2026-10-17\nbudgets:\n  max_tools: {value: 2, cite: [ACME-TOOLS]}\n"
                    "wire: {default_api: chat}\n")
    for _ in loaded_spec_folder(tmp_path, monkeypatch, {"acme/2026-12-01.yaml": page}):
        r = rules_registry.get_rules("acme")
        assert r.budgets["max_tools"].value == 2 and r.budgets["max_tools"].code == "acme/too-many-tools"
        assert EMITTERS["acme"].DEFAULT_API == "chat"
    folder = tmp_path / "spec2" / "acme"
    folder.mkdir(parents=True)
    (folder / "2026-12-01.yaml").write_text(
        _HEAD + "extends: openai@2026-10-17\nbudgets:\n  max_calls: {value: 2, cite: [ACME-TOOLS]}\n", encoding="utf-8")
    with pytest.raises(rules_registry.SpecFolderError, match=r"budget 'max_calls' states no code, counts, applies"):
        rules_registry.load_spec_dir(tmp_path / "spec2")


def test_a_spec_path_folder_that_cannot_load_fails_the_first_rules_asked_for(tmp_path):
    # The library's first get_rules read the folder, kept its error and answered with the built-in
    # rules; only the second call raised it.
    (tmp_path / "acme").mkdir()
    (tmp_path / "acme" / "2026-12-01.yaml").write_text(_HEAD + "extends: [openai\n", encoding="utf-8")
    code = ("import toolcast.rules as r\nfor _ in range(2):\n    try:\n        r.get_rules(None)\n        print('rules')\n"
            "    except r.SpecFolderError:\n        print('error')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TOOLCAST_SPEC_PATH": str(tmp_path)})
    assert done.stdout.split() == ["error", "error"], done.stderr
