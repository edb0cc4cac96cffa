"""Questions about one named subject over notes about several people (answer/subject.py):
sentences are scored without the name, and a note about someone else is not quoted."""

from __future__ import annotations

import json

import pytest

from conftest import notes_app, write
from cairn.answer.subject import about_subject, is_name_title, names, question_subject, strip_name
from cairn.model import Hit
from cairn.service import Cairn

# Notes written for this test: two people, a project, a log that is no one's.
NOTES = {
    "tereza.md": "# Tereza Novak\n\nTereza Novak lives in Olomouc. She is a glassblower at a small studio.\n"
                 "Her husband is called Radek; he repairs clocks.\nTereza is allergic to shellfish.\n",
    "bruno.md": "# Bruno Lindqvist\n\nBruno Lindqvist lives in Malmo.\nHe is allergic to birch pollen.\n"
                "His daughter Sigrid plays the oboe.\n",
    "kestrel.md": "# Project Kestrel\n\nProject Kestrel maps the tram noise of Olomouc.\n"
                  "The deadline for the pilot is 30 June 2026.\n",
    "garden.md": "# Garden log\n\nThe pear tree was pruned on 20 February 2026.\n",
}


@pytest.fixture(scope="module")
def notes_home(tmp_path_factory, real_embedder):
    root = tmp_path_factory.mktemp("subject")
    for name, body in NOTES.items():
        write(root / "v" / name, body)
    chat = root / "chat.jsonl"
    chat.write_text("\n".join(json.dumps(r) for r in [
        {"conversation": "c1", "session": "s1", "id": "k1", "speaker": "Ines", "time": "2024-05-01T10:00",
         "text": "I live in Utrecht, near the station."},
        {"conversation": "c1", "session": "s1", "id": "k2", "speaker": "Ola", "time": "2024-05-01T10:01",
         "text": "Nice! I'm allergic to penicillin, found out last year."},
    ]) + "\n", encoding="utf-8")
    with Cairn(root / "home", embedder=real_embedder) as app:
        app.ingest([root / "v"])
        app.import_chat(chat)
        yield app


def _quoted_from(ans):
    return {c["title"] for c in ans.citations}


def test_the_answering_sentence_need_not_repeat_the_name(notes_home):
    ans = notes_home.ask("Who is Tereza's husband?", llm="none")
    assert "Radek" in ans.answer and _quoted_from(ans) == {"Tereza Novak"}, ans.answer


def test_a_note_about_someone_else_is_not_quoted(notes_home):
    ans = notes_home.ask("What is Bruno allergic to?", llm="none")
    assert "birch pollen" in ans.answer, ans.answer
    assert "shellfish" not in ans.answer and "penicillin" not in ans.answer


def test_a_chat_message_not_naming_the_subject_is_not_quoted(notes_home):
    ans = notes_home.ask("Where does Bruno live?", llm="none")
    assert "Malmo" in ans.answer and "Utrecht" not in ans.answer, ans.answer


def test_a_place_named_as_a_modifier_filters_nothing(notes_home):
    ans = notes_home.ask("When is the deadline of the Olomouc noise pilot?", llm="none")
    assert "30 June 2026" in ans.answer, ans.answer


@pytest.mark.parametrize("question, subject", [
    ("What does Jonas do for a living?", "Jonas"),
    ("Who is Priya's husband?", "Priya"),
    ("Where does Marta live?", "Marta"),
    ("Bruno likes which opera?", None),  # the first word of a question is no name (premise.all_names)
    ("What did Lena tell Omar?", None),  # two names: no single subject
    ("When is the deadline of the Ghent sensor project?", None),  # a modifier, not a subject
    ("Who is Anthony?", "Anthony"),
    ("What is the weather like?", None),
])
def test_question_subject(question, subject):
    assert question_subject(question) == subject


def test_strip_name_and_name_titles():
    assert strip_name("Who is Priya's husband?", "Priya") == "Who is husband?"
    assert [is_name_title(t) for t in ("Priya Raman", "Project Heron", "Garden log", "Trip to Ghent", "2024 Taxes")] \
        == [True, True, False, False, False]


