"""The job queue on PostgreSQL: the twin of store/jobs.py (same states, rows and results).

Several `cairn worker` processes on several machines can consume it: `claim_batch` takes
due rows with `SELECT ... FOR UPDATE SKIP LOCKED`, so concurrent claimers never wait on
each other and never take the same job (at least once: a job whose owner dies is requeued
once its lease expires, and handlers are idempotent by content hash).
"""

from __future__ import annotations

import json
import time
from typing import Any

from cairn.store.jobs import STATES, JobRow

_COLS = ("id, kind, source, payload, state, attempts, max_attempts, next_attempt_at, last_error, outcome, "
         "owner_pid, owner_start, lease_until, created_at, updated_at, finished_at")


def _job(row) -> JobRow:
    d = dict(zip(row.keys(), row))
    d["payload"] = json.loads(d["payload"] or "{}")
    return JobRow(**d)


def enqueue(conn, kind: str, source: str, payload: dict[str, Any], *, max_attempts: int,
            now: float | None = None) -> tuple[int, bool]:
    """As store.jobs.enqueue: (job id, created); a done/dead row is re-armed, a queued or
    running one left alone. One statement, safe against concurrent enqueuers."""
    now = time.time() if now is None else now
    row = conn.execute(
        f"""INSERT INTO jobs(kind, source, payload, state, max_attempts, next_attempt_at, created_at, updated_at)
            VALUES (%s, %s, %s, 'queued', %s, %s, %s, %s)
            ON CONFLICT (kind, source) DO UPDATE SET state = 'queued', payload = excluded.payload,
                attempts = 0, max_attempts = excluded.max_attempts, next_attempt_at = excluded.next_attempt_at,
                last_error = NULL, outcome = NULL, owner_pid = NULL, owner_start = NULL, lease_until = NULL,
                updated_at = excluded.updated_at, finished_at = NULL
              WHERE jobs.state IN ('done', 'dead')
            RETURNING id, (xmax = 0) AS created""",
        (kind, source, json.dumps(payload), max_attempts, now, now, now)).fetchone()
    if row is None:  # a queued or running row exists: untouched
        return int(conn.execute("SELECT id FROM jobs WHERE kind = %s AND source = %s",
                                (kind, source)).fetchone()[0]), False
    return int(row[0]), bool(row[1])


def claim_batch(conn, pid: int, start: str | None, lease_s: float, *, limit: int = 1,
                now: float | None = None, ids: list[int] | None = None,
                done: list[tuple[JobRow, str]] | None = None) -> list[JobRow]:
    """As store.jobs.claim_batch, with FOR UPDATE SKIP LOCKED (rows another claimer holds are
    passed over, not waited for). A job tried before is taken alone."""
    now = time.time() if now is None else now
    with conn.transaction():
        for job, outcome in done or ():
            mark_done(conn, job, outcome)
        where, args = "state = 'queued' AND next_attempt_at <= %s", [now]
        if ids is not None:
            if not ids:
                return []
            where += " AND id = ANY(%s)"
            args.append(list(ids))
        rows = conn.execute(f"SELECT id, attempts FROM jobs WHERE {where} ORDER BY next_attempt_at, id "
                            f"LIMIT {max(1, int(limit))} FOR UPDATE SKIP LOCKED", args).fetchall()
        take: list[int] = []
        for r in rows:
            if r["attempts"] > 0:
                if not take:
                    take.append(int(r["id"]))
                break
            take.append(int(r["id"]))
        if not take:
            return []
        found = {r["id"]: _job(r) for r in conn.execute(
            f"""UPDATE jobs SET state = 'running', attempts = attempts + 1, owner_pid = %s, owner_start = %s,
                    lease_until = %s, updated_at = %s WHERE id = ANY(%s) RETURNING {_COLS}""",
            (pid, start, now + lease_s, now, take)).fetchall()}
        return [found[i] for i in take]


def _finish(conn, job: JobRow, sets: str, args: tuple) -> bool:
    cur = conn.execute(
        f"UPDATE jobs SET {sets}, owner_pid = NULL, owner_start = NULL, lease_until = NULL, updated_at = %s "
        f"WHERE id = %s AND state = 'running' AND owner_pid IS NOT DISTINCT FROM %s AND attempts = %s",
        (*args, time.time(), job.id, job.owner_pid, job.attempts))
    return cur.rowcount == 1


def mark_done(conn, job: JobRow, outcome: str) -> bool:
    return _finish(conn, job, "state = 'done', outcome = %s, last_error = NULL, finished_at = %s",
                   (outcome, time.time()))


def mark_retry(conn, job: JobRow, error: str, next_attempt_at: float) -> bool:
    return _finish(conn, job, "state = 'queued', last_error = %s, next_attempt_at = %s", (error, next_attempt_at))


def mark_dead(conn, job: JobRow, error: str) -> bool:
    return _finish(conn, job, "state = 'dead', last_error = %s, outcome = 'failed', finished_at = %s",
                   (error, time.time()))


def requeue_expired(conn, now: float | None = None) -> list[int]:
    """running -> queued for every job whose lease ran out (its worker died or hung): the
    visibility timeout of a multi-machine queue, where a pid check cannot see the owner."""
    now = time.time() if now is None else now
    return [r[0] for r in conn.execute(
        """UPDATE jobs SET state = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'queued' END,
               outcome = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE outcome END,
               last_error = 'lease expired', next_attempt_at = %s, owner_pid = NULL, owner_start = NULL,
               lease_until = NULL, updated_at = %s
           WHERE state = 'running' AND lease_until < %s RETURNING id""", (now, now, now)).fetchall()]


def requeue_dead(conn, ids: list[int] | None) -> list[int]:
    now = time.time()
    if ids is None:
        found = [r[0] for r in conn.execute("SELECT id FROM jobs WHERE state = 'dead' ORDER BY id")]
    elif ids:
        dead = {r[0] for r in conn.execute("SELECT id FROM jobs WHERE state = 'dead' AND id = ANY(%s)", (list(ids),))}
        found = [i for i in ids if i in dead]
    else:
        found = []
    if found:
        conn.execute("""UPDATE jobs SET state = 'queued', attempts = 0, next_attempt_at = %s, outcome = NULL,
                            finished_at = NULL, updated_at = %s WHERE id = ANY(%s)""", (now, now, found))
    return found


def get(conn, job_id: int) -> JobRow | None:
    row = conn.execute(f"SELECT {_COLS} FROM jobs WHERE id = %s", (job_id,)).fetchone()
    return _job(row) if row else None


def by_state(conn, state: str, limit: int | None = None) -> list[JobRow]:
    sql = f"SELECT {_COLS} FROM jobs WHERE state = %s ORDER BY id"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return [_job(r) for r in conn.execute(sql, (state,))]


def media_counts(conn) -> dict[str, int]:
    """store.jobs.media_counts on PostgreSQL."""
    from cairn.store.jobs import MEDIA_MARK
    rows = {r[0]: r[1] for r in conn.execute(
        "SELECT state, count(*) FROM jobs WHERE kind = 'file' AND strpos(payload, %s) > 0 GROUP BY state",
        (MEDIA_MARK,))}
    return {"pending": rows.get("queued", 0) + rows.get("running", 0), "done": rows.get("done", 0),
            "failed": rows.get("dead", 0)}


def counts(conn) -> dict[str, int]:
    out = {s: 0 for s in STATES}
    out.update({r[0]: r[1] for r in conn.execute("SELECT state, count(*) FROM jobs GROUP BY state")})
    return out
