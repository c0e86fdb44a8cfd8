"""`toolcast proxy` on this process's stdin/stdout, ended by SIGINT, SIGTERM or SIGHUP within a bound: the
servers (and their process groups) are stopped, then the process exits, whether or not its client
still holds standard input open."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from typing import Any

import anyio

__all__ = ["serve_stdio"]

# (SIGHUP: the terminal the proxy ran in closed, or its host hung up: stopped alike, exit 129)
_SIGNALS = tuple(s for s in (signal.SIGINT, getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
                 if s is not None)
#: How long stopping the servers may take after a signal before the process exits anyway.
STOP_BOUND = 10.0


def _exit(signum: int) -> None:
    """Leave at once: the MCP SDK reads stdin in a worker thread that cannot be cancelled, and the
    loop would wait for it (for the client to close stdin) before exiting."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(128 + signum)


def serve_stdio(proxy: Any, serve: Any) -> None:
    """Run ``serve(proxy, read, write)`` on stdin/stdout until the client leaves or a signal comes."""
    import threading

    from mcp.server.stdio import stdio_server

    got: list[int] = []

    async def watch(scope: anyio.CancelScope) -> None:
        with anyio.open_signal_receiver(*_SIGNALS) as signals:
            async for signum in signals:
                if got:  # a second signal while the servers stop: leave now
                    _exit(signum)
                got.append(signum)
                proxy._say(f"stopping on {signal.Signals(signum).name}")
                timer = threading.Timer(STOP_BOUND, _exit, (signum,))  # even if stopping hangs
                timer.daemon = True
                timer.start()
                scope.cancel()

    async def main() -> None:
        async with stdio_server() as (read, write):
            async with anyio.create_task_group() as tg:
                tg.start_soon(watch, tg.cancel_scope)
                await serve(proxy, read, write)
                tg.cancel_scope.cancel()
            if got:
                _exit(got[0])

    try:
        anyio.run(main)
    except KeyboardInterrupt:  # a signal before the receiver was installed
        _exit(signal.SIGINT)
