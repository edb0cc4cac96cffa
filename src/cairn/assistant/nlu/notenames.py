"""Which note a message names: its words matched against the vault's titles by fuzzy matching
(`note_in`: the window of the message most like a title, difflib's ratio >= TITLE_MATCH; a
long word of one title alone; most words of a title), the phrase naming a note ("the note
called X", "my notes on Y": `note_phrase`) and both together (`resolve_note`). Pure except
`note_titles` (reads the notes list); nothing raises for an unreadable message.
"""

from __future__ import annotations

import difflib
import re

from cairn.assistant.nlu.wording import clean, strip_polite

TITLE_MATCH = 0.8   # difflib ratio a window of the message needs to name a note's title
SHORT_TITLE = 4     # a title this short (characters) must match exactly
WORD_MATCH = 0.85   # difflib ratio a message word needs to stand for one word of a title (_words_in)


def note_titles(app) -> list[str]:
    """The titles of the person's notes (up to 1000, newest listing order)."""
    try:
        return [n["title"] for n in app.notes_list(limit=1000)["notes"] if n.get("title")]
    except Exception:
        return []


def norm(s: str) -> str:
    """`s` lower-cased, punctuation other than currency signs and hyphens a space, spaces collapsed."""
    return " ".join(re.sub(r"[^\w\s£$€-]", " ", s.lower()).split())


def note_in(text: str, titles: list[str]) -> tuple[str, float, tuple[int, int]] | None:
    """(title, ratio, (start word, end word)) of the title a window of `text` matches best
    (difflib SequenceMatcher ratio >= TITLE_MATCH, exact for titles of SHORT_TITLE characters or
    fewer; case and punctuation ignored; windows of
    the title's length in words, one more or one less); failing that, a title whose content words
    the message all holds in another order (`_words_in`), or one word only that title has
    (`_own_word`); None when no title matches."""
    words = norm(text).split()
    best = None
    for title in titles:
        tw = norm(title).split()
        if not tw:
            continue
        for size in {max(1, len(tw) - 1), len(tw), len(tw) + 1}:
            for i in range(0, max(1, len(words) - size + 1)):
                window = " ".join(words[i:i + size])
                r = difflib.SequenceMatcher(None, window, " ".join(tw)).ratio()
                if len(" ".join(tw)) <= SHORT_TITLE and r < 1.0:
                    continue  # "Car" must be said as "car", not "cart"
                if r >= TITLE_MATCH and (best is None or r > best[1] + 1e-9
                                         or (abs(r - best[1]) < 1e-9 and len(tw) > len(norm(best[0]).split()))):
                    best = (title, r, (i, i + size))
    return best or _words_in(words, titles) or _own_word(words, titles)


OWN_WORD = 5        # characters a title word needs to name its note alone (_own_word)


def _own_word(words: list[str], titles: list[str]) -> tuple[str, float, tuple[int, int]] | None:
    """The title one of whose content words (OWN_WORD characters or more, in no other title)
    the message holds ("talk me through the sourdough" names "Sourdough loaf"), scored just
    below TITLE_MATCH; None when no message word is such a word, or two titles are named so."""
    owners: dict[str, set[str]] = {}
    for title in titles:
        for w in norm(title).split():
            if w not in _TITLE_STOP and len(w) >= OWN_WORD:
                owners.setdefault(w, set()).add(title)
    found = {(next(iter(owners[w])), i) for i, w in enumerate(words) if len(owners.get(w, ())) == 1}
    if len({t for t, _ in found}) != 1:
        return None
    title, i = min(found, key=lambda x: x[1])
    return title, TITLE_MATCH - 0.01, (i, i + 1)


_TITLE_STOP = frozenset("a an the of for and to in on at with my our your note notes list".split())


def _same_word(m: str, w: str) -> bool:
    """True when word `m` matches word `w`: equal when `w` has SHORT_TITLE characters or fewer, else difflib ratio
    >= WORD_MATCH."""
    return m == w if len(w) <= SHORT_TITLE else difflib.SequenceMatcher(None, m, w).ratio() >= WORD_MATCH


