"""A rejected call's error output that knows its place in the response, and the outputs of a response's calls merged back into its order."""

from __future__ import annotations

from typing import Any


class Rejected(dict):  # type: ignore[type-arg]
    """A rejected call's error output, a plain dict to every reader, that knows how many of its
    response's accepted calls came before it (``before``): ``execute_tool_calls(calls, sessions,
    rejected=rejected)`` answers every call of the response in its order (Gemini calls without an
    id are answered by position)."""

    __slots__ = ("before",)

    def __reduce__(self) -> Any:  # (a copy or a pickle keeps its place)
        return _rejected_at, (dict(self), self.before)


def _rejected_at(output: dict[str, Any], before: int) -> Rejected:
    found = Rejected(output)
    found.before = before
    return found


def placed(output: Any, before: int) -> Any:
    """``output`` (a rejected call's) as a :class:`Rejected` placed after ``before`` accepted calls."""
    return _rejected_at(output, before) if type(output) is dict else output


def in_call_order(outputs: list[Any], rejected: Any) -> list[Any]:
    """The outputs of a response's accepted calls (in their order) and its ``rejected`` outputs,
    merged in the response's order; a rejected output that does not know its place comes first."""
    rejected = list(rejected)
    merged: list[Any] = [r for r in rejected if type(r) is not Rejected]
    in_place = sorted((r for r in rejected if type(r) is Rejected), key=lambda r: r.before)  # (stable)
    done = 0
    for r in in_place:
        merged.extend(outputs[done:r.before])
        done = max(done, min(r.before, len(outputs)))
        merged.append(r)
    merged.extend(outputs[done:])
    return merged
