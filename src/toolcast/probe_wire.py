"""What one probe request is on each provider's wire: the SDK client, the request, the tool call read back, and an SDK error classified."""

from __future__ import annotations

import email.utils
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple


def _probes() -> dict[str, Mapping[str, Any]]:
    """Target -> its spec's `wire.probe` (sdk, model, key_env, base_url), for each target that states one."""
    from toolcast.providers import EMITTERS

    return {name: t.probe for name, t in EMITTERS.items() if t.probe is not None}


class _ByTarget(Mapping):
    """A read-only mapping, target -> a value of its `wire.probe`, read from the registry when used."""

    def __init__(self, value: Callable[[str, Mapping[str, Any]], Any]) -> None:
        self._value = value

    def __getitem__(self, target: str) -> Any:
        probes = _probes()
        if target not in probes:
            raise KeyError(f"target {target!r} states no wire.probe: it cannot be probed")
        return self._value(target, probes[target])

    def __iter__(self) -> Iterator[str]:
        return iter(_probes())

    def __len__(self) -> int:
        return len(_probes())


# The model each target probes when neither --model nor its environment variable names one: a
# small, cheap model of each provider's current family (wire.probe.model; docs/probe.md lists them).
DEFAULT_MODELS: Mapping[str, str] = _ByTarget(lambda t, p: p["model"])
MODEL_ENV: Mapping[str, str] = _ByTarget(lambda t, p: f"TOOLCAST_PROBE_{t.upper().replace('-', '_')}_MODEL")
# The environment variables each SDK reads its key from; one of them must be set for a request.
KEY_ENV: Mapping[str, tuple[str, ...]] = _ByTarget(lambda t, p: tuple(p["key_env"]))
# The SDK a target's probe goes through (wire.probe.sdk): openai, anthropic, google-genai(-vertex).
SDK: Mapping[str, str] = _ByTarget(lambda t, p: p["sdk"])
_VERTEX = "google-genai-vertex"

PROMPT = ("This is a test of the function {name}. Call it exactly once now, with realistic example arguments "
          "that satisfy its parameter schema. Do not ask questions and do not answer in text.")


class Call(NamedTuple):
    """What came back: the tool call's arguments (None: no call), the model that answered, and notes."""

    arguments: Any
    called: bool
    model: str | None
    notes: tuple[str, ...]


class Failure(NamedTuple):
    """An SDK error, classified: verdict `rejected` or `error` and, for an error, its kind."""

    status: str  # rejected | error
    kind: str | None  # authentication | model-not-found | rate-limit | network | server | unknown
    message: str
    http_status: int | None
    retry_after: float | None


def has_key(target: str, environ: Any = os.environ) -> bool:
    """Whether the SDK would find credentials for `target` in the environment (never reads them out).
    Vertex AI: an express-mode API key, or a project with Application Default Credentials from
    GOOGLE_APPLICATION_CREDENTIALS or gcloud's file (the metadata server is not asked: no network here)."""
    if SDK[target] != _VERTEX:
        return any(environ.get(v, "").strip() for v in KEY_ENV[target])
    if environ.get("GOOGLE_API_KEY", "").strip():
        return True
    adc = environ.get("GOOGLE_APPLICATION_CREDENTIALS", "").strip()
    gcloud = Path(environ.get("CLOUDSDK_CONFIG") or Path.home() / ".config" / "gcloud") / "application_default_credentials.json"
    return bool(environ.get("GOOGLE_CLOUD_PROJECT", "").strip()) and (bool(adc) or gcloud.is_file())


def redact(text: str, environ: Any = os.environ) -> str:
    """`text` with the value of every key variable the SDKs read written as ***: a provider's message
    may quote the key it refused."""
    for names in KEY_ENV.values():
        for name in names:
            value = environ.get(name, "").strip()
            if len(value) >= 8 and name != "GOOGLE_CLOUD_PROJECT":
                text = text.replace(value, "***")
    return text


def model_for(target: str, given: dict[str, str], environ: Any = os.environ) -> str:
    """--model for this target, else its environment variable, else the documented default."""
    return given.get(target) or environ.get(MODEL_ENV[target], "").strip() or DEFAULT_MODELS[target]


