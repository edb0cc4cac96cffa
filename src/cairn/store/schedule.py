"""SQLite store of reminders, scheduled jobs, their runs and outbound deliveries.

It lives in `<home>/schedule.db`, apart from the index: reminders are the person's own data,
not derived from the vault, so `cairn reindex` never touches them. WAL mode and a busy
timeout let the daemon, `cairn serve` and CLI calls share it. Times are stored as UTC
ISO-8601 strings (comparable as text: one representation), with the zone the person gave
kept beside (`tz`) so recurring runs are computed in their wall time.

Tables
  reminders(id, text, kind, spec, tz, next_due, state, created, delivered_at, attempts,
            last_error, channel, job, owner)   state: scheduled|delivered|failed|dead|done|cancelled
            owner: the person (cairn.people) it belongs to; NULL: the home's own person
  runs(id, reminder_id, due, started, duration_ms, outcome, output)
  deliveries(id, reminder_id, channel, text, state, attempts, next_try, error, created, sent_at)
            state: queued|sent|delivered|failed
  proactive(id, at, topic, decision, reason)
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS reminders (
    id TEXT PRIMARY KEY, text TEXT NOT NULL, kind TEXT NOT NULL DEFAULT 'reminder',
    spec TEXT NOT NULL, tz TEXT NOT NULL, next_due TEXT, state TEXT NOT NULL,
    created TEXT NOT NULL, delivered_at TEXT, attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT, channel TEXT, job TEXT, owner TEXT);
CREATE INDEX IF NOT EXISTS reminders_due ON reminders(state, next_due);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY, reminder_id TEXT NOT NULL, due TEXT NOT NULL, started TEXT NOT NULL,
    duration_ms REAL NOT NULL, outcome TEXT NOT NULL, output TEXT);
CREATE UNIQUE INDEX IF NOT EXISTS runs_once ON runs(reminder_id, due) WHERE outcome = 'ok';
CREATE TABLE IF NOT EXISTS deliveries (
    id INTEGER PRIMARY KEY, reminder_id TEXT, channel TEXT NOT NULL, text TEXT NOT NULL,
    state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, next_try TEXT, error TEXT,
    created TEXT NOT NULL, sent_at TEXT);
CREATE TABLE IF NOT EXISTS proactive (
    id INTEGER PRIMARY KEY, at TEXT NOT NULL, topic TEXT NOT NULL, decision TEXT NOT NULL,
    reason TEXT NOT NULL);
"""


@dataclass
class ReminderRow:
    """A reminder or scheduled job. spec: {"form": "at"|"every", "text": what the person
    wrote, "trigger": "date"|"cron"|"interval"}; next_due: UTC ISO or None when finished."""

    id: str
    text: str
    kind: str
    spec: dict
    tz: str
    next_due: str | None
    state: str
    created: str
    delivered_at: str | None
    attempts: int
    last_error: str | None
    channel: str | None
    job: str | None
    owner: str | None = None  # the person (cairn.people) it belongs to; None: the home's own

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> "ReminderRow":
        d = dict(row)
        d["spec"] = json.loads(d["spec"])
        return cls(**d)

    def to_dict(self) -> dict:
        return asdict(self)


