"""Run tool calls against MCP client sessions; stdio servers; the MCP API in one place (HTTP from _runtime.mcp_http)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import shutil
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolcast._runtime.mcp_http import (
    _shown_url as _shown_url,  # the CLI names a URL as messages do
)
from toolcast._runtime.mcp_http import http_session, list_tools_http, list_tools_http_sync
from toolcast._runtime.mcp_session import (
    McpServerError,
    _exception_text,
    _innermost,
    _one_line,
    _sdk_log_to,
    initialized,
    list_tools,
)
from toolcast._runtime.results import _ErrorText
from toolcast.providers.openai import ToolCall, tool_output

if TYPE_CHECKING:
    from toolcast._runtime.mcp_stdio import ServerOutput
    from toolcast._runtime.results import StructuredMode
    from toolcast.providers.openai import Api

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

    local = getattr(call, "local", None)
    if local is not None:  # a local Python function (ToolSet.build), called in this process
        from toolcast._runtime.local_run import call_local

        result = await call_local(call.name, local, call.arguments, timeout)
        try:
            return _shape(call, result, api, error_prefix, structured)
        except Exception as exc:  # (a CallToolResult the function built that is no result)
            return failed(f"tool {call.name!r} returned {_exception_text(exc)}")
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
    except BaseExceptionGroup as exc:  # (an ExceptionGroup too: it is both)
        task = asyncio.current_task()
        leaves = _leaves(exc)
        if not all(isinstance(e, (Exception, asyncio.CancelledError)) for e in leaves) or (
                not isinstance(exc, Exception) and (task is None or task.cancelling())):
            raise  # an interrupt, or the caller cancelled us
        if all(isinstance(e, asyncio.CancelledError) for e in leaves):
            # A session's task group cancelled its own call (anyio wraps it in a group): this call fails.
            return failed(f"{where} was cancelled by its session")
        return failed(f"{where} failed: {_exception_text(next(e for e in leaves if isinstance(e, Exception)))}")
    except Exception as exc:
        return failed(f"{where} failed: {_exception_text(exc)}")
    try:
        return _shape(call, result, api, error_prefix, structured)
    except Exception as exc:  # whatever a session returned, this call still gets an output
        return failed(f"{where} returned {_exception_text(exc)}")


def _leaves(exc: BaseException) -> list[BaseException]:
    """The exceptions an exception group holds, nested groups opened (the exception itself otherwise)."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


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


async def execute_tool_calls(
    calls: Sequence[Any],
    sessions: Mapping[str, Any],
    *,
    api: Api | None = None,
    timeout: float | None = 30.0,
    error_prefix: str = "Error: ",
    structured: StructuredMode = "auto",
    rejected: Sequence[Any] = (),
) -> list[dict[str, Any]]:
    """Call every tool concurrently on its server's session; one output per call, in order.

    ``calls`` come from any target's ``tool_calls`` (OpenAI, Anthropic, Gemini); each
    output is in its call's provider shape. ``sessions`` maps the server prefixes given to
    ``ToolSet.build`` to objects with an async ``call_tool(name, arguments)``
    (``mcp.ClientSession``, ``mcp.Client``). A call to a local Python function of the
    ToolSet needs no session: its arguments are validated and converted by pydantic to the
    parameters' types (invalid ones are that call's error output, the function not called),
    an async function is awaited, a sync one runs in a thread of its own, under the same
    ``timeout`` (a generator it returns read there, an awaitable it returns awaited); its return value (a string, a JSON value, a pydantic model, the mcp SDK's
    content or CallToolResult) or its exception is that call's output. ``api`` (OpenAI calls only) defaults to each
    call's own API. A missing session, a server error, a crash or a
    call that takes longer than ``timeout`` seconds becomes an error output for that
    call only.

    Given the ``rejected`` outputs of the same ``tool_calls`` (with ``calls`` as it returned them),
    the answer is every call's output in the response's order, rejected ones in their place: what
    Gemini calls without an ``id``, answered by position, need (``rejected + outputs`` would move
    the rejected ones first).
    """
    jobs = [_run_one(call, sessions, api, timeout, error_prefix, structured) for call in calls]
    # _run_one turns every failure of its call into that call's output, so one call can
    # never take the others' outputs with it.
    outputs = list(await asyncio.gather(*jobs))
    if not rejected:
        return outputs
    from toolcast._runtime.call_order import in_call_order

    return in_call_order(outputs, rejected)


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


_CLOSED_WORDING = frozenset({"Connection closed", "BrokenResourceError", "ClosedResourceError", "EndOfStream"})


