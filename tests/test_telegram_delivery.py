"""Telegram delivery against a fake Bot API on loopback (tests/fakes/telegram_api.py, the
real HTTP protocol): `cairn telegram --token T --allow ID --base-url URL` alone (no config
file) delivers a due reminder with Done / Snooze buttons, Done marks it done and takes the
buttons off; approval buttons ride only on the reply that asks, never on later replies."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from fakes.scripted_llm import ScriptedLLM, say, tool
from fakes.telegram_api import FakeBotAPI
from test_telegram import ME, TOKEN, Running

from cairn.config import load_settings
from cairn.schedule.scheduler import Scheduler


def _markup(msg: dict) -> list:
    """The inline buttons of a sent message: [(text, callback_data)]."""
    mk = msg.get("reply_markup") or {}
    return [(b["text"], b["callback_data"]) for row in mk.get("inline_keyboard", []) for b in row]


def _wait(predicate, timeout=90.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_flags_alone_deliver_a_reminder_with_buttons_and_done_marks_it_done(tmp_path):
    home = tmp_path / "home"
    settings = load_settings(home)
    settings.ensure_dirs()
    assert not (home / "config.toml").exists()
    with Scheduler(settings, []) as sch:
        rid = sch.remind("water the plants", at="in 1 second").id
    env = {**os.environ, "CAIRN_LOAD_PLUGINS": "", "CAIRN_TELEGRAM_TOKEN": ""}
    with FakeBotAPI(TOKEN) as api:
        proc = subprocess.Popen([sys.executable, "-m", "cairn", "--home", str(home), "telegram",
                                 "--token", TOKEN, "--allow", str(ME), "--base-url", api.base_url],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            sent = api.wait_sent(1, timeout=120)
            assert sent, proc.stderr.read() if proc.poll() is not None else "nothing sent"
            msg = sent[0]
            assert int(msg["chat_id"]) == ME and msg["parsed"] == "⏰ Reminder: water the plants"
            assert _markup(msg) == [("Done", f"done:{rid}"), ("Snooze 1 h", f"snooze:{rid}")]
            def state():
                with Scheduler(settings, []) as sch:
                    return sch.get(rid).state
            assert _wait(lambda: state() == "delivered")  # the send returned: the run is recorded
            api.push_press(ME, f"done:{rid}")
            done = api.wait_sent(2, timeout=60)[1]
            assert done["parsed"] == "Done: water the plants" and _markup(done) == []
            assert _wait(lambda: [c for c in api.calls if c[0] == "editMessageReplyMarkup"])
            assert state() == "done"
            api.push_press(ME, f"done:{rid}")  # pressed again: said plainly, nothing changes
            again = api.wait_sent(3, timeout=60)[2]
            assert again["parsed"].startswith("Sorry: reminder") and "done" in again["parsed"]
        finally:
            proc.terminate()
            proc.wait(30)


def test_a_stale_approval_button_is_not_attached_to_later_replies(tmp_path):
    from cairn.assistant.channels import conversation_for
    from cairn.interfaces.telegram.bot import TelegramBot
    settings = load_settings(tmp_path / "home")
    settings.ensure_dirs()
    with ScriptedLLM() as llm, FakeBotAPI(TOKEN) as api:
        settings.assistant.model = f"openai:{llm.base_url}:scripted"
        llm.script(tool("delete_note", note="Boiler"), say("That waits for your approval."),
                   say("Hello again."))
        bot = TelegramBot(settings, TOKEN, [str(ME)], api.base_url, conversation=conversation_for(settings))
        with Running(bot):
            api.push_text(ME, "delete the Boiler note")
            asks = api.wait_sent(1)[0]
            labels = [label for label, _ in _markup(asks)]
            assert labels == ["Approve delete_note", "Deny"]
            api.push_text(ME, "hello")
            later = api.wait_sent(2)[1]
            assert "Hello again." in later["parsed"] and _markup(later) == []
