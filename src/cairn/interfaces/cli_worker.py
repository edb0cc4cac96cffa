"""`cairn enqueue` and `cairn worker`: thin commands over Cairn.enqueue and Cairn.work
(ingest/worker.py). Several workers, on several machines sharing one PostgreSQL store
(CAIRN_STORE_URL), drain one queue."""

from __future__ import annotations

import json
import sys
from typing import List

import typer

from cairn.hookspecs import hookimpl
from cairn.interfaces.cli_io import say, say_err


def enqueue(paths: List[str] = typer.Argument(..., help="Files, folders or https:// URLs to queue."),
            json_out: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Queue files, folders and URLs for `cairn worker` processes; nothing is ingested here."""
    from cairn.cli import _service
    with _service() as svc:
        report = svc.enqueue(paths)
    if json_out:
        sys.stdout.write(json.dumps(report.to_json()) + "\n")
        return
    say(f"queued {len(report.jobs)} job(s); failed {len(report.failed)}, "
                     f"skipped {len(report.skipped)}\n")
    for source, reason in report.failed:
        say_err(f"failed: {source}: {reason}\n")


def worker(once: bool = typer.Option(False, "--once", help="Exit when the queue is drained."),
           visibility_timeout: float = typer.Option(300.0, "--visibility-timeout",
                                                    help="Seconds a claimed job stays invisible to other "
                                                         "workers; past it, a dead worker's job is claimed again."),
           poll: float = typer.Option(1.0, "--poll", help="Seconds between looks at an empty queue."),
           json_out: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Consume the ingest job queue (claim, ingest, embed) until Ctrl-C, or until it is
    drained with --once. Run several, on several machines sharing one PostgreSQL store."""
    import signal
    import threading

    from cairn.cli import _service
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    with _service() as svc:
        report = svc.work(visibility_timeout_s=visibility_timeout, once=once, poll_s=poll, stop=stop)
    if json_out:
        sys.stdout.write(json.dumps(report.to_json()) + "\n")
        return
    say(f"worker {report.worker}: done {len(report.done)}, retried {len(report.retried)}, "
                     f"dead {len(report.dead)}, reclaimed {len(report.reclaimed)}, embedded {report.embedded} "
                     f"chunk(s) in {report.seconds:.1f}s\n")


@hookimpl
def register_commands(cli):
    cli.command("enqueue")(enqueue)
    cli.command("worker")(worker)
