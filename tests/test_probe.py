"""`toolcast probe`: every verdict and exit code, against loopback stubs of the four APIs (never the network)."""

from __future__ import annotations

import io
import json
import os

import pytest

pytest.importorskip("openai")
pytest.importorskip("anthropic")
pytest.importorskip("google.genai")

from probe_stubs import (
    ANTHROPIC_DRAFT,
    CUT,
    GEMINI_STATES,
    OPENAI_ROOT,
    VERTEX_ANYOF,
    Stub,
    anthropic_error,
    chat_call,
    gemini_call,
    google_error,
    messages_call,
    openai_error,
    responses_call,
    responses_text,
)

from toolcast import probe
from toolcast.cli import probe as probe_cli
from toolcast.cli.main import main
from toolcast.compile import compile_tool

REFUND = {"name": "refund_order", "description": "Refund an order",
          "inputSchema": {"type": "object", "properties": {"amount": {"type": "integer", "minimum": 1},
                                                            "note": {"type": "string"}},
                          "required": ["amount"]}}
KEY_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL",
            "GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GOOGLE_VERTEX_BASE_URL",
            "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_GENAI_USE_VERTEXAI",
            "CLOUDSDK_CONFIG", *probe.wire.MODEL_ENV.values())


@pytest.fixture
def stub(monkeypatch, tmp_path):
    for var in KEY_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("CLOUDSDK_CONFIG", str(tmp_path / "no-gcloud"))
    s = Stub()
    for k, v in s.env(tmp_path).items():
        monkeypatch.setenv(k, v)
    yield s
    s.close()


@pytest.fixture
def tools_file(tmp_path):
    p = tmp_path / "tools.json"
    p.write_text(json.dumps([REFUND]))
    return p


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["probe", *argv, "--timeout", "20"], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def one(stub: Stub, target: str, api: str | None = None, *, tool: dict = REFUND, sleep=None, **settings) -> probe.Verdict:
    res = compile_tool(tool, target=target, api=api)
    plans = probe.plan([("tools.json", tool, res)], target, res.api, res.rules, "stub-model")
    slept = sleep if sleep is not None else (lambda s: None)
    (v,) = probe.run(plans, probe.Settings(**{"timeout": 20, **settings}), sleep=slept)
    return v


# -- accepted ------------------------------------------------------------------------------------
def test_accepted_with_valid_arguments_on_each_api(stub):
    stub.answers["responses"] = [responses_call("refund_order", '{"amount": 5, "note": null}')]
    stub.answers["chat"] = [chat_call("refund_order", '{"amount": 5, "note": "late"}')]
    stub.answers["messages"] = [messages_call("refund_order", {"amount": 2})]
    stub.answers["generate"] = [gemini_call("refund_order", {"amount": 3})]
    for target, api in (("openai", "responses"), ("openai", "chat"), ("anthropic", None), ("gemini", None),
                        ("gemini", "json-schema"), ("vertex", None)):
        v = one(stub, target, api)
        assert (v.status, v.called, v.arguments_valid) == ("accepted", True, True), (target, api, v)
        assert v.argument_errors == () and v.attempts == 1
    # The null strict mode made the model send for the optional `note` is stripped before the check.
    paths = [p for p, _, _ in stub.requests]
    assert "/v1/responses" in paths and "/v1/chat/completions" in paths and "/v1/messages" in paths
    assert "/token" in paths  # Vertex AI: the SDK's own credential path ran, against the stub
    assert any(p.startswith("/v1beta1/projects/stub-project/locations/us-central1/") for p in paths)


