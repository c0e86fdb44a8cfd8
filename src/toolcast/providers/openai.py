"""OpenAI's home: its tool shapes (emit, as spec/openai's `wire:` section states them) and its run-time
loop (tool lists from a ToolSet, parsing tool calls, shaping tool results)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from toolcast._runtime.lean_calls import openai_raws
from toolcast._runtime.loop import (
    MAX_ARGUMENTS_BYTES,
    MAX_JSON_DEPTH,
    CutArguments,
    RawCall,
    ResponseShapeError,
    StrictIssue,
    ToolsReport,
    _field,
    _has,
    _is_object,
    check_null_paths,
    new_object,
    provider_tools,
    read_calls,
    whole_arguments,
)
from toolcast._runtime.loop import (
    ToolCall as _ToolCall,
)
from toolcast._runtime.loop import (
    list_field as _list_field,
)
from toolcast._runtime.loop import (
    string_field as _string_field,
)
from toolcast._runtime.results import (
    StructuredMode,
    ToolResultError,
    _ErrorText,
    base64_image,
    render_block,
    result_pieces,
)

if TYPE_CHECKING:
    from toolcast.toolset import ToolSet

__all__ = [
    "MAX_ARGUMENTS_BYTES",
    "MAX_JSON_DEPTH",
    "ResponseShapeError",
    "StrictIssue",
    "ToolCall",
    "ToolResultError",
    "ToolsReport",
    "tool_calls",
    "tool_output",
    "tools",
]

Api = Literal["responses", "chat"]
# The APIs spec/openai's wire names, default first (tests/test_wire.py checks they agree).
APIS = ("responses", "chat")
DEFAULT_API = "responses"

# Image types the Responses API accepts inside function_call_output (input_image).
_RESPONSES_IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})


def _check_api(api: str) -> Api:
    if api not in APIS:
        raise ValueError(f"api must be 'responses' or 'chat', got {api!r}")
    return api  # type: ignore[return-value]


# --------------------------------------------------------------------------- tools()


def tools(
    toolset: ToolSet,
    *,
    api: Api = "responses",
    strict: Literal["auto", "true", "false"] | bool = "auto",
    rules: str | None = None,
    allow_lossy: bool = False,
    optional_null: Literal["value", "omit"] = "value",
    enforce: bool = False,
    describe: bool = True,
) -> tuple[list[dict[str, Any]], ToolsReport]:
    """Compile every tool of ``toolset`` into the OpenAI tool list for ``api``.

    Each tool is compiled under its exposed name, so the model calls it by that name, the
    toolset as one request (the provider's request budgets apply across it: past 128 tools a
    tool is left out). Returns the tool dicts in toolset order and a :class:`ToolsReport`.
    ``optional_null`` is passed to compile_tool (what an optional property that already accepts
    null becomes). ``enforce`` and ``describe`` as for compile_tool: the report then holds the
    checks :func:`tool_calls` runs on the calls to the tools with enforced constraints.
    """
    return provider_tools(
        "openai", toolset, api=_check_api(api), strict=strict, rules=rules, allow_lossy=allow_lossy,
        optional_null=optional_null, budgets=True,
        **({"enforce": True, "describe": describe} if enforce else {}),
    )


# --------------------------------------------------------------------------- tool_calls()


@dataclass(frozen=True, eq=False)  # (the base's __eq__ and __hash__: arguments compare as JSON)
class ToolCall(_ToolCall):
    """A model's call to a tool of the ToolSet, with decoded and null-stripped arguments."""

    api: Api = "responses"

    @classmethod
    def _of(cls, raw: RawCall, names: tuple[str, str, str], arguments: dict[str, Any]) -> ToolCall:
        call = new_object(cls)  # as the base's _of, with the API (one call, not two)
        fields = call.__dict__
        fields["call_id"] = raw[0]
        fields["name"], fields["server"], fields["tool"] = names
        fields["arguments"] = arguments
        fields["api"] = raw[3]
        return call

    def output(
        self,
        result: Any,
        *,
        error_prefix: str = "Error: ",
        structured: StructuredMode = "auto",
    ) -> dict[str, Any]:
        """Shape ``result`` as this call's output item, in this call's API."""
        return tool_output(
            self.call_id, result, api=self.api, error_prefix=error_prefix, structured=structured
        )


# The status of a Responses function call item that is not whole (as lean_calls reads it too).
_NOT_WHOLE = ("in_progress", "incomplete")


