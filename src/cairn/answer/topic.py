"""Topic support: do the cited notes say anything about what the question asks? Four checks,
gathered in `topic_reason`, applied by answer_question when every cited passage is a note.

"What did Tom Weber say about the boiler?", over notes that mention Tom Weber but never a
boiler, used to be answered with an unrelated sentence about Tom ("Tom Weber said he would
lend us his ladder"): the name alone made the sentence score, and in an extractive answer
the quote always supports itself (issue 13). So for a question about one named subject
(answer/subject.py, or the person check's participant), the question's **key terms**
other than the name (answerability.key_terms: content words less generic question words,
time words and numbers) must be supported by the passages the answer cites. A key term is
supported by a passage word when

- their crude stems are equal (support.stem: "boilers", "boiler"), or
- one (word or stem) is a prefix of the other, both of at least `PREFIX` letters
  ("adopted" -> "adopt", a prefix of "adoption"), or
- their word embeddings (the search's sentence embedder, one word each) reach `SYNONYM_COS`
  ("pet" and "cat" 0.72, "kids" and "children" 0.91, "boiler" and "heating" 0.60; but
  "boiler" and "ladder" 0.20, "drought" and "flood" 0.51).

The answer abstains when **none** of the key terms is supported (`unsupported_topic`):
the evidence is about the subject, not about what is asked. One supported term is enough,
because questions paraphrase ("What pet does Tom have?" is answered by "Tom has a cat").
The other half of the same rule (`subject_absent`): the cited notes must name the subject,
in their text or their title ("What does Tomasz think of the sourdough?" is not answered by a
sourdough note that never names Tomasz; a note titled "Jonas Weber" answers for Jonas
although its sentence says "He is a pastry chef").
For answers quoted from chat messages, `unsupported_turn` applies the same test to the
cited messages read with the turn each replies to, for questions of two or more key terms.
The third part looks at any question answered from notes (`other_kind`): when the question
names a thing by two words ("house insurance", "bicycle tyre": a key word directly before
another, both lower-case) and the cited notes support the second but not the first, they are
about another kind of that thing (the car's insurance, the car's winter tyres): abstain. On
LoCoMo dev chats the same test fired on 40 answered questions of conversations 1-3 (15 citing
gold, 24 not, 1 unanswerable) and 41 of 4-5 (14 / 27 / 7): chat questions pair verbs and
nouns ("start volunteering") that a message says otherwise, so it applies to notes only,
like the rest of this module (bench/README.md).
The fourth (`held_elsewhere`), also for any question answered from notes: a key term of the
question that the cited notes do not support (synonyms included) while another retrieved
note holds it as a word means the quote is about something else ("Who serviced the car?"
answered with the boiler note's "serviced on 9 October by Tomasz", while the car has a note
of its own that says nothing of a service): abstain, naming the term and that note. It runs
last, so the subject checks' more specific reasons win. On the bench vault set it declines
2 more of the 12 trick questions and none of the 20 answerable ones; LoCoMo answers quote
chat messages, which it leaves alone (bench/README.md, 2026-12-02, branch ans13c).
`SYNONYM_COS` is a round value read off general word pairs like the ones above, not tuned
on LoCoMo. Applied to chat messages too, `unsupported_topic` on LoCoMo dev
declined 3 more unanswerable questions for 4 answerable ones on conversations 1-3 and 2 for 3
on 4-5 (category words such as "hobbies" or "children" are rarely said in a chat; the person
check of answer/answerability.py covers chats), see bench/README.md (2026-12-02, session 2).
"""

from __future__ import annotations

import re

import numpy as np

from cairn.answer.answerability import key_terms, name_pattern
from cairn.answer.offtopic import ASKING_WORDS, FUNCTION_WORDS
from cairn.answer.subject import names
from cairn.answer.support import content_terms, stem
from cairn.embed.cache import embed_cached
from cairn.model import Hit

SYNONYM_COS = 0.55
PREFIX = 5
MAX_WORDS = 400  # distinct passage words embedded per question


