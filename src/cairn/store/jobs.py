"""Rows of the persistent job queue (`jobs` table, migration 4).

A job is one source to ingest (a file path or a URL). There is at most one row per
(kind, source): enqueuing a source that has a row already re-arms that row instead of adding
a duplicate. States::

    queued --claim--> running --finish--> done
       ^                 |  \\--fail (transient, attempts left)--> queued (next_attempt_at later)
       |                 \\----fail (permanent / attempts used up)--> dead   (the dead-letter list)
       +------ requeue_dead (`cairn jobs retry`) / requeue_orphans (owner died) ------+

Times are unix seconds (float). `owner_pid` + `owner_start` name the process that claimed a
running job, `lease_until` bounds how long the claim holds. This module only reads and writes
rows; the policy (back-off, what is transient) lives in `cairn.jobs`.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from cairn.store.notes import transaction

STATES = ("queued", "running", "done", "dead")


@dataclass
class JobRow:
    """One job. payload: JSON-decoded dict; times in unix seconds (None when unset)."""

    id: int
    kind: str
    source: str
    payload: dict[str, Any]
    state: str
    attempts: int
    max_attempts: int
    next_attempt_at: float
    last_error: str | None
    outcome: str | None
    owner_pid: int | None
    owner_start: str | None
    lease_until: float | None
    created_at: float
    updated_at: float
    finished_at: float | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> "JobRow":
        d = dict(row)
        d["payload"] = json.loads(d["payload"] or "{}")
        return cls(**d)

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def enqueue(conn: sqlite3.Connection, kind: str, source: str, payload: dict[str, Any], *,
            max_attempts: int, now: float | None = None) -> tuple[int, bool]:
    """Queue `source` for ingest. Returns (job id, created) where created is False when a
    row for (kind, source) existed: a queued or running one is left alone (no duplicate
    pending job); a done or dead one is re-armed (state queued, attempts 0, error cleared).
    Runs inside the caller's transaction when one is open (many enqueues, one commit)."""
    now = time.time() if now is None else now
    if conn.in_transaction:
        return _enqueue(conn, kind, source, payload, max_attempts, now)
    with transaction(conn):
        return _enqueue(conn, kind, source, payload, max_attempts, now)


def _enqueue(conn: sqlite3.Connection, kind: str, source: str, payload: dict[str, Any],
             max_attempts: int, now: float) -> tuple[int, bool]:
    row = conn.execute("SELECT id, state FROM jobs WHERE kind = ? AND source = ?",
                       (kind, source)).fetchone()
    if row is None:
        cur = conn.execute(
            """INSERT INTO jobs(kind, source, payload, state, max_attempts, next_attempt_at,
                                created_at, updated_at) VALUES (?, ?, ?, 'queued', ?, ?, ?, ?)""",
            (kind, source, json.dumps(payload), max_attempts, now, now, now))
        return int(cur.lastrowid), True
    if row["state"] in ("done", "dead"):
        conn.execute(
            """UPDATE jobs SET state = 'queued', payload = ?, attempts = 0, max_attempts = ?,
                   next_attempt_at = ?, last_error = NULL, outcome = NULL, owner_pid = NULL,
                   owner_start = NULL, lease_until = NULL, updated_at = ?, finished_at = NULL
               WHERE id = ?""", (json.dumps(payload), max_attempts, now, now, row["id"]))
    return int(row["id"]), False


