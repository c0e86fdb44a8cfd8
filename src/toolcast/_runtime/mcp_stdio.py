"""A stdio transport for MCP servers: own process group, bounded stderr, one line per bad output line."""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import signal
import subprocess
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any

import anyio

from toolcast._runtime.json_limits import nests_past
from toolcast._runtime.stdio_lines import (
    AnswerBudget,
    LineReader,
    Skipped,
    answer_budget,
    answer_id,
    flatten_below,
)

__all__ = ["ServerOutput", "open_stdio"]

#: The bytes of a server's stderr kept for error messages; older output is dropped.
STDERR_TAIL_BYTES = 64 * 1024
#: A stdout line longer than this is skipped (reported), so one line cannot take all memory.
MAX_LINE_BYTES = 64 * 1024 * 1024
# A line longer than this is decoded and parsed in a worker thread, off the event loop.
_THREAD_BYTES = 1024 * 1024
# Of a message nested past Python's own JSON reader (about 1,000 levels), the levels read as they
# are: past MAX_DEFINITION_DEPTH (ToolSet) and tool_input.MAX_COPY_DEPTH (the compile) for any tool.
_KEPT_DEPTH = 600
#: Lines reported one by one; past this many only their number is reported, at the end.
MAX_REPORTED_PROBLEMS = 10
#: How long a server may take to exit after its stdin closes, before its group is signalled.
EXIT_GRACE = 2.0
#: From SIGTERM to SIGKILL.
TERM_GRACE = 1.0
# How often the exit of the server process is checked: asyncio's wait() would also wait for
# its pipes, which a child of the server may hold open long after the server died.
_POLL = 0.05
_CUT = 160
_KILL = getattr(signal, "SIGKILL", signal.SIGTERM)  # Windows has no SIGKILL (nor groups)


def cut(text: str, limit: int = _CUT) -> str:
    """``text`` on one line, at most ``limit`` characters (an ellipsis marks the cut)."""
    one = " ".join(
        text[: limit * 4].split()
    )  # a long line is not split whole: only its start shows
    return one if len(one) <= limit and len(text) <= limit * 4 else one[: limit - 1] + "…"


class ServerOutput:
    """What a server printed besides its messages: a bounded stderr tail and stdout problems."""

    def __init__(self, name: str, on_problem: Callable[[str], None] | None) -> None:
        self.name = name
        self._on_problem = on_problem
        self._tail: deque[bytes] = deque()
        self._tail_size = 0
        self.problems = 0
        self.last_junk = ""  # the last stdout line that was not a message, cut
        self.returncode: int | None = None

    def add_stderr(self, chunk: bytes) -> None:
        self._tail.append(chunk)
        self._tail_size += len(chunk)
        while self._tail_size - len(self._tail[0]) >= STDERR_TAIL_BYTES:
            self._tail_size -= len(self._tail.popleft())

    @property
    def stderr_bytes(self) -> int:
        """How many bytes of stderr are held (at most STDERR_TAIL_BYTES plus one chunk)."""
        return self._tail_size

    def stderr_tail(self) -> str:
        """The last non-empty line of stderr, on one line and cut to 300 characters."""
        text = b"".join(self._tail)[-STDERR_TAIL_BYTES:].decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return cut(lines[-1], 300) if lines else ""

    def problem(self, what: str, line: str) -> None:
        """Report a stdout line that is not a message (the first few, one line each)."""
        self.problems += 1
        self.last_junk = cut(line)
        if self.problems <= MAX_REPORTED_PROBLEMS:
            self.report(f"MCP server {self.name!r} {what} on stdout, skipped: {self.last_junk!r}")

    def finish(self) -> None:
        extra = self.problems - MAX_REPORTED_PROBLEMS
        if extra > 0:
            self.report(f"MCP server {self.name!r}: {extra} more such lines on stdout, skipped")

    def report(self, line: str) -> None:
        """Pass one line to the caller's sink (a sink that fails is ignored)."""
        if self._on_problem is not None:
            with contextlib.suppress(Exception):  # a broken sink must not break the session
                self._on_problem(line)


