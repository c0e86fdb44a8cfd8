"""The error output for a call to a tool the request did not offer: an unknown name (with the closest valid one, found in an index kept per toolset) or a tool left out of the request."""

from __future__ import annotations

import difflib
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolcast.toolset import ToolSet

# An unknown-tool message lists valid names; past this many it would crowd the context.
_MAX_LISTED_NAMES = 50
# The characters of an unknown tool's name an error output repeats (the model sent it; a name of a
# megabyte would make a megabyte error).
_MAX_SHOWN_NAME = 200
# Up to this many names, the closest one is searched among all of them (difflib); past it, among
# the SHORTLIST names sharing the most three-character pieces with the name called: the search
# costs the same for a proxy's thousands of tools as for a hundred.
_SEARCHED_IN_FULL = 100
_SHORTLIST = 20
#: Distinct unknown names of one response that get a "Did you mean" (a response calling hundreds
#: of made-up names gets the list of valid names for the rest).
MAX_SUGGESTED = 16
# Names looked up per toolset that are remembered (a response of many calls to one made-up name,
# and the next responses, search once); toolsets remembered.
_MAX_REMEMBERED = 1024
_MAX_TOOLSETS = 64


def unknown_tool_message(name: str, toolset: ToolSet, left_out: frozenset[str] = frozenset(),
                         suggest: bool = True) -> str:
    """The error output for a call to `name`, which is no tool of `toolset`, or one of `left_out`:
    tools the request did not offer (ToolsReport.excluded), which are neither run nor suggested.
    With `suggest`, the closest valid name is named when one is close enough."""
    finder = _finder(toolset, left_out)
    names = finder.names
    shown = name if len(name) <= _MAX_SHOWN_NAME else name[:_MAX_SHOWN_NAME] + f"... ({len(name)} characters)"
    if name in left_out:
        text = f"tool {shown!r} was not offered in this request and cannot be called."
    else:
        text = f"unknown tool {shown!r}."
        close = finder.closest(name) if suggest else None
        if close is not None:
            text += f" Did you mean {close!r}?"
    if not names:
        return text + " No tools are available."
    listed = ", ".join(names[:_MAX_LISTED_NAMES])
    if len(names) > _MAX_LISTED_NAMES:
        listed += f", ... ({len(names) - _MAX_LISTED_NAMES} more)"
    return text + f" Valid tools: {listed}."


class _Finder:
    """The valid names of a toolset (without those left out), and the closest of them to a name."""

    __slots__ = ("grams", "left_out", "longest", "memo", "names", "toolset")

    def __init__(self, toolset: ToolSet, left_out: frozenset[str]) -> None:
        self.toolset, self.left_out = toolset, left_out
        self.names = [n for n in toolset.names if n not in left_out]
        self.longest = max(map(len, self.names), default=0)
        self.memo: dict[str, str | None] = {}
        self.grams: dict[str, list[int]] | None = None
        if len(self.names) > _SEARCHED_IN_FULL:
            grams: dict[str, list[int]] = {}
            for i, n in enumerate(self.names):
                for g in _pieces(n):
                    grams.setdefault(g, []).append(i)
            self.grams = grams

    def closest(self, name: str) -> str | None:
        if name in self.memo:
            return self.memo[name]
        found = None
        # (A name over three times the longest valid one cannot reach the 0.6 ratio: no search.)
        if len(name) <= 3 * self.longest:
            close = difflib.get_close_matches(name, self._candidates(name), n=1, cutoff=0.6)
            found = close[0] if close else None
        if len(self.memo) >= _MAX_REMEMBERED:
            self.memo.clear()
        self.memo[name] = found
        return found

    def _candidates(self, name: str) -> list[str]:
        if self.grams is None:
            return self.names
        shared: Counter[int] = Counter()
        for g in _pieces(name):
            shared.update(self.grams.get(g, ()))
        # (most shared first; among equals, toolset order: the full search's tie-break)
        best = sorted(shared.items(), key=lambda item: (-item[1], item[0]))[:_SHORTLIST]
        return [self.names[i] for i in sorted(i for i, _ in best)]


def _pieces(name: str) -> set[str]:
    padded = f"  {name} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


_FINDERS: dict[tuple[int, frozenset[str]], _Finder] = {}


def _finder(toolset: ToolSet, left_out: frozenset[str]) -> _Finder:
    key = (id(toolset), left_out)
    found = _FINDERS.get(key)
    if found is None or found.toolset is not toolset:
        if len(_FINDERS) >= _MAX_TOOLSETS:
            _FINDERS.clear()
        found = _FINDERS[key] = _Finder(toolset, left_out)
    return found
