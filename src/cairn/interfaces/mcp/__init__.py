"""The MCP door: `cairn mcp` (stdio) and the streamable-HTTP app mounted at /mcp by
`cairn serve`. See `cairn.interfaces.mcp.server` and docs/mcp.md. Importing this package
is cheap; the `mcp` SDK is imported by the `server` module."""
