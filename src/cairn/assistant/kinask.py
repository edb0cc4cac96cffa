"""A question naming someone by a family link ("what does her brother do", "when is my sister's
birthday", "does maureen's husband drive") asked of the person the memories make that relative
(cairn.memory.kin): the kin phrase replaced by their name ("what does Ken do"), so the knowledge
answer looks for them. The possessor is "my" (the person), a she/he form (the conversation's
antecedent the caller gives) or a name said before the kin word.
"""

from __future__ import annotations

import re

from cairn.memory import kin as K

# Switch off: KIN_LINKS (a kin phrase is asked as typed).
KIN_LINKS = True
_PHRASE = re.compile(rf"\b(?P<p>my|our|her|his|[^\W\d_][\w-]*?(?=['’]s?\s))(?:['’]s?)?\s+(?P<r>{K._KIN_RX})(?P<s>['’]s)?\b",
                     re.I)
_PERSON_PRONOUN = frozenset({"her", "his"})


def kin_question(app, question: str, antecedent: str | None, ordinary) -> tuple[str, str, str, str | None] | None:
    """(the question with its kin phrase replaced by the relative's name, that name, the phrase, the
    gender the kin word gives them: "f" | "m" | None)
    when the memories of `app` (a cairn.service.Cairn) name exactly one such relative; None when
    the question holds no kin phrase, its possessor is unknown (a her/his without an
    `antecedent`), or the memories name none or several. `ordinary`: the common words no name is."""
    if not KIN_LINKS:
        return None
    for m in _PHRASE.finditer(question):
        p = m.group("p").lower()
        who = K.ME if p in ("my", "our") else (antecedent if p in _PERSON_PRONOUN else p)
        if not who or (p not in ("my", "our", "her", "his") and (p in ordinary or p in K.KIN)):
            continue
        try:
            texts = [x.text for x in app.memories()]
        except Exception:  # noqa: BLE001 - no memories readable: the question as typed
            return None
        found = K.relative(K.links(texts, ordinary), who.split()[0] if who != K.ME else who, m.group("r"))
        if len(found) != 1:
            continue
        name = _as_written(found[0], texts)
        said = name + ("'s" if m.group("s") else "")
        return question[:m.start()] + said + question[m.end():], name, m.group(0), K.KIN[m.group("r").lower()][1]
    return None


def _as_written(name: str, texts: list[str]) -> str:
    """`name` as a memory writes it capitalised ("Ken"), else with a capital first letter."""
    for t in texts:
        for w in re.findall(r"[^\W\d_][\w-]*", t):
            if w.lower() == name and w[:1].isupper():
                return w
    return name[:1].upper() + name[1:]
