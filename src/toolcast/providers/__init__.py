"""The targets toolcast compiles for, built from data: each rule family's `wire:` section (its default
version's tables) gives its target's shapes (toolcast.providers.wire.Target); no target is named here.

EMITTERS (target name -> Target) and PROVIDER_OF (target name -> the rule family it compiles under
when no API-specific family is named) are built on first use, and again when the rule families change:
a spec folder loaded at run time (toolcast.rules.load_spec_dir, TOOLCAST_SPEC_PATH) adds its targets.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from toolcast.providers.wire import Target, WireError

__all__ = ["EMITTERS", "PROVIDER_OF", "Target", "WireError", "target"]

# The order targets are listed in (CLI help, `--target all`): these first, as they always were; any
# other in name order. (A listing preference only: nothing branches on these names.)
_LISTED_FIRST = ("openai", "anthropic", "gemini", "vertex")

_targets: dict[str, Target] = {}
_families: dict[str, str] = {}  # target -> its rule family where the provider is the target
_built_for: list[tuple] = []  # (the rule families, the spec folders' generation) the registry was built from


def _build(known: tuple[tuple[str, ...], int]) -> None:
    from toolcast.rules import wire_of

    found: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
    families: dict[str, str] = {}
    for family in known[0]:
        entry = wire_of(family)  # (the index's: listing the targets loads no rule table)
        if entry is None:
            continue  # (a family that states no wire: section is no target: rules only)
        target_name, api, wire = entry
        found.setdefault(target_name, []).append((family, wire))
        if api is None:
            families[target_name] = family
    order = [t for t in _LISTED_FIRST if t in found] + sorted(t for t in found if t not in _LISTED_FIRST)
    built = {name: Target(name, found[name]) for name in order}
    _targets.clear()
    _targets.update(built)
    _families.clear()
    _families.update({t: families.get(t, t) for t in order})
    _built_for[:] = [known]


def _ready() -> dict[str, Target]:
    # Rebuilt when the rule families change (a spec folder loaded: toolcast.rules.load_spec_dir).
    known = _known()
    if not _built_for or _built_for[0] != known:
        _build(known)
    return _targets


def _known() -> tuple[tuple[str, ...], int]:
    from toolcast.rules import generation, providers

    return providers(), generation()  # (a folder loaded again, under the same names, builds them again)


def target(name: str) -> Target | None:
    """The Target named `name`, or None."""
    return _ready().get(name)


class _View(Mapping):
    """A read-only mapping over the registry, built on first use."""

    def __init__(self, pick: Any) -> None:
        self._pick = pick

    def __getitem__(self, key: str) -> Any:
        return self._pick()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._pick()))

    def __len__(self) -> int:
        return len(self._pick())

    def __repr__(self) -> str:
        return repr(dict(self._pick()))


# target name -> its Target (APIS, DEFAULT_API, NATIVE_SHAPES, emit, schema_of, request_tools).
EMITTERS: Mapping[str, Target] = _View(_ready)
# target name -> the provider whose rule versions it compiles under (absent an API's family).
PROVIDER_OF: Mapping[str, str] = _View(lambda: (_ready(), _families)[1])
