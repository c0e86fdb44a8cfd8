"""The proxy's exposed names: server names that make two servers' names unable to collide, and an
owner per name for as long as the proxy runs (a name never passes from one tool to another)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["MAX_SERVER_NAME", "NameRegistry", "check_server_name"]

#: The longest server name: with ``__`` after it, it stays whole in a name cut to 64 characters.
MAX_SERVER_NAME = 32
# Letters, digits and '-', with single '_' between them: no '__', no '_' first or last. An exposed
# name is NAME__TOOL, so its text up to the first '__' is always NAME: two servers' names differ there.
_SERVER_NAME = re.compile(r"[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*")


def check_server_name(name: str) -> None:
    """Raise ValueError (one line) when ``name`` cannot be a server's name in the proxy."""
    if not _SERVER_NAME.fullmatch(name) or len(name) > MAX_SERVER_NAME:
        raise ValueError(
            f"server name {name!r}: use letters, digits, '-' and single '_' between them (no '__', no '_' "
            f"first or last), at most {MAX_SERVER_NAME} characters, so that no two servers' tool names "
            "(NAME__TOOL) can collide"
        )


class NameRegistry:
    """Which (server, tool) owns each exposed name, from the first listing on. A tool that would
    take a name another tool owned is left out and reported; a tool whose name changed is reported.
    Each report is said once."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.owner: dict[str, tuple[str, str]] = {}
        self.name_of: dict[tuple[str, str], str] = {}
        self._said: set[str] = set()

    def admit(self, tools: Iterable[Any]) -> list[Any]:
        """The exposed tools that keep their names' owners (the others reported)."""
        out = []
        for tool in tools:
            key = (tool.server, tool.tool)
            owner = self.owner.setdefault(tool.name, key)
            if owner != key:
                self._once(f"{tool.name} ({tool.server}/{tool.tool}) left out: the name belongs to "
                           f"{owner[0]}/{owner[1]} while the proxy runs")
                continue
            before = self.name_of.setdefault(key, tool.name)
            if before != tool.name:
                self._once(f"{tool.server}/{tool.tool}: renamed from {before} to {tool.name}")
                self.name_of[key] = tool.name
            out.append(tool)
        return out

    def _once(self, line: str) -> None:
        if line not in self._said:
            self._said.add(line)
            self.say(line)
