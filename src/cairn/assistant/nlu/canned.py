"""The words of replies that need no tool and read no note: honest refusals (what cannot be done and
what can be done instead), a short human acknowledgement of a feeling (no tool, no citation), small
talk, and what Cairn can do. Pure."""

from __future__ import annotations

import re

CANNOT = {
    "cannot_weather": "I can't check the weather — I have no internet connection to a forecast.",
    "cannot_email": "I can't send or read e-mail — I have no access to your mailbox.",
    "cannot_message": "I can't send messages or make calls — I have no access to your phone or chat apps.",
    "cannot_web": "I can't search the web or look things up online — I only know what is in your notes and memories.",
    "cannot_buy": "I can't buy, book or pay for anything — I have no access to shops, bookings or payments.",
}
INSTEAD = (" I can set a reminder for it or write it down in a note instead — for example "
           "\"remind me tomorrow at 9 to …\" or \"add … to the To do note\".")
CAPABILITIES = (
    "I can remember things you tell me (\"remember that …\") and forget them, answer questions from your "
    "notes and memories, set, list, snooze and cancel reminders (\"remind me tomorrow at 9 to …\", \"every "
    "Sunday at 8 …\"), create, add to, edit, summarise and delete notes, show recent notes, and tell you "
    "what we talked about before. I can't use the internet, e-mail or your phone.")
FEELING = {
    "neg": "I'm sorry you're feeling this way — that sounds hard. Take it one step at a time; "
           "if it would help, I can set a reminder or note down what's on your mind.",
    "pos": "That's lovely to hear — I'm glad!",
}
_POSITIVE = re.compile(r"\b(?:happy|excited|glad|great|good|thrilled|proud|relieved|delighted)\b", re.I)
_NEGATIVE = re.compile(r"\b(?:not|no longer|un\w+|stress|sad|tired|worr|anxi|low|lonely|scared|nervous|frustrat|"
                       r"overwhelm|terrible|awful|fed up|exhaust|angry|upset)\w*", re.I)


def cannot(intent: str) -> str:
    """The honest refusal for a `cannot_*` intent, with what Cairn can do instead."""
    return CANNOT.get(intent, "I can't do that.") + INSTEAD


def feeling(text: str) -> str:
    """A short acknowledgement of a feeling (positive or not), no tool, no citation."""
    if _POSITIVE.search(text) and not _NEGATIVE.search(text):
        return FEELING["pos"]
    return FEELING["neg"]


def smalltalk(text: str) -> str:
    """A short friendly reply to a greeting, thanks or goodbye."""
    t = text.lower()
    if re.search(r"\bthank|\bcheers|helpful", t):
        return "You're welcome."
    if re.search(r"\bbye|see you|good night", t):
        return "Bye for now."
    if re.search(r"how are you", t):
        return "I'm fine, thanks — what can I do for you?"
    if re.search(r"great|nice", t):
        return "Thank you!"
    return "Hello! What can I do for you?"
