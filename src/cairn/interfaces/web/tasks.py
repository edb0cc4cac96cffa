"""Ingest runs started from the page, run in a background thread with live progress.

A task ingests a list of sources (saved uploads or a URL) on the service
`deps.background_service` gives (the host's when it serialises writes itself, else a second
`Cairn` on the same home), and records the service's progress callbacks (phase, done, total). The page reads
`Task.to_json()` from `/ingest/tasks/{id}`; when the host app has an event bus with a
`publish(type, data)` method at `app.state.events`, every change is also published there
(ingest.started, ingest.progress, ingest.done / ingest.failed, data = the task's JSON plus
"web_task": its id) for `/events`.

Uploads are written under `<home>/uploads/<uuid>/` with a sanitised file name (no path
parts, no control characters), so a file name can never leave that folder.
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Any

MAX_UPLOAD_BYTES = 200 * 1024 * 1024  # per file
KEEP = 50  # finished tasks remembered


class _Runs:
    """The runs of one host app (kept on its `app.state.web_runs`): ids and tasks."""

    def __init__(self) -> None:
        self.ids = itertools.count(1)
        self.tasks: dict[int, Task] = {}
        self.lock = threading.Lock()


def _runs(app_state) -> "_Runs":
    runs = getattr(app_state, "web_runs", None)
    if runs is None:
        with _CREATE:
            runs = getattr(app_state, "web_runs", None)
            if runs is None:
                runs = app_state.web_runs = _Runs()
    return runs


_CREATE = threading.Lock()


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


def new_id(app_state) -> int:
    """A new run id for the host app whose state is `app_state`."""
    return next(_runs(app_state).ids)


def get(app_state, task_id: int) -> Task | None:
    return _runs(app_state).tasks.get(task_id)


def recent(app_state) -> list[Task]:
    """The host app's runs, newest first."""
    runs = _runs(app_state)
    with runs.lock:
        tasks = list(runs.tasks.values())
    return sorted(tasks, key=lambda t: -t.id)


def start(app_state, task_id: int, names: list[str], work) -> Task:
    """Run `work(service, progress) -> IngestReport` in a thread, e.g.
    `lambda svc, p: svc.ingest(paths, progress=p)`; `app_state`: the host app's state (its
    service, and `events`, an optional bus with publish(type, data))."""
    from cairn.interfaces.web.deps import background_service
    events = getattr(app_state, "events", None)
    task = Task(task_id, names)
    runs = _runs(app_state)
    with runs.lock:
        runs.tasks[task_id] = task
        for old in sorted(runs.tasks)[:-KEEP]:
            if runs.tasks[old].state in ("done", "failed"):
                del runs.tasks[old]

    def publish() -> None:
        if events is not None and hasattr(events, "publish"):
            kind = {"running": "ingest.progress", "done": "ingest.done", "failed": "ingest.failed"}.get(
                task.state, "ingest.started")
            try:
                events.publish(kind, {"web_task": task.id, **task.to_json()})
            except Exception:  # the bus is best effort; the poll endpoint stays right
                pass

    def progress(phase: str, done: int, total: int) -> None:
        task.phase, task.done, task.total = phase, done, total
        publish()

    def run() -> None:
        publish()  # ingest.started
        task.state = "running"
        try:
            with background_service(app_state) as svc:
                report = work(svc, progress)
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
