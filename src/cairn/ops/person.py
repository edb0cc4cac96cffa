"""The person over time, the operations of `cairn.service.Cairn` on the mood state and the
reflection pass between sessions: mood, reflect (and the mood update run as a side effect of
a session's extraction). A mixin: `self` is the Cairn."""

from __future__ import annotations

from datetime import datetime, timezone

from cairn import results as R


class PersonOps:
    """The mood state and reflection."""

    def mood(self, *, at=None) -> R.MoodState:
        """The mood state of this home decayed to `at` (default now; context/mood.py)."""
        from cairn.context import mood as M
        now = self._when(at) or datetime.now(timezone.utc)
        return R.MoodState(M.to_json(M.load(self.settings.home), now))

    def _update_mood(self, messages: list[tuple[str, str, str]]) -> None:
        """Fold the person's messages (source id, text, ISO time) into the stored mood state,
        in order (the side effect of extraction)."""
        from cairn.context import mood as M
        m = M.load(self.settings.home)
        before = (m.mood, m.energy, m.at)
        for _sid, text, at in messages:
            if at:
                m.signal(text, at)
        if (m.mood, m.energy, m.at) != before:
            M.save(self.settings.home, m)

    def reflect(self, *, llm: str | None = None, at=None) -> R.Reflection:
        """One bounded reflection pass over the person's recent turns (context/reflect.py):
        writes only observation and expectation memories, each grounded in its source
        turns. llm: "none" for the rules, a model spec, or None for `[memory] extract_llm`.
        Respects `[assistant] reflection` (kill switch), `reflection_daily` (passes per UTC
        day) and `reflection_tokens` (tokens read per pass). Never raises for a model
        failure (the rules are used; `problems` says so); ValueError for a bad llm spec."""
        from cairn.context import reflect as F
        from cairn.llm.errors import LLMError
        from cairn.ops.memory import _extraction_llm
        cfg = self.settings.assistant
        now = self._when(at) or datetime.now(timezone.utc)
        home = self.settings.home
        state = F.load_state(home)
        out = R.Reflection(ran=False, reason="", method="rules", read={"turns": 0, "tokens": 0}, items=[],
                           dropped=[], problems=[], passes_today=F.passes_today(state, now),
                           daily_cap=int(cfg.reflection_daily))
        if not cfg.reflection:
            out["reason"] = "reflection is off ([assistant] reflection = false)"
            return out
        if out["passes_today"] >= cfg.reflection_daily:
            out["reason"] = f"the daily cap of {cfg.reflection_daily} pass(es) is reached ([assistant] reflection_daily)"
            return out
        turns, upto, tokens = F.recent_turns(home, state["upto"], int(cfg.reflection_tokens), now)
        out["read"] = {"turns": len(turns), "tokens": tokens}
        if not turns:
            out["reason"] = "nothing new to reflect on"
            return out
        model, problem = _extraction_llm(self.settings, llm)
        if problem:
            out["problems"].append(problem)
        items = None
        if model is not None:
            try:
                items, out["dropped"] = F.model_items(model, turns)
                out["method"] = "llm"
            except LLMError as exc:
                out["problems"].append(f"the model failed ({exc}); used the rules")
        if items is None:
            items = F.rule_items(turns)
        for it in items[:F.MAX_ITEMS]:
            try:
                change = self.remember(it.text, kind=it.type, source="reflection", source_ids=it.sources,
                                       at=now, event_time=it.due)
            except ValueError as exc:
                out["dropped"].append(f"{it.text[:60]!r}: refused by the memory store ({exc})")
                continue
            out["items"].append({"id": change.memory.id, "type": it.type, "text": change.memory.text,
                                 "sources": it.sources, "due": it.due, "action": change.action})
        state["upto"] = upto
        state["passes"] = [*state["passes"], now.isoformat()][-50:]
        F.save_state(home, state)
        out["ran"] = True
        out["passes_today"] += 1
        out["reason"] = f"read {len(turns)} turn(s), wrote {len(out['items'])} item(s)"
        return out
