"""MCP over Streamable HTTP: connect with headers that never reach a message, list tools, one-line errors."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from toolcast._runtime.mcp_session import (
    McpServerError,
    _innermost,
    _one_line,
    _sdk_log_to,
    initialized,
    list_tools,
)

__all__ = ["HttpHealth", "authorization", "check_credentials", "http_session", "list_tools_http",
           "list_tools_http_sync"]


class HttpHealth:
    """What one session's HTTP client has seen of its server, for telling a dead server from a cut
    connection. ``reached`` counts the exchanges the server took part in: an HTTP answer of any
    status, or a connection it accepted and then cut or left unanswered (a refused or failed
    connect is not counted). ``session_unknown`` is set once the server answers 404 to a request
    carrying the session's ``Mcp-Session-Id``: it has ended or forgotten the session."""

    def __init__(self) -> None:
        self.reached = 0
        self.session_unknown = False


def _shown_url(url: str) -> str:
    """``url`` without user info, query or fragment, for messages: none may carry a secret out.
    Never raises: a URL that is not valid is shown as far as it goes (`notaurl`, `http://h:99999/`)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url.strip())
    except ValueError:  # (an unclosed IPv6 bracket)
        return "<invalid URL>"
    host = parts.netloc.rpartition("@")[2]  # host[:port] as written
    return (f"{parts.scheme}://{host}{parts.path}" if parts.scheme or parts.netloc else parts.path) or "<invalid URL>"


def _check_url(url: Any) -> str:
    from urllib.parse import urlsplit

    if not isinstance(url, str) or not url.strip():
        raise McpServerError(f"MCP server URL must be a non-empty string, got {url!r}")
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018  (raises on a port that is not a number)
    except ValueError as exc:
        raise McpServerError(f"MCP server URL {_shown_url(url)!r} is not a valid URL: {exc}") from None
    if parts.scheme not in ("http", "https"):
        raise McpServerError(f"MCP server URL {_shown_url(url)!r} is not an http:// or https:// URL")
    if not parts.hostname:
        raise McpServerError(f"MCP server URL {_shown_url(url)!r} names no host")
    return url.strip()


def check_credentials(url: str, headers: Mapping[str, str] | None) -> None:
    """Refuse a URL with user info (``user:password@``) when a token goes in the Authorization
    header too: httpx would send the user info as Basic auth in its place, without a word. The
    message never shows the user info."""
    from urllib.parse import urlsplit

    if not any(str(key).lower() == "authorization" for key in (headers or {})):
        return
    try:
        has_user = "@" in urlsplit(url.strip()).netloc
    except ValueError:
        return  # (_check_url says why the URL is not valid)
    if has_user:
        raise McpServerError(
            f"MCP server URL {_shown_url(url)!r} carries user info (user:password@) and a token is given "
            "for the Authorization header: remove the user info from the URL"
        )


def _header_problem(value: str) -> str | None:
    """Why ``value`` cannot go in an HTTP header, never quoting it; None when it can."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
        return "holds a control character (a line break, say), which an HTTP header cannot carry"
    if not value.isascii():
        return "holds a character outside ASCII, which an HTTP header cannot carry"
    return None


def authorization(value: str, where: str) -> str:
    """The Authorization header for a token (or ``SCHEME TOKEN``) read from the environment.
    ValueError starting with ``where`` (the option and variable), never the value, when it is empty or
    holds what a header cannot carry: the HTTP client would quote it in its error."""
    value = value.strip()
    if not value:
        raise ValueError(f"{where} is not set or empty")
    problem = _header_problem(value)
    if problem is not None:
        raise ValueError(f"{where} {problem}")
    return value if " " in value else f"Bearer {value}"


def _check_headers(headers: Mapping[str, str] | None) -> None:
    for key, value in (headers or {}).items():
        problem = _header_problem(str(value))
        if problem is not None:
            raise McpServerError(f"the value of header {str(key)[:60]!r} {problem}")


