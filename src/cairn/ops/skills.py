"""Skills, the operations of `cairn.service.Cairn`: skill_save, skills, skill, skill_rate,
skill_ran, skill_delete, skill_patterns (PRAANA P24, P25; the file is store/skills.py, the
recording and running assistant/skills.py). A mixin: `self` is the Cairn. A named person
(`settings.owner`) sees only their own skills."""

from __future__ import annotations

from cairn import results as R


class SkillOps:
    """Named tool-call sequences with usefulness feedback."""

    def skill_save(self, name: str, session: str, turns: list[int] | None = None, replace: bool = False) -> R.Skill:
        """Record skill `name` from the calls that ran in `turns` of session `session`
        (default: its newest turn that ran any). Raises SessionNotFound, InvalidInput (bad
        name, no calls), Conflict (the name exists and not `replace`)."""
        from cairn.assistant.sessions import SessionStore
        from cairn.assistant.skills import steps_from
        from cairn.store import skills as S
        store = SessionStore(self.settings.home, viewer=self.settings.owner)
        store.load(session)
        steps, used = steps_from(store.events(store.path(session)), turns)
        return R.Skill(S.save(self.settings.home, name, steps, {"session": session, "turns": used},
                              self.settings.owner, replace))

    def skills(self) -> R.SkillList:
        """Every skill, most useful first (store.skills.ranked)."""
        from cairn.store import skills as S
        return R.SkillList(S.ranked(self.settings.home, self.settings.owner))

    def skill(self, name: str) -> R.Skill:
        """Skill `name` with its usefulness. Raises NotFound, InvalidInput."""
        from cairn.store import skills as S
        return R.Skill(S.get(self.settings.home, name, self.settings.owner))

    def skill_rate(self, name: str, helpful: bool) -> R.Skill:
        """Count one "helpful" (True) or "not helpful" (False) vote; returns the skill."""
        from cairn.store import skills as S
        return R.Skill(S.update(self.settings.home, name, self.settings.owner, helpful=helpful))

    def skill_ran(self, name: str) -> R.Skill:
        """Count one run of skill `name`; returns the skill."""
        from cairn.store import skills as S
        return R.Skill(S.update(self.settings.home, name, self.settings.owner, ran=True))

    def skill_delete(self, name: str) -> R.SkillDeleted:
        """Remove skill `name`. Raises NotFound."""
        from cairn.store import skills as S
        S.delete(self.settings.home, name, self.settings.owner)
        return R.SkillDeleted(name=name, deleted=True)

    def skill_patterns(self) -> R.SkillList:
        """Tool sequences that recur across the person's sessions (assistant.skills.patterns)."""
        from cairn.assistant.sessions import SessionStore
        from cairn.assistant.skills import patterns
        return R.SkillList(patterns(SessionStore(self.settings.home, viewer=self.settings.owner), self.settings.owner))
