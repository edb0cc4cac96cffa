"""The queue operations of `cairn.service.Cairn` for workers: `enqueue` queues sources
without running them, `work` consumes the queue (`cairn enqueue`, `cairn worker`;
ingest/worker.py). A mixin: `self` is the Cairn (its conn, settings, embedder)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from cairn.errors import InvalidInput

if TYPE_CHECKING:  # the ingest layer (and numpy) only when a worker runs: cold start
    from cairn.ingest.worker import WorkerReport


@dataclass
class QueuedReport:
    """What `enqueue` queued: job ids (in order), and sources refused (failed) or left out
    (skipped) with the reason."""

    jobs: list[int] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"jobs": list(self.jobs), "failed": [{"source": s, "reason": r} for s, r in self.failed],
                "skipped": [{"source": s, "reason": r} for s, r in self.skipped]}


class WorkerOps:
    """Queue sources for workers, and be a worker."""

    def enqueue(self, paths: Iterable[str | Path]) -> QueuedReport:
        """One job per file under `paths` (folders walked) and per URL, queued for `cairn
        worker` processes; nothing is ingested here. Missing paths are reported as failed."""
        from cairn.ingest import is_url
        from cairn.ingest.run import enqueue_sources
        from cairn.report import IngestReport
        sources = [p if isinstance(p, str) and is_url(p) else Path(p).expanduser() for p in paths]
        part = IngestReport()
        ids = enqueue_sources(self.conn, self.settings, sources, part)
        return QueuedReport(ids, list(part.failed), list(part.skipped))

    def work(self, *, visibility_timeout_s: float = 300.0, once: bool = False, poll_s: float = 1.0,
             stop: threading.Event | None = None, handlers: dict | None = None) -> WorkerReport:
        """Consume the job queue (ingest/worker.py) until it is drained (`once`) or `stop`
        is set. visibility_timeout_s: how long a claimed job stays invisible to other
        workers; past it, a job whose worker died is claimed again. Raises InvalidInput for
        a timeout or poll interval that is not positive. handlers: extra job kind ->
        handler (see ingest.worker.run_worker)."""
        if not visibility_timeout_s > 0 or not poll_s > 0:
            raise InvalidInput(f"visibility timeout and poll interval must be positive seconds, "
                               f"got {visibility_timeout_s!r} and {poll_s!r}")
        from cairn.ingest.worker import run_worker
        return run_worker(self.conn, self.settings, self.embedder, visibility_timeout_s=visibility_timeout_s,
                          once=once, poll_s=poll_s, stop=stop, handlers=handlers)
