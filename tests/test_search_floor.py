"""The relevance floor of search (issue 16): a word found nowhere does not bring back the
nearest notes ranked as matches, the result says why, and the floor is a setting."""

from __future__ import annotations

import pytest

from conftest import write
from cairn.config import ConfigError, load_settings
from cairn.search import hybrid


@pytest.fixture
def notes(app, tmp_path):
    write(tmp_path / "v" / "pantry.md", "# Pantry\n\nShopping list: eggs, flour, yeast and rye.\n")
    write(tmp_path / "v" / "heron.md", "# Heron\n\nThe heron nests by the mill pond in spring.\n")
    app.ingest([tmp_path / "v"])
    return app


@pytest.mark.parametrize("mode", ["hybrid", "semantic", "keyword"])
def test_a_word_found_nowhere_returns_nothing_and_says_why(notes, mode):
    res = notes.search("xylophone", mode=mode)
    assert res.hits == []
    if mode != "semantic":
        assert res.missing_words == ["xylophone"] and "no note contains 'xylophone'" in res.warnings
    if mode == "keyword":
        assert res.below_floor == 0 and res.semantic_floor is None
    else:
        assert res.below_floor == 2 and res.semantic_floor == notes.settings.search.semantic_floor
        assert any("2 nearest note(s) are below the relevance floor" in w and "semantic_floor" in w
                   for w in res.warnings)


def test_hits_with_a_query_word_are_kept_and_the_missing_word_is_named(notes):
    res = notes.search("xylophone flour")
    assert [h.title for h in res.hits] == ["Pantry"]
    assert res.missing_words == ["xylophone"]
    j = res.to_json()
    assert j["missing_words"] == ["xylophone"] and j["hits"][0]["title"] == "Pantry"
    assert set(j) == {"hits", "warnings", "missing_words", "below_floor", "semantic_floor", "vectors_pending"}


def test_related_meaning_passes_the_floor(notes):
    hits = notes.search("bread baking ingredients", mode="semantic").hits
    assert hits and hits[0].title == "Pantry" and hits[0].signals["semantic"] >= notes.settings.search.semantic_floor


def test_floor_zero_shows_the_nearest_notes_again(notes):
    notes.settings.search.semantic_floor = 0.0
    res = notes.search("xylophone", mode="semantic")
    assert {h.title for h in res.hits} == {"Pantry", "Heron"} and res.below_floor == 0


def test_floor_is_read_from_config_and_checked(tmp_path):
    home = tmp_path / "h"
    write(home / "config.toml", "[search]\nsemantic_floor = 0.3\n")
    assert load_settings(home).search.semantic_floor == 0.3
    write(home / "config.toml", "[search]\nsemantic_floor = 1.5\n")
    with pytest.raises(ConfigError, match="semantic_floor"):
        load_settings(home)
    write(home / "config.toml", "[search]\nsemantic_floor = -0.1\n")
    with pytest.raises(ConfigError, match="semantic_floor"):
        load_settings(home)


def test_bm25_cap_leaves_out_the_most_common_words_in_a_large_index(app, tmp_path, monkeypatch):
    """Above BM25_MAX_POSTINGS matching rows, the most frequent words are left out of the OR
    query (the rarest is always kept); the hit holding the rare word still ranks first."""
    rows = [{"id": f"d{i}", "text": f"river stone meadow {'alder' if i % 2 else 'birch'} note {i}"} for i in range(60)]
    rows.append({"id": "rare", "text": "the quillwort grows by the river stone"})
    import json
    write(tmp_path / "n.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    app.import_notes(tmp_path / "n.jsonl")
    monkeypatch.setattr(hybrid, "COMMON_MIN_CHUNKS", 1)
    monkeypatch.setattr(hybrid, "COMMON_DF", 1.0)  # no word is "common": the cap alone decides
    monkeypatch.setattr(hybrid, "BM25_MAX_POSTINGS", 40)
    drop = hybrid.capped_terms(app.conn, "quillwort river stone alder", frozenset())
    assert "quillwort" not in drop and {"river", "stone"} <= drop
    assert app.search("quillwort river stone alder", mode="keyword").hits[0].source_id == "rare"
    monkeypatch.setattr(hybrid, "BM25_MAX_POSTINGS", 10_000)
    assert hybrid.capped_terms(app.conn, "quillwort river stone alder", frozenset()) == frozenset()


def test_bm25_cap_counts_single_characters_and_phrases(app, tmp_path, monkeypatch):
    """The cap weighs every part of the OR query: a single character ("3") and a phrase
    ("t cell" for "T-cell") match rows BM25 must score like any word's, so a frequent one
    is left out too (it was kept whatever its frequency)."""
    import json

    from cairn.search.query import build_match_query, match_words
    rows = [{"id": f"d{i}", "text": f"day 3 of the T-cell assay, batch {i}"} for i in range(60)]
    rows.append({"id": "rare", "text": "msx2 expression rose 3 hours later"})
    write(tmp_path / "n.jsonl", "".join(json.dumps(r) + "\n" for r in rows))
    app.import_notes(tmp_path / "n.jsonl")
    assert match_words("MSX2 in 3 hours, T-cell title:x") == ["msx2", "in", "3", "hours", "t cell"]
    monkeypatch.setattr(hybrid, "COMMON_MIN_CHUNKS", 1)
    monkeypatch.setattr(hybrid, "COMMON_DF", 1.0)
    monkeypatch.setattr(hybrid, "BM25_MAX_POSTINGS", 40)
    query = "MSX2 after 3 hours in T-cell"
    drop = hybrid.capped_terms(app.conn, query, frozenset())
    assert {"3", "t cell"} <= drop and "msx2" not in drop
    assert build_match_query(query, drop=drop) == '"MSX2" OR "after" OR "hours"'
    assert app.search(query, mode="keyword").hits[0].source_id == "rare"
    monkeypatch.setattr(hybrid, "COMMON_DF", 0.2)  # 61 of 61 chunks hold "3": common as well
    assert {"3", "t cell"} <= hybrid.common_terms(app.conn, query)