def test_the_request_pins_the_tool_and_caps_the_output(stub):
    stub.answers["responses"] = [responses_call("refund_order", '{"amount": 5, "note": null}')]
    stub.answers["messages"] = [messages_call("refund_order", {"amount": 2})]
    stub.answers["generate"] = [gemini_call("refund_order", {"amount": 3})]
    one(stub, "openai", max_output_tokens=77)
    one(stub, "anthropic", max_output_tokens=77)
    v = one(stub, "gemini", max_output_tokens=77)
    bodies = {p: b for p, _, b in stub.requests}
    r = bodies["/v1/responses"]
    assert r["tool_choice"] == {"type": "function", "name": "refund_order"} and r["max_output_tokens"] == 77
    assert r["tools"][0]["strict"] is True and r["store"] is False
    m = bodies["/v1/messages"]
    assert m["tool_choice"] == {"type": "tool", "name": "refund_order"} and m["max_tokens"] == 77
    g = next(b for p, _, b in stub.requests if "generateContent" in p)
    assert g["toolConfig"]["functionCallingConfig"] == {"mode": "VALIDATED", "allowedFunctionNames": ["refund_order"]}
    assert g["generationConfig"]["maxOutputTokens"] == 77
    # The recorded request is the body that was sent, without a header (the key rides in one).
    assert v.request["body"] == g and set(v.request) == {"method", "url", "body"}


def test_accepted_with_invalid_arguments_names_each_error(stub):
    stub.answers["responses"] = [responses_call("refund_order", '{"amount": 0, "note": null}')]
    v = one(stub, "openai")
    assert (v.status, v.arguments_valid) == ("accepted", False)
    assert v.argument_errors == ({"path": "/amount", "message": "0 is less than the minimum of 1"},)
    assert probe.exit_code([v]) == 1


def test_arguments_that_are_not_json_are_invalid(stub):
    stub.answers["chat"] = [chat_call("refund_order", '{"amount": 5')]
    v = one(stub, "openai", "chat")
    assert (v.status, v.arguments_valid, v.arguments) == ("accepted", False, '{"amount": 5')
    assert v.argument_errors[0]["message"].startswith("arguments for tool 'refund_order' are not valid JSON")


def test_accepted_without_a_call_has_no_verdict_on_arguments(stub):
    stub.answers["responses"] = [responses_text("I would refund", status="incomplete")]
    v = one(stub, "openai")
    assert (v.status, v.called, v.arguments_valid) == ("accepted", False, None)
    assert any("max_output_tokens" in n for n in v.notes)
    assert probe.exit_code([v]) == 3


def test_arguments_checked_against_the_original_schema_not_the_sent_one(stub):
    # Gemini's parameters Schema is the OpenAPI subset: the check uses the input's JSON Schema.
    tool = {"name": "pick", "inputSchema": {"type": "object", "properties": {"n": {"const": 3}}, "required": ["n"]}}
    stub.answers["generate"] = [gemini_call("pick", {"n": 4})]
    v = one(stub, "gemini", tool=tool)
    assert v.arguments_valid is False and v.argument_errors[0]["path"] == "/n"