def supported_terms(terms: list[str], evidence: str, embedder) -> set[str]:
    """The subset of `terms` (surface words) that `evidence` supports (module doc: equal
    stem, shared prefix of PREFIX letters, or word cosine >= SYNONYM_COS).
    embedder: `embed(list[str]) -> (n, dim)` unit vectors; None skips the synonym test."""
    words = list(dict.fromkeys(w for w in content_terms(evidence) if not w.isdigit() and len(w) > 1))
    stems = {stem(w) for w in words}
    out: set[str] = set()
    rest: list[str] = []
    for t in terms:
        st = stem(t)
        if st in stems or any(len(a) >= PREFIX and len(b) >= PREFIX and (a.startswith(b) or b.startswith(a))
                              for a in (st, t) for b in stems | set(words)):
            out.add(t)
        else:
            rest.append(t)
    if rest and words and embedder is not None:
        words = words[:MAX_WORDS]
        vecs = np.asarray(embed_cached(embedder, rest + words))
        sims = vecs[:len(rest)] @ vecs[len(rest):].T
        for t, row in zip(rest, sims):
            if float(row.max()) >= SYNONYM_COS:
                out.add(t)
    return out


def _topic_terms(topic: str) -> list[str]:
    """The key terms of `topic` as written (surface forms, question order, once each):
    content words whose stem is a key term, less numbers and function words."""
    keys = key_terms(topic)
    return [t for t in dict.fromkeys(content_terms(topic))
            if stem(t) in keys and not t.isdigit() and t not in FUNCTION_WORDS]


def unsupported_topic(topic: str, evidence: str, embedder) -> list[str] | None:
    """The key terms of `topic` (a question with the subject's name removed), surface forms
    in question order, when there is at least one and `evidence` (the cited passages, joined)
    supports none of them; otherwise None. Never raises for odd input."""
    return _none_supported(_topic_terms(topic), evidence, embedder)


def _none_supported(terms: list[str], evidence: str, embedder) -> list[str] | None:
    """`terms` when there is at least one and `evidence` supports none of them, else None."""
    if not terms or not re.search(r"\w", evidence):
        return None
    if supported_terms(terms, evidence, embedder):
        return None
    return terms


# A lone key term is often a category the message does not name ("What is Tom's job?"
# answered by "I'm a carpenter"): chat answers need two or more (as answerability's rule 3).
TURN_MIN_TERMS = 2


def unsupported_turn(topic: str, messages: list[str], embedder) -> list[str] | None:
    """For an answer quoted from chat messages: the key terms of `topic` (the question
    without the person's name) when there are at least TURN_MIN_TERMS and none of them is
    supported (`supported_terms`) by `messages` (the cited messages, each with the turn it
    replies to: a reply "It taught me patience" answers "What did you learn from the book?"
    without the question's words); otherwise None. The message quoted then answers some other
    question: "What did Melanie find in her neighbourhood during her walk?" answered with
    "I took my kids to a park yesterday". Measured on LoCoMo (bench/README.md, 2026-12-02,
    branch ans13): declined 2 unanswerable questions for 1 answerable one on the tuning half,
    4 for 2 on the held-out half."""
    terms = _topic_terms(topic)
    if len(terms) < TURN_MIN_TERMS:
        return None
    return _none_supported(terms, " ".join(messages), embedder)  # the terms read once


def turn_reason(topic: str, messages: list[Hit], replies: dict[str, str], embedder) -> str | None:
    """Why the quoted chat `messages` do not answer `topic` (the question without the
    person's name), or None: `unsupported_turn` over each message's text joined with the
    turn it replies to (`replies`: {hit id: that message's text}, store.graph.replied_to)."""
    missing = unsupported_turn(topic, [h.text + "\n" + replies.get(h.id, "") for h in messages], embedder)
    if not missing:
        return None
    return "the messages that would answer never mention " + ", ".join(f"'{t}'" for t in missing)


def subject_absent(subject: str, passages: list[tuple[str, str]]) -> bool:
    """True when none of `passages` ((title, text) pairs of the cited notes) holds a word of
    `subject` (a name, e.g. "Tom Weber": "Tom" or "Weber" as a whole word, any case; but not
    "Tom" in another full name such as "Tom Reyes", answer/subject.names)."""
    if not any(len(w) >= 2 for w in re.findall(r"\w+", subject)) or not passages:
        return False
    return not any(names(title or "", subject) or names(text or "", subject) for title, text in passages)


