"""Fact extraction from conversations: an LLM with schema-constrained JSON, checked against
the source messages, with the rule extractor as the fallback (and the extractor for no LLM).

    from cairn.memory.extract import Message, extract_facts
    res = extract_facts([Message("m1", "Caroline", "I went to a support group yesterday.",
                                 "2023-05-08T13:56")], llm=None)
    res.facts[0].text   # "Caroline went to a support group yesterday (7 May 2023)."
    res.method          # "rules"

LLM path (`llm` is an object with `chat(messages, json_schema=..., max_tokens=...)`, see
cairn.llm): messages go in windows of `window` (default 4), numbered [1]..[n]; the reply must
follow a bounded schema (at most 3 facts of at most 160 characters each, message number in
range) shown once by a few-shot example. A reply that is not valid JSON or breaks the schema
is retried `max_retries` times (default once); then that window falls back to the rules and
the failure is listed in `problems`. An unreachable model (LLMUnavailable) falls back at once
for every window. Every LLM fact must pass `grounding.check` against its cited message (or,
failing that, its window); rejected facts are counted in `stats["rejected"]` and summarised in
`problems`. A window whose reply gave no grounded fact also uses the rules, so a model that
invents everything never yields an empty success.

`method` is "llm" (every window answered by the model), "llm+rules" (some windows fell back)
or "rules". An empty `facts` with no `problems` means the rules genuinely found no
first-person statement; `note` then says so.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from cairn import ner
from cairn.memory import affect, grounding
from cairn.memory.extract_model import KINDS, ExtractedFact, ExtractionResult, Message
from cairn.memory.rules import find_relations, rule_facts
from cairn.errors import InvalidInput

__all__ = ["Message", "ExtractedFact", "ExtractionResult", "extract_facts", "fact_schema"]

LLM_CONFIDENCE = 0.7
MAX_FACTS_PER_WINDOW = 3
MAX_FACT_CHARS = 160
MAX_TOKENS = 400
WINDOW = 4

SYSTEM_PROMPT = (
    "You extract facts about the people in a chat. A fact is one short sentence in the third "
    "person that names the person and states something they said about themselves: what they "
    "did, like, plan, own or who they know. Use only words from the chat. Cite the number of "
    "the message the fact comes from. Reply with JSON only.")

_EXAMPLE_CHAT = ("[1] Ana: I just adopted a puppy named Biscuit!\n"
                 "[2] Tom: Cute! I prefer cats though.")
_EXAMPLE_REPLY = json.dumps({"facts": [
    {"message": 1, "subject": "Ana", "fact": "Ana adopted a puppy named Biscuit.", "kind": "event"},
    {"message": 2, "subject": "Tom", "fact": "Tom prefers cats.", "kind": "preference"}]})


def fact_schema(n_messages: int) -> dict:
    """The JSON schema of one LLM reply for a window of `n_messages` messages (bounded:
    maxItems, maxLength, enum, number range — small models ramble without bounds)."""
    return {
        "type": "object",
        "properties": {"facts": {
            "type": "array", "maxItems": MAX_FACTS_PER_WINDOW,
            "items": {
                "type": "object",
                "properties": {
                    "message": {"type": "integer", "minimum": 1, "maximum": max(1, n_messages)},
                    "subject": {"type": "string", "minLength": 1, "maxLength": 40},
                    "fact": {"type": "string", "minLength": 8, "maxLength": MAX_FACT_CHARS},
                    "kind": {"type": "string", "enum": list(KINDS)},
                },
                "required": ["message", "subject", "fact", "kind"],
                "additionalProperties": False,
            }}},
        "required": ["facts"],
        "additionalProperties": False,
    }


class InvalidReply(InvalidInput):
    """The model's reply does not follow the fact schema (message says where)."""


