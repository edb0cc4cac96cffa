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
_NAME_ASKED = re.compile(r"\b(?:called|named|name)\b|^\W*(?:and\s+)?who(?:'s|s|\s+is|\s+was)\b", re.I)


def kin_question(app, question: str, antecedent: str | None, ordinary) -> tuple[str, str, str, str | None] | None:
    """(the question with the relative's name beside its kin phrase, "her brother" -> "Odette's
    brother Lorcan", "my sister" -> "my sister Marisol"; that name; the phrase; the gender the kin
    word gives them: "f" | "m" | None)
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
        # the relation kept, the name beside it ("her brother" -> "Odette's brother Lorcan"): a memory may say either
        owner = m.group("p") if p in ("my", "our") or p not in _PERSON_PRONOUN else f"{antecedent}'s"
        said = (name if _NAME_ASKED.search(question) else  # "what's wren's brother called": "what's Basil called"
                f"{owner}{'' if p in ('my', 'our', 'her', 'his') else chr(39) + 's'} {m.group('r')} {name}") \
            + ("'s" if m.group("s") else "")
        return question[:m.start()] + said + question[m.end():], name, m.group(0), K.KIN[m.group("r").lower()][1]
    return None


def _as_written(name: str, texts: list[str]) -> str:
    """`name` as a memory writes it capitalised ("Ken"), else with a capital first letter."""
    for t in texts:
        for w in re.findall(r"[^\W\d_][\w-]*", t):
            if w.lower() == name and w[:1].isupper():
                return w
    return name[:1].upper() + name[1:]


def kin_people(text: str, ordinary) -> list[str]:
    """The people a message names by a family link ("my sister priya's birthday ..." -> ["Priya"],
    "ken is maureen's brother" -> ["Ken", "Maureen"]), capitalised, in order: names typed in lower
    case that no capitalised-name rule finds, for the turn's mentions (a later "her" may mean them)."""
    if not KIN_LINKS:
        return []
    out: list[str] = []
    for link in K.links([text], ordinary):
        for n in (link.a, link.b):
            if n != K.ME and (name := _as_written(n, [text])) not in out:
                out.append(name)
    return out


# A she/he of a statement to remember that stands for a person of an earlier turn ("oh and her husband dev is
# vegetarian" after "my sister priya's birthday is ...") is written as that person in the memory ("priya's husband
# dev is vegetarian"): a memory is read alone later, its "her" pointing at no one. Only when the message names no
# one before the pronoun (there, the pronoun is read by whoever reads the sentence). Switch off: NAMED_IN_MEMORY.
NAMED_IN_MEMORY = True
_PRONOUN = re.compile(r"\b(?:she|he|her|his|him)\b", re.I)
_NOT_A_NOUN_AFTER = re.compile(r"\s*(?:$|[?.!,;]|(?:to|about|for|at|on|in|with|from|and|or|if|when|that|again|up|"
                               r"back|out|off|now|today|tomorrow|too|as|the|a|an|my|your|some|this|it)\b)", re.I)


# the pronoun must open the statement (after discourse words): "biscuit gets his flea tablet" names its own "his"
_OPENS = re.compile(r"^\W*(?:(?:oh|and|also|so|btw|plus|actually|ok|okay|well|right|remember|that|too)\b[\s,.!-]*)*$", re.I)


def named_in_memory(text: str, antecedent: str | None, said_before: list) -> tuple[str, str | None]:
    """(`text` with its first she/he form written as `antecedent` — "her husband" -> "Priya's
    husband", "she" / "him" -> "Priya" —, the pronoun replaced or None). Unchanged when there is
    no antecedent, no such pronoun, a word before the pronoun other than discourse words ("biscuit
    gets his flea tablet": his own), or `said_before` (the people the text names before the pronoun:
    nlu/antecedent.said_people) is not empty."""
    m = _PRONOUN.search(text) if NAMED_IN_MEMORY and antecedent else None
    if not m or said_before or not _OPENS.match(text[:m.start()]):
        return text, None
    w = m.group(0).lower()
    possessive = w == "his" or (w == "her" and not _NOT_A_NOUN_AFTER.match(text[m.end():]))
    return text[:m.start()] + antecedent + ("'s" if possessive else "") + text[m.end():], m.group(0)


def names_in(app, text: str) -> list[str]:
    """The people `text` names: capitalised (ops.knowledge_text.names), known to the home though typed
    in lower case (nlu/known.people_in), or by a family link (`kin_people`)."""
    from cairn.assistant.nlu import known as KN
    from cairn.ops.knowledge_text import names
    found = names(text)
    if KN.may_name(text):
        found += [n for n in KN.people_in(text, KN.home_people(app)) if n not in found]
    return found + [n for n in kin_people(text, KN.ordinary_words()) if n not in found]


def said_before(app, u, i: int) -> str | None:
    """The person the parts of the message `u` (an nlu Understanding) before action `i` name that
    the she/he of action `i` stands for (nlu/antecedent.pick_in_message), or None."""
    from cairn.assistant.nlu import antecedent as AN
    from cairn.assistant.nlu.state import PERSON_PRONOUN
    before = " ".join(x.text for x in u.actions[:i])
    p = PERSON_PRONOUN.search(u.actions[i].text)
    return AN.pick_in_message(p.group(0), AN.said_people(before, names_in(app, before))) if p else None
