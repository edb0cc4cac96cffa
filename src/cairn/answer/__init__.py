"""Answer a question from retrieved evidence, with checked citations.

Pipeline (each check with its reason, the first that fires declines with pointers):
chit-chat (answer/offtopic.py) -> premise (answer/premise.py: a name no note mentions) ->
person check (answer/answerability.py: a chat participant's question answered only from
evidence about them; answer/subject.py: a named subject's question scored without the name)
-> parts (answer/parts.py) -> evidence (chunks over the floor, numbered 1..n) -> draft
(LLM; or typed, answer/typed.py: the value of the asked type, answer/types.py, a list whole;
or extractive: the best supporting sentences) -> verifier (answer/verify.py) -> polarity
(answer/polarity.py) and, for chat quotes, topic (answer/topic.py) -> what was checked
(answer/checks.py: `checks` and the verdict). A hypothetical question ("Would Ana enjoy…?") skips the premise check and is
answered from the sentences about the person. Fail closed: an LLM draft that does not verify
falls back to the extractive answer and says so (`fallback`); with no evidence the reply says
the notes do not contain the answer (verdict "abstain"). Every rule is switched off in turn
by bench/answers_ablation.py.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any

from cairn.answer import answerability, parts, procedure, roles, types, yesno
from cairn.answer.checks import finish, label as verdict_label
from cairn.answer.typed import list_draft, typed_draft
from cairn.answer.offtopic import chit_chat, declined_text, pointers
from cairn.answer.premise import all_names
from cairn.answer.subject import about_subject, both, question_subject, strip_name
from cairn.answer.spans import (_WH_WORD, _clean, _clean_markdown, _short_spans, context_of, is_caption,
                                labelled_answer, linked_lift)
from cairn.answer.tables import table_rows
from cairn.answer.topic import drafted_reason
from cairn.answer.types import fits_answer_type, is_hypothetical
from cairn.lexical import sentences, term_overlap
from cairn.embed.cache import embed_cached
from cairn.answer.verify import Evidence, Verification, citations, verify
from cairn.answer.draft_prompt import ANSWER_SYSTEM, llm_messages  # noqa: F401 (re-exported)
from cairn.model import Hit
from cairn.search.query import ParsedQuery

log = logging.getLogger("cairn.answer")

NOT_FOUND = "Your notes do not contain an answer to this question."
CHIT_CHAT_REPLY = ("That is not a question about your notes. Ask about something you have written down, "
                   "for example: \"when was the boiler last serviced?\"")
MAX_EVIDENCE = 6
SENTENCE_FLOOR = 0.35
# Sentence ranking of extractive_draft (bench/README.md has each one's LoCoMo figures):
# with no sentence over SENTENCE_FLOOR the best one is still quoted if it reaches FALLBACK_FLOOR
# (0.28 -> 0.2 cut wrong abstentions); a further sentence only within PAD_MARGIN of the best's
# rank (issue 13's padding).
FALLBACK_FLOOR = 0.2
PAD_MARGIN = 0.05
# + NAME_BONUS for each word of the question's names (premise.all_names, chat speakers' aside)
# a sentence holds: a name is said once per note, so it cannot be required ("What pet does Tom
# Weber have?" is answered by the sentence naming him and his cat).
NAME_BONUS = 0.05
# Chat sentences rank by their score + HIT_PRIOR x (their message's fused search score - the
# best message's): the search judges which passage answers, the sentence score which sentence.
HIT_PRIOR = 1.0
# An answer from a chat quotes one message (issue 13: the smallest span that answers); notes
# keep further passages within PAD_MARGIN (a linked note answers "where did Marta's team meet?").
ONE_PASSAGE = True
# A chat reply ("It taught me self-acceptance.") rarely repeats the words asked: its sentences
# rank with REPLY_WEIGHT x the score of the question it replies to (the last question sentence
# of the message before it, by someone else), and with REPLY_CONTEXT their term overlap read
# with that wh-question (a yes/no question holds its answer itself). Ranking only.
REPLY_WEIGHT = 0.5
REPLY_CONTEXT = True
# "When" is answered from the candidates over SENTENCE_FLOOR that state a time, if any ("Last Fri
# I took my kids to a pottery workshop"), though a chat message's date qualifies all its sentences.
TIME_STATED = True
# A note's sentences rarely repeat its title and section heading ("Total quoted: 7,350 GBP" under
# "Roof estimate: Carter and Sons"): a candidate gains CONTEXT_WEIGHT x the share of the
# question's terms they hold (a table row: the title), alike for every sentence of one section,
# so the lift picks among notes and sections, never within one; it counts towards the floors.
# 0.4: the weight of a sentence's own shared words (_sentence_score).
CONTEXT_WEIGHT = 0.4


@dataclass
class Answer:
    """A verified answer. citations: dicts with n, source_id, title, path, source, page,
    start, end, quote (start/end: character span of the quote in the note body)."""

    question: str
    answer: str
    verdict: str
    citations: list[dict[str, Any]] = field(default_factory=list)
    mode: str = "extractive"  # extractive | llm
    llm: str | None = None
    fallback: str | None = None  # why an LLM draft was replaced by the extractive answer
    problems: list[str] = field(default_factory=list)
    evidence: list[dict[str, Any]] = field(default_factory=list)
    # the person check (answer/answerability.py): {"person", "answerable", "reason", "scores"},
    # or None when the question names no single chat participant
    answerability: dict[str, Any] | None = None
    # a declined question's nearest notes, best first: [{"title", "path", "source_id"}]
    pointers: list[dict[str, Any]] = field(default_factory=list)
    # what the verdict checked (answer/checks.py): {"support", "type", "subject", "completeness"}
    checks: dict[str, bool] | None = None
    typed: Any = field(default=None, repr=False)  # the typed draft (answer/typed.py), not in the JSON

    @property
    def abstained(self) -> bool:
        return self.verdict == "abstain"

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question, "answer": self.answer, "verdict": self.verdict,
                "citations": self.citations, "mode": self.mode, "llm": self.llm,
                "fallback": self.fallback, "problems": self.problems, "evidence": self.evidence,
                "answerability": self.answerability, "pointers": self.pointers,
                "check": None,  # the model's answer check, removed in session 21: null, kept for clients
                "checks": self.checks, "label": verdict_label(self.verdict, self.checks)}


def relevance(question: str, hit: Hit) -> float:
    """How well a hit supports the question, in [0, 1]: the larger of its cosine
    similarity and the fraction of the question's content terms it contains."""
    overlap = term_overlap(question, f"{hit.title}\n{hit.text}")
    return max(hit.signals.get("semantic", 0.0), 0.9 * overlap)