def _parse_reason(exc: Exception) -> str:
    """Why the SDK could not read a line: pydantic's first error, else the exception's text."""
    errors = getattr(exc, "errors", None)
    try:
        return str(errors()[0]["msg"]) if callable(errors) else str(exc)
    except Exception:
        return type(exc).__name__


def _unreadable_answer(ident: int | str, reason: str) -> dict[str, Any]:
    message = f"toolcast could not read the server's answer: {cut(reason)}"
    return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32700, "message": message}}


def _jsonrpc_parser() -> Callable[[str], Any]:
    try:  # mcp 2.x
        from mcp_types import jsonrpc_message_adapter

        return lambda line: jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ImportError:  # mcp 1.x
        from mcp.types import JSONRPCMessage

        return JSONRPCMessage.model_validate_json


def _jsonrpc_of_value() -> Callable[[Any], Any]:
    try:  # mcp 2.x
        from mcp_types import jsonrpc_message_adapter

        return lambda value: jsonrpc_message_adapter.validate_python(value, by_name=False)
    except ImportError:  # mcp 1.x
        from mcp.types import JSONRPCMessage

        return JSONRPCMessage.model_validate


def _too_nested(exc: Exception) -> bool:
    """Whether the SDK's JSON reader refused a line for its nesting alone (pydantic's reader
    stops at about 200 levels, where Python's json reads on to about 1000)."""
    return "recursion limit" in _parse_reason(exc)


def _server_env(env: Mapping[str, str] | None) -> dict[str, str]:
    # As the SDK's stdio_client: a safe default environment, with the caller's on top.
    from mcp.client.stdio import get_default_environment

    return get_default_environment() | dict(env or {})


def _signal_group(process: Any, sig: int) -> None:
    """Send ``sig`` to the server's whole process group (the server alone where there are none)."""
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        if hasattr(os, "killpg"):
            # The server leads its own session, so its pid is the group's id; the group lives
            # on (and can be signalled) while any member does, even after the server is reaped.
            os.killpg(process.pid, sig)
        elif process.returncode is None:
            process.kill()


async def _wait_exit(process: Any, seconds: float) -> bool:
    with anyio.move_on_after(seconds):
        while process.returncode is None:
            await anyio.sleep(_POLL)
    return process.returncode is not None


