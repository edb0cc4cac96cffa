"""Acting on what the understanding layer (cairn.assistant.nlu) read in a message, for models
that cannot call tools (and for "none"): each action becomes a tool call through the judge
and the approval flow (`_handle`, as a model's call would), a read-only answer (the knowledge
answer, a note's key sentences, earlier conversations), or a reply that needs no tool (an
honest "I can't", an acknowledgement of a feeling). A mixin of Assistant; the turn's
understanding is logged as an "nlu" session event (cairn.assistant.nlu.state).
"""

from __future__ import annotations

import re
import secrets
from datetime import datetime, timezone

from cairn.assistant.models import ToolCall
from cairn.assistant.nlu import antecedent as AN
from cairn.assistant.nlu import known as KN
from cairn.assistant.nlu import notenames as NN
from cairn.assistant.nlu import people as PE
from cairn.assistant.nlu import canned as CN
from cairn.assistant.nlu import replies as RP
from cairn.assistant.nlu import slots as SL
from cairn.assistant.nlu import state as NS
from cairn.assistant.nlu.forms import as_profile, is_question, plain_question
from cairn.ops.knowledge_text import same_words
from cairn.assistant.nlu.understand import KNOWLEDGE, Action, Understanding, understand
from cairn.assistant.kinask import kin_people, kin_question, named_in_memory, names_in, said_before
from cairn.assistant.notecast import turn_mentions
from cairn.assistant.results import describe, join_replies, read_already
from cairn.assistant.reminding import Reminding
from cairn.assistant.scoped import NoteScoped
from cairn.config import MAX_MEMORY_CHARS
from cairn.errors import InvalidInput
from cairn.validate import check_question


def knowledge(app, question: str, subject: str | None = None):
    """The one knowledge answer (cairn.assistant.knowledge.answer_about) — the single place the
    assistant's questions go."""
    from cairn.assistant.knowledge import answer_about
    return answer_about(app, question, subject=subject)


# A name typed in lower case ("whats her number then" after "can u text oksana …") is the
# conversation's person when the home knows a person by it (nlu/known.py).
LOWER_CASE_NAMES = True
# A who-question answered by a note sentence naming no one gets one naming a person (_who_from_note).
WHO_NAMES_A_PERSON = True


# A who-question naming the work done ("who's drawing up the plans?") is answered by the sentence
# naming a person by the role doing that work ("Architect: …"; answer/rota.py GLOSS), when it fits the
# question better than the lines the knowledge answer quoted (scoped._who_by_role). Switch off: WHO_BY_ROLE.
WHO_BY_ROLE = True
# A question asking a kind of thing only a value of that kind answers (a size, a temperature, an
# email address: replies.specific_kind) is declined when the knowledge answer holds none: a line
# sharing its words ("pump the tyres to 80 psi" for "what size tyres …") answers another question.
SPECIFIC_OR_NOTHING = True
# The words that only carry a texted question along ("ok …", "right so …", "… then") are no part of
# what it asks: the knowledge answer gets the question without them ("ok what's her mobile then"
# found nothing; "what's her mobile" finds her line). Switch off: DISCOURSE_OFF.
DISCOURSE_OFF = True


NOT_KNOWN = "I don't know: nothing in your memories, notes, reminders or our earlier conversations answers that."


