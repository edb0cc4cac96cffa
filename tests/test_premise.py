"""The premise check (answer/premise.py): a question naming something no note mentions
abstains, saying so; document_frequency counts words the way the FTS5 index stems them."""

from __future__ import annotations

import pytest

from conftest import write
from cairn.answer.premise import question_names, unknown_names
from cairn.search.hybrid import document_frequency
from cairn.service import Cairn


@pytest.mark.parametrize("question, names", [
    ("What did Ana take a trip to Barcelona for?", ["Ana", "Barcelona"]),
    ('What memory does "The Shipping News" bring back?', ["Shipping News"]),  # a quoted title, less "The"
    ("Who is his favourite character in Lord of the Rings?", ["Lord of the Rings"]),
    ("Where is Gina's HR internship?", ["Gina", "HR"]),  # possessive dropped, acronym kept
    ("What did we cook on February 7, 2022?", []),  # month names date the event
    ("Would she read books by C. S. Lewis?", ["Lewis"]),  # initials are no names
    ("When did John run his first 5K?", ["John"]),  # "5K" is no name
    ("What did I say? Was it Monday?", []),  # "I", sentence starts, weekday
    ("Did Dr. Ruiz call back?", ["Dr Ruiz"]),  # an abbreviation does not end the sentence
    ('"When was the boiler serviced?"', []),  # the first word counts after quotes, brackets, emoji
    ("(When was it?)", []),
    ("\N{FIRE} When was it?", []),
    ("hey, When was it?", []),  # a capitalised stopword is no name
    ("Who leads? And What about Sarah?", ["Sarah"]),
    ("WHAT CAMERA DID I BUY?", []),  # a question in capitals
    ("What is the deadline for Atlas, ASAP?", ["Atlas"]),  # a chat abbreviation
])
def test_question_names(question, names):
    assert question_names(question) == names


def test_question_names_excludes_given_names():
    assert question_names("What did Ana Lopez tell Ben about Oslo?", exclude=["Ana Lopez", "Ben"]) == ["Oslo"]
    # a name with one known word is left out whole, not cut down to its other words
    assert question_names("What does John like about LeBron James?", exclude=["John", "lebron"]) == []


def test_unknown_names_counts_a_name_known_by_any_word_or_a_long_prefix():
    counts = {"lebron": 4, "europe": 2, "tennessee": 1}

    def doc_freq(word, prefix):
        w = word.lower()
        return sum(n for k, n in counts.items() if k.startswith(w)) if prefix else counts.get(w, 0)

    assert unknown_names("Did LeBron James visit Barcelona, Tennesee and European cities?", doc_freq) == ["Barcelona"]
    # a title is no evidence: "Dr" occurring somewhere does not make "Dr. Smith" known
    counts["dr"] = 3
    assert unknown_names("What did Dr. Smith say?", doc_freq) == ["Dr Smith"]
    # one known alternative is enough: "Kyoto or Osaka?"
    counts["kyoto"] = 1
    assert unknown_names("Are we going to Kyoto or Osaka?", doc_freq) == []
    assert unknown_names("Are we going to Kyoto and Osaka?", doc_freq) == ["Osaka"]
    # a known speaker elsewhere in the question is no alternative to either city
    assert unknown_names("Did Caroline visit Barcelona or Madrid?", doc_freq, exclude=["Caroline"]) == [
        "Barcelona", "Madrid"]
    # an alias is known as a whole: "New York" does not make "New Orleans" known
    assert unknown_names("Did we fly to New Orleans?", doc_freq, exclude=["New York"]) == ["New Orleans"]
    # a short name is not known through a common word's prefix ("Hunter" / "hunting")
    counts["hunting"] = 5
    assert unknown_names("What did Hunter say?", doc_freq) == ["Hunter"]


@pytest.fixture(scope="module")
def trip_app(tmp_path_factory, real_embedder):
    tmp = tmp_path_factory.mktemp("premise")
    write(tmp / "v" / "trip.md", "# Spring trip\n\nAna took a short trip to Rome in April to clear her mind. "
                                 "She visited the Vatican Museums and ate carbonara every day.\n")
    with Cairn(tmp / "home", embedder=real_embedder) as app:
        app.ingest([tmp / "v"])
        yield app


def test_question_naming_an_unmentioned_place_abstains_with_the_name(trip_app):
    ans = trip_app.ask("Why did Ana take a trip to Barcelona?", llm="none")
    assert ans.abstained and not ans.citations
    assert "never mention 'Barcelona'" in ans.answer and "abstained: the notes never mention 'Barcelona'" in ans.problems


def test_question_with_known_names_still_answers(trip_app):
    ans = trip_app.ask("Why did Ana take a trip to Rome in April?", llm="none")
    assert not ans.abstained and "clear her mind" in ans.answer


def test_document_frequency_uses_the_index_stemmer(trip_app):
    conn = trip_app.conn
    assert document_frequency(conn, "trips") == 1  # stemmed like the index: trip
    assert document_frequency(conn, "Museum") == 1
    assert document_frequency(conn, "barcelona") == 0
    assert document_frequency(conn, "carbo", prefix=True) == 1 and document_frequency(conn, "carbo") == 0
    assert document_frequency(conn, 'odd "quote') == 0  # FTS5 syntax never raises


def test_document_frequency_counts_words_snowball_would_stem_differently(app, tmp_path):
    write(tmp_path / "v" / "us.md", "# Visit\n\nCome and see us in the US next summer.\n")
    app.ingest([tmp_path / "v"])
    assert document_frequency(app.conn, "US") == 1  # Snowball's Porter stems "us" to "u"
    assert app.ask("Where should Ana visit in the US?", llm="none").problems[:1] != [
        "abstained: the notes never mention 'US'"]


def test_a_note_alias_is_a_known_name(app, tmp_path):
    write(tmp_path / "v" / "kickoff.md", "---\naliases: [ZK]\n---\n# Zeta kickoff\n\nThe kickoff is on 3 May in room 4.\n")
    app.ingest([tmp_path / "v"])
    ans = app.ask("When is the ZK kickoff?", llm="none")
    assert not ans.abstained and "3 May" in ans.answer
    problems = app.ask("When is the QX kickoff?", llm="none").problems
    assert problems[0] == "abstained: the notes never mention 'QX'"
    assert problems[1:] == ["no note contains 'qx'"]  # the search's own word (relevance floor)
