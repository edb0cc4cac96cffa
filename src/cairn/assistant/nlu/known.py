"""People named in lower case: a message typed the way people text ("can u text oksana that …")
holds no capitalised name, so the conversation would keep no person for the next turn's "her"
("ok whats her number then"). A word of the message is a person's name when the home's entity
graph knows a person by it (an entity of kind "person", from the notes' and memories' capitalised
names) and the word is no ordinary word: one the intent classifier's training utterances use in
lower case ("will", "may", "rose" as words) is never read as a name.

    people_in("can u text oksana that lev can come", ["Oksana", "Lev", "Dorran Lofts"])
    # ["Oksana", "Lev"]
"""

from __future__ import annotations

import functools
import re
from typing import Callable

_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_POSSESSIVE = re.compile(r"['’]s?$")
MIN_LEN = 3  # a name word shorter than this ("Jo", "Al") is too often something else in lower case


@functools.lru_cache(maxsize=1)
def ordinary_words() -> frozenset[str]:
    """The words the training utterances (nlu/utterances.txt) write in lower case, the index's
    stop words and the names of months and weekdays: ordinary words, never read as a name
    however a person is called ("will", "may")."""
    from cairn.assistant.nlu.classify import read_utterances
    from cairn.lexical import MONTH_NAMES, WEEKDAY_NAMES
    from cairn.store.fts import STOPWORDS
    said = {_POSSESSIVE.sub("", w) for _, t in read_utterances() for w in _WORD.findall(t) if w.islower()}
    return frozenset(said | set(STOPWORDS) | set(MONTH_NAMES) | set(WEEKDAY_NAMES))


def may_name(text: str) -> bool:
    """Whether `text` holds a word that could be a name typed in lower case (at least MIN_LEN letters and no ordinary
    word): without one, `people_in` finds nobody whoever the home knows, and the entity list need not be read."""
    plain = ordinary_words()
    keys = (_POSSESSIVE.sub("", w.lower()) for w in _WORD.findall(text or ""))
    return any(len(k) >= MIN_LEN and k not in plain for k in keys)


def people_in(text: str, people: list[str]) -> list[str]:
    """The names of `people` (display names, "Oksana", "Ines Valadares") a message names in any
    case, in the message's order: a word equal (case-insensitively, a possessive "'s" taken off)
    to a word of a name, at least MIN_LEN letters, and no ordinary word (`ordinary_words`). A
    word of several names gives the shortest of them ("lev" -> "Lev", not "Oksana Lev")."""
    by_word: dict[str, str] = {}
    for name in sorted(people, key=len):
        for w in name.split():
            key = _POSSESSIVE.sub("", w.lower())
            if len(key) >= MIN_LEN and w[:1].isupper():
                by_word.setdefault(key, name)
    plain = ordinary_words()
    out: list[str] = []
    for w in _WORD.findall(text or ""):
        key = _POSSESSIVE.sub("", w.lower())
        name = by_word.get(key)
        if name and key not in plain and name not in out:
            out.append(name)
    return out


def home_people(app) -> list[str]:
    """Display names of the entities of kind "person" the home (as the app's person sees it)
    knows; [] when the entity graph cannot be read."""
    try:
        return [e["name"] for e in app.entities() if e.get("kind") == "person"]
    except Exception:  # noqa: BLE001 - no graph (an empty or unreadable index): no names known
        return []


_BARE_POSSESSIVE = re.compile(r"(?<![\w'’-])([^\W\d_]{%d,})s(?=\s+[^\W\d_])" % MIN_LEN)


def possessives(text: str, people: Callable[[], list[str]]) -> tuple[str, list[str]]:
    """(`text` with a person's possessive typed without its apostrophe written with it, ["old -> new", ...]): "whats
    linnets number" -> "whats linnet's number" when the home knows a person by "Linnet". A word is such a possessive
    when, its last "s" taken off, it is a word of a known person's name (`people`, read only when the message holds
    a candidate), a word follows it (the thing owned), neither form is an ordinary word (`ordinary_words`: "its",
    "is", "was"), and the word as typed is no word of a known name (a surname ending in "s", "Hughes", stays). Texting drops the apostrophe as it does in "whats" (spelling.py);
    the name then reads as a name (`people_in`) and the question as one about that person."""
    plain = ordinary_words()
    cands = [m for m in _BARE_POSSESSIVE.finditer(text) if m.group(0).lower() not in plain
             and m.group(1).lower() not in plain]
    if not cands:
        return text, []
    names = {_POSSESSIVE.sub("", w.lower()) for n in people() for w in n.split() if w[:1].isupper()}
    done: list[str] = []
    out = text
    for m in reversed(cands):
        if m.group(1).lower() in names and m.group(0).lower() not in names:
            new = f"{m.group(1)}'s"
            done.insert(0, f"{m.group(0)} -> {new}")
            out = out[:m.start()] + new + out[m.end():]
    return out, done


# A first name said alone ("whats maureen's number") stands for the one person the home knows by a full name opening
# with it ("Maureen Pike", whose line holds the number): the question is asked with the full name. Switch off:
# FULL_NAME.
FULL_NAME = True


def full_names(text: str, people: list[str]) -> tuple[str, list[str]]:
    """(`text` with each first name said alone replaced by the one full name of `people` opening with it,
    "what's maureen's number" -> "what's Maureen Pike's number"; the names so replaced). A word followed
    by the rest of the name already, an ordinary word, or a first name of several full names is kept."""
    if not FULL_NAME:
        return text, []
    full: dict[str, list[str]] = {}
    for name in people:
        w = name.split()
        if len(w) >= 2 and w[0][:1].isupper() and len(w[0]) >= MIN_LEN:
            full.setdefault(w[0].lower(), []).append(name)
    plain, done = ordinary_words(), []

    def one(m: re.Match) -> str:
        key, poss = m.group(1).lower(), m.group(2) or ""
        names = full.get(key, [])
        rest = text[m.end():].lstrip().lower()
        if len(names) != 1 or key in plain or rest.startswith(names[0].split()[1].lower()):
            return m.group(0)
        done.append(names[0])
        return names[0] + poss
    out = re.sub(r"(?<![\w'’-])([^\W\d_][\w-]*)(['’]s)?(?![\w'’-])", one, text)
    return out, done
