"""The Telegram bot (python-telegram-bot, long polling) and the Telegram notifier.

Who may talk: only Telegram user ids in the allow-list (`--allow`, `[telegram] allow`).
Anyone else gets one refusal (remembered in `<home>/telegram/refused.json`) and nothing
else; every refusal is audited. Allowed people get:
- text: the conversation (`Conversation.reply`), the same loop as `cairn chat` when the
  assistant is installed, else verified answers from `ask`;
- documents and photos: saved under `<home>/telegram/inbox/` (a safe name, never outside)
  and ingested like `cairn ingest`;
- voice notes: transcribed offline (faster-whisper, cairn.parse.audio), then answered with
  a voice message (`sendVoice`, OGG/Opus from piper-tts, cairn.assistant.voice); a typed
  message is answered by voice too when it asks for that or the chat said `/voice on`;
- inline buttons: a reply may carry buttons (approvals); a press calls `Conversation.press`.
Updates are handled concurrently: turns, files and voice notes go to the turn lane (in order
per person, `[assistant] turn_workers` at once), button presses (approvals, a reminder's Done
/ Snooze) to the priority lane, so they never wait behind a long turn (cairn.interfaces.lanes).
Long replies are split and formatted by format.py; a message whose formatting Telegram
refuses is sent once more as plain text.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from cairn import audit
from cairn.interfaces.telegram.format import plain_text, split_message
from cairn.uploads import safe_name  # noqa: F401  (also imported from here by tests)

log = logging.getLogger("cairn.telegram")
REFUSAL = "Sorry, this is a private assistant. Your message was not read."
MAX_FILE_BYTES = 20_000_000  # the Bot API's download limit


@dataclass
class Reply:
    """What the bot sends back: markdown text and optional inline buttons [(label, data)]."""

    text: str
    buttons: list[tuple[str, str]] = field(default_factory=list)


class Conversation(Protocol):
    def reply(self, person: str, text: str) -> Reply: ...

    def press(self, person: str, data: str) -> Reply: ...


class AskConversation:
    """Answers each message with `Cairn.ask` (verified, cited). Used when no assistant is
    installed; it has no buttons."""

    def __init__(self, settings) -> None:
        self.settings = settings

    def reply(self, person: str, text: str) -> Reply:
        from cairn.errors import InvalidInput
        from cairn.service import Cairn
        try:
            with Cairn(settings=self.settings) as app:
                ans = app.ask(text, llm="none")
        except InvalidInput as exc:  # an empty or over-long question (validate.check_question)
            return Reply(f"I can't answer that: {exc}")
        lines = [ans.answer]
        if ans.citations:
            lines.append("")
            lines += [f"[{c['n']}] {c['title']} — {c['path']}" for c in ans.citations]
        return Reply("\n".join(lines))

    def press(self, person: str, data: str) -> Reply:
        return Reply("Nothing is waiting for a decision.")


class TelegramBot:
    """The bot for one home. token/allow/base_url: as in `[telegram]` (base_url: a Bot API
    server root such as "http://127.0.0.1:8081"; "" = Telegram's). conversation: who answers
    (default: the assistant if installed, else AskConversation)."""

    def __init__(self, settings, token: str, allow: list[str], base_url: str = "",
                 conversation: Conversation | None = None) -> None:
        from cairn.errors import InvalidInput
        if not token or not re.fullmatch(r"\d+:[\w-]+", token.strip()):
            raise InvalidInput("a Telegram bot token looks like 123456:ABC-DEF (from @BotFather); "
                               "give it with --token, [telegram] token or CAIRN_TELEGRAM_TOKEN")
        self.settings = settings
        self.token = token.strip()
        self.allow = {str(a).strip() for a in allow if str(a).strip()}
        bad = [a for a in self.allow if not a.lstrip("-").isdigit()]
        if bad:
            raise InvalidInput(f"Telegram user ids are numbers; not: {', '.join(sorted(bad))}")
        self.base_url = base_url.rstrip("/")
        self.conversation = conversation or default_conversation(settings)
        self.folder = Path(settings.home) / "telegram"
        self.folder.mkdir(parents=True, exist_ok=True)
        self._refused_path = self.folder / "refused.json"
        from cairn.assistant.voice import VoicePrefs
        self.voice_prefs = VoicePrefs(self.folder)
        from cairn.interfaces.lanes import Lanes
        self.lanes = Lanes(settings.assistant.turn_workers, name="cairn-telegram")

    # --------------------------------------------------------------- the application
    def application(self):
        """The python-telegram-bot Application with Cairn's handlers."""
        from telegram.ext import Application, CallbackQueryHandler, MessageHandler, filters
        # updates are handled concurrently: a button press must not wait for a running turn
        # (turns keep their order per person on the turn lane, cairn.interfaces.lanes)
        b = Application.builder().token(self.token).concurrent_updates(True)
        if self.base_url:
            b = b.base_url(f"{self.base_url}/bot").base_file_url(f"{self.base_url}/file/bot")
        app = b.build()
        app.add_handler(CallbackQueryHandler(self._on_press))
        app.add_handler(MessageHandler(filters.VOICE | filters.AUDIO, self._on_voice))
        app.add_handler(MessageHandler(filters.Document.ALL | filters.PHOTO, self._on_file))
        app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, self._on_text))
        app.add_handler(MessageHandler(filters.COMMAND, self._on_text))
        app.add_error_handler(self._on_error)
        return app

    def run(self) -> None:
        """Poll until interrupted (Ctrl-C / SIGTERM)."""
        self.application().run_polling(drop_pending_updates=False, allowed_updates=None)

    # --------------------------------------------------------------- gate
    def _refused(self) -> set[str]:
        try:
            return set(json.loads(self._refused_path.read_text()))
        except (OSError, ValueError):
            return set()

    async def _allowed(self, update) -> bool:
        user = update.effective_user
        uid = str(user.id) if user else ""
        if uid and uid in self.allow:
            return True
        refused = self._refused()
        first = uid not in refused
        audit.record(self.settings.home, f"telegram:{uid or '?'}", "telegram.refused", uid or None,
                     "denied", {"first": first})
        if first and update.effective_chat is not None:
            refused.add(uid)
            self._refused_path.write_text(json.dumps(sorted(refused)))
            await update.effective_chat.send_message(REFUSAL)
        if update.callback_query is not None:
            await update.callback_query.answer()
        return False

    async def _on_error(self, update, context) -> None:
        """A handler that raised (the conversation, an ingest, a button): logged with its
        traceback, and an allowed person is told in one line instead of waiting for a reply
        that never comes (paths of this machine written <home>, <vault>, ~)."""
        exc = context.error
        log.error("telegram: a handler failed", exc_info=exc)
        user = getattr(update, "effective_user", None)
        chat = getattr(update, "effective_chat", None)
        if chat is None or user is None or str(user.id) not in self.allow:
            return
        from cairn.redact_paths import without_paths
        said = without_paths(str(exc), self.settings)[:300] or "no details"
        try:
            await self.send(context.bot, chat.id, Reply(
                f"Sorry, that failed on my side ({type(exc).__name__}: {said}). Nothing else changed; "
                "try again, or look in the server's log."))
        except Exception as again:  # noqa: BLE001 - Telegram unreachable: the log has it
            log.warning("telegram: could not report the failure: %s", again)

    # --------------------------------------------------------------- handlers
    async def _on_text(self, update, context) -> None:
        if not await self._allowed(update):
            return
        text = update.effective_message.text or ""
        from cairn.assistant.voice import voice_command
        chat = str(update.effective_chat.id)
        setting = voice_command(self.voice_prefs, chat, text)
        if setting is not None:
            await self.send(context.bot, update.effective_chat.id, Reply(setting))
            return
        person = f"telegram:{update.effective_user.id}"
        reply = await self.lanes.turn(person, self.conversation.reply, person, text)
        await self.answer(context.bot, update.effective_chat.id, text, reply)

    async def _on_press(self, update, context) -> None:
        """A button: Done / Snooze on a reminder (REMINDER_BUTTONS), else the conversation's
        (approvals). The pressed message loses its buttons: a decision is taken once."""
        if not await self._allowed(update):
            return
        q = update.callback_query
        await q.answer()
        action, _, rid = (q.data or "").partition(":")
        if action in REMINDER_ACTIONS and rid:
            reply = await self.lanes.priority(reminder_press, self.settings, action, rid)
        else:  # approvals: the priority lane, never behind a running turn
            reply = await self.lanes.priority(self.conversation.press, f"telegram:{update.effective_user.id}",
                                              q.data or "")
        try:
            await q.edit_message_reply_markup(reply_markup=None)
        except Exception as exc:  # noqa: BLE001 - an old message may no longer be editable
            log.info("could not remove the buttons of a pressed message: %s", exc)
        await self.send(context.bot, update.effective_chat.id, reply)

    async def _download(self, context, file_id: str, size: int | None) -> bytes:
        if size and size > MAX_FILE_BYTES:
            from cairn.errors import TooLarge
            raise TooLarge(f"the file is {size} bytes; Telegram bots can fetch at most {MAX_FILE_BYTES}")
        f = await context.bot.get_file(file_id)
        return bytes(await f.download_as_bytearray())

    async def _on_file(self, update, context) -> None:
        if not await self._allowed(update):
            return
        msg = update.effective_message
        if msg.document is not None:
            doc = msg.document
            name = safe_name(doc.file_name, f"document-{doc.file_unique_id}")
            file_id, size = doc.file_id, doc.file_size
        else:
            photo = msg.photo[-1]
            name = f"photo-{safe_name(photo.file_unique_id, 'photo')}.jpg"
            file_id, size = photo.file_id, photo.file_size
        try:
            data = await self._download(context, file_id, size)
        except Exception as exc:
            await self.send(context.bot, update.effective_chat.id, Reply(f"I could not fetch that file: {exc}"))
            return
        inbox = self.folder / "inbox"
        inbox.mkdir(parents=True, exist_ok=True)
        target = inbox / name
        if target.exists():
            target = inbox / f"{target.stem}-{file_id[-8:]}{target.suffix}"
        target.write_bytes(data)
        report = await self.lanes.turn(f"telegram:{update.effective_user.id}", self._ingest, target)
        audit.record(self.settings.home, f"telegram:{update.effective_user.id}", "ingest.file", name,
                     "ok" if not report.get("failed") else "failed", {"bytes": len(data)})
        said = self._ingest_text(name, report)
        if (msg.caption or "").strip():  # never dropped without a word
            said += (f"\n\nI did not act on the words sent with it (“{msg.caption.strip()[:200]}”): "
                     "send them as a message of their own.")
        await self.send(context.bot, update.effective_chat.id, Reply(said))

    def _ingest(self, path: Path) -> dict:
        from cairn.service import Cairn
        with Cairn(settings=self.settings) as app:
            return app.ingest([path]).to_json()

    @staticmethod
    def _ingest_text(name: str, report: dict) -> str:
        """The reply to a file sent in: saved (added, updated or held already), or not, with
        the ingest's reason (failed: it could not be read; skipped: empty, binary data, …)."""
        failed = report.get("failed") or []
        if failed:
            why = failed[0].get("reason") or failed[0].get("error") or "it could not be read"
            return f"I could not save {name}: {why}"
        skipped = report.get("skipped") or []
        if skipped and not (report.get("added") or report.get("updated") or report.get("unchanged")):
            why = skipped[0].get("reason") or "it holds nothing to read"
            return f"I did not save {name}: {why}"
        return f"Saved {name}; it is searchable now."

    async def _on_voice(self, update, context) -> None:
        if not await self._allowed(update):
            return
        msg = update.effective_message
        media = msg.voice or msg.audio
        try:
            data = await self._download(context, media.file_id, media.file_size)
            text = await self.lanes.turn(f"telegram:{update.effective_user.id}", transcribe, data)
        except Exception as exc:
            await self.send(context.bot, update.effective_chat.id, Reply(f"I could not understand that voice note: {exc}"))
            return
        if not text:
            await self.send(context.bot, update.effective_chat.id, Reply("I heard no speech in that voice note."))
            return
        person = f"telegram:{update.effective_user.id}"
        reply = await self.lanes.turn(person, _by_voice, self.conversation.reply, person, text)
        await self.answer(context.bot, update.effective_chat.id, text, reply, spoken_in=True)

    async def answer(self, bot, chat_id: int, asked: str, reply: Reply, spoken_in: bool = False) -> None:
        """Send `reply` to the message `asked`: as a voice message when wanted
        (cairn.assistant.voice.spoken_reply; the transcript of a voice note is its caption,
        and the text follows only when it carries buttons), else as text — with a note
        when a voice was wanted but could not be made."""
        from cairn.assistant.voice import Speech, spoken_reply
        speech = await asyncio.to_thread(spoken_reply, self.settings, self.voice_prefs, str(chat_id),
                                         asked, reply.text, spoken_in)
        heard = f"*You said:* {asked}\n\n" if spoken_in else ""
        if isinstance(speech, Speech):
            from telegram.error import BadRequest
            caption = f"You said: {asked}"[:1000] if spoken_in else None
            try:
                await bot.send_voice(chat_id, speech.audio, duration=max(1, round(speech.seconds)),
                                     caption=caption, filename="reply.ogg")
            except BadRequest as exc:  # e.g. VOICE_MESSAGES_FORBIDDEN (the person's privacy setting)
                log.warning("telegram refused a voice message (%s); answering in text", exc)
                speech = f"(No voice reply: Telegram refused it: {exc}.)"
            else:
                if reply.buttons:
                    await self.send(bot, chat_id, reply)
                return
        note = f"\n\n*{speech}*" if isinstance(speech, str) else ""
        await self.send(bot, chat_id, Reply(f"{heard}{reply.text}{note}", reply.buttons))

    # --------------------------------------------------------------- sending
    async def send(self, bot, chat_id: int, reply: Reply) -> list[int]:
        """Send `reply` split and formatted; buttons go with the last part. A part whose
        HTML Telegram refuses is sent again once as plain text. Returns the message ids."""
        from telegram import InlineKeyboardButton, InlineKeyboardMarkup
        from telegram.error import BadRequest
        parts = split_message(reply.text)
        ids = []
        for i, part in enumerate(parts):
            markup = None
            if reply.buttons and i == len(parts) - 1:
                markup = InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=data[:64])
                                                for label, data in reply.buttons]])
            try:
                m = await bot.send_message(chat_id, part, parse_mode="HTML", reply_markup=markup)
            except BadRequest as exc:
                log.warning("telegram refused a formatted message (%s); sending it as plain text", exc)
                m = await bot.send_message(chat_id, plain_text(part), reply_markup=markup)
            ids.append(m.message_id)
        return ids


