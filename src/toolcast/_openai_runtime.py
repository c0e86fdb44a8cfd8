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

from toolcast._json_limits import JsonLimitError, loads_bounded, plain_json
from toolcast.model import ToolcastError

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
StructuredMode = Literal["auto", "prefer", "append", "ignore"]

_APIS = ("responses", "chat")
_STRUCTURED_MODES = ("auto", "prefer", "append", "ignore")
# Image types the Responses API accepts inside function_call_output (input_image).
_RESPONSES_IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
# An unknown-tool message lists valid names; past this many it would crowd the context.
_MAX_LISTED_NAMES = 50
#: Arguments (and structured results) nested deeper are refused: decoding, stripping and
#: serialising them recursively would hit Python's recursion limit, and no tool needs it.
MAX_JSON_DEPTH = 100
#: Arguments longer than this (UTF-8) are refused; the largest model outputs are far smaller.
MAX_ARGUMENTS_BYTES = 4 * 1024 * 1024


def _check_api(api: str) -> Api:
    if api not in _APIS:
        raise ValueError(f"api must be 'responses' or 'chat', got {api!r}")
    return api  # type: ignore[return-value]


def _is_object(obj: Any) -> bool:
    """A JSON object: a mapping, or an SDK (pydantic) object, which is read field by field."""
    if isinstance(obj, Mapping):
        return True
    return callable(getattr(obj, "model_dump", None)) and not isinstance(obj, (str, bytes))


def _has(obj: Any, name: str) -> bool:
    if isinstance(obj, Mapping):
        return name in obj
    try:
        getattr(obj, name)
    except Exception:  # pydantic raises AttributeError; a broken object anything
        return False
    return True


def _field(obj: Any, *names: str) -> Any:
    """The first of ``names`` that ``obj`` (a mapping or an SDK object) holds, else None.

    SDK objects are read by attribute rather than dumped: a dump walks (and warns about) the
    whole object, while the loop needs a few fields; wire names and Python names both work.
    """
    for name in names:
        if isinstance(obj, Mapping):
            if name in obj:
                return obj[name]
            continue
        try:
            return getattr(obj, name)
        except Exception:
            continue
    return None


def _kind(value: Any) -> str:
    return "None" if value is None else type(value).__name__


