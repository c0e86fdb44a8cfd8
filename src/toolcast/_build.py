"""Which build of toolcast is running: the modules that run compiled, or none (pure Python)."""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import find_spec
from typing import NamedTuple

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


class BuildInfo(NamedTuple):
    """The running build: toolcast's version and the modules that run compiled (by Cython)."""

    version: str
    compiled: tuple[str, ...]  # module names, e.g. "toolcast.compile"; () for pure Python

    @property
    def kind(self) -> str:
        """"compiled" or "pure Python"."""
        return "compiled" if self.compiled else "pure Python"

    def __str__(self) -> str:
        if not self.compiled:
            return f"toolcast {self.version} (pure Python)"
        return f"toolcast {self.version} (compiled with Cython: {', '.join(self.compiled)})"


def _extension_modules() -> list[str]:
    """The names of the modules that have an extension file in the package (any depth)."""
    names = []
    for folder, dirs, files in os.walk(_PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(folder, _PACKAGE)
        prefix = "toolcast." if rel == "." else "toolcast." + rel.replace(os.sep, ".") + "."
        for file in files:
            for suffix in EXTENSION_SUFFIXES:
                if file.endswith(suffix):
                    names.append(prefix + file[: -len(suffix)])
                    break
    return sorted(names)


def build_info() -> BuildInfo:
    """Which build is running: each module that the import system loads from an extension.

    A module counts as compiled when the file Python imports it from (an imported module's own,
    else the one it would import) is an extension; a source file beside it changes nothing, as
    Python prefers the extension.
    """
    from toolcast import __version__

    compiled = []
    for name in _extension_modules():
        spec = find_spec(name)
        if spec is not None and str(spec.origin).endswith(tuple(EXTENSION_SUFFIXES)):
            compiled.append(name)
    return BuildInfo(__version__, tuple(compiled))