def _raw_from_item(item: Any, path: str) -> RawCall | None:
    """A function call from one Chat ``tool_calls`` entry or Responses output item, else None."""
    if not _is_object(item):
        raise ResponseShapeError(path, "an object (a tool call or an output item)", item)
    kind = _field(item, "type")
    if kind is not None and not isinstance(kind, str):
        raise ResponseShapeError(f"{path}.type", "a string", kind)
    if kind == "function_call":
        status = _field(item, "status")  # (in_progress: a streamed item; incomplete: cut off)
        return RawCall(
            _string_field(item, "call_id", path),
            _string_field(item, "name", path),
            CutArguments(f"its status is {status!r}") if status in _NOT_WHOLE else _field(item, "arguments"),
            "responses",
        )
    function = _field(item, "function")
    if kind == "function" or (kind is None and function is not None):
        if not _is_object(function):
            raise ResponseShapeError(f"{path}.function", "an object", function)
        return RawCall(
            _string_field(item, "id", path),
            _string_field(function, "name", f"{path}.function"),
            _field(function, "arguments"),
            "chat",
        )
    if kind is None:
        raise ResponseShapeError(path, "a tool call or an output item with a type", item)
    # Messages, reasoning, built-in tool calls, custom tool calls: not ours.
    return None


def _items_of(response: Any, path: str) -> tuple[list[Any], str] | None:
    """The tool calls / output items of ``response`` and the path they sit under, or None
    when ``response`` is itself one tool call or output item."""
    if response is None:
        return [], path
    if isinstance(response, (list, tuple)):
        return list(response), path
    if not _is_object(response):
        raise ResponseShapeError(
            path, "a Chat Completion, a Chat message, a Responses response or a list", response
        )
    if _has(response, "choices"):
        choices = _list_field(response, "choices", path)
        if not choices:
            return [], path
        # n > 1 completions are alternatives; the first one is the conversation's.
        choice = choices[0]
        if not _is_object(choice):
            raise ResponseShapeError(f"{path}.choices[0]", "an object", choice)
        message = _field(choice, "message")
        if not _is_object(message):
            raise ResponseShapeError(f"{path}.choices[0].message", "an object", message)
        found = _items_of(message, f"{path}.choices[0].message")
        if found is not None and _field(choice, "finish_reason") == "length":
            return _cut_short(found[0]), found[1]
        return found
    if _has(response, "output") and _field(response, "type") is None:
        return _list_field(response, "output", path), f"{path}.output"
    if _has(response, "tool_calls") or _field(response, "role") == "assistant":
        return _list_field(response, "tool_calls", path), f"{path}.tool_calls"
    return None


def _cut_short(items: list[Any]) -> list[Any]:
    """A Chat choice's tool calls when it ended at the length limit (finish_reason "length"): a call
    whose arguments are still empty, or JSON text that does not end, was cut off before they were all
    written: it is not whole (and empty ones are not taken as a zero-argument call)."""
    cut = CutArguments("the response was cut off at its length limit, finish_reason 'length'")
    out = []
    for item in items:
        function = _field(item, "function") if _is_object(item) else None
        arguments = _field(function, "arguments") if _is_object(function) else False
        if not whole_arguments(arguments):
            item = {"type": "function", "id": _field(item, "id"),
                    "function": {"name": _field(function, "name"), "arguments": cut}}
        out.append(item)
    return out


def _extract(response: Any) -> Iterable[tuple[Any, ...]]:
    found = _items_of(response, "response")
    if found is None:  # one tool call or output item given on its own
        raw = _raw_from_item(response, "response")
        if raw is None:
            raise ResponseShapeError(
                "response",
                "a Chat Completion, a Chat message, a Responses response or a function call",
                response,
            )
        return [raw]
    items, path = found
    # A plain dict with well-typed fields is read directly (either API's shape); the rest (SDK
    # objects, other items, shapes to report) the careful way, which names the place of a bad field.
    return openai_raws(items, path, _raw_from_item)


def _reject(raw: RawCall, message: str, error_prefix: str) -> dict[str, Any]:
    return tool_output(raw.call_id, _ErrorText(message), api=raw.api, error_prefix=error_prefix)