def parse_reply(text: str, n_messages: int) -> list[dict]:
    """Validate one reply against `fact_schema(n_messages)`; returns the fact items.
    Raises InvalidReply naming the first problem."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidReply(f"not JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("facts"), list):
        raise InvalidReply("no 'facts' list")
    items = data["facts"]
    if len(items) > MAX_FACTS_PER_WINDOW:
        raise InvalidReply(f"{len(items)} facts (at most {MAX_FACTS_PER_WINDOW})")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise InvalidReply(f"facts[{i}] is not an object")
        msg, subject, fact, kind = (item.get(k) for k in ("message", "subject", "fact", "kind"))
        if not isinstance(msg, int) or isinstance(msg, bool) or not 1 <= msg <= n_messages:
            raise InvalidReply(f"facts[{i}].message {msg!r} is not a message number 1..{n_messages}")
        if not isinstance(subject, str) or not subject.strip():
            raise InvalidReply(f"facts[{i}].subject is missing")
        if not isinstance(fact, str) or not fact.strip():
            raise InvalidReply(f"facts[{i}].fact is missing")
        if kind not in KINDS:
            raise InvalidReply(f"facts[{i}].kind {kind!r} is not one of {', '.join(KINDS)}")
    return items


def _prompt(window: list[Message]) -> list[dict]:
    chat = "\n".join(f"[{i}] {m.speaker}: {' '.join(m.text.split())}"
                     for i, m in enumerate(window, 1))
    return [{"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": _EXAMPLE_CHAT},
            {"role": "assistant", "content": _EXAMPLE_REPLY},
            {"role": "user", "content": chat}]


def _ask(llm: Any, window: list[Message], max_retries: int) -> tuple[list[dict] | None, list[str], int]:
    """(items or None on failure, problems, calls made). Raises LLMUnavailable."""
    from cairn.llm.errors import LLMBadResponse, LLMContextOverflow, LLMTimeout
    problems: list[str] = []
    calls = 0
    for attempt in range(max_retries + 1):
        calls += 1
        try:
            reply = llm.chat(_prompt(window), max_tokens=MAX_TOKENS, temperature=0.0,
                             json_schema=fact_schema(len(window)))
            return parse_reply(reply, len(window)), problems, calls
        except InvalidReply as exc:
            problems.append(f"invalid reply (attempt {attempt + 1}): {exc}")
        except (LLMBadResponse, LLMTimeout) as exc:
            problems.append(f"bad reply (attempt {attempt + 1}): {exc}")
        except LLMContextOverflow as exc:
            problems.append(f"prompt too long: {exc}")
            break
    return None, problems, calls


def _window_ids(window: list[Message]) -> str:
    return window[0].id if len(window) == 1 else f"{window[0].id}..{window[-1].id}"


_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'll|I'd|me|my|mine|we|our|us)\b", re.IGNORECASE)


def _ground(item: dict, window: list[Message]) -> tuple[ExtractedFact | None, str]:
    """Keep a model fact only if it is in the third person and grounded in messages about
    its subject: the messages the subject wrote (a speaker) or else is named in. `grounding.check` must pass
    against the cited message (if it is one of those), else against those of them sharing
    the fact's content words (which become its sources)."""
    fact = re.sub(r"\s+", " ", item["fact"]).strip()
    subject = item["subject"].strip()
    if _FIRST_PERSON.search(fact.replace(subject, "")):
        return None, f"{fact!r} (first person, not a fact about a named person)"
    first = fact.split()[0].split("'")[0].strip(",.:;").lower() if fact.split() else ""
    if first != subject.lower() and first in {m.speaker.lower() for m in window}:
        return None, f"{fact!r} (about {fact.split()[0]} but given as a fact about {subject})"
    about = [m for m in window if m.speaker.lower() == subject.lower()]  # a speaker: own words
    if not about:  # a third party: the messages that name them
        about = [m for m in window if subject.lower() in m.text.lower()]
    if not about:
        return None, f"{fact!r} (subject {subject} neither speaks nor is named in these messages)"
    cited = window[item["message"] - 1]
    verdict = None
    if cited in about:
        sources = [cited]
        verdict = grounding.check(fact, subject, [cited.text], [cited.speaker])
    if verdict is None or not verdict.ok:
        keys = {w[:5] for w in grounding.content_words(fact)}
        sources = [m for m in about if keys & {w[:5] for w in grounding.content_words(m.text)}] or about
        verdict = grounding.check(fact, subject, [m.text for m in sources],
                                  sorted({m.speaker for m in sources}))
    if not verdict.ok:
        return None, f"{fact!r} ({verdict.reason()})"
    return ExtractedFact(fact, item["kind"], subject, [m.id for m in sources], [],
                         round(LLM_CONFIDENCE * min(1.0, verdict.overlap + 0.2), 2), "llm",
                         sources[0].time), ""


_NAMED = re.compile(r"(?!\bI(?:'m|'ve|'d|'ll|’m|’ve|’d|’ll)?\b)[A-Z]")  # a capital letter that is not "I", "I'm", ...