def body(target: str, api: str, tool: dict, name: str, model: str, strict: bool, cap: int) -> dict:
    """The request's parameters as the SDK call takes them (for OpenAI and Anthropic, the JSON body)."""
    prompt = PROMPT.format(name=name)
    sdk = SDK[target]
    if sdk == "openai" and api != "responses":
        return {"model": model, "messages": [{"role": "user", "content": prompt}], "tools": [tool],
                "tool_choice": {"type": "function", "function": {"name": name}}, "max_completion_tokens": cap}
    if sdk == "openai":  # (store: false, so a probe leaves no stored response behind)
        return {"model": model, "input": prompt, "tools": [tool], "tool_choice": {"type": "function", "name": name},
                "max_output_tokens": cap, "store": False}
    if sdk == "anthropic":
        return {"model": model, "max_tokens": cap, "messages": [{"role": "user", "content": prompt}], "tools": [tool],
                "tool_choice": {"type": "tool", "name": name}}
    # Gemini, Vertex: "strict" is function calling mode VALIDATED (spec/gemini/*.yaml), else ANY;
    # either way only this function may be called.
    mode = "VALIDATED" if strict else "ANY"
    return {"model": model, "contents": prompt, "config": {
        "tools": [{"function_declarations": [tool]}],
        "tool_config": {"function_calling_config": {"mode": mode, "allowed_function_names": [name]}},
        "max_output_tokens": cap, "automatic_function_calling": {"disable": True}}}


def client(target: str, timeout: float, on_request: Callable[[Any], None], *, dry: bool = False) -> Any:
    """The official SDK's client for `target`, reading its key and base URL from the environment as
    it always does, with the SDK's own retries off (the probe retries rate limits itself) and every
    request handed to `on_request` before it is sent. `dry`: a client whose transport sends nothing."""
    hooks = {"request": [on_request]}
    sdk = SDK[target]
    if sdk == "openai":
        import openai

        http = openai.DefaultHttpxClient(event_hooks=hooks, **_dry_transport(openai, dry))
        return openai.OpenAI(max_retries=0, timeout=timeout, http_client=http, **_openai_host(target, dry))
    if sdk == "anthropic":
        import anthropic

        http = anthropic.DefaultHttpxClient(event_hooks=hooks, **_dry_transport(anthropic, dry))
        return anthropic.Anthropic(max_retries=0, timeout=timeout, http_client=http, **({"api_key": "dry-run"} if dry else {}))
    import httpx
    from google import genai
    from google.genai import types

    http = httpx.Client(event_hooks=hooks, timeout=timeout, **_dry_transport(None, dry))
    options = types.HttpOptions(timeout=int(timeout * 1000), retry_options=types.HttpRetryOptions(attempts=1),
                                httpx_client=http)
    if sdk != _VERTEX:
        return genai.Client(vertexai=False, http_options=options, **({"api_key": "dry-run"} if dry else {}))
    if dry:  # a token that is never refreshed: no credential lookup, no network
        from google.oauth2.credentials import Credentials

        return genai.Client(vertexai=True, credentials=Credentials(token="dry-run"),
                            project=os.environ.get("GOOGLE_CLOUD_PROJECT") or "PROJECT",
                            location=os.environ.get("GOOGLE_CLOUD_LOCATION", "").strip() or "global",  # (as sent)
                            http_options=options)
    # Project and location passed as the SDK would read them: given explicitly, a base URL from
    # GOOGLE_VERTEX_BASE_URL keeps the usual resource path instead of standing for the whole endpoint.
    project = os.environ.get("GOOGLE_CLOUD_PROJECT", "").strip()
    if not project:  # express mode: the API key alone
        return genai.Client(vertexai=True, http_options=options)
    location = os.environ.get("GOOGLE_CLOUD_LOCATION", "").strip() or "global"
    return genai.Client(vertexai=True, project=project, location=location, http_options=options)


def _openai_host(target: str, dry: bool) -> dict[str, Any]:
    """An OpenAI-compatible host's base URL and key (wire.probe.base_url, key_env); for OpenAI
    itself, nothing: the SDK reads its own environment."""
    base_url = _probes()[target].get("base_url")
    if base_url is None:
        return {"api_key": "dry-run"} if dry else {}
    key = next((v for v in (os.environ.get(n, "").strip() for n in KEY_ENV[target]) if v), "")
    return {"base_url": base_url, "api_key": "dry-run" if dry else key}


class DryRun(Exception):
    """Raised by a dry run's transport in place of sending the request."""