def modifier_pairs(question: str) -> list[tuple[str, str]]:
    """Adjacent pairs (modifier, head) of key words of `question`, both content words with
    nothing between them but spaces or a hyphen ("bicycle tyre", "house insurance"): a
    key word (answerability.key_terms) followed directly by another, neither of them an
    asking word (ASKING_WORDS: "How much red lentils…" pairs "red lentils", not "much red").
    Lower-cased."""
    keys = key_terms(question)
    toks = [(m.group(0), m.start(), m.end()) for m in re.finditer(r"[^\W_]+(?:['’][^\W_]+)?", question)]
    out = []
    for (a, _, ea), (b, sb, _) in zip(toks, toks[1:]):
        if question[ea:sb].strip(" -") or not (a.islower() and b.islower()) or a.isdigit() or b.isdigit():
            continue  # a name ("Kowalski Roofing") is the premise check's business
        if a in ASKING_WORDS or b in ASKING_WORDS:
            continue  # "how much red…", "vitamin should…": an asking word names no kind
        if stem(a) in keys and stem(b) in keys and a not in FUNCTION_WORDS and b not in FUNCTION_WORDS:
            out.append((a, b))
    return out


def other_kind(question: str, evidence: str, embedder) -> tuple[str, str] | None:
    """A (modifier, head) pair of `question` (`modifier_pairs`) whose head `evidence` supports
    but whose modifier it does not (`supported_terms`): the evidence is about another kind of
    the thing asked ("the car insurance" for "the house insurance", "winter tyres" of the car
    for "a bicycle tyre"). None when there is no such pair."""
    pairs = modifier_pairs(question)
    if not pairs:
        return None
    sup = supported_terms(sorted({w for p in pairs for w in p}), evidence, embedder)
    for a, b in pairs:
        if b in sup and a not in sup:
            return a, b
    return None


def held_elsewhere(topic: str, cited: list[Hit], others: list[Hit], embedder) -> tuple[str, str] | None:
    """A key term of `topic` that the `cited` notes do not support (`supported_terms`, synonyms
    included) while another retrieved note among `others` holds it as a word (equal stem or a
    shared prefix of PREFIX letters, `supported_terms` without the synonym test): the answer
    is quoted from a note about something else. `others` may hold any retrieved hits: chat
    messages and the cited notes themselves are left out. "Who serviced the car?" answered with the
    boiler note's "serviced on 9 October by Tomasz" while the car has a note of its own; "the
    code of the garage door" answered with the archive boxes' codes while "garage" is said in
    another note. Returns (term, that note's title), the first such term in question order;
    None when there is none (also when `others` is empty or every key term is supported).
    Terms in ASKING_WORDS are skipped. Notes only (topic_reason); never raises for odd input."""
    terms = [t for t in _topic_terms(topic) if t not in ASKING_WORDS]
    cited_ids = {h.id for h in cited}
    others = [h for h in others if h.speaker is None and h.id not in cited_ids]
    if not terms or not cited or not others:
        return None
    supported = supported_terms(terms, " ".join(f"{h.title} {h.text}" for h in cited), embedder)
    for t in terms:
        if t in supported:
            continue
        for h in others:
            if supported_terms([t], f"{h.title} {h.text}", None):
                return t, h.title
    return None


# A key term the cited notes lack but another retrieved note holds declines the answer
# (`held_elsewhere`). False: off (for measuring the rule).
ELSEWHERE = True


def topic_reason(question: str, subject: str | None, notes: list[Hit], embedder,
                 others: list[Hit] | None = None) -> str | None:
    """Why the cited `notes` (hits without a speaker) do not answer `question`, or None.
    subject: the name the question is about (answer/subject.py, or the person check's), or
    None. others: the retrieved hits (the notes among them that are not cited are read by
    `held_elsewhere`). In order (the more specific reason first): a modifier the notes lack
    (`other_kind`); with a subject, notes that never name it (`subject_absent`), then key
    terms none of which they support (`unsupported_topic`); a key term the notes lack that
    another note holds (`held_elsewhere`, when ELSEWHERE)."""
    topic = re.sub(r"\s+", " ", name_pattern(subject).sub(" ", question)).strip() if subject else question
    kind = other_kind(topic, " ".join(f"{h.title} {h.text}" for h in notes), embedder)
    if kind:
        return f"the notes speak of '{kind[1]}' but never of '{kind[0]} {kind[1]}'"
    if subject:
        if subject_absent(subject, [(h.title, h.text) for h in notes]):
            return f"the notes that would answer never mention {subject}"
        missing = unsupported_topic(topic, " ".join(h.text for h in notes), embedder)
        if missing:
            return f"the evidence about {subject} never mentions " + ", ".join(f"'{t}'" for t in missing)
    elsewhere = held_elsewhere(topic, notes, others or [], embedder) if ELSEWHERE else None
    if elsewhere:
        return f"the note quoted never mentions '{elsewhere[0]}' (the note '{elsewhere[1]}' does)"
    return None
