"""Run tool calls against MCP client sessions; list the tools of stdio and Streamable HTTP servers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import shutil
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolcast._openai_runtime import ToolCall, _ErrorText, tool_output

if TYPE_CHECKING:
    from toolcast._mcp_stdio import ServerOutput
    from toolcast._openai_runtime import Api, StructuredMode

__all__ = [
    "McpServerError",
    "execute_tool_calls",
    "http_session",
    "list_tools",
    "list_tools_http",
    "list_tools_http_sync",
    "list_tools_stdio",
    "list_tools_stdio_sync",
    "stdio_session",
]

# A server that pages forever must not hang the caller; no real server has this many pages.
_MAX_PAGES = 1000


class McpServerError(RuntimeError):
    """An MCP server could not be started or did not answer; the message is one line."""


async def _run_one(
    call: ToolCall,
    sessions: Mapping[str, Any],
    api: Api | None,
    timeout: float | None,
    error_prefix: str,
    structured: StructuredMode,
) -> dict[str, Any]:
    def failed(message: str) -> dict[str, Any]:
        return _shape(call, _ErrorText(message), api, error_prefix, "auto")

    where = f"tool {call.tool!r} on server {call.server!r}"
    session = sessions.get(call.server)
    if session is None:
        return failed(f"no connection to server {call.server!r} for tool {call.tool!r}")
    try:
        result = await asyncio.wait_for(session.call_tool(call.tool, call.arguments), timeout)
    except TimeoutError:
        within = f" within {timeout:g} s" if timeout is not None else ""
        return failed(f"{where} did not answer{within}")
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if task is None or task.cancelling():
            raise  # the caller cancelled us
        # The session cancelled its own call (a cancel scope that leaked): only this call fails.
        return failed(f"{where} was cancelled by its session")
    except Exception as exc:
        return failed(f"{where} failed: {_exception_text(exc)}")
    try:
        return _shape(call, result, api, error_prefix, structured)
    except Exception as exc:  # whatever a session returned, this call still gets an output
        return failed(f"{where} returned {_exception_text(exc)}")


def _shape(
    call: Any, result: Any, api: Api | None, error_prefix: str, structured: StructuredMode
) -> dict[str, Any]:
    """``result`` as ``call``'s output in its provider's shape (OpenAI: in ``api``, if given)."""
    if isinstance(call, ToolCall):
        return tool_output(
            call.call_id, result, api=api or call.api, error_prefix=error_prefix,
            structured=structured,
        )
    return call.output(result, error_prefix=error_prefix, structured=structured)


def _exception_text(exc: BaseException) -> str:
    """The exception's message on one line; its type when it has none or cannot be printed."""
    try:
        text = " ".join(str(exc).split())
    except Exception:  # str() of an exception holding a deep or broken value
        text = ""
    return text[:1000] or type(exc).__name__


async def execute_tool_calls(
    calls: Sequence[Any],
    sessions: Mapping[str, Any],
    *,
    api: Api | None = None,
    timeout: float | None = 30.0,
    error_prefix: str = "Error: ",
    structured: StructuredMode = "auto",
) -> list[dict[str, Any]]:
    """Call every tool concurrently on its server's session; one output per call, in order.

    ``calls`` come from any target's ``tool_calls`` (OpenAI, Anthropic, Gemini); each
    output is in its call's provider shape. ``sessions`` maps the server prefixes given to
    ``ToolSet.build`` to objects with an async ``call_tool(name, arguments)``
    (``mcp.ClientSession``, ``mcp.Client``). ``api`` (OpenAI calls only) defaults to each
    call's own API. A missing session, a server error, a crash or a
    call that takes longer than ``timeout`` seconds becomes an error output for that
    call only.
    """
    jobs = [_run_one(call, sessions, api, timeout, error_prefix, structured) for call in calls]
    # _run_one turns every failure of its call into that call's output, so one call can
    # never take the others' outputs with it.
    return list(await asyncio.gather(*jobs))


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