def _dry_transport(sdk: Any, dry: bool) -> dict:
    if not dry:
        return {}
    import httpx

    def refuse(request: Any) -> Any:
        raise DryRun("dry run: not sent")

    mod = httpx
    if sdk is not None:  # the SDK's own httpx (the SDKs may ship a renamed copy: httpx2)
        import importlib

        mod = importlib.import_module(sdk.DefaultHttpxClient.__mro__[1].__module__.split(".")[0])
    return {"transport": mod.MockTransport(refuse)}


def send(target: str, api: str, sdk: Any, params: dict) -> Any:
    kind = SDK[target]
    if kind == "openai" and api != "responses":
        return sdk.chat.completions.create(**params)
    if kind == "openai":
        return sdk.responses.create(**params)
    if kind == "anthropic":
        return sdk.messages.create(**params)
    return sdk.models.generate_content(**params)


def read_call(target: str, api: str, name: str, response: Any) -> Call:
    """The arguments of the first call of `name` in the response, as the API gives them (OpenAI:
    JSON text; Anthropic, Gemini: an object), and why there is none when there is none."""
    notes: list[str] = []
    model = getattr(response, "model", None) or getattr(response, "model_version", None)
    sdk = SDK[target]
    _is_a_response(sdk, api, response)
    if sdk == "openai" and api != "responses":
        choice = (response.choices or [None])[0]
        calls = (choice.message.tool_calls or []) if choice is not None else []
        found = [c.function.arguments for c in calls if getattr(c, "function", None) and c.function.name == name]
        if choice is not None and choice.finish_reason not in ("tool_calls", "stop"):
            notes.append(f"finish_reason: {choice.finish_reason}")
    elif sdk == "openai":
        found = [o.arguments for o in response.output or [] if o.type == "function_call" and o.name == name]
        if response.status != "completed":
            why = getattr(response.incomplete_details, "reason", None) if response.incomplete_details else None
            notes.append(f"response status: {response.status}" + (f" ({why})" if why else ""))
    elif sdk == "anthropic":
        found = [b.input for b in response.content or [] if b.type == "tool_use" and b.name == name]
        if response.stop_reason not in ("tool_use", "end_turn"):
            notes.append(f"stop_reason: {response.stop_reason}")
    else:
        cand = (response.candidates or [None])[0]
        parts = (cand.content.parts or []) if cand is not None and cand.content is not None else []
        found = [p.function_call.args for p in parts if p.function_call is not None and p.function_call.name == name]
        reason = getattr(getattr(cand, "finish_reason", None), "value", None)
        if reason not in (None, "STOP"):
            notes.append(f"finishReason: {reason}" + (f" ({cand.finish_message})" if getattr(cand, "finish_message", None) else ""))
    if not found:
        notes.append(f"no call of {name} came back")
        return Call(None, False, model, tuple(notes))
    return Call(found[0], True, model, tuple(notes))


def _is_a_response(sdk: str, api: str, response: Any) -> None:
    """ValueError unless `response` has the members every answer of its API has: a 200 whose body
    is `{}` (a proxy, a stub) is no evidence that the provider accepted anything."""
    if sdk == "openai" and api != "responses":
        ok = isinstance(getattr(response, "choices", None), list) and bool(response.choices)
        what = "a non-empty `choices` list"
    elif sdk == "openai":
        ok = isinstance(getattr(response, "output", None), list) and isinstance(getattr(response, "status", None), str)
        what = "an `output` list and a `status`"
    elif sdk == "anthropic":
        ok = isinstance(getattr(response, "content", None), list) and getattr(response, "type", None) == "message"
        what = 'a `content` list and `type: "message"`'
    else:  # (a blocked prompt has no candidates, but says why in promptFeedback)
        candidates = getattr(response, "candidates", None)
        ok = (isinstance(candidates, list) and all(getattr(c, "content", None) is not None
                                                   or getattr(c, "finish_reason", None) is not None for c in candidates)) \
            or (candidates is None and getattr(response, "prompt_feedback", None) is not None)
        what = "`candidates` each with `content` or a `finishReason` (or `promptFeedback`)"
    if not ok:
        raise ValueError(f"not a response of the API: it has no {what}")