SENTENCE_READ = 8  # a note's hits sharing a word with the question, read sentence by sentence when under the floor


def sentence_relevance(question: str, hit: Hit, embedder, kind: str | None) -> float:
    """The best cosine between `question` and one sentence of `hit` holding a value of the
    asked `kind` (answer/types.values: "£65" for "how much ...?"); 0.0 without one. ("how much
    do I owe Ffion?" / "It costs £65 each, paid to ... Ffion": the chunk's other lines dilute
    its own cosine; the value keeps a shared name alone from passing.)"""
    sents = [hit.text[a:b] for a, b in sentences(hit.text)]
    sents = [x for x in sents if types.values(kind, x)]
    if not sents:
        return 0.0
    vecs = embed_cached(embedder, [question] + [x[:500] for x in sents])
    return float(max(vecs[1:] @ vecs[0]))


def select_evidence(question: str, hits: list[Hit], floor: float, embedder=None,
                    asked: types.Asked | None = None) -> list[Evidence]:
    """Number the hits whose relevance clears `floor` (best first, at most MAX_EVIDENCE). With
    `embedder`, for a question asking a kind of value (`asked.valued`: money, a phone number,
    a code, a date...), a note's hit under the floor that shares a word with the question (a
    keyword signal; the first SENTENCE_READ such) is kept when its sentence holding such a
    value clears it (`sentence_relevance`): meaning read where the words differ."""
    asked = asked or types.asked(question)
    kept, read = [], 0
    for h in hits:
        ok = relevance(question, h) >= floor
        if not ok and embedder is not None and asked.valued and h.speaker is None \
                and h.signals.get("keyword", 0.0) > 0 and read < SENTENCE_READ:
            read += 1
            ok = sentence_relevance(question, h, embedder, asked.kind) >= floor
        if ok:
            kept.append(h)
    return [Evidence(n=i + 1, text=h.text, offset=h.start, hit=h) for i, h in enumerate(kept[:MAX_EVIDENCE])]


