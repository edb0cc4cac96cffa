"""What "she", "his", "her" mean: the conversation's antecedents and the one a pronoun picks.

Each turn records its mentions (`mention`), most salient first: the person a who-question's
answer names, the people the message names (the last named first), then the turn's subject (the
thing or note asked about). A mention carries a kind ("person" | "thing"), a gender ("f" | "m" |
None) read from how the words around it use it (`gender_in`: a pronoun after the name in its
sentence, or opening the next one: "Freya Lund ... She charges £11", "how heavy was pebble when i
last weighed her"), and the turn keeps the people of the note it answered from (`cast`, with
their genders), so a person named in an earlier turn can be told apart from one the current topic
holds.

`pick(pronoun, turns)` walks the turns newest first (Hobbs-like recency, number and gender
agreement as in the classic antecedent filters; J. Hobbs, "Resolving pronoun references", Lingua
44, 1978 — here over turns, not parse trees):

- a person whose gender fits (or is unknown) is the antecedent, unless a more recent turn's
  subject stands between them and that turn's note never names the person (the topic changed:
  "how much does pickle eat" -> "when's her booster" means Pickle, not a teacher named turns
  before);
- a subject whose gender is known and fits is the antecedent; one of unknown gender is kept as
  the fallback for when no person fits in its topic;
- a mention of the other gender is skipped;
- with only a subject of unknown gender left, the one person of its note whose gender fits is
  meant ("what night is choir" -> "what's her number": the conductor, the note's only "she"),
  else the subject itself.

Plain functions of text and turn dicts (no I/O); the turn dicts are the session log's "nlu"
events (cairn.assistant.nlu.state), so a resumed session resolves as the live one did.
"""

from __future__ import annotations

import re

FEMALE = frozenset({"she", "her", "hers", "herself"})
MALE = frozenset({"he", "him", "his", "himself"})
_SENT = re.compile(r"(?<=[.!?;\n])\s+|\n+")
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
MAX_CAST = 12  # people of one note kept with a turn


def pronoun_gender(pronoun: str) -> str | None:
    """"f" for she/her/hers/herself, "m" for he/him/his/himself, None for any other word."""
    w = pronoun.lower()
    return "f" if w in FEMALE else "m" if w in MALE else None


def _keys(name: str) -> set[str]:
    """The name's words of three letters or more, lower case, a possessive taken off ("Desmond Hale" -> {desmond, hale})."""
    return {re.sub(r"['’]s?$", "", w.lower()) for w in _WORD.findall(name or "")} - {"the", "and"}


def _names_word(name: str, words: list[str]) -> int:
    """The index just past the first word of `words` that is a word of `name` (3+ letters), or -1."""
    keys = {k for k in _keys(name) if len(k) >= 3}
    for i, w in enumerate(words):
        if re.sub(r"['’]s?$", "", w.lower()) in keys:
            return i + 1
    return -1


def gender_in(name: str, text: str) -> str | None:
    """The gender `text` gives `name`: the pronouns after a word of the name in its sentence and
    those of the next sentence (only its first word when it names someone: a capitalised word
    after its first), counted over every sentence naming it; "f" or "m" when one side has more, None when neither is said (or they tie).
    ("Subs go to Desmond Hale. Ring him on ..." -> "m"; "Backup: her brother Otto" -> None for
    Otto, the "her" stands before him.)"""
    if not name or not text:
        return None
    sents = [s for s in _SENT.split(text) if s.strip()]
    f = m = 0
    for i, s in enumerate(sents):
        words = _WORD.findall(s)
        at = _names_word(name, words)
        if at < 0:
            continue
        after = [w.lower() for w in words[at:]]
        nxt = _WORD.findall(sents[i + 1]) if i + 1 < len(sents) else []
        if any(w[:1].isupper() and w != "I" for w in nxt[1:]) or _names_word(name, nxt) >= 0:
            nxt = nxt[:1]  # a next sentence naming someone (or the name again): only its opening pronoun
        for w in after + [w.lower() for w in nxt]:
            f += w in FEMALE
            m += w in MALE
    return "f" if f > m else "m" if m > f else kin_gender(name, text)