def classify(exc: BaseException, target: str) -> Failure | None:
    """An SDK's exception as a verdict: 400 and 422 reject the request (the provider's message kept),
    401 and 403 are authentication, 404 the model, 429 a rate limit, 5xx the server, a cut or refused
    connection and a timeout the network. None: not an error of the request (a bug: re-raised)."""
    status = _status(exc)
    if status is None:
        if _is_network(exc):
            return Failure("error", "network", _network_message(exc), None, None)
        if type(exc).__module__.startswith("google.auth"):  # (the Vertex client's credentials, read at send time)
            return Failure("error", "setup", f"the {target} client's credentials: {type(exc).__name__}: {exc}"[:MAX_MESSAGE],
                           None, None)
        return None
    message = provider_message(exc)
    retry = retry_after(exc) if status == 429 else None
    if status in (401, 403) or (status == 400 and _bad_key(exc)):
        return Failure("error", "authentication", message, status, None)
    if status == 404:
        return Failure("error", "model-not-found", message, status, None)
    if status == 429:
        return Failure("error", "rate-limit", message, status, retry)
    if status in (400, 422):
        return Failure("rejected", None, message, status, None)
    if status >= 500:
        return Failure("error", "server", message, status, None)
    return Failure("error", "unknown", message, status, None)


def _status(exc: BaseException) -> int | None:
    for attr in ("status_code", "code"):  # openai, anthropic; google-genai
        value = getattr(exc, attr, None)
        if type(value) is int and 100 <= value <= 599:
            return value
    return None


def _is_network(exc: BaseException) -> bool:
    seen = 0
    e: BaseException | None = exc
    while e is not None and seen < 8:  # the SDKs wrap the transport's error (APIConnectionError)
        kind = type(e).__name__
        if kind in ("APIConnectionError", "APITimeoutError", "ConnectError", "ReadTimeout", "ConnectTimeout",
                    "RemoteProtocolError", "ReadError", "WriteError", "PoolTimeout", "WriteTimeout", "TimeoutException",
                    "NetworkError", "TransportError") or isinstance(e, (ConnectionError, TimeoutError)):
            return True
        e, seen = e.__cause__ or e.__context__, seen + 1
    return False


def _network_message(exc: BaseException) -> str:
    parts = [str(exc) or type(exc).__name__]
    cause = exc.__cause__ or exc.__context__
    if cause is not None and str(cause) and str(cause) not in parts[0]:
        parts.append(str(cause))
    return ": ".join(parts)[:500]


MAX_MESSAGE = 2000  # (characters of a provider's message kept: a 50 MB one made a 150 MB report)


def provider_message(exc: BaseException) -> str:
    """The provider's own error message: OpenAI's error.message (with its param), Anthropic's
    error.message, Google's error.message (with its status); at most MAX_MESSAGE characters."""
    text = _provider_message(exc)
    if len(text) <= MAX_MESSAGE:
        return text
    return text[:MAX_MESSAGE] + f"... ({len(text) - MAX_MESSAGE} more characters not shown)"


def _provider_message(exc: BaseException) -> str:
    b = getattr(exc, "body", None)
    if isinstance(b, dict) and isinstance(b.get("error"), dict):  # Anthropic: {"type": "error", "error": {...}}
        b = b["error"]
    if isinstance(b, dict) and isinstance(b.get("message"), str):
        param = b.get("param")
        return b["message"] + (f" (param: {param})" if isinstance(param, str) and param else "")
    details = getattr(exc, "details", None)  # google-genai: the error document
    if isinstance(details, dict) and isinstance(details.get("error"), dict):
        e = details["error"]
        if isinstance(e.get("message"), str):
            return e["message"] + (f" ({e['status']})" if isinstance(e.get("status"), str) else "")
    text = getattr(exc, "message", None)
    return str(text if isinstance(text, str) and text else exc)


def _bad_key(exc: BaseException) -> bool:
    """Google answers an invalid API key with 400 INVALID_ARGUMENT and reason API_KEY_INVALID."""
    details = getattr(exc, "details", None)
    return "API_KEY_INVALID" in repr(details) or "API key not valid" in repr(details)


def retry_after(exc: BaseException) -> float | None:
    """How long the provider asks to wait: Retry-After (seconds or an HTTP date), retry-after-ms,
    or Google's RetryInfo retryDelay ("7s"). None when it says nothing."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000)
        value = headers.get("retry-after")
        if value is not None:
            try:
                return max(0.0, float(value))
            except ValueError:
                when = email.utils.parsedate_to_datetime(value)
                return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError, OverflowError):
        pass
    found = re.search(r"'retryDelay': '([0-9.]+)s'", repr(getattr(exc, "details", None)))
    return float(found.group(1)) if found else None