def test_a_ref_to_another_document_is_never_fetched(stub):
    tool = {"name": "remote", "inputSchema": {"type": "object", "properties": {
        "a": {"$ref": "https://example.invalid/schema.json"}}}}
    valid, errors, why = probe.check_arguments(tool["inputSchema"], {"a": 1})
    assert valid is None and errors == () and "not checked" in why
    local = {"type": "object", "$defs": {"p": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/p"}}}
    assert probe.check_arguments(local, {"a": "x"})[0] is False


# -- rejected --------------------------------------------------------------------------------------
@pytest.mark.parametrize("target, kind, answer, text", [
    ("openai", "responses", openai_error(400, OPENAI_ROOT, "invalid_request_error", "invalid_function_parameters",
                                         "tools[0].parameters"), OPENAI_ROOT + " (param: tools[0].parameters)"),
    ("anthropic", "messages", anthropic_error(400, "invalid_request_error", ANTHROPIC_DRAFT), ANTHROPIC_DRAFT),
    ("gemini", "generate", google_error(400, "INVALID_ARGUMENT", GEMINI_STATES), GEMINI_STATES + " (INVALID_ARGUMENT)"),
    ("vertex", "generate", google_error(400, "INVALID_ARGUMENT", VERTEX_ANYOF), VERTEX_ANYOF + " (INVALID_ARGUMENT)"),
])
def test_rejected_keeps_the_providers_message(stub, target, kind, answer, text):
    stub.answers[kind] = [answer]
    v = one(stub, target)
    assert (v.status, v.kind, v.http_status, v.message) == ("rejected", None, 400, text)
    assert v.attempts == 1 and probe.exit_code([v]) == 1


# -- errors --------------------------------------------------------------------------------------
@pytest.mark.parametrize("target, kind, answer, expected", [
    ("openai", "responses", openai_error(401, "Incorrect API key provided: sk-test-*******0001.", "invalid_request_error",
                                         "invalid_api_key"), ("authentication", 401)),
    ("anthropic", "messages", anthropic_error(401, "authentication_error", "invalid x-api-key"), ("authentication", 401)),
    ("gemini", "generate", google_error(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
        {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"}]), ("authentication", 400)),
    ("vertex", "generate", google_error(403, "PERMISSION_DENIED", "Permission denied on resource project stub-project."),
     ("authentication", 403)),
    ("openai", "responses", openai_error(404, "The model `stub-model` does not exist or you do not have access to it.",
                                         "invalid_request_error", "model_not_found"), ("model-not-found", 404)),
    ("anthropic", "messages", anthropic_error(404, "not_found_error", "model: stub-model"), ("model-not-found", 404)),
    ("gemini", "generate", google_error(404, "NOT_FOUND", "models/stub-model is not found for API version v1beta, or "
                                        "is not supported for generateContent."), ("model-not-found", 404)),
    ("anthropic", "messages", anthropic_error(529, "overloaded_error", "Overloaded"), ("server", 529)),
])
def test_errors_are_classified(stub, target, kind, answer, expected):
    stub.answers[kind] = [answer]
    v = one(stub, target)
    assert (v.status, v.kind, v.http_status) == ("error", *expected)
    assert v.attempts == 1  # only a rate limit is retried
    assert probe.exit_code([v]) == 3


def test_a_cut_connection_is_a_network_error(stub):
    for kind, target in (("responses", "openai"), ("messages", "anthropic"), ("generate", "gemini")):
        stub.answers[kind] = [CUT]
        v = one(stub, target)
        assert (v.status, v.kind, v.http_status) == ("error", "network", None), (target, v)


def test_a_refused_connection_is_a_network_error(stub, monkeypatch):
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    assert one(stub, "openai").kind == "network"


def test_429_is_retried_honouring_retry_after(stub):
    limit = openai_error(429, "Rate limit reached for gpt-5-mini", "requests", "rate_limit_exceeded")
    stub.answers["responses"] = [(*limit, {"retry-after": "7"}), responses_call("refund_order", '{"amount": 5, "note": null}')]
    waits: list[float] = []
    v = one(stub, "openai", sleep=waits.append)
    assert (v.status, v.arguments_valid, v.attempts) == ("accepted", True, 2)
    assert waits == [7.0]
    google = google_error(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).", [
        {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "3s"}])
    stub.answers["generate"] = [google, gemini_call("refund_order", {"amount": 3})]
    waits.clear()
    assert one(stub, "gemini", sleep=waits.append).status == "accepted" and waits == [3.0]


def test_429_retries_are_bounded_and_back_off(stub):
    limit = anthropic_error(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit")
    stub.answers["messages"] = [limit]
    waits: list[float] = []
    v = one(stub, "anthropic", sleep=waits.append, retries=2, backoff=1.5)
    assert (v.status, v.kind, v.attempts) == ("error", "rate-limit", 3)
    assert waits == [1.5, 3.0]
    # A Retry-After past --max-wait is reported, not waited for.
    stub.answers["messages"] = [(*limit, {"retry-after": "600"})]
    waits.clear()
    v = one(stub, "anthropic", sleep=waits.append, max_wait=30)
    assert (v.kind, v.attempts, waits) == ("rate-limit", 1, [])
    assert any("600" in n for n in v.notes)
    # A retry the run's cap forbids is neither waited for nor said to have happened (s13j #11e).
    stub.answers["messages"] = [limit]
    waits.clear()
    v = one(stub, "anthropic", sleep=waits.append, max_requests=1)
    assert (v.kind, v.attempts, waits) == ("rate-limit", 1, [])
    assert not any("retried after" in n for n in v.notes) and any("cap of 1" in n for n in v.notes)


# -- skipped ---------------------------------------------------------------------------------------
def test_skipped_refused_and_no_key_send_nothing(stub, monkeypatch):
    bad = {"name": "bad name!", "inputSchema": {"type": "object"}}
    v = one(stub, "openai", tool=bad)
    assert (v.status, v.kind) == ("skipped", "refused") and probe.exit_code([v]) == 1
    monkeypatch.delenv("OPENAI_API_KEY")
    v = one(stub, "openai")
    assert (v.status, v.kind) == ("skipped", "no-key") and "OPENAI_API_KEY" in v.message
    assert probe.exit_code([v]) == 3
    assert stub.requests == []


def test_the_request_cap_skips_the_rest(stub):
    stub.answers["messages"] = [messages_call("refund_order", {"amount": 2})]
    tools = [dict(REFUND, name=f"t{i}") for i in range(5)]
    plans = []
    for t in tools:
        res = compile_tool(t, target="anthropic")
        plans += probe.plan([("f", t, res)], "anthropic", res.api, res.rules, "m")
    got = probe.run(plans, probe.Settings(max_requests=2, jobs=2))
    assert sorted(v.status for v in got) == ["accepted", "accepted", "skipped", "skipped", "skipped"]
    assert {v.kind for v in got if v.status == "skipped"} == {"cap"}
    assert len(stub.requests) == 2


# -- the command -------------------------------------------------------------------------------------
def test_cli_exit_0_json_and_no_key_in_any_output(stub, tools_file):
    stub.answers["responses"] = [responses_call("refund_order", '{"amount": 5, "note": null}')]
    stub.answers["messages"] = [messages_call("refund_order", {"amount": 2})]
    code, out, err = cli(str(tools_file), "--target", "openai,anthropic", "--format", "json", "--model", "openai=gpt-x")
    assert code == 0, (out, err)
    doc = json.loads(out)
    assert doc["summary"] == {"accepted": 2, "rejected": 0, "error": 0, "skipped": 0, "invalid_arguments": 0}
    assert [(r["target"], r["model"]) for r in doc["results"]] == [("openai", "gpt-x"), ("anthropic", "claude-haiku-4-5")]
    for text in (out, err):
        assert os.environ["OPENAI_API_KEY"] not in text and os.environ["ANTHROPIC_API_KEY"] not in text


def test_cli_exit_1_on_rejection_with_text_sarif_and_github(stub, tools_file):
    stub.answers["responses"] = [openai_error(400, OPENAI_ROOT, "invalid_request_error", None, "tools[0].parameters")]
    code, out, _ = cli(str(tools_file))
    assert code == 1 and "rejected (400): Invalid schema for function 'refund_order'" in out
    assert out.rstrip().endswith("probe: 0 accepted (0 with invalid arguments), 1 rejected, 0 error(s), 0 skipped")
    code, out, _ = cli(str(tools_file), "--format", "sarif")
    log = json.loads(out)
    (result,) = log["runs"][0]["results"]
    assert code == 1 and result["ruleId"] == "toolcast/probe-rejected" and result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("tools.json")
    code, out, _ = cli(str(tools_file), "--format", "github")
    assert code == 1 and out.startswith("::error file=") and "title=toolcast/probe-rejected" in out


def test_cli_exit_3_without_a_verdict(stub, tools_file, monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY")
    code, out, _ = cli(str(tools_file), "--target", "gemini")
    assert code == 3 and "skipped, no-key" in out
    stub.answers["messages"] = [anthropic_error(401, "authentication_error", "invalid x-api-key")]
    code, out, _ = cli(str(tools_file), "--target", "anthropic")
    assert code == 3 and "error, authentication (401): invalid x-api-key" in out


def test_cli_exit_1_beats_3(stub, tools_file, monkeypatch):
    monkeypatch.delenv("GEMINI_API_KEY")
    stub.answers["responses"] = [responses_call("refund_order", '{"amount": -1, "note": null}')]
    code, out, _ = cli(str(tools_file), "--target", "openai,gemini")
    assert code == 1 and "arguments INVALID" in out and "/amount: -1 is less than the minimum of 1" in out


def test_cli_exit_2_on_input_and_usage_errors(stub, tmp_path, tools_file):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    code, out, _ = cli(str(bad))
    assert code == 2 and stub.requests == [] and f"error: {bad}" in out
    code, _, err = cli(str(tools_file), "--target", "openai,anthropic", "--model", "gpt-x")
    assert code == 2 and "TARGET=MODEL" in err
    code, _, err = cli(str(tools_file), "--dry-run", "--record", str(tmp_path / "r.json"))
    assert code == 2


def test_dry_run_prints_the_requests_without_keys_or_sending(stub, tools_file, monkeypatch):
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_APPLICATION_CREDENTIALS"):
        monkeypatch.delenv(var)
    code, out, _ = cli(str(tools_file), "--target", "all", "--dry-run")
    assert code == 0 and stub.requests == []
    assert out.count("skipped, dry-run") == 4
    assert '"url": "' + stub.url + '/v1/responses"' in out and '"tool_choice": {' in out
    assert "/v1beta1/projects/stub-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent" in out
    assert "dry-run" not in out.replace("skipped, dry-run", "")  # the placeholder key appears nowhere
    # Without GOOGLE_CLOUD_LOCATION, the location the real run uses: global, not us-central1 (s13j #11b)
    monkeypatch.delenv("GOOGLE_CLOUD_LOCATION")
    code, out, _ = cli(str(tools_file), "--target", "vertex", "--dry-run")
    assert code == 0 and "/projects/stub-project/locations/global/publishers/" in out and "us-central1" not in out


def test_a_huge_provider_message_is_cut(stub):
    # A 400 whose message was megabytes long was printed and recorded whole (s13j #11a).
    stub.answers["responses"] = [openai_error(400, "x" * 100_000, "invalid_request_error")]
    v = one(stub, "openai")
    assert v.status == "rejected" and len(v.message) < 2100 and "more characters not shown" in v.message


def test_record_holds_date_model_rules_and_exact_request(stub, tools_file, tmp_path):
    stub.answers["responses"] = [responses_call("refund_order", '{"amount": 5, "note": null}')]
    record = tmp_path / "evidence.json"
    code, _, _ = cli(str(tools_file), "--record", str(record), "--model", "gpt-x")
    assert code == 0
    doc = json.loads(record.read_text())
    assert doc["toolcast_probe_record"] == 1 and len(doc["date"]) == 10
    (v,) = doc["verdicts"]
    from toolcast.rules import get_rules

    assert (v["model"], v["rules"], v["status"], v["response_model"]) == (
        "gpt-x", get_rules(None).id, "accepted", "gpt-5-mini-2025-08-07")
    assert v["date"] == doc["date"] and v["request"]["body"] == stub.requests[-1][2]
    assert os.environ["OPENAI_API_KEY"] not in record.read_text()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".toolcast-")]  # no temporary file left
    # A file there that is not a record is never replaced.
    other = tmp_path / "notes.json"
    other.write_text('{"mine": true}')
    code, _, _ = cli(str(tools_file), "--record", str(other))
    assert code == 2 and json.loads(other.read_text()) == {"mine": True}


def test_record_document_dates_each_verdict():
    v = probe.Verdict("s", "t", "openai", "responses", "openai@x", "m", "accepted", observed="2026-12-05T23:59:59Z")
    doc = probe_cli.record_document([v])
    assert doc["verdicts"][0]["date"] == "2026-12-05"


def test_a_client_that_cannot_be_built_is_an_error_of_that_tool_only(stub):
    stub.answers["messages"] = [messages_call("refund_order", {"amount": 2})]
    plans = []
    for target in ("vertex", "anthropic"):
        res = compile_tool(REFUND, target=target)
        plans += probe.plan([("f", REFUND, res)], target, res.api, res.rules, "m")

    def make_client(target, timeout, on_request, dry=False):
        if target == "vertex":  # as google-genai refuses a project without a location, say
            raise ValueError("Project or API key must be set when using the Vertex AI API.")
        return probe.wire.client(target, timeout, on_request, dry=dry)

    vertex, anthropic = probe.run(plans, probe.Settings(timeout=20), make_client=make_client)
    assert (vertex.status, vertex.kind) == ("error", "setup") and "Project or API key" in vertex.message
    assert anthropic.status == "accepted"


def test_a_200_without_the_responses_shape_has_no_verdict_on_arguments(stub):
    # (not `accepted`: a body that is no answer of the API is no evidence of acceptance, s13j #10)
    stub.answers["responses"] = [(200, {"unexpected": True})]
    v = one(stub, "openai")
    assert (v.status, v.kind, v.called, v.arguments_valid) == ("error", "unknown", None, None)
    assert probe.exit_code([v]) == 3 and "not a response of the API" in v.message


def test_an_exception_that_is_no_provider_answer_is_an_unknown_error(stub, monkeypatch):
    def broken(*a, **k):
        raise KeyError("surprise")

    monkeypatch.setattr(probe.wire, "read_call", broken)
    stub.answers["messages"] = [messages_call("refund_order", {"amount": 2})]
    v = one(stub, "anthropic")
    assert (v.status, v.kind) == ("error", "unknown") and "KeyError" in v.message and v.attempts == 1


def test_requests_under_way_at_once_stay_within_jobs(stub):
    stub.delay = 0.3
    stub.answers["messages"] = [messages_call("refund_order", {"amount": 2})]
    plans = []
    for i in range(6):
        t = dict(REFUND, name=f"t{i}")
        res = compile_tool(t, target="anthropic")
        plans += probe.plan([("f", t, res)], "anthropic", res.api, res.rules, "m")
    got = probe.run(plans, probe.Settings(jobs=2, timeout=20))
    assert [v.tool for v in got] == [f"t{i}" for i in range(6)]  # the plans' order, whatever finished first
    assert len(stub.requests) == 6 and 1 <= stub.most_in_flight <= 2


def test_a_request_past_its_timeout_is_a_network_error(stub):
    stub.delay = 3.0
    stub.answers["chat"] = [chat_call("refund_order", '{"amount": 5, "note": null}')]
    v = one(stub, "openai", "chat", timeout=0.3)
    assert (v.status, v.kind, v.attempts) == ("error", "network", 1)
    assert "timed out" in v.message.lower()


def test_the_documented_session_is_what_the_command_prints(monkeypatch, tmp_path):
    """docs/probe.md and docs/cli.md show a session against examples/probe_stub.py: it stays true."""
    import importlib.util
    import threading
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("probe_stub_example", root / "examples" / "probe_stub.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    server = example.serve()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for var in KEY_VARS:
            monkeypatch.delenv(var, raising=False)
        for k, v in example.environment(server).items():
            monkeypatch.setenv(k, v)
        monkeypatch.chdir(root)
        code, out, _ = cli("examples/refund_order.json", "--target", "openai,anthropic")
    finally:
        server.shutdown()
        server.server_close()
    assert code == 1
    for doc in (root / "docs" / "probe.md", root / "docs" / "cli.md"):  # (cli.md: the README's summary, moved)
        assert out in doc.read_text(encoding="utf-8"), doc


def test_compiles_options_reach_the_request(stub, tools_file):
    # --enforce (compile's option) sends Anthropic the tool strict, the lost minimum named in its description.
    stub.answers["messages"] = [messages_call("refund_order", {"amount": 2})]
    code, out, _ = cli(str(tools_file), "--target", "anthropic", "--format", "json")
    assert code == 0 and json.loads(out)["results"][0]["sent_as"] == "non-strict"
    code, out, _ = cli(str(tools_file), "--target", "anthropic", "--format", "json", "--enforce")
    (result,) = json.loads(out)["results"]
    sent = stub.requests[-1][2]["tools"][0]
    assert code == 0 and result["sent_as"] == "strict" and sent["strict"] is True
    assert "minimum: 1" in sent["input_schema"]["properties"]["amount"]["description"]
    # --strict true refuses what auto would send non-strict: skipped, nothing sent, exit 1.
    before = len(stub.requests)
    code, out, _ = cli(str(tools_file), "--target", "anthropic", "--strict", "true")
    assert code == 1 and "skipped, refused" in out and len(stub.requests) == before


def test_ctrl_c_sends_nothing_more_and_reports_the_verdicts_paid_for(stub, tmp_path, monkeypatch):
    # ^C let every queued request go out, then exited 130 with no report (the red-team's round s13j #2).
    import signal
    import threading

    tools = tmp_path / "four.json"
    tools.write_text(json.dumps([{**REFUND, "name": f"t{i}"} for i in range(4)]))
    stub.answers["responses"] = [responses_call("t0", '{"amount": 5}')]
    stopped, main_thread = threading.Event(), threading.main_thread().ident
    answer, original_stop = stub._next, probe._Counter.stop

    def first_interrupts(path):  # (the first request is under way when ^C comes)
        if len(stub.requests) == 1:
            signal.pthread_kill(main_thread, signal.SIGINT)
            stopped.wait(30)  # (answered once the run has stopped sending)
        return answer(path)

    def stop(self):
        original_stop(self)
        stopped.set()

    monkeypatch.setattr(stub, "_next", first_interrupts)
    monkeypatch.setattr(probe._Counter, "stop", stop, raising=False)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        out, err = io.StringIO(), io.StringIO()
        code = main(["probe", str(tools), "--target", "openai", "--jobs", "1", "--timeout", "20", "--format", "json"],
                    stdout=out, stderr=err)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert code == 130 and "interrupted" in err.getvalue()
    assert len(stub.requests) == 1
    doc = json.loads(out.getvalue())
    assert [(r["tool"], r["status"], r.get("kind")) for r in doc["results"]] == [
        ("t0", "accepted", None), *((f"t{i}", "skipped", "interrupted") for i in (1, 2, 3))]


def test_an_input_error_sends_nothing_but_lists_every_good_tool(stub, tmp_path):
    # The good tools had no verdict at all, not even in a dry run (the red-team's round s13j #12).
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "good.json").write_text(json.dumps(REFUND))
    (tmp_path / "tools" / "bad.json").write_text("{")
    code, out, _ = cli(str(tmp_path / "tools"), "--target", "openai", "--format", "json",
                       "--record", str(tmp_path / "r.json"))
    doc = json.loads(out)
    assert code == 2 and stub.requests == [] and not (tmp_path / "r.json").exists()
    assert [(r["tool"], r["status"], r["kind"]) for r in doc["results"]] == [("refund_order", "skipped", "input-error")]
    assert len(doc["errors"]) == 1
    code, out, _ = cli(str(tmp_path / "tools"), "--target", "openai", "--dry-run", "--format", "json")
    doc = json.loads(out)
    assert code == 2 and stub.requests == []
    assert [(r["tool"], r["kind"]) for r in doc["results"]] == [("refund_order", "dry-run")]


@pytest.mark.parametrize(("target", "api", "kind", "body"), [
    ("openai", None, "responses", {}), ("anthropic", None, "messages", {}), ("gemini", None, "generate", {}),
    ("gemini", None, "generate", {"candidates": "x"}), ("openai", "chat", "chat", {"choices": []}),
    ("vertex", None, "generate", {}),
])
def test_a_200_that_is_not_an_answer_of_the_api_is_no_acceptance(stub, target, api, kind, body):
    # `{}` from a proxy or a stub was recorded as `accepted` evidence (the red-team's round s13j #10).
    stub.answers[kind] = [(200, body)]
    v = one(stub, target, api)
    assert (v.status, v.kind) == ("error", "unknown") and "not a response of the API" in v.message


def test_vertex_credentials_that_cannot_be_read_are_a_setup_error(stub, monkeypatch, tmp_path):
    # google.auth's DefaultCredentialsError came at send time and was `unknown` (s13j #11c).
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(tmp_path / "nonexistent.json"))
    v = one(stub, "vertex")
    assert (v.status, v.kind) == ("error", "setup") and "credentials" in v.message and stub.requests == []


@pytest.mark.parametrize("where", ["missing/dir/r.json", "a-directory", "not-a-record.json"])
def test_a_record_that_can_never_be_written_is_said_before_anything_is_sent(stub, tools_file, tmp_path, where):
    # It was said only after every request had been paid for (s13j #11d).
    (tmp_path / "a-directory").mkdir()
    (tmp_path / "not-a-record.json").write_text('{"mine": true}')
    stub.answers["responses"] = [responses_call("refund_order", '{"amount": 5, "note": null}')]
    code, out, _ = cli(str(tools_file), "--record", str(tmp_path / where))
    assert code == 2 and stub.requests == [] and "cannot write the record" in out
    assert (tmp_path / "not-a-record.json").read_text() == '{"mine": true}'
