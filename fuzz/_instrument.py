"""Shared by the atheris harnesses: load every toolcast module from source, then instrument it.

Instrumenting at import time (atheris.instrument_imports) misses most of what the harnesses
run: modules imported lazily on first use (render, outdir, the pattern analyser, the run-time
loop), modules that toolcast/_accel.py loads through its own finder, and compiled (Cython)
modules, which are native code. So: ask for the source build, import every module up front,
and patch the code of every function (and method, and closure-to-be) already loaded.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import pkgutil
import types

# Before toolcast is imported: a compiled module is native code, which atheris cannot see.
os.environ["TOOLCAST_PURE_PYTHON"] = "1"

import atheris  # after the environment is set

#: Packages whose code is instrumented: toolcast, and the YAML parser its loader feeds bytes to
#: (TOOLCAST_FUZZ_INSTRUMENT=toolcast,yaml,lark,... changes the list).
PACKAGES = frozenset(os.environ.get("TOOLCAST_FUZZ_INSTRUMENT", "toolcast,yaml").split(","))


def _instrumented(func: types.FunctionType) -> bool:
    return "_trace_branch" in func.__code__.co_names


def instrument_toolcast() -> int:
    """Import all of toolcast (every rule version loaded) and instrument it; the number of
    functions instrumented."""
    import toolcast
    from toolcast.rules import available, get_rules

    for info in pkgutil.walk_packages(toolcast.__path__, "toolcast."):
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional extra (the MCP SDK) is not installed here
            continue
    for version in available("openai"):
        get_rules(f"openai@{version}")
    with contextlib.suppress(ImportError):  # the loader imports it on the first YAML file
        import yaml  # noqa: F401
    count = 0
    for obj in gc.get_objects():
        if (
            isinstance(obj, types.FunctionType)
            and str(getattr(obj, "__module__", None) or "").split(".")[0] in PACKAGES
            and not _instrumented(obj)
        ):
            atheris.instrument_func(obj)
            count += 1
    return count
