"""A message spelt the usual way before anything reads it: `normalise` restores contractions
typed without their apostrophe and spells out texting shortcuts, so the intent classifier, the
time readers and a reminder's text all see one spelling.

    normalise("pls remind me tmrw at 9, whens the appt")
    # "please remind me tomorrow at 9, when's the appointment"

The one place the assistant's understanding normalises text: `understand` calls it on every
message. The training utterances are read as written (normalising them too was measured and
not kept: bench/README.md, session 20). The tables are written for Cairn.
"""

from __future__ import annotations

import re

_BARE = {"whens": "when's", "whats": "what's", "wheres": "where's", "whos": "who's", "hows": "how's", "whys": "why's",
         "im": "I'm", "ive": "I've", "dont": "don't", "doesnt": "doesn't", "didnt": "didn't", "cant": "can't",
         "wont": "won't", "isnt": "isn't", "arent": "aren't", "wasnt": "wasn't", "thats": "that's",
         "theres": "there's", "youre": "you're", "shouldnt": "shouldn't", "couldnt": "couldn't", "whatre": "what're"}
_BARE_RX = re.compile(r"\b(" + "|".join(_BARE) + r")\b", re.I)


# Texting shortcuts, each a word of its own with one usual reading (written for Cairn): the day
# and time words the reminder readers need, courtesies and question words the classifier was
# trained on spelt out, and the common shortened nouns. Left out on purpose: shortcuts with two
# readings a request could mean ("apt" apartment/appointment, "y" a yes, "n", "2" for "to"), or
# another word of its own ("cos" lettuce, "bout" of flu, "Ty" a name); a word in capitals is an
# acronym and stays ("HR", "BC").
_TEXTING = {
    **dict.fromkeys(("tmrw", "tmr", "tmrow", "tmoro", "tmorrow", "tomoz", "2moro", "2morro", "2morrow", "2mrw",
                     "tomorow", "tommorow", "tommorrow", "tomorroe"), "tomorrow"),
    "2day": "today", "tonite": "tonight", "2nite": "tonight", "2night": "tonight", "yday": "yesterday",
    "pls": "please", "plz": "please", "plse": "please", "thx": "thanks", "thnx": "thanks", "thanx": "thanks",
    "u": "you", "ur": "your", "r": "are", "b4": "before", "abt": "about",
    "wk": "week", "wks": "weeks", "wknd": "weekend", "wkend": "weekend", "mth": "month", "mths": "months",
    "hr": "hour", "hrs": "hours", "mins": "minutes", "appt": "appointment", "appts": "appointments",
    "mtg": "meeting", "bday": "birthday", "msg": "message", "txt": "text", "nxt": "next", "shld": "should",
    "shd": "should", "wld": "would", "cld": "could", "bc": "because", "bcos": "because",
    "coz": "because", "cuz": "because", "tho": "though", "thru": "through", "ppl": "people",
    "gonna": "going to", "wanna": "want to", "dunno": "don't know", "lmk": "let me know", "nvm": "never mind",
    "btw": "by the way", "wot": "what", "wat": "what", "wots": "what's", "wats": "what's", "cud": "could", "shud": "should",
    "wud": "would", "thks": "thanks", "thnks": "thanks", "tnx": "thanks", "rmbr": "remember", "kk": "ok",
    "yh": "yes", "yeh": "yes", "pw": "password", "pwd": "password", "num": "number",
    "mon": "Monday", "tue": "Tuesday", "tues": "Tuesday", "wed": "Wednesday", "weds": "Wednesday",
    "thu": "Thursday", "thur": "Thursday", "thurs": "Thursday", "fri": "Friday",
}
# "sat" and "sun" are words of their own ("I sat", "the sun"): read as days only next to a day's
# usual neighbours ("on sat", "every sun", "sat at 10", "sun morning").
_DAY_WORDS = {"sat": "Saturday", "sun": "Sunday"}
_TEXTING_RX = re.compile(r"(?<![\w'’&/.-])(" + "|".join(sorted(_TEXTING, key=len, reverse=True)) + r")(?![\w'’&/-])",
                         re.I)
_DAY_RX = re.compile(r"(\b(?:on|this|next|every|by|till|til|until|from|before|after|for) )(sat|sun)\b"
                     r"|\b(sat|sun)(?= (?:at|am|pm|morning|afternoon|evening|night|\d))", re.I)


def _expand(m: re.Match) -> str:
    word = m.group(1)
    if len(word) > 1 and word.isupper():
        return word  # an acronym ("HR", "BC"), not a shortcut
    full = _TEXTING[word.lower()]
    return full[0].upper() + full[1:] if word[0].isupper() and word.lower() != "r" else full


def normalise(text: str) -> str:
    """`text` spelt the usual way, so the classifier and the slot readers see the spelling they
    were written for: contractions typed without their apostrophe restored ("whens" ->
    "when's", "dont" -> "don't"), and texting shortcuts spelt out (_TEXTING: "tmrw" ->
    "tomorrow", "pls" -> "please", "appt" -> "appointment", "fri" -> "Friday"; "sat"/"sun" only
    beside a day's neighbours, "on sat"). A shortcut is replaced only as a whole word (not
    inside "u-bend", "R&B" or "notes.txt"), not when written in capitals (an acronym: "HR"); a
    capital first letter is kept. Everything else unchanged. The
    one place the assistant's understanding normalises a message (`understand` calls it first)."""
    text = _BARE_RX.sub(lambda m: _BARE[m.group(1).lower()], text)
    text = _TEXTING_RX.sub(_expand, text)
    return _DAY_RX.sub(lambda m: (m.group(1) or "") + _DAY_WORDS[(m.group(2) or m.group(3)).lower()], text)