def _note(title, text):
    return Hit(id="c1", note_id="n1", source_id=None, title=title, path="p.md", source=None, snippet=text,
               text=text, start=0, end=len(text), page=None, score=1.0, signals={})


def test_about_subject():
    about = about_subject("Jonas", ["Kai", "Melanie"])
    assert about(_note("Jonas Weber", "x"), "He is a pastry chef.")  # his own note
    assert not about(_note("Priya Raman", "x"), "She works at Arup.")  # someone else's note
    assert about(_note("Priya Raman", "x"), "Jonas is not involved.")  # names him
    assert about(_note("Garden log", "x"), "The tree was pruned.")  # nobody's note
    chat = Hit(id="m1", note_id="n2", source_id="m1", title="c", path="c.md", source=None, snippet="",
               text="I live in Utrecht.", start=0, end=18, page=None, score=1.0, signals={}, speaker="Kai")
    assert not about(chat, "I live in Utrecht.")
    # a participant's name, or a short form of it, is left to the person check
    assert about_subject("Mel", ["Melanie"])(chat, "I live in Utrecht.")


@pytest.mark.parametrize("question", ["", "???", "🥜🥜", "'s", "What does (Jonas do?", "x" * 100000, "Would",
                                      "Does \\ hate []?", "least least"])
def test_odd_questions_never_raise(question):
    from cairn.answer.polarity import contradiction
    from cairn.search.asked import is_hypothetical
    assert question_subject(question) is None
    assert contradiction(question, question) is None
    assert is_hypothetical(question) is False


def test_a_shared_first_name_is_not_the_subject():
    # "Maria" in "Maria Lopez" does not name Maria Chen; her full name, her surname, or the
    # first name alone do
    assert not names("Maria Lopez", "Maria Chen")
    assert not names("Attendees: Maria Lopez, Tom Reyes.", "Maria Chen")
    assert names("Attendees: Maria Lopez, Maria Chen.", "Maria Chen")
    assert names("Maria Chen's plan", "Maria Chen") and names("Chen signed it.", "Maria Chen")
    assert names("Maria said no.", "Maria Chen") and names("MARIA CHEN", "Maria Chen")
    assert names("Maria Lopez", "Maria") and not names("Tomatoes", "Tom")  # one-word names as before
    about = about_subject("Maria Chen")
    assert not about(_note("Maria Lopez", "x"), "Her birthday is 3 April.")  # another Maria's note
    assert about(_note("Maria Chen", "x"), "She prefers written proposals.")
    from cairn.answer.topic import subject_absent
    assert subject_absent("Maria Chen", [("Heron kickoff", "Attendees: Maria Lopez, Tom Reyes.")])
    assert not subject_absent("Maria Chen", [("Kestrel review", "Attendees: Maria Chen, Joanna Fitz.")])


# Two people with the same first name, written for this test.
MARIAS = {
    "lopez.md": "# Maria Lopez\n\nEngineering manager for payments. Leads Project Heron.\n"
                "Her birthday is 3 April.\n",
    "chen.md": "# Maria Chen\n\nProduct manager for onboarding. Works from London.\n"
               "Prefers written proposals to meetings.\n",
    "kickoff.md": "# Heron kickoff meeting\n\nAttendees: Maria Lopez, Tom Reyes, Nikhil Rao.\n\n"
                  "## Decisions\n- We migrate table by table, starting with the invoices table.\n",
}


@pytest.fixture(scope="module")
def marias(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("marias"), MARIAS, real_embedder) as app:
        yield app


@pytest.mark.parametrize("question", ["What is Maria Chen's birthday?",
                                      "What did Maria Chen decide about the invoices table?"])
def test_another_person_with_the_same_first_name_does_not_answer(marias, question):
    ans = marias.ask(question, llm="none")
    assert ans.verdict == "abstain", ans.answer
    assert not ans.citations


def test_the_person_asked_about_is_still_answered(marias):
    ans = marias.ask("What is Maria Lopez's birthday?", llm="none")
    assert ans.verdict == "pass" and "3 April" in ans.answer, ans.answer