# Nouns and titles that give a person's gender when they name the person: "Nia is my daughter", "your daughter Nia",
# "Mrs Okafor", "her brother Otto" (English's closed class of gendered kin and address words). Switch off: KIN_GENDER.
KIN_GENDER = True
_KIN = {"f": "daughter sister mother mum mom mummy mommy wife girlfriend aunt auntie niece granddaughter grandmother "
             "gran granny grandma nan nana stepdaughter stepmother girl woman lady mrs ms miss madam",
        "m": "son brother father dad daddy husband boyfriend uncle nephew grandson grandfather grandad granddad "
             "grandpa stepson stepfather boy man gentleman mr sir"}
_KIN_WORD = {w: g for g, ws in _KIN.items() for w in ws.split()}
_OWNER = r"(?:(?:my|our|your|his|her|their|the|a)\s+)?(?:(?:eldest|oldest|youngest|little|big|older|younger|baby)\s+)?"


def kin_gender(name: str, text: str) -> str | None:
    """The gender a gendered noun or title naming `name` in `text` gives it: a title the name
    opens with ("Mrs Okafor"), else "Nia is my daughter", "Sam, my son", "your daughter Nia"
    (KIN_GENDER words); None when none does, or when the words given disagree."""
    if not KIN_GENDER or not name or not text:
        return None
    if g := _KIN_WORD.get(name.split()[0].rstrip(".").lower()):
        return g  # "Mrs Okafor": the title the name opens with ("Dear Mr Varga, your daughter ..." is not his)
    n = re.escape(name)
    words = []
    words += [m.group("k") for m in re.finditer(r"\b" + n + r",?\s+(?:(?:is|was)\s+)?" + _OWNER + r"(?P<k>[a-z]+)\b",
                                                 text, re.I)]  # "Nia is my daughter", "Sam, my son"
    words += [m.group("k") for m in re.finditer(r"\b(?P<k>[a-z]+)\.?,?\s+(?=" + n + r"\b)", text, re.I)]  # "daughter Nia"
    said = {g for w in words if (g := _KIN_WORD.get(w.lower()))}
    return said.pop() if len(said) == 1 else None


def mention(name: str, kind: str, gender: str | None) -> dict:
    """One antecedent of a turn: {"name", "kind": "person" | "thing", "gender": "f" | "m" | None}."""
    if kind not in ("person", "thing"):
        raise ValueError(f"a mention's kind is 'person' or 'thing', not {kind!r}")
    return {"name": name, "kind": kind, "gender": gender if gender in ("f", "m") else None}


def cast(people: list[str], body: str) -> list[dict]:
    """The people of a note (`people`, as its readers find them) with the gender its `body` gives each."""
    return [mention(p, "person", gender_in(p, body)) for p in list(dict.fromkeys(people))[:MAX_CAST]]


def in_cast(name: str, people: list[dict]) -> bool:
    """Whether a word of `name` (3+ letters) is a word of one of `people`'s names ("Desmond" in "Desmond Hale")."""
    keys = {k for k in _keys(name) if len(k) >= 3}
    return any(keys & _keys(c.get("name", "")) for c in people)


def _gender(m: dict, turns: list[dict]) -> str | None:
    """A mention's own gender, else the one any turn's cast gives a person of the same name."""
    if m.get("gender"):
        return m["gender"]
    for t in reversed(turns):
        for c in t.get("cast") or []:
            if c.get("gender") and in_cast(m["name"], [c]):
                return c["gender"]
    return None


def legacy_mentions(turn: dict) -> list[dict]:
    """The mentions of a turn logged before mentions were kept: its person, then its subject."""
    out = [mention(turn["person"], "person", None)] if turn.get("person") else []
    return out + ([mention(turn["subject"], "thing", None)] if turn.get("subject") else [])


