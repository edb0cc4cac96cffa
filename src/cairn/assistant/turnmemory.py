"""What a conversation gives memory, and when (issues 32 and 39, Salmex S16):

- after every turn, the person's words of that turn go through the grounded extraction
  (`Cairn.extract_transcript`, rules unless `[memory] extract_llm` names a model), so a fact
  told in one chat turn is found by `cairn recall` right after that turn, with its source
  turn ("SESSION#SEQ") and time. A turn whose words a `remember` or `forget` call already
  handled is not extracted again (the explicit call is what the person asked for); the log
  records the skip. The reflection pass stays at the end of a session;
- `cairn chat --new` (Assistant(new=True)) ends the channel's current session first: its
  unextracted words are extracted and the reflection runs, as for `/new`;
- a session's end also brings the entity graph of the notes its turns wrote up to date
  (`catch_up`: the turns leave it for later, cairn.noteops.graph_later).

Both write `extraction` events, so nothing is extracted twice (SessionState.extracted_upto);
a `reflection` event {"upto"} marks what the reflection pass has seen.
"""

from __future__ import annotations

import sqlite3

EXPLICIT = ("remember", "forget")  # tools that already did what extraction would do with the words


def after_turn(bot, res) -> list[str]:
    """Extract the facts of the turn just answered (`res`: its TurnResult). Returns notices
    (empty when nothing was extracted). Nothing in incognito."""
    if bot.incognito or not bot.state.id:
        return []
    if any(c.name in EXPLICIT and c.outcome in ("ran", "pending") for c in res.tool_calls):
        bot.store.append(bot.state.id, {"type": "extraction", "upto": bot.state.last_seq, "reason": "turn",
                                        "facts": 0, "skipped": "the words were remembered or forgotten explicitly"})
        bot.state = bot.store.load(bot.state.id)
        return []
    return bot._extract("turn", reflect=False)


def end_current(bot) -> list[str]:
    """End the current session of the bot's (channel, person), if it has one that is open
    and belongs to the bot's owner: extraction and reflection run on it. Returns notices."""
    from cairn.assistant.sessions import current_key
    if bot.incognito:
        return []
    prev = bot.store.current(bot.channel, current_key(bot.person, bot.owner))
    if not prev or not bot._mine(prev):
        return []
    state = bot.store.load(prev)
    if state.ended:
        return []
    bot.state = state
    return bot.end("new session")


def extract(bot, reason: str, reflect: bool = True) -> list[str]:
    """The grounded extraction of the person's words since the session's last extraction
    (an `extraction` event records it), then, with `reflect`, the reflection pass between
    sessions. Failures are notices, never errors of the turn. Returns notices."""
    from cairn.llm.errors import LLMError
    if bot.incognito:
        return []
    sid = bot.state.id
    log = bot.store.load(sid)  # folded as it grows: the log is not read again (SessionState.unextracted)
    from cairn.assistant.nudge import without_rules  # a stated rule is kept only with the person's word
    msgs = [(f"{sid}#{e['seq']}", without_rules(e.get("text", "")), e.get("at", ""))
            for e in log.unextracted if int(e.get("seq", 0)) > bot.state.extracted_upto]
    if not msgs:  # every turn was extracted as it came: the end still reflects once on what is new
        return _reflect(bot) if reflect and _unreflected(log) else []
    try:
        res = bot.app.extract_transcript(msgs, speaker=bot.person_name())
    except (ValueError, sqlite3.Error, LLMError) as exc:
        return [f"memory extraction ({reason}) failed: {exc}"]
    bot.store.append(sid, {"type": "extraction", "upto": bot.state.last_seq, "reason": reason, **res})
    bot.state = bot.store.load(sid)
    n = res.get("facts", 0)
    if not reflect:
        return [f"{n} fact(s) from this message went to memory"] if n else []
    notes = [f"after the session ({reason}): {n} fact(s) extracted into memory"] if n else []
    return notes + _reflect(bot)


def _unreflected(log) -> bool:
    """Whether the person said anything after the session's last reflection (`log`: its SessionState)."""
    return log.last_user_seq > log.reflected_upto


def _reflect(bot) -> list[str]:
    """The reflection pass between sessions (Cairn.reflect; bounded by its own settings),
    recorded as a `reflection` event. A failure is a notice, never an error of the turn."""
    from cairn.llm.errors import LLMError
    try:
        res = bot.app.reflect()
    except (ValueError, OSError, sqlite3.Error, LLMError) as exc:
        return [f"reflection after the session failed: {exc}"]
    bot.store.append(bot.state.id, {"type": "reflection", "upto": bot.state.last_seq})
    bot.state = bot.store.load(bot.state.id)
    k = len(res.get("items") or [])
    return [f"reflection: {k} observation(s)/expectation(s) noted (see `cairn memories`)"] if k else []


def catch_up(bot) -> list[str]:
    """At a session's end: the entity graph of the notes its turns wrote, which the turns
    left for later (cairn.noteops.graph_later; Cairn.catch_up_notes). A failure is a notice,
    never an error of the turn. Returns notices. Nothing in incognito."""
    if bot.incognito:
        return []
    try:
        bot.app.catch_up_notes()
    except (sqlite3.Error, OSError, ValueError) as exc:
        return [f"updating the notes' entities after the session failed: {exc}"]
    return []

