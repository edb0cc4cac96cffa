"""Names as keys: the folding that makes "Ben", "Ben's" and "ben" one entity, and the common
words that are never a name on their own. Pure text functions, shared by the memory's entity
table (cairn.memory.entities), the entity graph (cairn.graph) and search's entity signal,
which must not load the memory layer (tests/test_cold_start.py)."""

from __future__ import annotations

import re

COMMON = set("""i i'm i've i'd i'll me my mine we our you your he she it they his her their its this
that these those there here the a an and but or so if as at by for from in into of on to with
what when where which who why how yes no not please thanks thank hi hello hey ok okay also
honestly actually anyway well oh remind remember note next last this today tomorrow yesterday
tonight every each some any all monday tuesday wednesday thursday friday saturday sunday
january february march april may june july august september october november december
just still maybe perhaps sure great good love like hate can can't cannot don't do does did
is are was were be been have has had will would should could might must let lets let's we're
they're you're it's that's there's after before since until while during then now soon
currently recently usually always never sometimes often my current new old our""".split())


_ARTICLES = {"the", "a", "an"}
_PUNCT = re.compile(r"[^\w\s]+")


def _fold_word(word: str) -> str:
    """One word of an alias key: plural "s" dropped ("offsites" -> "offsite"; words of 3
    letters or fewer and "-ss" words kept)."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def normalise(name: str) -> str:
    """Alias key: casefolded (any script), possessives dropped ("Ben's" -> "ben"),
    punctuation turned into spaces, a leading article dropped ("The Lisbon offsite" ->
    "lisbon offsite"), each word's plural "s" folded, inner whitespace collapsed. A name
    made only of an article or punctuation keeps its casefolded form."""
    low = name.casefold().replace("\u2019", "'")
    low = re.sub(r"'s\b", "", low)
    words = [_fold_word(w) for w in _PUNCT.sub(" ", low).split()]
    if len(words) > 1 and words[0] in _ARTICLES:
        words = words[1:]
    return " ".join(words) or " ".join(name.casefold().split())


def alias_keys(name: str) -> list[str]:
    """The keys a name may be stored under: the folded key (`normalise`) and the key of
    versions before folding (casefolded, whitespace collapsed), so older rows still resolve."""
    return list(dict.fromkeys([normalise(name), " ".join(name.casefold().split())]))


def entity_id(name: str) -> str:
    """Stable id of a new entity named `name`: "e" + 12 hex digits."""
    import hashlib  # here: importing it loads OpenSSL (~3-7 ms of a cold start that never hashes)
    return "e" + hashlib.sha1(normalise(name).encode("utf-8")).hexdigest()[:12]


_COMMON = COMMON  # the name before this module held it
