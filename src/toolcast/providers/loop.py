"""The run-time loop of any target, from its spec's `wire:` section: tools in, tool calls read, results out.

`tools`, `tool_calls` and `tool_output` take a `target` (and an `api`, else every API of the target
is tried in order when reading, and its default API is written): the tool list is compiled as
toolcast.openai.tools does it, the calls are found where `wire.apis.<api>.calls` says a response
keeps them and decoded, null-stripped and checked by the same reader (toolcast._runtime.loop.read_calls),
and a result is shaped by the `result` template (`error_result` for an error). An image in a result
is written as the wire's `parts.image` says, where it states one and takes the image's type (`$content`:
every piece in order, `$media`: the images alone); other media, and images where it states none, become
text placeholders. toolcast.openai, toolcast.anthropic and toolcast.gemini are the hand-written loops of
those providers (SDK objects' fast paths).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from toolcast._runtime.loop import (
    CutArguments,
    RawCall,
    ResponseShapeError,
    ToolsReport,
    _field,
    _is_object,
    provider_tools,
    read_calls,
    whole_arguments,
)
from toolcast._runtime.loop import ToolCall as _ToolCall
from toolcast._runtime.results import (
    StructuredMode,
    _ErrorText,
    base64_image,
    render_block,
    result_pieces,
)
from toolcast.providers.wire import fill

if TYPE_CHECKING:
    from toolcast.providers.wire import Target
    from toolcast.toolset import ToolSet

__all__ = ["ResponseShapeError", "ToolCall", "ToolsReport", "tool_calls", "tool_output", "tools"]


def _target(name: str) -> Target:
    from toolcast.providers import EMITTERS

    found = EMITTERS.get(name)
    if found is None:
        raise ValueError(f"unknown target {name!r}; available: {', '.join(EMITTERS)}")
    return found


def _apis(t: Target, api: str | None) -> tuple[str, ...]:
    if api is None:
        return t.APIS
    if api not in t.APIS:
        raise ValueError(f"unknown api {api!r} for target {t.name!r}; available: {', '.join(t.APIS)}")
    return (api,)


def tools(
    toolset: ToolSet,
    *,
    target: str,
    api: str | None = None,
    strict: Literal["auto", "true", "false"] | bool = "auto",
    rules: str | None = None,
    allow_lossy: bool = False,
    enforce: bool = False,
    describe: bool = True,
) -> tuple[Any, ToolsReport]:
    """Compile every tool of ``toolset`` for ``target`` (its ``api``, else its default) into the
    request's tools value (the wire's `tools` template), the toolset as one request, and a
    :class:`ToolsReport` to pass to :func:`tool_calls`."""
    t = _target(target)
    api = _apis(t, api)[0] if api is not None else t.DEFAULT_API
    emitted, report = provider_tools(
        target, toolset, api=api, strict=strict, rules=rules, allow_lossy=allow_lossy, budgets=True,
        **({"enforce": True, "describe": describe} if enforce else {}),
    )
    return t.request_tools(emitted), report


@dataclass(frozen=True, eq=False)  # (the base's __eq__ and __hash__: arguments compare as JSON)
class ToolCall(_ToolCall):
    """A model's call to a tool of the ToolSet, read through a target's wire; ``output`` answers it
    in the same target's and API's shape."""

    target: str = ""
    api: str = ""

    def output(self, result: Any, *, error_prefix: str = "Error: ", structured: StructuredMode = "auto") -> Any:
        """Shape ``result`` as the answer to this call (the wire's `result`, `error_result`)."""
        return tool_output(self, result, target=self.target, api=self.api, error_prefix=error_prefix,
                           structured=structured)


def _get(obj: Any, path: Sequence[Any]) -> Any:
    """The value at ``path`` (names, alternatives, list indexes) inside ``obj``, or None."""
    for step in path:
        if obj is None:
            return None
        if isinstance(step, int):
            if not isinstance(obj, (list, tuple)) or step >= len(obj):
                return None
            obj = obj[step]
        elif not _is_object(obj):
            return None
        else:
            obj = _field(obj, *step) if isinstance(step, (list, tuple)) else _field(obj, step)
    return obj


def _holds(obj: Any, step: Any) -> bool:
    if isinstance(step, int) or not _is_object(obj):
        return False
    return _field(obj, *step) is not None if isinstance(step, (list, tuple)) else _field(obj, step) is not None


def _place(step: Any) -> str:
    return f"[{step}]" if isinstance(step, int) else "." + (step[0] if isinstance(step, (list, tuple)) else step)


def _items(obj: Any, path: Sequence[Any], where: str) -> tuple[list[Any], str]:
    """The list at ``path`` inside ``obj`` (absent or null: none), its place named for errors."""
    for i, step in enumerate(path):
        if obj is None:
            return [], where
        last = i == len(path) - 1
        if isinstance(step, int):
            if not isinstance(obj, (list, tuple)):
                raise ResponseShapeError(where, "a list", obj)
            if step >= len(obj):
                return [], where  # (no candidate, no choice: no call)
            obj = obj[step]
        else:
            if not _is_object(obj):
                raise ResponseShapeError(where, "an object", obj)
            obj = _field(obj, *step) if isinstance(step, (list, tuple)) else _field(obj, step)
        where += _place(step)
        if last and obj is not None and not isinstance(obj, (list, tuple)):
            raise ResponseShapeError(where, "a list", obj)
    return ([] if obj is None else list(obj)), where


def _raw(item: Any, api: str, calls: Mapping[str, Any], where: str) -> RawCall | None:
    """The call ``item`` is under ``api``'s wire, else None (an item of another kind)."""
    if not _is_object(item):
        raise ResponseShapeError(where, "an object (a tool call or an item of the response)", item)
    match = calls.get("match") or {}
    if any(_field(item, k) != v for k, v in match.items()):
        return None
    name = _get(item, calls["name"])
    if not isinstance(name, str):
        if match or name is not None:
            raise ResponseShapeError(where + "".join(map(_place, calls["name"])), "a string", name)
        return None
    call_id = _get(item, calls["id"])
    if call_id is not None and not isinstance(call_id, str):
        raise ResponseShapeError(where + "".join(map(_place, calls["id"])), "a string", call_id)
    return RawCall(call_id or "", name, _get(item, calls["arguments"]), api)


def _extract(response: Any, t: Target, apis: tuple[str, ...]) -> list[RawCall]:
    shapes = [(api, t.wire[api]["calls"]) for api in apis if "calls" in t.wire[api]]
    if not shapes:
        raise ValueError(f"target {t.name!r} states no `calls` in its wire for API {', '.join(apis)}")
    expected = f"a response of target {t.name}, a part of it on the way to its tool calls, a list of them or one call"
    found: tuple[list[Any], str] | None = None
    cut: tuple[str, Mapping[str, Any]] | None = None
    if response is None:
        return []
    if isinstance(response, (list, tuple)):
        found = list(response), "response"
    elif not _is_object(response):
        raise ResponseShapeError("response", expected, response)
    else:
        for _, calls in shapes:
            path = calls["in"]
            start = next((k for k, step in enumerate(path) if _holds(response, step)), None)
            if start is not None:
                found = _items(response, path[start:], "response")
                cut = _cut_off(response, calls, start)
                break
    if found is None:  # one call given on its own
        for api, calls in shapes:
            raw = _raw(response, api, calls, "response")
            if raw is not None:
                return [raw]
        raise ResponseShapeError("response", expected, response)
    items, where = found
    raws = []
    for i, item in enumerate(items):
        for api, calls in shapes:
            raw = _raw(item, api, calls, f"{where}[{i}]")
            if raw is not None:
                if cut is not None and not _whole(raw, cut[1], i == len(items) - 1):
                    raw = raw._replace(arguments=CutArguments(cut[0]))
                raws.append(raw)
                break
    return raws


def _whole(raw: RawCall, cut: Mapping[str, Any], last: bool) -> bool:
    """Whether a call of a response cut off is whole: not the last item where the wire's ``cut`` says
    the last one is cut short, else arguments that are neither empty nor JSON text cut part-way."""
    if cut.get("last"):
        return not last
    return whole_arguments(raw.arguments)


def _cut_off(response: Any, calls: Mapping[str, Any], start: int) -> tuple[str, Mapping[str, Any]] | None:
    """Why ``response`` (read from step ``start`` of the calls' path `in`) is cut off, as the
    wire's `calls.cut` says (a reason it ended among `values`, at the path `at`), and that `cut`;
    else None."""
    cut = calls.get("cut")
    if cut is None or list(cut["at"][:start]) != list(calls["in"][:start]):
        return None  # (a part of the response below the place the reason is kept)
    reason = _get(response, cut["at"][start:])
    if not isinstance(reason, str) or reason not in cut["values"]:
        return None
    return f"the response was cut off, {cut['at'][-1]} {str.__str__(reason)!r}", cut


def tool_calls(
    response: Any,
    toolset: ToolSet,
    null_paths: Mapping[str, Sequence[Sequence[Any]]] | ToolsReport | None = None,
    *,
    target: str,
    api: str | None = None,
    error_prefix: str = "Error: ",
    validate: bool = False,
) -> tuple[list[ToolCall], list[Any]]:
    """Read the tool calls of a ``target`` response (its ``api``, else any of its APIs), as
    toolcast.openai.tool_calls does: ``(calls, rejected)``, rejected calls answered by error results
    in the call's own API's shape. Any other shape raises :class:`ResponseShapeError`."""
    t = _target(target)
    raws = _extract(response, t, _apis(t, api))

    def make(raw: Any, names: tuple[str, str, str], arguments: dict[str, Any]) -> ToolCall:
        call = ToolCall._of(raw, names, arguments)
        call.__dict__["target"], call.__dict__["api"] = target, raw[3]
        return call

    def reject(raw: RawCall, message: str) -> Any:
        return _shape(t, raw.api, raw.call_id, raw.name, _ErrorText(message), error_prefix, "auto")

    return read_calls(raws, toolset, null_paths, make, reject, validate)


# id(a wire's parts) -> (those parts, their image writer): made once per wire API, not per result.
_WRITERS: dict[int, tuple[Mapping[str, Any], Any]] = {}


def _image_writer(parts: Mapping[str, Any]) -> Any:
    """image(mime, data) -> the wire's `parts.image` filled in, or None (the placeholder) for an
    image of another type or with data that is no base64; made once for each `parts`."""
    known = _WRITERS.get(id(parts))
    if known is not None and known[0] is parts:
        return known[1]
    if len(_WRITERS) >= 256:  # (a handful of wire APIs; spec folders loaded again make new ones)
        _WRITERS.clear()
    writer = _WRITERS[id(parts)] = (parts, _new_image_writer(parts))
    return writer[1]


def _new_image_writer(parts: Mapping[str, Any]) -> Any:
    accepted = frozenset(parts["image_types"])
    template = parts["image"]
    raw = "$bytes" in repr(template)  # (decoded only where the template takes the bytes)

    def image(mime: Any, data: Any) -> Any:
        found = base64_image(mime, data, accepted)
        if found is None:
            return None
        mime, data = found
        values = {"mime": mime, "data": data, "data_url": f"data:{mime};base64,{data}",
                  "format": mime.partition("/")[2]}
        if raw:
            values["bytes"] = base64.b64decode(data)
        return _Media(fill(template, values))

    return image


class _Media:
    """An image part a wire's template wrote (a result's pieces are otherwise texts)."""

    __slots__ = ("part",)

    def __init__(self, part: Any) -> None:
        self.part = part


def _content(pieces: list[Any], parts: Mapping[str, Any], text: str) -> Any:
    """The result's pieces in order as the wire's parts (`$content`): texts as `parts.text`, adjacent
    ones joined (`texts: joined`, the default) or one part each (`each`); the joined text alone where
    there is no image and `text_alone: text`."""
    if parts.get("text_alone") == "text" and not any(type(p) is _Media for p in pieces):
        return text
    out: list[Any] = []
    texts: list[str] = []
    joined = parts.get("texts", "joined") == "joined"
    for piece in [*pieces, None]:
        if type(piece) is str:
            texts.append(piece)
            if joined:
                continue
        if texts:
            out.append(fill(parts["text"], {"text": "\n".join(texts)}))
            texts = []
        if type(piece) is _Media:
            out.append(piece.part)
    return out


def _shape(t: Target, api: str, call_id: str, name: str, result: Any, error_prefix: str,
           structured: StructuredMode) -> Any:
    wire = t.wire[api]
    parts = wire.get("parts")
    image = None if parts is None else _image_writer(parts)
    pieces, is_error = result_pieces(result, structured, error_prefix, lambda block: render_block(block, image))
    text = "\n".join(p for p in pieces if type(p) is str)
    values = {"id": call_id, "name": name, "text": text, "error": is_error}
    if parts is not None:
        values["media"] = [p.part for p in pieces if type(p) is _Media]
        values["content"] = _content(pieces, parts, text)
    template = wire.get("error_result", wire["result"]) if is_error else wire["result"]
    return fill(template, values)


def tool_output(
    call: ToolCall | Any,
    result: Any,
    *,
    target: str | None = None,
    api: str | None = None,
    error_prefix: str = "Error: ",
    structured: StructuredMode = "auto",
) -> Any:
    """Shape ``result`` (an MCP ``CallToolResult``, a string, an exception) as the answer to
    ``call`` (a :class:`ToolCall`, or anything with ``call_id``/``id`` and ``name``) in ``target``'s
    ``api`` (the call's own when it is a ToolCall, else the default API)."""
    target = target or _field(call, "target")
    if not isinstance(target, str):
        raise TypeError("tool_output: give target= (or a ToolCall read by toolcast.providers.loop)")
    t = _target(target)
    api = api or _field(call, "api") or t.DEFAULT_API
    _apis(t, api)
    if "result" not in t.wire[api]:
        raise ValueError(f"target {target!r} states no `result` in its wire for API {api!r}")
    call_id = call if isinstance(call, str) else _field(call, "call_id", "id")
    name = "" if isinstance(call, str) else _field(call, "name")
    return _shape(t, api, call_id if isinstance(call_id, str) else "", name if isinstance(name, str) else "",
                  result, error_prefix, structured)
