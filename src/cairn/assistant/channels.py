"""The assistant behind message channels (Telegram; later others): one session per channel
and person, approvals as buttons.

`conversation_for(settings, channel)` returns an object with `reply(person, text)` and
`press(person, data)`, each returning a reply with `.text` (markdown) and `.buttons`
([(label, callback data)]) — the `Conversation` the Telegram bot expects. A high-risk call
comes back with "Approve" / "Deny" buttons carrying "approve:ID" / "deny:ID", on the reply that
asks only (a later reply carries no buttons of an older pending call); a press after
`[assistant] approval_timeout_s` counts as denied (the call expired). Text commands:
/new, /approve ID, /deny ID, /budget, and /start or /help (what Cairn can do and these commands;
/start is the first message every Telegram client sends). Any other command (a slash and a word,
Telegram's form: "/resume", "/new@cairn_bot" is /new) is refused naming it; a message that merely
opens with a slash ("/etc/hosts is …") is a message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cairn.assistant.loop import Assistant
from cairn.assistant.nlu.canned import CAPABILITIES
from cairn.assistant.results import Channel, describe


COMMANDS = "/new (a fresh session), /approve ID, /deny ID, /budget, /help"
_COMMAND = re.compile(r"/([A-Za-z0-9_]{1,32})(?:@\w+)?")  # Telegram's bot command: "/start", "/new@cairn_bot"


@dataclass
class ChannelReply:
    """Markdown `text` and inline `buttons` [(label, data)] (data at most 64 bytes)."""

    text: str
    buttons: list[tuple[str, str]] = field(default_factory=list)


class AssistantConversation:
    """The assistant loop for one channel; a fresh service per message (the bot runs each
    message in a worker thread)."""

    def __init__(self, settings, channel: str = "telegram") -> None:
        self.settings = settings
        self.channel = channel

    def _bot(self, app, person: str) -> Assistant:
        return Assistant(app, channel=self.channel, person=person)

    def reply(self, person: str, text: str) -> ChannelReply:
        from cairn.errors import CairnError
        from cairn.service import Cairn
        with Cairn(settings=self.settings) as app:
            bot = self._bot(app, person)
            cmd, _, arg = text.strip().partition(" ")
            command = _COMMAND.fullmatch(cmd)
            cmd = f"/{command.group(1).lower()}" if command else cmd
            try:
                if cmd in ("/start", "/help"):
                    return ChannelReply(f"Hello! {CAPABILITIES}\nCommands: {COMMANDS}.")
                if cmd == "/new":
                    return ChannelReply(f"New session {bot.new_session()}." +
                                        "".join(f"\n{n}" for n in bot.notices))
                if cmd in ("/approve", "/deny") and arg.strip():
                    return self._decide(bot, arg.strip(), cmd == "/approve")
                if cmd == "/budget":
                    b = bot.budget.to_json()
                    return ChannelReply(f"Session: {b['session']['tokens']} tokens, ${b['session']['cost']:.4f}; "
                                        f"today: {b['day']['tokens']} tokens, ${b['day']['cost']:.4f}.")
                if command and cmd not in ("/approve", "/deny"):  # "/approve" without an ID: a message
                    return ChannelReply(f"Sorry: {cmd} is no command here. Commands: {COMMANDS}.")
                res = bot.turn(text, Channel())
            except (CairnError, ValueError) as exc:
                return ChannelReply(f"Sorry: {exc}")
        lines = [res.reply]
        buttons: list[tuple[str, str]] = []
        asked = {c.approval_id for c in res.tool_calls if c.outcome == "pending"}
        for p in res.pending_approvals:  # only the calls this message asks about: no stale buttons
            if p["id"] not in asked:
                continue
            buttons += [(f"Approve {p['name']}", f"approve:{p['id']}"), ("Deny", f"deny:{p['id']}")]
        return ChannelReply("\n".join(lines), buttons[:6])

    def press(self, person: str, data: str) -> ChannelReply:
        from cairn.errors import CairnError
        from cairn.service import Cairn
        action, _, aid = data.partition(":")
        if action not in ("approve", "deny") or not aid:
            return ChannelReply("Nothing is waiting for a decision.")
        with Cairn(settings=self.settings) as app:
            try:
                return self._decide(self._bot(app, person), aid, action == "approve")
            except (CairnError, ValueError) as exc:
                return ChannelReply(f"Sorry: {exc}")

    def _decide(self, bot: Assistant, aid: str, grant: bool) -> ChannelReply:
        res = bot.decide(aid, grant=grant, expire_after=bot.cfg.approval_timeout_s)
        return ChannelReply(" ".join(describe(c) for c in res.tool_calls))


def conversation_for(settings, channel: str = "telegram") -> AssistantConversation:
    """The Conversation for a message channel (see module docstring)."""
    return AssistantConversation(settings, channel)
