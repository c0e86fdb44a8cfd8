"""The run time: the loop's provider-neutral parts, MCP transports and the proxy's pieces."""
