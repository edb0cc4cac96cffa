"""Answerability: should a question naming one chat participant P be answered from this evidence?

Only from sentences about P (`sentence_subject`): a chat sentence is about its speaker unless, with no first-person
word, it is in the second person, asks, calls another participant by name or opens as a reaction (`REACTIONS`): then
about the addressee. Of those, only what states something of P counts (`states_of`; not P's comment on the other's
news, `echoes_other`). Over the retrieved chat sentences (plus `CONTEXT_K` hits of a search without the name), scored
by cosine with the question less the name, the first rule that fires declines: 1. the best sentence about someone
else beats the best about P by `MARGIN`, reaches `OTHER_FLOOR` and holds a larger share of the key terms
(`WORDS_AGREE`); 2. key terms held only by sentences about others are at least `OTHER_TERMS` of them. (A thing named
never said of P: focus.py, over `stated`.) Tuned on LoCoMo dev (bench/README.md); a heuristic, not entailment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from cairn.embed.cache import embed_cached
from cairn.lexical import STOPWORDS, content_terms, sentences, stem
from cairn.model import Hit
from cairn.search.unasked import GENERIC_TERMS, key_terms

MARGIN = 0.02
WORDS_AGREE = True  # False: for measuring
OTHER_FLOOR = 0.4
CONTEXT_K = 20  # hits of the search without the person's name (Cairn.ask)
OTHER_TERMS = 0.34
REACTIONS = True  # False: for measuring
_REACTION = re.compile(r"^[\W_]*(?:wow|whoa|woah|omg|oh|aw+|yay|congrat\w*|kudos|that'?s|that is|that was|that sounds|"
                       r"those|these|sounds|looks|must|what an?|how|so cool|nice|great|awesome|cool|amazing|"
                       r"good luck|glad|happy for|proud of|sorry|impressive|lovely|beautiful|cute|love that|"
                       r"sounds like|hope)\b", re.IGNORECASE)
STATED = True  # False: for measuring
MAX_SENTENCES = 160
ADDRESSEE = "the person they were talking to"

_FIRST = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|we'd|we'll|us|our|ours"
                    r"|ourselves)\b", re.IGNORECASE)
_SECOND = re.compile(r"\b(?:you|you're|you've|you'd|you'll|your|yours|yourself|ya|ur|u)\b", re.IGNORECASE)
@dataclass
class Answerability:
    """Verdict of `check` (answerable False: abstain for `reason`) on `person` (None: unchecked);
    about_person: ids of the hits with a sentence about them (or notes); scores: the rules' figures;
    stated: the sentences stating something of them (focus.py)."""

    answerable: bool = True
    reason: str | None = None
    person: str | None = None
    about_person: set[str] = field(default_factory=set)
    scores: dict[str, float] = field(default_factory=dict)
    stated: list[str] = field(default_factory=list)


@lru_cache(maxsize=1024)
def name_pattern(name: str) -> re.Pattern[str]:
    """`name` as a whole word with an optional possessive 's, case-insensitive (cached)."""
    return re.compile(r"(?<!\w)" + re.escape(name) + r"(?:'s|’s)?(?!\w)", re.IGNORECASE)


def named_people(question: str, hits: list[Hit]) -> list[str]:
    """The chat speakers of `hits` whose full or first name occurs in `question`, in order of
    mention; never a speaker label that is a function word ("Me", "You")."""
    found: dict[str, int] = {}
    for speaker in {h.speaker for h in hits if h.speaker}:
        for form in dict.fromkeys([speaker, speaker.split()[0]]):
            if len(form) >= 2 and form.casefold() not in STOPWORDS and (m := name_pattern(form).search(question)):
                found[speaker] = min(found.get(speaker, m.start()), m.start())
    return sorted(found, key=found.get)


def strip_people(question: str, people: list[str]) -> str:
    """`question` without the people's names (full and first, possessive included)."""
    for p in people:
        for form in dict.fromkeys([p, p.split()[0]]):
            question = name_pattern(form).sub(" ", question)
    return re.sub(r"\s+", " ", question).strip()


def _addresses(sentence: str, speaker: str, names: list[str]) -> bool:
    """Whether `sentence` calls another participant by a capitalised form of 3+ letters of
    their first name ("Mel" for Melanie)."""
    firsts = [n.split()[0].lower() for n in names if n != speaker and n.split()]
    return any(f.startswith(w.lower()) for w in re.findall(r"\b[A-Z][a-z]{2,}\b", sentence) for f in firsts)


def sentence_subject(sentence: str, speaker: str | None, person: str, names: list[str] | None = None) -> str | None:
    """Who `sentence` by `speaker` is about (module doc): None for a note; the addressee
    (`person` when someone else wrote it, else ADDRESSEE) or the speaker. names: the chat's speakers."""
    if speaker is None:
        return None
    if not _FIRST.search(sentence) and (_SECOND.search(sentence) or sentence.rstrip().endswith("?")
                                        or (names and _addresses(sentence, speaker, names))
                                        or (REACTIONS and _REACTION.search(sentence))):
        return person if speaker != person else ADDRESSEE
    return speaker


