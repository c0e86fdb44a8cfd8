"""One entry point to the oracles of the providers added in issue 40: ``violations(tool, target, status,
version)`` -> list of (rule, path) for one emitted tool of target mcp, deepseek, xai, mistral or bedrock,
under the facts (tests/oracles/facts.py) of ``version``, the rule version the tool was compiled under (a
date, or a CompileResult's ``rules``; None is the family's newest reading; ``mcp_version`` is the old name
of ``version`` for MCP). Empty == accepted. Each oracle is written from docs/provider-facts-more.md, never
from toolcast's tables.
"""

from __future__ import annotations

from typing import Any

from oracles import bedrock, deepseek, mcp, mistral, xai

TARGETS = ("mcp", "deepseek", "xai", "mistral", "bedrock")


def violations(tool: Any, target: str, status: str, version: str | None = None, *,
               mcp_version: str | None = None) -> list[tuple[str, str]]:
    if version is not None and "@" in version:
        version = version.partition("@")[2]
    if target == "mcp":
        return mcp.tool_violations(tool, mcp_version or version)
    if target == "deepseek":
        found = deepseek.tool_violations(tool, version)
        if status == "strict" and not (isinstance(tool, dict) and tool.get("function", {}).get("strict") is True):
            found.append(("strict-not-sent", "function/strict"))
        return found
    if target == "xai":
        return xai.tool_violations(tool, status, version)
    if target == "mistral":
        return mistral.tool_violations(tool, version)
    if target == "bedrock":
        return bedrock.tool_violations(tool, version)
    raise ValueError(f"no oracle for target {target!r}")
