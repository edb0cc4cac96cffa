"""Issue 39, Salmex S5: a priority lane. While a slow model turn runs (a scripted model on
loopback that answers only when the test says so), an approval press, a reminder's Done press
and a reminder delivery still complete — on Telegram (the real python-telegram-bot client
against a fake Bot API) and Matrix — before the slow turn's answer. Asserted on order and
completion, never on wall time."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cairn.assistant.channels import conversation_for  # noqa: E402
from cairn.config import load_settings  # noqa: E402
from cairn.interfaces.lanes import Lanes  # noqa: E402
from cairn.interfaces.matrix.bot import MatrixBot  # noqa: E402
from cairn.interfaces.telegram.bot import Reply, TelegramBot, TelegramNotifier  # noqa: E402
from cairn.service import Cairn  # noqa: E402
from fakes.matrix_homeserver import FakeHomeserver  # noqa: E402
from fakes.scripted_llm import ScriptedLLM, hold, say, tool  # noqa: E402
from fakes.telegram_api import FakeBotAPI  # noqa: E402
from test_matrix import Running as MatrixRunning, _wait  # noqa: E402
from test_telegram import Running as TelegramRunning  # noqa: E402

TOKEN = "123456:TEST-token_abc"
ME = 1001


def test_lanes_priority_work_passes_blocked_turns_and_turns_keep_their_order():
    lanes = Lanes(turn_workers=1)
    gate, done = threading.Event(), []
    try:
        first = lanes.submit_turn("a", lambda: (gate.wait(60), done.append("a1")))
        second = lanes.submit_turn("a", done.append, "a2")
        other = lanes.submit_turn("b", done.append, "b1")
        assert lanes.submit_priority(done.append, "approval").result(60) is None
        assert done == ["approval"] and not first.done() and not other.done()
        gate.set()
        for f in (first, second, other):
            f.result(60)
        assert done.index("a1") < done.index("a2") and set(done) == {"approval", "a1", "a2", "b1"}
        failing = lanes.submit_turn("a", lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            failing.result(60)
        assert lanes.submit_turn("a", lambda: "still running").result(60) == "still running"
    finally:
        gate.set()
        lanes.close()
    with pytest.raises(ValueError):
        Lanes(turn_workers=0)


def _buttons(message: dict) -> list[str]:
    markup = message.get("reply_markup")
    markup = json.loads(markup) if isinstance(markup, str) else (markup or {})
    return [b["callback_data"] for row in markup.get("inline_keyboard", []) for b in row]


def test_telegram_approval_and_reminders_do_not_wait_for_a_slow_turn(tmp_path, real_embedder):
    settings = load_settings(tmp_path / "home")
    settings.ensure_dirs()
    with ScriptedLLM() as llm, FakeBotAPI(TOKEN) as api:
        settings.assistant.model = f"openai:{llm.base_url}:scripted"
        with Cairn(settings=settings, embedder=real_embedder) as app, app.scheduler() as sch:
            app.note_create("Boiler", "The boiler pressure should be 1.2 bar when cold.")
            rid = sch.remind("call the plumber", at="in 2 hours").id
        bot = TelegramBot(settings, TOKEN, [str(ME)], api.base_url, conversation_for(settings, "telegram"))
        with TelegramRunning(bot):
            llm.script(tool("delete_note", note="Boiler"), say("It waits for your approval."))
            api.push_text(ME, "delete the Boiler note")
            asked = api.wait_sent(1)[0]
            approve = [d for d in _buttons(asked) if d.startswith("approve:")][0]
            release = threading.Event()
            slow = hold(release, say("Here is the long story you asked for."))
            llm.script(slow)
            api.push_text(ME, "tell me a long story about boilers")
            assert slow["arrived"].wait(120)  # the slow turn is in the model now
            api.push_press(ME, approve)
            api.push_press(ME, f"done:{rid}")
            got = api.wait_sent(3)
            TelegramNotifier(settings, TOKEN, [str(ME)], api.base_url).send(_message("water the plants"))
            got = api.wait_sent(4)
            assert not release.is_set()  # all of it while the turn still waits for its model
            texts = [m["parsed"] for m in got]
            assert any("delete_note" in t or "Deleted" in t or "deleted" in t for t in texts[1:3]), texts
            assert any(t.startswith("Done: call the plumber") for t in texts[1:3]), texts
            assert "water the plants" in texts[3]
            release.set()
            final = api.wait_sent(5)[-1]["parsed"]
            assert final == "Here is the long story you asked for."
    with Cairn(settings=settings, embedder=real_embedder) as app:
        assert not [n for n in app.store.notes.list_notes(limit=10)[1] if n.title == "Boiler"]


def _message(text):
    from cairn.schedule.notify import Message
    return Message(text=text)


class Slow:
    """A conversation whose turns wait for `release`; presses answer at once."""

    def __init__(self):
        self.release, self.started = threading.Event(), threading.Event()

    def reply(self, person, text):
        self.started.set()
        self.release.wait(120)
        return Reply(f"slow answer to {text}")

    def press(self, person, data):
        return Reply(f"pressed {data}")


def test_matrix_decision_does_not_wait_for_a_slow_turn(tmp_path):
    settings = load_settings(tmp_path / "home")
    settings.ensure_dirs()
    convo, room, me = Slow(), "!dm:test", "@me:test"
    with FakeHomeserver("syt_t") as hs, MatrixRunning(MatrixBot(settings, hs.base_url, "syt_t", [me], convo,
                                                                poll_timeout_ms=500)):
        assert _wait(lambda: hs.syncs >= 2)  # the first sync only takes the position
        hs.push_text(room, me, "a question that takes long")
        assert convo.started.wait(60)
        hs.push_text(room, me, "approve ap-7")
        assert hs.wait_sent(1)[0]["body"] == "pressed approve:ap-7" and not convo.release.is_set()
        convo.release.set()
        assert hs.wait_sent(2)[1]["body"] == "slow answer to a question that takes long"