class ResponseShapeError(ToolcastError, TypeError):
    """A model response, or the part of it at ``path``, is not a shape :func:`tool_calls` reads.

    The message names the place and what was expected there, e.g.
    ``response.choices[0].message.tool_calls: expected a list, got int``.
    """

    def __init__(self, path: str, expected: str, got: Any) -> None:
        super().__init__(f"{path}: expected {expected}, got {_kind(got)}")
        self.path = path
        self.expected = expected


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
) -> tuple[list[dict[str, Any]], ToolsReport]:
    """Compile every tool of ``toolset`` into the OpenAI tool list for ``api``.

    Each tool is compiled under its exposed name, so the model calls it by that name.
    Returns the tool dicts in toolset order and a :class:`ToolsReport`.
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


def _string_field(obj: Any, name: str, path: str) -> str:
    value = _field(obj, name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ResponseShapeError(f"{path}.{name}", "a string", value)
    return value


def _raw_from_item(item: Any, path: str) -> _RawCall | None:
    """A function call from one Chat ``tool_calls`` entry or Responses output item, else None."""
    if not _is_object(item):
        raise ResponseShapeError(path, "an object (a tool call or an output item)", item)
    kind = _field(item, "type")
    if kind is not None and not isinstance(kind, str):
        raise ResponseShapeError(f"{path}.type", "a string", kind)
    if kind == "function_call":
        return _RawCall(
            "responses",
            _string_field(item, "call_id", path),
            _string_field(item, "name", path),
            _field(item, "arguments"),
        )
    function = _field(item, "function")
    if kind == "function" or (kind is None and function is not None):
        if not _is_object(function):
            raise ResponseShapeError(f"{path}.function", "an object", function)
        return _RawCall(
            "chat",
            _string_field(item, "id", path),
            _string_field(function, "name", f"{path}.function"),
            _field(function, "arguments"),
        )
    if kind is None:
        raise ResponseShapeError(path, "a tool call or an output item with a type", item)
    # Messages, reasoning, built-in tool calls, custom tool calls: not ours.
    return None


def _list_field(obj: Any, name: str, path: str) -> list[Any]:
    """``obj.name`` as a list; null or absent is an empty list, anything else an error."""
    value = _field(obj, name)
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise ResponseShapeError(f"{path}.{name}", "a list", value)
    return list(value)


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
        return _items_of(message, f"{path}.choices[0].message")
    if _has(response, "output") and _field(response, "type") is None:
        return _list_field(response, "output", path), f"{path}.output"
    if _has(response, "tool_calls") or _field(response, "role") == "assistant":
        return _list_field(response, "tool_calls", path), f"{path}.tool_calls"
    return None


def _extract(response: Any) -> list[_RawCall]:
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
    calls = (_raw_from_item(item, f"{path}[{i}]") for i, item in enumerate(items))
    return [raw for raw in calls if raw is not None]


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


_JSON_KIND = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}


def _decode_arguments(raw: _RawCall) -> tuple[dict[str, Any] | None, str | None]:
    """``(arguments, None)``, or ``(None, why)`` for arguments the tool must not receive."""
    args = raw.arguments
    where = f"arguments for tool {raw.name!r}"
    # Zero-argument calls arrive as "" or null from some models and servers.
    if args is None or (isinstance(args, str) and not args.strip()):
        return {}, None
    if isinstance(args, Mapping):
        try:  # already decoded (by a caller or a proxy): copy it, checked as JSON
            return plain_json(args, max_depth=MAX_JSON_DEPTH), None
        except JsonLimitError as exc:
            return None, f"{where} are not usable JSON: the value {exc}"
    if not isinstance(args, str):
        return None, f"{where} must be a JSON object string, got {_kind(args)}"
    try:
        value = loads_bounded(args, max_depth=MAX_JSON_DEPTH, max_bytes=MAX_ARGUMENTS_BYTES)
    except json.JSONDecodeError as exc:
        return None, (
            f"{where} are not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        )
    except JsonLimitError as exc:
        reason = str(exc)
        if reason.startswith(("is larger", "is nested")):
            return None, f"{where} are refused: the JSON text {reason}"
        return None, f"{where} are not valid JSON: the JSON text {reason}"
    if not isinstance(value, dict):
        kind = _JSON_KIND.get(type(value), "a number")
        return None, f"{where} must be a JSON object, got {kind}"
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
    tool or carrying arguments that are not a JSON object, to send back to the model:
    invalid JSON, ``NaN``/``Infinity`` or a number out of range (``1e400``), more than
    :data:`MAX_ARGUMENTS_BYTES` bytes or more than :data:`MAX_JSON_DEPTH` levels of nesting.
    Nulls are removed only at the tool's ``null_paths`` (from :func:`tools`).

    A response that is not one of these shapes (``{"choices": 5}``, a tool call whose
    ``function`` is a string, ...) raises :class:`ResponseShapeError` (a ``ToolcastError``
    and a ``TypeError``) naming the place, e.g. ``response.choices[0].message.tool_calls:
    expected a list, got int``.
    """
    from toolcast.nulls import NullPathError, strip_nulls  # the core helper, imported lazily

    if isinstance(null_paths, ToolsReport):
        null_paths = null_paths.null_paths
    paths_by_tool = null_paths or {}
    if not isinstance(paths_by_tool, Mapping):
        raise NullPathError(
            "null_paths: expected a mapping of tool name to null paths, or a ToolsReport, "
            f"got {_kind(paths_by_tool)}"
        )
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
        paths = paths_by_tool.get(raw.name)
        if paths:
            arguments = strip_nulls(arguments, paths)
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


