"""No false claims (issue 32, assistant/claims.py): after every model reply, a sentence that
claims an action no tool call of the turn performed makes the model redraft once; a redraft
that still claims one is replaced by what really ran. The model is a scripted vendor
speaking the OpenAI chat-completions protocol over loopback (tests/fakes/scripted_llm.py)."""

from __future__ import annotations

import pytest

from cairn.assistant import Assistant, Channel
from cairn.assistant.claims import claims, false_claims
from cairn.assistant.results import CallRecord
from cairn.service import Cairn
from fakes.scripted_llm import ScriptedLLM, say, tool


@pytest.mark.parametrize("reply,kinds", [
    ("I've added oat flakes to the Pantry note.", ["write"]),
    ("The note added oat flakes to the Pantry note.", ["write"]),
    ("Appended it. Anything else?", ["write"]),
    ("I have e-mailed Priya the agenda.", ["send"]),
    ("Your reminder has been set for Thursday.", ["remind"]),
    ("Sure, I set a reminder for 7pm.", ["remind"]),
    ("No problem, I've deleted the Pantry note.", ["delete"]),
    ("I'll remember that you take the 8:10 train.", ["write"]),
    ("Done! Anything else?", ["any"]),
    ("I will delete it once you approve.", []),
    ("Shall I add oat flakes to the Pantry note?", []),
    ("I could not send e-mail from here.", []),
    ("I can't check the weather, but I can set a reminder to look it up.", []),
    ("The roof was last repaired on 2 May [1].", []),
    ("You added oat flakes yesterday.", []),
    ("The council changed the bin day.", []),
    ("The parcel was ordered on 3 June.", []),
    ("Here is what I found about the roof.", []),
])
def test_claims(reply, kinds):
    assert [c.kind for c in claims(reply)] == kinds


def test_only_calls_that_ran_support_a_claim():
    ran = CallRecord("update_note", {"note": "Pantry", "body": "oat flakes"}, "medium", "ran", [])
    waiting = CallRecord("delete_note", {"note": "Pantry"}, "high", "pending", [])
    read = CallRecord("search", {"query": "pantry"}, "low", "ran", [])
    assert false_claims("I've added oat flakes to the Pantry note.", [ran]) == []
    assert [c.kind for c in false_claims("I've added oat flakes to the Pantry note.", [read])] == ["write"]
    assert [c.kind for c in false_claims("I've deleted the Pantry note.", [ran, waiting])] == ["delete"]
    assert [c.kind for c in false_claims("I have e-mailed Priya.", [ran])] == ["send"]
    assert false_claims("Done.", [read]) == []


@pytest.fixture
def llm():
    with ScriptedLLM() as server:
        yield server


@pytest.fixture(scope="module")
def capp(tmp_path_factory, real_embedder):
    with Cairn(tmp_path_factory.mktemp("claims") / "home", embedder=real_embedder) as app:
        a = app.settings.assistant
        a.veto_s, a.approval_timeout_s, a.retry_backoff_s = 0.1, 0.1, 0.01
        app.note_create("Pantry", "- rice\n- chickpeas\n")
        yield app


def _bot(app, llm):
    return Assistant(app, model=f"openai:{llm.base_url}:scripted", new=True)


def test_a_false_claim_is_redrafted_once(capp, llm):
    llm.script(say("I've e-mailed Priya the agenda for Monday."),
               say("I can't send e-mail, but I can set a reminder for you to send Priya the agenda."))
    res = _bot(capp, llm).turn("email Priya the agenda for Monday", Channel())
    assert res.reply.startswith("I can't send e-mail") and not res.tool_calls
    assert any("redrafted" in n for n in res.notices)
    redraft = llm.requests[-1]["body"]
    assert "tools" not in redraft and "No tool ran." in redraft["messages"][-1]["content"]
    assert redraft["messages"][-2] == {"role": "assistant", "content": "I've e-mailed Priya the agenda for Monday."}


def test_a_redraft_that_still_claims_is_replaced_by_what_ran(capp, llm):
    llm.script(say("I've added oat flakes to the Pantry note."), say("Added them to the Pantry note!"))
    res = _bot(capp, llm).turn("put oat flakes on my pantry list", Channel())
    assert res.reply == "I haven't done anything in this turn: no action ran."
    assert any("replaced by what ran" in n for n in res.notices)
    assert "oat flakes" not in capp.note_show("Pantry")["body"]


def test_a_pending_call_does_not_support_a_done_claim(capp, llm):
    llm.script(tool("delete_note", note="Pantry"), say("I've deleted the Pantry note."),
               say("Deleted."))
    res = _bot(capp, llm).turn("delete the pantry note", Channel())
    assert [c.outcome for c in res.tool_calls] == ["pending"]
    assert res.reply.startswith("Here is what actually happened:") and "waits for your approval" in res.reply
    assert capp.find_note("Pantry")  # still there


def test_a_true_claim_is_kept_without_a_second_request(capp, llm):
    llm.script(tool("update_note", note="Pantry", body="- lentils", mode="append"),
               say("I've added lentils to the Pantry note."))
    res = _bot(capp, llm).turn("add lentils to the pantry note", Channel())
    assert [c.outcome for c in res.tool_calls] == ["ran"]
    assert res.reply == "I've added lentils to the Pantry note." and len(llm.requests) == 2
    assert not any("claimed" in n for n in res.notices)


def test_a_streamed_false_claim_is_followed_by_the_correction(capp, llm):
    class Recording(Channel):
        def __init__(self):
            self.streamed, self.chunks = False, []

        def delta(self, text):
            self.streamed = True
            self.chunks.append(text)

    ui = Recording()
    llm.script(say("I've texted Priya the agenda."), say("I can't send text messages."))
    res = _bot(capp, llm).turn("text Priya the agenda", ui)
    shown = "".join(ui.chunks)
    assert shown.startswith("I've texted Priya") and shown.endswith("Correction: I can't send text messages.")
    assert res.reply == "I can't send text messages."
