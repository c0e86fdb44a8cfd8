"""The function calls of an OpenAI response's list (Chat `tool_calls`, Responses `output`), plain dicts read directly."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

_NOT_WHOLE = ("in_progress", "incomplete")


def openai_raws(items: Any, path: str, careful: Callable[[Any, str], Any]) -> Iterator[tuple]:
    """(call_id, name, arguments, api) of each function call in `items` (a Chat `tool_calls` list
    or a Responses `output` list), in order, each made as it is read: the reader frees one before
    the next is made, so a response of many calls keeps no list of them. A plain dict of either
    shape whose id and name are strings is read here; anything else (SDK objects, other output
    items, shapes to report) goes to `careful(item, place)`, which gives a RawCall, None for an item
    that is no function call, or raises naming the place (when the reader comes to it)."""
    for i, item in enumerate(items):
        if type(item) is dict:
            # dict.get(item, ...): the compiled build reads the dict directly (item.get looks the method up).
            kind = dict.get(item, "type")
            if kind == "function_call":  # Responses
                call_id, name = dict.get(item, "call_id"), dict.get(item, "name")
                # (an item still streamed or cut off, status in_progress/incomplete: `careful` marks it)
                if type(call_id) is str and type(name) is str and dict.get(item, "status") not in _NOT_WHOLE:
                    yield call_id, name, dict.get(item, "arguments"), "responses"
                    continue
            elif kind == "function" or kind is None:  # Chat (its `type` may be left out)
                function = dict.get(item, "function")
                if type(function) is dict:
                    call_id, name = dict.get(item, "id"), dict.get(function, "name")
                    if type(call_id) is str and type(name) is str:
                        yield call_id, name, dict.get(function, "arguments"), "chat"
                        continue
        raw = careful(item, f"{path}[{i}]")
        if raw is not None:
            yield raw
