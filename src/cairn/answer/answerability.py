"""Answerability: should a question about a named person be answered from this evidence?

A question that names a person ("What did Caroline realise after her charity race?") is
answerable only from evidence *about that person*. In a chat, a sentence is about its
**speaker** when it is in the first person or in neither ("I ran a charity race", "The race
was fun"); without a first-person word it is about the **addressee** (for a question naming
P: about P when someone else wrote it, about someone else when P did) when it is in the
second person ("How was your race?"), is a question ("Any fun plans?"; a tag question such as
"Sunflowers mean warmth, right?" is the speaker's own, `_TAG_QUESTION`), calls another
participant by name or a capitalised short form ("That race sounds great, Mel!"), or opens
as a reaction to what the other said ("Congrats on those deals!", "Wow, what a view":
`REACTIONS`). A sentence about P **states** something of P only when P says it or someone
else asks P about it: P's own questions, what others say to or about P (advice, cheers) and
P's comment on the other's news (`echoes_other`: "Oops, sorry 'bout the accident!" after "My
son got into an accident") count on neither side (`states_of`; `STATED`).

Notes (hits without a speaker) have no subject: they count as about anyone, so questions
over notes are unaffected. A question naming no participant of the retrieved chats, or
several ("What do Ana and Ben both like?"), is not person-checked.

Rules (each gives a stated reason; the first that fires decides), over the sentences of the
retrieved chat messages (the question's hits plus the `CONTEXT_K` hits of a search without
the person's name), scored by the cosine of their embedding with the question less the name:

1. **Misattribution.** The best sentence about someone else beats the best about P by more
   than `MARGIN`, reaches `OTHER_FLOOR`, **and the words agree**: some sentence about someone
   else holds a larger share of the question's key terms than any about P (`WORDS_AGREE`;
   a cosine lead alone declined more answerable questions than unanswerable ones on both
   LoCoMo dev halves): "the evidence about 'charity race' is from Melanie, not Caroline".
2. **Key terms said of someone else.** The key terms (content words less the name and generic
   question words: "kind", "feel", "favorite") held only by sentences about other people are
   at least `OTHER_TERMS` of them: "'grandma', 'necklace' are said of Caroline, not Melanie".
3. **Key terms never said of the person.** At least `MISSING_MIN_TERMS` key terms, none in a
   sentence about P: "'colour', 'kayak' are never said of Priya in the evidence" (a lone key
   term is often a category the person never names: "job" for "I'm a carpenter").

Thresholds were tuned on LoCoMo dev conversations 1-3 and checked on 4-5 (bench/README.md).
A lexical/embedding heuristic, not entailment: it catches a swapped subject, not every false
premise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from cairn.embed.cache import embed_cached
from cairn.lexical import MONTH_NAMES, STOPWORDS, content_terms, sentences, stem
from cairn.model import Hit

MARGIN = 0.02
WORDS_AGREE = True  # rule 1's words must agree (module doc); False: for measuring
OTHER_FLOOR = 0.4
CONTEXT_K = 20  # hits of the search without the person's name (Cairn.ask)
OTHER_TERMS = 0.34
MISSING_MIN_TERMS = 2  # rule 3 (module doc)
REACTIONS = True  # a sentence opening as a reaction is about the addressee (module doc); False: for measuring
_REACTION = re.compile(r"^[\W_]*(?:wow|whoa|woah|omg|oh|aw+|yay|congrat\w*|kudos|that'?s|that is|that was|that sounds|"
                       r"those|these|sounds|looks|must|what an?|how|so cool|nice|great|awesome|cool|amazing|"
                       r"good luck|glad|happy for|proud of|sorry|impressive|lovely|beautiful|cute|love that|"
                       r"sounds like|hope)\b", re.IGNORECASE)
STATED = True  # rules 1-3 read only sentences stating something of the person (`states_of`); False: for measuring
MAX_SENTENCES = 160
_TAG_QUESTION = re.compile(r",\s*(?:right|isn['’]?t it|wasn['’]?t it|aren['’]?t they|huh|eh|no)\W*$", re.IGNORECASE)
ADDRESSEE = "the person they were talking to"

_FIRST = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|we'd|we'll|us|our|ours"
                    r"|ourselves)\b", re.IGNORECASE)
_SECOND = re.compile(r"\b(?:you|you're|you've|you'd|you'll|your|yours|yourself|ya|ur|u)\b", re.IGNORECASE)
# Question words that say what kind of answer is wanted, not what it is about.
GENERIC_TERMS = frozenset(stem(w) for w in (
    "kind type sort feel feels felt feeling think thought like likes favorite favourite way ways "
    "thing things something recently get got make made do does did new one ones go went going "
    "use used help helped say said tell told want wanted plan plans planning reason name about "
    "happen happened he she him her his hers they them their its it "
    # time words date the question, they are not its topic
    "last next past this week weeks weekend weekends yesterday today tomorrow tonight day days month months "
    "year years morning evening night ago lately recently earlier before after between during since until "
    # hedges of inference questions ("What might her job likely be?")
    "likely might would could").split() + list(MONTH_NAMES))


@dataclass
class Answerability:
    """Verdict of `check`. answerable: False means abstain, with `reason` saying why.
    person: the named person the check applied to (None: no person check).
    about_person: ids (Hit.id) of the hits that hold at least one sentence about `person`
    (or that are notes); the answerer draws its evidence from these.
    scores: the figures behind the verdict (best support about the person / about others,
    share of key terms said only of others, largest share of key terms one sentence about
    the person / about others holds: words_person / words_other)."""

    answerable: bool = True
    reason: str | None = None
    person: str | None = None
    about_person: set[str] = field(default_factory=set)
    scores: dict[str, float] = field(default_factory=dict)


@lru_cache(maxsize=1024)
def name_pattern(name: str) -> re.Pattern[str]:
    """`name` as a whole word, with an optional possessive 's (straight or curly),
    case-insensitive; compiled once per name."""
    return re.compile(r"(?<!\w)" + re.escape(name) + r"(?:'s|’s)?(?!\w)", re.IGNORECASE)


def named_people(question: str, hits: list[Hit]) -> list[str]:
    """The chat speakers among `hits` whose name (full, or first name) occurs in `question`,
    in order of first mention. Notes contribute no names, nor does a speaker label that is a
    function word ("Me", "You" in an export of the person's own chats): the question's "me" is
    the person asking, not a participant named Me."""
    found: dict[str, int] = {}
    for speaker in {h.speaker for h in hits if h.speaker}:
        for form in dict.fromkeys([speaker, speaker.split()[0]]):
            if len(form) < 2 or form.casefold() in STOPWORDS:
                continue
            m = name_pattern(form).search(question)
            if m:
                found[speaker] = min(found.get(speaker, m.start()), m.start())
    return sorted(found, key=found.get)


def strip_people(question: str, people: list[str]) -> str:
    """`question` with the named people's names (and possessive 's) removed."""
    out = question
    for p in people:
        for form in dict.fromkeys([p, p.split()[0]]):
            out = name_pattern(form).sub(" ", out)
    return re.sub(r"\s+", " ", out).strip()


def _addresses(sentence: str, speaker: str, names: list[str]) -> bool:
    """True when `sentence` calls another participant by name (their first name or a
    capitalised short form of at least 3 letters: "Mel" for "Melanie")."""
    firsts = [n.split()[0].lower() for n in names if n != speaker and n.split()]
    for w in re.findall(r"\b[A-Z][a-z]{2,}\b", sentence):
        if any(f.startswith(w.lower()) for f in firsts):
            return True
    return False


def sentence_subject(sentence: str, speaker: str | None, person: str,
                     names: list[str] | None = None) -> str | None:
    """Who `sentence` (written by `speaker`) is about, as far as the person check goes:
    None for a note (anyone); for a sentence with no first-person word that is in the
    second person, is a question (ends with "?"), calls another of `names` (the chat's
    speakers) by name (`_addresses`) or opens as a reaction (`_REACTION`), its addressee: `person` when someone else wrote it,
    ADDRESSEE (someone other than `person`) when `person` wrote it; otherwise the speaker."""
    if speaker is None:
        return None
    if not _FIRST.search(sentence) and (
            _SECOND.search(sentence)
            or (sentence.rstrip().endswith("?") and not _TAG_QUESTION.search(sentence))
            or (names and _addresses(sentence, speaker, names))
            or (REACTIONS and _REACTION.search(sentence))):
        return person if speaker != person else ADDRESSEE
    return speaker


def states_of(sentence: str, speaker: str | None, person: str) -> bool:
    """Whether `sentence` (by `speaker`; about `person` by `sentence_subject`) states something
    of the person: a note's, one of theirs that asks nothing, or a question put to them by
    someone else (a tag question states; module doc). Always True when STATED is off."""
    asks = sentence.rstrip().endswith("?") and not _TAG_QUESTION.search(sentence)
    return speaker is None or not STATED or (speaker == person) != asks


def echoes_other(sentence: str, replied: str, keys: set[str]) -> bool:
    """True when `sentence` comments on the turn it replies to rather than stating something
    of its writer: it has neither a first- nor a second-person word, and one of the
    question's key terms `keys` (stemmed, `key_terms`) that it holds is also held by a
    first-person sentence of `replied` (the message before it, by someone else:
    store.graph.replied_to). "Oops, sorry 'bout the accident!" after "My son got into an
    accident" is about the other speaker's accident; "Pottery's a great way to relax, so it
    must have been tough taking a break" after "I'm taking a break from pottery" is about
    their break. The person check counts such a sentence on neither side (`check`)."""
    if _FIRST.search(sentence) or _SECOND.search(sentence):
        return False
    shared = {stem(t) for t in content_terms(sentence)} & keys
    if not shared:
        return False
    for s, e in sentences(replied):
        prev = replied[s:e]
        if _FIRST.search(prev) and shared & {stem(t) for t in content_terms(prev)}:
            return True
    return False


def key_terms(question: str) -> set[str]:
    """Stemmed content terms of a question, without the generic question words and numbers
    (a date in a question dates the event; it is not its topic)."""
    return {stem(t) for t in content_terms(question) if not t.isdigit()} - GENERIC_TERMS


def check(question: str, hits: list[Hit], embedder, context: list[Hit] | None = None, *,
          margin: float | None = None, other_terms: float | None = None,
          replies: dict[str, str] | None = None) -> Answerability:
    """Apply the person check (module doc) to `question` over `hits` (the evidence
    candidates) plus `context` (optional extra hits, e.g. from a search without the
    person's name, used only to find who else the topic belongs to).
    embedder: `embed(list[str]) -> (n, dim)` unit vectors. margin / other_terms default to
    MARGIN / OTHER_TERMS. replies: {hit id: the message it replies to} (`echoes_other`).
    Never raises for odd input."""
    margin = MARGIN if margin is None else margin
    other_terms = OTHER_TERMS if other_terms is None else other_terms
    pool: dict[str, Hit] = {}
    for h in list(hits) + list(context or []):
        pool.setdefault(h.id, h)
    people = named_people(question, list(pool.values()))
    result = Answerability(about_person={h.id for h in hits})
    if len(people) != 1:
        return result
    person = people[0]
    result.person = person
    topic = strip_people(question, people)
    keys = key_terms(topic)
    if not keys:
        return result  # nothing but generic or time words: no topic to attribute
    sents: list[tuple[str, str | None, str, str | None]] = []  # (hit id, subject, text, speaker)
    speakers = sorted({h.speaker for h in pool.values() if h.speaker})
    for h in pool.values():
        for s, e in sentences(h.text):
            sent = h.text[s:e]
            if re.search(r"\w", sent):
                sents.append((h.id, sentence_subject(sent, h.speaker, person, speakers), sent, h.speaker))
    sents = sents[:MAX_SENTENCES]
    if not sents:
        return result
    result.about_person = {hid for hid, subj, _, _ in sents if subj in (None, person)} & {h.id for h in hits}
    vecs = embed_cached(embedder, [topic] + [s[2][:1000] for s in sents])
    cos = vecs[1:] @ vecs[0]
    best_p, best_o, best_o_sent = 0.0, 0.0, None
    words_p = words_o = 0.0  # the largest share of key terms one sentence holds, per side
    terms_p: set[str] = set()
    terms_o: set[str] = set()
    for (hid, subj, sent, speaker), c in zip(sents, cos):
        score = float(c)
        stems = {stem(t) for t in content_terms(sent)}
        held = len(stems & keys) / len(keys)
        if subj in (None, person):
            if not states_of(sent, speaker, person) or (STATED and speaker == person and echoes_other(
                    sent, (replies or {}).get(hid, ""), keys)):
                continue  # about them, stating nothing of them: on neither side
            best_p = max(best_p, score)
            words_p = max(words_p, held)
            terms_p |= stems
        else:
            words_o = max(words_o, held)
            terms_o |= stems
            if score > best_o:
                best_o, best_o_sent = score, (sent, subj)
    only_other = sorted((keys & terms_o) - terms_p)
    share = len(only_other) / len(keys)
    result.scores = {"support_person": round(best_p, 4), "support_other": round(best_o, 4),
                     "key_terms_only_other": round(share, 4)}
    result.scores.update(words_person=round(words_p, 4), words_other=round(words_o, 4))
    if (best_o_sent is not None and best_o > best_p + margin and best_o >= OTHER_FLOOR
            and (words_o > words_p or not WORDS_AGREE)):
        sent, other = best_o_sent
        shown = _surface(topic, (), sent) or only_other
        what = f"'{' '.join(shown)}'" if shown else "this"
        return _declined(result, f"the evidence about {what} is from {other}, not {person}")
    missing = sorted(keys - terms_p)
    result.scores["key_terms_not_about_person"] = round(len(missing) / len(keys), 4)
    if share >= other_terms:
        return _declined(result, f"{_listed(topic, only_other)} said of someone else, not {person}")
    if len(keys) >= MISSING_MIN_TERMS and len(missing) == len(keys):
        return _declined(result, f"{_listed(topic, missing)} never said of {person} in the evidence")
    return result


def _declined(result: Answerability, reason: str) -> Answerability:
    result.answerable, result.reason = False, reason
    return result


def _listed(question: str, stems: list[str]) -> str:
    """"'colour', 'kayak' are" (the question's words for `stems`, with "is" or "are")."""
    return ", ".join(f"'{t}'" for t in _surface(question, stems)) + (" is" if len(stems) == 1 else " are")


def _surface(question: str, stems, in_sentence: str | None = None) -> list[str]:
    """The question's own words for the stemmed terms `stems` (readable reasons); with
    `in_sentence`, its key words that the sentence also holds (at most 4)."""
    if in_sentence is not None:
        stems = {stem(t) for t in content_terms(in_sentence)} - GENERIC_TERMS
    out = list(dict.fromkeys(t for t in content_terms(question) if stem(t) in stems))
    return out[:4] if in_sentence is not None else out or list(stems)