def claim_batch(conn: sqlite3.Connection, pid: int, start: str | None, lease_s: float, *,
                limit: int = 1, now: float | None = None, ids: list[int] | None = None,
                done: list[tuple[JobRow, str]] | None = None) -> list[JobRow]:
    """Atomically take up to `limit` due queued jobs (next_attempt_at <= now), oldest first:
    state running, attempts + 1, owner and lease set. `ids` limits the choice to those
    jobs. A job that was tried before (attempts > 0: it failed, or its process died) is
    taken alone, so a source that crashes the process cannot drag a whole batch into the
    dead letters. done: (job, outcome) pairs of finished jobs, marked done in the same
    transaction (one commit per batch). Returns [] when no job is due."""
    now = time.time() if now is None else now
    with transaction(conn):
        for job, outcome in done or ():
            _mark_done_in_tx(conn, job, outcome)
        where = "state = 'queued' AND next_attempt_at <= ?"
        args: list[Any] = [now]
        if ids is not None:
            if not ids:
                return []
            where += f" AND id IN ({','.join('?' * len(ids))})"
            args.extend(ids)
        rows = conn.execute(f"SELECT id, attempts FROM jobs WHERE {where} "
                            f"ORDER BY next_attempt_at, id LIMIT {max(1, int(limit))}", args).fetchall()
        take = []
        for r in rows:
            if r["attempts"] > 0:
                if not take:
                    take.append(int(r["id"]))
                break
            take.append(int(r["id"]))
        if not take:
            return []
        marks = ",".join("?" * len(take))
        conn.execute(
            f"""UPDATE jobs SET state = 'running', attempts = attempts + 1, owner_pid = ?,
                    owner_start = ?, lease_until = ?, updated_at = ? WHERE id IN ({marks})""",
            (pid, start, now + lease_s, now, *take))
        found = {r["id"]: JobRow.from_row(r) for r in conn.execute(
            f"SELECT * FROM jobs WHERE id IN ({marks})", take)}
        return [found[i] for i in take]


def claim_next(conn: sqlite3.Connection, pid: int, start: str | None, lease_s: float,
               now: float | None = None, ids: list[int] | None = None) -> JobRow | None:
    """claim_batch with limit 1: the job taken, or None when no job is due."""
    got = claim_batch(conn, pid, start, lease_s, limit=1, now=now, ids=ids)
    return got[0] if got else None


def _finish_in_tx(conn: sqlite3.Connection, job: JobRow, sets: str, args: tuple) -> bool:
    cur = conn.execute(
        f"UPDATE jobs SET {sets}, owner_pid = NULL, owner_start = NULL, lease_until = NULL, "
        f"updated_at = ? WHERE id = ? AND state = 'running' AND owner_pid IS ? AND attempts = ?",
        (*args, time.time(), job.id, job.owner_pid, job.attempts))
    return cur.rowcount == 1


def _finish(conn: sqlite3.Connection, job: JobRow, sets: str, args: tuple) -> bool:
    """Update a running job we own; False if it was taken from us (requeued meanwhile)."""
    with transaction(conn):
        return _finish_in_tx(conn, job, sets, args)


_DONE = "state = 'done', outcome = ?, last_error = NULL, finished_at = ?"


def _mark_done_in_tx(conn: sqlite3.Connection, job: JobRow, outcome: str) -> bool:
    return _finish_in_tx(conn, job, _DONE, (outcome, time.time()))


def mark_done(conn: sqlite3.Connection, job: JobRow, outcome: str) -> bool:
    """running -> done with `outcome` ("added", "skipped: <reason>", ...)."""
    return _finish(conn, job, _DONE, (outcome, time.time()))


def mark_retry(conn: sqlite3.Connection, job: JobRow, error: str, next_attempt_at: float) -> bool:
    """running -> queued again, due at `next_attempt_at`, remembering `error`."""
    return _finish(conn, job, "state = 'queued', last_error = ?, next_attempt_at = ?",
                   (error, next_attempt_at))


def mark_dead(conn: sqlite3.Connection, job: JobRow, error: str) -> bool:
    """running -> dead (the dead-letter list), with `error` as last_error."""
    return _finish(conn, job, "state = 'dead', last_error = ?, outcome = 'failed', finished_at = ?",
                   (error, time.time()))


def release(conn: sqlite3.Connection, jobs: list[JobRow], done: list[tuple[JobRow, str]] = ()) -> None:
    """running -> queued without spending the attempt, for jobs claimed but not finished
    (the worker was interrupted); `done` pairs are marked done in the same transaction."""
    with transaction(conn):
        for job, outcome in done:
            _mark_done_in_tx(conn, job, outcome)
        for job in jobs:
            _finish_in_tx(conn, job, "state = 'queued', attempts = attempts - 1, next_attempt_at = ?",
                          (time.time(),))


def running(conn: sqlite3.Connection) -> list[JobRow]:
    """Every job in state running (any owner)."""
    return [JobRow.from_row(r) for r in conn.execute("SELECT * FROM jobs WHERE state = 'running'")]


