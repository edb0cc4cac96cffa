"""Compatibility home of the keyword-index text rules, which moved to `cairn.store.fts`
(query syntax belongs to the storage backend, and store/ must not import from search/)."""

from __future__ import annotations

from cairn.store.fts import (STOPWORDS, build_match_query, has_field_filter, index_text,  # noqa: F401
                             query_terms)
