"""What the verdict checked (issue 33): `pass` means the answer answers the question, not only that its quote is in the
note. `checks` is {"support", "type", "subject", "completeness"}, each True/False:

- support: every quoted sentence is in the note it cites (answer/verify.py);
- type: the quote holds a value of the type asked (answer/types.py: "how much" -> money; "when" -> a date, or a chat
  message's own date); kinds without a pattern always pass;
- subject: the value is stated of the asked attribute of the asked subject: a typed answer's line holds every head word,
  its note most subject words (answer/typed.py), no other note or line more (answer/elsewhere.py); "what is X for": X is
  in the quote or its note's title; other answers from notes about a named subject: the cited notes name it and support
  another key term of the question (`stated_gap`: "What did Tom say about the boiler?" is not answered by a note about
  Tom that never speaks of a boiler); "What did Edith agree to do?": the quoted note sentence names Edith and holds the
  verb (`role_gap`; a note naming her only as present does not); an answer from notes of a kind without a value pattern
  (who, how do I, yes/no, ...): a cited sentence answers by the learned scorer of answer/fit.py (`UNTYPED_FIT`), and for
  "who" a quoted line names someone besides the question's names (`WHO_NAMED`); then any answer from notes (not a how-to
  nor "what did NAME VERB" but say or think) passes the learned acceptance gate (`GATE`: answer/fit.py `accepts`);
- completeness: every part of a multi-part question was answered (answer/parts.py).

A yes/no answer (answer/yesno.py) that is not declined starts with its "Yes:" or "No:".

`verdict`: abstain when support or subject fails (declined, with pointers); "revise" when the quote is the note's but
type or completeness fails ("quoted from your notes"); else as verified.
"""

from __future__ import annotations

import re
from functools import reduce

from cairn.answer import fit, types
from cairn.answer.elsewhere import other_line, other_note
from cairn.answer.offtopic import declined_text, pointers
from cairn.answer.spans import _clean
from cairn.answer.subject import _ASK_ALL, names as holds_name, strip_name
from cairn.answer.topic import subject_absent, unsupported_topic
from cairn.answer.typed import ROLE_COS
from cairn.answer.verify import Evidence, citations, verify
from cairn.embed.cache import embed_cached
from cairn.lexical import content_terms, sentences, stem
from cairn.search.asked import TYPE_WORDS
from cairn.search.names import all_names
from cairn.search.unasked import light_verbs, unasked

# How a declined typed answer names the kind of value it found for nothing asked.
_VALUE_NOUN = {"money": "amount", "phone": "phone number", "email": "e-mail address", "code": "code or reference",
               "date": "date", "time": "time", "duration": "duration", "number": "number"}
_ROLE = re.compile(r"^\W*(?i:what|which \w+)\s+(?i:did|does|will|has|had)\s+(?!(?i:the|my|our|your|his|her|their|this|"
                   r"that|a|an|i|you|we|they|he|she|it)\b)([A-Za-z][\w'’-]+)(?:\s+[A-Z][\w'’-]+)*\s+([a-z]\w+)")
# verbs of saying and of opinion: what someone says or thinks is answered in other words
_AUXILIARY = frozenset("do does did be is was have has had get got go went say said think feel like love want know "
                       "need mean prefer".split())

def role_gap(question: str, quotes: list[str], known: str = "") -> list[str]:
    """For "What did NAME VERB ...?" (a name: capitalised in the question, or written in lower case and capitalised in
    `known`, the retrieved text), the words of (NAME, VERB) that no quoted sentence of `quotes` holds together: [] when
    one sentence holds both, or the question has another form. For an auxiliary or a verb of saying or opinion ("do",
    "say", "think": answered in other words) nothing is required. Quotes from notes only (a chat message names its
    speaker in metadata)."""
    m = _ROLE.match(question.strip())
    if not m or not quotes or not (m.group(1)[0].isupper() or re.search(rf"\b{m.group(1)[0].upper()}{m.group(1)[1:]}\b",
                                                                       known)):
        return []
    raw = m.group(2).lower()
    name, verb = m.group(1).rstrip("'’s").lower(), stem(raw)
    if raw in _AUXILIARY:  # "what did Tom think of the venue": in other words
        return []
    prefix = raw[:max(4, len(raw) - 2)]  # "rebuild" -> "rebui": "rebuilt"; "agree" -> "agre": "agreed"

    def lacks(q: str) -> list[str]:
        words = set(re.findall(r"\w+", q.lower()))
        have = {stem(t) for t in content_terms(q)} | words
        return [w for w in (name, verb) if not (w in have or any(h.startswith(w if w == name else prefix)
                                                                 for h in words))]
    return min(map(lacks, quotes), key=len)


