"""Search runs on one parsed query (issue 33, search/query.py): the text is parsed once, and the
keyword channel, the store and the answer path read the ParsedQuery, never the text again."""

from __future__ import annotations

import pytest

from conftest import notes_app
from cairn.search.query import Filters, ParsedQuery, Word, parse_query
from cairn.store import fts

NOTES = {
    "heron.md": "---\ntitle: Heron pond\ntags: [birds]\n---\n\nA grey heron fished at the pond on 3 May 2024.\n",
    "boiler.md": "---\ntitle: Boiler service\ntags: [home]\n---\n\nThe annual boiler service is due in October; "
                 "the engineer's number is k8s-prod 08:00.\n",
    "cjk.md": "---\ntitle: 出張メモ\n---\n\n内存告警已清零。東京の会議は木曜日。\n",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("parsed"), NOTES, real_embedder) as a:
        yield a


def _hits(res):
    return [(h.id, round(h.score, 6)) for h in res.hits]  # recency moves with the clock between two searches


@pytest.mark.parametrize("text", ["grey heron pond", "title:boiler service", "k8s-prod 08:00", "告警", "the of",
                                  "C++ ?!", "heron in May 2024"])
def test_a_parsed_query_finds_what_its_text_finds(app, text):
    for mode in ("keyword", "hybrid"):
        by_text, by_parsed = app.search(text, mode=mode), app.search(parse_query(text), mode=mode)
        assert _hits(by_parsed) == _hits(by_text) and by_parsed.warnings == by_text.warnings, (text, mode)


def test_search_reads_the_parsed_words_not_the_text_and_never_tokenises_again(app, monkeypatch):
    """A ParsedQuery whose words disagree with its text is searched by its words; with the
    tokenizer broken after the parse, keyword and hybrid search still run (the channels, the
    store's renderer, snippets and the 'no note contains' check read the parsed object)."""
    q = ParsedQuery(text="zzqx unrelated words", words=(Word(("heron",)),), terms=("heron",))

    def no_tokenising(text):
        raise AssertionError(f"tokenised again: {text!r}")

    monkeypatch.setattr(fts, "_terms", no_tokenising)
    keyword = app.search(q, mode="keyword")
    assert [h.title for h in keyword.hits] == ["Heron pond"] and keyword.keyword_error is None
    monkeypatch.undo()
    boiler = parse_query("annual boiler service in October")
    monkeypatch.setattr(fts, "_terms", no_tokenising)
    hybrid = app.search(boiler, mode="hybrid")
    assert hybrid.hits[0].title == "Boiler service" and hybrid.keyword_error is None


def test_filters_given_with_a_parsed_query_are_its_filters(app):
    q = parse_query("heron boiler", Filters(tag="birds"))
    assert [h.title for h in app.search(q, mode="keyword", tag="home").hits] == ["Boiler service"]
    assert {h.title for h in app.search(q, mode="keyword").hits} == {"Heron pond", "Boiler service"}


def test_ask_parses_the_question_once_and_records_it_in_the_trace(app, monkeypatch):
    import cairn.search.query as Q

    calls = []
    real = Q.parse_query
    monkeypatch.setattr(Q, "parse_query", lambda *a, **kw: calls.append(a[0]) or real(*a, **kw))
    ans = app.ask("When is the annual boiler service due?", llm="none")
    assert calls == ["When is the annual boiler service due?"]  # searched twice at most, parsed once
    from cairn.traces import load
    stage = next(s for s in load(app.settings.home, ans.trace_id)["stages"] if s["name"] == "search")
    query = stage["output"]["query"]
    assert query["answer_type"] == "date" and {"terms": ["boiler"], "column": None} in query["words"]


def test_keyword_search_folds_ligatures_full_width_letters_and_invisible_characters(app):
    """probe23: text extracted from PDFs holds ligatures (U+FB01 "ﬁ"), web pages soft hyphens
    and zero-width spaces, East Asian input full-width Latin letters; the keyword index kept
    them as written, so "final office", "heatpump" or "fullwidth" found nothing."""
    app.note_create("plan", "The ﬁnal oﬃce ﬂoor plan. Ｆｕｌｌｗｉｄｔｈ report. Heat\u00adpump and zero\u200bwidth.")
    app.note_create("plain", "Nothing about any of those words.")
    for q in ["final office", "floor", "fullwidth", "heatpump", "zerowidth", "ﬁnal", "ＦＵＬＬＷＩＤＴＨ", "heat\u00adpump"]:
        assert [h.title for h in app.search(q, mode="keyword").hits] == ["plan"], q
    assert fts.index_text("ﬁle\u200b") == "file" and fts.query_terms("Ｏﬃce\u00ad") == ["office"]
    assert fts.index_text("東京") == " 東  京 "  # CJK still one character per term
