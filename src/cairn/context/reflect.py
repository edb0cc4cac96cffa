"""Reflection between sessions: a bounded pass over what the person said recently, which may
write only typed observations and expectations, each grounded in the turns it came from.

    report = reflect(app, now=now)      # the service's `Cairn.reflect` calls this
    report["items"]  -> [{"id", "type", "text", "sources", "action", "due"}]

What a pass reads: the person's turns (`user` events) of the last LOOKBACK_DAYS in every
assistant session of theirs under `<home>/sessions/` not reflected on yet (per session, the
last seq read is kept in `<home>/reflection.json`, `<home>/people/NAME/reflection.json` for
a named person of cairn.people), oldest first until `[assistant]
reflection_tokens` tokens (tokens.estimate); what did not fit is read by the next pass. A turn
whose words asked the assistant for a write it proposed (a `tool_call` of a tool in WRITES:
"remind me on Saturday to ...", "remember that ...") is skipped: the reminder or memory is what
the person asked for, and an expectation quoting the request would outlive a `forget`.

What it may write (nothing else; it never calls a tool, schedules an action, writes a note
or edits a core block — its bound on core blocks is zero edits):

- `observation` memories: something the person keeps bringing up, or keeps sounding a certain
  way about;
- `expectation` memories: something dated ahead that the person will likely bring up, with
  its due time (`event_time`), rendered in the prompt as "what I'm expecting".

At most MAX_ITEMS per pass; each is stored with `source` "reflection" and `source_ids` the
turns ("SESSION#SEQ") that support it, so `cairn memories` lists it and `cairn forget ID`
removes it like any memory.

How: without a model (the default), by rules (deterministic: the same turns give the same
items): a turn with a date ahead of when it was said becomes an expectation; a content word
said in at least RECUR distinct turns becomes an observation; at least RECUR turns carrying
the same mood (context/mood.py) become one. With a model (`llm`), it is asked for at most
MAX_ITEMS items in a bounded JSON schema, each citing turn numbers; an item is kept only if
its cited turns exist and support its words (memory.grounding.check, the test extraction
uses); unsupported items are dropped and counted.

Fences: `[assistant] reflection` false is the kill switch (nothing read or written);
`reflection_daily` passes at most per UTC day (a pass with nothing new to read does not
count); `reflection_tokens` bounds what one pass reads (and, with a model, its reply is
bounded by MAX_REPLY_TOKENS).
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter as Tally
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from cairn.context.mood import MOODS
from cairn.context.tokens import estimate
from cairn.people import same_person

ITEM_TYPES = ("observation", "expectation")
MAX_ITEMS = 5
LOOKBACK_DAYS = 7
RECUR = 3
MAX_REPLY_TOKENS = 400
STATE_FILE = "reflection.json"
WRITES = frozenset({"remember", "forget", "remind", "reminder_cancel", "reminder_snooze", "create_note", "update_note",
                    "rename_note", "delete_note"})  # a turn that asked for one of these was a request, not news
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")
_COMMON = frozenset("""about after again also always because been before being could didn't doesn't
don't every from going have here just know like little maybe more much need really should since
some still than that that's their them then there these they thing things think this those today
tomorrow want what when where which while will with would yeah yesterday your you're week weeks
month months year years next last time good great okay sure thanks thank right feel feels felt
make made take took tell told said says come came went well back down over very even into only
other people person getting gonna wanna kind sort pretty lots something anything nothing""".split())

# Words of reflecting itself ("keeps coming up", "seems worried about"), not claims about
# the turns: left out of the grounding check, which every other content word must pass.
_META = frozenset("""keep keeps kept coming comes come up again often repeatedly seems seem seemed
sounds sounded mentioned mentions mention talks talked talking brought bring brings likely may
might will expect expects expecting expected soon lately recently person person's they their
them""".split())

SYSTEM_PROMPT = (
    "You reflect on what a person said to their assistant. Write at most {n} short items of two "
    "types: \"observation\" (something they keep coming back to or how they seem) and "
    "\"expectation\" (something ahead they will likely bring up, with its date if known). Use "
    "only words from the turns and cite the turn numbers each item comes from. Do not suggest "
    "actions. Reply with JSON only.")


@dataclass
class Turn:
    """One turn of the person: `id` "SESSION#SEQ", `text`, `at` (ISO time)."""

    id: str
    text: str
    at: str


@dataclass
class Item:
    """A reflection result before it is stored: `type` (ITEM_TYPES), `text`, `sources` (turn
    ids), `due` (ISO time for an expectation, else None)."""

    type: str
    text: str
    sources: list[str]
    due: str | None = None
    extra: dict = field(default_factory=dict)


# -- state --------------------------------------------------------------------------------
def load_state(home: Path) -> dict:
    """{"upto": {session id: last seq read}, "passes": [ISO times of passes]} (empty when the
    file is missing or unreadable: a pass then reads from the beginning)."""
    try:
        data = json.loads((Path(home) / STATE_FILE).read_text(encoding="utf-8"))
        if isinstance(data, dict):
            return {"upto": dict(data.get("upto") or {}), "passes": list(data.get("passes") or [])}
    except (OSError, ValueError):
        pass
    return {"upto": {}, "passes": []}


def save_state(home: Path, state: dict) -> None:
    """Write the state atomically (a temporary file, then rename)."""
    path = Path(home) / STATE_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def passes_today(state: dict, now: datetime) -> int:
    """Passes recorded on `now`'s UTC day."""
    day = now.astimezone(timezone.utc).date().isoformat()
    return sum(1 for p in state["passes"] if str(p)[:10] == day)


