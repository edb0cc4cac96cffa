"""The Telegram bot when something behind it fails: the person is told, in words, instead of
waiting for a reply that never comes (fake Bot API on loopback, as tests/test_telegram.py)."""

from __future__ import annotations

from test_telegram import ME, STRANGER, TOKEN, Running, settings  # noqa: F401  (the fixture)

from cairn.interfaces.telegram.bot import Reply, TelegramBot
from fakes.telegram_api import FakeBotAPI


class Broken:
    """A conversation whose turn raises (a locked database, a bug), as a real one can."""

    def __init__(self):
        self.calls = 0

    def reply(self, person, text):
        self.calls += 1
        if text == "boom":
            raise RuntimeError("the index is locked by another process")
        return Reply("fine")

    def press(self, person, data):
        raise RuntimeError("approval store unreadable")


def test_a_failing_turn_is_reported_to_the_person_and_the_bot_goes_on(settings):  # noqa: F811
    convo = Broken()
    with FakeBotAPI(TOKEN) as api, Running(TelegramBot(settings, TOKEN, [str(ME)], api.base_url, convo)):
        api.push_text(ME, "boom")
        said = api.wait_sent(1)[0]
        assert int(said["chat_id"]) == ME
        assert "failed" in said["parsed"] and "RuntimeError" in said["parsed"]
        assert "index is locked" in said["parsed"]
        api.push_press(ME, "approve:p1")
        pressed = api.wait_sent(2)[1]
        assert "approval store unreadable" in pressed["parsed"]
        api.push_text(ME, "hello")  # the bot still answers after a failure
        assert api.wait_sent(3)[2]["parsed"] == "fine"
        api.push_text(STRANGER, "boom")  # a stranger's message is refused before any turn runs
        refused = api.wait_sent(4)[3]
        assert int(refused["chat_id"]) == STRANGER and "private" in refused["parsed"]
    assert convo.calls == 2