def states_of(sentence: str, speaker: str | None, person: str) -> bool:
    """Whether `sentence` (about `person`) states something of them: a note's, theirs asking
    nothing, or a question put to them (module doc). Always True when STATED is off."""
    return speaker is None or not STATED or (speaker == person) != sentence.rstrip().endswith("?")


def echoes_other(sentence: str, replied: str, keys: set[str]) -> bool:
    """Whether `sentence`, in neither first nor second person, shares a key term (`keys`) with a
    first-person sentence of `replied` ("Oops, sorry 'bout the accident!" after "My son got…")."""
    if _FIRST.search(sentence) or _SECOND.search(sentence):
        return False
    shared = {stem(t) for t in content_terms(sentence)} & keys
    return bool(shared) and any(_FIRST.search(replied[s:e]) and shared & {stem(t) for t in content_terms(replied[s:e])}
                                for s, e in sentences(replied))


def check(question: str, hits: list[Hit], embedder, context: list[Hit] | None = None, *,
          replies: dict[str, str] | None = None) -> Answerability:
    """The person check (module doc) of `question` over `hits` plus `context` (extra hits used
    only to find whom else the topic belongs to). embedder: `embed(list[str]) -> (n, dim)` unit
    vectors; replies: {hit id: the message it replies to} (`echoes_other`). Never raises."""
    pool: dict[str, Hit] = {}
    for h in list(hits) + list(context or []):
        pool.setdefault(h.id, h)
    people = named_people(question, list(pool.values()))
    result = Answerability(about_person={h.id for h in hits})
    if len(people) != 1:
        return result
    person = result.person = people[0]
    topic = strip_people(question, people)
    keys = key_terms(topic)
    if not keys:
        return result  # nothing but generic or time words: no topic to attribute
    speakers = sorted({h.speaker for h in pool.values() if h.speaker})
    sents = [(h.id, sentence_subject(h.text[s:e], h.speaker, person, speakers), h.text[s:e], h.speaker)
             for h in pool.values() for s, e in sentences(h.text) if re.search(r"\w", h.text[s:e])][:MAX_SENTENCES]
    if not sents:
        return result
    result.about_person = {hid for hid, subj, _, _ in sents if subj in (None, person)} & {h.id for h in hits}
    vecs = embed_cached(embedder, [topic] + [s[2][:1000] for s in sents])
    best_p = best_o = words_p = words_o = 0.0  # best cosine and largest share of key terms per side
    best_o_sent, terms_p, terms_o = None, set(), set()
    for (hid, subj, sent, speaker), c in zip(sents, vecs[1:] @ vecs[0]):
        stems = {stem(t) for t in content_terms(sent)}
        held = len(stems & keys) / len(keys)
        if subj not in (None, person):
            words_o, terms_o = max(words_o, held), terms_o | stems
            if float(c) > best_o:
                best_o, best_o_sent = float(c), (sent, subj)
        elif states_of(sent, speaker, person) and not (STATED and speaker == person and echoes_other(
                sent, (replies or {}).get(hid, ""), keys)):  # else about them, stating nothing: neither side
            best_p, words_p, terms_p = max(best_p, float(c)), max(words_p, held), terms_p | stems
            result.stated.append(sent)
    only_other = sorted((keys & terms_o) - terms_p)
    result.scores = {"support_person": round(best_p, 4), "support_other": round(best_o, 4),
                     "key_terms_only_other": round(len(only_other) / len(keys), 4),
                     "words_person": round(words_p, 4), "words_other": round(words_o, 4)}
    if best_o_sent and best_o > best_p + MARGIN and best_o >= OTHER_FLOOR and (words_o > words_p or not WORDS_AGREE):
        shown = _surface(topic, {stem(t) for t in content_terms(best_o_sent[0])} - GENERIC_TERMS)[:4] or only_other
        what = f"'{' '.join(shown)}'" if shown else "this"
        result.reason = f"the evidence about {what} is from {best_o_sent[1]}, not {person}"
    else:
        result.scores["key_terms_not_about_person"] = round(len(keys - terms_p) / len(keys), 4)
        if len(only_other) / len(keys) >= OTHER_TERMS:
            said = ", ".join(f"'{t}'" for t in _surface(topic, only_other) or only_other)
            result.reason = f"{said} {'is' if len(only_other) == 1 else 'are'} said of someone else, not {person}"
    result.answerable = result.reason is None
    return result


def _surface(question: str, stems) -> list[str]:
    """The question's own words whose stem is in `stems`, once each, in order."""
    return list(dict.fromkeys(t for t in content_terms(question) if stem(t) in stems))
