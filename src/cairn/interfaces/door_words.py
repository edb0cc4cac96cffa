"""The way out a service message names, as each door's person can take it.

The service's messages name the way out as a command ("`cairn sync` updates the index", "update
it (`cairn note update`) or choose another title"): right at the command line, but a person at
the web page cannot type it, and an MCP client has tools, not a shell. `for_door(text, ways)`
names each backquoted `cairn ...` command by the door's own place for it (the first entry of
`ways` whose command opens it), else as a command for the computer that runs Cairn. Words only:
nothing here decides anything.
"""

from __future__ import annotations

import re

_COMMAND = re.compile(r"`(cairn [^`]+)`")

#: The web page's place for a command (cairn.interfaces.web.render.web_words).
WEB = (
    ("cairn ingest", "the Add page"),
    ("cairn jobs", "the job queue on the Add page"),
    ("cairn note create", "New note on the Notes page"),
    ("cairn note update", "Edit on the note's page"),
    ("cairn remember", "the Memories page"),
    ("cairn memories", "the Memories page"),
    ("cairn sessions", "the conversation list on the Chat page"),
    ("cairn remind", "the Reminders page"),
)

#: The MCP tool for a command (cairn.interfaces.mcp.server: a failed call's message).
MCP = (
    ("cairn note update", "the `update_note` tool"),
    ("cairn note create", "the `create_note` tool"),
    ("cairn remember", "the `remember` tool"),
    ("cairn ingest", "the `ingest_text` or `ingest_url` tool"),
    ("cairn remind", "the `remind` tool"),
    ("cairn sessions", "the `search_session_log` tool"),
    ("cairn tools", "the server's tool list"),
)


def for_door(text: str, ways: tuple[tuple[str, str], ...]) -> str:
    """`text` with each backquoted `cairn ...` command named by `ways` ((command, place) pairs:
    "`cairn ingest PATH`" -> "the Add page" when ("cairn ingest", "the Add page") is one), else
    "the command `cairn X` on the computer that runs Cairn"; text without one as it is (a
    non-string as it is too)."""
    if not isinstance(text, str) or "`cairn " not in text:
        return text

    def place(m: re.Match) -> str:
        cmd = m.group(1)
        for prefix, where in ways:
            if cmd == prefix or cmd.startswith(prefix + " "):
                return where
        return f"the command `{cmd}` on the computer that runs Cairn"
    return _COMMAND.sub(place, text)
