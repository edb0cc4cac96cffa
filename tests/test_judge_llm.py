"""Issue 39, Salmex S18: the judge's second opinion from the model (`[assistant] llm_judge`),
against a scripted model on loopback speaking the OpenAI chat-completions protocol. The
opinion can only raise a call's level; a failing or unreadable opinion changes nothing."""

from __future__ import annotations

import pytest

from cairn.assistant import Assistant, WaitingChannel
from cairn.errors import NotFound
from cairn.service import Cairn
from fakes.scripted_llm import ScriptedLLM, fail, say, tool


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


@pytest.fixture(scope="module")
def app(tmp_path_factory, real_embedder):
    with Cairn(tmp_path_factory.mktemp("judge") / "home", embedder=real_embedder) as a:
        cfg = a.settings.assistant
        cfg.llm_judge, cfg.veto_s, cfg.approval_timeout_s, cfg.tool_retries = True, 0.2, 5, 0
        a.note_create("Boiler", "The boiler pressure should be 1.2 bar when cold.")
        yield a


def _turn(app, llm, text, *steps, answer=False):
    llm.requests.clear()
    llm.script(*steps)
    ui = WaitingChannel(on_ask=lambda c: ui.answer(c["id"], answer))
    res = Assistant(app, model=f"openai:{llm.base_url}:scripted", new=True).turn(text, ui)
    return res, ui


def _judge_requests(llm):
    return [r["body"] for r in llm.requests
            if r["body"]["messages"][0]["content"].startswith("Rate the risk of this assistant tool call")]


def test_the_opinion_raises_a_medium_call_to_an_approval(app, llm):
    res, ui = _turn(app, llm, "create a note called Shopping with milk",
                    tool("create_note", title="Shopping", body="milk"), say('{"risk": "high"}'), say("Not created."))
    call = res.tool_calls[0]
    assert (call.risk, call.outcome) == ("high", "denied") and "second opinion: high" in call.reasons
    assert ui.asked and ui.asked[0]["name"] == "create_note"
    judged = _judge_requests(llm)
    assert len(judged) == 1 and "tools" not in judged[0]
    assert judged[0]["messages"][1] == {"role": "user",
                                        "content": 'create_note({"title": "Shopping", "body": "milk"})'}
    with pytest.raises(NotFound):
        app.find_note("Shopping")


def test_the_opinion_never_lowers(app, llm):
    res, ui = _turn(app, llm, "delete the Boiler note", tool("delete_note", note="Boiler"),
                    say('{"risk": "low"}'), say("Kept."))
    call = res.tool_calls[0]
    assert (call.risk, call.outcome) == ("high", "denied") and not any("second opinion" in r for r in call.reasons)
    assert len(_judge_requests(llm)) == 1 and ui.asked
    assert app.find_note("Boiler")


@pytest.mark.parametrize("opinion, reason", [(fail(500, "judge down"), "second opinion failed"),
                                             (say("I would rather not say."), None)])
def test_a_failed_or_unreadable_opinion_changes_nothing(app, llm, opinion, reason):
    res, ui = _turn(app, llm, "create a note called Groceries with eggs",
                    tool("create_note", title="Groceries", body="eggs"), opinion, say("Created."))
    call = res.tool_calls[0]
    assert (call.risk, call.outcome) == ("medium", "ran") and not ui.asked
    assert (reason in " ".join(call.reasons)) if reason else not any("second" in r for r in call.reasons)
    app.note_delete("Groceries")


def test_without_llm_judge_no_opinion_is_asked(app, llm):
    app.settings.assistant.llm_judge = False
    try:
        res, _ = _turn(app, llm, "create a note called Tools with hammer",
                       tool("create_note", title="Tools", body="hammer"), say("Created."))
    finally:
        app.settings.assistant.llm_judge = True
    assert res.tool_calls[0].outcome == "ran" and not _judge_requests(llm) and len(llm.requests) == 2
