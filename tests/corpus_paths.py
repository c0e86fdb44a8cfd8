"""Where the vendored test data lives (tests/corpus/, described in its SOURCES.md): every test reads it from here."""

from __future__ import annotations

from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"
BFCL = CORPUS / "bfcl.jsonl"
MCP = CORPUS / "mcp.jsonl"
AGENT_TOOLS = CORPUS / "agent_tools.jsonl"
LARGE = CORPUS / "large"
JSTS = CORPUS / "jsts"
# The suite serves these at http://localhost:1234/ (tests/test_jsts.py serves them from memory).
JSTS_REMOTES = JSTS / "remotes"