def requeue(conn: sqlite3.Connection, job_id: int, error: str, *, dead: bool) -> None:
    """Put a running job whose owner is gone back in the queue (or in the dead letters when
    `dead`), recording `error`. The attempt it was on stays counted."""
    now = time.time()
    with transaction(conn):
        if dead:
            conn.execute("""UPDATE jobs SET state = 'dead', last_error = ?, outcome = 'failed',
                                finished_at = ?, owner_pid = NULL, owner_start = NULL,
                                lease_until = NULL, updated_at = ?
                            WHERE id = ? AND state = 'running'""", (error, now, now, job_id))
        else:
            conn.execute("""UPDATE jobs SET state = 'queued', last_error = ?, next_attempt_at = ?,
                                owner_pid = NULL, owner_start = NULL, lease_until = NULL, updated_at = ?
                            WHERE id = ? AND state = 'running'""", (error, now, now, job_id))


def requeue_dead(conn: sqlite3.Connection, ids: list[int] | None) -> list[int]:
    """dead -> queued (attempts 0) for `ids`, or for every dead job when ids is None.
    Returns the ids requeued (ids that are not dead letters are left out)."""
    now = time.time()
    with transaction(conn):
        if ids is None:
            found = [r[0] for r in conn.execute("SELECT id FROM jobs WHERE state = 'dead' ORDER BY id")]
        elif ids:
            dead = {r[0] for r in conn.execute(
                f"SELECT id FROM jobs WHERE state = 'dead' AND id IN ({','.join('?' * len(ids))})", ids)}
            found = [i for i in ids if i in dead]
        else:
            found = []
        conn.executemany("""UPDATE jobs SET state = 'queued', attempts = 0, next_attempt_at = ?,
                                outcome = NULL, finished_at = NULL, updated_at = ? WHERE id = ?""",
                         [(now, now, i) for i in found])
    return found


def get(conn: sqlite3.Connection, job_id: int) -> JobRow | None:
    """The job with this id, or None."""
    row = conn.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)).fetchone()
    return JobRow.from_row(row) if row else None


def by_state(conn: sqlite3.Connection, state: str, limit: int | None = None) -> list[JobRow]:
    """Jobs in `state`, oldest first (at most `limit`)."""
    sql = "SELECT * FROM jobs WHERE state = ? ORDER BY id"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return [JobRow.from_row(r) for r in conn.execute(sql, (state,))]


def counts(conn: sqlite3.Connection) -> dict[str, int]:
    """{state: number of jobs} for every state (0 when none)."""
    out = {s: 0 for s in STATES}
    out.update({r[0]: r[1] for r in conn.execute("SELECT state, count(*) FROM jobs GROUP BY state")})
    return out


MEDIA_MARK = '"heavy": true'  # in the payload of a file job queued for the media pass


def media_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """The media pass (pictures, recordings, PDFs: file jobs whose payload has "heavy",
    cairn.ingest.run): {"pending": queued or running, "done": finished, "failed": dead}."""
    rows = dict(conn.execute("SELECT state, count(*) FROM jobs WHERE kind = 'file' AND instr(payload, ?) > 0 "
                             "GROUP BY state", (MEDIA_MARK,)).fetchall())
    return {"pending": rows.get("queued", 0) + rows.get("running", 0), "done": rows.get("done", 0),
            "failed": rows.get("dead", 0)}


def next_due(conn: sqlite3.Connection, ids: list[int] | None = None) -> float | None:
    """Earliest next_attempt_at of the queued jobs (limited to `ids`), None if none queued."""
    sql = "SELECT min(next_attempt_at) FROM jobs WHERE state = 'queued'"
    args: list[Any] = []
    if ids is not None:
        if not ids:
            return None
        sql += f" AND id IN ({','.join('?' * len(ids))})"
        args = list(ids)
    value = conn.execute(sql, args).fetchone()[0]
    return None if value is None else float(value)


def queued_payloads(conn: sqlite3.Connection) -> list[tuple[int, str]]:
    """(id, payload as JSON text) of every queued job, oldest first."""
    return [(r[0], r[1]) for r in conn.execute("SELECT id, payload FROM jobs WHERE state = 'queued' ORDER BY id")]


def payloads(conn: sqlite3.Connection, ids: list[int]) -> list[dict]:
    """The payloads (decoded) of the jobs `ids` that exist."""
    if not ids:
        return []
    return [json.loads(r[0]) for r in conn.execute(
        f"SELECT payload FROM jobs WHERE id IN ({','.join('?' * len(ids))})", ids)]


from cairn.store.route import route as _route  # noqa: E402

_route(globals(), "jobs")  # PostgreSQL twins when conn is a PgConn (store/route.py)
