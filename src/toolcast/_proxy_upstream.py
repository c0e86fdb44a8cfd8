"""One server the proxy fronts: its connection opened on demand and again after a crash, its notifications heard."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import IO, Any

import anyio

from toolcast.mcp_runtime import McpServerError, _exception_text


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
        self.starts = 0
        self._closing: anyio.Event | None = None
        self._lock = anyio.Lock()

    def _open(self) -> contextlib.AbstractAsyncContextManager[Any]:
        from toolcast import mcp_runtime

        spec = self.spec
        if spec.url is not None:
            return mcp_runtime.http_session(
                spec.url, headers=spec.headers, timeout=spec.timeout, message_handler=self._message
            )
        from toolcast._mcp_stdio import ServerOutput

        assert spec.command is not None
        argv = mcp_runtime._resolve(spec.command)
        self.output = ServerOutput(spec.name, self._problem)
        return mcp_runtime._session(
            argv,
            self.output,
            env=None,
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
