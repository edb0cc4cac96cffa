"""Questions answered from one note (a mixin of Assistant, through Understood): a question
naming a note or its topic ("what does my running plan say about Sundays?", "and when is it
due?" after the Car note), answered from that note's sentences (`_note_scoped`), unless the
person's own statement answers it better (`_own_over`); and a follow-up asking only for a
kind of value ("and the address?", "what's the ref?") read from the note just answered.
"""

from __future__ import annotations

import re

from cairn.assistant.nlu import notenames as NN
from cairn.assistant.nlu import people as PE
from cairn.assistant.nlu import records as RC
from cairn.assistant.nlu import replies as RP
from cairn.assistant.nlu import slots as SL



# A who-question the knowledge answer declined is also looked for among the notes it names as
# nearest ("who's drawing up the plans for the loft?": "Architect: …" of the Loft note), as among
# the notes of an answer. Switch off: WHO_BY_ROLE_NEAREST.
WHO_BY_ROLE_NEAREST = True
# A question whose every content word is a word of the note's title ("which unit is mine" of the Storage
# unit note; the answer asks no kind of value: types.asked) is answered by the note's line sharing the most of
# those words ("My unit is B27"), as a question with words beyond the title is by the lines sharing those
# (RP.best_sentences). Switch off: TITLE_WORDS_ASKED.
TITLE_WORDS_ASKED = True
# A bare question after a note's answer (loose="all") asking a code (RP.value_kind), which answers for one thing
# only, is answered from that note only when the answerer's own typed check passes on it (`answerer_holds`:
# answer.typed.typed_draft over the note, its value's context holding the thing asked, answer/checks.py's rule).
# "whats the door code for the back room at the lamplighter" after the Copenhagen note: no door there, so its flight
# number is no answer. Other kinds were tried: a phone "for the boiler" is the landlord's repairs line, a date "by
# 11am" no date (week-j turn 2, test_nlu lost). Switch off: ANSWERER_CHECK.
ANSWERER_CHECK = True


def nearest_notes(ans) -> list[str]:
    """The titles of the notes a declining knowledge answer `ans` names as nearest the question
    (`why["nearest"]`, ops/knowledge.py), in order; [] when it names none."""
    return list(ans.why.get("nearest") or [])


def answerer_holds(app, question: str, title: str, body: str) -> bool:
    """Whether the answerer's typed check (`answer.typed_of_note`: the typed draft over the note
    `title`/`body` as the only evidence) finds a value of the kind `question` asks stated of the thing it asks,
    as answer/checks.py requires: no head word asked missing from the value's context, and the subject
    words missing from the note at most one of three or more (a number among them never); a word
    naming the kind itself ("ref", "number": search.asked.TYPE_WORDS, answer.types.KIND_WORDS) is
    no thing asked, the caller's line holding a value of that kind already. True
    when the question asks no kind of value (search.asked.VALUE_KINDS: a sum, a phone, a code, a
    date, a time, a duration, a number), as the answerer checks only those. Nothing raises for a
    plain text."""
    from cairn.answer import typed_of_note
    from cairn.answer.types import KIND_WORDS
    from cairn.lexical import stem
    from cairn.search.asked import TYPE_WORDS, VALUE_KINDS, asked
    a = asked(question)
    if a.kind not in VALUE_KINDS:
        return True
    typed = typed_of_note(question, title, body, app.embedder)
    if typed is None:
        return False
    # the head words asked only (OWN_LINE's own: the note's own thing judged, which the conversation already chose:
    # "the ref for the missing bit" of the wardrobe)
    gap = typed.gap(a, head=[w for w in typed.missing_head if w in a.head])
    kind = TYPE_WORDS | {stem(w) for w in KIND_WORDS.get(a.kind or "", ())}  # the kind's own name: "ref" of a receipt
    return not [w for w in gap if w not in kind]


