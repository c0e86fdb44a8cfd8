"""toolcast: compile LLM tool definitions into provider dialects and report every change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolcast.compile import compile_tool, compile_tools
from toolcast.model import (
    ITEMS,
    CompileResult,
    Diagnostic,
    InvalidToolError,
    StrictSchemaError,
    ToolcastError,
    Transformation,
    UnknownRulesError,
)
from toolcast.nulls import fill_nulls, strip_nulls

if TYPE_CHECKING:
    from toolcast._build import BuildInfo

__version__ = "0.1.0"

__all__ = [
    "ITEMS",
    "CompileResult",
    "Diagnostic",
    "ExposedTool",
    "InvalidToolError",
    "NamingReport",
    "StrictSchemaError",
    "ToolSet",
    "ToolcastError",
    "Transformation",
    "UnknownRulesError",
    "build_info",
    "compile_tool",
    "compile_tools",
    "fill_nulls",
    "strip_nulls",
    "tool",
]


def build_info() -> BuildInfo:
    """Which build is running: a `BuildInfo` (`version`, `compiled`: the names of the modules
    that run compiled, `()` for pure Python; `str()` gives the line `toolcast --version` prints).
    Compiling is opt-in at build time (`TOOLCAST_COMPILE=1 pip install .`); an editable install
    is always pure Python."""
    from toolcast._build import build_info

    return build_info()


# The modules of the run-time API, imported on first use (they are not needed to compile).
_SUBMODULES = frozenset({"openai", "anthropic", "gemini", "mcp_runtime"})


def __getattr__(name: str) -> Any:
    # The run-time toolset is imported on first use so that `import toolcast` stays light.
    if name in ("ToolSet", "ExposedTool", "NamingReport"):
        from toolcast import toolset

        return getattr(toolset, name)
    if name == "tool":  # the @toolcast.tool decorator (pydantic is needed only when a function is read)
        from toolcast.local_tools import tool

        return tool
    if name in _SUBMODULES:  # `import toolcast` then `toolcast.openai.tools(...)`, as the README writes it
        import importlib

        return importlib.import_module(f"toolcast.{name}")
    raise AttributeError(f"module 'toolcast' has no attribute {name!r}")
