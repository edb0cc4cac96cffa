"""The job worker: runs queued ingest jobs with retries, back-off and a dead-letter list.

Each source to ingest (a file or a URL) is a row in the `jobs` table (cairn.store.jobs).
`run_queue` claims due jobs one at a time and calls a handler for each:

- the handler returns an outcome ("added", "updated", "unchanged", "skipped: <reason>") ->
  the job is done. Permanent problems with the content (unsupported format, parse error, a
  refused URL) are outcomes, not failures: they are not retried.
- the handler raises a *transient* error (OSError such as a permission or I/O error, SQLite
  busy/locked, a network error or HTTP 5xx/429, a timeout: see `is_transient`) -> the job is
  queued again after an exponential back-off, min(base * 2**(attempts-1), max) seconds
  (the standard capped exponential back-off; no jitter, so tests are deterministic);
  after `max_attempts` attempts it goes to the dead letters.
- the handler raises a `PermanentJobError` or any other exception (a bug in a parser) ->
  dead at once: retrying cannot help, the person sees it in `cairn jobs`.

A crash (kill -9, power loss) leaves the job `running`; `requeue_orphans` (called by every
`run_queue`) puts back jobs whose owner process is gone (pid no longer alive, or alive but a
different process with the same pid) or whose lease expired. The attempt it was on stays
counted, so a source that crashes the process every time ends in the dead letters instead of
crashing every start. Handlers must be idempotent (ingest is: same source -> same note).
"""

from __future__ import annotations

import errno
import os
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Callable

from cairn.config import JobSettings
from cairn.store import jobs as J
from cairn.store.jobs import JobRow
from cairn.errors import InvalidInput

Handler = Callable[[JobRow], str]  # job -> outcome; raises on failure
JobProgress = Callable[[str, int, int], None]


class PermanentJobError(InvalidInput):
    """A failure that retrying cannot fix; the job goes straight to the dead letters."""


@dataclass
class RunResult:
    """What one `run_queue` call did. done: (job, outcome) per finished job; dead: (job,
    last error) per job that went to the dead letters; retries: transient failures retried;
    requeued: orphaned jobs taken back from dead processes."""

    done: list[tuple[JobRow, str]] = field(default_factory=list)
    dead: list[tuple[JobRow, str]] = field(default_factory=list)
    retries: int = 0
    requeued: list[int] = field(default_factory=list)


def is_transient(exc: BaseException) -> bool:
    """True for failures worth retrying later: an exception carrying `transient = True`
    (cairn.fetch network errors), SQLite busy/locked, a lost PostgreSQL connection or a
    serialization conflict, and OSError other than a missing path, a refused permission or a
    read-only file system (FileNotFoundError / NotADirectoryError / IsADirectoryError /
    PermissionError / EROFS are permanent: the file's mode or the mount waits for the person,
    not for time; `cairn jobs retry` once they have fixed it)."""
    flag = getattr(exc, "transient", None)
    if flag is not None:
        return bool(flag)
    if isinstance(exc, sqlite3.OperationalError):
        msg = str(exc).lower()
        return "locked" in msg or "busy" in msg
    if type(exc).__module__.startswith("psycopg") and type(exc).__name__ in (
            "OperationalError", "SerializationFailure", "DeadlockDetected", "PoolTimeout"):
        return True  # PostgreSQL store: connection lost, serialization conflict
    if isinstance(exc, (FileNotFoundError, NotADirectoryError, IsADirectoryError, PermissionError)):
        return False
    if isinstance(exc, OSError) and exc.errno == errno.EROFS:
        return False
    return isinstance(exc, (OSError, TimeoutError, ConnectionError))


def backoff_delay(attempts: int, policy: JobSettings) -> float:
    """Seconds to wait after the `attempts`-th failed attempt (1-based):
    min(backoff_base_s * 2**(attempts-1), backoff_max_s)."""
    return min(policy.backoff_base_s * (2 ** max(0, attempts - 1)), policy.backoff_max_s)


