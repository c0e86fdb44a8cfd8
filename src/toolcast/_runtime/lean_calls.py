"""The function calls of an OpenAI response's list (Chat `tool_calls`, Responses `output`), plain dicts read directly."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def openai_raws(items: Any, path: str, careful: Callable[[Any, str], Any]) -> list:
    """(call_id, name, arguments, api) of each function call in `items` (a Chat `tool_calls` list
    or a Responses `output` list), in order. A plain dict of either shape whose id and name are
    strings is read here; anything else (SDK objects, other output items, shapes to report) goes to
    `careful(item, place)`, which gives a RawCall, None for an item that is no function call, or
    raises naming the place."""
    raws: list = []
    for i, item in enumerate(items):
        if type(item) is dict:
            kind = item.get("type")
            if kind == "function_call":  # Responses
                call_id, name = item.get("call_id"), item.get("name")
                if type(call_id) is str and type(name) is str:
                    raws.append((call_id, name, item.get("arguments"), "responses"))
                    continue
            elif kind == "function" or kind is None:  # Chat (its `type` may be left out)
                function = item.get("function")
                if type(function) is dict:
                    call_id, name = item.get("id"), function.get("name")
                    if type(call_id) is str and type(name) is str:
                        raws.append((call_id, name, function.get("arguments"), "chat"))
                        continue
        raw = careful(item, f"{path}[{i}]")
        if raw is not None:
            raws.append(raw)
    return raws