def _scrub(text: str, secrets: Any) -> str:
    """``text`` with every piece (of 4 characters or more) of each header value in ``secrets``
    masked: a message may quote a header, escaped or not, and none may carry a secret out."""
    import re

    for secret in secrets:
        for piece in sorted(re.split(r"[^\x21-\x7e]+", str(secret)), key=len, reverse=True):
            if len(piece) >= 4:
                text = text.replace(piece, "***")
    return text


# JSON-RPC error codes of the answers the client below makes up (those the MCP SDK uses too).
_CONNECTION_FAILED = -32000  # mcp_types.CONNECTION_CLOSED
_TIMED_OUT = -32001  # mcp_types.REQUEST_TIMEOUT


def _answering_client(headers: Mapping[str, str] | None, timeout: float | None,
                      health: HttpHealth | None = None) -> Any:
    """An httpx2 client whose failed exchange is an answer: the MCP SDK sends each request from a
    task of its transport's task group, where an httpx2 error would end the whole session (every
    call in flight lost). A request the server never answers (refused, dropped, timed out) gets an
    HTTP error response with a JSON-RPC error instead, which the SDK gives that request alone; a
    body cut off midway raises a StreamError, which the SDK turns into that request's error. What
    the server did with each exchange goes to ``health``."""
    import httpx2

    from toolcast._runtime.stdio_lines import answer_budget

    secrets = tuple((headers or {}).values())

    class _Body(httpx2.AsyncByteStream):
        """An answer's body, each chunk counted in the process's answer budget (`--memory-budget`)
        while it is read: until the body ends, or (server-sent events) until the event it ends is
        whole. A chunk that would take the budget over fails the body, so its request alone."""

        def __init__(self, inner: Any, events: bool) -> None:
            self.inner, self.events, self.held = inner, events, 0

        async def __aiter__(self) -> Any:
            over: Exception | None = None
            try:
                async for chunk in self.inner:
                    if not answer_budget.take(len(chunk)):
                        why = f"its answer would exceed the proxy's memory budget of {answer_budget.total / 2**20:g} MiB"
                        # (the SDK fails the request with an SSEError's text; a StreamError's for JSON)
                        over = (httpx2.SSEError if self.events else httpx2.StreamError)(why)
                        raise over
                    self.held += len(chunk)
                    end = max(chunk.rfind(b"\n\n"), chunk.rfind(b"\n\r\n")) if self.events else -1
                    if end >= 0:  # (the events it ends are whole: the SDK takes them from here)
                        self._give(self.held - (len(chunk) - end))
                    yield chunk
            except httpx2.TransportError as exc:
                if exc is over:
                    raise
                raise httpx2.StreamError(f"its answer was cut off: {_why(exc, timeout, secrets)}") from None
            finally:
                self._give(self.held)

        def _give(self, size: int) -> None:
            answer_budget.give(size)
            self.held -= size

        async def aclose(self) -> None:
            self._give(self.held)
            await self.inner.aclose()

    class _Client(httpx2.AsyncClient):
        async def send(self, request: Any, **kwargs: Any) -> Any:
            try:
                response = await super().send(request, **kwargs)
            except httpx2.TransportError as exc:
                if health is not None and isinstance(exc, _REACHED):
                    health.reached += 1  # (it accepted the connection: no death)
                timed_out = isinstance(exc, httpx2.TimeoutException)
                why = _why(exc, timeout, secrets)
                why = why if timed_out else f"the HTTP request failed: {why}"
                error = {"code": _TIMED_OUT if timed_out else _CONNECTION_FAILED, "message": why}
                body = json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode()
                return httpx2.Response(504 if timed_out else 502, request=request, content=body,
                                       headers={"content-type": "application/json"})
            if health is not None:
                if response.status_code == 404 and "mcp-session-id" in request.headers:
                    health.session_unknown = True
                else:
                    health.reached += 1
            if kwargs.get("stream"):
                events = response.headers.get("content-type", "").startswith("text/event-stream")
                response.stream = _Body(response.stream, events)
            return response

    # The failures that come after the server accepted the connection (a connect error, a pool or
    # connect timeout, a proxy error come before).
    _REACHED = (httpx2.RemoteProtocolError, httpx2.ReadError, httpx2.ReadTimeout)
    return _Client(headers=dict(headers or {}), timeout=httpx2.Timeout(timeout))


