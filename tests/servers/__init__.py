"""Helper MCP servers started by the tests as subprocesses."""
