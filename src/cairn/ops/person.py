"""The person over time, the operations of `cairn.service.Cairn` on the mood state and the
reflection pass between sessions: mood, reflect (and the mood update run as a side effect of
a session's extraction). A mixin: `self` is the Cairn."""

from __future__ import annotations

from datetime import datetime, timezone

from cairn import results as R


class PersonOps:
    """The mood state and reflection."""

    def mood(self, *, at=None) -> R.MoodState:
        """The mood state of the service's person decayed to `at` (default now;
        context/mood.py); each person has their own (cairn.people.state_dir)."""
        from cairn.context import mood as M
        from cairn.people import state_dir
        now = self._when(at) or datetime.now(timezone.utc)
        return R.MoodState(M.to_json(M.load(state_dir(self.settings.home, self.settings.owner)), now))

    def _update_mood(self, messages: list[tuple[str, str, str]]) -> None:
        """Fold the person's messages (source id, text, ISO time) into the stored mood state,
        in order (the side effect of extraction)."""
        from cairn.context import mood as M
        from cairn.people import state_dir
        folder = state_dir(self.settings.home, self.settings.owner)
        m = M.load(folder)
        before = (m.mood, m.energy, m.at)
        for _sid, text, at in messages:
            if at:
                m.signal(text, at)
        if (m.mood, m.energy, m.at) != before:
            folder.mkdir(parents=True, exist_ok=True)
            M.save(folder, m)

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
        from cairn.people import state_dir
        home, owner = self.settings.home, self.settings.owner
        folder = state_dir(home, owner)  # each person's own reflection state, own sessions
        state = F.load_state(folder)
        out = R.Reflection(ran=False, reason="", method="rules", read={"turns": 0, "tokens": 0}, items=[],
                           dropped=[], problems=[], passes_today=F.passes_today(state, now),
                           daily_cap=int(cfg.reflection_daily))
        if not cfg.reflection:
            out["reason"] = "reflection is off ([assistant] reflection = false)"
            return out
        if out["passes_today"] >= cfg.reflection_daily:
            out["reason"] = f"the daily cap of {cfg.reflection_daily} pass(es) is reached ([assistant] reflection_daily)"
            return out
        turns, upto, tokens = F.recent_turns(home, state["upto"], int(cfg.reflection_tokens), now, owner=owner)
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
        folder.mkdir(parents=True, exist_ok=True)
        F.save_state(folder, state)
        out["ran"] = True
        out["passes_today"] += 1
        out["reason"] = f"read {len(turns)} turn(s), wrote {len(out['items'])} item(s)"
        return out