def extractive_draft(question: str, evidence: list[Evidence], embedder, max_sentences: int = 3,
                     about=None, focus: str | None = None, replies: dict[str, str] | None = None,
                     asked: types.Asked | None = None) -> str:
    """The best supporting sentences of the evidence, each cited, best first ("" if none).
    Sentence score = 0.6 * cosine(sentence, question) + 0.4 * question-term overlap, plus the
    lifts and bonuses of the module constants; the best sentence reaching FALLBACK_FLOOR is
    quoted, further ones over SENTENCE_FLOOR within PAD_MARGIN of its rank (ONE_PASSAGE for
    chats). Questions are never quoted; a sentence right after one (same paragraph: "Q: What
    pressure is normal? A: 1.0 to 1.5 bar.") scores the better of itself and the pair.
    replies: {hit id: the message a chat message replies to} (store.graph.replied_to).
    about: optional `(hit, sentence) -> bool`; sentences it rejects are not taken (the person
    check's filter). focus: the text sentences are scored against when not the question (the
    question without the person's name). A "when"/"how much" question only takes sentences
    holding a time or quantity (`asked.sentence_kind`; for "when", a dated chat message's too).
    A sentence needs four words, unless a line labelled with the question's wh-word ("Where:
    Smile Clinic", spans.labelled_answer). asked: the answer type (None: read from `question`)."""
    asked = asked or types.asked(question)
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
            line_start = text.rfind("\n", 0, s) + 1
            if text[line_start:s].lstrip().startswith("#"):
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
            if ((len(re.findall(r"\w+", sent)) >= 4 or labelled_answer(question, sent)) and not sent.endswith((":", ";", ","))
                    and (fits_answer_type(sent, kind) or (kind == "time" and ev.hit.event_time))):
                cands.append((ev.n, sent))
                where[(ev.n, sent)] = context_of(ev.hit, text, s)
    if not cands:
        return ""
    cands = cands[:200]
    vecs = embed_cached(embedder, [focus or question] + [c[1][:1000] for c in cands])
    cos = vecs[1:] @ vecs[0]
    scored = []
    speaker = {ev.n: ev.hit.speaker for ev in evidence}
    fused = {ev.n: ev.hit.score for ev in evidence if ev.hit.speaker}  # chat messages (HIT_PRIOR)
    top = max(fused.values(), default=0.0)
    for (n, sent), c in zip(cands, cos):
        scored.append((_sentence_score(float(c), focus or question, sent), n, sent))
    # the share of the question's terms the sentence's note title and section heading hold
    # (CONTEXT_WEIGHT; alike for every sentence of one section)
    lift = {(n, sent): CONTEXT_WEIGHT * term_overlap(question, where.get((n, sent), "")) for n, sent in cands}
    linked_lift(evidence, lift)
    asks, reply_to = _replied(focus or question, evidence, replies or {}, embedder)
    read_with = {(n, sent): 0.4 * (term_overlap(focus or question, f"{sent} {asks[n]}")  # REPLY_CONTEXT
                                   - term_overlap(focus or question, sent))
                 for n, sent in cands if REPLY_CONTEXT and _WH_WORD.match(asks.get(n, ""))}
    scored = [(score + lift[(n, sent)], n, sent) for score, n, sent in scored]
    # an answer is also scored with the question it answers ("Q: ...? A: ..."); a sentence
    # after a question may not be a candidate (too short, filtered): then there is no pair
    pairs = [(i, f"{asked_before[c]} {c[1]}") for i, c in enumerate(cands) if c in asked_before]
    if pairs:
        pvecs = embed_cached(embedder, [p[:1000] for _, p in pairs])
        for (i, pair), c in zip(pairs, pvecs @ vecs[0]):
            score, n, sent = scored[i]
            scored[i] = (max(score, _sentence_score(float(c), focus or question, pair)), n, sent)
    # An image caption ("[image: a photo of a bowl]") describes a picture someone shared; it
    # states nothing and is quoted only when no sentence that does clears FALLBACK_FLOOR.
    if any(score >= FALLBACK_FLOOR and not is_caption(sent) for score, _, sent in scored):
        scored = [x for x in scored if not is_caption(x[2])]
    speakers = {w.lower() for ev in evidence if ev.hit.speaker for w in re.findall(r"\w+", ev.hit.speaker)}
    names = {w.lower() for name in all_names(question) for w in re.findall(r"\w+", name)} - speakers
    if names:
        scored = [(score + NAME_BONUS * sum(bool(re.search(rf"(?<![\w.]){re.escape(w)}(?!\w)", sent.lower()))
                                            for w in names), n, sent) for score, n, sent in scored]
    if asked.kind in types.CUE_KINDS:  # "what for": a sentence giving a purpose ranks first
        scored = [x for x in scored if x[0] >= SENTENCE_FLOOR and types.states_purpose(x[2], asked.head)] or scored
    if asked.kind == "place" and roles.LOCATIVE and not any(speaker.values()):  # "where", of notes: a sentence saying where first
        scored = [x for x in scored if x[0] >= SENTENCE_FLOOR and roles.says_where(x[2])] or scored
    if kind == "time" and TIME_STATED:
        stated = [x for x in scored if x[0] >= SENTENCE_FLOOR and fits_answer_type(x[2], "time")]
        if stated:
            scored = stated
    def rank(x: tuple[float, int, str]) -> float:
        prior = HIT_PRIOR * (fused[x[1]] - top) if x[1] in fused else 0.0
        return x[0] + prior + REPLY_WEIGHT * reply_to.get(x[1], 0.0) + read_with.get((x[1], x[2]), 0.0)
    # every sentence that may be quoted competes on rank (the best one reaching FALLBACK_FLOOR
    # was always quoted when none reached SENTENCE_FLOOR: what is declined does not change);
    # a further sentence must clear SENTENCE_FLOOR
    eligible = sorted((x for x in scored if x[0] >= FALLBACK_FLOOR), key=lambda x: -rank(x))
    chosen: list[tuple[int, str]] = []
    for x in eligible:
        score, n, sent = x
        if len(chosen) >= max_sentences:
            break
        if chosen and rank(x) < rank(eligible[0]) - PAD_MARGIN:
            break  # a weaker sentence answers something else: no padding (issue 13)
        if chosen and score < SENTENCE_FLOOR:
            continue
        if chosen and ONE_PASSAGE and n != chosen[0][0] and (speaker[n] or speaker[chosen[0][0]]):
            continue  # another chat message: one answering something else
        if any(term_overlap(sent, other) >= 0.8 for _, other in chosen):
            continue  # near-duplicate of a sentence already chosen
        chosen.append((n, sent))
    out = []
    for n, sent in chosen:
        sent = sent.rstrip()
        if not re.search(r"[.!?。]$", sent):
            sent += "."
        out.append(f"{sent} [{n}]")
    return " ".join(out)


