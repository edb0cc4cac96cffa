"""One knowledge answer, the operation `Cairn.answer_about` (issue 32): a question about a
person, a thing or a date consults memories, notes, entities, reminders and earlier
conversations together and answers from the best evidence, saying where it came from
("You told me on 6 December: …" for a memory, "[1] Boiler" for a note). A mixin: `self` is
the Cairn. Every door calls it (the assistant through cairn.assistant.knowledge).

Two forms of question (knowledge_text.profile_subject):

- a profile ("who is Jo Price?", "what do you know about my sister?", "what did I note about
  the boiler?"): everything about the subject is gathered: memories recalled for it, the
  names those memories hold (my sister -> Ana), the entity with its related entities, the
  lines of the notes that speak of the subject or those names (a note titled by the subject:
  its first lines), reminders and earlier conversations that mention it;
- a question ("when is Ana's birthday?"): the best memory (recall) and the notes' answer
  (`ask`, verified and cited) compete on one scale, score = relevance x focus:
  relevance = max(cosine(question, text), 0.9 x term overlap) (the answer layer's own
  relevance, answer/__init__.relevance) and focus = how much the text is about the names the
  question asks about (knowledge_text.focus). A memory must reach MEMORY_FLOOR and, for a
  "when"/"how much" question, hold a time or a quantity (answer.types.fits_answer_type).
  The person's own statement outranks a note: the memory wins unless the note's score is
  higher by more than OWN_MARGIN; the loser is also said when it is within RUNNER_UP of the
  winner and no less focused. Reminders whose text covers REMINDER_OVERLAP of the
  question's terms are added; earlier conversations only when nothing else answered.

Nothing is written except what the operations consulted write themselves (recall reinforces
what it returns; ask saves a trace).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any



class _Text:
    """cairn.ops.knowledge_text, imported on first use (the service imports this module at
    start; the wording rules are needed only when a question is answered)."""

    def __getattr__(self, name: str):
        from cairn.ops import knowledge_text
        return getattr(knowledge_text, name)


T = _Text()

MEMORY_FLOOR = 0.45       # a memory's relevance below this does not answer a question
PROFILE_FLOOR = 0.3       # ... nor speaks of a profile's subject (recall's own min_relevance)
OWN_MARGIN = 0.05         # a note must beat the person's own statement by more than this
RUNNER_UP = 0.8           # the other kind is also said when its score is this share of the winner's
REMINDER_OVERLAP = 0.5    # share of the question's terms a reminder's text must hold
SESSION_OVERLAP = 0.6     # ... and an earlier turn of conversation
MAX_NOTES = 3             # notes quoted in a profile
MAX_MEMORIES = 4          # memories said in a profile
# an earlier turn that asked something (a question, or a request to the assistant) is no
# evidence of an answer: only what the person stated counts
_STATED = {"remember", "none", "feelings", "smalltalk"}  # intents of a turn that states, asks nothing
# ... as did a request to the assistant ("remind me …", "show …"; a question: T.is_question)
_ASKED = re.compile(r"^" + T.OPENING + r"(?:should|please|remind|remember|create|make|add|delete|rename|summari[sz]e|"
                    r"forget|set|start|show|tell|list|cancel|snooze)\b", re.I)


@dataclass
class KnowledgeSource:
    """One piece of evidence: kind (memory | note | entity | reminder | session), id (memory
    id, note id, entity id, reminder id or "SESSION#SEQ"), title (note title, entity name,
    reminder text, or "" for a memory), quote (the text relied on), when (ISO time it was
    said / is due, or None), n (the citation number of a note, else None)."""

    kind: str
    id: str
    title: str
    quote: str
    when: str | None = None
    n: int | None = None
    yours: bool = True  # a memory the person said (`said_by_you`); not part of to_json

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("yours")
        return out


# The sources of a memory the person said themselves: `cairn remember` and every door's remember
# ("user"), a reflection on their own turns, a turn of their session with the assistant
# ("s-YYYYMMDD-HHMMSS-xxxxxx#SEQ", assistant.sessions.new_id). Any other source is a message of
# an imported chat, where someone else may have said it.
_YOURS = re.compile(r"^(?:user|reflection|s-\d{8}-\d{6}-[0-9a-f]+#\d+)$")


def said_by_you(source: str | None) -> bool:
    """True when a memory of this `source` is something the person said (see _YOURS)."""
    return bool(_YOURS.match(source or "user"))


# A quoted chat line speaking in the first person names nobody by itself (KnowledgeOps._attributed).
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I'll|I've|I'd|me|my|mine|we|we're|we'll|us|our)\b", re.I)


@dataclass
class KnowledgeAnswer:
    """The reply `text` (saying where each part came from), `found` (False: nothing
    answered; the text says so), `sources` (what the text rests on, best first) and `why`
    (what was consulted, with scores: {"mode", "subject", "query", "memories", "notes",
    "entities", "reminders", "sessions", "chosen"})."""

    text: str
    found: bool
    sources: list[KnowledgeSource] = field(default_factory=list)
    why: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "found": self.found, "sources": [s.to_json() for s in self.sources],
                "why": self.why}


class KnowledgeOps:
    """`answer_about`: memories, notes, entities, reminders and sessions as one answer."""

    def answer_about(self, question: str, *, subject: str | None = None, now: datetime | None = None,
                     llm: str | None = "none") -> KnowledgeAnswer:
        """Answer `question` from everything Cairn holds about it (module docstring).
        subject: what the question is about when the caller resolved it (a follow-up's "it");
        now: the time to answer at (default now, UTC); llm: the notes' answer path ("none":
        extractive, None: the configured model). Raises InvalidInput for an empty question or
        one over validate.MAX_QUESTION_CHARS (validate.check_question, every door's rule)."""
        from cairn.validate import check_question
        question = check_question(question or "").strip()
        now = now or datetime.now(timezone.utc)
        about = T.profile_subject(question)
        if about is not None:
            return self._profile(question, subject or about, now)
        return self._question(T.with_subject(question, subject), subject, now, llm)

    # -- pieces of evidence -----------------------------------------------------------------
    def _relevance(self, question: str, texts: list[str]) -> list[float]:
        """answer/__init__.relevance on plain texts: max(cosine, 0.9 x term overlap)."""
        if not texts:
            return []
        import numpy as np
        vecs = np.asarray(self.embedder.embed([question, *texts]), dtype=float)
        norms = np.linalg.norm(vecs, axis=1)
        norms[norms == 0] = 1.0
        vecs = vecs / norms[:, None]
        cos = vecs[1:] @ vecs[0]
        return [max(float(c), 0.9 * T.overlap(question, t)) for c, t in zip(cos, texts)]

    def _known_memories(self, query: str, now: datetime, k: int = 6) -> list[tuple[Any, float]]:
        """(recalled memory, raw relevance) for `query`: relevance = share x semantic +
        (1 - share) x keyword (memory/recall.py, before its weight), at least PROFILE_FLOOR for
        a memory anchored to the query (a name, a slot, or the same "my <relation>", T.kin)."""
        share = self.settings.memory.semantic_share
        out = []
        asked_kin = T.kin(query)
        for h in self.recall(query, k=k, at=now):
            rel = share * h.signals.get("semantic", 0.0) + (1 - share) * h.signals.get("keyword", 0.0)
            # the same person of the person's own circle ("my sister" in both): anchored like a name
            anchored = h.signals.get("anchor", 0.0) > 0 or h.signals.get("slot", 0.0) > 0 or bool(
                asked_kin & T.kin(h.memory.text))
            out.append((h, max(rel, PROFILE_FLOOR) if anchored else rel))
        return out

    def _memory_source(self, hit) -> KnowledgeSource:
        m = hit.memory
        return KnowledgeSource("memory", m.id, "", m.text, m.valid_from or m.created or None,
                               yours=said_by_you(m.source))

    def _reminders_about(self, query: str) -> list[KnowledgeSource]:
        """Open reminders whose text covers REMINDER_OVERLAP of the query's terms."""
        from cairn.schedule.scheduler import reminder_json
        try:
            with self.scheduler() as sch:
                rows = [reminder_json(r) for r in sch.list(("scheduled", "delivered", "failed"), kind="reminder")]
        except (sqlite3.Error, OSError, ValueError):
            return []
        return [KnowledgeSource("reminder", r["id"], r["text"], f"{r['text']} ({r['schedule']}; next {r['next_due']})",
                                r["next_due"])
                for r in rows if T.overlap(query, r["text"]) >= REMINDER_OVERLAP]

    def _sessions_about(self, query: str) -> list[KnowledgeSource]:
        """What the person said in earlier conversations that covers SESSION_OVERLAP of the
        query's terms (the question itself, just logged, excluded, whatever its apostrophes
        and punctuation: T.same_words; so is every turn that asked or requested something:
        understood as an intent outside _STATED, or by its form, _ASKED and T.is_question;
        only statements are evidence)."""
        from cairn.assistant.sessions import SessionStore
        try:
            rows = SessionStore(self.settings.home, viewer=self.settings.owner).search(query, k=8)
        except (OSError, ValueError):
            return []
        return [KnowledgeSource("session", f"{r['session']}#{r['seq']}", f"conversation {r['session']}", r["text"],
                                r.get("at") or None)
                for r in rows if r["role"] == "user" and not T.same_words(r["text"], query)
                and set(r.get("intents") or []) <= _STATED
                and not _ASKED.search(r["text"].strip()) and not T.is_question(r["text"])
                and T.overlap(query, r["text"]) >= SESSION_OVERLAP][:2]

    def _entity(self, name: str) -> dict | None:
        from cairn.errors import CairnError
        try:
            return self.entity_show(name).to_json()
        except (CairnError, ValueError, sqlite3.Error):
            return None

    # -- a question -------------------------------------------------------------------------
    def _question(self, question: str, subject: str | None, now: datetime, llm: str | None) -> KnowledgeAnswer:
        """A question, or each question of a compound one ("when is X and what do I need to
        bring?": knowledge_text.split_question; a later part's pronoun stands for the first
        name of an earlier one), answered and merged: note citations renumbered over the
        whole reply, the citation list at its end."""
        pieces = T.split_question(question)
        answers: list[KnowledgeAnswer] = []
        names: list[str] = []
        for i, piece in enumerate(pieces):
            if names and subject is None and T.has_pronoun(piece):
                piece = T.with_subject(piece, names[0])
            names += T.names(piece)
            ans = self._one(piece, subject, now, llm)
            topic = T.topic(pieces[0]) if i else None
            if not ans.found and topic and subject is None:  # "... and what do I need to bring?": the first part's topic
                ans = self._one(T.with_subject(piece, topic), subject, now, llm)
            answers.append(ans)
        if len(answers) == 1 and not answers[0].found:
            return answers[0]
        if not any(a.found for a in answers):
            return KnowledgeAnswer(answers[0].text, False, [], {"mode": "question", "query": question,
                                                                 "parts": [a.why for a in answers], "chosen": []})
        numbering: dict[str, int] = {}
        titles: dict[int, str] = {}
        body: list[str] = []
        sources: list[KnowledgeSource] = []
        from cairn.answer.types import fits_answer_type
        from cairn.search.asked import answer_type
        for piece, a in zip(pieces, answers):
            kind = answer_type(piece)
            if not a.found and kind and any(fits_answer_type(b.text, kind) for b in answers if b.found):
                continue  # what an earlier part's answer says may hold it ("turning 7"): no "nothing" line
            if not a.found:
                body.append(f"About “{piece}”: nothing in your memories, notes, reminders or our earlier "
                            "conversations answers that.")
                continue
            local: dict[int, int] = {}
            for src in a.sources:
                if src.kind == "note" and src.n is not None:
                    g = numbering.setdefault(src.id or src.title, len(numbering) + 1)
                    local[src.n], src.n, titles[g] = g, g, src.title
            text = re.sub(r"\[(\d{1,3})\]", lambda m: f"[{local.get(int(m.group(1)), m.group(1))}]", a.text)
            if text not in body:  # two parts answered by the same sentence: said once
                body.append(text)
                sources += [src for src in a.sources if src not in sources]
        refs = "\n".join(f"[{n}] {t}" for n, t in sorted(titles.items()))
        text = "\n".join(body) + ("\n" + refs if refs else "")
        why = answers[0].why if len(answers) == 1 else {
            "mode": "question", "query": question, "parts": [a.why for a in answers],
            "chosen": [k for a in answers for k in a.why.get("chosen", [])]}
        return KnowledgeAnswer(text, True, sources, why)

    def _one(self, question: str, subject: str | None, now: datetime, llm: str | None) -> KnowledgeAnswer:
        """One question: memory, notes, reminders, sessions (module docstring); the text
        carries the notes' [n] markers, not their list."""
        asked = T.names(question)
        why: dict[str, Any] = {"mode": "question", "subject": subject, "query": question}
        scored_m = self._scored_memories(question, now)
        why["memories"] = [{"id": h.memory.id, "text": h.memory.text[:200], "score": round(s, 3),
                            "focus": round(f, 3)} for h, s, f in scored_m]
        ans = self.ask(question, llm=llm, memories=False)  # memories are weighed here
        note_src: list[KnowledgeSource] = []
        note_score = note_focus = 0.0
        if not ans.abstained and ans.citations:
            quote = " ".join(c.get("quote") or "" for c in ans.citations[:2])
            note_focus = T.focus(asked, quote)
            note_score = self._relevance(question, [quote])[0] * note_focus
            note_src = [KnowledgeSource("note", c.get("source_id") or c.get("path") or "", c.get("title") or "",
                                        c.get("quote") or "", None, c.get("n")) for c in ans.citations]
        why["notes"] = {"verdict": ans.verdict, "citations": len(ans.citations), "score": round(note_score, 3),
                        "focus": round(note_focus, 3), "trace_id": getattr(ans, "trace_id", None)}
        reminders = self._reminders_about(question)
        why["reminders"] = [s.id for s in reminders]
        best_m = scored_m[0] if scored_m else None
        parts: list[str] = []
        sources: list[KnowledgeSource] = []
        chosen: list[str] = []
        memory_first = best_m is not None and best_m[1] + OWN_MARGIN >= note_score
        if memory_first:
            parts.append(self._said(best_m[0].memory, now))
            sources.append(self._memory_source(best_m[0]))
            chosen.append("memory")
            if note_src and note_score >= RUNNER_UP * best_m[1] and note_focus >= best_m[2]:
                parts.append("Your notes say: " + self._attributed(ans))
                sources += note_src
                chosen.append("note")
        elif note_src:
            parts.append(self._attributed(ans))
            sources += note_src
            chosen.append("note")
            if best_m is not None and best_m[1] >= RUNNER_UP * note_score and best_m[2] >= note_focus:
                parts.append(self._said(best_m[0].memory, now, also=True))
                sources.append(self._memory_source(best_m[0]))
                chosen.append("memory")
        for r in reminders:
            parts.append(f"You have a reminder: {r.quote}.")
            sources.append(r)
            chosen.append("reminder")
        if not parts:
            said = self._sessions_about(question)
            why["sessions"] = [s.id for s in said]
            for s in said:
                parts.append(f"You said in an earlier conversation on {T.said_on(s.when, now)}: “{s.quote}”.")
                sources.append(s)
                chosen.append("session")
        why["chosen"] = chosen
        if not parts:
            nearest = [p.get("title", "") for p in (ans.pointers or [])[:3] if p.get("title")]
            why["nearest"] = nearest  # the notes nearest the question, by title (the assistant reads them)
            pointers = "; ".join(nearest)
            text = ("I don't know: nothing in your memories, notes, reminders or our earlier conversations "
                    "answers that." + (f" Nearest notes: {pointers}." if pointers else ""))
            return KnowledgeAnswer(text, False, [], why)
        return KnowledgeAnswer("\n".join(parts), True, sources, why)

    def _scored_memories(self, question: str, now: datetime) -> list[tuple[Any, float, float]]:
        """(recalled memory, score, focus) of the memories that may answer `question`, best
        first: relevance (`_relevance`) x focus on the names asked (T.focus); a memory must
        reach MEMORY_FLOOR (or speak of the same "my <relation>") and hold the kind of answer
        asked (answer.types.fits_answer_type: a time for "when")."""
        from cairn.answer.types import fits_answer_type
        from cairn.search.asked import answer_type
        kind = answer_type(question)
        asked = T.names(question)
        kin = T.kin(question)  # "my sister" asked and told: the statement is about whom the question asks
        mems = [(h, r) for h, r in self._known_memories(question, now, k=4)
                if (r >= MEMORY_FLOOR or kin & T.kin(h.memory.text)) and fits_answer_type(h.memory.text, kind)]
        rel = self._relevance(question, [h.memory.text for h, _ in mems])
        return sorted(((h, r * T.focus(asked, h.memory.text), T.focus(asked, h.memory.text)) for (h, _), r
                       in zip(mems, rel)), key=lambda x: -x[1])

    def own_answer(self, question: str, lines: list[str], now: datetime | None = None) -> KnowledgeAnswer:
        """The person's own statement answering `question` when it outranks the note `lines` a
        caller would answer with (a note read because the question names its topic: "when does
        the nursery shut over christmas?" and the nursery's opening days), by the rule of a
        question's answer (module docstring): the best memory's score (relevance x focus)
        plus OWN_MARGIN at least the lines' own. Relevance is meaning as much as words
        (cosine), so "shut over christmas" finds "closed for xmas". `found` False (empty text):
        no memory answers, or the lines score higher."""
        now = now or datetime.now(timezone.utc)
        scored = self._scored_memories(question, now)
        if not scored or not lines:
            return KnowledgeAnswer("", False, [], {"mode": "question", "query": question, "chosen": []})
        quote = " ".join(lines)
        note_score = self._relevance(question, [quote])[0] * T.focus(T.names(question), quote)
        h, score, _ = scored[0]
        if score + OWN_MARGIN < note_score:
            return KnowledgeAnswer("", False, [], {"mode": "question", "query": question, "chosen": ["notes"],
                                                   "notes": {"score": round(note_score, 3)}})
        why = {"mode": "question", "query": question, "chosen": ["memory"], "memories": [
            {"id": h.memory.id, "text": h.memory.text[:200], "score": round(score, 3)}], "notes": {"score": round(note_score, 3)}}
        return KnowledgeAnswer(self._said(h.memory, now), True, [self._memory_source(h)], why)

    def _attributed(self, ans) -> str:
        """The notes' answer text, led by its speaker when every cited line is one chat
        speaker's and the text speaks in the first person ("Ines: I'm driving, I have the van
        [1]." — quoted alone, "I" names nobody); the text itself otherwise, and when that speaker
        is the person ("Me", "You", their name)."""
        text = ans.answer.strip()
        speakers = {c.get("speaker") for c in ans.citations}
        if len(speakers) != 1 or not _FIRST_PERSON.search(text):
            return text
        speaker = (next(iter(speakers)) or "").strip()
        if not speaker or speaker.casefold() in {"me", "you", "user", (self.settings.owner or "").casefold()}:
            return text
        return f"{speaker}: {text}"

    @staticmethod
    def _said(memory, now: datetime, also: bool = False) -> str:
        """'You told me on 6 December: “…”.' for a memory (the date it was said); 'You also
        told me …' with `also`. A memory extracted from an imported chat (`said_by_you` False:
        "Ines is driving", said by Ines) is 'From a conversation on 12 May 2024: “…”.'."""
        return _said_line(memory.text, memory.valid_from or memory.created, now,
                          said_by_you(memory.source), also)

    # -- a profile --------------------------------------------------------------------------
    def _profile(self, question: str, subject: str, now: datetime) -> KnowledgeAnswer:
        why: dict[str, Any] = {"mode": "profile", "subject": subject, "query": question}
        terms = T.subject_terms(subject)
        wanted = T.names(subject)
        mems = [(h, r) for h, r in self._known_memories(subject, now, k=8) if r >= PROFILE_FLOOR][:MAX_MEMORIES]
        why["memories"] = [{"id": h.memory.id, "text": h.memory.text[:200], "relevance": round(r, 3)} for h, r in mems]
        related = [n for h, _ in mems for n in T.names(h.memory.text) if n not in wanted]
        related = list(dict.fromkeys(related))[:3]
        entities = [e for e in (self._entity(n) for n in [*(wanted or [subject]), *related]) if e]
        why["entities"] = [{"id": e["id"], "name": e["name"], "notes": len(e.get("notes") or []),
                            "related": [r["name"] for r in (e.get("related") or [])][:5]} for e in entities]
        sources: list[KnowledgeSource] = [self._memory_source(h) for h, _ in mems]
        notes = self._notes_about(subject, terms, wanted, related, entities)
        why["notes"] = [{"id": s.id, "title": s.title, "n": s.n} for s in notes]
        sources += notes
        reminders = self._reminders_about(subject)
        why["reminders"] = [s.id for s in reminders]
        sources += reminders
        if not sources:
            said = self._sessions_about(subject)
            why["sessions"] = [s.id for s in said]
            sources += said
        sources += [KnowledgeSource("entity", e["id"], e["name"], self._entity_line(e), None) for e in entities]
        why["chosen"] = list(dict.fromkeys(s.kind for s in sources))
        lines = [self._profile_line(s, now) for s in sources if s.kind != "entity"]
        refs = [f"[{s.n}] {s.title}" for s in notes]
        if not lines:
            return KnowledgeAnswer(f"I don't know anything about {subject}: no memory, note, reminder or earlier "
                                   "conversation mentions it.", False, [], why)
        text = f"What I know about {subject}:\n" + "\n".join(f"- {ln}" for ln in lines)
        if refs:
            text += "\n" + "\n".join(refs)
        return KnowledgeAnswer(text, True, sources, why)

    def _notes_about(self, subject: str, terms: set[str], wanted: list[str], related: list[str],
                     entities: list[dict]) -> list[KnowledgeSource]:
        """The notes speaking of the subject (or of the names its memories hold), each with
        the lines that do, numbered [1]..; search first, then the entities' notes."""
        from cairn.errors import CairnError
        refs: list[str] = []
        for q in [subject, *related]:
            try:
                hits = self.search(q, k=6, group=False).hits
            except (CairnError, ValueError, sqlite3.Error):
                hits = []
            refs += [h.note_id for h in hits if T.mentions(f"{h.title}\n{h.text}", terms, wanted + related)]
        refs += [n["id"] for e in entities for n in (e.get("notes") or [])]
        out: list[KnowledgeSource] = []
        for ref in dict.fromkeys(refs):
            if len(out) >= MAX_NOTES:
                break
            try:
                note = self.note_show(ref)
            except (CairnError, ValueError, OSError):
                continue
            title = note.get("title") or ""
            title_match = bool(terms) and terms <= T.subject_terms(title)
            lines = T.subject_lines(note.get("body") or "", terms, wanted + related, title_match)
            if lines:
                out.append(KnowledgeSource("note", note.get("id") or ref, title, " ".join(lines), None, len(out) + 1))
        return out

    @staticmethod
    def _entity_line(e: dict) -> str:
        rel = [r["name"] for r in (e.get("related") or [])][:5]
        return f"{e['name']} ({e.get('kind') or 'entity'})" + (f", related: {', '.join(rel)}" if rel else "")

    def _profile_line(self, s: KnowledgeSource, now: datetime) -> str:
        if s.kind == "memory":
            return _said_line(s.quote, s.when, now, s.yours)
        if s.kind == "note":
            return f"{s.quote} [{s.n}]"
        if s.kind == "reminder":
            return f"A reminder: {s.quote}."
        return f"You said in an earlier conversation on {T.said_on(s.when, now)}: “{s.quote}”."


def _said_line(text: str, when: str | None, now: datetime, yours: bool, also: bool = False) -> str:
    """One memory as a line of the answer: 'You told me on DAY: “TEXT”.' ('You also told me'
    with `also`), or 'From a conversation on DAY: “TEXT”.' ('A conversation also says' with
    `also`) when the person did not say it themselves (`said_by_you`)."""
    day = T.said_on(when, now) if when else ""
    if yours:
        head = "You also told me" if also else "You told me"
        if _THE_PERSON.search(text):  # a fact extracted from your session, written of "the person"
            return f"{head}{' on ' + day if day else ''} that {_to_you(text.rstrip('.'))}."
    else:
        head = "A conversation also says" if also else "From a conversation"
    return f"{head}{' on ' + day if day else ''}: “{text.rstrip('.')}”."


# A fact the extractor wrote from the person's own turns names them "The person" (memory/rules.py:
# "The person sold the skoda, the person's car is now a red Volvo"); said back to them it is "you".
_THE_PERSON = re.compile(r"\bthe person\b", re.I)
_YOU_FORMS = ((re.compile(r"\bthe person's\b", re.I), "your"),
              (re.compile(r"\bthe person is\b", re.I), "you are"),
              (re.compile(r"\bthe person was\b", re.I), "you were"),
              (re.compile(r"\bthe person has\b", re.I), "you have"),
              (re.compile(r"\bthe person does\b", re.I), "you do"),
              (re.compile(r"\bthe person\b", re.I), "you"))


def _to_you(text: str) -> str:
    """`text` with "the person" (the extractor's name for the person) as "you", "the
    person's" as "your", and "the person is/was/has/does" as "you are/were/have/do"."""
    for rx, word in _YOU_FORMS:
        text = rx.sub(word, text)
    return text
