"""Topic support: does the cited evidence say anything about what a question about a named
subject asks?

"What did Tom Weber say about the boiler?", over notes that mention Tom Weber but never a
boiler, used to be answered with an unrelated sentence about Tom ("Tom Weber said he would
lend us his ladder"): the name alone made the sentence score, and in an extractive answer
the quote always supports itself (issue 13). So for a question about one named subject
(a chat participant or a note's subject, answer/subject.py), the question's **key terms**
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
`SYNONYM_COS` is a round value read off general word pairs like the ones above, not tuned
on LoCoMo. The check applies when every cited passage is a note: on LoCoMo dev chats it
declined 3 more unanswerable questions for 4 answerable ones on conversations 1-3 and 2 for 3
on 4-5 (category words such as "hobbies" or "children" are rarely said in a chat; the person
check of answer/answerability.py covers chats), see bench/README.md (2026-12-02, session 2).
"""

from __future__ import annotations

import re

import numpy as np

from cairn.answer.answerability import key_terms
from cairn.answer.offtopic import FUNCTION_WORDS
from cairn.answer.support import content_terms, stem
from cairn.embed.cache import embed_cached

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


def unsupported_topic(topic: str, evidence: str, embedder) -> list[str] | None:
    """The key terms of `topic` (a question with the subject's name removed), surface forms
    in question order, when there is at least one and `evidence` (the cited passages, joined)
    supports none of them; otherwise None. Never raises for odd input."""
    keys = key_terms(topic)
    terms = [t for t in dict.fromkeys(content_terms(topic)) if stem(t) in keys and not t.isdigit() and t not in FUNCTION_WORDS]
    if not terms or not re.search(r"\w", evidence):
        return None
    if supported_terms(terms, evidence, embedder):
        return None
    return terms


def subject_absent(subject: str, passages: list[tuple[str, str]]) -> bool:
    """True when none of `passages` ((title, text) pairs of the cited notes) holds a word of
    `subject` (a name, e.g. "Tom Weber": "Tom" or "Weber" as a whole word, any case)."""
    words = [w.lower() for w in re.findall(r"\w+", subject) if len(w) >= 2]
    if not words or not passages:
        return False
    pat = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)", re.IGNORECASE)
    return not any(pat.search(title or "") or pat.search(text or "") for title, text in passages)
