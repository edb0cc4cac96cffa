"""Compatibility home of the keyword text rules: the tokenizer and stopwords are the keyword
index's (`cairn.store.fts`); the query rules are search/query.py's (one parsed query)."""

from __future__ import annotations

from cairn.search.query import build_match_query, has_field_filter  # noqa: F401
from cairn.store.fts import STOPWORDS, index_text, query_terms  # noqa: F401
