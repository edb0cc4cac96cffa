"""The one knowledge answer (issue 32, cairn/ops/knowledge.py): memories, notes, entities,
reminders and earlier conversations as one answer that says where it came from. Real
SQLite, the packaged embedder, notes written here (invented for these tests)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from cairn.assistant.knowledge import KnowledgeAnswer, answer_about
from cairn.errors import InvalidInput
from cairn.ops import knowledge_text as T
from conftest import notes_app

NOTES = {
    "family-dates.md": "# Family dates\n\n- Dad: 30 January\n- Tom (Priya's husband, my brother-in-law): 4 August\n",
    "electrician.md": "# Electrician\n\nSam Okafor, Bright Spark Electrics. Phone 01632 960555. "
                      "Rewired the loft in 2024.\n",
    "water-heater.md": "# Water heater\n\nAriston Velis 80 litre, fitted 2021.\n"
                       "Last descaled: 2 February 2025 by Nadia Rossi.\nAnode check due in 2027.\n",
    "allotment.md": "# Allotment\n\nPlot 14 at Hill Lane. Rent is £45 a year, due each April.\n",
    "vet.md": "# Vet visit\n\nBiscuit's booster jab is on 3 May at 09:15 at Riverside Vets.\n"
              "Bring the vaccination card and a blanket.\n",
}
SAID = "2026-03-05T10:00:00+00:00"
NOW = datetime(2026, 3, 20, 12, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def kapp(tmp_path_factory, real_embedder):
    root = tmp_path_factory.mktemp("know")
    with notes_app(root, NOTES, real_embedder) as app:
        app.remember("my cousin Priya's birthday is 14 October", at=SAID)
        with app.scheduler() as sch:
            sch.remind("renew the passport", at="in 10 days")
        from cairn.assistant.sessions import SessionStore
        store = SessionStore(app.settings.home)
        st = store.create("cli", "local", "none")
        store.append(st.id, {"type": "user", "turn": 1, "text": "I left the spare key under the blue flowerpot"})
        store.append(st.id, {"type": "user", "turn": 2, "text": "when is the canal boat trip and what should I pack?"})
        store.append(st.id, {"type": "user", "turn": 3, "text": "when is the gutter cleaner coming, and what do I owe?"})
        store.append(st.id, {"type": "user", "turn": 4, "text": "whats the wifi password at the cabin"})
        store.append(st.id, {"type": "user", "turn": 5, "text": "The cabin wifi password pls"})
        store.append(st.id, {"type": "user", "turn": 6, "text": "and how often do the gutters need clearing"})
        store.append(st.id, {"type": "nlu", "turn": 5, "text": "The cabin wifi password pls",
                             "actions": [{"intent": "ask", "text": "The cabin wifi password pls"}]})
        yield app


def test_the_persons_own_statement_outranks_a_note_about_someone_else(kapp):
    ans = answer_about(kapp, "when is Priya's birthday?", now=NOW)
    assert isinstance(ans, KnowledgeAnswer) and ans.found
    assert ans.sources[0].kind == "memory" and "14 October" in ans.sources[0].quote
    assert ans.text.startswith("You told me on 5 March:") and "14 October" in ans.text
    assert "4 August" not in ans.text  # Tom's date, from a note about someone else
    assert ans.why["chosen"][0] == "memory" and ans.why["memories"][0]["focus"] == 1.0
    assert ans.why["notes"]["focus"] < 1.0  # the note line names Tom first


def test_a_note_answer_is_cited_with_its_title(kapp):
    ans = answer_about(kapp, "when was the water heater last descaled?", now=NOW)
    assert ans.found and ans.sources[0].kind == "note" and ans.sources[0].title == "Water heater"
    assert "2 February 2025" in ans.text and "[1] Water heater" in ans.text


def test_who_is_gathers_the_notes_and_the_entity(kapp):
    ans = answer_about(kapp, "who is Sam Okafor?", now=NOW)
    assert ans.found and ans.why["mode"] == "profile" and ans.why["subject"] == "Sam Okafor"
    notes = [s for s in ans.sources if s.kind == "note"]
    assert notes[0].title == "Electrician" and "01632 960555" in ans.text and "[1] Electrician" in ans.text


def test_what_do_you_know_about_joins_memory_and_the_names_it_holds(kapp):
    ans = answer_about(kapp, "what do you know about my cousin?", now=NOW)
    kinds = [s.kind for s in ans.sources]
    assert ans.found and kinds[0] == "memory" and "note" in kinds
    assert "14 October" in ans.text  # the memory
    assert "Tom (Priya's husband" in ans.text  # a note line about Priya, found through the memory's name


def test_what_did_i_note_about_quotes_the_note_titled_by_the_subject(kapp):
    ans = answer_about(kapp, "what did I write about the water heater?", now=NOW)
    assert ans.found and [s.kind for s in ans.sources if s.kind == "note"] == ["note"]
    assert "Ariston Velis" in ans.text and "Last descaled" in ans.text


def test_a_follow_up_keeps_the_subject_given_by_the_caller(kapp):
    ans = answer_about(kapp, "and who did it last time?", subject="the water heater descaling", now=NOW)
    assert ans.found and "Nadia Rossi" in ans.text


def test_a_compound_question_is_answered_part_by_part_with_one_citation_list(kapp):
    ans = answer_about(kapp, "when is Biscuit's booster jab, and what should I bring?", now=NOW)
    assert ans.found and "3 May" in ans.text and "vaccination card" in ans.text
    assert ans.text.count("[1] Vet visit") == 1 and "[2]" not in ans.text
    assert len(ans.why["parts"]) == 2


def test_reminders_are_consulted(kapp):
    ans = answer_about(kapp, "when do I need to renew the passport?", now=NOW)
    assert ans.found and any(s.kind == "reminder" and "renew the passport" in s.title for s in ans.sources)
    assert "reminder" in ans.text


def test_earlier_conversations_answer_when_nothing_else_does(kapp):
    ans = answer_about(kapp, "where is the spare key?", now=NOW)
    assert ans.found and ans.sources[0].kind == "session" and "blue flowerpot" in ans.text
    assert "earlier conversation" in ans.text
    # a question asked before (or this one, logged as the turn began) answers nothing
    ans = answer_about(kapp, "when is the gutter cleaner coming?", now=NOW)
    assert not any(s.kind == "session" for s in ans.sources) and "gutter cleaner coming, and" not in ans.text


def test_an_earlier_question_is_no_evidence(kapp):
    """Asked before is not answered before: a question (here the current one's first half,
    logged whole) is never quoted back as what the person said."""
    ans = answer_about(kapp, "when is the canal boat trip", now=NOW)
    assert not any(s.kind == "session" for s in ans.sources) and "canal boat trip and" not in ans.text


def test_a_follow_up_question_asked_before_is_no_evidence(kapp):
    """A follow-up opening with "and" (no question mark: texted) asks; it is never quoted back as
    what the person said (week-m: "and how often am i supposed to be checking them" answered
    with itself from the session it was asked in)."""
    ans = answer_about(kapp, "how often do the gutters need clearing", now=NOW)
    assert not any(s.kind == "session" for s in ans.sources), ans.text


def test_the_question_just_logged_is_not_quoted_back(kapp):
    """The message, logged as the turn began, differs from the question asked only in its
    apostrophes, case or question mark (or has no question word): it is not evidence."""
    for asked in ("What's the wifi password at the cabin?", "the cabin wifi password pls?"):
        ans = answer_about(kapp, asked, now=NOW)
        assert not any(s.kind == "session" for s in ans.sources) and not ans.found, ans.text


def test_nothing_found_is_said_plainly(kapp):
    ans = answer_about(kapp, "what is the population of Mars?", now=NOW)
    assert not ans.found and ans.sources == [] and ans.text.startswith("I don't know")
    assert answer_about(kapp, "who is Zebulon Quarterfield?", now=NOW).found is False


def test_an_empty_question_is_refused(kapp):
    with pytest.raises(InvalidInput, match="empty"):
        answer_about(kapp, "   ")


def test_the_answer_is_json(kapp):
    out = answer_about(kapp, "when is Priya's birthday?", now=NOW).to_json()
    assert set(out) == {"text", "found", "sources", "why"}
    assert set(out["sources"][0]) == {"kind", "id", "title", "quote", "when", "n"}


@pytest.mark.parametrize("q,subject", [
    ("who is Sam Okafor?", "Sam Okafor"), ("Who's Nadia?", "Nadia"),
    ("what do you know about my cousin?", "my cousin"), ("tell me about the allotment", "allotment"),
    ("what did I note about the water heater?", "water heater"), ("when is Priya's birthday?", None),
    ("remind me to call Sam", None),
    # probe22: who does something is a question for a name, not a profile of "driving"
    ("Who is driving?", None), ("who's bringing snacks?", None), ("who was invited?", None),
    ("who is in charge of the keys?", None), ("who is the landlord?", "landlord"), ("Who is Sterling?", "Sterling"),
    # assistant22b: "who's" before an irregular past form is "who has" + a verb, a question for a name
    ("who's got the kids on thursdays", None), ("who’s made the booking?", None), ("who's done the tiling", None),
    ("who's left the side gate open?", None), ("who's the plumber?", "plumber"), ("who's lucy", "lucy"),
    ("who is Won Lee?", "Won Lee")])
def test_profile_subject(q, subject):
    assert T.profile_subject(q) == subject


def test_split_question_and_topic():
    assert T.split_question("when is the jab and what should I bring?") == ["when is the jab?", "what should I bring?"]
    assert T.split_question("what's the rent, and when is it due?") == ["what's the rent?", "when is it due?"]
    assert T.split_question("who is Sam and Nadia?") == ["who is Sam and Nadia?"]
    assert T.split_question("what is salt and pepper squid?") == ["what is salt and pepper squid?"]
    assert T.topic("when is my vet visit?") == "my vet visit" and T.topic("what is it?") is None


def test_names_focus_and_pronouns():
    assert T.names("Tom (Priya's husband): 4 August") == ["Tom", "Priya"]
    assert T.names("when is my dad's birthday in May?") == []
    assert T.focus(["Priya"], "my cousin Priya's birthday is 14 October") == 1.0
    assert T.focus(["Priya"], "Tom (Priya's husband): 4 August") == 0.5
    assert T.focus([], "anything") == 1.0
    assert T.with_subject("when was it serviced?", "the car") == "when was the car serviced?"
    assert T.with_subject("when was the car serviced?", "the car") == "when was the car serviced?"
    assert T.with_subject("and when was it last serviced?", "boiler") == "and when was the boiler last serviced?"
    assert T.with_subject("where does she live?", "Ana") == "where does Ana live?"  # a name takes no "the"
    assert T.with_subject("is it due?", "my car") == "is my car due?"
    assert T.said_on("2025-12-06T10:00:00+00:00", NOW) == "6 December 2025"
    assert T.said_on("not a time", NOW) == ""


def test_the_answer_about_tool_is_a_read_tool_of_every_door(kapp):
    from cairn.tools import registry
    tools = registry(kapp.settings)
    assert tools.get("answer_about").read_only
    out = tools.call(kapp, "answer_about", {"question": "who is Sam Okafor?"})
    assert out["found"] and out["sources"][0]["title"] == "Electrician"


def test_the_naming_verb_of_a_question_matches_no_reminder():
    """probe21: "what is my daughter called?" listed every reminder to "call" someone ("You
    have a reminder: call Ana"): its terms were daughter and called -> call, and "call Ana"
    held half of them. "is X called" / "named" asks a name; it is no term to match."""
    assert T.overlap("what is my daughter called?", "call Ana") == 0.0
    assert T.overlap("what's the dog named?", "name the new folder") == 0.0
    assert T.overlap("what was the plumber called?", "call the plumber") == 1.0  # the plumber, not the verb
    assert T.overlap("when do I need to call Ana?", "call Ana") > 0.5  # the verb asked: kept
    assert T.overlap("who called me about the boiler?", "call about the boiler") == 1.0


def test_a_memory_from_an_imported_chat_is_not_what_you_told_me():
    """probe22: a fact extracted from an imported chat ("Ines is driving", said by Ines) was
    given as 'You told me on …'; only the person's own statements are (remember, a reflection,
    a turn of their session with the assistant)."""
    from cairn.ops.knowledge import _said_line, said_by_you
    assert said_by_you("user") and said_by_you(None) and said_by_you("reflection")
    assert said_by_you("s-20261207-040344-407160#3")
    assert not said_by_you("2024-05-12T18:05:00-9bb72bda") and not said_by_you("D1:2")
    now = datetime(2024, 6, 1, tzinfo=timezone.utc)
    when = "2024-05-12T18:05:00+00:00"
    assert _said_line("Ines is driving.", when, now, False) == "From a conversation on 12 May: “Ines is driving”."
    assert _said_line("I'm vegan.", when, now, True) == "You told me on 12 May: “I'm vegan”."
    assert _said_line("I'm vegan", when, now, True, also=True).startswith("You also told me on 12 May")


def test_a_fact_from_your_own_session_is_said_back_to_you():
    """probe22: "what car do I have?" answered 'You told me on 7 December: “The person sold the
    skoda, the person's car is now a red Volvo”' (the extractor's name for the person)."""
    from cairn.ops.knowledge import _said_line
    now = datetime(2026, 12, 7, 12, tzinfo=timezone.utc)
    line = _said_line("The person sold the skoda, the person's car is now a red Volvo.",
                      "2026-12-07T04:00:00+00:00", now, True)
    assert line == "You told me on 7 December that you sold the skoda, your car is now a red Volvo."
    assert _said_line("The person is vegan", None, now, True) == "You told me that you are vegan."
