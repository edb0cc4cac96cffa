"""Adapters over `cairn.service.Cairn`: command-line groups, REST API, web page, MCP server,
Telegram. No logic lives here: each adapter validates, calls the service and shapes output."""
