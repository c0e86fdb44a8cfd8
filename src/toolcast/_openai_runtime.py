"""OpenAI run-time loop: tool lists from a ToolSet, parsing tool calls, shaping tool results."""

from __future__ import annotations

import base64
import binascii
import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

if TYPE_CHECKING:
    from toolcast.toolset import ToolSet

__all__ = [
    "StrictIssue",
    "ToolCall",
    "ToolsReport",
    "tool_calls",
    "tool_output",
    "tools",
]

Api = Literal["responses", "chat"]
StructuredMode = Literal["auto", "prefer", "append", "ignore"]

_APIS = ("responses", "chat")
_STRUCTURED_MODES = ("auto", "prefer", "append", "ignore")
# Image types the Responses API accepts inside function_call_output (input_image).
_RESPONSES_IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
# An unknown-tool message lists valid names; past this many it would crowd the context.
_MAX_LISTED_NAMES = 50


def _check_api(api: str) -> Api:
    if api not in _APIS:
        raise ValueError(f"api must be 'responses' or 'chat', got {api!r}")
    return api  # type: ignore[return-value]


def _plain(obj: Any) -> Any:
    """Duck-type pydantic objects (openai / mcp SDKs) into plain data; leave the rest alone."""
    dump = getattr(obj, "model_dump", None)
    if callable(dump) and not isinstance(obj, (Mapping, str, bytes)):
        return dump()
    return obj


# --------------------------------------------------------------------------- tools()


class StrictIssue(NamedTuple):
    """Why a tool was sent non-strict (``fallbacks``) or left out (``excluded``)."""

    name: str
    reason: str
    codes: tuple[str, ...]


