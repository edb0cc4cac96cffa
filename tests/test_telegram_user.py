"""The Telegram bot as its person meets it: when something behind it fails they are told, in
words, instead of waiting for a reply that never comes (fake Bot API on loopback, as
tests/test_telegram.py); a stray "**" in an answer is shown as written."""

from __future__ import annotations

from test_telegram import ME, STRANGER, TOKEN, Running, settings  # noqa: F401  (the fixture)

from cairn.interfaces.telegram.bot import Reply, TelegramBot
from cairn.interfaces.telegram.format import split_message
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


def test_a_stray_double_star_is_shown_as_written():
    # an odd "**" that opens nothing was closed with another "**": a lone "**" became
    # "****", and "5** stars" turned " stars" bold and lost its stars
    assert split_message("**") == ["**"]
    assert split_message("rated 5** stars by the review") == ["rated 5** stars by the review"]
    assert split_message("a **b** c**") == ["a <b>b</b> c**"]
    # a bold span that crosses lines is still closed and reopened per line
    assert split_message("**bold start\nmore** end") == ["<b>bold start</b>\n<b>more</b> end"]


def test_words_sent_with_a_file_are_not_dropped_without_a_word(settings):  # noqa: F811
    convo = Broken()
    with FakeBotAPI(TOKEN) as api, Running(TelegramBot(settings, TOKEN, [str(ME)], api.base_url, convo)):
        api.files["doc9"] = b"# Lease\n\nThe rent is due on the first of the month.\n"
        api._push({"message": api._message(ME, caption="remember the rent date",
                                           document={"file_id": "doc9", "file_unique_id": "doc9",
                                                     "file_size": 51, "file_name": "lease.md"})})
        said = api.wait_sent(1)[0]["parsed"]
        assert said.startswith("Saved lease.md")
        assert "remember the rent date" in said and "message of their own" in said
    assert convo.calls == 0  # the caption is not a turn
