"""Gemini (and Vertex AI) run-time loop: function_call parts in, functionResponse parts out."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from toolcast._runtime.loop import (
    RawCall,
    ResponseShapeError,
    ToolsReport,
    _field,
    _has,
    _is_object,
    list_field,
    provider_tools,
    read_calls,
    string_field,
)
from toolcast._runtime.loop import (
    ToolCall as _ToolCall,
)
from toolcast._runtime.results import (
    StructuredMode,
    _ErrorText,
    base64_image,
    render_block,
    result_pieces,
)

if TYPE_CHECKING:
    from toolcast.toolset import ToolSet

__all__ = ["ResponseShapeError", "ToolCall", "ToolsReport", "tool_calls", "tool_output", "tools"]

# Media a functionResponse may carry in its parts (inlineData); the rest become placeholders.
_MEDIA_TYPES = frozenset({"image/png", "image/jpeg", "image/webp"})
_SHAPES = "a GenerateContentResponse, a Content, a list of parts or a function_call part"


@dataclass(frozen=True, eq=False)  # (the base's __eq__ and __hash__: arguments compare as JSON)
class ToolCall(_ToolCall):
    """A model's function call to a tool of the ToolSet; ``call_id`` is "" when it had no id."""

    def output(
        self, result: Any, *, error_prefix: str = "Error: ", structured: StructuredMode = "auto"
    ) -> dict[str, Any]:
        """Shape ``result`` as the ``functionResponse`` part answering this call."""
        return tool_output(self, result, error_prefix=error_prefix, structured=structured)


def _raw_from_part(part: Any, path: str) -> RawCall | None:
    if not _is_object(part):
        raise ResponseShapeError(path, "an object (a part)", part)
    call = _field(part, "function_call", "functionCall")
    if call is None:
        if _has(part, "name") and (_has(part, "args") or (isinstance(part, Mapping) and set(part) <= {"name", "id"})):
            # A FunctionCall given as it is (a call of no arguments may leave `args` out).
            call, path = part, path
        else:
            return None  # text, thoughts, code: not ours
    else:
        path = f"{path}.function_call"
    if not _is_object(call):
        raise ResponseShapeError(path, "an object", call)
    args, going_on = _field(call, "args"), _field(call, "will_continue", "willContinue")
    if going_on is True or (args is None and (going_on is not None or _field(call, "partial_args", "partialArgs") is not None)):
        # A chunk of a call streamed piece by piece (Vertex AI stream_function_call_arguments): not
        # a call until the stream's chunks are put together; read as it stands it would run with
        # its arguments missing.
        raise ResponseShapeError(path, "a whole function call (a streamed call's chunks put together first)", call)
    return RawCall(string_field(call, "id", path), string_field(call, "name", path), args)


# The fields of a streamed call's chunk (see _raw_from_part): a part holding one is read the careful way.
_STREAMED = frozenset({"will_continue", "willContinue", "partial_args", "partialArgs"})


def _parts_of(response: Any) -> tuple[list[Any], str] | None:
    path = "response"
    if response is None:
        return [], path
    if isinstance(response, (list, tuple)):
        return list(response), path
    if not _is_object(response):
        raise ResponseShapeError(path, _SHAPES, response)
    if any(_has(response, k) for k in _RESPONSE_FIELDS):
        # A response: with no candidate (a blocked prompt, an empty answer) it holds no call.
        if _field(response, "candidates") is None:
            return [], path
        candidates = list_field(response, "candidates", path)
        if not candidates:
            return [], path
        # Several candidates are alternatives; the first one is the conversation's.
        if not _is_object(candidates[0]):
            raise ResponseShapeError(f"{path}.candidates[0]", "an object (a candidate)", candidates[0])
        content = _field(candidates[0], "content")
        path = f"{path}.candidates[0].content"
        if content is None:
            return [], path
        if not _is_object(content):
            raise ResponseShapeError(path, "an object", content)
        return list_field(content, "parts", path), f"{path}.parts"
    if _has(response, "parts") or _has(response, "role"):
        # A Content: with no parts (the SDK's Content(role="model"), {"role": "model"}) it holds no call.
        if _field(response, "parts") is None:
            return [], path
        return list_field(response, "parts", path), f"{path}.parts"
    return None


# The fields that make an object a GenerateContentResponse (each SDK object has them all, None or not).
_RESPONSE_FIELDS = ("candidates", "prompt_feedback", "promptFeedback", "usage_metadata", "usageMetadata")


def _extract(response: Any) -> Iterable[tuple[Any, ...]]:
    found = _parts_of(response)
    if found is None:
        raw = _raw_from_part(response, "response")
        if raw is None:
            raise ResponseShapeError("response", _SHAPES, response)
        return [raw]
    return _raws(*found)


def _raws(parts: list[Any], path: str) -> Iterator[tuple[Any, ...]]:
    """(call_id, name, args, "") of each function_call part, made as read_calls reads it (as
    lean_calls.openai_raws); a part that is not one is skipped, a bad one raises naming its place."""
    for i, part in enumerate(parts):
        # A plain dict with well-typed fields is read directly (dict.get: see openai_raws); the rest the careful way.
        if type(part) is dict:
            call = dict.get(part, "function_call")
            if call is None:
                call = dict.get(part, "functionCall")
            if type(call) is dict and _STREAMED.isdisjoint(call):
                call_id, name = dict.get(call, "id"), dict.get(call, "name")
                if call_id is None:
                    call_id = ""
                if type(call_id) is str and type(name) is str:
                    yield call_id, name, dict.get(call, "args"), ""
                    continue
        raw = _raw_from_part(part, f"{path}[{i}]")
        if raw is not None:
            yield raw