def _resolve(command: str) -> list[str]:
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise McpServerError(f"cannot parse MCP server command {command!r}: {exc}") from None
    if not argv:
        raise McpServerError("empty MCP server command")
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            raise McpServerError(f"MCP server command not found or not executable: {program}")
        return argv
    found = shutil.which(program)
    if found is None:
        raise McpServerError(f"MCP server command not found: {program}")
    return [found, *argv[1:]]


def _log_problem(line: str) -> None:
    logging.getLogger(__name__).warning("%s", line)


def _with_output(message: str, output: ServerOutput) -> str:
    """``message`` with the last stderr line and, if any, the last non-message stdout line."""
    tail = output.stderr_tail()
    if tail:
        message += f" (stderr: {tail})"
    if output.last_junk:
        message += f" (stdout: {output.last_junk})"
    return message


def _startup_failure(exc: BaseException, shown: str, output: ServerOutput) -> McpServerError:
    inner = _innermost(exc)
    if isinstance(inner, McpServerError):
        return McpServerError(str(inner))
    if isinstance(inner, FileNotFoundError | PermissionError):
        return McpServerError(f"MCP server {shown!r} could not be started: {_one_line(inner)}")
    detail = _one_line(exc)
    if detail == "Connection closed" or output.returncode is not None:
        # The SDK's wording for a server that exited or closed stdout mid-handshake.
        detail = "it exited or closed its output before answering"
        if output.returncode is not None:
            detail += f" (exit status {output.returncode})"
    return McpServerError(_with_output(f"MCP server {shown!r} failed: {detail}", output))


