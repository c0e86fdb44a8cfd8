"""One server the proxy fronts: its connection opened on demand and again after a crash, its notifications heard."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import IO, Any

import anyio

from toolcast.mcp_runtime import McpServerError, _exception_text

#: After a call failed as if its server were gone, how long one ping may take to show it alive.
LIVENESS_WAIT = 5.0
#: An HTTP server's liveness is asked this many times, and a failed listing tried this many times,
#: BACKOFF seconds apart at first, doubling up to BACKOFF_MAX (see _Upstream.alive). A stdio
#: server's ping fails only when its pipes are gone, so it is asked once.
HTTP_TRIES = 4
BACKOFF = 0.25
BACKOFF_MAX = 2.0


def backoff(attempt: int) -> float:
    """The pause before try ``attempt`` (0: the first, no pause)."""
    return 0.0 if attempt == 0 else min(BACKOFF * 2 ** (attempt - 1), BACKOFF_MAX)


async def answers_ping(session: Any, timeout: float) -> bool:
    """Whether the server answers a ping on ``session`` within LIVENESS_WAIT. A ping not answered
    in time is not taken for a death: only a failed ping is (as a hung call is not), so that a slow
    server's calls in flight are not failed."""
    try:
        with anyio.move_on_after(min(timeout, LIVENESS_WAIT)):
            await session.send_ping()
    except Exception:
        return False
    return True


def _reason(exc: BaseException) -> str:
    """An exception as one line; an MCP error by its message (its str() is a tuple)."""
    message = getattr(exc, "message", None)
    if isinstance(message, str) and message.strip():
        return " ".join(message.split())[:1000]
    return _exception_text(exc)


