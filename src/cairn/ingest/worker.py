"""`cairn worker`: consume the ingest job queue from any number of processes, on any number
of machines sharing one PostgreSQL store (or one home's SQLite index).

Each loop turn: jobs whose visibility timeout ran out go back to the queue (their worker died
or hung: `requeue_expired`; a job that used all its attempts goes to the dead letters), one
due job is claimed (`claim_batch`: on PostgreSQL `SELECT ... FOR UPDATE SKIP LOCKED`, so two
workers never take the same job), run by the ingest handlers, its chunks embedded, and only
then marked done (a job reported done has its vectors), or retried later
with exponential back-off (a transient failure, cairn.jobs) or dead-lettered. With no job
left, chunks without vectors are embedded in batches each worker claims for itself (on
PostgreSQL `FOR UPDATE OF chunks SKIP LOCKED`). Delivery is at least once: a job whose worker
dies mid-way runs again after the timeout, and handlers are idempotent by content hash (a
source whose bytes did not change is "unchanged": nothing is written twice).

The embedded default (`cairn ingest`) keeps the in-process queue (cairn.jobs.run_queue).
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field

from cairn.config import Settings
from cairn.report import IngestReport
from cairn.store import jobs as J
from cairn.store.backend import is_postgres


@dataclass
class WorkerReport:
    """What one worker did: worker (host/pid), jobs done (id, outcome), retried (ids),
    dead letters (id, error), reclaimed (ids whose timeout ran out), chunks embedded,
    seconds."""

    worker: str
    done: list[tuple[int, str]] = field(default_factory=list)
    retried: list[int] = field(default_factory=list)
    dead: list[tuple[int, str]] = field(default_factory=list)
    reclaimed: list[int] = field(default_factory=list)
    embedded: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"worker": self.worker, "done": [{"id": i, "outcome": o} for i, o in self.done],
                "retried": list(self.retried), "dead": [{"id": i, "error": e} for i, e in self.dead],
                "reclaimed": list(self.reclaimed), "embedded": self.embedded,
                "seconds": round(self.seconds, 2)}


def worker_identity() -> tuple[int, str]:
    """(pid, owner_start) a worker claims jobs under: owner_start is "host/start ticks", so
    `cairn.jobs.requeue_orphans` on another machine never mistakes it for a dead local pid."""
    from cairn.jobs import _me
    pid, start = _me()
    return pid, f"{socket.gethostname()}/{start}"


def requeue_expired(conn, now: float | None = None) -> list[int]:
    """running -> queued (or dead after max_attempts) for every job whose lease ran out."""
    if is_postgres(conn):
        from cairn.store.postgres.jobs import requeue_expired as pg_requeue
        with conn.session.connection() as pg:
            return pg_requeue(pg, now)
    now = time.time() if now is None else now
    out = []
    for job in J.running(conn):
        if job.lease_until is not None and job.lease_until < now:
            J.requeue(conn, job.id, f"its lease expired (owner pid {job.owner_pid})",
                      dead=job.attempts >= job.max_attempts)
            out.append(job.id)
    return out


def _embed_all(conn, embedder, settings: Settings, embed_some) -> int:
    """Embed chunks without vectors until none this worker can claim is left (the job just
    run wrote some): a job is marked done only once its note is searchable by meaning. A
    failure is the job's (retried like any other). Returns the chunks embedded."""
    total = 0
    while n := embed_some(conn, embedder, settings.chunk.embed_max_chunks, fact_keys=settings.memory.fact_keys,
                          neighbour_keys=settings.memory.neighbour_keys):
        total += n
    return total


def run_worker(conn, settings: Settings, embedder, *, visibility_timeout_s: float, once: bool = False,
               poll_s: float = 1.0, stop: threading.Event | None = None,
               handlers: dict | None = None) -> WorkerReport:
    """Consume the queue until it is empty (`once`) or `stop` is set. handlers: job kind ->
    handler added to the ingest ones ("file", "url"; cairn.ingest.run.job_handlers), for
    plugins' own job kinds. Raises nothing for a
    job's failure (it is recorded on the job); KeyboardInterrupt gives the claimed job back
    (released without spending its attempt) and is re-raised."""
    from cairn.ingest.embedding import embed_some
    from cairn.ingest.run import job_handlers
    from cairn.jobs import PermanentJobError, _describe, backoff_delay, is_transient
    stop = stop or threading.Event()
    pid, start = worker_identity()
    report = WorkerReport(worker=start.split("/")[0] + f"/{pid}")
    t0 = time.monotonic()
    handlers = {**job_handlers(conn, settings, IngestReport()), **(handlers or {})}
    while not stop.is_set():
        report.reclaimed += requeue_expired(conn)
        batch = J.claim_batch(conn, pid, start, visibility_timeout_s, limit=1)
        if batch:
            job = batch[0]
            try:
                handler = handlers.get(job.kind)
                if handler is None:
                    raise PermanentJobError(f"no handler for job kind {job.kind!r}")
                outcome = handler(job)
                report.embedded += _embed_all(conn, embedder, settings, embed_some)
            except (KeyboardInterrupt, SystemExit):
                J.release(conn, [job])
                raise
            except Exception as exc:  # noqa: BLE001 — every failure is recorded on the job
                error = _describe(exc)
                if is_transient(exc) and job.attempts < job.max_attempts:
                    J.mark_retry(conn, job, error, time.time() + backoff_delay(job.attempts, settings.jobs))
                    report.retried.append(job.id)
                else:
                    J.mark_dead(conn, job, error)
                    report.dead.append((job.id, error))
            else:
                if J.mark_done(conn, job, outcome):
                    report.done.append((job.id, outcome))
            continue
        n = embed_some(conn, embedder, settings.chunk.embed_max_chunks, fact_keys=settings.memory.fact_keys,
                                                                        neighbour_keys=settings.memory.neighbour_keys)
        report.embedded += n
        if n:
            continue
        due = J.next_due(conn)
        if once and due is None and not J.counts(conn).get("running"):
            break
        stop.wait(poll_s if due is None else min(poll_s, max(0.0, due - time.time()) + 0.001))
    report.seconds = time.monotonic() - t0
    return report
