"""Run tool calls against MCP client sessions and list the tools of stdio MCP servers."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import tempfile
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolcast._openai_runtime import _ErrorText, tool_output

if TYPE_CHECKING:
    from toolcast._openai_runtime import Api, StructuredMode, ToolCall

__all__ = [
    "McpServerError",
    "execute_tool_calls",
    "list_tools",
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
    api: Api,
    timeout: float | None,
    error_prefix: str,
    structured: StructuredMode,
) -> dict[str, Any]:
    def failed(message: str) -> dict[str, Any]:
        return tool_output(call.call_id, _ErrorText(message), api=api, error_prefix=error_prefix)

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
        return tool_output(
            call.call_id, result, api=api, error_prefix=error_prefix, structured=structured
        )
    except Exception as exc:  # whatever a session returned, this call still gets an output
        return failed(f"{where} returned {_exception_text(exc)}")


def _exception_text(exc: BaseException) -> str:
    """The exception's message on one line; its type when it has none or cannot be printed."""
    try:
        text = " ".join(str(exc).split())
    except Exception:  # str() of an exception holding a deep or broken value
        text = ""
    return text[:1000] or type(exc).__name__


async def execute_tool_calls(
    calls: Sequence[ToolCall],
    sessions: Mapping[str, Any],
    *,
    api: Api | None = None,
    timeout: float | None = 30.0,
    error_prefix: str = "Error: ",
    structured: StructuredMode = "auto",
) -> list[dict[str, Any]]:
    """Call every tool concurrently on its server's session; one output per call, in order.

    ``sessions`` maps the server prefixes given to ``ToolSet.build`` to objects with an
    async ``call_tool(name, arguments)`` (``mcp.ClientSession``, ``mcp.Client``). ``api``
    defaults to each call's own API. A missing session, a server error, a crash or a
    call that takes longer than ``timeout`` seconds becomes an error output for that
    call only.
    """
    jobs = [
        _run_one(call, sessions, api or call.api, timeout, error_prefix, structured)
        for call in calls
    ]
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


def _stderr_tail(errlog: Any) -> str:
    try:
        errlog.flush()
        errlog.seek(0)
        lines = [line.strip() for line in errlog.read().splitlines() if line.strip()]
    except (OSError, ValueError):
        return ""
    return lines[-1][:300] if lines else ""


@contextlib.asynccontextmanager
async def stdio_session(
    command: str | Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    errlog: Any = None,
) -> AsyncIterator[Any]:
    """Start a stdio MCP server and yield an initialized ``mcp.ClientSession``.

    ``command`` is a shell-like string (split with :func:`shlex.split`) or an argv list.
    ``errlog`` receives the server's stderr (a real file; default: a temporary file that
    is discarded, so server logs do not mix with ours).
    """
    from mcp import ClientSession, StdioServerParameters, stdio_client

    argv = _resolve(command) if isinstance(command, str) else _resolve(shlex.join(command))
    params = StdioServerParameters(
        command=argv[0], args=argv[1:], env=dict(env) if env else None, cwd=cwd
    )
    with contextlib.ExitStack() as stack:
        log = errlog
        if log is None:
            log = stack.enter_context(
                tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")
            )
        async with (
            stdio_client(params, errlog=log) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


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
) -> list[dict[str, Any]]:
    """Start the stdio MCP server ``command``, list all its tools (every page), stop it.

    Returns plain MCP tool dicts (``name``, ``description``, ``inputSchema``, ...).
    Raises :class:`McpServerError` with a one-line message when the command is not
    found, the server exits or fails, or it does not answer within ``timeout`` seconds.
    """
    argv = _resolve(command)
    shown = shlex.split(command)[0]
    try:
        import mcp  # noqa: F401  (checked up front: a missing SDK is not a server failure)
    except ImportError:
        raise McpServerError(
            "listing MCP tools needs the MCP SDK: pip install 'toolcast[mcp]'"
        ) from None
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as log:
        try:
            async with asyncio.timeout(timeout):
                async with stdio_session(argv, env=env, cwd=cwd, errlog=log) as session:
                    return await list_tools(session)
        except McpServerError:
            raise
        except TimeoutError:  # asyncio.timeout's own
            tail = _stderr_tail(log)
            raise McpServerError(
                f"MCP server {shown!r} did not answer within {timeout:g} s"
                + (f" (stderr: {tail})" if tail else "")
            ) from None
        except (Exception, BaseExceptionGroup) as exc:
            inner = _innermost(exc)
            if isinstance(inner, McpServerError):
                raise McpServerError(str(inner)) from None
            if isinstance(inner, TimeoutError):
                raise McpServerError(
                    f"MCP server {shown!r} did not answer within {timeout:g} s"
                ) from None
            tail = _stderr_tail(log)
            detail = _one_line(exc)
            if detail == "Connection closed":
                # The SDK's wording for a server that exited or closed stdout mid-handshake.
                detail = "it exited or closed its output before answering"
            raise McpServerError(
                f"MCP server {shown!r} failed: {detail}" + (f" (stderr: {tail})" if tail else "")
            ) from None


def list_tools_stdio_sync(
    command: str,
    *,
    timeout: float = 30.0,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
) -> list[dict[str, Any]]:
    """:func:`list_tools_stdio` for synchronous callers (the CLI); not inside a running loop."""
    return asyncio.run(list_tools_stdio(command, timeout=timeout, env=env, cwd=cwd))