# -- reading ------------------------------------------------------------------------------
def recent_turns(home: Path, upto: dict, token_limit: int,
                 now: datetime | None = None, owner: str | None = None) -> tuple[list[Turn], dict, int]:
    """(turns in time order, new upto, tokens read): the person's turns after `upto` and
    within LOOKBACK_DAYS of `now` in every session log of `owner` (cairn.people: the start
    event's "owner"; None: the home's own sessions, which have none), oldest first until
    `token_limit` tokens (at least one turn, cut to the limit)."""
    from datetime import timedelta
    since = ((now or datetime.now(timezone.utc)) - timedelta(days=LOOKBACK_DAYS)).astimezone(timezone.utc)
    from cairn.assistant.sessions import SessionStore
    store = SessionStore(home)
    found: list[Turn] = []
    last: dict[str, int] = {}
    if store.dir.is_dir():
        for path in sorted(store.dir.glob("*.jsonl")):
            sid = path.stem
            events = store.events(path)
            handled = {str(e.get("turn")) for e in events if e.get("type") == "tool_call" and e.get("name") in WRITES}
            for e in events:
                if e.get("type") == "start" and not same_person(e.get("owner"), owner):
                    break  # another person's session
                seq = int(e.get("seq", 0))
                if e.get("type") == "user" and str(e.get("turn")) in handled:
                    last[sid] = max(last.get(sid, 0), seq)  # a request the assistant carried out: read, not reflected on
                    continue
                if e.get("type") == "user" and seq > int(upto.get(sid, 0)) and (e.get("text") or "").strip():
                    if _utc(e.get("at", "")) >= since:
                        found.append(Turn(f"{sid}#{seq}", e["text"], e.get("at", "")))
    found.sort(key=lambda t: _utc(t.at))
    turns, used = [], 0
    for t in found:
        n = estimate(t.text)
        if used + n > token_limit and turns:
            break
        if n > token_limit:  # one over-long turn: read its beginning only
            t = Turn(t.id, t.text[: max(1, token_limit) * 3], t.at)
            n = estimate(t.text)
        turns.append(t)
        used += n
    new = dict(upto)
    for t in turns:
        sid, _, seq = t.id.rpartition("#")
        last[sid] = max(last.get(sid, 0), int(seq))
    new.update({s: max(int(new.get(s, 0)), q) for s, q in last.items()})
    return turns, new, used


def _utc(at: str) -> datetime:
    """An ISO time as an aware UTC datetime (naive = UTC); the epoch when unreadable."""
    try:
        t = datetime.fromisoformat(str(at).replace("Z", "+00:00"))
    except ValueError:
        return datetime(1970, 1, 1, tzinfo=timezone.utc)
    return (t if t.tzinfo else t.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)


# -- rules ----------------------------------------------------------------------------------
def _sentence(text: str, start: int) -> str:
    """The sentence of `text` around character `start`, collapsed, at most 160 characters."""
    parts = re.split(r"(?<=[.!?])\s+|\n+", text)
    pos = 0
    for p in parts:
        if pos + len(p) >= start:
            return " ".join(p.split())[:160]
        pos += len(p) + 1
    return " ".join(text.split())[:160]