def tool_calls(
    response: Any,
    toolset: ToolSet,
    null_paths: Mapping[str, Sequence[Sequence[Any]]] | ToolsReport | None = None,
    *,
    error_prefix: str = "Error: ",
    validate: bool = False,
) -> tuple[list[ToolCall], list[dict[str, Any]]]:
    """Read the function calls of a Gemini (or Vertex AI) response.

    ``response`` is a ``GenerateContentResponse`` (its first candidate), a ``Content``, a
    list of parts, or one part with ``function_call``; plain dicts (camelCase or snake_case)
    or the ``google-genai`` SDK's objects. A call's ``id`` is kept when it has one. Returns
    ``(calls, rejected)``: ``rejected`` holds one ``functionResponse`` error part per call
    naming an unknown tool or carrying ``args`` that are not a JSON object. Nulls are removed
    only at the tool's ``null_paths``. Any other shape raises :class:`ResponseShapeError`.
    Enforced constraints and ``validate`` as for toolcast.openai.tool_calls.
    """

    def reject(raw: RawCall, message: str) -> dict[str, Any]:
        return _response_part(raw.name, raw.call_id, _ErrorText(message), error_prefix, "auto")

    return read_calls(_extract(response), toolset, null_paths, ToolCall._of, reject, validate)


def _media(mime: Any, data: Any) -> dict[str, Any] | None:
    found = base64_image(mime, data, _MEDIA_TYPES)
    if found is None:
        return None
    return {"inlineData": {"mimeType": found[0], "data": found[1]}}


def _response_part(
    name: str, call_id: str, result: Any, error_prefix: str, structured: StructuredMode
) -> dict[str, Any]:
    pieces, is_error = result_pieces(
        result, structured, error_prefix, lambda block: render_block(block, _media)
    )
    text = "\n".join(p for p in pieces if isinstance(p, str))
    media = [p for p in pieces if isinstance(p, dict)]
    # The API's convention: "output" for a result, "error" for a failure.
    body: dict[str, Any] = {"name": name, "response": {"error" if is_error else "output": text}}
    if call_id:
        body["id"] = call_id
    if media:
        body["parts"] = media
    return {"functionResponse": body}


def tool_output(
    call: ToolCall | Any,
    result: Any,
    *,
    error_prefix: str = "Error: ",
    structured: StructuredMode = "auto",
) -> dict[str, Any]:
    """Shape a tool result as the ``functionResponse`` part answering ``call``.

    ``call`` is a :class:`ToolCall` (or anything with ``name`` and ``call_id``/``id``).
    The part names the tool, carries the call's ``id`` when it had one, and its
    ``response`` is ``{"output": text}`` or, for an error, ``{"error": text}`` (with
    ``error_prefix``, once). PNG/JPEG/WebP images go in the part's ``parts`` as
    ``inlineData``; other media become placeholders in the text. ``structured`` places
    ``structuredContent`` as the OpenAI loop's ``tool_output`` does.
    """
    name = _field(call, "name")
    call_id = _field(call, "call_id", "id")
    if not isinstance(name, str) or not name:
        raise TypeError(f"call: expected a ToolCall (with a name), got {type(call).__name__}")
    return _response_part(
        name, call_id if isinstance(call_id, str) else "", result, error_prefix, structured
    )


def tools(
    toolset: ToolSet,
    *,
    target: Literal["gemini", "vertex"] = "gemini",
    api: Literal["json-schema", "parameters"] | None = None,
    strict: Literal["auto", "true", "false"] | bool = "auto",
    rules: str | None = None,
    allow_lossy: bool = False,
    enforce: bool = False,
    describe: bool = True,
) -> tuple[list[dict[str, Any]], ToolsReport]:
    """Compile every tool of ``toolset`` into Gemini's ``tools``: ``[{"functionDeclarations": [...]}]``.

    ``target="vertex"`` compiles for Vertex AI. ``api`` picks the declaration's schema field:
    ``parameters`` (the default; the OpenAPI ``Schema`` subset) or ``json-schema``
    (``parametersJsonSchema``); another raises ValueError naming the ones available. The toolset
    is one request (the provider's request budgets apply across it).
    Returns the request's ``tools`` value (empty when no tool is sent) and a
    :class:`ToolsReport` to pass to :func:`tool_calls`. ``enforce`` and ``describe`` as for
    toolcast.openai.tools.
    """
    from toolcast.providers import EMITTERS

    if target not in ("gemini", "vertex"):
        raise ValueError(f"target must be 'gemini' or 'vertex', got {target!r}")
    declarations, report = provider_tools(
        target, toolset, api=api, strict=strict, rules=rules, allow_lossy=allow_lossy, budgets=True,
        **({"enforce": True, "describe": describe} if enforce else {}),
    )
    return EMITTERS[target].request_tools(declarations), report
