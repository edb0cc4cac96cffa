"""Storage operations of the service: `migrate_store` copies the home's index into a
PostgreSQL store (`cairn migrate --to postgresql://...`). A mixin of cairn.service.Cairn:
`self` has settings and conn (the home's SQLite index)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from cairn.errors import InvalidInput


@dataclass
class MigrateReport:
    """What `migrate_store` moved: target (URL without its password), rows per table
    (verified equal on both sides), seconds taken."""

    target: str
    rows: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"target": self.target, "rows": dict(self.rows), "verified": True,
                "seconds": round(self.seconds, 2)}


def safe_url(url: str) -> str:
    """`url` with any password replaced by ***: postgresql://ana:***@host/db."""
    head, sep, tail = url.rpartition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, user = head.partition("//")
    return f"{scheme}//{user.split(':', 1)[0]}:***@{tail}"


class StoreOps:
    """Moving the index between storage backends."""

    def migrate_store(self, to: str, *, replace: bool = False) -> MigrateReport:
        """Copy this home's index (notes, chunks, keyword rows, vectors, links, tombstones,
        jobs, memories, entities, core blocks, fact keys, vault-copy hashes) into the
        PostgreSQL store at `to` and verify every table's row count. Raises InvalidInput for
        a URL that is not postgresql://, Unavailable when the server cannot be reached,
        Conflict when the target is not empty (unless `replace`) or a count differs
        (nothing is kept then). The SQLite index is left as it was."""
        if not isinstance(to, str) or not to.startswith(("postgresql://", "postgres://")):
            raise InvalidInput(f"--to must be a postgresql:// URL, got {str(to).split('://')[0]!r}")
        from cairn.store.backend import open_postgres
        from cairn.store.postgres.transfer import copy_index
        start = time.monotonic()
        from cairn.store import db
        source = db.connect(self.settings.index_path)  # the home's SQLite index, whatever is configured
        backend = open_postgres(to)
        try:
            rows = copy_index(source, backend, replace=replace)
        finally:
            backend.close()
            source.close()
        return MigrateReport(safe_url(to), rows, time.monotonic() - start)
