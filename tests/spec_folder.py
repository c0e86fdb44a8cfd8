"""A spec folder written to a temporary directory and loaded for one test (toolcast.rules.load_spec_dir),
with the rule registry as it was afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from toolcast import rules as rules_registry
from toolcast import tool_input

_REGISTRY = ("VERSIONS", "DEFAULTS", "FAMILIES", "WIRES", "_LOADED", "PROVIDERS")


def loaded_spec_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Iterator[Path]:
    """For a fixture to `yield from`: `files` ({"acme/2026-12-01.yaml": text}) written under
    tmp_path/spec and loaded; the registry's tables, caches and targets restored after the test."""
    folder = tmp_path / "spec"
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    for name in _REGISTRY:
        value = getattr(rules_registry, name)
        monkeypatch.setattr(rules_registry, name, type(value)(value))
    rules_registry.load_spec_dir(folder)
    yield folder
    monkeypatch.undo()
    rules_registry._load.cache_clear()
    rules_registry._RESOLVED.clear()
    tool_input._TARGETS.clear()


def openai_only_spec(tmp_path: Path) -> Path:
    """A copy of spec/ with OpenAI's files only (and the shared catalogue and meta-schemas): a rule
    version scaffolded there builds no other provider's tables."""
    import shutil

    root = Path(__file__).resolve().parent.parent / "spec"
    d = tmp_path / "spec"
    shutil.copytree(root, d, ignore=lambda where, names: [
        n for n in names if Path(where) == root and (root / n).is_dir() and n != "openai"])
    return d