def tool_calls(
    response: Any,
    toolset: ToolSet,
    null_paths: Mapping[str, Sequence[Sequence[Any]]] | ToolsReport | None = None,
    *,
    error_prefix: str = "Error: ",
    validate: bool = False,
) -> tuple[list[ToolCall], list[dict[str, Any]]]:
    """Read the function calls in a model response.

    ``response`` is a Chat Completion, a Chat assistant message, a Responses response,
    or a list of Chat ``tool_calls`` / Responses output items; plain dicts or the
    ``openai`` SDK's objects. Returns ``(calls, rejected)``: ``calls`` in response order;
    ``rejected`` holds one error output (same API's shape) per call naming an unknown
    tool or carrying arguments that are not a JSON object, to send back to the model:
    invalid JSON, ``NaN``/``Infinity`` or a number out of range (``1e400``), more than
    :data:`MAX_ARGUMENTS_BYTES` bytes or more than :data:`MAX_JSON_DEPTH` levels of nesting.
    Nulls are removed only at the tool's ``null_paths`` (from :func:`tools`). Given the
    :class:`ToolsReport` itself, a call to a tool it lists in ``excluded`` (left out of the
    request) is rejected too, as not offered in this request.

    Given the report of ``tools(..., enforce=True)``, each call to a tool with enforced
    constraints is checked against the tool's original schema once its nulls are stripped
    (with ``validate=True``, every call to every tool): one that breaks it is not returned in
    ``calls`` but in ``rejected``, as an error output naming the place and the constraint. With
    ``validate=True``, a call to a tool whose schema the validator cannot read (a regex outside
    its dialect, an unknown ``$schema``, a reference outside the schema) is rejected too, saying so.

    A response that is not one of these shapes (``{"choices": 5}``, a tool call whose
    ``function`` is a string, ...) raises :class:`ResponseShapeError` (a ``ToolcastError``
    and a ``TypeError``) naming the place, e.g. ``response.choices[0].message.tool_calls:
    expected a list, got int``.
    """
    paths_by_tool = check_null_paths(null_paths)  # checked before the response is read

    return read_calls(
        _extract(response),
        toolset,
        null_paths if isinstance(null_paths, ToolsReport) else paths_by_tool,
        ToolCall._of,
        lambda raw, message: _reject(raw, message, error_prefix),
        validate,
    )


# --------------------------------------------------------------------------- tool_output()


def _render_block(block: Any, api: Api) -> list[str | dict[str, Any]]:
    """One MCP content block as text pieces, or an input_image item (Responses only)."""

    def image(mime: Any, data: Any) -> dict[str, Any] | None:
        found = base64_image(mime, data, _RESPONSES_IMAGE_TYPES) if api == "responses" else None
        if found is None:
            return None
        return {"type": "input_image", "image_url": f"data:{found[0]};base64,{found[1]}"}

    return render_block(block, image)


def tool_output(
    call_id: str,
    result: Any,
    *,
    api: Api = "responses",
    error_prefix: str = "Error: ",
    structured: StructuredMode = "auto",
) -> dict[str, Any]:
    """Shape a tool result as the message/item that answers ``call_id`` in ``api``.

    ``result`` is an MCP ``CallToolResult`` (SDK object or dict), a string, or an
    exception / error object. Errors get ``error_prefix`` (once). Chat output is text,
    media become placeholders; Responses output is a string, or a list of
    ``input_text``/``input_image`` items when the result holds a JPEG/PNG/GIF/WebP image.
    ``structured`` decides where ``structuredContent`` goes: ``auto`` (only when content
    is empty), ``prefer`` (instead of content), ``append`` (after it), ``ignore``.
    Structured content that is used but cannot be sent (nested more than
    :data:`MAX_JSON_DEPTH` levels, a non-finite number, a value with no JSON form) makes an
    error output that says so, with the content blocks after it. A ``result`` of any other
    type raises :class:`ToolResultError` (a ``ToolcastError`` and a ``TypeError``).
    """
    api = _check_api(api)
    pieces, _ = result_pieces(result, structured, error_prefix, lambda b: _render_block(b, api))

    if api == "chat":
        text = "\n".join(p for p in pieces if isinstance(p, str))
        return {"role": "tool", "tool_call_id": call_id, "content": text}

    if any(isinstance(p, dict) for p in pieces):
        items = [p if isinstance(p, dict) else {"type": "input_text", "text": p} for p in pieces]
        return {"type": "function_call_output", "call_id": call_id, "output": items}
    text = "\n".join(p for p in pieces if isinstance(p, str))
    return {"type": "function_call_output", "call_id": call_id, "output": text}


def emit(name: str, description: str | None, parameters: Any, strict: bool, api: str) -> dict:
    """The tool in the API's shape; `strict` is always present, false included."""
    from toolcast.providers import target

    return target("openai").emit(name, description, parameters, strict, api)  # type: ignore[union-attr]
