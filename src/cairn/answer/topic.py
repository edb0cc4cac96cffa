"""Topic support: do the cited passages say anything about what the question asks?

An extractive quote supports itself, so a question's key terms other than the name (search/unasked.key_terms) must be
supported by the cited passages ("What did Tom Weber say about the boiler?" over notes naming Tom, no boiler: issue
13); one is enough (questions paraphrase). A term is supported by a passage word with the same stem, a shared prefix
of `PREFIX` letters ("adopt" / "adoption"), or a word cosine >= `SYNONYM_COS` ("pet" / "cat" 0.72, "drought" /
"flood" 0.51; a round value, not tuned). Notes: checks.stated_gap; chats: `drafted_reason`.
"""

from __future__ import annotations

import re

import numpy as np

from cairn.answer.offtopic import FUNCTION_WORDS
from cairn.answer.polarity import contradiction
from cairn.answer.subject import names
from cairn.lexical import CLITICS, content_terms, stem
from cairn.embed.cache import embed_cached
from cairn.model import Hit
from cairn.search.unasked import key_terms

SYNONYM_COS = 0.55
PREFIX = 5
MAX_WORDS = 400  # distinct passage words embedded per question
# A lone key term is often a category a chat message does not name ("What is Tom's job?" /
# "I'm a carpenter"): chat answers need two or more (as answerability's rule 3).
TURN_MIN_TERMS = 2


def supported_terms(terms: list[str], evidence: str, embedder) -> set[str]:
    """The subset of `terms` (surface words) that `evidence` supports (module doc).
    embedder: `embed(list[str]) -> (n, dim)` unit vectors; None skips the synonym test."""
    words = list(dict.fromkeys(w for w in content_terms(evidence) if not w.isdigit() and len(w) > 1))
    stems = {stem(w) for w in words}
    forms = [b for b in stems | set(words) if len(b) >= PREFIX]
    out = {t for t in terms if stem(t) in stems
           or any(len(a) >= PREFIX and (a.startswith(b) or b.startswith(a)) for a in (stem(t), t) for b in forms)}
    rest = [t for t in terms if t not in out]
    if rest and words and embedder is not None:
        vecs = np.asarray(embed_cached(embedder, rest + words[:MAX_WORDS]))
        out |= {t for t, row in zip(rest, vecs[:len(rest)] @ vecs[len(rest):].T) if float(row.max()) >= SYNONYM_COS}
    return out


def unsupported_topic(topic: str, evidence: str, embedder, min_terms: int = 1) -> list[str] | None:
    """The key terms of `topic` (a question less the name; as written, no numbers nor function
    words) when at least `min_terms` and `evidence` supports none; else None. Never raises."""
    keys = key_terms(topic)
    terms = [t for t in dict.fromkeys(content_terms(topic)) if stem(t) in keys and not t.isdigit()
             and t not in FUNCTION_WORDS | CLITICS]
    if len(terms) < max(min_terms, 1) or not re.search(r"\w", evidence) or supported_terms(terms, evidence, embedder):
        return None
    return terms


def subject_absent(subject: str, passages: list[tuple[str, str]]) -> bool:
    """True when none of `passages` ((title, text) of the cited notes) names `subject`
    (answer/subject.names: "Tom" in "Tom Reyes" does not name Tom Weber)."""
    return bool(passages) and any(len(w) >= 2 for w in re.findall(r"\w+", subject)) and not any(
        names(title or "", subject) or names(text or "", subject) for title, text in passages)


def drafted_reason(question: str, ans, hits: list[Hit], embedder, person_checked: bool, focus: str | None,
                   replies: dict[str, str] | None, checks: bool,
                   polarity: bool) -> tuple[str | None, tuple[str, str] | None]:
    """(the topic's reason or None, polarity's (asked, found) or None) of a drafted answer `ans` citing some of `hits`:
    with `polarity`, polarity.contradiction over the answer and cited passages; with `checks`, for a person-checked
    answer from chat messages only, `unsupported_topic` over `focus` (or the question) and the messages, each with the
    turn it replies to, for TURN_MIN_TERMS key terms or more ("What did Melanie find during her walk?")."""
    cited = [h for h in hits if h.id in {c["chunk_id"] for c in ans.citations}]
    flipped = contradiction(question, " ".join([ans.answer] + [h.text for h in cited])) \
        if polarity and not ans.abstained else None
    if flipped or not checks or ans.abstained or not cited or not person_checked or not all(h.speaker for h in cited):
        return None, flipped
    turns = " ".join(f"{h.text}\n{(replies or {}).get(h.id, '')}" for h in cited)
    missing = unsupported_topic(focus or question, turns, embedder, TURN_MIN_TERMS)
    return ("the messages that would answer never mention " + ", ".join(f"'{t}'" for t in missing)
            if missing else None), None