def _replied(question: str, evidence: list[Evidence], replies: dict[str, str], embedder
             ) -> tuple[dict[int, str], dict[int, float]]:
    """({evidence n: the question its chat message replies to}, {n: that question's score}):
    the last sentence ending in "?" of `replies[hit id]` (store.graph.replied_to), scored as
    a sentence is (0.6 cosine + 0.4 term overlap)."""
    asks: dict[int, str] = {}
    for ev in evidence:
        prev = replies.get(ev.hit.id) or ""
        qs = [prev[a:b] for a, b in sentences(prev) if prev[a:b].rstrip(" )\"'").endswith("?")]
        if qs:
            asks[ev.n] = _clean(qs[-1])
    if not asks:
        return asks, {}
    vecs = embed_cached(embedder, [question] + [q[:1000] for q in asks.values()])
    return asks, {n: _sentence_score(float(c), question, q) for (n, q), c in zip(asks.items(), vecs[1:] @ vecs[0])}


def _sentence_score(cosine: float, question: str, sentence: str) -> float:
    """How well `sentence` answers `question`: 0.6 x their cosine (given) + 0.4 x the share of
    the question's terms it holds (lexical.term_overlap); both in [0, 1]."""
    return 0.6 * cosine + 0.4 * term_overlap(question, sentence)