def _attach_entities(facts: list[ExtractedFact], messages: list[Message]) -> str:
    """Set each fact's `entities`: its subject, then the named entities (cairn.ner) of its
    source messages that its text holds. Messages without a capital letter (other than "I",
    "I'm", ...) are not read by spaCy: the labels it keeps are proper names, which English
    writes capitalised, so a turn such as "i'm worried about the shed deadline" costs no
    spaCy load (~1.3 CPU s in a fresh process). Returns the NER backend, or "none"."""
    if not facts:
        return "none"
    by_id = {m.id: m for m in messages}
    ids = sorted({i for f in facts for i in f.source_ids if i in by_id and _NAMED.search(by_id[i].text)})
    if not ids:
        for f in facts:
            f.entities = [f.subject] if f.subject else []
        return "none"
    ents = dict(zip(ids, ner.entities_many([by_id[i].text for i in ids])))
    for f in facts:
        names = [f.subject] if f.subject else []
        for i in f.source_ids:
            for e in ents.get(i, []):
                if e.text in f.text and e.text not in names:
                    names.append(e.text)
        f.entities = names
    return ner.backend()


def _attach_weight(facts: list[ExtractedFact], messages: list[Message]) -> None:
    """Set each fact's impact and tags (affect.weigh of its text; a neutral text takes half
    the impact of its source messages, and their tags)."""
    by_id = {m.id: m.text for m in messages}
    for f in facts:
        w = affect.weigh(f.text)
        if not w.impact and not w.tags:
            src = affect.weigh(*(by_id.get(i, "") for i in f.source_ids))
            w = affect.Weight(int(src.impact / 2), src.tags)
        f.impact, f.tags = w.impact, w.tags


def extract_facts(messages: list[Message], llm: Any = None, *, max_retries: int = 1,
                  window: int = WINDOW, with_entities: bool = True) -> ExtractionResult:
    """Facts about the people in `messages` (see module docstring for the whole contract).

    messages: in conversation order. llm: None for rules only, else a cairn.llm model.
    max_retries: extra attempts per window after an invalid reply. window: messages per call.
    with_entities: attach spaCy named entities (loads the model once, lazily).
    Never raises for model failures: they are reported in `problems`.
    """
    t0 = time.perf_counter()
    res = ExtractionResult(method="rules")
    stats = {"messages": len(messages), "windows": 0, "llm_calls": 0, "llm_facts": 0,
             "rejected": 0, "rule_facts": 0, "windows_on_rules": 0}
    relations = find_relations(messages)
    if llm is None or not messages:
        res.facts = rule_facts(messages, relations)
        stats["rule_facts"] = len(res.facts)
    else:
        from cairn.llm.errors import LLMUnavailable
        rejected: list[str] = []
        empty_windows: list[str] = []
        unavailable = False
        for start in range(0, len(messages), max(1, window)):
            win = messages[start:start + window]
            stats["windows"] += 1
            items = None
            if not unavailable:
                try:
                    items, problems, calls = _ask(llm, win, max_retries)
                except LLMUnavailable as exc:
                    unavailable = True
                    res.problems.append(f"LLM unavailable, used the rule-based extractor: {exc}")
                    problems, calls = [], 1
                stats["llm_calls"] += calls
                if items is None and problems:
                    res.problems.append(f"messages {_window_ids(win)}: {'; '.join(problems)}; "
                                        "used the rule-based extractor")
            kept: list[ExtractedFact] = []
            for item in items or []:
                fact, why = _ground(item, win)
                if fact is None:
                    rejected.append(why)
                elif fact.text not in {f.text for f in kept}:
                    kept.append(fact)
            stats["rejected"] += sum(1 for _ in items or []) - len(kept)
            if kept:
                res.facts.extend(kept)
                stats["llm_facts"] += len(kept)
            else:
                if items is not None:
                    empty_windows.append(_window_ids(win))
                fallback = rule_facts(win, relations)
                stats["windows_on_rules"] += 1
                stats["rule_facts"] += len(fallback)
                res.facts.extend(fallback)
        if empty_windows:
            res.problems.append(f"the LLM gave no grounded fact for {len(empty_windows)} window(s) "
                                f"(messages {', '.join(empty_windows[:3])}{', ...' if len(empty_windows) > 3 else ''}); "
                                "used the rule-based extractor there")
        if rejected:
            res.problems.append(f"rejected {len(rejected)} LLM fact(s) not grounded in their source "
                                f"messages, e.g. {rejected[0]}")
        if unavailable or stats["llm_facts"] == 0:
            res.method = "rules"
        elif stats["windows_on_rules"]:
            res.method = "llm+rules"
        else:
            res.method = "llm"
    _attach_weight(res.facts, messages)
    if with_entities:
        stats["ner"] = _attach_entities(res.facts, messages)
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    res.stats = stats
    n = len(res.facts)
    if n:
        res.note = f"{n} fact(s) from {len(messages)} message(s) by {res.method}"
    elif messages:
        res.note = (f"no facts: the rule-based extractor found no first-person statement in "
                    f"{len(messages)} message(s)")
    else:
        res.note = "no messages"
    return res
