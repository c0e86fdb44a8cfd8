"""Tool results for the run-time loop: MCP results and content blocks as the text and media pieces a provider shapes."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Mapping
from typing import Any, Literal

from toolcast._runtime.json_limits import _SURROGATE, JsonLimitError, plain_json
from toolcast._runtime.loop import MAX_JSON_DEPTH, _field, _has, _is_object, _kind
from toolcast.model import ToolcastError

StructuredMode = Literal["auto", "prefer", "append", "ignore"]

_STRUCTURED_MODES = ("auto", "prefer", "append", "ignore")


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


def render_block(
    block: Any, image: Callable[[Any, Any], Any] | None = None
) -> list[Any]:
    """One MCP content block as text pieces; ``image(mime, data)`` may turn an image into a
    provider's own piece (a dict), or return None for the placeholder text."""
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
        piece = image(mime, data) if image is not None else None
        return [piece if piece is not None else _media_placeholder("image", mime, data)]
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


def base64_image(mime: Any, data: Any, accepted: frozenset[str]) -> tuple[str, str] | None:
    """``(mime type, compact base64)`` of an image a provider accepts, else None (an empty image
    too: no image, which a provider would refuse with the whole request; its placeholder says 0 bytes)."""
    if (
        isinstance(mime, str)
        and mime.lower() in accepted
        and isinstance(data, str)
        and _decoded_size(data)
    ):
        return mime.lower(), "".join(data.split())
    return None


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
    if not _has(result, "content") and structured is None:
        if _has(result, "message"):
            # An error object (JSON-RPC ErrorData and the like): report its message.
            return [{"type": "text", "text": _label(_field(result, "message"))}], None, True
        error = _field(result, "error")
        if error is not None and not _has(result, "result"):
            # A JSON-RPC error answer ({"error": {"code", "message"}}) handed over as it came.
            message = _field(error, "message") if _is_object(error) else error
            return [{"type": "text", "text": _label(message) if message is not None else ""}], None, True
        if isinstance(_field(result, "type"), str):  # one content block handed over on its own
            return [result], None, False
        if not _has(result, "isError") and not _has(result, "is_error"):
            raise ToolResultError(
                f"cannot turn {_kind(result)} into a tool output: expected a CallToolResult "
                "(content, structuredContent, isError), a string or an error"
            )
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


def check_structured(structured: str) -> None:
    if structured not in _STRUCTURED_MODES:
        raise ValueError(f"structured must be one of {_STRUCTURED_MODES}, got {structured!r}")


def result_pieces(
    result: Any,
    structured: StructuredMode,
    error_prefix: str,
    render: Callable[[Any], list[Any]],
) -> tuple[list[Any], bool]:
    """A result's pieces (text, or a provider's media dicts) in order, and whether it is an error.

    ``render`` turns one content block into pieces. ``structured`` decides where
    ``structuredContent`` goes (see the providers' ``tool_output``); errors get
    ``error_prefix`` (once) on their first piece; empty texts are dropped.
    """
    check_structured(structured)
    blocks, structured_value, is_error = _normalize_result(result)

    use_content, use_structured = True, False
    if structured_value is not None:
        if structured == "auto":
            use_content, use_structured = bool(blocks), not blocks
        elif structured == "prefer":
            use_content, use_structured = False, True
        elif structured == "append":
            use_structured = True

    pieces: list[Any] = []
    if use_content:
        for block in blocks:
            pieces.extend(render(block))
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
            if not _has_prefix(text, error_prefix):
                pieces[first] = error_prefix + text
        else:
            # An image comes first; the error marker must still lead the output.
            pieces.insert(first, error_prefix.rstrip())
    # Empty text blocks carry nothing and would only add blank lines. A surrogate code point (a
    # lone half of a UTF-16 pair) has no UTF-8 form: the message could not be sent with it, so it
    # becomes U+FFFD, as a decoder writes what it cannot read.
    return [_sendable(p) if type(p) is str else p for p in pieces if p], is_error


def _sendable(text: str) -> str:
    return text if text.isascii() or not _SURROGATE.search(text) else _SURROGATE.sub("\ufffd", text)
