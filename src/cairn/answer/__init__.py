"""Answer a question from retrieved evidence, with checked citations.

Pipeline, the first check that fires declining with its reason and pointers: chit-chat (offtopic.py) ->
premise (premise.py) -> person check (answerability.py; subject.py for notes) -> parts (parts.py) -> evidence
over the floor -> draft (LLM; typed.py; or extractive) -> verifier (verify.py) -> polarity and chat topic
(topic.py) -> what was checked (checks.py). A hypothetical question ("Would Ana enjoy…?") skips the premise
and person declines; an LLM draft that does not verify falls back to the extractive one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from cairn.answer import answerability, parts, procedure, types, yesno
from cairn.answer.focus import unstated
from cairn.answer.checks import finish, label as verdict_label
from cairn.answer.typed import list_draft, typed_draft
from cairn.answer.offtopic import chit_chat, declined_text, pointers
from cairn.search.names import all_names
from cairn.answer.subject import about_subject, question_subject, strip_name
from cairn.answer.spans import _WH_WORD, _clean, _clean_markdown, _short_spans, context_of, is_caption
from cairn.answer.tables import table_rows
from cairn.answer.topic import drafted_reason
from cairn.answer.types import fits_answer_type
from cairn.lexical import content_terms, sentences, stem, term_overlap
from cairn.embed.cache import embed_cached
from cairn.answer.verify import Evidence, Verification, citations, verify
from cairn.answer.draft_prompt import llm_messages
from cairn.model import Hit
from cairn.search import asked as QT
from cairn.search.asked import is_hypothetical
from cairn.search.query import ParsedQuery

NOT_FOUND = "Your notes do not contain an answer to this question."
CHIT_CHAT_REPLY = ("That is not a question about your notes. Ask about something you have written down, "
                   "for example: \"when was the boiler last serviced?\"")
MAX_EVIDENCE = 6
# extractive_draft's ranking (LoCoMo figures: bench/README.md): the best sentence is quoted if it reaches
# FALLBACK_FLOOR; a further one must clear SENTENCE_FLOOR and be within PAD_MARGIN of the best's rank (issue 13).
SENTENCE_FLOOR = 0.35
FALLBACK_FLOOR = 0.2
PAD_MARGIN = 0.05
NAME_BONUS = 0.05  # per word of the question's names a sentence holds (a name is said once per note)
HIT_PRIOR = 1.0  # chat: + HIT_PRIOR x (the message's fused search score - the best message's)
ONE_PASSAGE = True  # a chat answer quotes one message
EXTRA_TERMS = True  # a sentence after the first holds a content word asked or a value of the kind asked
# A chat reply rarely repeats the words asked ("It taught me self-acceptance."): + REPLY_WEIGHT x the score
# of the question it replies to, and (REPLY_CONTEXT) its term overlap read with that wh-question. Ranking only.
REPLY_WEIGHT = 0.5
REPLY_CONTEXT = True
TIME_STATED = True  # "when": candidates stating a time first (a chat message's date dates them all)
# A note's sentences rarely repeat its title and heading ("Total quoted: 7,350 GBP" under "Roof estimate"): +
# CONTEXT_WEIGHT x the share of the question's terms they hold; counts towards the floors (0.4: as own words).
CONTEXT_WEIGHT = 0.4
SENTENCE_READ = 8  # a note's hits sharing a word with the question, read sentence by sentence when under the floor


@dataclass
class Answer:
    """A verified answer. citations: {n, source_id, title, path, source, page, start, end (the
    quote's span in the note body), quote}. mode: extractive | llm; fallback: why an LLM draft was
    replaced; answerability: the person check's {person, answerable, reason, scores} or None;
    pointers: a declined question's nearest notes [{title, path, source_id}]; checks: checks.py's."""

    question: str
    answer: str
    verdict: str
    citations: list[dict[str, Any]] = field(default_factory=list)
    mode: str = "extractive"
    llm: str | None = None
    fallback: str | None = None
    problems: list[str] = field(default_factory=list)
    evidence: list[dict[str, Any]] = field(default_factory=list)
    answerability: dict[str, Any] | None = None
    pointers: list[dict[str, Any]] = field(default_factory=list)
    checks: dict[str, bool] | None = None
    typed: Any = field(default=None, repr=False)

    @property
    def abstained(self) -> bool:
        return self.verdict == "abstain"

    def to_json(self) -> dict[str, Any]:
        return {**{k: getattr(self, k) for k in ("question", "answer", "verdict", "citations", "mode", "llm", "fallback",
                                                 "problems", "evidence", "answerability", "pointers")},
                "check": None,  # the model's answer check, removed in session 21: null, kept for clients
                "checks": self.checks, "label": verdict_label(self.verdict, self.checks)}


def relevance(question: str, hit: Hit, kind: str | None = None) -> float:
    """How well `hit` supports the question, in [0, 1]: its cosine or 0.9 x its share of the question's terms less the
    verbs asking a value of the `kind` asked (types.KIND_VERBS: "how much did the glazier charge?" holds no "charge")."""
    asks = [t for t in content_terms(question) if stem(t) not in {stem(w) for w in types.KIND_VERBS.get(kind, ())}]
    return max(hit.signals.get("semantic", 0.0), 0.9 * term_overlap(" ".join(asks), f"{hit.title}\n{hit.text}"))


def sentence_relevance(question: str, hit: Hit, embedder, kind: str | None) -> float:
    """The best cosine of `question` with a sentence of `hit` holding a `kind` value ("£65"); 0.0 without one."""
    sents = [x[:500] for x in (hit.text[a:b] for a, b in sentences(hit.text)) if types.values(kind, x)]
    vecs = embed_cached(embedder, [question] + sents) if sents else None
    return float(max(vecs[1:] @ vecs[0])) if sents else 0.0


def select_evidence(question: str, hits: list[Hit], floor: float, embedder=None,
                    asked: QT.Asked | None = None) -> list[Evidence]:
    """Number the hits whose relevance clears `floor` (best first, at most MAX_EVIDENCE); with
    `embedder`, for an `asked.valued` question, also a note's hit with a keyword signal (the first
    SENTENCE_READ such) whose sentence holding such a value clears it (`sentence_relevance`)."""
    asked = asked or QT.asked(question)
    kept, read = [], 0
    for h in hits:
        ok = relevance(question, h, asked.kind) >= floor
        if not ok and embedder is not None and asked.valued and h.speaker is None \
                and h.signals.get("keyword", 0.0) > 0 and read < SENTENCE_READ:
            read += 1
            ok = sentence_relevance(question, h, embedder, asked.kind) >= floor
        if ok:
            kept.append(h)
    return [Evidence(n=i + 1, text=h.text, offset=h.start, hit=h) for i, h in enumerate(kept[:MAX_EVIDENCE])]


def extractive_draft(question: str, evidence: list[Evidence], embedder, max_sentences: int = 3,
                     about=None, focus: str | None = None, replies: dict[str, str] | None = None,
                     asked: QT.Asked | None = None, floor: float | None = None) -> str:
    """The best supporting sentences of the evidence, each cited, best first ("" if none), by `_sentence_score` and the
    module constants. A question is never quoted; the sentence after it scores the better of itself and the pair ("Q: …?
    A: …"). A sentence needs four words and a value of `asked.sentence_kind` (None: read). about: `(hit, sentence) ->
    bool` filter; focus: the text scored against (the question less the name); replies: {hit id: replied message}; floor:
    the best sentence's (None: FALLBACK_FLOOR)."""
    asked = asked or QT.asked(question)
    kind = asked.sentence_kind
    cands: list[tuple[int, str]] = []
    asked_before: dict[tuple[int, str], str] = {}  # candidate -> the question just before it (FAQ)
    where: dict[tuple[int, str], str] = {}  # candidate -> its note's title and section heading
    for ev in evidence:
        text = _clean_markdown(ev.text)
        rows = table_rows(text)
        for row in rows:  # a table row with its header and section (answer/tables.py)
            if (about is None or about(ev.hit, row.text)) and fits_answer_type(row.text, kind):
                cands.append((ev.n, row.text))
                where[(ev.n, row.text)] = context_of(ev.hit, "", 0)  # the row holds its heading
        last_question: tuple[int, str] | None = None  # (end offset, text) of the latest question sentence
        for s, e in _short_spans(text):
            if any(r.table_start <= s < r.table_end for r in rows):
                continue  # table lines are offered as rows with their header (above)
            if text[text.rfind("\n", 0, s) + 1:s].lstrip().startswith("#"):
                continue  # a heading is not an answer
            sent = _clean(text[s:e])
            if sent.rstrip(" )\"'").endswith("?"):
                last_question = (e, sent)
                continue  # a question asks, it does not answer
            if last_question is not None and "\n\n" not in text[last_question[0]:s]:
                asked_before[(ev.n, sent)] = last_question[1]
            last_question = None
            if ev.hit.start > 0 and ev.hit.speaker is None and not text[:s].strip() and sent[:1].islower():
                continue  # the tail of a sentence cut at the chunk's start: no sentence at all
            if about is not None and not about(ev.hit, sent):
                continue
            if (len(re.findall(r"\w+", sent)) >= 4 and not sent.endswith((":", ";", ","))
                    and (fits_answer_type(sent, kind) or (kind == "time" and ev.hit.event_time))):
                cands.append((ev.n, sent))
                where[(ev.n, sent)] = context_of(ev.hit, text, s)
    if not cands:
        return ""
    cands, q = cands[:200], focus or question
    vecs = embed_cached(embedder, [q] + [c[1][:1000] for c in cands])
    speaker = {ev.n: ev.hit.speaker for ev in evidence}
    fused = {ev.n: ev.hit.score for ev in evidence if ev.hit.speaker}  # chat messages (HIT_PRIOR)
    top = max(fused.values(), default=0.0)
    lift = {(n, sent): CONTEXT_WEIGHT * term_overlap(question, where.get((n, sent), "")) for n, sent in cands}
    scored = [(_sentence_score(float(c), q, sent) + lift[(n, sent)], n, sent)
              for (n, sent), c in zip(cands, vecs[1:] @ vecs[0])]
    asks, reply_to = _replied(q, evidence, replies or {}, embedder)
    read_with = {(n, sent): 0.4 * (term_overlap(q, f"{sent} {asks[n]}") - term_overlap(q, sent))
                 for n, sent in cands if REPLY_CONTEXT and _WH_WORD.match(asks.get(n, ""))}
    pairs = [(i, f"{asked_before[c]} {c[1]}") for i, c in enumerate(cands) if c in asked_before]  # "Q: …? A: …"
    if pairs:
        for (i, pair), c in zip(pairs, embed_cached(embedder, [p[:1000] for _, p in pairs]) @ vecs[0]):
            score, n, sent = scored[i]
            scored[i] = (max(score, _sentence_score(float(c), q, pair)), n, sent)
    # an image caption ("[image: a photo of a bowl]") states nothing: quoted only when no sentence that does is
    if any(score >= FALLBACK_FLOOR and not is_caption(sent) for score, _, sent in scored):
        scored = [x for x in scored if not is_caption(x[2])]
    speakers = {w.lower() for ev in evidence if ev.hit.speaker for w in re.findall(r"\w+", ev.hit.speaker)}
    names = {w.lower() for name in all_names(question) for w in re.findall(r"\w+", name)} - speakers
    scored = [(score + NAME_BONUS * sum(bool(re.search(rf"(?<![\w.]){re.escape(w)}(?!\w)", sent.lower()))
                                        for w in names), n, sent) for score, n, sent in scored]
    for on, says in ((asked.kind in types.CUE_KINDS, lambda s: types.states_purpose(s, asked.head)),  # "what for"
                     (asked.kind == "place" and types.LOCATIVE and not any(speaker.values()), types.says_where),  # notes
                     (kind == "time" and TIME_STATED, lambda s: fits_answer_type(s, "time"))):
        if on:  # a sentence giving a purpose, saying where, stating a time ranks first
            scored = [x for x in scored if x[0] >= SENTENCE_FLOOR and says(x[2])] or scored

    def rank(x: tuple[float, int, str]) -> float:
        prior = HIT_PRIOR * (fused[x[1]] - top) if x[1] in fused else 0.0
        return x[0] + prior + REPLY_WEIGHT * reply_to.get(x[1], 0.0) + read_with.get((x[1], x[2]), 0.0)
    eligible = sorted((x for x in scored if x[0] >= (FALLBACK_FLOOR if floor is None else floor)), key=lambda x: -rank(x))
    chosen: list[tuple[int, str]] = []
    for x in eligible:
        score, n, sent = x
        if len(chosen) >= max_sentences:
            break
        if chosen and rank(x) < rank(eligible[0]) - PAD_MARGIN:
            break  # a weaker sentence answers something else: no padding (issue 13)
        if chosen and (score < SENTENCE_FLOOR or any(s.lower() == sent.lower() for _, s in chosen) or EXTRA_TERMS and not
                       term_overlap(question, sent) and not (asked.kind and fits_answer_type(sent, asked.kind))):
            continue  # weak, already quoted (from another passage: never said twice), or of nothing asked (EXTRA_TERMS)
        if chosen and ONE_PASSAGE and n != chosen[0][0] and (speaker[n] or speaker[chosen[0][0]]):
            continue  # another chat message: one answering something else
        chosen.append((n, sent))
    return " ".join(f"{s.rstrip()}{'' if re.search(r'[.!?。]$', s.rstrip()) else '.'} [{n}]" for n, s in chosen)


def _replied(question: str, evidence: list[Evidence], replies: dict[str, str], embedder
             ) -> tuple[dict[int, str], dict[int, float]]:
    """({evidence n: the last question of the message it replies to}, {n: its `_sentence_score`})."""
    asks: dict[int, str] = {}
    for ev in evidence:
        prev = replies.get(ev.hit.id) or ""
        qs = [prev[a:b] for a, b in sentences(prev) if prev[a:b].rstrip(" )\"'").endswith("?")]
        asks.update({ev.n: _clean(qs[-1])} if qs else {})
    if not asks:
        return asks, {}
    vecs = embed_cached(embedder, [question] + [q[:1000] for q in asks.values()])
    return asks, {n: _sentence_score(float(c), question, q) for (n, q), c in zip(asks.items(), vecs[1:] @ vecs[0])}


def _sentence_score(cosine: float, question: str, sentence: str) -> float:
    """How well `sentence` answers `question`, in [0, 1]: 0.6 x their cosine + 0.4 x lexical.term_overlap."""
    return 0.6 * cosine + 0.4 * term_overlap(question, sentence)


def typed_of_note(question: str, title: str, body: str, embedder):
    """The typed draft of `question` (answer/typed.py `Typed`: its value, context and the words asked it lacks) over one
    note, `title` and `body` its only evidence; None when the note holds no value of the kind asked."""
    hit = Hit("c0", "", None, title, "", None, body[:200], body, 0, len(body), None, 1.0, {})
    return typed_draft(question, QT.asked(question), [Evidence(1, body, 0, hit)], embedder)


def answer_question(question: str, hits: list[Hit], embedder, llm=None, *,
                    floor: float = 0.35, check_answerability: bool = True,
                    context: list[Hit] | None = None, unknown_names: list[str] | None = None,
                    replies: dict[str, str] | None = None, parsed: ParsedQuery | None = None) -> Answer:
    """Answer `question` from `hits` (search results, best first; module doc). llm: `chat(messages, max_tokens=...) ->
    str` and `name`, or None; its errors fall back to the extractive answer, nothing raises for bad model output.
    check_answerability: the module doc's checks. context: extra hits for the person check; unknown_names: names no
    chunk holds (premise.py); replies: {hit id: replied message}; parsed: the search's parsed question (its
    `answer_type`)."""
    if types.TYPED and check_answerability and len(parts.split(question)) > 1:
        return parts.merge(question, [answer_question(  # each part with the unknown names it holds
            p, hits, embedder, llm, floor=floor, context=context, replies=replies,
            unknown_names=[w for w in unknown_names or [] if w.lower() in p.lower()]) for p in parts.split(question)])
    asked = parsed.answer_type if parsed is not None and parsed.answer_type is not None else QT.asked(question)
    about = focus = info = subject = None
    all_hits, hypothetical = hits, is_hypothetical(question)
    if check_answerability:
        if chat_kind := chit_chat(question):
            return Answer(question, CHIT_CHAT_REPLY, "abstain", problems=[f"declined: chit-chat ({chat_kind})"],
                          llm=getattr(llm, "name", None))
        if unknown_names and not hypothetical:
            return _abstain(question, "the notes never mention " + ", ".join(f"'{n}'" for n in unknown_names), llm,
                            pointers=pointers(hits))
        check = answerability.check(question, hits, embedder, context, replies=replies)
        if (person := check.person) is not None:
            if check.answerable and (things := unstated(question, person, check.stated, embedder)):
                check.answerable, verb = False, "is" if len(things) == 1 else "are"
                check.reason = ", ".join(f"'{t}'" for t in things) + f" {verb} never said of {person}"
            info = {"person": person, "answerable": check.answerable, "reason": check.reason, "scores": check.scores}
            if not check.answerable and not hypothetical:
                return _abstain(question, check.reason, llm, answerability=info)
            if not check.answerable:  # answered anyway (a judgement): said so
                info.update(answerable=True, reason=f"hypothetical question, answered from the evidence "
                                                    f"about {person} although {check.reason}")
            hits = [h for h in hits if h.id in check.about_person]
        speakers = sorted({h.speaker for h in list(hits) + list(context or []) if h.speaker})
        if person is not None:  # quote only sentences about the person, not every one of their messages
            focus = answerability.strip_people(question, [person]) or None
            about = lambda hit, sent: answerability.sentence_subject(sent, hit.speaker, person, speakers) in (None, person)  # noqa: E731
        subject = person or question_subject(question)  # notes: no sentence about someone else, scored without the name
        if subject:
            on, first = about_subject(subject, speakers), about
            about = on if first is None else lambda hit, sent: first(hit, sent) and on(hit, sent)  # noqa: E731
            rest = strip_name(question, subject)
            if focus is None and answerability.key_terms(rest):
                focus = rest  # "Who is Anthony?" keeps the name: nothing else to score on
    ans = _answer(question, hits, embedder, llm, floor, about, focus, replies, asked)
    ans.answerability = info
    reason = flipped = None  # a typed value's own checks (checks.finish) replace polarity and topic
    if ans.typed is None or asked.kind not in types.VALUE_KINDS:
        reason, flipped = drafted_reason(question, ans, hits, embedder, info is not None, focus, replies,
                                         check_answerability and not hypothetical, check_answerability)
    if reason:
        return _abstain(question, reason, ans=ans, answerability=info, pointers=pointers(all_hits))
    if flipped:
        return _abstain(question, f"the evidence says '{flipped[1]}' where the question says '{flipped[0]}'",
                        ans=ans, answerability=info)
    return finish(question, ans, all_hits, embedder, subject, not hypothetical, asked) if check_answerability else ans


def _abstain(question: str, reason: str, llm=None, ans: Answer | None = None, **fields) -> Answer:
    """A declined answer saying `reason`, with the draft `ans`'s model, mode, fallback and evidence."""
    made = dict(llm=ans.llm, mode=ans.mode, fallback=ans.fallback, evidence=ans.evidence) if ans else \
        dict(llm=getattr(llm, "name", None))
    return Answer(question, f"{NOT_FOUND[:-1]}: abstained, {reason}.", "abstain", problems=[f"abstained: {reason}"],
                  **made, **fields)


def _answer(question: str, hits: list[Hit], embedder, llm, floor: float, about, focus: str | None,
            replies: dict[str, str] | None, asked: QT.Asked) -> Answer:
    """The evidence -> draft -> verifier pipeline of `answer_question` (module doc)."""
    evidence = select_evidence(question, hits, floor, embedder, asked)
    ev_json = [{"n": e.n, "title": e.hit.title, "path": e.hit.path, "page": e.hit.page,
                "chunk_id": e.hit.id, "score": round(e.hit.score, 4)} for e in evidence]
    if not evidence:
        return Answer(question, NOT_FOUND, "abstain", problems=["no evidence above the relevance floor"],
                      llm=getattr(llm, "name", None), mode="extractive")
    fallback = draft = None
    if llm is not None:
        try:
            draft = llm.chat(llm_messages(question, evidence), max_tokens=200, temperature=0.0)
        except Exception as exc:  # LLMError and transport failures: visible fallback
            fallback = f"LLM failed ({type(exc).__name__}: {exc}); extractive answer given instead"
        if draft is not None:
            if draft.strip().upper().startswith("NOT IN NOTES"):
                fallback = "the LLM said the notes do not contain the answer; extractive answer checked instead"
            else:
                ver = verify(draft, evidence)
                if ver.verdict in ("pass", "revise"):
                    return Answer(question, ver.answer_text(True), ver.verdict, citations(ver, evidence),
                                  mode="llm", llm=llm.name, problems=ver.problems, evidence=ev_json)
                fallback = ("the LLM's answer failed verification (" + "; ".join(ver.problems)
                            + "); extractive answer given instead")
    typed = None

    def declined(reason: str) -> Answer:  # no typed value nor passage in the notes found: the nearest notes
        near = pointers(hits)
        return Answer(question, declined_text(reason, near), "abstain", problems=[f"declined: {reason}"],
                      llm=getattr(llm, "name", None), fallback=fallback, evidence=ev_json, pointers=near,
                      checks={"support": False, "type": False, "subject": False, "completeness": True})
    wanted = asked.valued or asked.kind == "list" or asked.kind in types.SOFT_KINDS
    if types.TYPED and wanted and any(e.hit.speaker is None for e in evidence):
        typed = list_draft(question, asked, evidence) if asked.kind == "list" else \
            typed_draft(question, asked, evidence, embedder)
        if typed is not None and (typed.missing_head or typed.missing_subject) and (
                any(e.hit.speaker for e in evidence) or asked.kind in types.SOFT_KINDS):
            typed = None  # no note states it of the thing asked: the sentence answer may
        if typed is None and asked.valued and all(e.hit.speaker is None for e in evidence):
            return declined(f"no {asked.kind} value is written in the notes found")
    drafts = {"procedure": procedure.PROCEDURE and procedure.procedure_draft, "yesno": yesno.YESNO and yesno.yesno_draft}
    if types.TYPED and drafts.get(asked.kind) and any(e.hit.speaker is None for e in evidence):
        typed = drafts[asked.kind](question, asked, evidence, embedder)  # answer/procedure.py, answer/yesno.py
        if typed is None and all(e.hit.speaker is None for e in evidence):
            return declined("no passage of the notes found says how to do what was asked" if asked.kind == "procedure"
                            else "no line of the notes found states what was asked")
    draft = typed.draft if typed is not None else \
        extractive_draft(question, evidence, embedder, about=about, focus=focus, replies=replies, asked=asked) or \
        types.KIND_FREE and asked.sentence_kind and extractive_draft(question, evidence, embedder, about=about, focus=focus,
                                                               replies=replies, asked=replace(asked, sentence_kind=None),
                                                               floor=SENTENCE_FLOOR) or ""
    if len(said := re.findall(r"[^\W\d_]+", (draft or "").lower())) >= 3 and len(set(said)) == 1:
        return declined(f"the passage found only repeats the word '{said[0]}'")  # "buffalo buffalo …" states nothing
    ver = verify(draft, evidence) if draft else Verification(verdict="abstain", problems=["no supporting sentence"])
    if ver.verdict == "abstain":
        return Answer(question, NOT_FOUND, "abstain", mode="extractive", llm=getattr(llm, "name", None),
                      fallback=fallback, problems=ver.problems, evidence=ev_json)
    return Answer(question, ver.answer_text(True), ver.verdict, citations(ver, evidence), mode="extractive",
                  llm=getattr(llm, "name", None), fallback=fallback, problems=ver.problems, evidence=ev_json,
                  typed=typed)
