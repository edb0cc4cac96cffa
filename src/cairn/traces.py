"""Traces: what Cairn did for one ingest or one answer, stage by stage, and how long each took.

    trace = Trace("answer", {"question": q})
    with trace.stage("search", {"k": 8}) as out:
        hits = ...
        out["hits"] = len(hits)
    trace.save(home)        # <home>/traces/<id>.json
    load(home, trace.id)    # {"id", "kind", "at", "input", "stages": [...], "total_ms", "outcome"}

A stage is {"name", "input": summary dict, "output": summary dict, "ms": float}: summaries
(counts, ids, short strings), never whole documents. The newest `KEEP` traces are kept;
older files are removed when a new one is saved. Trace ids are 32 lower-case hex digits;
`load` refuses anything else (NotFound), so an id can never name a file outside traces/.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from cairn.errors import NotFound

KEEP = 500
_ID = re.compile(r"^[0-9a-f]{32}$")


def traces_dir(home: Path) -> Path:
    """`<home>/traces`."""
    return Path(home) / "traces"


def _short(value, limit: int = 200):
    """A JSON-able summary of `value`: long strings cut to `limit` characters."""
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + "…"
    if isinstance(value, dict):
        return {str(k): _short(v, limit) for k, v in list(value.items())[:30]}
    if isinstance(value, (list, tuple)):
        return [_short(v, limit) for v in list(value)[:30]]
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    return _short(str(value), limit)


class Trace:
    """The stages of one operation (`kind`: "ingest" or "answer"); see the module docstring.
    `listener(stage_dict)`, when given, hears each stage as it ends."""

    def __init__(self, kind: str, input: dict | None = None, listener=None) -> None:
        self.listener = listener  # called with each stage dict as it is recorded (e.g. SSE)
        self.id = uuid.uuid4().hex
        self.kind = kind
        self.at = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        self.input = _short(input or {})
        self.stages: list[dict] = []
        self.outcome = "ok"
        self._t0 = time.perf_counter()

    @contextmanager
    def stage(self, name: str, input: dict | None = None) -> Iterator[dict]:
        """Time a stage; the caller fills the yielded dict with its output summary. A stage
        that raises is recorded with output {"error": message} and the error re-raised."""
        out: dict = {}
        t0 = time.perf_counter()
        try:
            yield out
        except BaseException as exc:
            out["error"] = str(exc) or type(exc).__name__
            self.outcome = "failed"
            raise
        finally:
            self.add(name, input, out, (time.perf_counter() - t0) * 1000)

    def add(self, name: str, input: dict | None, output: dict | None, ms: float) -> None:
        """Record a stage timed elsewhere (`ms` milliseconds)."""
        entry = {"name": name, "input": _short(input or {}), "output": _short(output or {}),
                 "ms": round(ms, 2)}
        self.stages.append(entry)
        if self.listener is not None:
            self.listener(entry)

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "at": self.at, "input": self.input,
                "stages": list(self.stages), "outcome": self.outcome,
                "total_ms": round((time.perf_counter() - self._t0) * 1000, 2)}

    def save(self, home: Path, person: str | None = None) -> dict:
        """Write the trace to `<home>/traces/<id>.json` (best effort: a trace that cannot be
        written is not an error of the operation) and prune old ones; returns its JSON.
        person: who the operation ran for (cairn.people), kept as "person" when named."""
        data = self.to_json()
        if person:
            data["person"] = person
        folder = traces_dir(home)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp = folder / f".{self.id}.tmp"
            # errors="replace": a lone surrogate (a file name that is not UTF-8) is no reason to fail
            tmp.write_text(json.dumps(data, ensure_ascii=False, default=str), encoding="utf-8", errors="replace")
            tmp.replace(folder / f"{self.id}.json")
            _prune(folder)
        except OSError:
            try:  # a full disk: no half-written trace left behind
                (folder / f".{self.id}.tmp").unlink(missing_ok=True)
            except OSError:
                pass
        return data


def _prune(folder: Path) -> None:
    files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime if p.exists() else 0)
    for old in files[:-KEEP]:
        try:
            old.unlink()
        except OSError:
            pass


def load(home: Path, trace_id: str, viewer: str | None = None) -> dict:
    """The saved trace `trace_id`. viewer: a named person (cairn.people) finds only the
    traces of their own operations (None: all). Raises NotFound for a malformed or unknown
    id, or another person's trace."""
    if not isinstance(trace_id, str) or not _ID.match(trace_id):
        raise NotFound(f"no trace {trace_id!r}: trace ids are 32 hex digits")
    path = traces_dir(home) / f"{trace_id}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if viewer is not None and (not isinstance(data, dict) or data.get("person") != viewer):
            raise FileNotFoundError(path)
        return data
    except FileNotFoundError:
        raise NotFound(f"no trace {trace_id} (only the newest {KEEP} are kept)") from None
    except (OSError, ValueError) as exc:
        raise NotFound(f"trace {trace_id} cannot be read: {exc}") from None


def recent(home: Path, limit: int = 20, viewer: str | None = None) -> list[dict]:
    """The newest `limit` traces' headers {"id", "kind", "at", "outcome", "total_ms"}, newest
    first; viewer: a named person (cairn.people) sees only their own (None: all)."""
    folder = traces_dir(home)
    if not folder.is_dir():
        return []
    files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime if p.exists() else 0,
                   reverse=True)
    out = []
    for f in files:
        if len(out) >= limit:
            break
        try:
            d = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if viewer is not None and (not isinstance(d, dict) or d.get("person") != viewer):
            continue
        out.append({k: d.get(k) for k in ("id", "kind", "at", "outcome", "total_ms")})
    return out



def render(trace: dict) -> str:
    """A trace as text: a header line, then one line per stage (name, ms, input -> output)."""
    lines = [f"trace {trace.get('id')} ({trace.get('kind')}, {trace.get('outcome')}, "
             f"{trace.get('total_ms', 0):.0f} ms)"]
    for st in trace.get("stages", []):
        ins = json.dumps(st.get("input", {}), ensure_ascii=False)
        outs = json.dumps(st.get("output", {}), ensure_ascii=False)
        lines.append(f"  {st.get('name', '?'):15} {st.get('ms', 0):8.1f} ms  {ins} -> {outs}")
    return "\n".join(lines)
