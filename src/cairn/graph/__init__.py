"""Entities of everything ingested and the graph they make (issue 17).

- `extract`: the names a note mentions (spaCy NER, wikilinks, tags, frontmatter, titles,
  chat speakers), as (unit, name, kind, method) with per-unit counts.
- `update`: the pass that brings `entity_mentions` / `entity_cooccur` in line with the
  notes (run after every ingest, next to embedding; spaCy loaded once per process).
- `signal`: the graph and source signals of hybrid search.
- `ops`: `cairn entity show / merge / split`.
Entities and aliases are the one canonical table of memory/entities.py.
"""
