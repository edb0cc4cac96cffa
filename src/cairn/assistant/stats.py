"""Per-session figures for `/stats` and `/scorecard` (PRAANA P1, P26), counted from what the
session log already records (sessions.py event types); nothing else is stored, no text.

    stats(events)      {"session", "model", "turns", "tokens": {"in", "out", "total"},
                        "cost": {"usd", "priced"}, "model_calls", "context": {...} | None}
    scorecard(events)  {"session", "turns", "model_calls", "tool_calls": {"total", "by_outcome",
                        "by_tool"}, "compactions", "pressure_events": {"soft", "hard"},
                        "evidence_kept", "memories_in_prompt", "recall_calls", "checkpoints",
                        "approvals": {state: n}}

tokens in / out: the sum of `usage` events' prompt and completion tokens (the provider's
counts, else the estimate the model client made). cost: their US$ sum (assistant/budget.py
prices); `priced` is False when a call went to a remote model with no known price (then the
cost is incomplete and `usd` is None). context: the last `context` event (the pressure of
the session's last prompt: context/pressure.py). compactions: `compaction` events (turns
folded into a summary, or an overflow retry). pressure_events: prompts compiled in the soft
or hard tier. evidence_kept: notes kept in the prompts as evidence, summed over the turns
(the last prompt of a turn counts); memories_in_prompt likewise for memories.
"""

from __future__ import annotations

from collections import Counter


def _last_per_turn(events: list[dict]) -> list[dict]:
    """The last `context` event of each turn (an overflow retry compiles twice)."""
    by_turn: dict[int, dict] = {}
    for e in events:
        if e.get("type") == "context":
            by_turn[int(e.get("turn") or 0)] = e
    return [by_turn[t] for t in sorted(by_turn)]


def _head(events: list[dict]) -> dict:
    start = next((e for e in events if e.get("type") == "start"), {})
    model = start.get("model", "")
    for e in events:
        if e.get("type") == "model_switch":
            model = e.get("model", model)
    turns = max((int(e.get("turn") or 0) for e in events if e.get("type") == "user"), default=0)
    return {"model": model, "turns": turns}


def stats(events: list[dict], session: str = "") -> dict:
    """Tokens, cost and the last prompt's pressure of one session's `events` (module docstring)."""
    usage = [e for e in events if e.get("type") == "usage"]
    t_in = sum(int(e.get("prompt_tokens") or 0) for e in usage)
    t_out = sum(int(e.get("completion_tokens") or 0) for e in usage)
    priced = all(e.get("priced", True) for e in usage)
    usd = round(sum(float(e.get("cost") or 0.0) for e in usage), 6)
    ctx = _last_per_turn(events)
    last = ctx[-1] if ctx else None
    context = None if last is None else {k: last.get(k) for k in ("turn", "tokens", "budget", "raw", "weighted",
                                                                   "tier")}
    return dict(session=session, **_head(events), tokens={"in": t_in, "out": t_out, "total": t_in + t_out},
                cost={"usd": usd if priced else None, "priced": priced}, model_calls=len(usage), context=context)


def scorecard(events: list[dict], session: str = "") -> dict:
    """Counters of one session's `events`: tool calls, compactions, pressure, evidence kept
    (module docstring)."""
    calls = [e for e in events if e.get("type") == "tool_call"]
    results = [e for e in events if e.get("type") == "tool_result"]
    ctx = _last_per_turn(events)
    tiers = Counter(e.get("tier") for e in ctx)
    approvals = Counter(e.get("state") for e in events if e.get("type") == "approval")
    head = _head(events)
    return {"session": session, "turns": head["turns"],
            "model_calls": sum(1 for e in events if e.get("type") == "usage"),
            "tool_calls": {"total": len(calls), "by_outcome": dict(Counter(e.get("outcome") for e in results)),
                           "by_tool": dict(Counter(e.get("name") for e in calls))},
            "compactions": sum(1 for e in events if e.get("type") == "compaction"),
            "pressure_events": {"soft": tiers.get("soft", 0), "hard": tiers.get("hard", 0)},
            "evidence_kept": sum(int(e.get("evidence") or 0) for e in ctx),
            "memories_in_prompt": sum(int(e.get("memories") or 0) for e in ctx),
            "recall_calls": sum(1 for e in calls if e.get("name") == "recall"),
            "checkpoints": sum(1 for e in events if e.get("type") == "session_checkpoint"),
            "approvals": dict(approvals)}


def figures(bot, which: str) -> dict:
    """`which` ("stats" or "scorecard") of the assistant `bot`'s current session: through the
    service (`Cairn.session_stats` / `session_scorecard`), or from memory in incognito."""
    fn = {"stats": stats, "scorecard": scorecard}[which]
    if bot.incognito:
        return fn(bot.store._events.get(bot.state.id, []), bot.state.id)
    return getattr(bot.app, f"session_{which}")(bot.state.id)
