"""Answerability: should a question naming one chat participant P be answered from this evidence?

Only from sentences about P (`sentence_subject`): a chat sentence is about its speaker unless, with no first-person
word, it is in the second person, asks, calls another participant by name or opens as a reaction (`REACTIONS`): then
about the addressee. Of those, only what states something of P counts (`states_of`; not P's comment on the other's
news, `echoes_other`). Over the retrieved chat sentences (plus `CONTEXT_K` hits of a search without the name), scored
by cosine with the question less the name and by its key terms, a logistic regression over five figures (`features`)
declines at THRESHOLD: fitted on LoCoMo's tune half and its questions with the other participant's name swapped in
(session 28; bench/answerability_fit.py), it replaced four hand-set thresholds (session 26). A key term never said of
P is no feature (the slot asked, "job", "pet", rarely is). (Things named never said of P: focus.py.) Not entailment.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from cairn.embed.cache import embed_cached
from cairn.lexical import content_terms, sentences, stem
from cairn.model import Hit
from cairn.search.names import name_pattern, named_people, strip_people  # noqa: F401 (read here as answerability.*)
from cairn.search.unasked import GENERIC_TERMS, key_terms

CONTEXT_K = 20  # hits of the search without the person's name (Cairn.ask)
REACTIONS = True  # False: for measuring
# The learned decision (module doc; `python bench/answerability_fit.py fit --write`, tests/test_answerability_fit.py
# fails when they drift): declined at THRESHOLD, the balanced classes' even odds (not tuned).
FEATURES = ("support_gap", "words_gap", "key_terms_only_other", "support_person", "match_gap")
WEIGHTS = (0.545, 1.117, 0.649, -0.279, 0.778)
BIAS = -0.041
THRESHOLD = 0.5
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
    best_p = best_o = words_p = words_o = match_p = match_o = 0.0  # best cosine, key-term share, both per side
    best_o_sent, terms_p, terms_o = None, set(), set()
    for (hid, subj, sent, speaker), c in zip(sents, vecs[1:] @ vecs[0]):
        stems = {stem(t) for t in content_terms(sent)}
        held = len(stems & keys) / len(keys)
        if subj not in (None, person):
            words_o, terms_o, match_o = max(words_o, held), terms_o | stems, max(match_o, 0.6 * float(c) + 0.4 * held)
            if float(c) > best_o:
                best_o, best_o_sent = float(c), (sent, subj)
        elif states_of(sent, speaker, person) and not (STATED and speaker == person and echoes_other(
                sent, (replies or {}).get(hid, ""), keys)):  # else about them, stating nothing: neither side
            best_p, words_p, terms_p = max(best_p, float(c)), max(words_p, held), terms_p | stems
            match_p = max(match_p, 0.6 * float(c) + 0.4 * held)
            result.stated.append(sent)
    only_other = sorted((keys & terms_o) - terms_p)
    result.scores = {"support_person": round(best_p, 4), "support_other": round(best_o, 4),
                     "key_terms_only_other": round(len(only_other) / len(keys), 4),
                     "words_person": round(words_p, 4), "words_other": round(words_o, 4),
                     "key_terms_not_about_person": round(len(keys - terms_p) / len(keys), 4),
                     "match_person": round(match_p, 4), "match_other": round(match_o, 4)}
    result.scores["unanswerable"] = round(p := unanswerable(result.scores), 4)
    if p >= THRESHOLD and best_o_sent and best_o > best_p and words_o >= words_p:
        shown = _surface(topic, {stem(t) for t in content_terms(best_o_sent[0])} - GENERIC_TERMS)[:4] or only_other
        what = f"'{' '.join(shown)}'" if shown else "this"
        result.reason = f"the evidence about {what} is from {best_o_sent[1]}, not {person}"
    elif p >= THRESHOLD:
        said = ", ".join(f"'{t}'" for t in _surface(topic, only_other) or only_other)
        result.reason = f"{said} {'is' if len(only_other) == 1 else 'are'} said of someone else, not {person}" \
            if only_other else f"the evidence about this is not about {person}"
    result.answerable = result.reason is None
    return result


def _surface(question: str, stems) -> list[str]:
    """The question's own words whose stem is in `stems`, once each, in order."""
    return list(dict.fromkeys(t for t in content_terms(question) if stem(t) in stems))


def features(scores: dict[str, float]) -> list[float]:
    """`FEATURES` of a check's `scores`: the best cosine about others less about the person, the same of the largest
    share of key terms one sentence holds, the key terms' share said only of others, the best cosine about the person,
    and the best 0.6 x cosine + 0.4 x key-term share about others less about the person."""
    return [scores["support_other"] - scores["support_person"], scores["words_other"] - scores["words_person"],
            scores["key_terms_only_other"], scores["support_person"], scores["match_other"] - scores["match_person"]]


def unanswerable(scores: dict[str, float]) -> float:
    """The learned probability, in [0, 1], that the question is not answerable of the person (`WEIGHTS`, `BIAS`)."""
    z = BIAS + sum(w * x for w, x in zip(WEIGHTS, features(scores)))
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))
