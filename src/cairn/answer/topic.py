"""Topic support: do the cited passages say anything about what the question asks?

A question about one named subject ("What did Tom Weber say about the boiler?") over notes
that mention Tom but never a boiler used to be answered with an unrelated sentence about Tom:
the name alone made the sentence score, and an extractive quote always supports itself
(issue 13). So the question's **key terms** other than the name (answerability.key_terms)
must be supported by the passages the answer cites; one is enough, as questions paraphrase
("What pet does Tom have?" / "Tom has a cat"). A key term is supported by a passage word when
their crude stems are equal (lexical.stem), one is a prefix of the other (both of at least
`PREFIX` letters: "adopt" / "adoption"), or their word embeddings reach `SYNONYM_COS` ("pet"
/ "cat" 0.72, "boiler" / "heating" 0.60; "boiler" / "ladder" 0.20, "drought" / "flood" 0.51:
a round value read off general word pairs, not tuned on LoCoMo).

Notes: answer/checks.stated_gap (`unsupported_topic`, `subject_absent`). Chat answers:
`unsupported_turn`, the cited messages read with the turn each replies to. `drafted_reason`
gathers the checks on a drafted answer (this one for chats, answer/polarity.py's). (Checks
on notes that did not pay were removed in issue 33: bench/README.md sessions 14-15.)
"""

from __future__ import annotations

import re

import numpy as np

from cairn.answer.answerability import key_terms, name_pattern
from cairn.answer.offtopic import FUNCTION_WORDS
from cairn.answer.polarity import contradiction
from cairn.answer.subject import names
from cairn.lexical import content_terms, stem
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


def unsupported_topic(topic: str, evidence: str, embedder, min_terms: int = 1) -> list[str] | None:
    """The key terms of `topic` (a question with the subject's name removed), surface forms
    in question order, when there are at least `min_terms` and `evidence` (the cited passages,
    joined) supports none of them; otherwise None. Never raises for odd input."""
    terms = _topic_terms(topic)
    if len(terms) < max(min_terms, 1) or not re.search(r"\w", evidence) or supported_terms(terms, evidence, embedder):
        return None
    return terms


# A lone key term is often a category the message does not name ("What is Tom's job?"
# answered by "I'm a carpenter"): chat answers need two or more (as answerability's rule 3).
TURN_MIN_TERMS = 2


def unsupported_turn(topic: str, messages: list[str], embedder) -> list[str] | None:
    """For an answer quoted from chat messages: the key terms of `topic` (the question
    without the person's name) when there are at least TURN_MIN_TERMS and `messages` (the
    cited messages, each with the turn it replies to: "It taught me patience" answers "What
    did you learn from the book?") support none of them; otherwise None. "What did Melanie
    find during her walk?" is not answered by "I took my kids to a park yesterday". LoCoMo
    (bench/README.md, branch ans13): 2 unanswerable declined for 1 answerable on the tuning
    half, 4 for 2 on the held-out half."""
    return unsupported_topic(topic, " ".join(messages), embedder, TURN_MIN_TERMS)


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


def drafted_reason(question: str, ans, hits: list[Hit], embedder, person_checked: bool, focus: str | None,
                   replies: dict[str, str] | None, checks: bool,
                   polarity: bool) -> tuple[str | None, tuple[str, str] | None]:
    """The checks on a drafted answer `ans` (cairn.answer.Answer; its citations' chunk_id
    pick the cited passages among `hits`), as answer_question applies them: the polarity check
    (when `polarity`: answer/polarity.contradiction over the answer and the passages it cites),
    then, when `checks` (answerability on, not a hypothetical), for chat messages of a
    person-checked question (`person_checked`), `turn_reason` over `focus` (or the question).
    Returns (topic reason or None, the polarity check's (asked, found) or None). Notes are
    checked by answer/checks.py."""
    cited_ids = {c["chunk_id"] for c in ans.citations}
    flipped = None
    if polarity and not ans.abstained:
        flipped = contradiction(question, " ".join([ans.answer] + [h.text for h in hits if h.id in cited_ids]))
    cited = [h for h in hits if h.id in cited_ids]
    if flipped or not checks or ans.abstained or not cited:
        return None, flipped
    if person_checked and all(h.speaker for h in cited):
        # the messages quoted, read with the turn each replies to, must support a key term
        return turn_reason(focus or question, cited, replies or {}, embedder), None
    return None, None