def rule_items(turns: list[Turn]) -> list[Item]:
    """Expectations (dated ahead), then observations (recurring words, recurring mood); see
    the module docstring. Deterministic."""
    from cairn.memory.temporal import parse_time, resolve_event_time
    out: list[Item] = []
    for t in turns:
        try:
            said = parse_time(t.at)
        except ValueError:
            continue
        for sent in re.split(r"(?<=[.!?])\s+|\n+", t.text):
            if sent.strip().endswith("?"):
                continue
            due, _ = resolve_event_time(sent, said)
            if not due:
                continue
            try:
                when = parse_time(due)
            except ValueError:
                continue
            if when.date() > said.date():
                quote = " ".join(sent.split())[:160].rstrip(".!")
                out.append(Item("expectation", f"The person may bring this up around {due[:10]}: \"{quote}\"",
                                [t.id], due))
                break
    words: dict[str, list[Turn]] = {}
    for t in turns:
        for w in dict.fromkeys(w.lower().strip("'-") for w in _WORD.findall(t.text)):
            if w not in _COMMON and len(w) >= 4:
                words.setdefault(w, []).append(t)
    top = sorted(((len(ts), w) for w, ts in words.items() if len(ts) >= RECUR), key=lambda x: (-x[0], x[1]))
    for n, w in top[:2]:
        ts = words[w]
        out.append(Item("observation", f"The person keeps coming back to \"{w}\" ({n} messages lately).",
                        [t.id for t in ts][-5:]))
    moods = Tally()
    by_mood: dict[str, list[Turn]] = {}
    for t in turns:
        low = t.text.lower()
        for m, rx in MOODS.items():
            if re.search(rx, low):
                moods[m] += 1
                by_mood.setdefault(m, []).append(t)
    for m, n in moods.most_common(1):
        if n >= RECUR:
            out.append(Item("observation", f"The person has sounded {m} in {n} recent messages.",
                            [t.id for t in by_mood[m]][-5:]))
    return out[:MAX_ITEMS]


# -- a model ----------------------------------------------------------------------------------
def item_schema(n_turns: int) -> dict:
    """The JSON schema of one model reply (bounded: at most MAX_ITEMS items, short texts,
    turn numbers in 1..n_turns)."""
    return {"type": "object", "required": ["items"], "additionalProperties": False,
            "properties": {"items": {"type": "array", "maxItems": MAX_ITEMS, "items": {
                "type": "object", "additionalProperties": False, "required": ["type", "text", "turns"],
                "properties": {"type": {"type": "string", "enum": list(ITEM_TYPES)},
                               "text": {"type": "string", "minLength": 8, "maxLength": 200},
                               "turns": {"type": "array", "minItems": 1, "maxItems": 5,
                                         "items": {"type": "integer", "minimum": 1, "maximum": max(1, n_turns)}}}}}}}


def model_items(llm, turns: list[Turn]) -> tuple[list[Item], list[str]]:
    """(grounded items, reasons items were dropped) from `llm` (cairn.llm: chat(messages,
    json_schema=, max_tokens=)). Raises the model's LLMError when it fails or replies badly
    (the caller falls back to the rules)."""
    from cairn.llm.errors import LLMBadResponse
    from cairn.memory import grounding
    from cairn.memory.temporal import parse_time, resolve_event_time
    chat = "\n".join(f"[{i}] {' '.join(t.text.split())}" for i, t in enumerate(turns, 1))
    reply = llm.chat([{"role": "system", "content": SYSTEM_PROMPT.format(n=MAX_ITEMS)},
                      {"role": "user", "content": chat}],
                     max_tokens=MAX_REPLY_TOKENS, temperature=0.0, json_schema=item_schema(len(turns)))
    try:
        data = json.loads(reply)
        raw = data["items"]
        if not isinstance(raw, list):  # not `assert`: `python -O` leaves asserts out
            raise TypeError(f"items is a {type(raw).__name__}, not a list")
    except (ValueError, KeyError, TypeError) as exc:
        raise LLMBadResponse(f"reflection reply is not the JSON asked for: {exc}") from None
    kept, dropped = [], []
    for it in raw[:MAX_ITEMS]:
        if not isinstance(it, dict):
            dropped.append("not an object")
            continue
        typ, text, cited = it.get("type"), " ".join(str(it.get("text") or "").split()), it.get("turns") or []
        idx = [n for n in cited if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= len(turns)]
        if typ not in ITEM_TYPES or not text or not idx:
            dropped.append(f"{text[:60]!r}: bad type or no valid turn cited")
            continue
        src = [turns[n - 1] for n in dict.fromkeys(idx)]
        claim = " ".join(w for w in text.split() if w.lower().strip(".,;:!\"'") not in _META)
        verdict = grounding.check(claim, "", [t.text for t in src], ["person"])
        if not verdict.ok:
            dropped.append(f"{text[:60]!r}: not supported by turns {idx} ({verdict.reason()})")
            continue
        due = None
        if typ == "expectation":
            try:
                due = resolve_event_time(" ".join(t.text for t in src), parse_time(src[-1].at))[0]
            except ValueError:
                due = None
        kept.append(Item(typ, text, [t.id for t in src], due))
    return kept, dropped
