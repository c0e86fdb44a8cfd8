"""Which of toolcast's modules run compiled (Cython, built by setup.py) and which as Python.

setup.py compiles the modules below from their unchanged sources, where it can, and records the
crc32 of each source it compiled (`toolcast/_built.py`). A compiled module is used only while the
source beside it is the one it was compiled from: after an edit (an editable install, a checkout
of another commit), the module runs from its source until the next `pip install`. Set
TOOLCAST_PURE_PYTHON=1 to run every module from its source (to compare, or to debug with
Python's tools).
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, SourceFileLoader

ACCELERATED = ("model", "schema_ops", "interpret", "compile")  # as setup.py builds them
_HERE = os.path.dirname(os.path.abspath(__file__))


def _recorded() -> dict[str, int]:
    try:
        from toolcast._built import SOURCES
    except ImportError:  # nothing was compiled
        return {}
    return SOURCES if isinstance(SOURCES, dict) else {}


def _stale(recorded: dict[str, int]) -> set[str]:
    """The modules with an extension that may not be their source compiled: not recorded as
    built, or built from a source that has changed since."""
    try:
        files = os.listdir(_HERE)
    except OSError:
        return set()
    with_extension = {f.split(".", 1)[0] for f in files if f.endswith(tuple(EXTENSION_SUFFIXES))}
    if not with_extension:
        return set()
    from zlib import crc32

    stale = set()
    for name in with_extension.intersection(ACCELERATED):
        crc = recorded.get(name)
        if crc is None:
            stale.add(name)
            continue
        try:
            with open(os.path.join(_HERE, f"{name}.py"), "rb") as f:
                source = f.read()
        except OSError:
            continue  # no source shipped beside it: the extension is all there is
        if crc32(source) != crc:
            stale.add(name)
    return stale


class _FromSource:
    """A meta-path finder that loads the named toolcast modules from their .py files."""

    def __init__(self, names: set[str]):
        self.names = {f"toolcast.{n}": os.path.join(_HERE, f"{n}.py") for n in names}

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> ModuleSpec | None:
        source = self.names.get(fullname)
        if source is None or not os.path.exists(source):
            return None
        from importlib.util import spec_from_file_location

        return spec_from_file_location(fullname, source, loader=SourceFileLoader(fullname, source))


def pure_requested() -> bool:
    """Whether TOOLCAST_PURE_PYTHON asks for every module to run from source ("" and "0" do not)."""
    return os.environ.get("TOOLCAST_PURE_PYTHON", "") not in ("", "0")


def _choose() -> None:
    from_source = set(ACCELERATED) if pure_requested() else _stale(_recorded())
    if from_source:
        sys.meta_path.insert(0, _FromSource(from_source))


def compiled_modules() -> tuple[str, ...]:
    """The modules of ACCELERATED that this process runs compiled (imports them)."""
    from importlib import import_module

    return tuple(
        name for name in ACCELERATED
        if not str(getattr(import_module(f"toolcast.{name}"), "__file__", "")).endswith(".py")
    )


_choose()
