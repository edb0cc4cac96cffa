"""faults27: faults a new-user trial found in session 27, each with a note written for these tests:
a sentence cut at a title ("with Dr. [1]") in chat and ask; the web chat page showing typed
/approve /deny commands beside its buttons; a reminder shown "at in 2 hours"; a possessive "'s"
listed as a missing word; bidi control characters shown raw in titles on the web page."""

from __future__ import annotations

import pytest

from cairn.assistant import Assistant, Channel
from conftest import notes_app

NOTES = {"dentist.md": "# Dentist\n\nMy dentist appointment is on March 3rd at 10am with Dr. Okafor.\n"}


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("faults27"), NOTES, real_embedder, veto_s=0) as app:
        yield app


def test_chat_reply_quotes_the_sentence_past_a_title(home):
    reply = Assistant(home, model="none", new=True).turn("When is my dentist appointment?", Channel()).reply
    assert "Dr. Okafor" in reply, reply


def test_ask_quotes_the_sentence_past_a_title(home):
    res = home.ask("When is my dentist appointment?")
    text = res.answer if hasattr(res, "answer") else str(res)
    assert "Dr. Okafor" in text, text


@pytest.fixture(scope="module")
def web(home):
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent / "interfaces"))
    from fastapi.testclient import TestClient
    from web_site import web_app
    with TestClient(web_app(home), client=("127.0.0.1", 50000)) as client:
        yield client


def test_web_chat_shows_buttons_not_typed_approval_commands(home, web):
    res = Assistant(home, model="none", new=True).turn("delete the dentist note", Channel())
    assert res.pending_approvals, res.reply
    aid = res.pending_approvals[0]["id"]
    assert f"/approve {aid} or /deny {aid}" in res.reply  # the CLI and Telegram text is kept
    page = web.get("/chat", params={"session": res.session}).text
    assert f'data-approve="{aid}"' in page and "/approve" not in page and "Approve or Deny below" in page


def test_web_reminders_show_the_time_of_a_once_reminder_not_at_and_the_words(home, web):
    with home.scheduler() as sch:
        sch.remind("ring the dentist", at="in 2 hours")
        sch.remind("water the ferns", every="every day at 9")
    page = web.get("/reminders").text
    assert "ring the dentist" in page and "at in 2 hours" not in page
    assert "once, 20" in page  # the time itself ("once, 2026-03-01 14:05")
    assert "every day at 9 · next 20" in page  # a repeating one keeps its words


def test_a_possessive_s_is_no_missing_word(home):
    res = home.search("What is my sister's phone number?")
    assert "s" not in res.missing_words and "sister" in res.missing_words, res.missing_words
    assert not any("'s'" in w for w in res.warnings), res.warnings
    answer = home.ask("What is my sister’s phone number?")  # a typographic apostrophe too
    assert "'s'" not in str(answer.to_json() if hasattr(answer, "to_json") else answer)


def test_query_terms_leave_clitics_out_but_phrases_keep_them():
    from cairn.search.query import parse_query
    q = parse_query("Tom's car isn't title:x's")
    assert q.terms == ("tom", "car", "isn", "title", "x", "s")  # a column filter's words as the index reads them
    assert q.words[0].tokens == ("Tom", "s")  # the phrase "Tom s" still matches the index's terms


def test_web_page_shows_titles_and_snippets_without_bidi_overrides(home, web):
    spoof = "Invoice \u202egpj.exe\u202c and \u2066isolate\u2069"
    note = home.ingest_text("The heron invoice is due on Friday \u202eykcirt\u202c.", title=spoof)
    page = web.get("/search", params={"q": "heron invoice"}).text
    assert "Invoice gpj.exe and isolate" in page, page
    assert not any(c in page for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    shown = web.get("/notes/open", params={"ref": note.id}).text  # the note page: the heading without them, the editor as stored
    heading = shown.split("<h1>", 1)[1].split("</h1>", 1)[0]
    assert heading == "Invoice gpj.exe and isolate", heading
    edit = web.get("/notes/open", params={"ref": note.id, "edit": 1}).text
    editor = edit.split('<textarea id="body"', 1)[1].split("</textarea>", 1)[0]
    assert "\u202eykcirt\u202c" in editor
