"""Glue between the assistant's session log and the prompt compiler.

engine_for(...)   the Engine of a session, fed only the log bytes appended since last time
compile_turn(...) one turn's prompt: budget from [assistant] context_tokens, compaction
                  events logged, `<home>/sessions/<id>.why.json` written for `/why`
load_why(...)     that file, for `cairn chat --why --session ID --json`
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from typing import TYPE_CHECKING

from cairn.jsonl import read_appended

if TYPE_CHECKING:
    from cairn.context.compiler import Engine

SUMMARY_PROMPT = ("Summarise these conversation turns in at most 8 short lines. Keep names, numbers, dates, "
                  "decisions and every instruction the person gave (\"not X, use Y\"). Turn numbers in brackets.")


def new_events(store, sid: str, engine: Engine) -> list[dict]:
    """Events of session `sid` the engine has not folded yet (reads only appended bytes)."""
    if hasattr(store, "_events"):  # incognito: in memory
        return [e for e in store._events.get(sid, []) if int(e.get("seq", 0)) > engine.seq]
    path = store.path(sid)
    try:
        size = path.stat().st_size
    except OSError:
        return []
    off = getattr(engine, "offset", 0)
    if size < off:  # rewritten: start over
        engine.__init__(engine.counter, engine.summarise, engine.vectors.embedder if engine.vectors else None)
        off = 0
    if size == off:
        return []
    out, engine.offset = read_appended(path, off, size)  # a torn last line waits
    return out


def engine_for(engine: Engine | None, store, sid: str, summarise=None, model=None, embedder=None,
               owner: str | None = None) -> Engine:
    """`engine` if it belongs to `sid`, else a new one (with `embedder`: turns are also
    scored by meaning, compiler.py); synced with the log either way. `owner`: the person
    (cairn.people) whose stored mood state a new engine starts from."""
    if engine is None or getattr(engine, "sid", None) != sid:
        from cairn.context.compiler import Engine
        from cairn.context.tokens import Counter
        engine = Engine(Counter(model), summarise, embedder)
        engine.sid = sid
        engine.offset = 0
        if not hasattr(store, "_events"):  # the home's mood state (not in incognito)
            from cairn.context import mood as M
            from cairn.people import state_dir
            engine.base_mood = M.load(state_dir(store.dir.parent, owner))
    engine.summarise = summarise
    engine.sync(new_events(store, sid, engine))
    return engine


def model_summariser(model):
    """A summarise(turns) function asking `model` (at most 200 tokens)."""
    def summarise(turns):
        text = "\n".join(f"[{n}] person: {u}\n[{n}] assistant: {a}" for n, u, a in turns)
        comp = model.complete([{"role": "system", "content": SUMMARY_PROMPT}, {"role": "user", "content": text[:12000]}],
                              None, max_tokens=200)
        return (comp.content or "").strip()
    return summarise


def budget_for(cfg, model, schemas_tokens: int) -> int:
    """Prompt tokens available: context_tokens - max_reply_tokens - tool schemas - 32 margin."""
    return max(256, int(cfg.context_tokens) - int(cfg.max_reply_tokens) - schemas_tokens - 32)


def compile_turn(bot, text: str, turn_no: int, model, squeeze: float = 1.0, overflow: str = ""):
    """Compile the prompt of the person's message `text` (turn `turn_no`) for `bot` (an
    Assistant; its `hint`, when set, is the router's understanding, put in the prompt).
    Returns a `cairn.assistant.prompt.Context` whose `.compiled` is the Compiled. (A turn the
    intent router answers compiles nothing: context/routed.py.)"""
    from cairn.assistant import prompt as P
    from cairn.context.person import sections
    embedder = None
    if bot.cfg.semantic_turns:
        try:
            embedder = bot.app.embedder
        except Exception:  # no embedder here: turns are scored by BM25 alone
            embedder = None
    bot._engine = engine_for(bot._engine, bot.store, bot.state.id, bot._summariser(), bot._model, embedder,
                             bot.owner)
    eng = bot._engine
    schemas = 0
    if model.tools_mode in ("native", "json"):
        schemas = eng.counter.count(json.dumps([t.openai_schema() for t in bot.tools.all()], ensure_ascii=False))
    budget = budget_for(bot.cfg, model, schemas)
    if overflow and eng.last is not None:  # the provider's window is smaller than configured
        budget = min(budget, eng.last.total_tokens)
    small = model.tools_mode == "none" or model.name.startswith("embedded")
    try:
        name = bot.person_name()  # one read of the core block `name`
        extra = sections(bot.app, name=name if name != "The person" else "the person")
    except Exception:
        extra = []
    from cairn.assistant.persona import persona_text
    persona = persona_text(bot.app.settings)  # who the assistant speaks as ([persona]): part of the stable prefix
    comp = eng.compile(text, budget=budget, rules=P.RULES + (f"\n\n{persona}" if persona else ""), app=bot.app, recall_k=bot.cfg.recall_k,
                       notes_k=bot.cfg.notes_k if not small else min(2, bot.cfg.notes_k), turn=turn_no,
                       squeeze=squeeze, person_sections=extra, hint=getattr(bot, "hint", None))
    sid = bot.state.id
    for ev in comp.new_compactions:
        bot.store.append(sid, ev)
    if overflow:
        bot.store.append(sid, {"type": "compaction", "reason": "overflow", "error": overflow[:300],
                               "squeeze": squeeze, "tokens": comp.total_tokens})
    if (comp.pressure or {}).get("tier") == "hard" and getattr(eng, "tier", None) != "hard":
        from cairn.context.checkpoint import write  # the hard threshold crossed: keep where things stand
        write(bot.store, sid, "pressure")
    eng.tier = (comp.pressure or {}).get("tier")
    record_context(bot.store, sid, turn_no, comp)
    eng.sync(new_events(bot.store, sid, eng))
    save_why(bot.store, sid, comp.why())
    kinds = {"memory": "memory", "note": "note", "core": "core", "rules": "rules"}
    units = [P.PromptUnit(kinds.get(u.kind, u.kind), u.id if u.kind != "note" else u.note.hit.note_id, u.text, u.why,
                          untrusted=u.untrusted) for u in comp.units()]
    ctx = P.Context(comp.system, units, comp.evidence, comp.untrusted)
    ctx.compiled = comp
    return ctx


def record_context(store, sid: str, turn_no: int, comp) -> dict:
    """Log a `context` event for the prompt `comp` compiled for turn `turn_no`: {"turn",
    "tokens", "budget", "raw", "weighted", "tier", "evidence" (notes kept), "memories"
    (memories kept), "dropped"} (the figures `/stats` and `/scorecard` count:
    assistant/stats.py). Returns the stored event."""
    from cairn.context.memband import KINDS
    pr = comp.pressure or {}
    return store.append(sid, {"type": "context", "turn": turn_no, "tokens": comp.total_tokens, "budget": comp.budget,
                              "raw": pr.get("raw"), "weighted": pr.get("weighted"), "tier": pr.get("tier"),
                              "evidence": len(comp.evidence),
                              "memories": sum(1 for u in comp.bands.get("memories", []) if u.kind in KINDS),
                              "dropped": len(comp.dropped)})


def _why_path(store, sid: str) -> Path | None:
    if hasattr(store, "_events") or not sid:
        return None
    return store.path(sid).with_suffix(".why.json")


def save_why(store, sid: str, why: dict) -> None:
    path = _why_path(store, sid)
    if path is None:
        return
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(why, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def load_why(store, sid: str) -> dict:
    """The `/why` JSON of the session's last prompt (empty bands when none was compiled), with
    "understanding" (each turn's understanding: intents, scores, slots, what a pronoun or an
    ellipsis was resolved to) and "conversation" (the state follow-ups resolve against), see
    cairn.assistant.nlu.state."""
    from cairn.assistant.nlu import state as NS
    path = _why_path(store, sid)
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path else {}
    except (OSError, ValueError):
        data = {"budget": 0, "total_tokens": 0, "bands": []}
    data["understanding"] = NS.turns_of(store, sid)
    data["conversation"] = NS.load(store, sid).to_json()
    return data
