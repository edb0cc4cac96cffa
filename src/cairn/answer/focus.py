"""The asked things of the asked person: is every thing the question names said of them?

A question about a chat participant ("How did the drought impact the homes in John's old area?") names things besides
the one it asks for; each such noun must be said of the person somewhere in the retrieved messages
(`answerability.check`'s sentences stating something of them). The noun naming the slot asked for need not be: the
answer instantiates it ("What *activity* did Caroline do?", "What is Jon's *attitude* towards the festival?", "what
kind of *X*", "one of the *Y*", "how many *times*", "what is it a *reminder* of?"). A judgement (a modal verb,
"likely") names things that need not be stated; names are the premise check's. Nouns: the packaged spaCy parse of the
whole question (ner.parse); "said of": topic.supported_terms (stem, prefix or word cosine). Unparsed: no decline.
"""

from __future__ import annotations

import re

from cairn.answer.topic import supported_terms
from cairn.lexical import STOPWORDS, stem
from cairn.ner import parse
from cairn.search.unasked import GENERIC_TERMS

FOCUS = True  # False: for measuring
CLASSIFIERS = frozenset({"kind", "type", "sort", "one"})  # "what kind of X", "one of the Y": X, Y name the slot


def named_things(question: str) -> list[str]:
    """The common nouns of `question` (a name is the premise check's), lower-cased, once each, less the slot's noun
    and its classifiers (module doc), stop words, GENERIC_TERMS and numbers; [] unparsed or for a judgement."""
    toks = parse(question) or ()
    if any(t.tag == "MD" or t.lemma == "likely" for t in toks):
        return []  # a judgement ("what might she enjoy"): what it names need not be stated
    skip: set[int] = set()
    wh = next((i for i, t in enumerate(toks) if t.tag in ("WDT", "WP", "WP$") or t.lemma == "how"), None)
    slot = None
    if wh is not None and toks[wh].lemma == "how":  # "how many times": the counted noun
        many = toks[wh].head
        slot = toks[many].head if toks[many].lemma in ("many", "much") and toks[toks[many].head].pos == "NOUN" else None
    elif wh is not None and (toks[wh].tag == "WDT" or toks[wh].dep == "det"):  # "which US holiday": the noun after
        end = next((j for j in range(wh + 1, len(toks)) if toks[j].pos not in ("ADJ", "NOUN", "PROPN")), len(toks))
        slot = max((j for j in range(wh + 1, end) if toks[j].pos == "NOUN"), default=None)
    elif wh is not None and toks[toks[wh].head].lemma == "be":  # "what is X's favourite style of painting"
        slot = next((i for i, t in enumerate(toks) if t.head == toks[wh].head and i != wh
                     and t.dep in ("nsubj", "attr") and (t.pos in ("NOUN", "PROPN") or t.lemma == "one")), None)
    elif wh is None:  # "is Mango his pet?": the category asked of
        slot = max((i for i, t in enumerate(toks) if t.dep in ("attr", "nsubj") and t.pos == "NOUN"
                    and toks[t.head].lemma == "be" and toks[t.head].dep == "ROOT"), default=None)
    while slot is not None and slot not in skip:
        skip.add(slot)
        if toks[slot].lemma not in CLASSIFIERS:
            break
        of = next((i for i, t in enumerate(toks) if t.head == slot and t.dep == "prep" and t.lemma == "of"), None)
        slot = next((i for i, t in enumerate(toks) if of is not None and t.head == of and t.dep == "pobj"), None)
    for i, t in enumerate(toks):
        objects = [c for c in toks if c.head == i and c is not t]
        if t.dep == "pobj" and any(c.dep == "prep" and c.lemma in ("of", "to") for c in objects):
            skip.add(i)  # a complex preposition's noun: "in terms of", "as part of", "with regard to"
        if t.dep == "prep" and not objects and toks[t.head].pos == "NOUN":
            skip.add(t.head)  # a stranded preposition: "what is it a reminder of?" asks the reminder's object
        if t.dep == "ROOT" and t.pos == "NOUN" and any(c.lemma == "do" and c.dep == "aux" for c in toks):
            skip.add(i)  # "what does her tattoo symbolize?": a root after "does" is the verb, mis-tagged
    return list(dict.fromkeys(
        t.text.lower() for i, t in enumerate(toks) if i not in skip and t.pos == "NOUN" and len(t.text) > 2
        and t.text.lower() not in STOPWORDS and stem(t.text.lower()) not in GENERIC_TERMS and not t.text.isdigit()))


def unstated(question: str, person: str, stated: list[str], embedder) -> list[str]:
    """The `named_things` of `question` (about `person`) that none of `stated` (sentences stating something of them)
    supports; [] when FOCUS is off, nothing is named or nothing is stated of them."""
    for form in dict.fromkeys([person, person.split()[0]]):  # "did she host": "did John host" tags a noun
        question = re.sub(rf"(?<!\w){re.escape(form)}(?:'s|’s)(?!\w)", "her", question, flags=re.IGNORECASE)
        question = re.sub(rf"(?<!\w){re.escape(form)}(?!\w)", "she", question, flags=re.IGNORECASE)
    things = named_things(question) if FOCUS and stated else []
    return [t for t in things if t not in supported_terms(things, " ".join(stated), embedder)] if things else []
