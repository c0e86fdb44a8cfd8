"""A local function's call in the loop: its arguments validated and converted, a sync function in a worker thread, the per-call timeout, its return value or exception as that call's result."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
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


async def call_local(name: str, local: LocalTool, arguments: dict[str, Any], timeout: float | None) -> Any:
    """The result of calling `local` (exposed as `name`) with a call's `arguments`, as
    tool_output takes it; a failure of any kind is an error result (_ErrorText) saying what."""
    where = f"tool {name!r}"
    try:
        args, kwargs = local.arguments(arguments)
    except Exception as exc:  # pydantic's ValidationError: the function is not called
        return _ErrorText(f"arguments for {where} do not fit its parameters: {_validation_text(exc)}")
    if local.is_async:
        job: Any = _guarded(local.function(*args, **kwargs), _OWN_IN_LOOP)
    else:
        job = _guarded(_in_thread(local.function, args, kwargs, name), _OWN_IN_THREAD)
    try:
        ok, value = await asyncio.wait_for(job, timeout)
    except TimeoutError:  # (only the timeout's own: the function's exceptions are caught in _guarded)
        within = f" within {timeout:g} s" if timeout is not None else ""
        return _ErrorText(f"{where} did not answer{within}")
    if not ok:
        if isinstance(value, asyncio.CancelledError):
            return _ErrorText(f"{where} failed: a task it awaited was cancelled")
        return _ErrorText(f"{where} failed: {type(value).__name__}: {_exception_text(value)}")
    try:
        return tool_result(value)
    except (TypeError, ValueError) as exc:
        return _ErrorText(f"{where} returned a value that cannot be sent: {_exception_text(exc)}")


# What a function's call may raise besides an Exception and still fail alone (the batch's other
# calls keep their outputs): sys.exit() (argparse on a bad value) anywhere; in a worker thread a
# KeyboardInterrupt too, which no signal delivers there (in the loop's thread it may be the user's).
_OWN_IN_LOOP = (SystemExit,)
_OWN_IN_THREAD = (SystemExit, KeyboardInterrupt)


async def _guarded(awaitable: Any, own: tuple) -> tuple[bool, Any]:
    """(True, what `awaitable` gave) or (False, the exception it raised): a TimeoutError the
    function raises itself is its failure, not the call's timeout; so are the exceptions of `own`,
    and a CancelledError that is not this call's cancellation (a task the function awaited was
    cancelled by someone else), which would otherwise end the whole batch."""
    try:
        return True, await awaitable
    except Exception as exc:
        return False, exc
    except asyncio.CancelledError as exc:
        task = asyncio.current_task()
        if task is None or task.cancelling():
            raise  # this call was cancelled: its timeout, or the caller's
        return False, exc
    except own as exc:
        return False, exc


def _in_thread(fn: Callable[..., Any], args: list, kwargs: dict, name: str) -> asyncio.Future:
    """`fn(*args, **kwargs)` in a thread of its own, as a future of the running loop. The thread is
    a daemon: a function that never returns costs its call a timeout, and neither blocks the loop
    nor keeps the process from exiting (the default executor would: asyncio.run joins it)."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    context = contextvars.copy_context()

    def settle(ok: bool, value: Any) -> None:
        if future.done():  # (cancelled: the call timed out or was cancelled)
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def run() -> None:
        try:
            outcome = (True, context.run(fn, *args, **kwargs))
        except BaseException as exc:  # (handed to the awaiting task, which decides)
            outcome = (False, exc)
        with contextlib.suppress(RuntimeError):  # (the loop is closed: nobody waits for this call any more)
            loop.call_soon_threadsafe(settle, *outcome)

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

