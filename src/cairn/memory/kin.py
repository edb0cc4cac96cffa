"""Family links among the people of the person's memories: who is whose brother, sister, mum,
husband... read from the memories' text, and the person a kin phrase ("Maureen's brother", "her
husband", "my sister") names.

    ls = links(["ken is maureen's brother", "Sam is my son", "Nia is my daughter"], ordinary)
    # [Link("ken", "brother", "maureen"), Link("sam", "son", "me"), Link("nia", "daughter", "me")]
    relative(ls, "maureen", "brother")   # ["ken"]     (said outright)
    relative(ls, "ken", "sister")        # ["maureen"] (the converse, her gender unknown: allowed)
    relative(ls, "nia", "brother")       # ["sam"]     (two children of one parent are siblings;
                                         #  a son is male: a brother)

A link is (a, relation, b): a is b's relation ("me" for the person). It is read from four sentence
shapes of a memory (lower or upper case): "A is B's R" / "A is my R", "B's R is A" / "my R is A",
"B's R A ..." / "my R A ..." (an apposition: "my sister priya's birthday ..."), "A, my R". A name is
one word no ordinary word (`ordinary`: the caller's set of the language's common words) and no kin
word. Relations are the closed class of family and partner words (KIN), each with its group
(parent, child, sibling, spouse, ...), its gender and its converse group.

`relative(links, person, relation)` answers from the links by the kinship rules (the relation of a
group's converse, siblings through a shared parent, a spouse's spouse); a result's gender must not
contradict the relation asked (a "sister" is no brother). Plain functions of text; no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# word: (group, gender "f" | "m" | None)
KIN: dict[str, tuple[str, str | None]] = {
    **{w: ("parent", "f") for w in ("mum", "mom", "mother", "mummy", "mam")},
    **{w: ("parent", "m") for w in ("dad", "father", "daddy")},
    "parent": ("parent", None),
    "son": ("child", "m"), "daughter": ("child", "f"), "child": ("child", None), "kid": ("child", None),
    "brother": ("sibling", "m"), "sister": ("sibling", "f"), "sibling": ("sibling", None),
    "husband": ("spouse", "m"), "wife": ("spouse", "f"), "partner": ("spouse", None),
    "boyfriend": ("spouse", "m"), "girlfriend": ("spouse", "f"),
    **{w: ("grandparent", "f") for w in ("gran", "granny", "grandma", "grandmother", "nan", "nana")},
    **{w: ("grandparent", "m") for w in ("grandad", "granddad", "grandpa", "grandfather")},
    "grandson": ("grandchild", "m"), "granddaughter": ("grandchild", "f"),
    "aunt": ("auncle", "f"), "auntie": ("auncle", "f"), "uncle": ("auncle", "m"),
    "niece": ("nibling", "f"), "nephew": ("nibling", "m"), "cousin": ("cousin", None),
}
CONVERSE = {"parent": "child", "child": "parent", "sibling": "sibling", "spouse": "spouse",
            "grandparent": "grandchild", "grandchild": "grandparent", "auncle": "nibling", "nibling": "auncle",
            "cousin": "cousin"}
ME = "me"
_KIN_RX = "|".join(sorted(KIN, key=len, reverse=True))
_NAME = r"[^\W\d_][\w'’-]*?"
_POSS = r"(?:['’]s?)"
_SHAPES = (
    # "ken is maureen's brother", "Sam is my son", "Dev is Priya's husband"
    re.compile(rf"\b(?P<a>{_NAME})\s+(?:is|was|'s)\s+(?:(?P<my>my|our)|(?P<b>{_NAME}){_POSS})\s+(?:(?:older|younger|"
               rf"big|little|eldest|youngest|twin)\s+)?(?P<r>{_KIN_RX})s?\b", re.I),
    # "maureen's brother is ken", "my sister is priya"
    re.compile(rf"(?:\b(?P<my>my|our)|\b(?P<b>{_NAME}){_POSS})\s+(?P<r>{_KIN_RX})\s+(?:is|was)\s+(?:called\s+|named\s+)?"
               rf"(?P<a>{_NAME})\b(?!{_POSS}\s)", re.I),
    # "my sister priya's birthday ...", "maureen's brother ken fixes bikes"
    re.compile(rf"(?:\b(?P<my>my|our)|\b(?P<b>{_NAME}){_POSS})\s+(?P<r>{_KIN_RX})\s+(?:called\s+|named\s+)?"
               rf"(?P<a>{_NAME}){_POSS}?(?=[\s,.;!?]|$)", re.I),
    # "Sam, my son"
    re.compile(rf"\b(?P<a>{_NAME}),\s+(?:(?P<my>my|our)|(?P<b>{_NAME}){_POSS})\s+(?P<r>{_KIN_RX})\b", re.I),
)
_NEVER_NAMES = frozenset("is was are be been the a an my our your his her their its this that who what whose it he "
                         "she they him them me you we i and or but so not no also".split())


@dataclass(frozen=True)
class Link:
    """`a` is `b`'s `relation` (names lower case; b is ME for the person)."""

    a: str
    relation: str
    b: str