class _Pumps:
    """The tasks that move bytes between the server's pipes and the session's streams."""

    def __init__(self, process: Any, output: ServerOutput, errlog: Any) -> None:
        self.process = process
        self.output = output
        self.errlog = errlog
        self.parse = _jsonrpc_parser()
        self.of_value = _jsonrpc_of_value()
        from mcp.shared.message import SessionMessage

        self.message = SessionMessage
        self.read_send, self.read_recv = anyio.create_memory_object_stream(0)
        self.write_send, self.write_recv = anyio.create_memory_object_stream(0)
        self.stderr_done = anyio.Event()

    async def _deliver(self, raw: bytes) -> None:
        if len(raw) > _THREAD_BYTES:  # decoding and parsing a long line would hold up every server
            parsed = await anyio.to_thread.run_sync(self._parse_raw, raw)
            if parsed is not None:
                await self.read_send.send(self.message(parsed))
                return
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            why = f"it is not UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
            shown = raw.decode("utf-8", "replace")
            await self._skip(shown, "printed a line that is not UTF-8", answer_id(raw), why)
            return
        if not line.strip():
            return
        try:
            message = self.parse(line)
        except Exception as exc:  # not JSON, or JSON that is not a JSON-RPC message
            message = self._nested(line) if _too_nested(exc) else None
            if message is None:
                what = "printed a line that is not a JSON-RPC message"
                await self._skip(line, what, answer_id(raw), _parse_reason(exc))
                return
        await self.read_send.send(self.message(message))

    def _parse_raw(self, raw: bytes) -> Any:
        try:
            return self.parse(raw)  # (pydantic reads the bytes as they are: no decoded copy)
        except Exception as exc:  # reported by the caller, on the event loop
            return self._nested(raw) if _too_nested(exc) else None

    def _nested(self, line: str | bytes) -> Any:
        """A tools/list answer nested past the SDK's JSON reader, read with Python's json (None: it
        cannot be read either, or it is another message): the tool whose schema nests deeply is
        judged alone (ToolSet drops it, the compile refuses it), as it would be from a file. What
        nests past _KEPT_DEPTH levels (past Python's reader too) is cut to ``{}`` there, only inside
        the listed tools: a tool holding it nests past both limits still."""
        try:
            text = line.decode("utf-8") if isinstance(line, bytes) else line
            try:
                value, cut = json.loads(text), False
            except RecursionError:
                value, cut = json.loads(flatten_below(text, _KEPT_DEPTH)), True
            result = value.get("result") if type(value) is dict else None
            if type(result) is not dict or type(result.get("tools")) is not list:
                return None  # (another answer: its reader's refusal stands)
            if cut and nests_past([value.get("error"), value.get("id"), {**result, "tools": None}], 100):
                return None  # (the cut was outside the tools)
            return self.of_value(value)
        except (ValueError, RecursionError, TypeError):
            return None

    async def _skip(self, line: str, what: str, ident: int | str | None, why: str) -> None:
        """Report a line that is not a message; when it answers a request, that request fails
        now (its caller would otherwise wait out its timeout, or forever)."""
        answer = self._failure(ident, why)
        if answer is not None:
            what = f"printed an answer to request {cut(repr(ident), 40)} that cannot be read ({cut(why, 80)})"
        self.output.problem(what, line)
        if answer is not None:
            await self.read_send.send(answer)

    def _failure(self, ident: int | str | None, why: str) -> Any:
        """The error answer that fails request ``ident`` (None: no id the SDK could have sent)."""
        if ident is None:
            return None
        try:
            return self.message(self.parse(json.dumps(_unreadable_answer(ident, why))))
        except Exception:  # an id the SDK refuses: the line is only reported
            return None

    async def stdout(self) -> None:
        """Lines off the server's stdout, split and bounded at C speed (LineReader): a line too long,
        or over the answer budget, is passed over as it streams by, and the request it answers fails."""
        reader = LineReader(MAX_LINE_BYTES, answer_budget)
        try:
            async with self.read_send:
                async for chunk in self.process.stdout:
                    for line in reader.feed(chunk):
                        await self._line(line, reader.budget)
                for line in reader.close():
                    await self._line(line, reader.budget)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass  # the session or the pipe went away: the session sees the stream end
        finally:
            reader.budget.give(len(reader.buf))

    async def _line(self, line: bytearray | Skipped, budget: AnswerBudget) -> None:
        if isinstance(line, Skipped):
            head = line.head.decode("utf-8", "replace")
            self.output.problem(line.what, head)
            answer = self._failure(line.ident, line.why)
            if answer is not None:
                await self.read_send.send(answer)
            return
        try:
            await self._deliver(line)
        finally:
            budget.give(len(line))

    async def stdin(self) -> None:
        try:
            async with self.write_recv:
                async for session_message in self.write_recv:
                    try:
                        text = session_message.message.model_dump_json(
                            by_alias=True, exclude_unset=True
                        )
                        data = (text + "\n").encode("utf-8")
                    except Exception as exc:  # e.g. a lone surrogate in a tool's arguments
                        await self._unsendable(session_message.message, exc)
                        continue
                    await self.process.stdin.send(data)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            # The server stopped reading: end the session's stream rather than let a request wait.
            await self.read_send.aclose()

    async def _unsendable(self, message: Any, exc: Exception) -> None:
        """A message that cannot be written fails its own request; the session goes on."""
        inner = getattr(message, "root", message)  # mcp 1.x wraps the message in a RootModel
        ident, method = getattr(inner, "id", None), getattr(inner, "method", None)
        reason = cut(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        if ident is None or method is None:  # a notification or an answer: nobody waits for it
            self.output.report(
                f"could not send a message to MCP server {self.output.name!r}: {reason}"
            )
            return
        answer = {
            "jsonrpc": "2.0",
            "id": ident,
            "error": {"code": -32602, "message": f"toolcast could not send the request: {reason}"},
        }
        await self.read_send.send(self.message(self.parse(json.dumps(answer))))

    async def stderr(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        try:
            async for chunk in self.process.stderr:
                self.output.add_stderr(chunk)
                if self.errlog is not None:
                    with contextlib.suppress(Exception):  # the caller's log must not stop us
                        self.errlog.write(decoder.decode(chunk))
                        self.errlog.flush()
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass
        finally:
            self.stderr_done.set()

    async def watch(self) -> None:
        """When the server exits, end what it left behind, so its pipes close now."""
        while self.process.returncode is None:
            await anyio.sleep(_POLL)
        self.output.returncode = self.process.returncode
        _signal_group(self.process, _KILL)


async def _stop(process: Any, graceful: bool) -> None:
    """Close stdin, give the server EXIT_GRACE to exit (when ``graceful``), then end its group."""
    with contextlib.suppress(Exception):
        await process.stdin.aclose()
    if not (graceful and await _wait_exit(process, EXIT_GRACE)):
        _signal_group(process, signal.SIGTERM)
        if not await _wait_exit(process, TERM_GRACE):
            _signal_group(process, _KILL)
            await _wait_exit(process, TERM_GRACE)


@contextlib.asynccontextmanager
async def open_stdio(
    argv: Sequence[str],
    output: ServerOutput,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    errlog: Any = None,
) -> AsyncIterator[tuple[Any, Any]]:
    """Start ``argv`` in a new session (its own process group); yield the session's streams.

    On exit, whatever happened, the whole group is killed: children a server started
    (``sleep &``) do not outlive it. A server that exits while a child still holds its
    stdout is noticed at once: its group is ended, so the pipe closes. (A child that starts
    a session of its own, as a daemon does, has left the group and is not ended.)
    """
    process = await anyio.open_process(
        list(argv),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_server_env(env),
        cwd=cwd,
        start_new_session=os.name == "posix",
    )
    pumps = _Pumps(process, output, errlog)
    graceful = False
    try:
        async with anyio.create_task_group() as tg:
            for pump in (pumps.stdout, pumps.stdin, pumps.stderr, pumps.watch):
                tg.start_soon(pump)
            try:
                yield pumps.read_recv, pumps.write_send
                graceful = True
            finally:
                with anyio.CancelScope(shield=True):
                    await _stop(process, graceful)
                    with anyio.move_on_after(TERM_GRACE):  # the last of stderr, for messages
                        await pumps.stderr_done.wait()
                tg.cancel_scope.cancel()
    finally:
        # Synchronous, so that no cancellation can skip it: nothing of the group survives.
        _signal_group(process, _KILL)
        output.returncode = process.returncode
        output.finish()
        with anyio.CancelScope(shield=True):
            for stream in (process.stdin, process.stdout, process.stderr):
                with contextlib.suppress(Exception):
                    await stream.aclose()
        _close_transport(process)


def _close_transport(process: Any) -> None:
    # asyncio closes a subprocess transport only once its process and pipes are all seen
    # finished, possibly after the caller's event loop is gone (a warning at exit); anyio
    # exposes no close, so reach for the transport, as the MCP SDK's stdio_client does.
    transport = getattr(getattr(process, "_process", None), "_transport", None)
    close = getattr(transport, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):
            close()
