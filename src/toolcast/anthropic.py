"""Anthropic's run-time loop: tool_use blocks in, tool_result blocks out.

The public names; the code is toolcast.providers.anthropic, the provider's home (the tools it emits are its
spec's `wire:` data, toolcast.providers.wire)."""

from toolcast.providers.anthropic import (
    ResponseShapeError,
    ToolCall,
    ToolsReport,
    tool_calls,
    tool_output,
    tools,
)

__all__ = ["ResponseShapeError", "ToolCall", "ToolsReport", "tool_calls", "tool_output", "tools"]