def answer_question(question: str, hits: list[Hit], embedder, llm=None, *,
                    floor: float = 0.35, check_answerability: bool = True,
                    context: list[Hit] | None = None, unknown_names: list[str] | None = None,
                    replies: dict[str, str] | None = None, parsed: ParsedQuery | None = None) -> Answer:
    """Answer `question` from `hits` (search results, best first).

    llm: an object with `chat(messages, max_tokens=...) -> str` and `name`, or None for the
    extractive answer; LLM errors and unverifiable drafts fall back to the extractive answer
    (said in `fallback`); nothing here raises for bad model output. check_answerability: the
    checks of the module doc (off: the draft as verified). context: extra hits for the person
    check only (a search without the person's name). unknown_names: names no chunk of the
    index holds (answer/premise.py). replies: {hit id: the text of the message a chat hit
    replies to}. parsed: the question as search parsed it (search/query.py); its
    `answer_type` is used, else read from `question` (each part of a question on its own)."""
    if types.TYPED and check_answerability and len(parts.split(question)) > 1:
        return parts.merge(question, [answer_question(  # each part with the unknown names it holds
            p, hits, embedder, llm, floor=floor, context=context, replies=replies,
            unknown_names=[w for w in unknown_names or [] if w.lower() in p.lower()]) for p in parts.split(question)])
    asked = parsed.answer_type if parsed is not None and parsed.answer_type is not None else types.asked(question)
    about = focus = info = subject = None
    all_hits = hits
    hypothetical = is_hypothetical(question)
    if check_answerability:
        chat_kind = chit_chat(question)
        if chat_kind:
            return Answer(question, CHIT_CHAT_REPLY, "abstain", problems=[f"declined: chit-chat ({chat_kind})"],
                          llm=getattr(llm, "name", None))
        if unknown_names and not hypothetical:
            listed = ", ".join(f"'{n}'" for n in unknown_names)
            return _abstain(question, f"the notes never mention {listed}", llm, pointers=pointers(hits))
        check = answerability.check(question, hits, embedder, context, replies=replies)
        if check.person is not None:
            info = {"person": check.person, "answerable": check.answerable, "reason": check.reason,
                    "scores": check.scores}
            if not check.answerable and hypothetical:
                # answered anyway (a judgement, module doc): say so rather than "not answerable"
                info.update(answerable=True, reason=f"hypothetical question, answered from the evidence "
                                                    f"about {check.person} although {check.reason}")
            if not check.answerable and not hypothetical:
                return _abstain(question, check.reason, llm, answerability=info)
            hits = [h for h in hits if h.id in check.about_person]
        speakers = sorted({h.speaker for h in list(hits) + list(context or []) if h.speaker})
        if check.person is not None:  # quote only sentences about the person, not every one of their messages
            focus, person = answerability.strip_people(question, [check.person]) or None, check.person
            about = lambda hit, sent: answerability.sentence_subject(sent, hit.speaker, person, speakers) in (None, person)  # noqa: E731
        # notes: never quote a sentence about someone else; score without the name
        subject = info["person"] if info else question_subject(question)
        if subject:
            about = both(about, about_subject(subject, speakers))
            rest = strip_name(question, subject)
            if focus is None and answerability.key_terms(rest):
                focus = rest  # "Who is Anthony?" keeps the name: nothing else to score on
    ans = _answer(question, hits, embedder, llm, floor, about, focus, replies, asked)
    ans.answerability = info

    if ans.typed is not None and asked.kind in types.VALUE_KINDS:
        reason = flipped = None  # the typed answer's own checks (checks.finish) replace the topic rules
    else:  # the polarity check and, for chat messages, the topic check of the draft (topic.drafted_reason)
        reason, flipped = drafted_reason(question, ans, hits, embedder, info is not None, focus, replies,
                                         check_answerability and not hypothetical, check_answerability)
    if reason:
        return _abstain(question, reason, ans=ans, answerability=info, pointers=pointers(all_hits))
    if flipped:
        return _abstain(question, f"the evidence says '{flipped[1]}' where the question says '{flipped[0]}'",
                        ans=ans, answerability=info)
    return finish(question, ans, all_hits, embedder, subject, not hypothetical, asked) if check_answerability else ans


def _abstain(question: str, reason: str, llm=None, ans: Answer | None = None, **fields) -> Answer:
    """A declined answer saying `reason` ("...: abstained, REASON."), with the model, mode,
    fallback and evidence of the draft `ans` when there was one; `fields`: more Answer fields."""
    made = dict(llm=ans.llm, mode=ans.mode, fallback=ans.fallback, evidence=ans.evidence) if ans else \
        dict(llm=getattr(llm, "name", None))
    return Answer(question, f"{NOT_FOUND[:-1]}: abstained, {reason}.", "abstain", problems=[f"abstained: {reason}"],
                  **made, **fields)