def stated_gap(question: str, subject: str | None, cited: list, embedder, retrieved: list = ()) -> list[str]:
    """The words of `question` the `cited` notes (hits without a speaker; [] for chat messages) do not state: a name of
    the question (search/names.all_names, and `subject`, the name it is about) that no cited note names in its title or
    text (topic.subject_absent) while a `retrieved` hit does (a name no hit holds is known by an alias: the premise
    check's business), else the question's key terms other than its names when none of them is supported by the cited
    notes (topic.unsupported_topic: stem, prefix or word embedding). "Who services the Jazz?" is not answered by
    "Priya's car, a 2016 Jazz"; "What did Tom say about the boiler?" not by a note about Tom that never speaks of a
    boiler. A retrieved note that links a cited one (a [[wikilink]] to its title) counts as cited for the name. [] when
    the notes state it."""
    notes = [h for h in cited if h.speaker is None]
    if not notes or len(notes) < len(cited):
        return []
    named = list(dict.fromkeys(([subject] if subject else []) + all_names(question)))
    linking = [h for h in retrieved if h.speaker is None and h not in notes
               and any(n.title and f"[[{n.title.lower()}" in h.text.lower() for n in notes)]
    for name in named:
        if subject_absent(name, [(h.title, h.text) for h in notes + linking]) and (
                name == subject or any(holds_name(f"{h.title} {h.text}", name) for h in retrieved)):
            return [name]
    # less the names, "What do you know about…", "Tell me about…": asking words, no topic (subject._ASK_ALL)
    topic = " ".join(w for w in reduce(strip_name, named, question).split() if w.lower().strip("?.!,") not in _ASK_ALL)
    return unsupported_topic(topic, " ".join(f"{h.title} {h.text}" for h in notes), embedder) or []


# An untyped answer quoted from notes holds the thing asked ("which *platform*", what schemas are *for*) in its quote or
# its note's title (`head_gap`); else its subject check fails. Kinds it applies to (empty: off), when the question names
# the thing by a noun phrase ("which seat"; a verb: role_gap's business) or asks a purpose.
HEAD_QUOTED = frozenset({"purpose", None, "place", "org"})
_NAMED = re.compile(r"^\W*(?:which|what)(?:'s|’s|s|\s+is|\s+was|\s+are|\s+were)?\s+(?:the|my|our|your)\s|^\W*which\s+(?!of\b)\w",
                    re.IGNORECASE)

# An untyped answer quoted from notes passes only when a quoted line answers by the learned scorer of answer/fit.py
# (trained on bench/answer_pairs.py); else declined with pointers ("What did NAME VERB": role_gap instead; "tell me
# about NAME": any line about them answers). Off: such answers pass on support alone.
UNTYPED_FIT = True
# ... for "who", only when a quoted line names someone besides the question's names (fit.names_someone).
WHO_NAMED = True
# ... only when a quoted line states the asked attribute (fit.states_attribute: the optician's letterhead for "what
# prism is on my glasses" does not).
ATTR_STATED = True
ATTR_KINDS = frozenset({None, "person", "place", "org"})  # not procedures and yes/no: their lines state, not restate
UNTYPED_KINDS = frozenset({None, "person", "place", "org", "procedure", "yesno"})
# Every answer quoted from notes passes only when the acceptance gate (answer/fit.py `accepts`, fitted on the dev typed
# sets by bench/accept_gate.py) scores it at least fit.GATE_THRESHOLD; else declined with pointers ("no quoted line
# answers"); "tell me about X" asks no value: ungated. GATE_TRACE: (features, score, declined) of each answer read.
GATE = True
_OVERVIEW = re.compile(r"\s*(?:tell me|what do you know|what can you tell me)\b.*\babout\b", re.I)
GATE_TRACE = None


def quoted_lines(ans) -> list[tuple[str, str]]:
    """[(cited sentence, its note's title)] of `ans`'s text ("Swept on 4 October 2028 [1]."); else its quotes."""
    titles = {c["n"]: c.get("title") or "" for c in ans.citations}
    return [(m.group(1).strip(), titles.get(int(m.group(2)), ""))
            for m in re.finditer(r"\s*(.+?)\s*\[(\d+)\]\.?", ans.answer) if m.group(1).strip()] \
        or [(q["quote"], c.get("title") or "") for c in ans.citations for q in c.get("quotes", [])]


