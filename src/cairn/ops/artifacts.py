"""The artifact store, the operations of `cairn.service.Cairn`: artifact_put, artifacts,
artifact_show, artifact_lineage, artifacts_prune (PRAANA P15, P16; the store is store/artifacts.py). A mixin:
`self` is the Cairn. What the person of the service (`settings.owner`) produced is theirs; a
named person sees only their own artifacts.

Producers: every tool call the assistant runs (its output, from the turn's message and the
turn's earlier outputs: assistant/artifacts.py), `save_conversation` (the transcript) and
`export` (the export file, from the notes it holds).
"""

from __future__ import annotations

from cairn import results as R

TEXT_LIMIT = 20_000  # characters of a text artifact artifact_show returns


class ArtifactOps:
    """Content-addressed artifacts with their lineage."""

    def artifact_put(self, data, **meta) -> R.Artifact:
        """Store `data` (bytes, text or JSON-able) with its production record (meta: kind,
        session, turn, tool, call_id, arguments, inputs, sources; store.artifacts.put);
        returns the record as JSON ({"id", ...})."""
        from cairn.store import artifacts as A
        return R.Artifact(A.put(self.settings.home, data, owner=self.settings.owner, **meta).to_json())

    def artifacts(self, *, session: str | None = None, kind: str | None = None, limit: int = 50) -> R.ArtifactList:
        """Production records, newest first, narrowed by `session` and `kind`, at most `limit`."""
        from cairn.store import artifacts as A
        rows = [r for r in A.records(self.settings.home, self.settings.owner)
                if (session is None or r.session == session) and (kind is None or r.kind == kind)]
        return R.ArtifactList(R.Artifact(r.to_json()) for r in list(reversed(rows))[:max(1, int(limit))])

    def artifacts_prune(self, older_than_days: float = 30.0) -> R.ArtifactsPruned:
        """Remove production records older than `older_than_days` days and the blobs no record
        names any more (every person's: the store is the home's). Raises InvalidInput for a
        negative or non-finite age (nothing removed)."""
        from cairn.store import artifacts as A
        return R.ArtifactsPruned(A.prune(self.settings.home, older_than_days))

    def artifact_show(self, ref: str) -> R.ArtifactShown:
        """{"id", "records" (every production), "media", "size", "content" (the text, at most
        TEXT_LIMIT characters, for text and JSON; None for binary)}. `ref`: an id or a unique
        prefix of 8+ hex digits. Raises InvalidInput (malformed, ambiguous), NotFound."""
        from cairn.store import artifacts as A
        home = self.settings.home
        aid = A.resolve(home, ref, self.settings.owner)
        recs = [r.to_json() for r in A.records(home, self.settings.owner) if r.id == aid]
        raw = A.get(home, aid)
        media = recs[0]["media"]
        text = raw.decode("utf-8", errors="replace")[:TEXT_LIMIT] if (
            media.startswith("text/") or media == "application/json") else None
        return R.ArtifactShown(id=aid, records=recs, media=media, size=len(raw), content=text)

    def artifact_lineage(self, ref: str) -> R.ArtifactLineage:
        """What produced artifact `ref` and from what inputs, recursively
        (store.artifacts.lineage). Raises InvalidInput, NotFound."""
        from cairn.store import artifacts as A
        home = self.settings.home
        return R.ArtifactLineage(A.lineage(home, A.resolve(home, ref, self.settings.owner), self.settings.owner))
