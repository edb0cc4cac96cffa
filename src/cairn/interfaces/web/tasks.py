"""Ingest runs started from the page, run in a background thread with live progress.

A task ingests a list of sources (saved uploads or a URL) with its own `Cairn` on the same
home and embedder (its own SQLite connection: WAL lets the page keep searching meanwhile),
and records the service's progress callbacks (phase, done, total). The page reads
`Task.to_json()` from `/ingest/tasks/{id}` (and, when the host app has an event bus with a
`publish(kind, data)` method at `app.state.events`, every change is also published there as
an "ingest.progress" event for `/events`).

Uploads are written under `<home>/uploads/<task id>/` with a sanitised file name (no path
parts, no control characters), so a file name can never leave that folder.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_UPLOAD_BYTES = 200 * 1024 * 1024  # per file
_ids = itertools.count(1)
_TASKS: dict[int, "Task"] = {}
_GUARD = threading.Lock()
KEEP = 50  # finished tasks remembered


@dataclass
class Task:
    """One ingest run: `sources` (names shown), `state` queued|running|done|failed, the last
    progress `phase`/`done`/`total`, `report` (IngestReport.to_json()) or `error` (one line)."""

    id: int
    sources: list[str]
    state: str = "queued"
    phase: str = ""
    done: int = 0
    total: int = 0
    report: dict[str, Any] | None = None
    error: str | None = None
    started: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, Any]:
        pct = 100 if self.state == "done" else (int(100 * self.done / self.total) if self.total else 0)
        return {"id": self.id, "sources": self.sources, "state": self.state, "phase": self.phase,
                "done": self.done, "total": self.total, "percent": pct, "report": self.report,
                "error": self.error}


def safe_name(name: str) -> str:
    """A file name with no folder parts or unsafe characters ("upload" if nothing is left)."""
    base = re.split(r"[\\/]", name or "")[-1]
    base = re.sub(r"[\x00-\x1f\x7f<>:\"|?*]+", "-", base).strip(" .")
    return base[:150] or "upload"


def upload_dir(home: Path, task_id: int) -> Path:
    """The folder the files of task `task_id` are saved in (created)."""
    d = home / "uploads" / str(task_id)
    d.mkdir(parents=True, exist_ok=True)
    return d


def new_id() -> int:
    return next(_ids)


def get(task_id: int) -> Task | None:
    return _TASKS.get(task_id)


def recent() -> list[Task]:
    """Tasks, newest first."""
    return sorted(_TASKS.values(), key=lambda t: -t.id)


def start(app, task_id: int, names: list[str], work, events=None) -> Task:
    """Run `work(worker, progress) -> IngestReport` in a thread, `worker` being a second
    `cairn.service.Cairn` on the same home (and embedder) as `app`, e.g.
    `lambda w, p: w.ingest(paths, progress=p)`. `events`: optional bus with publish(kind, data)."""
    task = Task(task_id, names)
    with _GUARD:
        _TASKS[task_id] = task
        for old in sorted(_TASKS)[:-KEEP]:
            if _TASKS[old].state in ("done", "failed"):
                del _TASKS[old]

    def publish() -> None:
        if events is not None and hasattr(events, "publish"):
            try:
                events.publish("ingest.progress", task.to_json())
            except Exception:  # the bus is best effort; the poll endpoint stays right
                pass

    def progress(phase: str, done: int, total: int) -> None:
        task.phase, task.done, task.total = phase, done, total
        publish()

    def run() -> None:
        from cairn.service import Cairn
        task.state = "running"
        publish()
        try:
            with Cairn(settings=app.settings, embedder=app.embedder) as worker:
                report = work(worker, progress)
            task.report = report.to_json()
            task.state = "failed" if report.failed and not (report.added or report.updated
                                                          or report.unchanged) else "done"
            if task.state == "failed":
                task.error = "; ".join(f"{n}: {r}" for n, r in report.failed)
        except Exception as exc:  # shown to the person; the thread must not die silently
            task.state, task.error = "failed", f"{type(exc).__name__}: {exc}"
        publish()

    threading.Thread(target=run, name=f"cairn-web-ingest-{task_id}", daemon=True).start()
    return task
