"""A local function's call in the loop: its arguments validated and converted, a sync function in a worker thread, the per-call timeout, its return value or exception as that call's result."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import json
import threading
from collections.abc import Callable, Mapping
from typing import Any

from toolcast._runtime.mcp_session import _exception_text
from toolcast._runtime.results import _ErrorText
from toolcast.local_tools import LocalTool

# The mcp SDK's result and content classes (mcp.types re-exports them from mcp_types in mcp 2).
_MCP_MODULES = ("mcp.", "mcp_types.")
_MCP_BLOCKS = frozenset({"TextContent", "ImageContent", "AudioContent", "EmbeddedResource", "ResourceLink"})

# What a function's call came to, as (kind, value): its result made ready to send (tool_result),
# the exception it raised, the exception its return value raised when made ready to send, or (from
# a worker thread) an awaitable it returned, which the loop awaits.
_READY, _RAISED, _UNSENDABLE, _AWAIT = "ready", "raised", "unsendable", "await"


async def call_local(name: str, local: LocalTool, arguments: dict[str, Any], timeout: float | None) -> Any:
    """The result of calling `local` (exposed as `name`) with a call's `arguments`, as
    tool_output takes it; a failure of any kind is an error result (_ErrorText) saying what."""
    where = f"tool {name!r}"
    try:
        args, kwargs = local.arguments(arguments)
    except Exception as exc:  # pydantic's ValidationError: the function is not called
        return _ErrorText(f"arguments for {where} do not fit its parameters: {_validation_text(exc)}")
    try:
        kind, value = await asyncio.wait_for(_outcome(local, args, kwargs, name), timeout)
    except TimeoutError:  # (only the timeout's own: the function's exceptions are caught in _awaited)
        within = f" within {timeout:g} s" if timeout is not None else ""
        return _ErrorText(f"{where} did not answer{within}")
    if kind == _RAISED:
        if isinstance(value, asyncio.CancelledError):
            return _ErrorText(f"{where} failed: a task it awaited was cancelled")
        return _ErrorText(f"{where} failed: {type(value).__name__}: {_exception_text(value)}")
    if kind == _UNSENDABLE:  # (TypeError, ValueError: the value has no JSON form; anything else, its code failed)
        raised = "" if isinstance(value, (TypeError, ValueError)) else f"{type(value).__name__}: "
        return _ErrorText(f"{where} returned a value that cannot be sent: {raised}{_exception_text(value)}")
    return value


async def _outcome(local: LocalTool, args: list, kwargs: dict, name: str) -> tuple[str, Any]:
    """What calling the function came to (a _READY result, or why not). Everything a function's
    code runs runs under the call's timeout: a sync function's body, and a generator's, which
    runs as it is read, in its worker thread; an awaitable a function returns (an async function
    behind a plain decorator) awaited in the loop."""
    if local.is_async:
        kind, value = await _awaited(local.function, args, kwargs)
    else:
        kind, value = await _in_thread(local.function, args, kwargs, name)
        if kind != _AWAIT:
            return kind, value  # (made ready to send in the thread)
        kind, value = await _awaited(None, [value], {})
    if kind != _READY:
        return kind, value
    if inspect.isgenerator(value):  # (its body runs as it is read: in a thread, as a sync function's)
        return await _in_thread(_itself, [value], {}, name)
    return _made_ready(value)


def _itself(value: Any) -> Any:
    return value


async def _awaited(fn: Callable[..., Any] | None, args: list, kwargs: dict) -> tuple[str, Any]:
    """(_READY, what `fn(*args, **kwargs)` gave, awaited; `args[0]` when `fn` is None) or
    (_RAISED, the exception it raised): any exception is the function's failure (a TimeoutError
    it raises itself, not the call's timeout; sys.exit(); a BaseException of a test framework or a
    library), and a CancelledError that is not this call's cancellation (a task the function
    awaited was cancelled by someone else), which would otherwise end the whole batch. A
    KeyboardInterrupt in the loop's thread may be the user's, and a GeneratorExit closes the
    coroutine: they go on, as this call's cancellation does."""
    try:
        return _READY, await (fn(*args, **kwargs) if fn is not None else args[0])
    except asyncio.CancelledError as exc:
        task = asyncio.current_task()
        if task is None or task.cancelling():
            raise  # this call was cancelled: its timeout, or the caller's
        return _RAISED, exc
    except (KeyboardInterrupt, GeneratorExit):
        raise
    except BaseException as exc:
        return _RAISED, exc