def head_gap(question: str, asked, quotes: list[str], titles: list[str], embedder) -> list[str]:
    """The head stems of `asked` that neither the quotes nor the titles hold (module doc, HEAD_QUOTED); [] when a quote
    is within typed.ROLE_COS of the head's words as the question writes them (the packaged sentence embedder; skipped
    when `embedder` is None)."""
    gap = types.missing(asked.head, " ".join(quotes + titles))
    if gap and quotes and embedder is not None:
        vecs = embed_cached(embedder, [" ".join(types.words_of(list(asked.head), question))] + quotes)
        if float((vecs[1:] @ vecs[0]).max()) >= ROLE_COS:
            return []
    return gap


def verdict(checks: dict[str, bool], current: str) -> str:
    """The verdict once `checks` are known (module doc)."""
    if current == "abstain" or not checks.get("support", False) or not checks.get("subject", True):
        return "abstain"
    return "revise" if not checks.get("type", True) or not checks.get("completeness", True) else current


def label(answer_verdict: str, checks: dict[str, bool] | None) -> str:
    """What the verdict means for a person: "answers your question" (pass: every check held), "quoted from your notes"
    (the quote is in the note, not checked to answer), or "your notes don't say"."""
    if answer_verdict == "abstain":
        return "your notes don't say"
    if answer_verdict == "pass" and (checks is None or all(checks.values())):
        return "answers your question"
    return "quoted from your notes"


def _quotes(ans, notes: bool = False) -> list[str]:
    """Every quote of `ans`'s citations (notes: only those of notes, not of chat messages)."""
    return [q["quote"] for c in ans.citations if not (notes and c.get("speaker")) for q in c.get("quotes", [])]


