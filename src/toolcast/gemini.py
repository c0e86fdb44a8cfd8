"""The Gemini (and Vertex AI) run-time loop: function_call parts in, functionResponse parts out.

The public names; the code is toolcast.providers.gemini, the provider's home (the tools it emits are its
spec's `wire:` data, toolcast.providers.wire)."""

from toolcast.providers.gemini import (
    ResponseShapeError,
    ToolCall,
    ToolsReport,
    tool_calls,
    tool_output,
    tools,
)

__all__ = ["ResponseShapeError", "ToolCall", "ToolsReport", "tool_calls", "tool_output", "tools"]