def _startup_failure(
    exc: BaseException, shown: str, output: ServerOutput, startup_timeout: float | None
) -> McpServerError:
    inner = _innermost(exc)
    if isinstance(inner, McpServerError):
        return McpServerError(str(inner))
    if isinstance(inner, TimeoutError) and startup_timeout is not None:
        return McpServerError(
            _with_output(
                f"MCP server {shown!r} did not answer initialize within {startup_timeout:g} s",
                output,
            )
        )
    if isinstance(inner, FileNotFoundError | PermissionError):
        return McpServerError(f"MCP server {shown!r} could not be started: {_one_line(inner)}")
    answered = _answer_problem(inner)
    if answered is not None:  # the server answered: what it said, not how it ended afterwards
        return McpServerError(_with_output(f"MCP server {shown!r} failed: {answered}", output))
    detail = _one_line(exc)
    # The SDK's wording (or a bare stream error) for a server that exited or closed stdout
    # mid-handshake. Any other failure keeps its own text: the exit status is then toolcast's
    # own stop of the server, not a reason.
    if detail in _CLOSED_WORDING:
        detail = "it exited or closed its output before answering"
        if output.returncode is not None:
            detail += f" (exit status {output.returncode})"
    return McpServerError(_with_output(f"MCP server {shown!r} failed: {detail}", output))


def _answer_problem(exc: BaseException) -> str | None:
    """What was wrong with an answer the server gave (a JSON-RPC error, a result that is not
    valid MCP), as one line; None for any other failure."""
    error = getattr(exc, "error", None)  # mcp.McpError: the server's own error object
    message = getattr(error, "message", None)
    if isinstance(message, str) and message != "Connection closed":  # (the SDK's own, for a server gone)
        return f"it answered with an error: {' '.join(message.split())[:500]}"
    errors = getattr(exc, "errors", None)
    if type(exc).__name__ == "ValidationError" and callable(errors):  # pydantic's, from the SDK's result types
        try:
            found = errors()
            first = found[0]
            where = "".join(f"[{t}]" if isinstance(t, int) else f".{t}" for t in first["loc"]).lstrip(".")
            return (f"its answer is not valid MCP ({len(found)} problem(s); {where or 'the result'}: "
                    f"{' '.join(str(first['msg']).split())[:300]})")
        except Exception:  # (an errors() list of another shape than pydantic's)
            return "its answer is not valid MCP"
    return None


@contextlib.asynccontextmanager
async def _opened(
    argv: Sequence[str], output: ServerOutput, env: Any, cwd: Any, errlog: Any,
    message_handler: Any,
) -> AsyncIterator[Any]:
    from mcp import ClientSession

    from toolcast._runtime.mcp_stdio import open_stdio

    async with (
        open_stdio(argv, output, env=env, cwd=cwd, errlog=errlog) as (read, write),
        ClientSession(read, write, message_handler=message_handler) as session,
    ):
        yield session


def _session(
    argv: Sequence[str],
    output: ServerOutput,
    *,
    env: Mapping[str, str] | None,
    cwd: str | os.PathLike[str] | None,
    errlog: Any,
    startup_timeout: float | None,
    message_handler: Any = None,
) -> contextlib.AbstractAsyncContextManager[Any]:
    """An initialized session of the stdio server ``argv``; McpServerError if it does not start.
    The server's notifications go to ``message_handler`` (the SDK's ClientSession callback)."""
    return initialized(
        _opened(argv, output, env, cwd, errlog, message_handler),
        startup_timeout,
        lambda exc: _startup_failure(exc, output.name, output, startup_timeout),
    )


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
    from toolcast._runtime.mcp_stdio import ServerOutput

    argv = _resolve(command) if isinstance(command, str) else _resolve(shlex.join(command))
    shown = _shown(command) if isinstance(command, str) else str(next(iter(command)))
    output = ServerOutput(shown, on_problem)
    async with _session(
        argv, output, env=env, cwd=cwd, errlog=errlog, startup_timeout=startup_timeout
    ) as session:
        yield session


def _shown(command: str) -> str:
    """The program a command string names, for messages (the string itself when it names none)."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return command
    return argv[0] if argv else command


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
    from toolcast._runtime.mcp_stdio import ServerOutput

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
        raise _startup_failure(exc, shown, output, None) from None


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
    _resolve(command)  # (a command that names no program is an error before anything starts)
    coro = list_tools_stdio(command, timeout=timeout, env=env, cwd=cwd, on_problem=on_problem)
    if on_problem is None or on_problem is _log_problem:
        return asyncio.run(coro)
    with _sdk_log_to(_shown(command), on_problem):
        return asyncio.run(coro)


