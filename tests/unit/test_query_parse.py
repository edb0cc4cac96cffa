"""search/query.py: a query is parsed once into a ParsedQuery (words, column filters, pairs,
quoted phrases, dates, filters); store/fts.py and the PostgreSQL store only render the words
chosen from it (issue 33)."""

from __future__ import annotations

from datetime import date

import pytest

from cairn.errors import InvalidInput
from cairn.search.dates import DateWindow
from cairn.search.asked import Asked
from cairn.search.query import Filters, ParsedQuery, Word, build_match_query, parse_query, parse_question
from cairn.store import fts
from cairn.store.postgres import keyword as pg_keyword


def test_words_terms_and_column_filters():
    q = parse_query("title:Boiler annual Service tags:home")
    assert q.words == (Word(("Boiler",), "title"), Word(("annual",)), Word(("Service",)), Word(("home",), "tags"))
    assert q.terms == ("title", "boiler", "annual", "service", "tags", "home")
    assert q.has_field_filter and q.searchable and not q.empty
    assert q.match_words() == ["annual", "service"]  # column filters are not OR-ed words


def test_quoted_phrases_are_recorded_and_searched_as_their_words():
    q = parse_query('"Annual service" of the "boiler"')
    assert q.phrases == (("annual", "service"), ("boiler",))
    assert [w.tokens for w in q.or_words()] == [("Annual",), ("service",), ("boiler",)]
    assert q.pairs == (("annual", "service"),)  # "of the" breaks the pair to "boiler"


def test_punctuation_joins_terms_into_one_phrase_and_symbols_are_no_words():
    q = parse_query("k8s-prod 08:00 health.base C++ - 🙂 *")
    assert [w.tokens for w in q.words] == [("k8s", "prod"), ("08", "00"), ("health", "base"), ("C",)]
    assert str(fts.render(q.or_words())) == '"k8s prod" OR "08 00" OR "health base" OR "C"'


def test_cjk_runs_are_one_character_per_term():
    q = parse_query("内存告警 東京 ok")
    assert q.words[0].tokens == ("内", "存", "告", "警") and q.words[1].tokens == ("東", "京")
    assert str(fts.render(q.or_words())) == '"内 存 告 警" OR "東 京" OR "ok"'


def test_dates_named_in_the_text():
    q = parse_query("what did we plan in July 2023 and on 2023-08-05")
    assert q.dates == (DateWindow(date(2023, 7, 1), date(2023, 7, 31)), DateWindow(date(2023, 8, 5), date(2023, 8, 5)))
    assert parse_query("room 2023 for 300 days").dates == ()
    assert q.with_filters(Filters(tag="x")).dates is q.dates  # read once, kept by the copies


def test_stopwords_are_dropped_unless_nothing_else_remains():
    assert [w.key for w in parse_query("what is the boiler").or_words()] == ["boiler"]
    only = parse_query("what is the")
    assert only.searchable and [w.key for w in only.or_words()] == ["what", "is", "the"]
    assert [w.key for w in parse_query("boiler garden").or_words(drop=frozenset({"garden"}))] == ["boiler"]
    # a column filter is never dropped; with fields=False it is a plain word anywhere
    q = parse_query("title:the boiler")
    assert [(w.key, w.column) for w in q.or_words()] == [("the", "title"), ("boiler", None)]
    assert [(w.key, w.column) for w in q.or_words(fields=False)] == [("boiler", None)]


def test_empty_garbage_and_non_text_queries():
    for text in ("", "   \n"):
        q = parse_query(text)
        assert q.empty and not q.searchable and fts.render(q.or_words()) is None
    garbage = parse_query("?! ## -- 🙂 *")
    assert not garbage.empty and not garbage.searchable and fts.render(garbage.or_words()) is None
    assert parse_query("title:!!").has_field_filter and not parse_query("title:!!").searchable
    with pytest.raises(InvalidInput, match="must be text, got int"):
        parse_query(42)
    with pytest.raises(InvalidInput, match="got NoneType"):
        parse_query(None)


def test_a_question_is_parsed_with_its_answer_type_a_search_without():
    q = parse_question("What's the plumber's phone number?", Filters(tag="home"))
    assert q.answer_type == Asked("phone", (), ("plumber",)) and q.to_json()["answer_type"] == "phone"
    assert q.words == parse_query("What's the plumber's phone number?").words and q.filters.tag == "home"
    assert parse_query("What's the plumber's phone number?").answer_type is None  # a plain search reads none
    with pytest.raises(InvalidInput, match="must be text, got int"):
        parse_question(42)


def test_operators_and_quotes_never_make_fts5_syntax():
    assert build_match_query('"""') is None
    for text in ('NEAR(a b) AND "x OR -y', 'a"b', "title:\"x\" OR"):
        match = build_match_query(text)
        assert match is not None and all(part.startswith(('"', "title : \"")) for part in match.split(" OR "))


def test_a_parsed_query_is_immutable_and_reparsing_keeps_it():
    q = parse_query("boiler service", Filters(tag="home"))
    with pytest.raises(AttributeError):
        q.text = "x"  # type: ignore[misc]
    assert parse_query(q) is q  # already parsed: not parsed again
    other = parse_query(q, Filters(since="2024-01-01"))
    assert other.words is q.words and other.filters.since == "2024-01-01" and other.filters.tag is None
    assert q.to_json()["filters"] == {"tag": "home"}


def test_the_store_renders_the_words_it_is_given_without_reading_any_text(monkeypatch):
    """fts.render and the PostgreSQL renderer take a parsed query's words as they are: a query
    object whose words disagree with its text is rendered from its words, and with the
    tokenizer broken after the parse, rendering still works (nothing is tokenised again)."""
    q = ParsedQuery(text="something else entirely", words=(Word(("Heron", "Pond"), "title"), Word(("egret",))),
                    pairs=(("grey", "heron"),))

    def no_tokenising(text):
        raise AssertionError(f"tokenised again: {text!r}")

    monkeypatch.setattr(fts, "_terms", no_tokenising)
    match = fts.render(q.or_words())
    assert match == fts.Match((fts.Phrase(("Heron", "Pond"), "title"), fts.Phrase(("egret",))))
    assert str(match) == 'title : "Heron Pond" OR "egret"'
    assert str(fts.render(q.pair_words())) == '"grey heron"'

    def no_parsing(*a):
        raise AssertionError("FTS5 text parsed")

    monkeypatch.setattr(pg_keyword, "_PART", type("NoParse", (), {"match": staticmethod(no_parsing)})())
    tsquery, phrases = pg_keyword.render(match)
    assert tsquery == "('Heron':A <-> 'Pond':A) | ('egret')"
    assert phrases == [("A", ["Heron", "Pond"], False), ("", ["egret"], False)]
    assert pg_keyword.parse(match) == (tsquery, phrases)  # a Match is rendered, not parsed


def test_postgres_renders_a_match_as_it_parses_the_same_fts5_text():
    for text in ("title:boiler k8s-prod 告警 tags:home C++", "breast cancer risk", "a"):
        match = fts.render(parse_query(text).or_words())
        assert pg_keyword.render(match) == pg_keyword.parse(str(match)), text