def _words_in(words: list[str], titles: list[str]) -> tuple[str, float, tuple[int, int]] | None:
    """The title of two or more content words that the message holds all of, in any order and
    not necessarily together ("the porto packing note" names "Packing for Porto"): each title
    word matched by a message word with difflib ratio >= WORD_MATCH (exact for SHORT_TITLE
    characters or fewer). Scored TITLE_MATCH (below any whole-window match); the title with
    the most words wins. None when no title qualifies."""
    best = None
    for title in titles:
        tw = [w for w in norm(title).split() if w not in _TITLE_STOP]
        if len(tw) < 2:
            continue
        at = []
        for w in tw:
            hits = [i for i, m in enumerate(words) if _same_word(m, w)]
            if not hits:
                break
            at.append(hits[0])
        else:
            if best is None or len(tw) > best[3]:
                best = (title, TITLE_MATCH, (min(at), max(at) + 1), len(tw))
    return best[:3] if best else None


def _words_before(text: str, span: tuple[int, int]) -> str:
    return " ".join(norm(text).split()[:span[0]])


# The forms naming one note by what follows or precedes the word "note" (`note_phrase`); the first
# three name a note outright, "my notes on X" / "the X" only maybe (a topic, a thing).
_NAMES_NOTE = (r"\bnote\s+(?:called|titled|named)\s+(?P<x>.+?)(?:\s+(?:with|saying|containing)\b.*)?$",
               r"\b(?:the|my)\s+(?P<x>[\w' -]+?)\s+(?:note|list)\b",
               # "delete the note Shopping", "show me the note /etc/passwd": whatever follows is the name
               r"\b(?:the|my)\s+(?:note|list)\s+(?:called\s+|titled\s+|named\s+)?(?P<x>\S.*?)$")
_MAYBE_NOTE = (r"\bnotes?\s+(?:on|about|for)\s+(?:the\s+|my\s+)?(?P<x>.+)$",
               r"\b(?:the|my)\s+(?P<x>[\w' -]+?)$")


def note_phrase(text: str, outright: bool = False) -> str:
    """The note a message names when no title matched: "the X note" / "note called X" /
    "the note X" / "my note on X" / "X list" -> "X" ("" when none). outright: only the forms
    that name a note as one ("the note X", "the X note", "a note called X"), not "the X"."""
    t = clean(strip_polite(text))
    for rx in _NAMES_NOTE + (() if outright else _MAYBE_NOTE):
        m = re.search(rx, t, re.I | re.S)
        if m:
            x = clean(m.group("x"))
            # "all my notes", "the list": the word for a note names none
            return "" if re.fullmatch(r"(?:(?:all|every|each)\s+(?:of\s+)?(?:my\s+)?)?(?:notes?|lists?)", x, re.I | re.S) else x
    return ""


# A note named outright by part of its title ("give me the gist of the ski trip note" of "Ski trip to Zell") is that
# note when its title is the only one holding every content word of the phrase. Switch off: PART_OF_TITLE.
PART_OF_TITLE = True


def part_of_title(phrase: str, titles: list[str]) -> str | None:
    """The one title among `titles` whose content words hold every content word of `phrase` after its last "the",
    "my" or "of" ("the gist of the ski trip": "ski trip"; each matched as
    `_words_in` matches: exact for SHORT_TITLE characters or fewer, else difflib ratio >= WORD_MATCH); None when
    the phrase has no content word, or no title or more than one holds them all."""
    want = [w for w in re.split(r"\b(?:the|my|our|your|of)\b", norm(phrase))[-1].split() if w not in _TITLE_STOP]
    if not want:
        return None

    def holds(title: str) -> bool:
        tw = [w for w in norm(title).split() if w not in _TITLE_STOP]
        return all(any(_same_word(m, w) for m in tw) for w in want)
    found = [t for t in titles if holds(t)]
    return found[0] if len(found) == 1 else None


