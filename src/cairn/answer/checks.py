"""What the verdict checked (issue 33): `pass` means the answer answers the question, not
only that its quote is in the note.

`checks` is {"support", "type", "subject", "completeness"}, each True/False:

- support: every quoted sentence is in the note it cites (the verifier, answer/verify.py);
- type: the quote holds a value of the type asked (answer/types.py: "how much" -> an
  amount of money; "when" -> a date, or a chat message's own date); kinds without a
  pattern (person, place, yes/no, ...) always pass;
- subject: the value is stated of the asked attribute of the asked subject: for a typed
  answer, its line's context holds every head word and the note most of the subject words
  (answer/typed.py); for "What did Edith agree to do?" over notes, the quoted sentence names
  Edith and holds the verb asked (`role_gap`): a note naming her only as present does not
  answer;
- completeness: every part of a multi-part question was answered (answer/parts.py).

`verdict(checks, verdict)`: abstain when support or subject fails (declined, with pointers);
"revise" when the quote is the note's but type or completeness fails ("quoted from your
notes"); the verifier's verdict otherwise.
"""

from __future__ import annotations

import re

from cairn.answer.support import content_terms, stem

_ROLE = re.compile(r"^\W*(?i:what|which \w+)\s+(?i:did|does|will|has|had)\s+([A-Z][\w'’-]+)(?:\s+[A-Z][\w'’-]+)*"
                   r"\s+([a-z]\w+)")
# verbs of saying and of opinion: what someone says or thinks is answered in other words
_AUXILIARY = frozenset("do does did be is was have has had get got go went say said think feel like love want know "
                       "need mean prefer".split())


def role_gap(question: str, quotes: list[str]) -> list[str]:
    """For "What did NAME VERB ...?" (a capitalised name, then a verb), the words of
    (NAME, VERB) that no quoted sentence of `quotes` holds together: [] when one sentence
    holds both, or the question has another form, or the verb is an auxiliary ("do", "say":
    "What did Tom say?" may be answered by what Tom wrote). Quotes from notes only (a chat
    message names its speaker in metadata)."""
    m = _ROLE.match(question.strip())
    if not m or not quotes or m.group(2).lower() in _AUXILIARY:
        return []
    raw = m.group(2).lower()
    name, verb = m.group(1).rstrip("'’s").lower(), stem(raw)
    prefix = raw[:max(4, len(raw) - 2)]  # "rebuild" -> "rebui": "rebuilt"; "agree" -> "agre": "agreed"
    best: list[str] = [name, verb]
    for q in quotes:
        words = set(re.findall(r"\w+", q.lower()))
        have = {stem(t) for t in content_terms(q)} | words
        gap = [w for w in (name, verb) if not (w in have or any(h.startswith(w if w == name else prefix)
                                                                for h in words))]
        if len(gap) < len(best):
            best = gap
    return best


def role_sentence(question: str, hits: list) -> tuple[object, str] | None:
    """(hit, sentence) of the first note among `hits` with a sentence that closes `role_gap`
    (names the person and holds the verb asked: "Priya agreed to draft the newsletter"), or None."""
    from cairn.answer.support import sentences
    if not _ROLE.match(question.strip()):
        return None
    for h in hits:
        if h.speaker is None:
            for s, e in sentences(h.text):
                if not role_gap(question, [h.text[s:e]]):
                    return h, h.text[s:e]
    return None


def verdict(checks: dict[str, bool], current: str) -> str:
    """The verdict once `checks` are known (module doc)."""
    if current == "abstain" or not checks.get("support", False) or not checks.get("subject", True):
        return "abstain"
    if not checks.get("type", True) or not checks.get("completeness", True):
        return "revise"
    return current


def label(answer_verdict: str, checks: dict[str, bool] | None) -> str:
    """What the verdict means for a person: "answers your question" (pass: every check held),
    "quoted from your notes" (the quote is in the note, not checked to answer), or "your notes
    don't say"."""
    if answer_verdict == "abstain":
        return "your notes don't say"
    if answer_verdict == "pass" and (checks is None or all(checks.values())):
        return "answers your question"
    return "quoted from your notes"