@contextlib.asynccontextmanager
async def _session(
    argv: Sequence[str],
    output: ServerOutput,
    *,
    env: Mapping[str, str] | None,
    cwd: str | os.PathLike[str] | None,
    errlog: Any,
    startup_timeout: float | None,
) -> AsyncIterator[Any]:
    import anyio  # the MCP SDK's own dependency, like the SDK imported on first use
    from mcp import ClientSession

    from toolcast._mcp_stdio import open_stdio

    shown = output.name
    started = False
    try:
        async with (
            open_stdio(argv, output, env=env, cwd=cwd, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            try:
                with anyio.fail_after(startup_timeout):
                    await session.initialize()
            except TimeoutError:
                raise McpServerError(
                    _with_output(
                        f"MCP server {shown!r} did not answer initialize within "
                        f"{startup_timeout:g} s",
                        output,
                    )
                ) from None
            started = True
            yield session
    except (Exception, BaseExceptionGroup) as exc:
        if started or isinstance(_innermost(exc), asyncio.CancelledError):
            raise
        raise _startup_failure(exc, shown, output) from None


@contextlib.asynccontextmanager
async def stdio_session(
    command: str | Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    errlog: Any = None,
    startup_timeout: float | None = 30.0,
    on_problem: Callable[[str], None] | None = _log_problem,
) -> AsyncIterator[Any]:
    """Start a stdio MCP server and yield an initialized ``mcp.ClientSession``.

    ``command`` is a shell-like string (split with :func:`shlex.split`) or an argv list.
    ``errlog`` receives the server's stderr as text (anything with ``write``; default:
    nothing, only the last 64 KiB are kept for error messages). A server that does not
    start, or does not answer ``initialize`` within ``startup_timeout`` seconds (None: no
    limit), raises :class:`McpServerError` with a one-line message.

    The server runs in its own session (process group); when the block ends, the whole
    group is ended, so children it started do not outlive it, and a server that dies while
    a child holds its stdout is seen at once. Lines on its stdout that are not JSON-RPC
    messages are skipped and reported one line each to ``on_problem`` (default: a warning
    on the ``toolcast.mcp_runtime`` logger); past ten, only their number is reported.
    """
    from toolcast._mcp_stdio import ServerOutput

    argv = _resolve(command) if isinstance(command, str) else _resolve(shlex.join(command))
    shown = _shown(command) if isinstance(command, str) else str(next(iter(command)))
    output = ServerOutput(shown, on_problem)
    async with _session(
        argv, output, env=env, cwd=cwd, errlog=errlog, startup_timeout=startup_timeout
    ) as session:
        yield session


def _shown(command: str) -> str:
    return shlex.split(command)[0]


async def list_tools(session: Any) -> list[dict[str, Any]]:
    """Every tool of an initialized session (all pages), as plain MCP tool dicts."""
    from mcp.types import PaginatedRequestParams

    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    seen: set[str] = set()
    for _ in range(_MAX_PAGES):
        params = PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        page = await session.list_tools(params=params)
        tools.extend(
            t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in page.tools
        )
        cursor = page.next_cursor
        if cursor is None:
            return tools
        if cursor in seen:
            raise McpServerError(f"MCP server repeated pagination cursor {cursor!r}")
        seen.add(cursor)
    raise McpServerError(f"MCP server sent more than {_MAX_PAGES} pages of tools")


async def list_tools_stdio(
    command: str,
    *,
    timeout: float = 30.0,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    on_problem: Callable[[str], None] | None = _log_problem,
) -> list[dict[str, Any]]:
    """Start the stdio MCP server ``command``, list all its tools (every page), stop it.

    Returns plain MCP tool dicts (``name``, ``description``, ``inputSchema``, ...).
    Raises :class:`McpServerError` with a one-line message when the command is not
    found, the server exits or fails, or it does not answer within ``timeout`` seconds.
    Stdout lines that are not messages go to ``on_problem``, as in :func:`stdio_session`.
    """
    argv = _resolve(command)
    shown = _shown(command)
    try:
        import mcp  # noqa: F401  (checked up front: a missing SDK is not a server failure)
    except ImportError:
        raise McpServerError(
            "listing MCP tools needs the MCP SDK: pip install 'toolcast[mcp]'"
        ) from None
    from toolcast._mcp_stdio import ServerOutput

    output = ServerOutput(shown, on_problem)
    try:
        async with asyncio.timeout(timeout):
            async with _session(
                argv, output, env=env, cwd=cwd, errlog=None, startup_timeout=None
            ) as session:
                return await list_tools(session)
    except McpServerError:
        raise
    except TimeoutError:  # asyncio.timeout's own
        raise McpServerError(
            _with_output(f"MCP server {shown!r} did not answer within {timeout:g} s", output)
        ) from None
    except (Exception, BaseExceptionGroup) as exc:
        inner = _innermost(exc)
        if isinstance(inner, McpServerError):
            raise McpServerError(str(inner)) from None
        if isinstance(inner, TimeoutError):
            raise McpServerError(
                _with_output(f"MCP server {shown!r} did not answer within {timeout:g} s", output)
            ) from None
        raise _startup_failure(exc, shown, output) from None


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
            self.sink(" ".join(f"MCP server {self.shown!r}: {text}".split())[:300])
        except Exception:  # logging must never raise into the SDK
            pass


def list_tools_stdio_sync(
    command: str,
    *,
    timeout: float = 30.0,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    on_problem: Callable[[str], None] | None = _log_problem,
) -> list[dict[str, Any]]:
    """:func:`list_tools_stdio` for synchronous callers (the CLI); not inside a running loop.

    While it runs, warnings the MCP SDK logs (with their tracebacks) go to ``on_problem``
    instead, one line each, when ``on_problem`` is given.
    """
    coro = list_tools_stdio(command, timeout=timeout, env=env, cwd=cwd, on_problem=on_problem)
    if on_problem is None or on_problem is _log_problem:
        return asyncio.run(coro)
    with _sdk_log_to(_shown(command), on_problem):
        return asyncio.run(coro)


# --------------------------------------------------------------------------- Streamable HTTP


def _shown_url(url: str) -> str:
    """``url`` without user info or query, for messages: neither may carry a secret out."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host += f":{parts.port}"
    return f"{parts.scheme}://{host}{parts.path}"


def _check_url(url: Any) -> str:
    from urllib.parse import urlsplit

    if not isinstance(url, str) or not url.strip():
        raise McpServerError(f"MCP server URL must be a non-empty string, got {url!r}")
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018  (raises on a port that is not a number)
    except ValueError as exc:
        raise McpServerError(f"MCP server URL {url!r} is not a valid URL: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        shown = _shown_url(url) if parts.scheme and parts.hostname else url
        raise McpServerError(f"MCP server URL {shown!r} is not an http:// or https:// URL")
    return url.strip()


def _http_failure(exc: BaseException, shown: str, timeout: float | None) -> McpServerError:
    inner = _innermost(exc)
    if isinstance(inner, McpServerError):
        return McpServerError(str(inner))
    if isinstance(inner, TimeoutError) or type(inner).__name__.endswith("Timeout"):
        within = f" within {timeout:g} s" if timeout is not None else ""
        return McpServerError(f"MCP server at {shown!r} did not answer{within}")
    response = getattr(inner, "response", None)
    status = getattr(response, "status_code", None)
    if status is not None:
        return McpServerError(f"MCP server at {shown!r} answered HTTP {status}")
    return McpServerError(f"MCP server at {shown!r} failed: {_one_line(inner)[:300]}")


@contextlib.asynccontextmanager
async def http_session(
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    timeout: float | None = 30.0,
) -> AsyncIterator[Any]:
    """Connect to a Streamable HTTP MCP server and yield an initialized ``mcp.ClientSession``.

    ``headers`` go with every request (an ``Authorization`` header, say); they never appear
    in messages. ``timeout`` bounds connecting, each HTTP read and ``initialize`` (None: no
    limit). A bad URL, a refused connection, an HTTP error, an answer that is not MCP or a
    server that does not answer in time raises :class:`McpServerError` with a one-line
    message naming the URL (without its user info or query).
    """
    import anyio
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    url = _check_url(url)
    shown = _shown_url(url)
    limit = httpx2.Timeout(timeout)
    started = False
    try:
        async with (
            httpx2.AsyncClient(headers=dict(headers or {}), timeout=limit) as client,
            streamable_http_client(url, http_client=client) as (read, write),
            ClientSession(read, write, read_timeout_seconds=timeout) as session,
        ):
            with anyio.fail_after(timeout):
                await session.initialize()
            started = True
            yield session
    except (Exception, BaseExceptionGroup) as exc:
        if started or isinstance(_innermost(exc), asyncio.CancelledError):
            raise
        raise _http_failure(exc, shown, timeout) from None


async def list_tools_http(
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    timeout: float = 30.0,
) -> list[dict[str, Any]]:
    """Every tool of the Streamable HTTP MCP server at ``url`` (all pages), as MCP tool dicts.

    Raises :class:`McpServerError` (one line) as :func:`http_session` does, also when
    listing takes longer than ``timeout`` seconds in all.
    """
    shown = _shown_url(_check_url(url))
    try:
        async with asyncio.timeout(timeout):
            async with http_session(url, headers=headers, timeout=timeout) as session:
                return await list_tools(session)
    except McpServerError:
        raise
    except (Exception, BaseExceptionGroup) as exc:
        raise _http_failure(exc, shown, timeout) from None


def list_tools_http_sync(
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    timeout: float = 30.0,
    on_problem: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """:func:`list_tools_http` for synchronous callers (the CLI); not inside a running loop.

    With ``on_problem``, warnings the MCP SDK logs go there, one line each, instead.
    """
    coro = list_tools_http(url, headers=headers, timeout=timeout)
    if on_problem is None:
        return asyncio.run(coro)
    with _sdk_log_to(_shown_url(_check_url(url)), on_problem):
        return asyncio.run(coro)


@contextlib.contextmanager
def _sdk_log_to(shown: str, sink: Callable[[str], None]) -> Any:
    """While the block runs, the MCP SDK's warnings go to ``sink`` (one line each) only."""
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
