"""What the people a home's notes name by their role do: a note says "Architect: Wilhelmina
Strand", the person asks "who's drawing up the plans?". The sentence embedder scores the role
word low against such an activity ("drawing" / "architect" 0.45, below the 0.55 a word synonym
needs), so the common household roles carry a short gloss of the work they do, written for
Cairn: a who-question sharing a gloss word with a role a sentence names is about that sentence's
person (scoped.py `_who_by_role`).

    role_terms("Architect: Wilhelmina Strand (Strand Design)")  # {"plan", "draw", "design", ...}
    role_words("Electrician: Marisol Pike")                     # {"wiring", "socket", ...}
"""

from __future__ import annotations

import functools
import re

# role word(s) -> what the role does (plain words; stemmed when read)
GLOSS: dict[str, str] = {
    "architect": "plans drawings design designs drawing planning extension conversion",
    "builder|builders": "build building works extension brickwork construction",
    "plumber": "pipes pipe leak leaks tap taps toilet radiator radiators water bathroom",
    "electrician|sparky": "wiring rewire sockets socket lights lighting fuse fuseboard electrics",
    "gas engineer|heating engineer": "boiler gas heating service",
    "roofer": "roof roofing tiles gutters gutter",
    "decorator|painter": "painting paint wallpaper decorating",
    "carpenter|joiner|joinery": "wood woodwork doors shelves kitchen fitting fitted",
    "fitter|fitters": "fitting fit fitted install installing kitchen bathroom",
    "plasterer": "plaster plastering walls ceiling skim",
    "gardener|landscaper": "garden lawn hedge hedges mowing weeding patio",
    "cleaner": "cleaning clean hoovering ironing",
    "childminder|nanny|babysitter|au pair": "kids children childcare minding babysitting",
    "dog walker": "dog walks walking",
    "vet": "pet animal jabs vaccinations",
    "gp|doctor": "illness prescription health appointment",
    "dentist": "teeth tooth filling checkup",
    "optician": "eyes glasses eye test lenses",
    "accountant|bookkeeper": "tax accounts return books",
    "solicitor|lawyer|conveyancer": "will conveyancing contract legal purchase",
    "mechanic|garage": "car mot service repairs tyres",
    "surveyor": "survey valuation",
    "estate agent|letting agent": "sale selling viewing viewings letting",
    "landlord|landlady": "rent lease flat tenancy",
    "tutor|teacher|instructor|coach": "lessons teaching homework training",
    "mortgage broker|financial adviser": "mortgage pension savings",
    "hairdresser|barber": "hair haircut",
    "physio|physiotherapist": "injury exercises rehab",
    "chimney sweep": "chimney",
    "window cleaner": "windows",
    "locksmith": "locks lock keys",
    "removals|removal firm|removal company": "move moving removal",
    "caterer|caterers": "food catering buffet",
    "photographer": "photos pictures photographs",
    "florist": "flowers bouquet",
}


@functools.lru_cache(maxsize=1)
def _table() -> list[tuple[re.Pattern, frozenset[str]]]:
    return [(re.compile(r"\b(?:" + role + r")\b", re.I), frozenset(gloss.lower().split())) for role, gloss in GLOSS.items()]


def role_words(sentence: str) -> set[str]:
    """The words of the glosses (GLOSS) of the roles `sentence` names, lower-cased as written
    ("Architect: …" -> {"plan", "drawing", "design", …}); set() when it names none."""
    out: set[str] = set()
    for rx, words in _table():
        if rx.search(sentence or ""):
            out |= words
    return out


def role_terms(sentence: str) -> set[str]:
    """`role_words` stemmed (cairn.lexical.stem: "drawing" -> "draw")."""
    from cairn.lexical import stem
    return {stem(w) for w in role_words(sentence)}
