"""A local function's call in execute_tool_calls: generators read under the timeout in the worker
thread, awaitables a plain decorator returns awaited, and every failure (StopIteration, a
BaseException, a return value that breaks while converted) that call's own error output."""

from __future__ import annotations

import asyncio
import functools
import json
import threading

import pydantic
import pytest

from toolcast import openai as tc_openai
from toolcast.mcp_runtime import execute_tool_calls
from toolcast.toolset import ToolSet


def _run(functions, calls, timeout=10.0):
    toolset, _ = ToolSet.build(functions)
    response = {"output": [{"type": "function_call", "call_id": f"c{i}", "name": n, "arguments": json.dumps(a)}
                           for i, (n, a) in enumerate(calls)]}
    read, rejected = tc_openai.tool_calls(response, toolset)
    assert rejected == []

    async def go():  # (bounded here: a call that is never answered fails the test, not hangs it)
        return await asyncio.wait_for(execute_tool_calls(read, {}, timeout=timeout), 20)

    return [o["output"] for o in asyncio.run(go())]


def ok(x: int) -> int:
    return x + 1


class Abort(BaseException):  # (as pytest's outcomes, gevent's GreenletExit: not an Exception)
    pass


def test_a_generator_is_read_in_its_worker_thread_under_the_timeout():
    where: list[bool] = []
    released = threading.Event()

    def lines(n: int):
        for i in range(n):
            where.append(threading.current_thread() is threading.main_thread())
            yield f"line {i}"

    def endless():
        while not released.is_set():
            if threading.current_thread() is threading.main_thread():
                return  # (read in the loop's thread: it would block every call, and never end)
            released.wait(0.005)
            yield 1

    def raises_midway(x: int):
        yield x
        raise LookupError("mid-stream")

    async def ping() -> str:
        await asyncio.sleep(0.01)
        return "pong"

    try:
        outs = _run([lines, endless, raises_midway, ping, ok],
                    [("lines", {"n": 2}), ("endless", {}), ("raises_midway", {"x": 1}), ("ping", {}), ("ok", {"x": 1})],
                    timeout=0.5)
    finally:
        released.set()
    assert outs == ['["line 0", "line 1"]', "Error: tool 'endless' did not answer within 0.5 s",
                    "Error: tool 'raises_midway' failed: LookupError: mid-stream", "pong", "2"]
    assert where == [False, False]


def test_a_return_value_that_fails_while_converted_fails_its_call_alone():
    class Lazy(pydantic.BaseModel):
        n: int

        @pydantic.computed_field
        @property
        def total(self) -> int:
            raise KeyError("total")

    def lazy(x: int) -> Lazy:
        return Lazy(n=x)

    async def lazy_async(x: int) -> Lazy:
        return Lazy(n=x)

    outs = _run([lazy, lazy_async, ok], [("lazy", {"x": 1}), ("lazy_async", {"x": 1}), ("ok", {"x": 1})])
    assert outs == ["Error: tool 'lazy' returned a value that cannot be sent: KeyError: 'total'",
                    "Error: tool 'lazy_async' returned a value that cannot be sent: KeyError: 'total'", "2"]


def test_stop_iteration_from_a_sync_function_is_its_error_even_without_a_timeout():
    def first_match(suffix: str) -> str:
        return next(n for n in ["a.txt"] if n.endswith(suffix))

    outs = _run([first_match, ok], [("first_match", {"suffix": ".pdf"}), ("ok", {"x": 1})], timeout=None)
    assert outs == ["Error: tool 'first_match' failed: StopIteration: StopIteration", "2"]


def test_any_base_exception_a_function_raises_fails_its_call_alone():
    def aborts(x: int) -> int:
        raise Abort("stop")

    async def aborts_async(x: int) -> int:
        raise Abort("stop (async)")

    outs = _run([aborts, aborts_async, ok], [("aborts", {"x": 1}), ("aborts_async", {"x": 1}), ("ok", {"x": 1})])
    assert outs == ["Error: tool 'aborts' failed: Abort: stop", "Error: tool 'aborts_async' failed: Abort: stop (async)",
                    "2"]


def test_a_keyboard_interrupt_in_the_loops_thread_is_not_taken_as_the_functions():
    from toolcast._runtime.local_run import _awaited

    async def interrupted() -> str:
        raise KeyboardInterrupt  # (in the loop's thread it may be the user's Ctrl-C)

    async def aborts() -> str:
        raise Abort("stop")

    with pytest.raises(KeyboardInterrupt):  # (stepped by hand: no loop to tear down)
        _awaited(interrupted, [], {}).send(None)
    with pytest.raises(StopIteration) as done:
        _awaited(aborts, [], {}).send(None)
    kind, exc = done.value.value
    assert kind == "raised" and isinstance(exc, Abort)


def logged(fn):
    """A plain decorator, as logging and retry decorators are written: the wrapper is not async."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


def test_an_async_function_behind_a_plain_decorator_is_awaited_under_the_timeout():
    @logged
    async def weather(city: str) -> str:
        await asyncio.sleep(0)
        return f"sunny in {city}"

    @logged
    async def stuck() -> str:
        await asyncio.Event().wait()
        return "never"

    outs = _run([weather, stuck, ok], [("weather", {"city": "Paris"}), ("stuck", {}), ("ok", {"x": 1})], timeout=0.5)
    assert outs == ["sunny in Paris", "Error: tool 'stuck' did not answer within 0.5 s", "2"]


def test_rejected_outputs_given_to_execute_tool_calls_come_back_in_the_responses_order():
    import copy
    import pickle

    from pydantic import TypeAdapter

    from toolcast import gemini as tc_gemini

    genai_types = pytest.importorskip("google.genai.types")

    def weather(city: str) -> str:
        return f"sunny in {city}"

    toolset, _ = ToolSet.build([weather])
    _, report = tc_gemini.tools(toolset)
    args = [{"city": "Paris"}, {"city": 42}, {"city": "Oslo"}, None, {"city": "Rome"}]
    parts = [{"functionCall": {"name": "weather" if a is not None else "wether", "args": a or {}}} for a in args]
    calls, rejected = tc_gemini.tool_calls({"parts": parts}, toolset, report, validate=True)
    assert len(calls) == 3 and len(rejected) == 2
    answers = asyncio.run(execute_tool_calls(calls, {}, rejected=rejected))
    said = [a["functionResponse"]["response"] for a in answers]  # (no ids: Gemini pairs them by position)
    assert [next(iter(r)) for r in said] == ["output", "error", "output", "error", "output"]
    assert [r.get("output") for r in said[::2]] == ["sunny in Paris", "sunny in Oslo", "sunny in Rome"]
    assert "42" in said[1]["error"] and "unknown tool 'wether'" in said[3]["error"]
    # A rejected output is a plain dict to every reader (the SDK's type, JSON, ==), and keeps its place.
    part = TypeAdapter(genai_types.Part)
    for r in rejected:
        part.validate_python(r)
        assert r == json.loads(json.dumps(r)) and copy.deepcopy(r).before == pickle.loads(pickle.dumps(r)).before == r.before
    # Without them, the outputs of the calls alone, as before; rejected outputs made elsewhere go first.
    assert asyncio.run(execute_tool_calls(calls, {})) == answers[::2]
    made = {"functionResponse": {"name": "x", "response": {"error": "mine"}}}
    assert asyncio.run(execute_tool_calls(calls[:1], {}, rejected=[made])) == [made, answers[0]]