def _answer(question: str, hits: list[Hit], embedder, llm, floor: float, about=None,
            focus: str | None = None, replies: dict[str, str] | None = None,
            asked: types.Asked | None = None) -> Answer:
    """The evidence -> draft -> verifier pipeline of `answer_question` (module doc)."""
    evidence = select_evidence(question, hits, floor, embedder, asked)
    ev_json = [{"n": e.n, "title": e.hit.title, "path": e.hit.path, "page": e.hit.page,
                "chunk_id": e.hit.id, "score": round(e.hit.score, 4)} for e in evidence]
    if not evidence:
        return Answer(question, NOT_FOUND, "abstain", problems=["no evidence above the relevance floor"],
                      llm=getattr(llm, "name", None), mode="extractive")
    fallback = None
    if llm is not None:
        try:
            draft = llm.chat(llm_messages(question, evidence), max_tokens=200, temperature=0.0)
        except Exception as exc:  # LLMError and transport failures: visible fallback
            fallback = f"LLM failed ({type(exc).__name__}: {exc}); extractive answer given instead"
            draft = None
        if draft is not None:
            if draft.strip().upper().startswith("NOT IN NOTES"):
                ver = None
                fallback = "the LLM said the notes do not contain the answer; extractive answer checked instead"
            else:
                ver = verify(draft, evidence)
                if ver.verdict in ("pass", "revise"):
                    return Answer(question, ver.answer_text(), ver.verdict, citations(ver, evidence),
                                  mode="llm", llm=llm.name, problems=ver.problems, evidence=ev_json)
                fallback = ("the LLM's answer failed verification (" + "; ".join(ver.problems)
                            + "); extractive answer given instead")
    asked, typed = asked or types.asked(question), None
    wanted = asked.valued or asked.kind == "list" or asked.kind in types.SOFT_KINDS
    if types.TYPED and wanted and any(e.hit.speaker is None for e in evidence):
        typed = list_draft(question, asked, evidence) if asked.kind == "list" else \
            typed_draft(question, asked, evidence, embedder)
        if typed is not None and (typed.missing_head or typed.missing_subject) and (
                any(e.hit.speaker for e in evidence) or asked.kind in types.SOFT_KINDS):
            typed = None  # no note states it of the thing asked: the sentence answer may
        if typed is None and asked.valued and all(e.hit.speaker is None for e in evidence):
            reason = f"no {asked.kind} value is written in the notes found"
            near = pointers(hits)
            return Answer(question, declined_text(reason, near), "abstain", problems=[f"declined: {reason}"],
                          llm=getattr(llm, "name", None), fallback=fallback, evidence=ev_json, pointers=near,
                          checks={"support": False, "type": False, "subject": False, "completeness": True})
    drafts = {"procedure": procedure.PROCEDURE and procedure.procedure_draft, "yesno": yesno.YESNO and yesno.yesno_draft}
    if types.TYPED and drafts.get(asked.kind) and any(e.hit.speaker is None for e in evidence):
        typed = drafts[asked.kind](question, asked, evidence, embedder)  # answer/procedure.py, answer/yesno.py
        if typed is None and all(e.hit.speaker is None for e in evidence):
            near = pointers(hits)
            reason = "no passage of the notes found says how to do what was asked" if asked.kind == "procedure" \
                else "no line of the notes found states what was asked"
            return Answer(question, declined_text(reason, near), "abstain", problems=[f"declined: {reason}"],
                          llm=getattr(llm, "name", None), fallback=fallback, evidence=ev_json, pointers=near,
                          checks={"support": False, "type": False, "subject": False, "completeness": True})
    draft = typed.draft if typed is not None else \
        extractive_draft(question, evidence, embedder, about=about, focus=focus, replies=replies, asked=asked)
    ver = verify(draft, evidence) if draft else Verification(verdict="abstain", problems=["no supporting sentence"])
    if ver.verdict == "abstain":
        return Answer(question, NOT_FOUND, "abstain", mode="extractive", llm=getattr(llm, "name", None),
                      fallback=fallback, problems=ver.problems, evidence=ev_json)
    return Answer(question, ver.answer_text(), ver.verdict, citations(ver, evidence), mode="extractive",
                  llm=getattr(llm, "name", None), fallback=fallback, problems=ver.problems, evidence=ev_json,
                  typed=typed)