# Within one turn, a mention whose gender is known to agree with the pronoun comes before one whose gender is
# unknown ("who is her dentist?" names Nia, a "she", and Dr Ek, said of by no pronoun: "what clubs does she do?"
# means Nia); across turns recency still rules. Switch off: KNOWN_FIRST.
KNOWN_FIRST = True


def pick(pronoun: str, turns: list[dict]) -> str | None:
    """The name `pronoun` (a she/he form) stands for over `turns` (oldest first, each with
    "mentions" and "cast"), or None when nothing fits (module docstring)."""
    want = pronoun_gender(pronoun)
    fallback: str | None = None
    topic: list[dict] | None = None  # the cast of the fallback subject's turn
    for t in reversed(turns):
        ms = t.get("mentions")
        ms = ms if ms is not None else legacy_mentions(t)
        if KNOWN_FIRST and want:  # in one turn, one said to be a "she" before one whose gender nothing gives
            ms = sorted(ms, key=lambda m: _gender(m, turns) != want)
        for m in ms:
            g = _gender(m, turns)
            if want and g and g != want:
                continue
            if m["kind"] == "person":
                if fallback is None or in_cast(m["name"], topic or []):
                    return m["name"]
                continue
            if g:
                return m["name"]
            if fallback is None:
                fallback, topic = m["name"], t.get("cast") or []
    fits = [c["name"] for c in topic or [] if want and c.get("gender") == want]
    return fits[0] if len(fits) == 1 else fallback


def pick_thing(turns: list[dict]) -> str | None:
    """What "it" / "that" stands for over `turns` (oldest first): the most recent mention that is
    no person (a thing, a note, a pet), or None. A turn whose subject was a person ("whats his
    number" -> Desmond Hale) is passed over: "it" never means a person."""
    for t in reversed(turns):
        ms = t.get("mentions")
        for m in (ms if ms is not None else legacy_mentions(t)):
            if m["kind"] == "thing":
                return m["name"]
    return None


# A she/he of a later part of one message stands for the person an earlier part names ("when's mum's birthday and
# what's she after": she = mum), before anyone from earlier turns: the nearest antecedent is in the same message.
# Switch off: IN_MESSAGE.
IN_MESSAGE = True
_KIN_SAID = re.compile(r"\b(?:(?:my|our)\s+)?(?P<k>" + "|".join(sorted(_KIN_WORD, key=len, reverse=True)) + r")(?:['’]s)?\b",
                       re.I)
_NOT_KIN_ALONE = frozenset({"boy", "girl", "man", "woman", "lady", "gentleman", "mr", "mrs", "ms", "miss", "madam", "sir"})


def said_people(text: str, names: list[str]) -> list[tuple[str, str | None]]:
    """[(person, gender)] an earlier part of a message names, in its order: the `names` the caller
    found in it (capitalised or known to the home; gender from the text: `gender_in`) and the kin
    words it says ("mum", "my sister's": gender from the word, KIN_GENDER's closed class; a kin
    word naming a name said right after it, "my sister Priya", counts once, as the name)."""
    out: list[tuple[int, str, str | None]] = []
    for n in names:
        at = text.find(n)
        if at >= 0:
            out.append((at, n, gender_in(n, text)))
    for m in _KIN_SAID.finditer(text):
        k = m.group("k").lower()
        if k in _NOT_KIN_ALONE or any(at == m.end() + 1 or m.end() < at <= m.end() + 2 for at, _, _ in out):
            continue
        out.append((m.start(), k, _KIN_WORD[k]))
    return [(n, g) for _, n, g in sorted(out)]


def pick_in_message(pronoun: str, earlier: list[tuple[str, str | None]]) -> str | None:
    """The person of `earlier` (said_people of the message's parts before the pronoun's) a she/he
    form stands for: the last one whose gender is the pronoun's, else the last of unknown gender;
    None when none fits or IN_MESSAGE is off."""
    want = pronoun_gender(pronoun)
    if not IN_MESSAGE or not want:
        return None
    for ok in (lambda g: g == want, lambda g: g is None):
        fits = [n for n, g in earlier if ok(g)]
        if fits:
            return fits[-1]
    return None