def connect(home: Path) -> sqlite3.Connection:
    """Open (creating) `<home>/schedule.db` with the schema applied."""
    conn = sqlite3.connect(Path(home) / "schedule.db", timeout=10, isolation_level=None,
                           check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA busy_timeout=10000")
    conn.executescript(SCHEMA)
    if "owner" not in {r[1] for r in conn.execute("PRAGMA table_info(reminders)")}:
        try:  # a schedule.db made before reminders had owners: they are the home's own
            conn.execute("ALTER TABLE reminders ADD COLUMN owner TEXT")
        except sqlite3.OperationalError as exc:  # another process added it meanwhile
            if "duplicate column" not in str(exc):
                raise
    return conn


def new_id() -> str:
    return "r" + uuid.uuid4().hex[:10]


def insert(conn: sqlite3.Connection, r: ReminderRow) -> None:
    d = r.to_dict()
    d["spec"] = json.dumps(d["spec"])
    cols = ",".join(d)
    conn.execute(f"INSERT INTO reminders ({cols}) VALUES ({','.join('?' * len(d))})", list(d.values()))


def get(conn: sqlite3.Connection, rid: str) -> ReminderRow | None:
    row = conn.execute("SELECT * FROM reminders WHERE id = ?", (rid,)).fetchone()
    return ReminderRow.from_row(row) if row else None


def list_all(conn: sqlite3.Connection, states: tuple[str, ...] | None = None,
             kind: str | None = None) -> list[ReminderRow]:
    where, args = [], []
    if states:
        where.append(f"state IN ({','.join('?' * len(states))})")
        args += list(states)
    if kind:
        where.append("kind = ?")
        args.append(kind)
    clause = (" WHERE " + " AND ".join(where)) if where else ""
    rows = conn.execute(f"SELECT * FROM reminders{clause} ORDER BY next_due IS NULL, next_due, created",
                        args).fetchall()
    return [ReminderRow.from_row(r) for r in rows]


def update(conn: sqlite3.Connection, rid: str, **fields) -> None:
    if "spec" in fields:
        fields["spec"] = json.dumps(fields["spec"])
    sets = ", ".join(f"{k} = ?" for k in fields)
    conn.execute(f"UPDATE reminders SET {sets} WHERE id = ?", [*fields.values(), rid])


def due(conn: sqlite3.Connection, now_utc: str, limit: int = 500) -> list[ReminderRow]:
    """Scheduled (or failed, awaiting retry) reminders with next_due <= now, oldest first."""
    rows = conn.execute("SELECT * FROM reminders WHERE state IN ('scheduled', 'failed') AND next_due <= ? "
                        "ORDER BY next_due LIMIT ?", (now_utc, limit)).fetchall()
    return [ReminderRow.from_row(r) for r in rows]


def next_due(conn: sqlite3.Connection) -> str | None:
    row = conn.execute("SELECT min(next_due) FROM reminders WHERE state IN ('scheduled', 'failed')").fetchone()
    return row[0]


def add_run(conn: sqlite3.Connection, rid: str, due_at: str, started: str, duration_ms: float,
            outcome: str, output: str | None) -> bool:
    """Record a run; False when an ok run for (rid, due_at) exists already (never twice)."""
    try:
        conn.execute("INSERT INTO runs (reminder_id, due, started, duration_ms, outcome, output) "
                     "VALUES (?, ?, ?, ?, ?, ?)", (rid, due_at, started, duration_ms, outcome, output))
        return True
    except sqlite3.IntegrityError:
        return False


def runs(conn: sqlite3.Connection, rid: str | None = None, limit: int = 100) -> list[dict]:
    if rid:
        rows = conn.execute("SELECT * FROM runs WHERE reminder_id = ? ORDER BY id DESC LIMIT ?", (rid, limit))
    else:
        rows = conn.execute("SELECT * FROM runs ORDER BY id DESC LIMIT ?", (limit,))
    return [dict(r) for r in rows.fetchall()][::-1]


def add_delivery(conn: sqlite3.Connection, rid: str | None, channel: str, text: str, created: str) -> int:
    cur = conn.execute("INSERT INTO deliveries (reminder_id, channel, text, state, created) "
                       "VALUES (?, ?, ?, 'queued', ?)", (rid, channel, text, created))
    return int(cur.lastrowid)


def update_delivery(conn: sqlite3.Connection, did: int, **fields) -> None:
    sets = ", ".join(f"{k} = ?" for k in fields)
    conn.execute(f"UPDATE deliveries SET {sets} WHERE id = ?", [*fields.values(), did])


def deliveries(conn: sqlite3.Connection, state: str | None = None, limit: int = 100) -> list[dict]:
    if state:
        rows = conn.execute("SELECT * FROM deliveries WHERE state = ? ORDER BY id DESC LIMIT ?", (state, limit))
    else:
        rows = conn.execute("SELECT * FROM deliveries ORDER BY id DESC LIMIT ?", (limit,))
    return [dict(r) for r in rows.fetchall()][::-1]


def add_proactive(conn: sqlite3.Connection, at: str, topic: str, decision: str, reason: str) -> None:
    conn.execute("INSERT INTO proactive (at, topic, decision, reason) VALUES (?, ?, ?, ?)",
                 (at, topic, decision, reason))


def proactive_sent(conn: sqlite3.Connection, since: str, topic: str | None = None) -> list[dict]:
    q = "SELECT * FROM proactive WHERE decision = 'sent' AND at >= ?"
    args: list = [since]
    if topic is not None:
        q += " AND topic = ?"
        args.append(topic)
    return [dict(r) for r in conn.execute(q + " ORDER BY at", args).fetchall()]


def release_firing(conn: sqlite3.Connection) -> int:
    """Put reminders left "firing" by a crashed process back to "scheduled"; returns how many."""
    return conn.execute("UPDATE reminders SET state = 'scheduled' WHERE state = 'firing'").rowcount


def claim(conn: sqlite3.Connection, rid: str, state: str, next_due: str | None) -> bool:
    """Mark a due reminder "firing" if it is still in `state` and due at `next_due` (another
    process may have fired it since it was read); True when this call claimed it."""
    return conn.execute("UPDATE reminders SET state = 'firing' WHERE id = ? AND state = ? AND next_due = ?",
                        (rid, state, next_due)).rowcount > 0