def finish(question: str, ans, all_hits: list, embedder, subject: str | None, stated: bool, asked):
    """`ans` (a cairn.answer.Answer) with its `checks` (module doc) and the verdict they give; a failed subject check
    declines with the nearest notes (`all_hits`) as pointers. subject: the name asked about; stated: False skips
    `stated_gap` (a hypothetical question); asked: the answer type (search.asked.Asked). A role question quoting
    a sentence without the person and the verb is answered from the first note sentence with both ("Priya agreed to
    draft the newsletter")."""
    Answer = type(ans)
    if ans.checks is not None or not types.TYPED:
        return ans
    if ans.typed is None and not ans.abstained and role_gap(question, _quotes(ans)):
        found = next(((h, h.text[s:e]) for h in all_hits if h.speaker is None for s, e in sentences(h.text)
                      if not role_gap(question, [h.text[s:e]])), None)
        if found:
            ev = [Evidence(n=1, text=found[0].text, offset=found[0].start, hit=found[0])]
            ver = verify(f"{_clean(found[1])} [1]", ev)
            if ver.verdict == "pass":
                ans = Answer(question, ver.answer_text(), "pass", citations(ver, ev), mode=ans.mode, llm=ans.llm,
                             fallback=ans.fallback, evidence=ans.evidence, answerability=ans.answerability)
    quotes, note_quotes, of, t = _quotes(ans), _quotes(ans, notes=True), "", ans.typed
    chat = any(c.get("speaker") for c in ans.citations)
    if t is not None:  # a name no retrieved passage holds is known by an alias (the premise check's business)
        held = " ".join(f"{h.title} {h.text}" for h in all_hits).lower()
        t.missing_subject, t.missing_head = ([w for w in gap if not (types.words_of([w], question)[0][:1].isupper()
                                                                      and w not in held)]
                                             for gap in (t.missing_subject, t.missing_head))
    known = " ".join(h.text for h in all_hits)
    gap = t.gap(asked) if t is not None else role_gap(question, note_quotes, known)
    if t is not None and asked.kind in types.VALUE_KINDS and not ans.abstained and not gap:  # answer/elsewhere.py
        path, title = next(((c.get("path"), c.get("title") or "") for c in ans.citations), ("", ""))  # t's one cite
        skip = TYPE_WORDS | light_verbs(question) | unasked(question) | {"what", "s", "when", "where", "who"}
        gap = other_note(tuple(w for w in asked.head + asked.subject if w not in skip), path, all_hits) \
            or other_line(question, asked.kind, t.text, title, t.context, path, all_hits, skip)
    if asked.kind in HEAD_QUOTED and (asked.kind == "purpose" or _NAMED.match(question)) and not ans.abstained \
            and not gap and t is None and not chat:
        gap = head_gap(question, asked, quotes, [c.get("title") or "" for c in ans.citations], embedder)
    if stated and (t is None or asked.kind not in types.VALUE_KINDS) and not ans.abstained and not gap:
        cited = {c["chunk_id"] for c in ans.citations}
        gap = stated_gap(question, subject, [h for h in all_hits if h.id in cited], embedder, all_hits)
        of = f" about {subject}" if gap and subject and gap != [subject] else ""
    # "What do you know about Tom Weber?": less its capitalised words (the names) only words asking for everything
    words = re.findall(r"[^\W\d_]+", question)
    rest = [w for i, w in enumerate(words) if not (i and w[:1].isupper())]
    asks_all = bool(rest) and len(rest) < len(words) and all(w.lower() in _ASK_ALL for w in rest)
    if UNTYPED_FIT and t is None and asked.kind in UNTYPED_KINDS and not ans.abstained and not gap and note_quotes \
            and not _ROLE.match(question.strip()) and not asks_all and not chat and embedder is not None:
        # each cited sentence of the text with its note's title ("Swept on 4 October 2028 [1]."); else the quotes
        lines = quoted_lines(ans)
        best = max(fit.answers(question, asked, line, title, embedder) for line, title in lines)
        notes = {h.id: h.text for h in all_hits}
        text = "\n".join(notes.get(c["chunk_id"], "") for c in ans.citations)
        if best < fit.THRESHOLD or (ATTR_STATED and asked.kind in ATTR_KINDS and not any(
                fit.states_attribute(question, asked, line, title, embedder, text) for line, title in lines)) \
                or (WHO_NAMED and asked.kind == "person" and not any(fit.names_someone(question, x) for x, _ in lines)):
            gap = ["?"]  # no quoted line answers it (answer/fit.py): declined with pointers
    if (GATE or GATE_TRACE is not None) and not ans.abstained and not gap and note_quotes and not chat and embedder \
            and asked.kind != "procedure" and not asks_all and not _OVERVIEW.match(question) \
            and not ((m := _ROLE.match(question.strip())) and m.group(2).lower()
                                                   not in _AUXILIARY):  # their own checks: fit.answers, role_gap
        lines = quoted_lines(ans)
        cited = {c["chunk_id"] for c in ans.citations}
        sem, rival = (max((h.signals.get("semantic", 0.0) for h in all_hits if (h.id in cited) == on), default=0.0)
                      for on in (True, False))
        note = "\n".join(h.text for h in all_hits if h.id in cited)
        feats = fit.gate_features(question, asked, lines, t is not None, sem, rival,
                                  min(c["n"] for c in ans.citations), note, embedder,
                                  [_clean(h.text[a:b]) for h in all_hits[:6] if not h.speaker
                                   for a, b in sentences(h.text)])
        p = fit.accepts(feats)
        if GATE_TRACE is not None:
            GATE_TRACE.append((feats, p, GATE and p < fit.GATE_THRESHOLD))
        gap = ["?"] if GATE and p < fit.GATE_THRESHOLD else gap
    ans.checks = {"support": not ans.abstained and bool(ans.citations),
                  "type": (t is not None) or (any(types.states_purpose(q, asked.head) for q in quotes)
                                              if asked.kind == "purpose" else types.holds(asked.kind, " ".join(quotes)))
                  or (asked.kind in ("date", "time") and any(c.get("event_time") for c in ans.citations)),
                  "subject": not gap, "completeness": True}
    new = verdict(ans.checks, ans.verdict)
    if new == "abstain" and not ans.abstained:
        words = ", ".join(f"'{w}'" for w in dict.fromkeys(types.words_of(gap, question)))
        reason = "no quoted line answers what was asked" if gap == ["?"] else \
            f"the notes quoted never mention {gap[0]}" if gap and gap[0][:1].isupper() else \
            (f"the notes give no {_VALUE_NOUN.get(asked.kind, 'value')} for {words}" if t is not None  # the value's
             else f"the notes quoted{of} say nothing of {words}") if gap else \
            "no quote holds what was asked"  # line was read, not the whole note: it may name the word elsewhere
        near = pointers(all_hits)
        return Answer(question, declined_text(reason, near), "abstain", problems=[f"abstained: {reason}"],
                      llm=ans.llm, mode=ans.mode, fallback=ans.fallback, evidence=ans.evidence,
                      answerability=ans.answerability, pointers=near, checks=ans.checks)
    if new != ans.verdict:
        ans.problems.append("quoted from your notes; not checked to answer: the quote holds no "
                            f"{asked.kind} value" if not ans.checks["type"] else "not every part answered")
    ans.verdict = new
    if t is not None and t.polar and new != "abstain":  # a yes/no answer says which (answer/yesno.py)
        ans.answer = f"{t.polar}: {ans.answer}"
    return ans