def process_start(pid: int) -> str | None:
    """Start time of process `pid` (clock ticks since boot, from /proc/<pid>/stat field 22),
    or None where /proc is not available or the process does not exist."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read().decode("ascii", "replace")
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: split after it.
    rest = data[data.rfind(")") + 2:].split()
    if len(rest) < 20 or rest[0] == "Z":  # a zombie has exited already
        return None
    return rest[19]


def process_alive(pid: int, start: str | None) -> bool:
    """True if process `pid` runs and (when `start` is known) is the same process that
    recorded `start` — not a later process that reused the pid."""
    if pid <= 0:
        return False
    if os.path.exists("/proc/self/stat"):
        now_start = process_start(pid)
        if now_start is None:
            return False
        return start is None or now_start == start
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


_SELF = (os.getpid(), process_start(os.getpid()))


def _me() -> tuple[int, str | None]:
    global _SELF
    if _SELF[0] != os.getpid():  # forked
        _SELF = (os.getpid(), process_start(os.getpid()))
    return _SELF


def _owner_alive(pid: int, start: str | None) -> bool:
    """Whether a job's owner still runs: a `cairn worker` records "host/start" (ingest/
    worker.py); one on another machine is taken as alive (only its lease can expire)."""
    if start and "/" in start:
        import socket
        host, _, start = start.rpartition("/")
        if host != socket.gethostname():
            return True
    return process_alive(pid, start)


def requeue_orphans(conn: sqlite3.Connection, policy: JobSettings, now: float | None = None) -> list[int]:
    """Put back `running` jobs whose owner died or whose lease expired (jobs of live
    owners, this process included, are left alone unless their lease expired). A job that
    has used all its attempts goes to the dead letters instead. Returns the ids handled."""
    now = time.time() if now is None else now
    me = _me()
    out = []
    for job in J.running(conn):
        owner = (job.owner_pid or 0, job.owner_start)
        expired = job.lease_until is not None and job.lease_until < now
        if owner == me and not expired:
            continue
        if not expired and _owner_alive(*owner):
            continue
        why = (f"the process running it (pid {job.owner_pid}) stopped before it finished"
               if not expired else f"its lease expired (owner pid {job.owner_pid})")
        J.requeue(conn, job.id, why, dead=job.attempts >= job.max_attempts)
        out.append(job.id)
    return out


def run_queue(conn: sqlite3.Connection, handlers: dict[str, Handler], policy: JobSettings, *,
              ids: list[int] | None = None, wait: bool = True,
              progress: JobProgress | None = None,
              sleep: Callable[[float], None] = time.sleep) -> RunResult:
    """Run due jobs until none is left. `handlers` maps a job kind to its handler.

    ids: only these jobs (None = every queued job). wait: when the only jobs left are
    waiting out a back-off, sleep until the next is due (so a command returns with every job
    done or dead); False returns at once. Orphans of dead processes are requeued first.
    Jobs are claimed `policy.batch` at a time (one commit per batch, not per job).
    Raises nothing for a job's failure (it is recorded); KeyboardInterrupt releases the
    jobs claimed but not finished and is re-raised.
    """
    result = RunResult(requeued=requeue_orphans(conn, policy))
    pid, start = _me()
    total = len(ids) if ids is not None else J.counts(conn)["queued"]
    finished = 0
    done: list[tuple[JobRow, str]] = []  # finished jobs, marked done with the next claim
    while True:
        batch = J.claim_batch(conn, pid, start, policy.lease_s, limit=policy.batch, ids=ids, done=done)
        done = []
        if not batch:
            due = J.next_due(conn, ids)
            if due is None or not wait:
                break
            sleep(min(max(0.0, due - time.time()), policy.backoff_max_s) + 0.001)
            continue
        for n, job in enumerate(batch):
            handler = handlers.get(job.kind)
            try:
                if handler is None:
                    raise PermanentJobError(f"no handler for job kind {job.kind!r}")
                outcome = handler(job)
            except (KeyboardInterrupt, SystemExit):
                J.release(conn, batch[n:], done)
                raise
            except Exception as exc:  # noqa: BLE001 — every failure is recorded on the job
                error = _describe(exc)
                transient = is_transient(exc)
                if transient and job.attempts < job.max_attempts:
                    J.mark_retry(conn, job, error, time.time() + backoff_delay(job.attempts, policy))
                    result.retries += 1
                    continue
                if transient:
                    error = f"{error} (gave up after {job.attempts} attempts)"
                J.mark_dead(conn, job, error)
                result.dead.append((job, error))
            else:
                # Written with the next claim (one commit per batch). If the process dies
                # first, the job is requeued and runs again, finding its note unchanged
                # (handlers are idempotent).
                done.append((job, outcome))
                result.done.append((job, outcome))
            finished += 1
            if progress:
                progress("ingest", finished, max(total, finished))
    return result


def _describe(exc: BaseException) -> str:
    """A failed job's error for a person (stored as last_error, shown by `cairn jobs`):
    "cannot read: Permission denied (/data/x.md)" for an OSError ("cannot write: …" for a
    read-only file system, a full disk or quota: only writing fails so), the message of a
    PermanentJobError or transient error, else `parse.errors.describe` — never an
    exception class name."""
    if isinstance(exc, OSError) and exc.strerror:
        where = f" ({exc.filename})" if exc.filename else ""
        verb = "write" if exc.errno in (errno.EROFS, errno.ENOSPC, errno.EDQUOT) else "read"
        return f"cannot {verb}: {exc.strerror}{where}"
    text = str(exc)
    if isinstance(exc, PermanentJobError) or getattr(exc, "transient", None) is not None:
        return text
    from cairn.parse.errors import describe
    return f"failed: {describe(exc)}"