def _why(exc: Exception, timeout: float | None, secrets: Any = ()) -> str:
    """An httpx2 transport error as the reason a request got no (whole) answer, on one line."""
    import httpx2

    if isinstance(exc, httpx2.TimeoutException):
        within = f" within {timeout:g} s" if timeout is not None else ""
        return f"the server did not answer{within} ({type(exc).__name__})"
    return _scrub(_one_line(exc), secrets)[:300]


def _http_failure(exc: BaseException, shown: str, timeout: float | None, secrets: Any = ()) -> McpServerError:
    inner = _innermost(exc)
    if isinstance(inner, McpServerError):
        return McpServerError(str(inner))
    timed_out = getattr(inner, "code", None) == _TIMED_OUT and hasattr(inner, "error")  # (the client's)
    if timed_out or isinstance(inner, TimeoutError) or type(inner).__name__.endswith("Timeout"):
        within = f" within {timeout:g} s" if timeout is not None else ""
        return McpServerError(f"MCP server at {shown!r} did not answer{within}")
    response = getattr(inner, "response", None)
    status = getattr(response, "status_code", None)
    if status is not None:
        return McpServerError(f"MCP server at {shown!r} answered HTTP {status}")
    return McpServerError(f"MCP server at {shown!r} failed: {_scrub(_one_line(inner), secrets)[:300]}")


@contextlib.asynccontextmanager
async def http_session(
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    timeout: float | None = 30.0,
    message_handler: Any = None,
    health: HttpHealth | None = None,
) -> AsyncIterator[Any]:
    """Connect to a Streamable HTTP MCP server and yield an initialized ``mcp.ClientSession``.

    ``headers`` go with every request (an ``Authorization`` header, say); they never appear
    in messages (a value with a control character or outside ASCII is refused, unquoted). ``timeout`` bounds connecting, each HTTP read and ``initialize`` (None: no
    limit). A bad URL, a refused connection, an HTTP error, an answer that is not MCP or a
    server that does not answer in time raises :class:`McpServerError` with a one-line
    message naming the URL (without its user info or query). Once started, a request whose
    connection fails (refused, dropped, cut off, timed out) fails alone, with an MCP error (code
    -32000, or -32001 for a timeout); the session goes on. The server's notifications
    (``notifications/tools/list_changed``, ...) go to ``message_handler``, the SDK
    ``ClientSession``'s callback, which must not wait on the session itself. ``health`` (an
    :class:`HttpHealth`) is kept up to date with what the server did with each exchange.
    """
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    url = _check_url(url)
    shown = _shown_url(url)
    check_credentials(url, headers)
    _check_headers(headers)

    @contextlib.asynccontextmanager
    async def opened() -> AsyncIterator[Any]:
        async with (
            _answering_client(headers, timeout, health) as client,
            streamable_http_client(url, http_client=client) as (read, write),
            ClientSession(
                read, write, read_timeout_seconds=timeout, message_handler=message_handler
            ) as session,
        ):
            yield session

    async with initialized(
        opened(), timeout, lambda exc: _http_failure(exc, shown, timeout, (headers or {}).values())
    ) as session:
        yield session


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
        raise _http_failure(exc, shown, timeout, (headers or {}).values()) from None


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
    shown = _shown_url(_check_url(url))  # (before the coroutine exists: one never run warns)
    coro = list_tools_http(url, headers=headers, timeout=timeout)
    if on_problem is None:
        return asyncio.run(coro)
    with _sdk_log_to(shown, on_problem):
        return asyncio.run(coro)
