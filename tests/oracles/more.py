"""One entry point to the oracles of the providers added in issue 40: ``violations(tool, target, status)``
-> list of (rule, path) for one emitted tool of target mcp, deepseek, xai, mistral or bedrock, under that
target's default rule version (MCP: 2026-07-28; ``mcp_version`` picks another). Empty == accepted. Each
oracle is written from docs/provider-facts-more.md, never from toolcast's tables.
"""

from __future__ import annotations

from typing import Any

from oracles import bedrock, deepseek, mcp, mistral, xai

TARGETS = ("mcp", "deepseek", "xai", "mistral", "bedrock")


def violations(tool: Any, target: str, status: str, *, mcp_version: str = "2026-07-28") -> list[tuple[str, str]]:
    if target == "mcp":
        return mcp.tool_violations(tool, mcp_version)
    if target == "deepseek":
        found = deepseek.tool_violations(tool)
        if status == "strict" and not (isinstance(tool, dict) and tool.get("function", {}).get("strict") is True):
            found.append(("strict-not-sent", "function/strict"))
        return found
    if target == "xai":
        return xai.tool_violations(tool, status)
    if target == "mistral":
        return mistral.tool_violations(tool)
    if target == "bedrock":
        return bedrock.tool_violations(tool)
    raise ValueError(f"no oracle for target {target!r}")
