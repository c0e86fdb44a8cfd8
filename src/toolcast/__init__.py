"""toolcast: compile LLM tool definitions into provider dialects and report every change."""

from __future__ import annotations

from typing import Any

from toolcast import _accel  # noqa: F401  (first: picks compiled or source modules)
from toolcast.compile import InvalidToolError, compile_tool, compile_tools
from toolcast.model import (
    ITEMS,
    CompileResult,
    Diagnostic,
    StrictSchemaError,
    ToolcastError,
    Transformation,
    UnknownRulesError,
)
from toolcast.nulls import fill_nulls, strip_nulls

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
    "compile_tool",
    "compile_tools",
    "fill_nulls",
    "strip_nulls",
]


def __getattr__(name: str) -> Any:
    # The run-time toolset is imported on first use so that `import toolcast` stays light.
    if name in ("ToolSet", "ExposedTool", "NamingReport"):
        from toolcast import toolset

        return getattr(toolset, name)
    raise AttributeError(f"module 'toolcast' has no attribute {name!r}")
