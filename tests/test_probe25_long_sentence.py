"""probe25: a note that is one line of words without a full stop (a 496 KB export, a
transcript run together) with "The boathouse code is 4417." in the middle: `ask` passed but
quoted 1,712 characters, from the chunk's start to "4417.", because the sentence splitter found
no boundary before "The". A sentence longer than lexical.LONG_SENTENCE characters is now cut
(line break, clause mark, a capitalised word after a lower-case one, a space), so a quote
stays readable."""

from __future__ import annotations

import random

import pytest

from conftest import write
from cairn import lexical
from cairn.lexical import LONG_SENTENCE, sentences

WORDS = "stone ember alpha river cloud maple tin quartz ladder velvet orbit moss harbor ticket lantern".split()


def _run_on(n_words: int, seed: int = 7) -> str:
    rnd = random.Random(seed)
    return " ".join(rnd.choice(WORDS) for _ in range(n_words))


def test_a_long_run_of_words_comes_as_bounded_sentences():
    junk = _run_on(3000)
    text = junk[:9000] + " The boathouse code is 4417. " + junk[9000:]
    spans = sentences(text)
    assert max(e - s for s, e in spans) <= LONG_SENTENCE
    assert "The boathouse code is 4417." in [text[s:e] for s, e in spans]
    covered = "".join(text[s:e] for s, e in spans).replace(" ", "")
    assert covered == text.replace(" ", "")  # nothing of the text is lost between pieces


def test_a_long_sentence_is_cut_at_a_clause_not_inside_a_link():
    link = "[the Creative Commons Attribution licence, version four](https://example.org/a/very/long/path)"
    clause = "and to permit persons to whom the thing is furnished to do so, " * 6
    text = "Permission is hereby granted, free of charge, to any person " + link + " " + clause + "subject to the conditions."
    pieces = [text[s:e] for s, e in sentences(text)]
    assert len(pieces) > 1 and all(len(p) <= LONG_SENTENCE for p in pieces)
    assert all(p.endswith(",") or p.endswith(".") for p in pieces), pieces  # each cut after a comma
    assert any(link in p for p in pieces)  # the link kept whole


def test_a_long_text_without_spaces_is_cut_at_the_bound():
    text = "x" * (3 * LONG_SENTENCE + 10)
    spans = sentences(text)
    assert [e - s for s, e in spans] == [10, LONG_SENTENCE, LONG_SENTENCE, LONG_SENTENCE]


def test_ordinary_sentences_are_untouched():
    text = "Dr. Okafor serviced the boiler on 9 May. It cost 110 EUR, paid by card."
    assert [text[s:e] for s, e in sentences(text)] == [
        "Dr. Okafor serviced the boiler on 9 May.", "It cost 110 EUR, paid by card."]


@pytest.mark.parametrize("bound", [LONG_SENTENCE, 0])
def test_ask_quotes_the_sentence_not_the_run_before_it(app, tmp_path, monkeypatch, bound):
    """End to end: with the bound the answer is the one sentence; with it off (0) the quote runs
    from the chunk's start, longer than the bound (the fault)."""
    monkeypatch.setattr(lexical, "LONG_SENTENCE", bound)
    junk = _run_on(8000)
    write(tmp_path / "v" / "long.md", junk[:25_000] + " The boathouse code is 4417. " + junk[25_000:] + "\n")
    app.ingest([tmp_path / "v"])
    ans = app.ask("what is the boathouse code", llm="none")
    assert "4417" in ans.answer
    if bound:
        assert ans.verdict == "pass" and ans.answer.startswith("The boathouse code is 4417"), ans.answer
        assert len(ans.answer) < 100 and len(ans.citations[0]["quote"]) <= LONG_SENTENCE
    else:
        assert len(ans.answer) > LONG_SENTENCE