def transcribe(data: bytes) -> str:
    """Speech in `data` (any audio PyAV decodes: OGG/Opus voice notes, MP3, WAV) as text."""
    from cairn.parse.audio import parse_audio
    doc = parse_audio(data, "voice.ogg")
    return " ".join(re.sub(r"^\[[\d:.]+\]\s*", "", p).strip() for p in doc.body.split("\n") if p.strip()).strip()


def default_conversation(settings) -> Conversation:
    """The assistant's conversation when installed (cairn.assistant.channels), else ask."""
    try:
        from cairn.assistant.channels import conversation_for  # type: ignore[import-not-found]
    except ImportError:
        return AskConversation(settings)
    return conversation_for(settings, channel="telegram")


REMINDER_ACTIONS = {"done": "done", "snooze": "snooze"}
SNOOZE = "in 1 hour"


def reminder_message(message) -> Reply:
    """A scheduled message as sent: a reminder says so first ("⏰ Reminder: …") and carries
    Done / Snooze buttons ("done:ID", "snooze:ID"); digests and proactive messages are sent
    as they are, without buttons."""
    if message.kind == "reminder" and message.reminder_id:
        return Reply(f"⏰ Reminder: {message.text}",
                     [("Done", f"done:{message.reminder_id}"), ("Snooze 1 h", f"snooze:{message.reminder_id}")])
    return Reply(message.text)