def _label(value: Any) -> str:
    """A short text for a name, URI or message of unknown type (a repr can recurse or raise)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (Mapping, list, tuple, set, frozenset, bytes)) or value is None:
        return _kind(value)
    try:
        return str(value)[:200]  # a pydantic AnyUrl and the like print as their text
    except Exception:
        return _kind(value)


def _resource_parts(resource: Any) -> list[str]:
    if not _is_object(resource):
        return ["[resource: no contents]"]
    uri = _label(_field(resource, "uri") or "unknown uri")
    mime = _field(resource, "mimeType", "mime_type")
    label = f"{uri}, {_label(mime)}" if mime else uri
    text = _field(resource, "text")
    if isinstance(text, str):
        # A text resource is readable as is; the placeholder line only names it.
        return [f"[resource: {label}]\n{text}"]
    blob = _field(resource, "blob")
    if isinstance(blob, str):
        size = _decoded_size(blob)
        size_text = "invalid base64 data" if size is None else f"{size} bytes"
        return [f"[resource: {label}, {size_text}]"]
    return [f"[resource: {label}]"]


def _render_block(block: Any, api: Api) -> list[str | dict[str, Any]]:
    """One MCP content block as text pieces, or an input_image item (Responses only)."""
    if isinstance(block, str):
        return [block]
    if not _is_object(block):
        return [f"[unsupported content: {_kind(block)}]"]
    kind = _field(block, "type")
    if kind == "text":
        text = _field(block, "text")
        return [text if isinstance(text, str) else ""]
    if kind == "image":
        mime, data = _field(block, "mimeType", "mime_type"), _field(block, "data")
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
        return [
            _media_placeholder(
                "audio", _field(block, "mimeType", "mime_type"), _field(block, "data")
            )
        ]
    if kind == "resource":
        return _resource_parts(_field(block, "resource"))
    if kind == "resource_link":
        uri = _field(block, "uri") or "unknown uri"
        name = _field(block, "name")
        mime = _field(block, "mimeType", "mime_type")
        bits = [_label(x) for x in (name, uri, mime) if x]
        return [f"[resource link: {', '.join(bits)}]"]
    return [f"[unsupported content: {_label(kind)}]"]


def _structured_text(value: Any) -> str:
    """``structuredContent`` as compact JSON; JsonLimitError when it is too deep or not JSON."""
    plain = plain_json(value, max_depth=MAX_JSON_DEPTH)
    # Sorted keys and no spaces: the same structured result always gives the same bytes.
    return json.dumps(plain, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class ToolResultError(ToolcastError, TypeError):
    """:func:`tool_output` was given something that is not a tool result (nor a str/exception)."""


def _normalize_result(result: Any) -> tuple[list[Any], Any, bool]:
    """``(content blocks, structuredContent or None, is_error)`` from any accepted result."""
    if isinstance(result, _ErrorText):
        return [{"type": "text", "text": str(result)}], None, True
    if isinstance(result, BaseException):
        try:
            message = str(result).strip()
        except Exception:  # an exception whose arguments cannot be printed
            message = ""
        return [{"type": "text", "text": message or type(result).__name__}], None, True
    if isinstance(result, str):
        return [{"type": "text", "text": result}], None, False
    if result is None:
        return [], None, False
    if not _is_object(result):
        raise ToolResultError(f"cannot turn {_kind(result)} into a tool output")
    structured = _field(result, "structuredContent", "structured_content")
    if not _has(result, "content") and structured is None and _has(result, "message"):
        # An error object (JSON-RPC ErrorData and the like): report its message.
        return [{"type": "text", "text": _label(_field(result, "message"))}], None, True
    content = _field(result, "content")
    if isinstance(content, str):  # hand-made sessions: a bare text
        blocks: list[Any] = [content]
    elif isinstance(content, (list, tuple)):
        blocks = list(content)
    elif content is None:
        blocks = []
    else:
        raise ToolResultError(
            f"result.content: expected a list of content blocks, got {_kind(content)}"
        )
    flag = _field(result, "isError", "is_error")
    is_error = isinstance(flag, int) and bool(flag)  # bool is an int; other values mean nothing
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
    Structured content that is used but cannot be sent (nested more than
    :data:`MAX_JSON_DEPTH` levels, a non-finite number, a value with no JSON form) makes an
    error output that says so, with the content blocks after it. A ``result`` of any other
    type raises :class:`ToolResultError` (a ``ToolcastError`` and a ``TypeError``).
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
        try:
            pieces.append(_structured_text(structured_value))
        except JsonLimitError as exc:
            # The model must learn that part of the result is missing, and why; first, so
            # that the error marker leads the output.
            is_error = True
            pieces.insert(0, f"the tool's structured result cannot be sent: it {exc}")

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
