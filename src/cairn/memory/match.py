"""Deciding what a new statement does to the memories already stored (no silent loss).

`decide(new, candidates)` compares a new statement with the *active* memories of the same
scope and returns one `Decision` with its reason. Rules, in order (first that fires wins):

1. **same text** (after lower-casing, dropping punctuation and fillers such as "as I said",
   "honestly") -> reinforce.
2. **slot** (slots.py, the one list of attribute slots): both fill the same slot of the same
   subject — open slots with a free value ("<subject> favourite X is Y", "lives in / moved to /
   is based in Y", "works at / for Y", "works as Y" / "is a nurse", "is N years old", "my X is
   called Y", "my birthday is Y") and closed slots whose states come from word lists (diet:
   vegan / vegetarian / "don't eat meat" / eats meat again...; relationship status: single /
   married / divorced...; alcohol; smoking). Same value (or a broader state the old one
   implies: "I don't eat meat" after "I'm vegan") -> reinforce; other value -> supersede
   (B17 Ronaldo -> Messi; "I'm vegetarian" -> "I'm vegan now"), unless the new statement is
   additive ("also", "too", "as well", "another"), which adds. Subjects are "user" for
   I/my (and we, for the closed slots), "user's sister" for "my sister", else the entity
   the name resolves to (so "Ольга lives in Oslo" updates "Olga lives in Berlin" once they
   are aliases). A state word counts only as a predicate of a
   person ("I'm vegan", not "a vegan restaurant"), so a statement that merely mentions a
   topic or a person fills no slot.
3. **opposite sentiment**: both have a sentiment (love/like/favourite vs hate/can't stand/
   don't like...), with opposite signs, the same subject, at least one shared topic word
   that is not an entity name, the same object when both name one (the first content word
   after the cue: "I love coffee in the morning" vs "I hate tea in the morning" differ) and
   cosine >= `CONTRADICT_COS` -> supersede (B16). Sharing
   only an entity name never retires a memory ("a fact that merely mentions Olga does not
   retire other facts about Olga").
3b. **the same claim changed** (`frame`, `SAME_FRAME`): same subject, a shared topic word and
   the same words once negation, numbers and dating words ("now", "anymore") are taken out:
   negated in one and not the other ("I'm not allergic to peanuts" after "I'm allergic to
   peanuts", cosine 0.94), or other numbers ("I have three kids now", a new phone number) ->
   supersede, unless additive. A negation differing otherwise forbids rule 4.
4. **paraphrase**: cosine >= `PARAPHRASE_COS`, same sentiment sign, same subject, a
   shared topic word and the same numbers (`numbers`: "drawer 1" is not "drawer 83") ->
   reinforce.
5. otherwise -> add.

Thresholds were set on all-MiniLM-L6-v2 cosines measured for the case sentences
(docs/memory.md): B16 like/can't stand Thai food 0.66, B15 vegetarian/"don't eat meat"
0.48 (hence the word lists of the closed slots), unrelated facts 0.25-0.35, same-subject
different facts up to 0.71 (hence rule 4 also needs equal sentiment and shared topic words).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from cairn.lexical import MONTH_NAMES, WEEKDAY_NAMES
from cairn.memory.model import Memory
from cairn.memory.slots import WORD_RE, find_slots, restates

PARAPHRASE_COS = 0.88
# Facts extracted from a conversation are deduplicated with a looser paraphrase threshold
# before anything is stored (the person did not choose these words; a reworded restatement
# must reinforce, not add). Measured with all-MiniLM-L6-v2 (issue 35): rewordings of one fact
# 0.83-0.95 ("I promised to call Ana on Friday" / "I told Ana I would phone her on Friday"
# 0.83), different facts about one subject 0.35-0.62 ("My sister Anna lives in Madrid" /
# "... works at a bank" 0.62); rule 4's other conditions (same subject, sentiment sign and a
# shared topic word) still apply.
EXTRACTED_PARAPHRASE_COS = 0.80
# Rule 3b (probe21): the same sentence negated, or with other numbers, changes the claim;
# switch off to measure it (False: the old paraphrase rule alone).
SAME_FRAME = True
CONTRADICT_COS = 0.45
SAME_TEXT_COS = 0.6  # rule 1 only looks at memories at least this similar (speed)

_FILLERS = re.compile(r"^(?:(?:as|like) i (?:said|mentioned|told you)|again|honestly|actually|"
                      r"just so you know|fyi|remember(?: that)?|note(?: that)?|btw|by the way)[,:]?\s+", re.I)
# "too" counts only at the end of a clause ("I like jazz too"), not in "too spicy".
_ADDITIVE = re.compile(r"\b(?:also|as well|another|in addition)\b|\btoo\s*(?:[.!?,;]|$)", re.I)
_NEG = re.compile(r"\b(?:hate|hates|hated|dislike|dislikes|can'?t stand|cannot stand|can not stand|"
                  r"can'?t bear|don'?t like|do not like|doesn'?t like|does not like|no longer like|"
                  r"not a fan|loathe|loathes|detest|detests|not into|sick of|tired of|"
                  r"don'?t enjoy|do not enjoy)\b", re.I)
_POS = re.compile(r"\b(?:love|loves|loved|like|likes|enjoy|enjoys|adore|adores|favou?rite|"
                  r"prefer|prefers|fan of|into|fond of|crazy about)\b", re.I)
_SENTIMENT_WORDS = set("""love loves loved like likes enjoy enjoys adore adores favourite favorite
prefer prefers fan fond crazy hate hates hated dislike dislikes stand bear loathe loathes detest
detests sick tired into can't cant cannot can not don't dont do does doesn't no longer any more
anymore honestly really actually so very much too me for since the a an is are was were i i'm my
mine it it's of to and but with at in on about just also now still these days current currently
new old""".split())

_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself)\b", re.I)
_STOP = set("""a an the and or but so if as at by for from in into of on to with is are was were be
been am i me my we our you your he she it they his her their its this that these those there here
what when where which who why how yes no not please have has had do does did will would should
could can just very really""".split())


def normalise(text: str) -> str:
    """Lower-case words only, fillers at the start dropped ("As I said, X." -> "x")."""
    t = text.strip()
    while True:
        stripped = _FILLERS.sub("", t)
        if stripped == t:
            break
        t = stripped
    return " ".join(WORD_RE.findall(t.casefold()))


_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


def numbers(text: str) -> list[str]:
    """The numbers written in `text` with digits, in order ("drawer 1", "1.5 bar", "4417").
    Two statements with other numbers are never paraphrases (embeddings barely see the
    difference: "drawer 1" / "drawer 83" have cosine 0.94)."""
    return _NUMBER.findall(text)


def polarity(text: str) -> int:
    """Sentiment sign: -1 (hate, can't stand, don't like...), +1 (love, like, favourite...), 0."""
    if _NEG.search(text):
        return -1
    return 1 if _POS.search(text) else 0


_NUMBER_WORDS = set("""zero one two three four five six seven eight nine ten eleven twelve thirteen
fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty
ninety hundred thousand million""".split())
# A negated verb said plainly: "isn't" -> "is"; "don't" / "doesn't" / "didn't" leave the verb.
_UNNEGATED = {"isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were", "can't": "can",
              "couldn't": "could", "won't": "will", "wouldn't": "would", "haven't": "have",
              "hasn't": "has", "hadn't": "had", "shouldn't": "should", "mustn't": "must",
              "don't": "", "doesn't": "", "didn't": "", "dont": "", "doesnt": "", "didnt": "",
              "cannot": "can", "not": "", "never": "", "no longer": "", "any longer": ""}
# longest first ("no longer" before "no"), each compiled once: frame() runs for every memory compared
_NEGATIONS = [(re.compile(rf"(?<=\s){re.escape(neg)}(?=\s)"), f" {plain} " if plain else " ")
              for neg, plain in sorted(_UNNEGATED.items(), key=lambda kv: -len(kv[0]))]
# Words that date a claim without changing it ("I have three kids now").
_WHEN_WORDS = re.compile(r"\b(?:now|anymore|any more|these days|nowadays|at the moment|currently|still|"
                         r"again|actually|today)\b")


@dataclass(frozen=True)
class Frame:
    """A statement with its negation and its numbers taken out: `words` (the rest, numbers as
    "#"), `negated` (it said not / never / n't / no longer), `values` (the numbers, digits or
    words, in order)."""

    words: tuple[str, ...]
    negated: bool
    values: tuple[str, ...]


def frame(text: str) -> Frame:
    """The Frame of `text`: "I'm not allergic to peanuts" -> (i'm allergic to peanuts, negated);
    "I have three kids now" -> (i have # kids, values ("three",)). Two statements with the same
    words are the same claim: negated once and not the other, or with other values, one
    changes the other (`decide`, rule 3b)."""
    t = " " + normalise(text).replace("’", "'") + " "
    negated = False
    for rx, plain in _NEGATIONS:
        t, n = rx.subn(plain, t)
        negated = negated or n > 0
    t = _WHEN_WORDS.sub(" ", t)
    words, values = [], []
    for w in t.split():
        if w.isdigit() or w in _NUMBER_WORDS:
            words.append("#")
            values.append(w)
        else:
            words.append(w)
    return Frame(tuple(words), negated, tuple(values))


_CLAUSE = re.compile(r"\s*[,;:]\s*|\s+(?:but|because|since|so|as)\s+|\s+-\s+", re.I)


def clause_frames(text: str) -> list[Frame]:
    """The Frame of each clause of `text` when it has more than one ("I'm not allergic to
    peanuts, the test was negative" -> two), else []."""
    parts = [p for p in _CLAUSE.split(text) if p and p.strip()]
    return [frame(p) for p in parts] if len(parts) > 1 else []


_DAY_WORDS = set(MONTH_NAMES) | set(WEEKDAY_NAMES) | set("mon tue wed thu fri sat sun".split())


def _changed_claim(new: list[Frame], old: list[Frame], dated: bool = False) -> str | None:
    """How one of the `new` frames changes one of the `old` (the same words, at least three;
    negated in one only, or other values), as a reason; None when none does. Other values
    change nothing when they may be another occasion: `dated` (the old memory has an event
    time) or a day named beside them ("an appointment on 3 May" / "on 9 May")."""
    for n in new:
        for o in old:
            if n.words != o.words or len(n.words) < 3 or "#" not in n.words and n.negated == o.negated:
                continue
            if n.negated != o.negated:
                return f"the same claim {'negated' if n.negated else 'no longer negated'}"
            if n.values != o.values and not dated and not _DAY_WORDS & set(n.words):
                return f"the same claim with '{' '.join(n.values)}' for '{' '.join(o.values)}'"
    return None


_DETERMINERS = {"my", "the", "a", "an", "his", "her", "their", "our", "your", "any", "some", "to",
                "being", "doing", "it", "when", "that", "this", "these", "those", "all", "more", "much"}


def sentiment_object(text: str) -> str | None:
    """Head word of what the sentiment is about: the first content word after the first
    sentiment cue ("I hate tea in the morning" -> "tea"), stemmed; None if nothing follows."""
    m = _NEG.search(text) or _POS.search(text)
    if not m:
        return None
    for word in WORD_RE.findall(text[m.end():].casefold()):
        if word not in _DETERMINERS:
            return _stem(word)
    return None


def _stem(word: str) -> str:
    for suffix in ("ies", "es", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def topic_words(text: str, entity_names: list[str]) -> set[str]:
    """Content words that are neither stopwords, sentiment words nor entity-name words."""
    ent = {w for name in entity_names for w in WORD_RE.findall(name.casefold())}
    return {_stem(w) for w in WORD_RE.findall(text.casefold())
            if w not in _STOP and w not in _SENTIMENT_WORDS and w not in ent and len(w) > 2}


_LEADING_NAME = re.compile(r"\s*((?:the\s+)?[\w-]+)(?:'s)?\b", re.I)


def subject(text: str, entity_names: list[str], resolve: Callable[[str], str]) -> str:
    """Who the statement is about: "user" for first person or a statement that opens with a
    name `resolve` takes for the person ("user's sister is Marta" from a chat export's
    speaker "user": entities.SELF_NAMES), else the first entity's key."""
    if _FIRST_PERSON.search(text) or not entity_names:
        return "user"
    lead = _LEADING_NAME.match(text)
    if lead and resolve(lead.group(1)) == "user":
        return "user"
    return resolve(entity_names[0])


@dataclass
class Decision:
    """action: "add" | "reinforce" | "supersede"; `target` the existing memory acted on.
    For a slot rule (rule 2) `slot` is the slot that matched and `old_value`/`new_value`
    the values of target and new statement; None otherwise."""

    action: str
    target: Memory | None
    reason: str
    slot: str | None = None
    old_value: str | None = None
    new_value: str | None = None


def decide(text: str, names: list[str], cosines: list[tuple[Memory, float]],
           resolve: Callable[[str], str], paraphrase_cos: float = PARAPHRASE_COS) -> Decision:
    """Compare a new statement (`text`, entity `names` in it) with active memories and their
    cosine to it (`cosines`, any order). See the module docstring for the rules;
    `paraphrase_cos` is rule 4's threshold (EXTRACTED_PARAPHRASE_COS for extracted facts)."""
    if not cosines:
        return Decision("add", None, "no active memory in this scope yet")
    ranked = sorted(cosines, key=lambda mc: -mc[1])
    norm = normalise(text)
    for mem, cos in ranked:
        if cos < SAME_TEXT_COS:  # ranked: nothing further can be the same sentence
            break
        if normalise(mem.text) == norm:
            return Decision("reinforce", mem, f"same statement as {mem.id} (restated)")
    additive = bool(_ADDITIVE.search(text))
    new_slots = find_slots(text, names, resolve)
    for mem, cos in (ranked if new_slots else ()):
        for old in find_slots(mem.text, mem.entities, resolve):
            for new in new_slots:
                if (old.subject, old.name) != (new.subject, new.name):
                    continue
                if restates(new.name, old.value, new.value):
                    how = "same" if old.value == new.value else f"implied by '{old.value}';"
                    return Decision("reinforce", mem, f"{how} '{new.name}' = '{new.value}' as {mem.id}"
                                                      + ("" if normalise(mem.text) == norm else " (synonym word list)"))
                if additive:
                    return Decision("add", None, f"additive ('also') value for '{new.name}'; {mem.id} kept")
                return Decision("supersede", mem, f"'{new.name}' changed from '{old.value}' to "
                                                  f"'{new.value}' (replaces {mem.id})",
                                new.name, old.value, new.value)
    new_subject = subject(text, names, resolve)
    new_frame = frame(text)
    new_frames = [new_frame, *clause_frames(text)]
    new_pol = polarity(text)
    new_topic = topic_words(text, names)
    for mem, cos in ranked:
        if cos < CONTRADICT_COS:  # rules 3 and 4 both need at least this similarity
            break
        old_subject = subject(mem.text, mem.entities, resolve)
        if old_subject != new_subject:
            continue
        shared = new_topic & topic_words(mem.text, mem.entities)
        if not shared:
            continue
        old_pol = polarity(mem.text)
        heads = (sentiment_object(text), sentiment_object(mem.text))
        same_object = None in heads or heads[0] == heads[1]
        if new_pol and old_pol and new_pol != old_pol and same_object and not additive:
            return Decision("supersede", mem, f"opposite sentiment about {', '.join(sorted(shared))} "
                                              f"(cosine {cos:.2f}; replaces {mem.id})")
        old_frame = frame(mem.text)
        changed = _changed_claim(new_frames, [old_frame, *clause_frames(mem.text)], bool(mem.event_time)) \
            if SAME_FRAME and not additive else None
        if changed:
            return Decision("supersede", mem, f"{changed} (replaces {mem.id})")
        if SAME_FRAME and old_frame.negated != new_frame.negated:
            continue  # "I'm not allergic to X" is never a paraphrase of "I'm allergic to X"
        if cos >= paraphrase_cos and new_pol == old_pol and numbers(text) == numbers(mem.text):
            return Decision("reinforce", mem, f"paraphrase of {mem.id} (cosine {cos:.2f})")
    best = ranked[0]
    return Decision("add", None, f"new information (closest {best[0].id}, cosine {best[1]:.2f}, "
                                 f"neither the same nor the opposite claim)")
