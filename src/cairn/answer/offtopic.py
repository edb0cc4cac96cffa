"""Questions the notes could not answer at all (chit-chat), and the nearest notes of a declined one.

`chit_chat`: greetings, thanks, goodbyes, questions about the assistant, nothing to look up: no content word left
once social words (`SOCIAL`) and stopwords are removed; never "Where?" (elliptical: part of "when and where is…").
"""

from __future__ import annotations

import re
from typing import Any

from cairn.lexical import content_terms
from cairn.model import Hit
from cairn.search.parts import ASKING_WORDS

# What is left of chit-chat after stopwords (not stemmed: compared with content_terms).
SOCIAL = frozenset("""
hi hello hey hiya heya yo howdy greetings morning afternoon evening night good day thanks thank thx ty cheers appreciate
appreciated bye goodbye later see soon take care how going doing up sup whats what's fine great ok okay cool nice
awesome lol lmao haha hahaha hmm hmmm uh um oh ah wow yes yeah yep no nope sure please pls you your yourself who are can do help
joke tell me something anything funny bot assistant name called welcome sorry alright right well much lot lots very
really so again all there everyone guys folks mate buddy friend dear
""".split())
# What an apostrophe leaves of a contraction ("that's", "I'm", "don't"): no topic word.
CONTRACTION_TAILS = frozenset("s re m ve ll d t".split())
# Function words the search's stopword list lets through: never a topic.
FUNCTION_WORDS = frozenset("against about above below across along among around behind beside besides beyond despite "
                           "except inside outside onto toward towards upon within without via per anyone anything "
                           "everyone everything someone something nobody nothing".split())


def chit_chat(question: str) -> str | None:
    """The kind of chit-chat `question` is ("greeting", "thanks", "goodbye", "about the
    assistant", "nothing to look up"), or None when it has a topic word or is a bare question word (module doc)."""
    low = question.lower()
    tails = set(re.findall(r"[^\W\d_]['’]([a-z]{1,2})\b", low)) & CONTRACTION_TAILS
    terms = [t for t in content_terms(question) if (not t.isdigit() or len(t) >= 3) and t not in tails]
    if any(t not in SOCIAL for t in terms) or re.fullmatch(r"\W*(?:when|where|who|whom|whose|which|why)\W*", low):
        return None
    kinds = (("thanks", r"thanks?|thx|ty|cheers|appreciated?"), ("goodbye", r"bye|goodbye|see you|take care|later"),
             ("greeting", r"hi|hello|hey|hiya|heya|yo|howdy|greetings|good (morning|afternoon|evening|day)|how are you|"
                          r"how'?s it going|what'?s up|sup"), ("about the assistant", r"you|yourself|bot|assistant"))
    return next((kind for kind, words in kinds if re.search(rf"\b({words})\b", low)), "nothing to look up")


def telling_missing(words: list[str]) -> list[str]:
    """Of the question's words no note holds (the search's `missing_words`), those worth
    telling: not ASKING_WORDS, FUNCTION_WORDS nor a verb asking a value of its kind (types.KIND_VERBS: "charge")."""
    from cairn.answer.types import KIND_VERBS
    return [w for w in words if w.lower() not in ASKING_WORDS | FUNCTION_WORDS | set().union(*KIND_VERBS.values())]


def pointers(hits: list[Hit], limit: int = 3) -> list[dict]:
    """The nearest notes of a declined question, best first, one per note: [{"title", "path", "source_id"}]."""
    out: dict[str, dict] = {}
    for h in hits:
        out.setdefault(h.path, {"title": h.title, "path": h.path, "source_id": h.source_id})
    return list(out.values())[:limit]


def declined_text(reason: str, near: list[dict[str, Any]]) -> str:
    """The message of a declined off-topic question: the reason, then the nearest notes."""
    text = reason[:1].upper() + reason[1:] + "."
    if near:
        text += " Nearest notes: " + "; ".join(f"{p['title']} ({p['path']})" for p in near) + "."
    return text
