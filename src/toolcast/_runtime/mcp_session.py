"""What every MCP connection shares: the one-line McpServerError, initialize, listing every page, SDK log lines."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

# A server that pages forever must not hang the caller; no real server has this many pages.
_MAX_PAGES = 1000




class McpServerError(RuntimeError):
    """An MCP server could not be started or did not answer; the message is one line."""


def _exception_text(exc: BaseException) -> str:
    """The exception's message on one line; its type when it has none or cannot be printed."""
    try:
        text = " ".join(str(exc).split())
    except Exception:  # str() of an exception holding a deep or broken value
        text = ""
    return text[:1000] or type(exc).__name__


def _innermost(exc: BaseException) -> BaseException:
    # anyio task groups wrap the real failure in (nested) exception groups.
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _one_line(exc: BaseException) -> str:
    """The innermost meaningful message of an exception (groups included), on one line."""
    inner = _innermost(exc)
    text = " ".join(str(inner).split())
    return text or type(inner).__name__


@contextlib.asynccontextmanager
async def initialized(
    opened: contextlib.AbstractAsyncContextManager[Any],
    timeout: float | None,
    failure: Callable[[BaseException], McpServerError],
) -> AsyncIterator[Any]:
    """The session ``opened`` yields, once its ``initialize`` returned within ``timeout``
    seconds (None: no limit).

    Until then every failure (a transport that cannot start, the timeout, an answer that is
    not MCP) raises ``failure(exc)``, one line (a TimeoutError, maybe in exception groups,
    is the timeout); after it, the block's own errors pass as they are, and so does a
    cancellation.
    """
    import anyio  # the MCP SDK's own dependency, imported with it on first use

    started = False
    try:
        async with opened as session:
            with anyio.fail_after(timeout):
                await session.initialize()
            started = True
            yield session
    except (Exception, BaseExceptionGroup) as exc:
        if started or isinstance(_innermost(exc), asyncio.CancelledError):
            raise
        raise failure(exc) from None


def _tool_dict(tool: Any) -> dict[str, Any]:
    """An SDK Tool as a plain MCP tool dict. Its schemas are the server's values as they were
    read: the JSON dump would write a NaN or an infinity there as null (a silent change); kept,
    the compile refuses them as values JSON cannot carry."""
    schemas = {"input_schema": "inputSchema", "output_schema": "outputSchema"}
    held = {attr: getattr(tool, attr, None) for attr in schemas}
    kept = {attr for attr, raw in held.items() if isinstance(raw, dict)}  # (not dumped: a schema
    try:  # nested deeply would fail)
        out = tool.model_dump(by_alias=True, exclude_none=True, mode="json", exclude=kept)
    except ValueError:  # (pydantic's serializer stops at its depth limit: a deep _meta; kept as
        meta = getattr(tool, "meta", None)  # read, the compile leaves the tool out alone, naming it)
        out = tool.model_dump(by_alias=True, exclude_none=True, mode="json", exclude=kept | {"meta"})
        if meta is not None:
            out["_meta"] = meta
    out.update((schemas[attr], held[attr]) for attr in kept)
    return out


async def list_tools(session: Any) -> list[dict[str, Any]]:
    """Every tool of an initialized session (all pages), as plain MCP tool dicts. A page the SDK
    refuses as a whole (one entry it cannot read) is read entry by entry instead: each entry the
    SDK reads is a tool as usual, each other one is passed on as the server sent it, for the
    compile to judge alone (one bad tool never takes the others with it)."""
    from mcp.types import PaginatedRequestParams

    tools: list[Any] = []
    cursor: str | None = None
    seen: set[str] = set()
    for _ in range(_MAX_PAGES):
        params = PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        try:
            page = await session.list_tools(params=params)
        except ValueError as exc:  # pydantic's ValidationError: some entry of the page
            entries, cursor = await _page_by_entry(session, params, exc)
            tools.extend(entries)
        else:
            tools.extend(map(_tool_dict, page.tools))
            cursor = page.next_cursor
        if cursor is None:
            return tools
        if cursor in seen:
            raise McpServerError(f"MCP server repeated pagination cursor {cursor!r}")
        seen.add(cursor)
    raise McpServerError(f"MCP server sent more than {_MAX_PAGES} pages of tools")


async def _page_by_entry(session: Any, params: Any, refused: ValueError) -> tuple[list[Any], str | None]:
    """The page ``params`` asks for, asked again as plain JSON and read entry by entry; the
    session is told of the tools it can read (their outputSchema checks its calls' results).
    ``refused`` is raised again where the SDK offers no plain request (or the page has no list)."""
    import mcp_types as types

    dispatcher, stamp = getattr(session, "_dispatcher", None), getattr(session, "_stamp", None)
    if not hasattr(dispatcher, "send_raw_request") or not callable(stamp):
        raise refused
    data = types.ListToolsRequest(params=params).model_dump(by_alias=True, mode="json", exclude_none=True)
    opts: dict[str, Any] = {}
    stamp(data, opts)
    timeout = getattr(session, "_session_read_timeout_seconds", None)
    if timeout is not None:
        opts["timeout"] = timeout
    raw = await dispatcher.send_raw_request("tools/list", data.get("params"), opts)
    entries = raw.get("tools") if isinstance(raw, dict) else None
    cursor = raw.get("nextCursor") if isinstance(raw, dict) else None
    if not isinstance(entries, list) or not (cursor is None or isinstance(cursor, str)):
        raise refused
    out: list[Any] = []
    readable: list[Any] = []
    for entry in entries:
        try:
            tool = types.Tool.model_validate(entry, by_name=False)
        except Exception:  # (the compile says what is wrong with it, naming its place)
            out.append(entry)
            continue
        readable.append(tool)
        out.append(_tool_dict(tool))
    absorb = getattr(session, "_absorb_tool_listing", None)
    if callable(absorb):
        with contextlib.suppress(Exception):
            absorb(types.ListToolsResult(tools=readable), complete=False)
    return out, cursor


# The MCP SDK's loggers: its modules' own, and "client", where its ClientSession logs.
_SDK_LOGGERS = ("mcp", "client")


class _OneLineLog(logging.Handler):
    """The SDK's log records as one line each (no traceback), for a command line's stderr."""

    def __init__(self, shown: str, sink: Callable[[str], None]) -> None:
        super().__init__(logging.WARNING)
        self.shown, self.sink = shown, sink

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                exc = record.exc_info[1]
                text += f" ({type(exc).__name__}: {_exception_text(exc)})"
            where = f"MCP server {self.shown!r}" if self.shown else "MCP SDK"
            self.sink(" ".join(f"{where}: {text}".split())[:300])
        except Exception:  # logging must never raise into the SDK
            pass


@contextlib.contextmanager
def _sdk_log_to(shown: str, sink: Callable[[str], None]) -> Any:
    """While the block runs, the MCP SDK's warnings go to ``sink`` (one line each) only, naming
    the server ``shown`` (none: the SDK, for a process that talks to several)."""
    handler = _OneLineLog(shown, sink)
    loggers = [logging.getLogger(name) for name in _SDK_LOGGERS]
    saved = [log.propagate for log in loggers]
    for log in loggers:
        log.addHandler(handler)
        log.propagate = False
    try:
        yield
    finally:
        for log, propagate in zip(loggers, saved, strict=True):
            log.removeHandler(handler)
            log.propagate = propagate
