"""tool_calls: reading function calls from every accepted response shape, rejections, null stripping."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from toolcast.providers.openai import ToolCall, ToolsReport, tool_calls
from toolcast.toolset import ToolSet

sys.path.insert(0, str(Path(__file__).parent))
from servers.openai_stub import chat_completion, responses_response


def core(name: str):
    """A name from the compiler core; skip (only) while the core does not provide it yet."""
    try:
        module = __import__("toolcast", fromlist=[name])
        return getattr(module, name)
    except (ImportError, AttributeError) as exc:  # AttributeError: package without the name
        pytest.skip(f"toolcast.{name} not available yet: {exc}")


@pytest.fixture(scope="module")
def toolset() -> ToolSet:
    ts, _ = ToolSet.build(
        {
            "files": [
                {"name": "read.file", "inputSchema": {"type": "object"}},
                {"name": "write_file", "inputSchema": {"type": "object"}},
            ],
            "git": [{"name": "status", "inputSchema": {"type": "object"}}],
        }
    )
    assert ts.names == ("files__read_file", "files__write_file", "git__status")
    return ts


CALLS = [
    ("call_1", "files__read_file", '{"path": "a.txt"}'),
    ("call_2", "git__status", ""),
    ("call_3", "files__write_file", None),
]


def check_good_calls(calls: list[ToolCall], api: str) -> None:
    assert [(c.call_id, c.name, c.server, c.tool, c.arguments, c.api) for c in calls] == [
        ("call_1", "files__read_file", "files", "read.file", {"path": "a.txt"}, api),
        ("call_2", "git__status", "git", "status", {}, api),
        ("call_3", "files__write_file", "files", "write_file", {}, api),
    ]


def test_chat_completion(toolset):
    calls, rejected = tool_calls(chat_completion(CALLS, content="thinking"), toolset, {})
    check_good_calls(calls, "chat")
    assert rejected == []


def test_chat_assistant_message(toolset):
    message = chat_completion(CALLS)["choices"][0]["message"]
    calls, rejected = tool_calls(message, toolset, {})
    check_good_calls(calls, "chat")
    assert rejected == []


def test_chat_message_without_tool_calls_gives_nothing(toolset):
    assert tool_calls({"role": "assistant", "content": "hi", "tool_calls": None}, toolset) == (
        [],
        [],
    )
    assert tool_calls(chat_completion([], content="just text"), toolset) == ([], [])


def test_responses_response_ignores_reasoning_and_messages(toolset):
    calls, rejected = tool_calls(responses_response(CALLS), toolset, {})
    check_good_calls(calls, "responses")
    assert rejected == []


def test_bare_lists_of_chat_tool_calls_and_responses_items(toolset):
    chat_list = chat_completion(CALLS)["choices"][0]["message"]["tool_calls"]
    calls, _ = tool_calls(chat_list, toolset)
    check_good_calls(calls, "chat")
    items = responses_response(CALLS)["output"]
    calls, _ = tool_calls(items, toolset)
    check_good_calls(calls, "responses")


def test_openai_sdk_objects(toolset):
    from openai.types.chat import ChatCompletion
    from openai.types.responses import Response

    # The SDK types require a string; the empty string is what the wire carries.
    sdk_calls = [(cid, name, args or "") for cid, name, args in CALLS]
    completion = ChatCompletion.model_validate(chat_completion(sdk_calls))
    check_good_calls(tool_calls(completion, toolset)[0], "chat")
    check_good_calls(tool_calls(completion.choices[0].message, toolset)[0], "chat")
    check_good_calls(tool_calls(completion.choices[0].message.tool_calls, toolset)[0], "chat")
    response = Response.model_validate(responses_response(sdk_calls))
    check_good_calls(tool_calls(response, toolset)[0], "responses")
    check_good_calls(tool_calls(response.output, toolset)[0], "responses")


BAD = [
    ("c_ok", "git__status", "{}"),
    ("c_unknown", "files__read_fil", "{}"),
    ("c_json", "git__status", "{bad"),
    ("c_array", "git__status", "[1]"),
    ("c_scalar", "git__status", "42"),
    ("c_nan", "git__status", '{"x": NaN}'),
]


def test_rejections_in_responses_shape(toolset):
    calls, rejected = tool_calls(responses_response(BAD), toolset, {})
    assert [c.call_id for c in calls] == ["c_ok"]
    assert [r["call_id"] for r in rejected] == [
        "c_unknown",
        "c_json",
        "c_array",
        "c_scalar",
        "c_nan",
    ]
    assert all(set(r) == {"type", "call_id", "output"} for r in rejected)
    assert all(r["type"] == "function_call_output" for r in rejected)
    unknown, bad_json, array, scalar, nan = (r["output"] for r in rejected)
    assert unknown.startswith("Error: unknown tool 'files__read_fil'.")
    assert "Did you mean 'files__read_file'?" in unknown
    assert "Valid tools: files__read_file, files__write_file, git__status." in unknown
    assert bad_json.startswith("Error: arguments for tool 'git__status' are not valid JSON")
    assert "line 1 column 2" in bad_json
    assert array == "Error: arguments for tool 'git__status' must be a JSON object, got an array"
    assert scalar.endswith("must be a JSON object, got a number")
    assert "not valid JSON" in nan


def test_rejections_in_chat_shape_with_custom_prefix(toolset):
    calls, rejected = tool_calls(chat_completion(BAD), toolset, error_prefix="ERR: ")
    assert [c.call_id for c in calls] == ["c_ok"]
    assert [set(r) for r in rejected] == [{"role", "tool_call_id", "content"}] * 5
    assert [r["tool_call_id"] for r in rejected] == [
        "c_unknown",
        "c_json",
        "c_array",
        "c_scalar",
        "c_nan",
    ]
    assert all(r["role"] == "tool" and r["content"].startswith("ERR: ") for r in rejected)


def test_unknown_tool_without_close_match_and_long_lists():
    many, _ = ToolSet.build({"s": [{"name": f"t{i:03d}"} for i in range(60)]})
    _, rejected = tool_calls(
        [{"type": "function_call", "call_id": "x", "name": "zzzz", "arguments": "{}"}], many
    )
    message = rejected[0]["output"]
    assert "Did you mean" not in message
    assert "s__t000, s__t001" in message and "(10 more)" in message and "s__t059" not in message


def test_arguments_already_decoded_and_whitespace_only(toolset):
    items = [
        {"type": "function_call", "call_id": "a", "name": "git__status", "arguments": "  \n"},
        {"type": "function_call", "call_id": "b", "name": "git__status", "arguments": {"k": [1]}},
    ]
    calls, rejected = tool_calls(items, toolset)
    assert [c.arguments for c in calls] == [{}, {"k": [1]}] and rejected == []


def test_without_null_paths_nulls_are_kept(toolset):
    args = json.dumps({"path": None, "nested": {"x": None}})
    calls, _ = tool_calls(responses_response([("c", "files__read_file", args)]), toolset)
    assert calls[0].arguments == {"path": None, "nested": {"x": None}}


def test_unrecognised_input_raises(toolset):
    with pytest.raises(TypeError):
        tool_calls({"something": "else"}, toolset)
    with pytest.raises(TypeError):
        tool_calls(42, toolset)


def test_nulls_stripped_only_at_that_tools_null_paths(toolset):
    items_marker = core("ITEMS")
    args = {
        "path": None,
        "mode": None,
        "tags": [{"note": None, "k": None}, {"note": "x"}],
        "keep": None,
    }
    null_paths = {
        "files__read_file": (("path",), ("mode",), ("tags", items_marker, "note")),
        # Another tool's paths must not apply to this one.
        "git__status": (("keep",),),
    }
    response = responses_response(
        [("c1", "files__read_file", json.dumps(args)), ("c2", "git__status", json.dumps(args))]
    )
    calls, rejected = tool_calls(response, toolset, null_paths)
    assert rejected == []
    assert calls[0].arguments == {"tags": [{"k": None}, {"note": "x"}], "keep": None}
    assert calls[1].arguments == {
        "path": None,
        "mode": None,
        "tags": [{"note": None, "k": None}, {"note": "x"}],
    }


def test_null_paths_may_be_given_as_a_tools_report(toolset):
    core("strip_nulls")
    report = ToolsReport(null_paths={"git__status": (("since",),)})
    calls, _ = tool_calls(
        chat_completion([("c", "git__status", '{"since": null, "n": null}')]), toolset, report
    )
    assert calls[0].arguments == {"n": None}


def test_tool_call_output_helper_uses_its_own_api(toolset):
    (call,), _ = tool_calls(chat_completion([("c9", "git__status", "{}")]), toolset)
    assert call.output("clean") == {"role": "tool", "tool_call_id": "c9", "content": "clean"}
    (call,), _ = tool_calls(responses_response([("c9", "git__status", "{}")]), toolset)
    assert call.output("clean") == {
        "type": "function_call_output",
        "call_id": "c9",
        "output": "clean",
    }


# --------------------------------------------------------------------------- hostile responses

MALFORMED = [
    ({"choices": {"0": {}}}, "response.choices: expected a list, got dict"),
    ({"choices": 5}, "response.choices: expected a list, got int"),
    ({"choices": [5]}, r"response.choices\[0\]: expected an object, got int"),
    (
        {"choices": [{"message": "hi"}]},
        r"response.choices\[0\].message: expected an object, got str",
    ),
    ({"choices": [{}]}, r"response.choices\[0\].message: expected an object, got None"),
    (
        {"choices": [{"message": {"role": "assistant", "tool_calls": 5}}]},
        r"response.choices\[0\].message.tool_calls: expected a list, got int",
    ),
    (
        {"choices": [{"message": {"role": "assistant", "tool_calls": [7]}}]},
        r"response.choices\[0\].message.tool_calls\[0\]: expected an object",
    ),
    (
        {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": "f"}]},
        r"response.tool_calls\[0\].function: expected an object, got str",
    ),
    (
        {"role": "assistant", "tool_calls": [{"id": 3, "function": {"name": "git__status"}}]},
        r"response.tool_calls\[0\].id: expected a string, got int",
    ),
    ({"output": 5}, "response.output: expected a list, got int"),
    ({"output": [None]}, r"response.output\[0\]: expected an object"),
    (
        {"output": [{"type": "function_call", "call_id": "c", "name": ["git__status"]}]},
        r"response.output\[0\].name: expected a string, got list",
    ),
    ({"output": [{"type": 1}]}, r"response.output\[0\].type: expected a string, got int"),
    ([{"call_id": "c"}], r"response\[0\]: expected a tool call or an output item with a type"),
    (3.5, "response: expected a Chat Completion"),
]


@pytest.mark.parametrize(("response", "message"), MALFORMED)
def test_malformed_responses_raise_a_toolcast_error_naming_the_place(toolset, response, message):
    from toolcast import ToolcastError

    with pytest.raises(ToolcastError, match=f"^{message}"):
        tool_calls(response, toolset)


def test_malformed_sdk_objects_raise_the_same_errors_without_warnings(toolset):
    from openai.types.chat import ChatCompletion, ChatCompletionMessage
    from openai.types.chat.chat_completion import Choice
    from openai.types.responses import Response

    from toolcast import ToolcastError

    cases = [
        (ChatCompletion.model_construct(choices=5), "response.choices: expected a list, got int"),
        (ChatCompletion.model_construct(choices={"a": 1}), "response.choices: expected a list"),
        (
            ChatCompletion.model_construct(choices=[Choice.model_construct(message=5)]),
            r"response.choices\[0\].message: expected an object, got int",
        ),
        (
            ChatCompletionMessage.model_construct(role="assistant", tool_calls="x"),
            "response.tool_calls: expected a list, got str",
        ),
        (Response.model_construct(output=5), "response.output: expected a list, got int"),
        (Response.model_construct(output=[5]), r"response.output\[0\]: expected an object"),
    ]
    import warnings

    for response, message in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no pydantic serializer warnings: nothing is dumped
            with pytest.raises(ToolcastError, match=f"^{message}"):
                tool_calls(response, toolset)


def test_deep_large_and_non_finite_arguments_are_rejected_for_that_call_only(toolset):
    deep_valid = '{"a": ' * 150 + "1" + "}" * 150
    hostile = {
        "c_arrays": "[" * 1000,
        "c_objects": '{"a":' * 1000,
        "c_deep": deep_valid,
        "c_deep_list": "[" * 200 + "]" * 200,
        "c_huge": '{"text": "' + "x" * (5 * 1024 * 1024) + '"}',
        "c_inf": '{"a": 1e400}',
        "c_neg_inf": '{"a": [-1e999]}',
        "c_digits": '{"a": ' + "9" * 5000 + "}",
    }
    spec = [("c_ok", "git__status", '{"q": [[["fine"]]]}')]
    spec += [(cid, "git__status", args) for cid, args in hostile.items()]
    for response in (responses_response(spec), chat_completion(spec)):
        calls, rejected = tool_calls(response, toolset)
        assert [(c.call_id, c.arguments) for c in calls] == [("c_ok", {"q": [[["fine"]]]})]
        texts = {
            r.get("call_id", r.get("tool_call_id")): r.get("output", r.get("content"))
            for r in rejected
        }
        assert list(texts) == list(hostile)
        for cid in ("c_arrays", "c_objects", "c_deep", "c_deep_list"):
            assert "nested more than 100 levels deep" in texts[cid], texts[cid]
        assert "larger than 4194304 bytes" in texts["c_huge"]
        assert "out of range" in texts["c_inf"] and "out of range" in texts["c_neg_inf"]
        assert texts["c_digits"].startswith(
            "Error: arguments for tool 'git__status' are not valid JSON"
        )
    # Depth within the bound is accepted as it is.
    ok = '{"a": ' * 99 + "1" + "}" * 99
    calls, rejected = tool_calls(responses_response([("c", "git__status", ok)]), toolset)
    assert rejected == [] and calls[0].arguments["a"]["a"]["a"]


def test_already_decoded_arguments_that_are_not_json_are_rejected(toolset):
    deep: dict = {}
    for _ in range(1000):
        deep = {"a": deep}
    cyclic: list = []
    cyclic.append(cyclic)
    hostile = {
        "c_deep": deep,
        "c_set": {"a": {1, 2}},
        "c_nan": {"a": float("nan")},
        "c_key": {"a": {1: "x"}},
        "c_cycle": {"a": cyclic},
    }
    items = [
        {"type": "function_call", "call_id": cid, "name": "git__status", "arguments": a}
        for cid, a in hostile.items()
    ]
    items.append(
        {"type": "function_call", "call_id": "c_num", "name": "git__status", "arguments": 5}
    )
    calls, rejected = tool_calls(items, toolset)
    assert calls == []
    out = {r["call_id"]: r["output"] for r in rejected}
    assert "nested more than 100 levels deep" in out["c_deep"] and "nested more" in out["c_cycle"]
    assert (
        "set" in out["c_set"] and "non-finite" in out["c_nan"] and "key of type int" in out["c_key"]
    )
    assert (
        out["c_num"]
        == "Error: arguments for tool 'git__status' must be a JSON object string, got int"
    )


def test_lone_surrogates_in_arguments_are_rejected_and_pairs_kept(toolset):
    items = [
        {
            "type": "function_call",
            "call_id": "esc",
            "name": "git__status",
            "arguments": '{"x": "\\ud800"}',
        },
        {
            "type": "function_call",
            "call_id": "key",
            "name": "git__status",
            "arguments": '{"\\udfff": 1}',
        },
        {
            "type": "function_call",
            "call_id": "raw",
            "name": "git__status",
            "arguments": '{"x": "\ud800"}',
        },
        {
            "type": "function_call",
            "call_id": "dict",
            "name": "git__status",
            "arguments": {"x": ["\udc00"]},
        },
        {
            "type": "function_call",
            "call_id": "pair",
            "name": "git__status",
            "arguments": '{"x": "\\ud83d\\ude00"}',
        },
    ]
    calls, rejected = tool_calls(items, toolset)
    assert [(c.call_id, c.arguments) for c in calls] == [("pair", {"x": "\U0001f600"})]
    assert [r["call_id"] for r in rejected] == ["esc", "key", "raw", "dict"]
    assert all(
        "lone surrogate" in r["output"] and "not Unicode text" in r["output"] for r in rejected
    )


@pytest.mark.parametrize("args,reason", [
    ('{"a": "x\ty"}', "Invalid control character at line 1 column 9"),
    ('{"a": "xy', "Unterminated string starting at line 1 column 7"),
    ("{bad", "Expecting property name enclosed in double quotes at line 1 column 2"),
])
def test_a_json_error_names_its_place_once(args: str, reason: str):
    # json's own message ends in "at" for some errors: it read "... at at line 1 column 8".
    from toolcast._runtime.loop import decode_arguments

    assert decode_arguments("t", args) == (None, f"arguments for tool 't' are not valid JSON ({reason})")


def _counted_search(monkeypatch) -> list[int]:
    """Each "Did you mean" search the loop makes, as the number of names it compares."""
    import difflib

    searched: list[int] = []
    search = difflib.get_close_matches

    def counted(word, possibilities, *args, **kwargs):
        searched.append(len(possibilities))
        return search(word, possibilities, *args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", counted)
    return searched


def test_a_made_up_name_is_searched_once_and_among_a_shortlist_of_a_large_toolset(monkeypatch):
    import difflib

    verbs, nouns = ["get", "list", "create", "delete", "search"], ["issue", "comment", "branch", "file", "user"]
    names = [f"{s}__{v}_{n}{k}" for s in ("github", "gitlab", "jira", "notion") for v in verbs for n in nouns
             for k in ("", "s", "_page", "_count")]
    ts, _ = ToolSet.build([{"name": n, "inputSchema": {"type": "object"}} for n in names])
    assert len(ts.names) == 400
    item = {"type": "function_call", "name": "github__get_issue_comment_thread", "arguments": "{}"}
    (best,) = difflib.get_close_matches(item["name"], names, n=1, cutoff=0.6)  # (among all 400)
    searched = _counted_search(monkeypatch)
    for _ in range(2):  # (two responses of 30 calls to the same made-up name)
        _, rejected = tool_calls([{**item, "call_id": f"c{i}"} for i in range(30)], ts)
        assert len(rejected) == 30 and len({r["output"] for r in rejected}) == 1
    assert f"Did you mean {best!r}?" in rejected[0]["output"]
    assert len(searched) == 1 and searched[0] <= 20  # once, among the names sharing the most pieces


def test_a_response_of_many_made_up_names_searches_for_a_few(monkeypatch):
    searched = _counted_search(monkeypatch)
    ts, _ = ToolSet.build([{"name": f"tool_{i}", "inputSchema": {"type": "object"}} for i in range(50)])
    calls = [{"type": "function_call", "call_id": f"c{i}", "name": f"tool_{i}x", "arguments": "{}"} for i in range(100)]
    _, rejected = tool_calls(calls, ts)
    from toolcast._runtime.suggest import MAX_SUGGESTED

    assert len(searched) == MAX_SUGGESTED and all(n == 50 for n in searched)  # (a small toolset: all its names)
    assert "Did you mean 'tool_0'?" in rejected[0]["output"]
    assert "Did you mean" not in rejected[-1]["output"] and "Valid tools: tool_0, tool_1" in rejected[-1]["output"]
