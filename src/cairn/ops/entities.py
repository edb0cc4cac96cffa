"""The entity graph, the operations of `cairn.service.Cairn` on entities of everything
ingested (issue 17): entity_show, entity_merge, entity_split,
entity_candidates / entity_candidate_answer (merge questions asked of the person, V11). A mixin: `self` is the Cairn.
`entities` and `entity_alias` stay with the memory operations (ops/memory.py)."""

from __future__ import annotations

from cairn import results as R


class EntityOps:
    """Show, merge and split entities (graph/ops.py); merges and splits are mirrored under
    <vault>/_memory/entities so they survive `cairn reindex`."""

    def entity_show(self, name: str) -> R.EntityDetail:
        """One entity with the notes and memories that mention it and its related entities
        (graph/ops.show), as the service's person sees them (graph/view.py). Raises
        InvalidInput for an empty name, NotFound for an unknown one or one that person
        sees no mention of."""
        from cairn.graph.ops import show
        from cairn.graph.view import View
        return R.EntityDetail(show(self.conn, name, view=View.of(self.conn, self.settings.owner)))

    def _entity_seen(self, name: str) -> None:
        """NotFound, worded as for an unknown name, when the service's person (cairn.people)
        sees no note or memory mentioning the entity `name` (nothing for the home's own
        person or a name that is unknown anyway: the operation says so itself)."""
        from cairn.graph.view import View
        from cairn.memory import entities as E
        view = View.of(self.conn, self.settings.owner)
        eid = E.resolve(self.conn, name) if view is not None and name and name.strip() else None
        if eid is not None:
            view.need(eid, name)

    def _entity_edit_allowed(self) -> None:
        """Forbidden for a named person (cairn.people): the entity graph is one for the whole
        home, so a merge, split or alias would change the entities of other people's notes
        (and its NotFound for a name only they mention would tell that it exists). The home's
        own person may edit it."""
        if self.settings.owner is not None:
            from cairn.errors import Forbidden
            raise Forbidden("only the home's own person may merge, split or alias entities: the entity "
                            "graph is shared by everyone in this home")

    def entity_merge(self, keep: str, other: str) -> R.Entity:
        """Merge entity OTHER into KEEP (every name, note mention and memory link); the
        merged entity's mirror file is rewritten and the other's removed. Raises NotFound
        for an unknown name, InvalidInput when both name one entity, Forbidden for a named
        person (`_entity_edit_allowed`)."""
        from cairn.graph.ops import merge
        from cairn.memory import entities as E
        from cairn.memory.mirror import write_entity
        self._entity_edit_allowed()
        gone = E.resolve(self.conn, other)
        ent = merge(self.conn, keep, other)
        write_entity(self.settings.vault, self.conn, ent["id"])
        if gone:
            write_entity(self.settings.vault, self.conn, gone)
        return R.Entity(ent)

    def entity_split(self, name: str, aliases: list[str]) -> R.EntitySplit:
        """Move ALIASES of entity NAME to a new entity named after the first alias, exactly
        as written (graph/ops.split); both are mirrored. Raises NotFound / InvalidInput, and
        Forbidden for a named person (`_entity_edit_allowed`)."""
        from cairn.graph.ops import split
        from cairn.memory.mirror import write_entity
        from cairn.store.locks import exclusive
        self._entity_edit_allowed()
        with exclusive(self.conn, "embed"):  # the graph pass of split runs under the ingest's lock
            res = split(self.conn, name, aliases)
        write_entity(self.settings.vault, self.conn, res["from"]["id"])
        write_entity(self.settings.vault, self.conn, res["to"]["id"])
        return R.EntitySplit({"from": R.Entity(res["from"]), "to": R.Entity(res["to"])})

    def entity_candidates(self, limit: int = 20) -> R.MergeCandidates:
        """Pairs of entities that may be one ("Is X the same as Y?", graph/candidates.py),
        most similar first, at most `limit`; pairs already answered are left out. Forbidden
        for a named person (`_entity_edit_allowed`)."""
        from cairn.graph.candidates import candidates
        from cairn.memory.entities import list_entities
        self._entity_edit_allowed()
        return R.MergeCandidates(candidates(list_entities(self.conn), self.embedder, self.settings.home, limit))

    def entity_candidate_answer(self, pair: str, same: bool) -> R.MergeAnswer:
        """Answer the merge question `pair` (an id from `entity_candidates`): `same` merges
        its less mentioned entity into the other (as `entity_merge`); otherwise the pair is
        remembered and not asked again. Raises NotFound for an id that is not an open question."""
        from cairn.errors import NotFound
        from cairn.graph.candidates import MAX_ENTITIES, remember_answer
        found = next((c for c in self.entity_candidates(MAX_ENTITIES * 4) if c["id"] == pair), None)
        if found is None:
            raise NotFound(f"no open merge question {pair!r} (`cairn entity review` lists them)")
        if same:
            kept = self.entity_merge(found["a"]["name"], found["b"]["name"])
            return R.MergeAnswer(id=pair, answer="yes", kept=dict(kept))
        remember_answer(self.settings.home, pair, "no")
        a = found["a"]
        return R.MergeAnswer(id=pair, answer="no", kept={"id": a["id"], "name": a["name"], "aliases": a["aliases"]})
