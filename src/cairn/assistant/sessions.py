"""Sessions: one append-only JSONL event log per conversation, under `<home>/sessions/`.

Each line is one event {"seq", "at", "type", ...}, written with O_APPEND and fsync'd, so a
crash (even kill -9) loses at most the event being written; a torn last line is skipped when
reading. Event types:

    start        {"channel", "person", "model"}
    user         {"turn", "text"}
    assistant    {"turn", "text", "notices"}
    tool_call    {"turn", "call_id", "name", "arguments", "risk", "reasons", "provenance"}
    tool_result  {"turn", "call_id", "name", "outcome", "result"?, "error"?, "artifact"?}
    approval     {"approval_id", "call_id", "state": requested|granted|denied|timeout, "call"?}
    usage        {"model", "prompt_tokens", "completion_tokens", "cost"}
    model_switch {"model"}
    checkpoint   {"turns", "model", "pending", "usage"}   (after each turn: resume reads the
                 last checkpoint and replays the events after it)
    end          {"reason"}
    extraction   {"upto", "reason", "facts", "memories"} (after each turn, reason "turn", and
                 at the session's end: assistant/turnmemory.py)
    reflection   {"upto"}   (the reflection pass ran on what was said up to seq `upto`)
    context      {"turn", "tokens", "budget", "raw", "weighted", "tier", "evidence", "memories",
                 "dropped"}   (each compiled prompt's size and pressure: context/session.py)
    session_checkpoint {"reason": pressure|end, "checkpoint"}   (narrative and plan: context/checkpoint.py)
    carried      {"from", "checkpoint"}   (a new session starts from the person's last checkpoint)

One session per channel and person: `<home>/sessions/current.json` maps "channel:person" to
the session id; any channel may continue any session by id. Reading is cached in memory and
re-read only when the file's size or mtime changed. Plain files a person can read.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from cairn.jsonl import read_appended
from cairn.errors import InvalidInput, NotFound
from cairn.people import same_person

_LOCK = threading.Lock()
_CACHE: dict[Path, tuple[tuple[int, int], "SessionState", int]] = {}  # key, state, bytes folded


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class SessionNotFound(NotFound):
    """No session with that id."""


@dataclass
class SessionState:
    """A session rebuilt from its events: ids, channel, person, model, turn count, times
    (ISO), `history` (user/assistant text turns as OpenAI messages), `pending` approvals by id
    ({"call_id", "name", "arguments", "risk", "reasons", "turn"}), `usage` ({"tokens", "cost",
    "calls"}), `ended`, `extracted_upto` (last seq handed to memory extraction), `last_seq`.
    Kept as the events are folded, so a turn reads none of the log again: `nlu` (the "nlu"
    events in order: nlu/state.py), `unextracted` (the "user" events after `extracted_upto`:
    turnmemory.py), `reflected_upto` (the last reflection's seq) and `last_user_seq`."""

    id: str
    channel: str = "cli"
    person: str = "local"
    model: str = ""
    turns: int = 0
    started: str = ""
    last: str = ""
    history: list[dict] = field(default_factory=list)
    pending: dict[str, dict] = field(default_factory=dict)
    usage: dict = field(default_factory=lambda: {"tokens": 0, "cost": 0.0, "calls": 0})
    ended: bool = False
    extracted_upto: int = 0
    last_seq: int = 0
    resolved: dict[str, str] = field(default_factory=dict)
    owner: str | None = None  # the person (cairn.people) whose session it is; None: the home's own
    nlu: list[dict] = field(default_factory=list)
    unextracted: list[dict] = field(default_factory=list)
    reflected_upto: int = 0
    last_user_seq: int = 0

    def opening(self, limit: int = 80) -> str:
        """The first thing the person said in this session (one line, at most `limit`
        characters, "…" when cut), "" before any; a session's label in a list."""
        first = next((m.get("content") or "" for m in self.history if m.get("role") == "user"), "")
        line = " ".join(str(first).split())
        return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"

    def summary(self) -> dict:
        """{"id", "channel", "turns", "started", "last"} (the `cairn sessions --json` row)."""
        return {"id": self.id, "channel": self.channel, "turns": self.turns, "started": self.started,
                "last": self.last}

    def apply(self, e: dict) -> None:
        """Fold one event into the state."""
        t = e.get("type")
        self.last_seq = max(self.last_seq, int(e.get("seq", 0)))
        self.last = e.get("at", self.last)
        if t == "start":
            self.channel, self.person = e.get("channel", "cli"), e.get("person", "local")
            self.owner = e.get("owner") or None
            self.model = e.get("model", "")
            self.started = e.get("at", "")
        elif t == "user":
            self.turns = max(self.turns, int(e.get("turn", self.turns + 1)))
            self.history.append({"role": "user", "content": e.get("text", "")})
            self.ended = False
            self.last_user_seq = max(self.last_user_seq, int(e.get("seq", 0)))
            if int(e.get("seq", 0)) > self.extracted_upto:
                self.unextracted.append(e)
        elif t == "assistant":
            self.history.append({"role": "assistant", "content": e.get("text", "")})
        elif t == "approval":
            aid = e.get("approval_id", "")
            if e.get("state") == "requested":
                self.pending[aid] = dict(e.get("call") or {}, call_id=e.get("call_id"),
                                         requested_at=e.get("at", ""))
            else:
                self.pending.pop(aid, None)
                self.resolved[aid] = e.get("state", "")
        elif t == "usage":
            self.usage["tokens"] += int(e.get("prompt_tokens", 0)) + int(e.get("completion_tokens", 0))
            self.usage["cost"] += float(e.get("cost", 0.0))
            self.usage["calls"] += 1
        elif t == "model_switch":
            self.model = e.get("model", self.model)
        elif t == "end":
            self.ended = True
        elif t == "extraction":
            self.extracted_upto = max(self.extracted_upto, int(e.get("upto", 0)))
            self.unextracted = [u for u in self.unextracted if int(u.get("seq", 0)) > self.extracted_upto]
        elif t == "reflection":
            self.reflected_upto = max(self.reflected_upto, int(e.get("upto", 0)))
        elif t == "nlu":
            self.nlu.append(e)


def current_key(person: str, owner: str | None) -> str:
    """The person part of a current-session key: the channel's person, qualified by the
    owner (cairn.people) when there is one, so each owner has their own current session."""
    return person if owner is None else f"{person}@{owner}"


def new_id() -> str:
    """"s-YYYYMMDD-HHMMSS-xxxxxx" (sortable by start time)."""
    return datetime.now(timezone.utc).strftime("s-%Y%m%d-%H%M%S-") + secrets.token_hex(3)


class SessionStore:
    """The sessions of one home: `<home>/sessions/<id>.jsonl` plus `current.json`.
    viewer: the person (cairn.people) reading through this store: None (the home's own
    person) sees every session; a name sees only the sessions it owns, another person's
    session is not found (load, list, search, tool_output, delete, find_approval)."""

    def __init__(self, home: Path, viewer: str | None = None):
        self.dir = Path(home) / "sessions"
        self.viewer = viewer

    def path(self, sid: str) -> Path:
        if not sid or "/" in sid or "\\" in sid or sid.startswith("."):
            raise InvalidInput(f"invalid session id {sid!r}")
        return self.dir / f"{sid}.jsonl"

    # -- writing -------------------------------------------------------------------------
    def create(self, channel: str, person: str, model: str, owner: str | None = None) -> SessionState:
        """Start a session and make it current for (channel, person); `owner`: the person
        (cairn.people) it belongs to, None for the home's own person."""
        sid = new_id()
        self.append(sid, {"type": "start", "channel": channel, "person": person, "model": model,
                          **({"owner": owner} if owner else {})})
        self.set_current(channel, current_key(person, owner), sid)
        return self.load(sid)

    def append(self, sid: str, event: dict) -> dict:
        """Append one event (seq and time added), fsync'd. Returns the stored event."""
        path = self.path(sid)
        with _LOCK:
            path.parent.mkdir(parents=True, exist_ok=True)
            state = self._cached(path)
            seq = (state.last_seq if state else self._last_seq(path)) + 1
            stored = {"seq": seq, "at": now_iso(), **event}
            line = (json.dumps(stored, ensure_ascii=False, default=str) + "\n").encode("utf-8")
            fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                size = os.fstat(fd).st_size
                if size and os.pread(fd, 1, size - 1) != b"\n":  # a line torn by a crash: end it
                    line = b"\n" + line
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)
        return stored

    def set_current(self, channel: str, person: str, sid: str) -> None:
        cur = self._read_current()
        cur[f"{channel}:{person}"] = sid
        tmp = self.dir / "current.json.tmp"
        self.dir.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(cur, indent=1), encoding="utf-8")
        os.replace(tmp, self.dir / "current.json")

    # -- reading -------------------------------------------------------------------------
    def _read_current(self) -> dict:
        try:
            cur = json.loads((self.dir / "current.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return cur if isinstance(cur, dict) else {}

    def current(self, channel: str, person: str) -> str | None:
        """The current session id of (channel, person), if its file still exists (an entry
        that is not a valid session id, say from a damaged current.json, counts as none)."""
        sid = self._read_current().get(f"{channel}:{person}")
        try:
            return sid if isinstance(sid, str) and sid and self.path(sid).is_file() else None
        except InvalidInput:
            return None

    @staticmethod
    def events(path: Path) -> list[dict]:
        """Every complete event of a session file: the JSON objects of its lines ended by a
        newline (a torn last line, its write cut short, is skipped; so is a line that is not
        a JSON object). Raises OSError."""
        return read_appended(path, 0, path.stat().st_size)[0]

    def _last_seq(self, path: Path) -> int:
        return max((int(e.get("seq", 0)) for e in self.events(path)), default=0) if path.is_file() else 0

    def _cached(self, path: Path) -> SessionState | None:
        if not path.is_file():
            return None
        st = path.stat()
        key = (st.st_size, st.st_mtime_ns)
        hit = _CACHE.get(path)
        if hit and hit[0] == key:
            return hit[1]
        if hit and st.st_size > hit[2]:  # appended to: fold only the new complete lines
            state, off = hit[1], hit[2]
        else:
            state, off = SessionState(id=path.stem), 0
        events, upto = read_appended(path, off, st.st_size)  # a torn last line waits until completed
        for e in events:
            state.apply(e)
        _CACHE[path] = (key, state, upto)
        return state

    def load(self, sid: str) -> SessionState:
        """The session's state (cached; re-read only when the file changed). Raises
        SessionNotFound for an unknown id."""
        path = self.path(sid)
        with _LOCK:
            state = self._cached(path)
        if state is None or (self.viewer is not None and not same_person(state.owner, self.viewer)):
            raise SessionNotFound(f"no session {sid!r} (`cairn sessions` lists them)")
        return state

    def list(self) -> list[SessionState]:
        """Every session, most recent activity first."""
        if not self.dir.is_dir():
            return []
        states = []
        for p in self.dir.glob("s-*.jsonl"):
            try:
                states.append(self.load(p.stem))
            except SessionNotFound:  # another person's (viewer), or deleted meanwhile
                continue
        return sorted(states, key=lambda s: s.last, reverse=True)

    def find_approval(self, approval_id: str) -> tuple[SessionState, dict]:
        """(session, pending call) holding approval `approval_id`. Raises NotFound when no
        session has it pending (an unknown id, or one already decided: the message says which)."""
        for state in self.list():
            if approval_id in state.pending:
                return state, state.pending[approval_id]
            if approval_id in state.resolved:
                raise NotFound(f"approval {approval_id!r} was already decided ({state.resolved[approval_id]}) "
                               f"in session {state.id}")
        raise NotFound(f"no pending approval with id {approval_id!r} (`cairn chat --json` lists "
                       "pending_approvals; /approve in a chat shows them)")

    def tool_output(self, sid: str, call_id: str):
        """The full result of tool call `call_id` in session `sid` (the prompt saw a distilled
        form). Raises NotFound when the session has no such result."""
        self.load(sid)
        for e in self.events(self.path(sid)):
            if e.get("type") == "tool_result" and e.get("call_id") == call_id:
                return {k: e.get(k) for k in ("call_id", "name", "outcome", "result", "error") if k in e}
        raise NotFound(f"session {sid} has no tool result with call id {call_id!r}")

    def search(self, query: str, k: int = 10) -> list[dict]:
        """Turns of every session ranked by BM25 against `query`: [{"session", "turn", "role",
        "seq", "at", "score", "text", "intents"}], best first (an empty list when nothing
        matches). intents: what the turn was understood as (its `nlu` event's actions; [] when
        it has none, as the turn being answered has not yet)."""
        from cairn.context.bm25 import BM25
        idx, rows = BM25(), {}
        for st in self.list():
            events = self.events(self.path(st.id))
            understood = {e.get("turn"): [a.get("intent") for a in e.get("actions") or [] if isinstance(a, dict)]
                          for e in events if e.get("type") == "nlu"}
            for e in events:
                if e.get("type") in ("user", "assistant") and e.get("text"):
                    key = f"{st.id}#{e['seq']}"
                    idx.add(key, e["text"])
                    rows[key] = {"session": st.id, "turn": e.get("turn"), "role": e["type"], "seq": e["seq"],
                                 "at": e.get("at", ""), "text": e["text"],
                                 "intents": understood.get(e.get("turn"), []) if e["type"] == "user" else []}
        ranked = sorted(idx.scores(query).items(), key=lambda x: -x[1])[:k]
        return [dict(rows[key], score=round(s, 3)) for key, s in ranked]

    def delete(self, sid: str) -> None:
        """Remove a session's file (and its current-pointer). SessionNotFound for an unknown
        id or another person's session (viewer)."""
        path = self.path(sid)
        if not path.is_file() or (self.viewer is not None and not same_person(self.load(sid).owner, self.viewer)):
            raise SessionNotFound(f"no session {sid!r}")
        path.unlink()
        path.with_suffix(".why.json").unlink(missing_ok=True)
        _CACHE.pop(path, None)
        cur = {k: v for k, v in self._read_current().items() if v != sid}
        if self.dir.is_dir():
            (self.dir / "current.json").write_text(json.dumps(cur, indent=1), encoding="utf-8")


class MemorySessionStore(SessionStore):
    """Incognito: the same interface, nothing written to disk."""

    def __init__(self) -> None:
        self._events: dict[str, list[dict]] = {}
        self.dir = Path("/nonexistent-incognito")

    def path(self, sid: str) -> Path:
        return Path(sid)

    def create(self, channel, person, model, owner=None):
        sid = "incognito-" + secrets.token_hex(3)
        self.append(sid, {"type": "start", "channel": channel, "person": person, "model": model,
                          **({"owner": owner} if owner else {})})
        return self.load(sid)

    def append(self, sid, event):
        evs = self._events.setdefault(sid, [])
        stored = {"seq": len(evs) + 1, "at": now_iso(), **event}
        evs.append(stored)
        return stored

    def set_current(self, channel, person, sid):
        pass

    def current(self, channel, person):
        return None

    def load(self, sid):
        if sid not in self._events:
            raise SessionNotFound(f"no session {sid!r}")
        state = SessionState(id=sid)
        for e in self._events[sid]:
            state.apply(e)
        return state

    def list(self):
        return [self.load(s) for s in self._events]