class NoteScoped:
    """`_note_scoped` and `_own_over` (mixin; `self.app` is the Cairn, `_read_note` a read
    through the tool layer)."""

    def _note_scoped(self, t, ui, turn_no, res, log, subject: str | None = None,
                     prefer: str | None = None, loose: bool | str = False, avoid: str | None = None,
                     related: str | None = None, quoted: str | None = None) -> dict | None:
        """A question that names one note ("what does my running plan say about Sundays?", "how
        do I make the soup?"), or whose pronoun stands for a note's subject ("and when is it
        due?" after a question on the Car note): answered from that note alone — its steps for
        a how-to, else its sentences sharing the question's words beyond the title, else (a
        question asking nothing beyond the title: "when is my appointment?") its first sentence
        holding the kind of answer asked for (search.asked.answer_type). A part asking for a
        kind of thing (a clock time, a sum, a date: RP.typed_sentences) is answered by a sentence
        holding one, ties going to `prefer` (the line the conversation last quoted). `loose`:
        the note is only the conversation's topic (an "and ...?" follow-up naming no note), so
        the answer must share a word with the question (RP.shares_stem); `loose="all"` (a bare
        question after the note's answer): hold all its words (RP.covers). A question asking for
        a kind of value (RP.value_kind: "and the address?", "what's the ref for the missing
        bit", "what's in the sauce?") is answered by the note's sentence holding a value of that
        kind (its list for "what's in"), the note its topic when the question names nothing
        else or a word of it is in the note (RP.on_topic_value). `avoid`: the line quoted last,
        not the one meant by a question asking its kind of another thing ("and the one back?");
        `related`: the question that one follows, its words breaking ties (RP.typed_sentences);
        `quoted`: the replies to the message's earlier parts, a line of which is no answer to this part
        when another line ties with it (RP.best_sentences). None: not such a question."""
        import re
        title, _ = NN.resolve_note(self.app, t)
        guess = not title and loose  # the note only the conversation's topic suggests ("and what day do I fly home?")
        if not title and subject:
            title, _ = NN.resolve_note(self.app, subject)
        if not title and quoted and log.get("note"):
            title = log["note"]  # "... and what's she after": the note the message's first part was answered from
        if not title:
            return None
        try:
            body = self.app.note_show(title)["body"]
        except Exception:
            return None
        how_to = re.search(r"\bhow (?:do|can|should|would) (?:i|we|you)\b|\bhow to\b|\bsteps?\b|\bmethod\b", t, re.I)
        lines = RP.steps(body) if how_to else []
        if not lines:  # each sentence of the message asks its own thing ("who does it? I need their number");
            # a part asking for a kind of thing (a clock time, a sum, a date) is answered by a sentence holding one
            found = [ln for p in RP.question_parts(t)  # a specific kind (an email) only by a sentence holding one
                     for ln in ((RP.value_kind(p) == "contents" and RP.contents(body, p, title, self.app.embedder))
                                or RP.typed_sentences(self.app.embedder, body, p, title, prefer, avoid, related)
                                or (RP.specific_kind(p) is None and (RP.best_sentences(self.app.embedder, body, p, title, quoted)
                                                                     or RP.kind_sentences(body, p, prefer))) or [])]
            order = RP.sentences(body)
            lines = sorted(dict.fromkeys(found), key=lambda ln: order.index(ln) if ln in order else len(order))
        if not lines and not (RP.terms(t) - RP.terms(title) - RP.terms(subject or "")):
            from cairn.answer.types import fits_answer_type
            from cairn.search.asked import answer_type, asked
            kind = answer_type(t)
            lines = [s for s in RP.answer_lines(body) if kind and fits_answer_type(s, kind)][:1]
            if not lines and TITLE_WORDS_ASKED and not kind and asked(t).kind is None and RP.terms(t):
                # "which unit is mine" of the Storage unit note: the line naming the unit ("My unit is B27")
                lines = RP.best_sentences(self.app.embedder, body, t, "")
        if not lines and RP.value_kind(t) == "code" and RP.asked_kind(t)(title):
            lines = [title]  # "and the ref?" of "Invoice 2026-031 …": the note is named by it
        if RP.value_kind(t):  # a kind of value asked of the note ("and the address?"): the note is the topic;
            # a code answers for one thing only, the one its line or the note's title names: "the door code for
            # Wren's sister's flat" is not the gig's order number, though the gig note says she stays at her sister's
            on_topic = RP.on_topic_value(t, "\n".join(lines) if RP.value_kind(t) == "code" else body, title)
        else:
            # the same kind asked of another thing of the note ("and the one back?"), a question naming
            # no note of its own: the note's other line of that kind, though it says "return", not "back"
            on_topic = RP.covers(t, lines, title) if loose == "all" else (
                RP.shares_stem(t, lines, title) or RP.specific_kind(t) is not None or (avoid is not None and guess))
        if lines and ANSWERER_CHECK and loose == "all" and RP.value_kind(t) == "code" and not answerer_holds(
                self.app, t, title, body):
            return None  # the note states no value of the kind asked of the thing asked (ANSWERER_CHECK)
        if not lines or ((guess or RP.value_kind(t) == "code") and not on_topic):
            # a topic the note says nothing of ("and when is the MOT due?" after the bike), or a
            # code of a thing it never names ("the dog's microchip number" of a note whose only
            # code is the pet insurance policy: a code answers for one thing only)
            return None
        self._read_note(title, t, ui, turn_no, res)  # the read, on the record
        log["note"] = log["subject"] = title
        log["question"] = t
        if not how_to:
            lines = RC.with_antecedents(body, lines)  # "He collects the subs." with the line naming him
        text = "\n".join(f"{ln} [1]" for ln in lines) if len(lines) > 1 else f"{lines[0]} [1]"
        return {"reply": f"{text}\nSources: [1] {title}", "slots": {"question": t, "note": title, "lines": len(lines)},
                "quoted": [] if how_to else lines}

    def _own_over(self, t: str, scoped: dict, log: dict) -> dict:
        """The person's own statement instead of a note's lines read for a question naming the
        note's topic, when it answers better (Cairn.own_answer: "when does the nursery shut
        over christmas?" and "the nursery is closed for xmas…" over the nursery's days); a
        how-to's steps and a question naming a note ("what does my X note say") keep the note."""
        import re
        if not scoped.get("quoted") or re.search(r"\bnotes?\b", t, re.I):
            return scoped
        own = self.app.own_answer(t, scoped["quoted"])
        if not own.found:
            return scoped
        log["note"], log["subject"] = None, SL.subject_of(t) or None
        return {"reply": own.text, "slots": {"question": t, "found": True, "chosen": own.why.get("chosen")}}

    def _no_value(self, t: str, topic: str, log: dict) -> dict | None:
        """The reply to a follow-up asking a kind of value of the last note ("and the phone
        number?", resolved to "what is the phone number?") when that note holds none: it says
        so — another note's number would answer another question. None: `topic` is no note, or
        the question names something the note's title does not (it is asked anew)."""
        import re
        title, _ = NN.resolve_note(self.app, topic)
        if not title or not RP.on_topic_value(t, "", title):
            return None  # it names something else ("and the vet's phone number?"): asked anew
        what = re.sub(r"^what is (?:the )?|\?$", "", t.strip(), flags=re.I).strip() or "such value"
        log["note"] = log["subject"] = title
        log["question"] = t
        return {"reply": f"Your note “{title}” gives no {what}, so I can't say.",
                "slots": {"question": t, "note": title, "found": False}}

    def _who_from_note(self, t: str, ans, ui, turn_no, res, log) -> dict | None:
        """A who-question ("who do I call if the boiler breaks?") the knowledge answer answered
        from a note sentence naming no one (the boiler's service date): the sentence of that
        note naming a person (RP.people) instead — the one sharing most stemmed words with the
        question, ties to the first; for "call / ring / contact / number" one holding a phone
        number first. None: no who-question, the answer names a person already, or the note
        names no one."""
        import re
        if not re.match(r"\W*(?:and\s+)?(?:who|whom)\b", t, re.I) or not ans.found:
            return None
        notes = [s for s in ans.sources if s.kind == "note" and s.title]
        if not notes or ans.why.get("chosen", [None])[0] != "note" or any(PE.people(s.quote) for s in notes):
            return None
        title = notes[0].title
        try:
            body = self.app.note_show(title)["body"]
        except Exception:
            return None
        named = [s for s in RP.answer_lines(body) if PE.people(s)]
        if re.search(r"\b(?:call|ring|phone|contact|number|text)\b", t, re.I):
            named = sorted(named, key=lambda s: not PE.PHONE.search(s))
        if not named:
            return None
        from cairn.lexical import stem
        want = {stem(w) for w in RP.terms(t)}
        line = max(named, key=lambda s: len(want & {stem(w) for w in RP.terms(s)}) - named.index(s) / 100)
        self._read_note(title, t, ui, turn_no, res)  # the read, on the record
        log["note"] = log["subject"] = title
        log["question"] = t
        return {"reply": f"{line} [1]\nSources: [1] {title}", "slots": {"question": t, "note": title, "lines": 1}}

    def _who_by_role(self, t: str, ans, ui, turn_no, res, log) -> dict | None:
        """A who-question asking who does some work ("who's drawing up the plans for the loft?")
        that the knowledge answer met with lines not naming the one doing it (the builder's line
        shares "loft"): the sentence of one of the answer's first three notes naming a person by a
        role whose work the question names (roles.role_terms: "Architect: …" for "plans"), when
        it shares more stemmed words with the question, the role's work counted, than any line
        the answer quoted does. None: no who-question, no such sentence, or the answer quotes it."""
        import re
        from cairn.answer.rota import role_terms
        from cairn.lexical import stem
        if not re.match(r"\W*(?:and\s+)?(?:who|whom)\b", t, re.I) or not (ans.found or WHO_BY_ROLE_NEAREST):
            return None
        listed = ans.why.get("notes")  # a profile answer lists its notes; a question's answer gives its scores
        listed = [n["title"] for n in listed if isinstance(n, dict) and n.get("title")] if isinstance(listed, list) else []
        titles = list(dict.fromkeys(listed + [s.title for s in ans.sources if s.kind == "note" and s.title]
                                    + ([] if ans.found else nearest_notes(ans))))[:3]
        want = {stem(w) for w in RP.terms(t)}

        def plain(s: str) -> int:
            return len(want & {stem(w) for w in RP.terms(s)})

        quoted = max((plain(s.quote) for s in ans.sources if s.quote), default=0)
        best: tuple[int, int, str, str] | None = None
        for rank, title in enumerate(titles):
            try:
                body = self.app.note_show(title)["body"]
            except Exception:
                continue
            for s in RP.answer_lines(body):
                work = role_terms(s) & want
                if not work or not PE.people(s):
                    continue
                score = plain(s) + len(work - {stem(w) for w in RP.terms(s)})
                if score > quoted and (best is None or (score, -rank) > (best[0], best[1])):
                    best = (score, -rank, s, title)
        if best is None or best[2] in ans.text:
            return None
        _, _, line, title = best
        self._read_note(title, t, ui, turn_no, res)  # the read, on the record
        log["note"] = log["subject"] = title
        log["question"] = t
        return {"reply": f"{line} [1]\nSources: [1] {title}", "slots": {"question": t, "note": title, "lines": 1}}
