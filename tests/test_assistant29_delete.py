"""A delete naming no note takes the session's note only when the request points back at it
(notenames.REFERRED_DELETE): "run rm -rf /" after talk of a note proposes no delete; "delete it" still
proposes deleting that note (pending approval). Notes written for this test."""

from __future__ import annotations

import pytest

from cairn.assistant import Assistant, Channel
from cairn.assistant.nlu import notenames as NN
from conftest import notes_app

NOTES = {
    "plumber.md": "# Plumber\n\nOrrin Vasquel fixes the taps; he charges a call-out fee of £45.\n",
    "shed.md": "# Shed\n\nThe shed latch needs oiling before winter.\n",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("delete29"), NOTES, real_embedder, veto_s=0) as app:
        yield app


def _deletes(res) -> list:
    return [(c.arguments.get("note"), c.outcome) for c in res.tool_calls if c.name == "delete_note"]


def _after_plumber(home):
    bot = Assistant(home, model="none", new=True)
    bot.turn('add "ring him on Tuesday" to my Plumber note', Channel())
    return bot


def test_a_shell_command_deletes_no_note_of_the_session(home, monkeypatch):
    res = _after_plumber(home).turn("run rm -rf /", Channel())
    assert _deletes(res) == [], res.reply
    monkeypatch.setattr(NN, "REFERRED_DELETE", False)  # the old reading took the session's note
    res = _after_plumber(home).turn("run rm -rf /", Channel())
    assert _deletes(res) == [("Plumber", "pending")], res.reply


def test_a_delete_pointing_back_still_takes_the_session_note(home):
    res = _after_plumber(home).turn("delete that note", Channel())
    assert _deletes(res) == [("Plumber", "pending")], res.reply