def _name(word: str | None, ordinary: frozenset[str] | set[str]) -> str | None:
    """`word` as a name (lower case, a possessive taken off), or None for an ordinary or kin word."""
    if not word:
        return None
    w = re.sub(r"['’]s?$", "", word).lower()
    if len(w) < 2 or w in _NEVER_NAMES or w in KIN or w.rstrip("s") in KIN or w in ordinary:
        return None
    return w


_AFTER_NAME = re.compile(r"\s*(?:$|[,.;:!?]|['’]s?\b|(?:is|was|has|had|does|did|will|would|can|could|and|who|lives|works)\b)",
                         re.I)


def _apposed(m: re.Match, text: str) -> bool:
    """Whether the word after a kin word ("my mum X") is a name in apposition, not the verb of the
    clause ("my mum loves tulips"): capitalised, or followed by a possessive, a clause verb or a
    stop, or (lower case) followed by a verb in -s while it ends in no s itself ("ken fixes bikes")."""
    a, rest = m.group("a"), text[m.end("a"):]
    if a[:1].isupper() or _AFTER_NAME.match(rest):
        return True
    nxt = re.match(r"\s+([a-z]+)", rest)
    return bool(nxt) and nxt.group(1).endswith("s") and not a.lower().endswith("s")


def links(texts: list[str], ordinary: frozenset[str] | set[str] = frozenset()) -> list[Link]:
    """The family links the memory `texts` state (module docstring), in order, without repeats."""
    out: list[Link] = []
    for text in texts:
        for rx in _SHAPES:
            for m in rx.finditer(text or ""):
                a = _name(m.group("a"), ordinary)
                if rx is _SHAPES[2] and a and not _apposed(m, text):
                    continue
                b = ME if m.group("my") else _name(m.group("b"), ordinary)
                if a and b and a != b:
                    link = Link(a, m.group("r").lower(), b)
                    if link not in out:
                        out.append(link)
    return out


def gender_of(person: str, ls: list[Link]) -> str | None:
    """The gender the links give `person` (a kin word they are called by), or None (none, or both)."""
    said = {KIN[l.relation][1] for l in ls if l.a == person.lower()} - {None}
    return said.pop() if len(said) == 1 else None


def _rel(person: str, group: str, ls: list[Link]) -> list[str]:
    """The people who stand in `group` to `person` (any gender), by the links and their converses."""
    p = person.lower()
    found = [l.a for l in ls if l.b == p and KIN[l.relation][0] == group]
    found += [l.b for l in ls if l.a == p and CONVERSE[KIN[l.relation][0]] == group]
    if group == "sibling":  # two children of one parent
        parents = _rel(p, "parent", ls)
        for q in parents:
            found += [l.a for l in ls if l.b == q and KIN[l.relation][0] == "child"]
            found += [l.b for l in ls if l.a == q and KIN[l.relation][0] == "parent"]
    return [x for x in dict.fromkeys(found) if x != p]


def relative(ls: list[Link], person: str, relation: str) -> list[str]:
    """The people who are `person`'s `relation` (a KIN word) by the links `ls`, lower case, in the
    order found; those whose known gender contradicts the relation's left out; [] for a relation
    outside KIN. "me" stands for the person themself ("my sister": relative(ls, "me", "sister"))."""
    if relation.lower() not in KIN:
        return []
    group, gender = KIN[relation.lower()]
    return [x for x in _rel(person, group, ls) if x != ME and (gender is None or gender_of(x, ls) in (None, gender))]
