"""Anthropic run-time loop: tool_use blocks in, tool_result blocks out (dicts or the SDK's objects)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from toolcast._runtime.loop import (
    CutArguments,
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

# The image types a tool_result's image block accepts (base64 source).
_IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})


@dataclass(frozen=True, eq=False)  # (the base's __eq__ and __hash__: arguments compare as JSON)
class ToolCall(_ToolCall):
    """A model's ``tool_use`` of a tool of the ToolSet, with null-stripped arguments."""

    def output(
        self, result: Any, *, error_prefix: str = "Error: ", structured: StructuredMode = "auto"
    ) -> dict[str, Any]:
        """Shape ``result`` as the ``tool_result`` block answering this call."""
        return tool_output(self, result, error_prefix=error_prefix, structured=structured)


def _raw_from_block(block: Any, path: str) -> RawCall | None:
    if not _is_object(block):
        raise ResponseShapeError(path, "an object (a content block)", block)
    kind = _field(block, "type")
    if not isinstance(kind, str):
        raise ResponseShapeError(f"{path}.type", "a string", kind)
    if kind != "tool_use":
        return None  # text, thinking, server tools' blocks: not ours
    return RawCall(
        string_field(block, "id", path), string_field(block, "name", path), _field(block, "input")
    )


def _extract(response: Any) -> Iterable[tuple[Any, ...]]:
    path = "response"
    if response is None:
        return []
    if isinstance(response, (list, tuple)):
        blocks = list(response)
    elif not _is_object(response):
        raise ResponseShapeError(path, "a Message, its content list or a tool_use block", response)
    elif _has(response, "content") and _field(response, "type") != "tool_use":
        blocks, path = list_field(response, "content", path), f"{path}.content"
        reason = _field(response, "stop_reason") if blocks else None
        if reason in _CUT_OFF:
            return _cut_last(blocks, path, reason)
    else:
        raw = _raw_from_block(response, path)
        if raw is None:
            raise ResponseShapeError(path, "a Message, its content list or a tool_use block", response)
        return [raw]
    return _raws(blocks, path)


# The stop reasons of a Message cut off (anthropic-sdk-python types/stop_reason.py), and what it hit.
_CUT_OFF = {"max_tokens": "max_tokens", "model_context_window_exceeded": "the model's context window"}


def _cut_last(blocks: list[Any], path: str, reason: str) -> list[tuple[Any, ...]]:
    """The calls of a Message cut off at ``max_tokens`` or at the context window: a ``tool_use``
    block it ends with was cut short (its input may be partial), and is not a whole call."""
    raws = list(_raws(blocks, path))
    if raws and _is_object(blocks[-1]) and _field(blocks[-1], "type") == "tool_use":
        cut = CutArguments(f"the response was cut off at {_CUT_OFF[reason]}, stop_reason {reason!r}")
        raws[-1] = (raws[-1][0], raws[-1][1], cut, raws[-1][3])
    return raws


def _raws(blocks: list[Any], path: str) -> Iterator[tuple[Any, ...]]:
    """(call_id, name, input, "") of each tool_use block, made as read_calls reads it (as
    lean_calls.openai_raws); a block that is not one is skipped, a bad one raises naming its place."""
    for i, block in enumerate(blocks):
        # A plain dict with well-typed fields is read directly (dict.get: see openai_raws); the rest the careful way.
        if type(block) is dict and dict.get(block, "type") == "tool_use":
            call_id, name = dict.get(block, "id"), dict.get(block, "name")
            if type(call_id) is str and type(name) is str:
                yield call_id, name, dict.get(block, "input"), ""
                continue
        raw = _raw_from_block(block, f"{path}[{i}]")
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
    """Read the ``tool_use`` blocks of a Messages API response.

    ``response`` is a ``Message``, its ``content`` list, or one ``tool_use`` block; plain
    dicts or the ``anthropic`` SDK's objects. Returns ``(calls, rejected)``: ``rejected``
    holds one ``tool_result`` error block per call naming an unknown tool or carrying input
    that is not a JSON object, to send back in the next user message. Nulls are removed
    only at the tool's ``null_paths``. Any other shape raises :class:`ResponseShapeError`.
    Enforced constraints and ``validate`` as for toolcast.openai.tool_calls.
    """

    def reject(raw: RawCall, message: str) -> dict[str, Any]:
        return tool_output(raw.call_id, _ErrorText(message), error_prefix=error_prefix)

    return read_calls(_extract(response), toolset, null_paths, ToolCall._of, reject, validate)


def _image(mime: Any, data: Any) -> dict[str, Any] | None:
    found = base64_image(mime, data, _IMAGE_TYPES)
    if found is None:
        return None
    return {"type": "image", "source": {"type": "base64", "media_type": found[0], "data": found[1]}}


def _call_id(call: Any) -> str:
    if isinstance(call, str):
        return call
    value = _field(call, "call_id", "id", "tool_use_id")
    if not isinstance(value, str):
        raise TypeError(f"call: expected a ToolCall or a tool_use id, got {type(call).__name__}")
    return value


def tool_output(
    call: ToolCall | str,
    result: Any,
    *,
    error_prefix: str = "Error: ",
    structured: StructuredMode = "auto",
) -> dict[str, Any]:
    """Shape a tool result as the ``tool_result`` block answering ``call`` (or a tool_use id).

    ``result`` is an MCP ``CallToolResult`` (SDK object or dict), a string, or an exception
    / error object. Text becomes text blocks; JPEG/PNG/GIF/WebP images become image blocks,
    other media placeholders; an error sets ``is_error`` and gets ``error_prefix`` (once).
    ``structured`` places ``structuredContent`` as the OpenAI loop's ``tool_output`` does.
    """
    pieces, is_error = result_pieces(
        result, structured, error_prefix, lambda block: render_block(block, _image)
    )
    content: list[dict[str, Any]] = []
    texts: list[str] = []
    for piece in [*pieces, None]:
        if isinstance(piece, str):
            texts.append(piece)
            continue
        if texts:  # adjacent texts make one block, as the OpenAI loop joins them
            content.append({"type": "text", "text": "\n".join(texts)})
            texts = []
        if piece is not None:
            content.append(piece)
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": _call_id(call)}
    if content:
        block["content"] = content
    if is_error:
        block["is_error"] = True
    return block


def tools(
    toolset: ToolSet,
    *,
    strict: Literal["auto", "true", "false"] | bool = "auto",
    rules: str | None = None,
    allow_lossy: bool = False,
    enforce: bool = False,
    describe: bool = True,
) -> tuple[list[dict[str, Any]], ToolsReport]:
    """Compile every tool of ``toolset`` into the Messages API's ``tools`` list.

    Each tool is compiled under its exposed name, the toolset as one request (the provider's
    request budgets apply across it). Returns the tool dicts in toolset order and a
    :class:`ToolsReport` (``null_paths`` for the tools sent strict; pass it to
    :func:`tool_calls`; ``fallbacks``; ``excluded``). ``enforce`` and ``describe`` as for
    toolcast.openai.tools.
    """
    extra = {"enforce": True, "describe": describe} if enforce else {}
    return provider_tools(
        "anthropic", toolset, strict=strict, rules=rules, allow_lossy=allow_lossy, budgets=True, **extra
    )
