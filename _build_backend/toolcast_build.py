"""toolcast's build backend: setuptools' own (setuptools.build_meta), asking for Cython only when
the build compiles.

`TOOLCAST_COMPILE=1 pip install .` compiles the modules setup.py lists with Cython; a plain build
is pure Python and needs no Cython, so only then does the backend add it to what the build
environment installs (PEP 517's get_requires_for_build_wheel; black and mypy ask for mypyc only
in their compiled builds in the same way). An editable install never compiles (setup.py), so it
never asks for Cython either. Everything else is setuptools' backend as it is.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (the other hooks, as setuptools defines them)

CYTHON = "Cython>=3.0"
ENV = "TOOLCAST_COMPILE"


def compile_requested(environ: dict | os._Environ = os.environ) -> bool:
    """As setup.py reads it: TOOLCAST_COMPILE set to anything but "" or "0"."""
    return environ.get(ENV, "") not in ("", "0")


def get_requires_for_build_wheel(config_settings: dict | None = None) -> list[str]:
    extra = [CYTHON] if compile_requested() else []
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *extra]
