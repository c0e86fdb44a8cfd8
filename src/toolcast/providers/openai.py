"""OpenAI's tool shapes, as spec/openai's `wire:` section states them (toolcast.providers.wire): the
names toolcast.openai and compile have always exported (APIS, Api, emit)."""

from __future__ import annotations

from typing import Any, Literal

Api = Literal["responses", "chat"]
# The APIs spec/openai's wire names, default first (tests/test_wire.py checks they agree).
APIS = ("responses", "chat")
DEFAULT_API = "responses"


def emit(name: str, description: str | None, parameters: Any, strict: bool, api: str) -> dict:
    """The tool in the API's shape; `strict` is always present, false included."""
    from toolcast.providers import target

    return target("openai").emit(name, description, parameters, strict, api)  # type: ignore[union-attr]
