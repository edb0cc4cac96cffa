"""An answer's `problems` carry the search's warnings that concern the asker, not the words a
question asks with: "How much…" reported "no note contains 'much'" on every passed answer
(the session-12 user test). A content word of the question that no note holds is still
named, and the JSON shape of an answer stays as it is (a contract)."""

from __future__ import annotations

import pytest

from cairn.service import Cairn

from conftest import HashEmbedder, write

ANSWER_KEYS = ["verdict", "answer", "citations", "mode", "llm", "fallback", "problems"]


@pytest.fixture
def roof(tmp_path):
    write(tmp_path / "src" / "roof.md", "# Roof estimate\n\nThe roof repair costs 4300 pounds, paid in November.\n")
    home = tmp_path / "home"
    with Cairn(home, embedder=HashEmbedder()) as app:
        app.ingest([str(tmp_path / "src")])
        yield app


def test_asking_words_are_not_reported_as_missing(roof):
    ans = roof.ask("How much should the roof repair cost?", llm="none")
    assert not any("'much'" in p or "'should'" in p for p in ans.problems), ans.problems
    search = roof.search("How much should the roof repair cost?", group=False)
    assert any("'much'" in w for w in search.warnings)  # the search itself still says so


def test_a_content_word_no_note_holds_is_still_reported(roof):
    ans = roof.ask("How much did the zanzibar roof repair cost?", llm="none")
    missing = [p for p in ans.problems if p.startswith("no note contains ")]
    assert missing == ["no note contains 'zanzibar'"], ans.problems


def test_the_ask_json_keeps_its_keys(roof):
    row = roof.ask("How much should the roof repair cost?", llm="none").to_json()
    assert all(k in row for k in ANSWER_KEYS) and isinstance(row["problems"], list)
    batch = list(roof.ask_batch([("q1", "How much should the roof repair cost?")], llm="none"))
    assert list(batch[0].to_json()) == ["id", *ANSWER_KEYS]
    assert not any("'much'" in p for p in batch[0].to_json()["problems"])