def resolve_note(app, text: str, titles: list[str] | None = None) -> tuple[str | None, str]:
    """(the title of the note `text` names, or None; the phrase that named it). A phrase naming a note outright
    ("the ski trip note") that matches no title whole names the one title holding all its words (`part_of_title`)."""
    titles = note_titles(app) if titles is None else titles
    hit = note_in(text, titles)
    if hit:
        return hit[0], hit[0]
    phrase = note_phrase(text)
    if phrase:
        hit = note_in(phrase, titles)
        if hit:
            return hit[0], phrase
        if PART_OF_TITLE and (named := note_phrase(text, outright=True)) and (title := part_of_title(named, titles)):
            return title, named
        if FILE_NAMES and (named := note_phrase(text, outright=True)) and (title := by_file_name(app, named)):
            return title, named
    return None, phrase


# A note is also called by its file's name: "my removals note" names the note titled "The move" kept in
# removals.md (the file name's words, hyphens and underscores as spaces, matched as titles are, `note_in`).
# Switch off: FILE_NAMES.
FILE_NAMES = True


def by_file_name(app, phrase: str) -> str | None:
    """The title of the one note whose file name (its stem's words) `phrase` names, or None."""
    try:
        rows = [n for n in app.notes_list(limit=1000)["notes"] if n.get("title") and n.get("path")]
    except Exception:  # noqa: BLE001 - no listing: no file names known
        return None
    stems = {re.sub(r"[-_.]+", " ", n["path"].rsplit("/", 1)[-1].rsplit(".", 1)[0]): n["title"] for n in rows}
    hit = note_in(phrase, list(stems))
    return stems[hit[0]] if hit else None


# A message about all or several notes ("delete all my notes", "every note", "the notes about the boiler",
# "everything") names no one note: an action on one note takes none of them — neither the note last spoken of
# nor a title holding its words. Switch off: MANY_NOTES.
MANY_NOTES = True
_MANY = re.compile(r"\b(?:all|every|each|both|several|multiple)\b(?:\s+[\w'-]+){0,4}?\s+(?:notes?|lists?)\b"
                   r"|\b(?:notes|lists)\b|\b(?:all|each|both)\s+of\s+them\b"
                   r"|\b(?:delete|remove|wipe|clear|erase|bin|trash|rid of)\s+(?:absolutely\s+)?everything\b", re.I)


def names_many(text: str, title: str | None = None) -> bool:
    """Whether `text` speaks of all or several notes rather than one (`_MANY`: a quantifier before
    "note(s)", a plural "notes" / "lists", "all of them", "delete everything"), the words of the matched
    `title` ("Meeting notes") left out first, and a plural right after a word of it ("the orchard mews
    notes" of "Flat viewing Orchard Mews"). False when MANY_NOTES is off."""
    if not MANY_NOTES:
        return False
    t = re.sub(re.escape(title), " ", text, flags=re.I) if title else text
    if title:  # "bin the orchard mews notes": the plural right after words of the title is that one note's
        own = {w for w in norm(title).split() if len(w) > 2}
        t = re.sub(r"\b([\w'-]+)\s+(?:notes|lists)\b", lambda m: m.group(0) if m.group(1).lower() not in own else " ",
                   t, flags=re.I)
    return bool(_MANY.search(t))


# A delete naming no note takes the session's note only when the request points back at it ("delete it", "bin
# that note", "remove this one"); "run rm -rf /" names no note and points at none. Switch off: REFERRED_DELETE.
REFERRED_DELETE = True
_POINTS_BACK = re.compile(r"\b(it|that|this|them|the note|that one|this one)\b", re.I)


def points_back(text: str) -> bool:
    """True when `text` refers back to a note already spoken of ("delete it", "remove that one"); always True
    with REFERRED_DELETE off."""
    return not REFERRED_DELETE or bool(_POINTS_BACK.search(text))