@dataclass(frozen=True)
class ToolsReport:
    """What :func:`tools` decided per tool.

    ``null_paths`` has an entry for every tool sent with ``"strict": true`` (possibly an
    empty tuple); pass it to :func:`tool_calls`. ``fallbacks`` lists tools sent non-strict
    because ``strict="auto"`` could not make them strict; ``excluded`` lists tools left out
    of the list (refused by the compiler: under ``strict=True`` anything not strict-ready,
    in every mode a name that cannot be sent). ``results`` keeps every ``CompileResult``.
    """

    null_paths: Mapping[str, tuple[tuple[Any, ...], ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    fallbacks: tuple[StrictIssue, ...] = ()
    excluded: tuple[StrictIssue, ...] = ()
    results: Mapping[str, Any] = field(
        default_factory=lambda: MappingProxyType({}), repr=False, compare=False
    )


def _normalize_strict(strict: Any) -> Literal["auto"] | bool:
    if strict is True or strict == "true":
        return True
    if strict is False or strict == "false":
        return False
    if strict == "auto":
        return "auto"
    raise ValueError(f"strict must be 'auto', True or False, got {strict!r}")


def _issue(name: str, result: Any) -> StrictIssue:
    """Summarize why a tool is not strict: the blocking findings and the lossy changes."""
    diagnostics = tuple(getattr(result, "diagnostics", ()) or ())
    blocking = [d for d in diagnostics if getattr(d, "outcome", None) == "refuses"]
    lossy = [t for t in getattr(result, "transformations", ()) or () if getattr(t, "lossy", False)]
    codes = tuple(dict.fromkeys([str(d.code) for d in blocking] + [str(t.code) for t in lossy]))
    # The compiler already words the fallback reason; reuse it so CLI and report agree.
    summary = next((d for d in diagnostics if d.code == "openai/sent-non-strict"), None)
    if summary is not None:
        reason = str(summary.message)
    elif blocking:
        reason = "; ".join(f"{d.code} at {d.path or '#'}: {d.message}" for d in blocking)
    elif lossy:
        reason = "lossy changes: " + ", ".join(f"{t.code} at {t.path or '#'}" for t in lossy)
    else:
        reason = f"compiler status {getattr(result, 'status', '?')!r}"
    return StrictIssue(name, reason, codes)


def tools(
    toolset: ToolSet,
    *,
    api: Api = "responses",
    strict: Literal["auto", "true", "false"] | bool = "auto",
    rules: str | None = None,
    allow_lossy: bool = False,
    optional_null: Literal["value", "omit"] = "value",
) -> tuple[list[dict[str, Any]], ToolsReport]:
    """Compile every tool of ``toolset`` into the OpenAI tool list for ``api``.

    Each tool is compiled under its exposed name, so the model calls it by that name.
    Returns the tool dicts in toolset order and a :class:`ToolsReport`. ``optional_null`` is
    passed to compile_tool (what an optional property that already accepts null becomes).
    """
    from toolcast import compile_tool  # the compiler core imports lazily: keeps cycles out

    api = _check_api(api)
    mode = _normalize_strict(strict)
    emitted: list[dict[str, Any]] = []
    null_paths: dict[str, tuple[tuple[Any, ...], ...]] = {}
    fallbacks: list[StrictIssue] = []
    excluded: list[StrictIssue] = []
    results: dict[str, Any] = {}
    for exposed in toolset.tools:
        result = compile_tool(
            exposed.to_tool(),
            target="openai",
            api=api,
            rules=rules,
            strict=mode,
            allow_lossy=allow_lossy,
            optional_null=optional_null,
        )
        results[exposed.name] = result
        if result.status == "refused" or result.tool is None:
            excluded.append(_issue(exposed.name, result))
            continue
        emitted.append(result.tool)
        if result.status == "strict":
            null_paths[exposed.name] = tuple(tuple(p) for p in result.null_paths)
        elif mode == "auto":
            fallbacks.append(_issue(exposed.name, result))
    report = ToolsReport(
        null_paths=MappingProxyType(null_paths),
        fallbacks=tuple(fallbacks),
        excluded=tuple(excluded),
        results=MappingProxyType(results),
    )
    return emitted, report


# --------------------------------------------------------------------------- tool_calls()


@dataclass(frozen=True)
class ToolCall:
    """A model's call to a tool of the ToolSet, with decoded and null-stripped arguments."""

    call_id: str
    name: str
    server: str
    tool: str
    arguments: dict[str, Any] = field(hash=False)
    api: Api = "responses"

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


@dataclass(frozen=True)
class _RawCall:
    api: Api
    call_id: str
    name: str
    arguments: Any


def _raw_from_item(item: Any) -> _RawCall | None:
    """A function call from one Chat ``tool_calls`` entry or Responses output item, else None."""
    item = _plain(item)
    if not isinstance(item, Mapping):
        return None
    kind = item.get("type")
    if kind == "function_call":
        return _RawCall(
            "responses",
            str(item.get("call_id") or ""),
            str(item.get("name") or ""),
            item.get("arguments"),
        )
    function = item.get("function")
    if isinstance(function, Mapping) and kind in (None, "function"):
        return _RawCall(
            "chat",
            str(item.get("id") or ""),
            str(function.get("name") or ""),
            function.get("arguments"),
        )
    # Messages, reasoning, built-in tool calls, custom tool calls: not ours.
    return None


def _extract(response: Any) -> list[_RawCall]:
    response = _plain(response)
    if isinstance(response, Mapping):
        if "choices" in response:
            choices = response.get("choices") or []
            if not choices:
                return []
            # n > 1 completions are alternatives; the first one is the conversation's.
            message = _plain(choices[0])
            if isinstance(message, Mapping):
                message = _plain(message.get("message"))
            return _extract(message) if isinstance(message, Mapping) else []
        if "output" in response and isinstance(response.get("output"), (list, tuple)):
            items = response["output"]
        elif "tool_calls" in response or response.get("role") == "assistant":
            items = response.get("tool_calls") or []
        else:
            single = _raw_from_item(response)
            if single is not None:
                return [single]
            raise TypeError(
                "expected a Chat Completion, a Chat assistant message, a Responses response, "
                "or a list of tool calls / output items"
            )
    elif isinstance(response, (list, tuple)):
        items = response
    elif response is None:
        return []
    else:
        raise TypeError(f"cannot read tool calls from {type(response).__name__}")
    return [raw for raw in map(_raw_from_item, items) if raw is not None]


def _reject(raw: _RawCall, message: str, error_prefix: str) -> dict[str, Any]:
    return tool_output(raw.call_id, _ErrorText(message), api=raw.api, error_prefix=error_prefix)


def _unknown_tool_message(name: str, toolset: ToolSet) -> str:
    names = list(toolset.names)
    text = f"unknown tool {name!r}."
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    if close:
        text += f" Did you mean {close[0]!r}?"
    if names:
        listed = ", ".join(names[:_MAX_LISTED_NAMES])
        if len(names) > _MAX_LISTED_NAMES:
            listed += f", ... ({len(names) - _MAX_LISTED_NAMES} more)"
        text += f" Valid tools: {listed}."
    else:
        text += " No tools are available."
    return text


def _reject_constant(token: str) -> Any:
    raise ValueError(f"{token} is not valid JSON")


def _decode_arguments(raw: _RawCall) -> tuple[dict[str, Any] | None, str | None]:
    args = raw.arguments
    # Zero-argument calls arrive as "" or null from some models and servers.
    if args is None or (isinstance(args, str) and not args.strip()):
        return {}, None
    if isinstance(args, Mapping):
        return json.loads(json.dumps(args)), None
    if not isinstance(args, str):
        return None, f"arguments for tool {raw.name!r} must be a JSON object string"
    try:
        value = json.loads(args, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        return None, (
            f"arguments for tool {raw.name!r} are not valid JSON "
            f"({exc.msg} at line {exc.lineno} column {exc.colno})"
        )
    except ValueError as exc:
        return None, f"arguments for tool {raw.name!r} are not valid JSON ({exc})"
    if not isinstance(value, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(value), "a number"
        )
        return None, f"arguments for tool {raw.name!r} must be a JSON object, got {kind}"
    return value, None


def tool_calls(
    response: Any,
    toolset: ToolSet,
    null_paths: Mapping[str, Sequence[Sequence[Any]]] | ToolsReport | None = None,
    *,
    error_prefix: str = "Error: ",
) -> tuple[list[ToolCall], list[dict[str, Any]]]:
    """Read the function calls in a model response.

    ``response`` is a Chat Completion, a Chat assistant message, a Responses response,
    or a list of Chat ``tool_calls`` / Responses output items; plain dicts or the
    ``openai`` SDK's objects. Returns ``(calls, rejected)``: ``calls`` in response order;
    ``rejected`` holds one error output (same API's shape) per call naming an unknown
    tool or carrying arguments that are not a JSON object, to send back to the model.
    Nulls are removed only at the tool's ``null_paths`` (from :func:`tools`).
    """
    if isinstance(null_paths, ToolsReport):
        null_paths = null_paths.null_paths
    paths_by_tool = null_paths or {}
    calls: list[ToolCall] = []
    rejected: list[dict[str, Any]] = []
    for raw in _extract(response):
        exposed = toolset.get(raw.name)
        if exposed is None:
            rejected.append(_reject(raw, _unknown_tool_message(raw.name, toolset), error_prefix))
            continue
        arguments, problem = _decode_arguments(raw)
        if arguments is None:
            rejected.append(_reject(raw, problem or "invalid arguments", error_prefix))
            continue
        paths = paths_by_tool.get(raw.name) or ()
        if paths:
            from toolcast import strip_nulls  # core helper; imported lazily like compile_tool

            arguments = strip_nulls(arguments, tuple(tuple(p) for p in paths))
        calls.append(
            ToolCall(
                call_id=raw.call_id,
                name=exposed.name,
                server=exposed.server,
                tool=exposed.tool,
                arguments=arguments,
                api=raw.api,
            )
        )
    return calls, rejected


# --------------------------------------------------------------------------- tool_output()


class _ErrorText(str):
    """A message toolcast itself reports as an error (rejections, missing sessions)."""


def _decoded_size(data: str) -> int | None:
    try:
        return len(base64.b64decode("".join(data.split()), validate=True))
    except (binascii.Error, ValueError):
        return None


def _media_placeholder(kind: str, mime: Any, data: Any) -> str:
    mime_text = mime if isinstance(mime, str) and mime else "unknown type"
    if not isinstance(data, str):
        return f"[{kind}: {mime_text}, no data]"
    size = _decoded_size(data)
    if size is None:
        return f"[{kind}: {mime_text}, invalid base64 data]"
    return f"[{kind}: {mime_text}, {size} bytes]"


def _resource_parts(block: Mapping[str, Any]) -> list[str]:
    resource = block.get("resource")
    if not isinstance(resource, Mapping):
        return ["[resource: no contents]"]
    uri = resource.get("uri") or "unknown uri"
    mime = resource.get("mimeType")
    label = f"{uri}, {mime}" if mime else str(uri)
    text = resource.get("text")
    if isinstance(text, str):
        # A text resource is readable as is; the placeholder line only names it.
        return [f"[resource: {label}]\n{text}"]
    blob = resource.get("blob")
    if isinstance(blob, str):
        size = _decoded_size(blob)
        size_text = "invalid base64 data" if size is None else f"{size} bytes"
        return [f"[resource: {label}, {size_text}]"]
    return [f"[resource: {label}]"]


def _render_block(block: Any, api: Api) -> list[str | dict[str, Any]]:
    """One MCP content block as text pieces, or an input_image item (Responses only)."""
    block = _plain(block)
    if isinstance(block, str):
        return [block]
    if not isinstance(block, Mapping):
        return [f"[unsupported content: {type(block).__name__}]"]
    kind = block.get("type")
    if kind == "text":
        text = block.get("text")
        return [text if isinstance(text, str) else ""]
    if kind == "image":
        mime, data = block.get("mimeType"), block.get("data")
        if (
            api == "responses"
            and isinstance(mime, str)
            and mime.lower() in _RESPONSES_IMAGE_TYPES
            and isinstance(data, str)
            and _decoded_size(data) is not None
        ):
            compact = "".join(data.split())
            return [{"type": "input_image", "image_url": f"data:{mime.lower()};base64,{compact}"}]
        return [_media_placeholder("image", mime, data)]
    if kind == "audio":
        return [_media_placeholder("audio", block.get("mimeType"), block.get("data"))]
    if kind == "resource":
        return list(_resource_parts(block))
    if kind == "resource_link":
        uri = block.get("uri") or "unknown uri"
        name = block.get("name")
        mime = block.get("mimeType")
        bits = [str(x) for x in (name, uri, mime) if x]
        return [f"[resource link: {', '.join(bits)}]"]
    return [f"[unsupported content: {kind}]"]


def _structured_text(value: Any) -> str:
    # Sorted keys and no spaces: the same structured result always gives the same bytes.
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _normalize_result(result: Any) -> tuple[list[Any], Any, bool]:
    """``(content blocks, structuredContent or None, is_error)`` from any accepted result."""
    if isinstance(result, _ErrorText):
        return [{"type": "text", "text": str(result)}], None, True
    if isinstance(result, BaseException):
        message = str(result).strip() or type(result).__name__
        return [{"type": "text", "text": message}], None, True
    if isinstance(result, str):
        return [{"type": "text", "text": result}], None, False
    if result is None:
        return [], None, False
    dump = getattr(result, "model_dump", None)
    if callable(dump) and not isinstance(result, Mapping):
        result = dump(by_alias=True, exclude_none=True, mode="json")
    if not isinstance(result, Mapping):
        raise TypeError(f"cannot turn {type(result).__name__} into a tool output")
    if "content" not in result and "structuredContent" not in result and "message" in result:
        # An error object (JSON-RPC ErrorData and the like): report its message.
        return [{"type": "text", "text": str(result.get("message"))}], None, True
    content = result.get("content")
    blocks = list(content) if isinstance(content, (list, tuple)) else []
    structured = result.get("structuredContent", result.get("structured_content"))
    is_error = bool(result.get("isError", result.get("is_error", False)))
    return blocks, structured, is_error


def _has_prefix(text: str, prefix: str) -> bool:
    marker = prefix.strip().lower()
    return bool(marker) and text.lstrip().lower().startswith(marker)


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
    """
    api = _check_api(api)
    if structured not in _STRUCTURED_MODES:
        raise ValueError(f"structured must be one of {_STRUCTURED_MODES}, got {structured!r}")
    blocks, structured_value, is_error = _normalize_result(result)

    use_content, use_structured = True, False
    if structured_value is not None:
        if structured == "auto":
            use_content, use_structured = bool(blocks), not blocks
        elif structured == "prefer":
            use_content, use_structured = False, True
        elif structured == "append":
            use_structured = True

    pieces: list[str | dict[str, Any]] = []
    if use_content:
        for block in blocks:
            pieces.extend(_render_block(block, api))
    if use_structured:
        pieces.append(_structured_text(structured_value))

    if is_error and error_prefix:
        first = next((i for i, p in enumerate(pieces) if p), None)
        if first is None:
            pieces.insert(0, error_prefix + "the tool reported an error without details")
        elif isinstance(pieces[first], str):
            text = pieces[first]
            assert isinstance(text, str)
            if not _has_prefix(text, error_prefix):
                pieces[first] = error_prefix + text
        else:
            # An image comes first; the error marker must still lead the output.
            pieces.insert(first, error_prefix.rstrip())
    # Empty text blocks carry nothing and would only add blank lines.
    pieces = [p for p in pieces if p]

    if api == "chat":
        text = "\n".join(p for p in pieces if isinstance(p, str))
        return {"role": "tool", "tool_call_id": call_id, "content": text}

    if any(isinstance(p, dict) for p in pieces):
        items = [p if isinstance(p, dict) else {"type": "input_text", "text": p} for p in pieces]
        return {"type": "function_call_output", "call_id": call_id, "output": items}
    text = "\n".join(p for p in pieces if isinstance(p, str))
    return {"type": "function_call_output", "call_id": call_id, "output": text}
