"""The answers the proxy holds after reading them: each result counted in the process's answer budget
(toolcast._runtime.stdio_lines.answer_budget) from the moment its call has it until the proxy has handed it
to its writer, so that the lines still being read see what is already held."""

from __future__ import annotations

from typing import Any

from toolcast._runtime.stdio_lines import answer_budget

__all__ = ["HeldAnswers", "result_size"]


def result_size(result: Any) -> int:
    """About how many bytes ``result`` holds: its text and its blobs (base64), twice over when it
    also has structuredContent (whose text form usually repeats it)."""
    size = 0
    for block in getattr(result, "content", None) or ():
        for attr in ("text", "data", "blob"):
            value = getattr(block, attr, None)
            if isinstance(value, (str, bytes)):
                size += len(value)
        resource = getattr(block, "resource", None)
        for attr in ("text", "blob"):
            value = getattr(resource, attr, None)
            if isinstance(value, (str, bytes)):
                size += len(value)
    if getattr(result, "structured_content", None) is not None:
        size *= 2
    return size


class HeldAnswers:
    """Results held between their call's end and the proxy's writer, by the client's request id."""

    def __init__(self) -> None:
        self.held: dict[Any, int] = {}

    def hold(self, request_id: Any, result: Any) -> Any:
        size = result_size(result)
        if request_id is not None and size:
            answer_budget.force(size)  # (counted even over the total: it is read already)
            self.held[request_id] = self.held.get(request_id, 0) + size
        return result

    def releasing(self, write: Any) -> Any:
        """``write`` (the client's write stream), giving back each answer's bytes once it is sent."""
        held = self.held

        class _Releasing:
            async def send(self, message: Any) -> None:
                try:
                    await write.send(message)
                finally:
                    inner = getattr(getattr(message, "message", None), "root", getattr(message, "message", None))
                    size = held.pop(getattr(inner, "id", None), 0)
                    if size:
                        answer_budget.give(size)

            def __getattr__(self, name: str) -> Any:
                return getattr(write, name)

            async def __aenter__(self) -> Any:
                await write.__aenter__()
                return self

            async def __aexit__(self, *exc: Any) -> Any:
                return await write.__aexit__(*exc)

        return _Releasing()