def reminder_press(settings, action: str, rid: str) -> Reply:
    """Done or Snooze pressed on a reminder: the same operation as `cairn reminders done|snooze`."""
    from cairn.errors import CairnError
    from cairn.service import Cairn
    try:
        with Cairn(settings=settings) as app, app.scheduler() as sch:
            if action == "done":
                r = sch.done(rid)
                return Reply(f"Done: {r.text}")
            r = sch.snooze(rid, SNOOZE)
            from cairn.schedule.scheduler import local_time
            return Reply(f"Snoozed until {(local_time(r.next_due, r.tz) or '')[:16].replace('T', ' ')}: {r.text}")
    except (CairnError, ValueError) as exc:
        return Reply(f"Sorry: {exc}")


class TelegramNotifier:
    """Delivers reminders (with Done / Snooze buttons) and digests to every allowed Telegram
    user (a notifier channel that reaches a person)."""

    name = "telegram"
    reaches_person = True

    def __init__(self, settings, token: str, allow: list[str], base_url: str = "") -> None:
        self.bot = TelegramBot(settings, token, allow, base_url, conversation=AskConversation(settings))

    def send(self, message) -> None:
        from cairn.schedule.notify import DeliveryFailed
        if not self.bot.allow:
            raise DeliveryFailed("telegram: no allowed user to deliver to ([telegram] allow is empty)")

        async def go():
            from telegram import Bot
            kw = {}
            if self.bot.base_url:
                kw = {"base_url": f"{self.bot.base_url}/bot", "base_file_url": f"{self.bot.base_url}/file/bot"}
            async with Bot(self.bot.token, **kw) as bot:
                for uid in sorted(self.bot.allow):
                    await self.bot.send(bot, int(uid), reminder_message(message))
        try:
            asyncio.run(go())
        except Exception as exc:
            raise DeliveryFailed(f"telegram: {exc}") from exc


def _by_voice(reply, person: str, text: str):
    """`reply(person, text)` with the turn marked as come in by voice (tools.current_input_source:
    a note written from it records `input_source: voice`), set in the worker thread of the lane
    that runs it (a context variable does not cross into a thread pool by itself)."""
    from cairn.tools import current_input_source
    token = current_input_source.set("voice")
    try:
        return reply(person, text)
    finally:
        current_input_source.reset(token)