def _made_ready(value: Any) -> tuple[str, Any]:
    try:
        return _READY, tool_result(value)
    except Exception as exc:  # (no JSON form: NaN, an object pydantic cannot serialise; a computed field that raises)
        return _UNSENDABLE, exc


def _in_worker(fn: Callable[..., Any], args: list, kwargs: dict, stop: threading.Event) -> tuple[str, Any]:
    """In the worker thread: `fn(*args, **kwargs)` made ready to send, a generator it returns read
    to its end first (until `stop` is set: the call timed out or was cancelled), or why not. Any
    exception here is the function's own (no signal is delivered to this thread)."""
    try:
        value = fn(*args, **kwargs)
        if inspect.isgenerator(value):
            items = []
            for item in value:
                if stop.is_set():
                    value.close()
                    return _RAISED, asyncio.CancelledError()  # (nobody waits for it any more)
                items.append(item)
            value = items
    except BaseException as exc:
        return _RAISED, exc
    if inspect.isawaitable(value):
        return _AWAIT, value
    try:
        return _made_ready(value)
    except BaseException as exc:  # (a BaseException a computed field or a serializer raised)
        return _UNSENDABLE, exc


def _in_thread(fn: Callable[..., Any], args: list, kwargs: dict, name: str) -> asyncio.Future:
    """`_in_worker(fn, args, kwargs)` in a thread of its own, as a future of the running loop (which
    never holds an exception: a StopIteration cannot be put in one). The thread is a daemon: a
    function that never returns costs its call a timeout, and neither blocks the loop nor keeps
    the process from exiting (the default executor would: asyncio.run joins it)."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    context = contextvars.copy_context()
    stop = threading.Event()
    future.add_done_callback(lambda _: stop.set())

    def settle(outcome: tuple[str, Any]) -> None:
        if not future.done():
            future.set_result(outcome)
        elif outcome[0] == _AWAIT and inspect.iscoroutine(outcome[1]):
            outcome[1].close()  # (the call timed out or was cancelled: it is not awaited, nor warned about)

    def run() -> None:
        outcome = context.run(_in_worker, fn, args, kwargs, stop)
        with contextlib.suppress(RuntimeError):  # (the loop is closed: nobody waits for this call any more)
            loop.call_soon_threadsafe(settle, outcome)

    threading.Thread(target=run, name=f"toolcast-tool-{name}", daemon=True).start()
    return future


def _validation_text(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return _exception_text(exc)
    try:
        found = errors(include_url=False)
    except Exception:
        return _exception_text(exc)
    parts = []
    for error in found[:5]:
        where = ".".join(str(step) for step in error.get("loc", ())) or "arguments"
        parts.append(f"{where}: {error.get('msg')}")
    more = f" (and {len(found) - 5} more)" if len(found) > 5 else ""
    return "; ".join(parts) + more


def _is_mcp(value: Any, names: frozenset[str] | None = None) -> bool:
    cls = type(value)
    return cls.__module__.startswith(_MCP_MODULES) and (names is None or cls.__name__ in names)


def tool_result(value: Any) -> Any:
    """A local function's return value as a result tool_output takes: a string as it is; the mcp
    SDK's CallToolResult as it is, and its content blocks (one, or a list) as a result's content;
    anything else as JSON text (a pydantic model by its JSON dump, a datetime as ISO text, ...),
    with a JSON object as the result's structuredContent too. ValueError/TypeError when the
    value has no JSON form (NaN, an object pydantic cannot serialise)."""
    if isinstance(value, str) or value is None:
        return value
    if _is_mcp(value, frozenset({"CallToolResult"})):
        return value
    if _is_mcp(value, _MCP_BLOCKS):
        return {"content": [value]}
    if isinstance(value, (list, tuple)) and value and all(_is_mcp(v, _MCP_BLOCKS) for v in value):
        return {"content": list(value)}
    from pydantic_core import to_jsonable_python

    plain = to_jsonable_python(value)  # (a NaN stays a float: json.dumps below refuses it)
    if isinstance(plain, str):
        return plain
    text = json.dumps(plain, ensure_ascii=False, allow_nan=False)
    if isinstance(plain, Mapping):
        return {"content": [{"type": "text", "text": text}], "structuredContent": plain}
    return text