class _Upstream:
    """One server's connection: opened on demand in the proxy's task group, reopened after a crash."""

    def __init__(
        self, spec: Any, err: IO[str] | None, on_tools_changed: Callable[[], None]
    ) -> None:
        self.spec = spec
        self.err = err
        self.on_tools_changed = on_tools_changed
        self.session: Any = None
        self.output: Any = None  # stdio only: the server's stderr tail and exit status
        self.health: Any = None  # HTTP only: what the current session's client saw of the server
        self.starts = 0
        self._closing: anyio.Event | None = None
        self._lock = anyio.Lock()

    def _open(self) -> contextlib.AbstractAsyncContextManager[Any]:
        from toolcast import mcp_runtime

        spec = self.spec
        if spec.url is not None:
            from toolcast._runtime.mcp_http import HttpHealth

            self.health = HttpHealth()
            return mcp_runtime.http_session(
                spec.url, headers=spec.headers, timeout=spec.timeout, message_handler=self._message,
                health=self.health,
            )
        from toolcast._runtime.mcp_stdio import ServerOutput

        assert spec.command is not None
        argv = mcp_runtime._resolve(spec.command)
        self.output = ServerOutput(spec.name, self._problem)
        return mcp_runtime._session(
            argv,
            self.output,
            env=getattr(spec, "env", None),
            cwd=None,
            errlog=self.err,
            startup_timeout=spec.timeout,
            message_handler=self._message,
        )

    async def _message(self, message: Any) -> None:
        """The server's notifications: a changed tool list is acted on (not here: the SDK calls
        this inline, and listing again must not wait inside it); the rest are not for us."""
        import mcp_types as types

        if isinstance(message, types.ToolListChangedNotification):
            self.on_tools_changed()

    def _problem(self, line: str) -> None:
        if self.err is not None:
            with contextlib.suppress(Exception):
                self.err.write(f"toolcast proxy: warning: {line}\n")
                self.err.flush()

    async def connect(self, tg: Any) -> Any:
        """The live session, started (or restarted) first when there is none."""
        async with self._lock:
            if self.session is not None:
                return self.session
            ready = anyio.Event()
            failure: list[BaseException] = []
            closing = self._closing = anyio.Event()

            async def hold() -> None:
                try:
                    async with self._open() as session:
                        self.session = session
                        ready.set()
                        await closing.wait()
                except (Exception, BaseExceptionGroup) as exc:
                    failure.append(exc)
                finally:
                    self.session = None
                    ready.set()

            tg.start_soon(hold)
            await ready.wait()
            if self.session is None:
                exc = failure[0] if failure else McpServerError("it stopped at once")
                if isinstance(exc, McpServerError):
                    raise McpServerError(str(exc))
                raise McpServerError(f"{self.spec.shown} failed to start: {_reason(exc)}")
            self.starts += 1
            return self.session

    async def list(self, tg: Any) -> list[dict[str, Any]]:
        """Connect (when not connected) and list the server's tools; an HTTP server's listing is
        tried HTTP_TRIES times with back-off (one cut connection is no outage)."""
        from toolcast.mcp_runtime import list_tools

        tries = HTTP_TRIES if self.spec.url is not None else 1
        for attempt in range(tries):
            await anyio.sleep(backoff(attempt))
            try:
                session = await self.connect(tg)
                with anyio.fail_after(self.spec.timeout):
                    return await list_tools(session)
            except (Exception, BaseExceptionGroup) as exc:
                if attempt == tries - 1:
                    raise await self._list_failure(exc) from None
        raise AssertionError("unreachable")

    async def _list_failure(self, exc: BaseException) -> McpServerError:
        """Why listing failed, on one line: the start's own message, the timeout, what was wrong
        with the answer, or how the server ended (its exit status and stderr)."""
        from toolcast.mcp_runtime import _answer_problem, _innermost

        inner = _innermost(exc)
        if isinstance(inner, McpServerError):
            return McpServerError(str(inner))
        if isinstance(inner, TimeoutError):
            return McpServerError(f"it did not answer tools/list within {self.spec.timeout:g} s")
        answered = _answer_problem(inner)
        if answered is not None:
            return McpServerError(answered)
        await self.settle()
        return McpServerError(f"tools/list failed: {_reason(inner)}{self.exit_detail()}")

    def forgotten(self, session: Any) -> bool:
        """Whether the HTTP server said it does not know ``session`` (404): it must be started anew."""
        return self.session is session and self.health is not None and self.health.session_unknown

    async def alive(self, session: Any, timeout: float) -> bool:
        """Whether ``session``, the current one, still has its server after a call on it failed as
        if the server were gone. A stdio server is asked one ping. An HTTP server is asked up to
        HTTP_TRIES pings with back-off, and is alive as soon as one is answered or the server takes
        part in any exchange of the session meanwhile (a ping cut off, like a request cut off, shows
        the server there); it is gone when it says it does not know the session, or when no ping
        (nor anything else) reached it: every connection refused, or the session closed here."""
        if self.session is not session:
            return False
        health = self.health
        if self.spec.url is None or health is None:
            return await answers_ping(session, timeout)
        reached = health.reached
        for attempt in range(HTTP_TRIES):
            await anyio.sleep(backoff(attempt))
            if self.session is not session or health.session_unknown:
                return False
            if await answers_ping(session, timeout):
                return not health.session_unknown
            if health.session_unknown:
                return False
            if health.reached > reached:
                return True
        return False

    def drop(self, session: Any) -> None:
        """End ``session`` (when it is still the current one); the next call starts anew."""
        if self.session is session and self._closing is not None:
            self.session = None
            self._closing.set()

    async def settle(self) -> None:
        """Give a stdio server that closed its output a moment to be seen exited, for messages."""
        for _ in range(10):
            if self.output is None or self.output.returncode is not None:
                return
            await anyio.sleep(0.05)

    def exit_detail(self) -> str:
        output = self.output
        if output is None:
            return ""
        bits = []
        if output.returncode is not None:
            bits.append(f"exit status {output.returncode}")
        tail = output.stderr_tail()
        if tail:
            bits.append(f"stderr: {tail}")
        return f" ({'; '.join(bits)})" if bits else ""
