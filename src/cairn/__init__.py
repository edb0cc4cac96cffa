"""Cairn: a local-first memory for everything a person reads, saves, says and decides.

Layers, lowest first: `model` (plain data) -> `parse`, `chunk`, `embed`, `llm`, `fetch`
(guarded URL download) -> `store` (SQLite index) -> `jobs` (queue worker) -> `ingest`,
`search`, `answer`, `links`, `memory` -> `sync` (vault <-> index) -> `noteops`, `watch` ->
`service` (the application service) -> interfaces (`cli`). A module imports only from
layers below it.
"""

__version__ = "0.1.0"