class Understood(NoteScoped, Reminding):
    """`_understand(text)` and `_act(u, ...)` (mixin of Assistant)."""

    def _understand(self, text: str) -> tuple[Understanding, NS.ConversationState]:
        st = NS.load(self.store, self.state.id)
        cache = None if self.incognito else self.app.settings.home / "nlu"
        return understand(self.app.embedder, text, st, cache, df=self._df,
                          people=lambda: KN.home_people(self.app)), st

    def _df(self, word: str) -> int:
        """How many note chunks hold `word` (the keyword index); 0 when the index cannot say."""
        try:
            return self.app.store.keywords.document_frequency(word)
        except Exception:  # noqa: BLE001 - no index (a fresh home): every word reads as typed
            return 0

    def _hint(self, text: str) -> str | None:
        """The understanding layer's reading of `text` as a hint for a model that calls tools
        (nlu/hint.py), or None. The hint is an aid only: a failure to read the message
        (the embedder missing, an unreadable vault) leaves the prompt without it."""
        from cairn.assistant.nlu.hint import hint_for
        try:
            u, _ = self._understand(text)
            return hint_for(self.app, u)
        except Exception:  # noqa: BLE001 - never an error of the turn; the model reads the words itself
            return None

    def _act(self, u: Understanding, st: NS.ConversationState, model, text, ctx, history, res, ui, turn_no) -> None:
        replies: list[str] = []
        log = {"type": "nlu", "turn": turn_no, "text": text, "resolved": u.resolved, "resolution": u.resolution,
               "actions": [], "subject": None, "note": None, "person": None, "question": None}
        pronoun_subject = u.subject
        for i, a in enumerate(u.actions):
            # a pronoun's subject belongs to the action holding the pronoun; a second question
            # keeps the first one's subject
            own = pronoun_subject if NS.has_pronoun(a.text) else None
            said = said_before(self.app, u, i) if (i and (a.intent in KNOWLEDGE or is_question(a.text))
                                               and NS.PERSON_PRONOUN.search(a.text)) else None
            if said:  # "when's mum's birthday and what's she after": she = mum, the person the first part names
                from cairn.ops.knowledge_text import with_subject
                u.resolution.append(f"'{NS.PERSON_PRONOUN.search(a.text).group(0)}' = {said!r} (named earlier in the message)")
                a = Action(a.intent, with_subject(a.text, said), a.prediction, a.context)  # "what's mum after"
            u.subject = said or ((log.get("subject") or own) if i and a.intent in KNOWLEDGE else own)
            u.earlier = "\n".join(replies)
            try:
                out = self._one(a, u, st, model, ctx, history, res, ui, turn_no, log)
            except InvalidInput as exc:  # a question over validate.MAX_QUESTION_CHARS: said, the conversation goes on
                out = {"reply": f"I can't {'answer' if a.intent in KNOWLEDGE or is_question(a.text) else 'do'} that: {exc}",
                       "slots": {"refused": str(exc)}}
            if i and out.get("only_sessions"):
                continue  # a second question nothing answered but an echo of the conversation
            log["actions"].append({**a.to_json(), "slots": out.get("slots", {})})
            said = "\n".join(replies)
            if out.get("reply") and out["reply"].splitlines()[0].split(" [")[0] not in said:
                replies.append(out["reply"])  # a second answer repeating the first is left out
        res.reply = join_replies(replies) or "…"  # one Sources line for the parts' answers
        log["answer"] = res.reply.splitlines()[0][:200] if res.reply else None
        from cairn.ops.knowledge_text import names
        people = [n for n in names(u.resolved) if n not in (log.get("note"), log.get("subject"))]
        if not people and LOWER_CASE_NAMES and not u.resolved.isupper() and KN.may_name(u.resolved):
            # "can u text oksana that …": a name typed in lower case, known to the home as a person's
            people = [n for n in KN.people_in(u.resolved, KN.home_people(self.app))
                      if n not in (log.get("note"), log.get("subject"))]
        people += [n for n in kin_people(u.resolved, KN.ordinary_words()) if n not in people]  # "my sister priya"
        who = PE.people(res.reply)[:1] if re.match(r"\W*(?:and\s+)?(?:who|whom|whose)\b", u.resolved, re.I) else []
        log["mentions"], log["cast"] = turn_mentions(self.app, u, res.reply, people, who, log)
        if people or who:
            log["person"] = (people or who)[-1]
        self.store.append(self.state.id, log)

    # -- one action ------------------------------------------------------------------------
    def _tool(self, name: str, args: dict, text: str, ui, turn_no: int, res):
        call = ToolCall("nlu_" + secrets.token_hex(4), name, args)
        rec = self._handle(call, text, False, ui, turn_no)
        res.tool_calls.append(rec)
        return rec

    def _one(self, a, u, st, model, ctx, history, res, ui, turn_no, log) -> dict:
        intent, t = a.intent, a.text
        if intent == "none" and is_question(t):
            intent = "ask"
        if intent in KNOWLEDGE:
            check_question(t)  # the rule of every door (validate.MAX_QUESTION_CHARS): InvalidInput, replied by _act
            if KN.FULL_NAME and KN.may_name(t) and (full := KN.full_names(t, KN.home_people(self.app)))[1]:
                u.resolution.append(f"a first name alone: {', '.join(full[1])}")  # "maureen's" -> "Maureen Pike's"
                t = full[0]
            if kin := kin_question(self.app, t, u.subject, KN.ordinary_words()):  # "her brother": the memories' Ken
                u.resolution.append(f"{kin[2]!r} = {kin[1]!r} (a family link of the memories)")
                t, u.subject, log["kin"] = kin[0], kin[1], [kin[1], kin[3]]
            if intent == "recall" and not SL.subject_of(t).strip(" ?") in ("", "me", "myself"):
                intent = "about"
            if intent == "recall":
                return self._recall_me(t)
            # "who does it? I need their number": a who/what question whose pronoun stands for a
            # note's subject is asked of that note, like any other question
            follow = intent == "about" and u.subject and NS.has_pronoun(t)
            kind_of_note = bool(u.topic) and any(h.startswith(NS.VALUE_OF_NOTE) for h in u.resolution)
            other = bool(u.topic) and any(h.startswith(NS.OTHER_OF_NOTE) for h in u.resolution)
            head = NS.only_head(u.text) if any(h.startswith(NS.NEW_HEAD) for h in u.resolution) else None
            if head and st.note:
                # "and for how many?" after the buffet's price: the note last answered from, its line of the
                # new kind; the last question's words break ties, the line quoted last before others
                scoped = self._note_scoped(head, ui, turn_no, res, log, st.note, st.answer, related=st.question)
                if scoped is not None:
                    scoped["slots"]["question"] = log["question"] = t
                    return self._own_over(t, scoped, log)
            scoped = self._note_scoped(t, ui, turn_no, res, log, u.subject or u.topic,
                                       st.answer if (u.subject or u.topic) and not other else None,
                                       loose=not u.subject, avoid=st.answer if other else None,
                                       related=st.question if other else None, quoted=u.earlier or None) \
                if intent == "ask" or follow or kind_of_note else None
            if scoped is not None:
                return self._own_over(t, scoped, log)
            if kind_of_note and (none := self._no_value(t, u.topic, log)) is not None:
                return none  # "and the phone number?" of a note without one: not another note's number
            ask = plain_question(t) if DISCOURSE_OFF else t  # "ok what's her mobile then": "what's her mobile"
            ans = knowledge(self.app, as_profile(ask) if intent == "about" else ask, subject=u.subject)
            if ans.sources and all(s.kind == "session" and same_words(s.quote, u.text) for s in ans.sources):
                log["question"] = t  # only this very message (logged as the turn began) echoed back: nothing answers it
                return {"reply": NOT_KNOWN, "slots": {"question": t, "found": False}, "only_sessions": True}
            if SPECIFIC_OR_NOTHING and (spec := RP.specific_kind(ask)) and ans.found and not spec[0](
                    re.sub(r"\[\d+\]|\n\[\d+\].*$|\nSources:.*$", "", ans.text, flags=re.S)):
                # "what size tyres does my bike take?" answered "pump the tyres to 80 psi": no size, no answer
                log["question"] = t
                return {"reply": f"I don't know: nothing in your memories or notes gives {spec[1]} for that.",
                        "slots": {"question": t, "found": False, "kind": spec[1]}}
            notes = [s.title for s in ans.sources if s.kind == "note" and s.title]
            if intent == "ask" and not (u.subject or u.topic) and st.note and (not ans.found or notes[:1] == [st.note]):
                # a bare question after a note's answer ("when can we check in?"), unanswered or answered from that
                # same note: the note's sentence sharing its words, as for an "and ...?" follow-up
                scoped = self._note_scoped(t, ui, turn_no, res, log, st.note, st.answer, loose="all")
                if scoped is not None:
                    return self._own_over(t, scoped, log)
            if WHO_NAMES_A_PERSON and intent == "ask" and (who := self._who_from_note(t, ans, ui, turn_no, res, log)):
                return who
            if WHO_BY_ROLE and intent in ("ask", "about") and (who := self._who_by_role(t, ans, ui, turn_no, res, log)):
                return who
            log["question"] = t
            subj = u.subject or ans.why.get("subject") or SL.subject_of(t) or None
            log["subject"] = subj or (notes[0] if notes else None)
            log["note"] = notes[0] if notes else None
            return {"reply": ans.text, "slots": {"question": t, "subject": subj, "found": ans.found,
                                                 "chosen": ans.why.get("chosen")},
                    "only_sessions": not ans.found or ans.why.get("chosen") == ["session"]}
        handler = getattr(self, "_do_" + intent, None)
        if handler is not None:
            return handler(t, u, st, ui, turn_no, res, log)
        if intent.startswith("cannot_"):
            return {"reply": CN.cannot(intent), "slots": {"cannot": intent.removeprefix("cannot_")}}
        if intent == "feelings":
            return {"reply": CN.feeling(t)}
        if intent == "capabilities":
            return {"reply": CN.CAPABILITIES}
        return self._chat(intent, t, model, ctx, history, res, ui)

    def _chat(self, intent, t, model, ctx, history, res, ui) -> dict:
        """Small talk and what nothing understood: the model's plain reply, or (no model) a
        short canned one."""
        from cairn.assistant import prompt as P
        if model.name == "none":
            if intent == "smalltalk":
                return {"reply": CN.smalltalk(t)}
            return {"reply": "I'm not sure what you'd like me to do. " + CN.CAPABILITIES}
        if ctx is None:
            ctx = self._compile(t, self.state.turns, model)
        messages = [{"role": "system", "content": P.compact_system(ctx)}, *history[-4:],
                    {"role": "user", "content": t}]
        comp = self._call_model(model, messages, None, ui, res, max_tokens=P.SMALL_REPLY_TOKENS)
        from cairn.assistant.claims import honest_reply  # no claim of an action that did not run
        return {"reply": honest_reply(self, model, messages, self._verified(P.dedupe(comp.content), ctx, res),
                                      res, ui) or "…"}

    # -- memory ------------------------------------------------------------------------------
    MAX_TOLD = 12  # memories listed for "what have I told you about me?"

    def _recall_me(self, t: str) -> dict:
        """"What do you remember about me?": what the person told (memories not made by the
        reflection pass), newest first, each with the day it was said; a read, no tool."""
        from cairn.ops.knowledge_text import said_on
        now = datetime.now(timezone.utc)
        rows = [m for m in self.app.memories() if m.source != "reflection"]
        rows.sort(key=lambda m: m.valid_from or m.created or "", reverse=True)
        if not rows:
            return {"reply": "You haven't told me anything to remember yet.", "slots": {"memories": 0}}
        lines = [f"- {m.text.rstrip('.')} (you told me on {said_on(m.valid_from or m.created, now)})"
                 for m in rows[:self.MAX_TOLD]]
        more = f"\n… and {len(rows) - self.MAX_TOLD} more (`cairn memories`)." if len(rows) > self.MAX_TOLD else ""
        return {"reply": "What you've told me:\n" + "\n".join(lines) + more, "slots": {"memories": len(rows)}}
    def _do_remember(self, t, u, st, ui, turn_no, res, log) -> dict:
        x = SL.remember_text(t)
        if SL.refers_back(x):  # "keep that in mind": the statement before it (the preface, else the last turn)
            before = self._context(u, t) or (st.turns[-1].get("text", "") if st.turns else "")
            x = SL.remember_text(before) if before else ""
            if not x:
                return {"reply": "What should I remember? Nothing was stored.", "slots": {"text": ""}}
        elif not SL.worth_storing(t, x):  # "and what about it?" at a first turn: no statement
            return {"reply": "I'm not sure what you mean — nothing was stored. Say \"remember that …\" to keep "
                             "something, or ask again naming what you ask about.", "slots": {"text": ""}}
        if len(x) > MAX_MEMORY_CHARS:  # a memory is one statement: a longer text to keep is kept as a note
            title = SL.title_from_text(x)
            rec = self._tool("create_note", {"title": title, "body": x}, t, ui, turn_no, res)
            if rec.outcome == "ran":
                log["note"] = log["subject"] = title
            return {"reply": f"That is too long for one memory ({len(x):,} characters; a memory holds at most "
                             f"{MAX_MEMORY_CHARS:,}), so I kept it as a note. {describe(rec)}",
                    "slots": {"text": x[:200], "note": title}}
        p = NS.PERSON_PRONOUN.search(x) if u.subject else None
        if p:  # "her husband dev is vegetarian": "Priya's husband ...", the memory read alone later
            x, _ = named_in_memory(x, u.subject, AN.said_people(x[:p.start()], names_in(self.app, x[:p.start()])))
        rec = self._tool("remember", {"text": x}, t, ui, turn_no, res)
        return {"reply": describe(rec), "slots": {"text": x}}

    def _do_memory_correct(self, t, u, st, ui, turn_no, res, log) -> dict:
        """"Sorry, the locker is 121 not 112": the active memory holding the old value (as a
        whole word; of several, the one recall ranks first for the message) is restated with the
        new value, which supersedes it (the remember tool's `replaces`). With no memory holding
        it, the message is acted on as the classifier read it."""
        from cairn.assistant.nlu.forms import correction
        new, old = correction(t) or ("", "")
        word = re.compile(rf"(?<![\w-]){re.escape(old)}(?![\w-])", re.I) if old else None
        holding = [m for m in self.app.memories() if word and word.search(m.text)]
        if not holding:
            a = next(x for x in u.actions if x.text == t)
            intent = a.prediction.intent
            handler = getattr(self, "_do_" + intent, None) if intent != "memory_correct" else None
            if handler is None:
                return {"reply": f"I have no memory saying “{old}”, so nothing was changed.", "slots": {"old": old}}
            return handler(t, u, st, ui, turn_no, res, log)
        if len(holding) > 1:
            order = [h.memory.id for h in self.app.recall(t, k=10)]
            holding.sort(key=lambda m: order.index(m.id) if m.id in order else len(order))
        m = holding[0]
        text = word.sub(lambda _: new, m.text, count=1)
        rec = self._tool("remember", {"text": text, "replaces": m.id}, t, ui, turn_no, res)
        return {"reply": describe(rec), "slots": {"old": old, "new": new, "memory": m.id, "text": text}}

    def _do_forget(self, t, u, st, ui, turn_no, res, log) -> dict:
        q = SL.forget_query(t)
        hits = self.app.recall(q, k=1)
        if not hits:
            return {"reply": f"I have no memory matching “{q}”, so there is nothing to forget.", "slots": {"query": q}}
        m = hits[0].memory
        rec = self._tool("forget", {"memory_id": m.id}, t, ui, turn_no, res)
        lead = f"The closest memory is “{m.text}”. " if rec.outcome == "pending" else ""
        return {"reply": lead + describe(rec), "slots": {"query": q, "memory": m.id}}

    @staticmethod
    def _context(u, t: str) -> str:
        """The preface of the action whose text is `t` ("" when it came with none)."""
        return next((a.context for a in u.actions if a.text == t), "")

    # -- notes -------------------------------------------------------------------------------
    def _note_of(self, t, st, log, referred: bool = False) -> tuple[str | None, str]:
        """(title, phrase) of the note `t` names, else the session's note (`referred`: if `t` points back at it)."""
        title, phrase = NN.resolve_note(self.app, t)
        if NN.names_many(t, title):  # "delete all my notes": no one note, not the last one spoken of
            log["many_notes"] = True  # read by the reply (_do_note_delete), so names_many runs once a turn
            return None, ""
        if (title is None and st.note and (not phrase or phrase.lower() in ("it", "that", "this"))
                and (not referred or NN.points_back(t))):
            title = st.note
        if title:
            log["note"] = log["subject"] = title
        return title, phrase

    def _do_note_create(self, t, u, st, ui, turn_no, res, log) -> dict:
        s = SL.create_slots(t)
        if not s["title"]:
            return {"reply": "What should the note be called? Say e.g. \"create a note called Ideas with …\".",
                    "slots": s}
        rec = self._tool("create_note", s, t, ui, turn_no, res)
        log["note"] = log["subject"] = s["title"]
        return {"reply": describe(rec), "slots": s}

    def _do_note_append(self, t, u, st, ui, turn_no, res, log) -> dict:
        title, phrase = self._note_of(t, st, log)
        body = SL.append_slots(t, title)
        if not title:
            return {"reply": (f"I can't find a note called “{phrase}”, so nothing was added." if phrase else
                              "Which note? Name it by its title; nothing was added."),
                    "slots": {"note": phrase, "body": body}}
        if not body:
            return {"reply": f"What should I add to {title}?", "slots": {"note": title}}
        try:
            current = self.app.note_show(title)["body"]
        except Exception:
            current = ""
        if any(ln.lstrip().startswith(("- ", "* ")) for ln in current.splitlines()):
            body = "\n".join(f"- {b.removeprefix('- ')}" for b in SL.items_body(body).splitlines())
        rec = self._tool("update_note", {"note": title, "body": body, "mode": "append"}, t, ui, turn_no, res)
        return {"reply": describe(rec), "slots": {"note": title, "body": body}}

    def _do_note_edit(self, t, u, st, ui, turn_no, res, log) -> dict:
        title, phrase = self._note_of(t, st, log)
        s = SL.edit_slots(t)
        if not title or not s:
            return {"reply": "Which note, and what should it say? Nothing was changed.", "slots": s}
        body = s.get("body")
        if "old" in s:
            current = self.app.note_show(title)["body"]
            if s["old"].lower() not in current.lower():
                return {"reply": f"{title} does not contain “{s['old']}”, so nothing was changed.", "slots": s}
            import re
            body = re.sub(re.escape(s["old"]), s["new"], current, count=1, flags=re.I)
        rec = self._tool("update_note", {"note": title, "body": body, "mode": "overwrite"}, t, ui, turn_no, res)
        return {"reply": describe(rec), "slots": dict(s, note=title)}

    def _do_note_rename(self, t, u, st, ui, turn_no, res, log) -> dict:
        title, _ = self._note_of(t, st, log)
        new = SL.rename_slots(t)
        if not title or not new:
            return {"reply": "Which note should I rename, and to what? Nothing was changed.",
                    "slots": {"note": title, "title": new}}
        rec = self._tool("rename_note", {"note": title, "title": new}, t, ui, turn_no, res)
        if rec.outcome == "ran":
            log["note"] = log["subject"] = new
        return {"reply": describe(rec), "slots": {"note": title, "title": new}}

    def _do_note_delete(self, t, u, st, ui, turn_no, res, log) -> dict:
        title, phrase = self._note_of(t, st, log, referred=True)
        if not title:
            return {"reply": (f"I can't find a note called “{phrase}”, so nothing was deleted." if phrase else
                              "Which note? I delete one note at a time, named by its title"
                              + (", never all or several at once" if log.get("many_notes") else "") + "; nothing was deleted.")}
        rec = self._tool("delete_note", {"note": title}, t, ui, turn_no, res)
        return {"reply": describe(rec), "slots": {"note": title}}

    def _read_note(self, title, t, ui, turn_no, res) -> dict | None:
        """Note `title` read through the tool layer (get_note), once a turn while only reads ran
        since (results.read_already); None: the read did not run."""
        rec = read_already(res.tool_calls, title) or self._tool("get_note", {"note": title}, t, ui, turn_no, res)
        return rec.result if rec.outcome == "ran" and isinstance(rec.result, dict) else None

    def _do_note_summarise(self, t, u, st, ui, turn_no, res, log) -> dict:
        title, phrase = self._note_of(t, st, log)
        if not title:
            return self._one_as("about", t, u, log)
        note = self._read_note(title, t, ui, turn_no, res)
        if note is None:
            return {"reply": f"I couldn't read the note {title}."}
        key = RP.key_sentences(self.app.embedder, note.get("body") or "")
        lines = "\n".join(f"- {s} [1]" for s in key) or "(the note is empty)"
        return {"reply": f"{note.get('title')} — key points:\n{lines}\nSources: [1] {note.get('title')}",
                "slots": {"note": title}}

    def _do_note_show(self, t, u, st, ui, turn_no, res, log) -> dict:
        if is_question(t) and (scoped := self._note_scoped(t, ui, turn_no, res, log)) is not None:
            return scoped  # "what does the X note say about Y?": Y's sentences, not the whole note
        title, phrase = self._note_of(t, st, log)
        if not title and (missing := self._missing_note(t)):
            return missing
        if not title:
            return self._one_as("ask", t, u, log)
        note = self._read_note(title, t, ui, turn_no, res)
        if note is None:
            return {"reply": f"I couldn't read the note {title}."}
        return {"reply": f"{note.get('title')}:\n{(note.get('body') or '').strip() or '(empty)'}",
                "slots": {"note": title}}

    # what follows "the note" when it describes the note rather than names it ("the note I wrote
    # yesterday", "the latest note", "the note from Monday")
    _DESCRIBES = re.compile(r"^(?:i|i'd|i've|we|you|that|which|from|about|on|in|of|for|with|last|latest|newest|"
                            r"most|recent|previous|new|first|just|again|please)\b", re.I)

    def _missing_note(self, t: str) -> dict | None:
        """The reply to a request that names a note outright ("show me the note /etc/passwd",
        "open the Garden note") when no note has that name: it is said to be missing, never
        answered with another note (the conversation's last, the newest) or the notes' nearest
        lines. None when the message names no note outright, names one that exists, describes
        the note instead ("the note I wrote yesterday"), or is a question."""
        named = NN.note_phrase(t, outright=True)
        if (not named or is_question(t) or self._DESCRIBES.match(named)
                or RP.window(named, datetime.now(timezone.utc)) is not None
                or NN.resolve_note(self.app, t)[0] is not None):
            return None
        return {"reply": f"There is no note called “{named}”; nothing was opened.", "slots": {"note": named}}

    def _do_note_recent(self, t, u, st, ui, turn_no, res, log) -> dict:
        if NN.note_phrase(t, outright=True) and NN.resolve_note(self.app, t)[0]:
            return self._do_note_show(t, u, st, ui, turn_no, res, log)  # "show me the note Bins": that one
        if missing := self._missing_note(t):
            return missing
        now = datetime.now(timezone.utc)
        rows = sorted(self.app.notes_list(limit=1000)["notes"], key=lambda n: n.get("created") or "", reverse=True)
        span = RP.window(t, now)
        inside = [n for n in rows if span and span[0].isoformat() <= (n.get("created") or "") < span[1].isoformat()]
        pick = inside[0] if inside else (rows[0] if rows else None)
        if pick is None:
            return {"reply": "You have no notes yet."}
        lead = "" if inside or span is None else "I found no note created then; the most recent one is "
        note = self._read_note(pick["id"], t, ui, turn_no, res) or {}
        log["note"] = log["subject"] = pick["title"]
        body = (note.get("body") or "").strip()
        return {"reply": f"{lead}{pick['title']} (created {str(pick.get('created'))[:10]}):\n{body or '(empty)'}",
                "slots": {"note": pick["title"], "window": [s.isoformat() for s in span] if span else None}}

    def _do_search(self, t, u, st, ui, turn_no, res, log) -> dict:
        q = NN.note_phrase(t) or SL.subject_of(t) or t
        rec = self._tool("search", {"query": q}, t, ui, turn_no, res)
        return {"reply": describe(rec), "slots": {"query": q}}

    def _do_conversations(self, t, u, st, ui, turn_no, res, log) -> dict:
        now = datetime.now(timezone.utc)
        span = RP.window(t, now) or RP.window("this week", now)
        out = []
        for s in sorted(self.store.list(), key=lambda s: s.started):
            if s.id == self.state.id or not s.started or s.started < span[0].isoformat():
                continue
            msgs = [e.get("text", "") for e in self.store.events(self.store.path(s.id)) if e.get("type") == "user"]
            if msgs:
                out.append((s.id, s.started, msgs))
        return {"reply": RP.conversations_text(out, now), "slots": {"sessions": [s for s, _, _ in out]}}

    def _do_approve(self, t, u, st, ui, turn_no, res, log) -> dict:
        return self._decide_words(True, res)

    def _do_deny(self, t, u, st, ui, turn_no, res, log) -> dict:
        return self._decide_words(False, res)

    def _decide_words(self, grant: bool, res) -> dict:
        pending = self.store.load(self.state.id).pending
        if not pending:
            return {"reply": "There is nothing waiting for your approval."}
        aid = sorted(pending.items(), key=lambda kv: kv[1].get("requested_at", ""))[-1][0]
        out = self.decide(aid, grant=grant)
        res.tool_calls += out.tool_calls
        return {"reply": out.reply, "slots": {"approval_id": aid, "grant": grant}}

    def _one_as(self, intent: str, t: str, u, log) -> dict:
        ans = knowledge(self.app, t, subject=u.subject)
        log["question"] = t
        return {"reply": ans.text, "slots": {"question": t, "as": intent, "found": ans.found}}
