"""Scheduler benchmark (issue: time and the phone).

1. Timeliness under load, with a restart in the middle: N reminders (default 10,000) are due
   over a simulated day compressed into --seconds of real time; a real `cairn daemon`
   process delivers them (a stand-in notify-send takes each; the log file records them); half-way through it is stopped (SIGTERM) and a
   new one started. Reported: how many were delivered, how many twice, how many lost, and
   the lateness (delivery time - due time) p50 / p95 / max in seconds.
2. Idle CPU: a daemon with nothing due for --idle seconds; CPU seconds / wall seconds.

    python bench/scheduler.py [--n 10000] [--seconds 120] [--idle 20]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def daemon(home: Path) -> subprocess.Popen:
    """A real `cairn daemon` for `home`. A run counts as delivered only when a channel that
    reaches a person took it (the log file is a record), so a stand-in `notify-send` that
    accepts every notification is put first on PATH: the bench measures the scheduler."""
    stand_in = home.parent / "bench-bin"
    stand_in.mkdir(exist_ok=True)
    tool = stand_in / "notify-send"
    tool.write_text("#!/bin/sh\nexit 0\n")
    tool.chmod(0o755)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "CAIRN_LOAD_PLUGINS": "",
           "PATH": f"{stand_in}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.Popen([sys.executable, "-m", "cairn", "--home", str(home), "daemon"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--seconds", type=float, default=120.0, help="real seconds the simulated day takes")
    ap.add_argument("--idle", type=float, default=20.0)
    args = ap.parse_args()
    from cairn.config import load_settings
    from cairn.schedule.scheduler import Scheduler
    from cairn.store import schedule as S

    home = Path(tempfile.mkdtemp()) / "home"
    settings = load_settings(home)
    settings.ensure_dirs()
    sch = Scheduler(settings, [])
    start = datetime.now(timezone.utc) + timedelta(seconds=5)
    t0 = time.time()
    sch.conn.execute("BEGIN")
    for i in range(args.n):
        due = start + timedelta(seconds=args.seconds * i / args.n)
        S.insert(sch.conn, S.ReminderRow(
            id=f"b{i:05d}", text=f"reminder {i}", kind="reminder",
            spec={"form": "at", "text": due.isoformat(), "anchor": start.isoformat()}, tz="UTC",
            next_due=due.isoformat(timespec="seconds"), state="scheduled", created=start.isoformat(),
            delivered_at=None, attempts=0, last_error=None, channel=None, job=None))
    sch.conn.execute("COMMIT")
    print(f"created {args.n} reminders in {time.time() - t0:.1f} s, due over {args.seconds:.0f} s")
    proc = daemon(home)
    time.sleep(5 + args.seconds / 2)
    proc.send_signal(signal.SIGTERM)
    proc.wait(60)
    gap_from = datetime.now(timezone.utc)
    proc = daemon(home)
    log = home / "notifications.jsonl"
    before = len(log.read_text().splitlines())
    while len(log.read_text().splitlines()) == before and proc.poll() is None:
        time.sleep(0.05)
    gap_to = datetime.now(timezone.utc)
    print(f"daemon stopped half-way (SIGTERM) and restarted: no daemon ran for "
          f"{(gap_to - gap_from).total_seconds():.1f} s")
    deadline = time.time() + args.seconds / 2 + 60
    while time.time() < deadline:
        if not S.list_all(sch.conn, ("scheduled", "failed", "firing")):
            break
        time.sleep(1)
    proc.send_signal(signal.SIGTERM)
    proc.wait(60)
    seen: dict[str, int] = {}
    for line in log.read_text().splitlines():
        rid = json.loads(line)["reminder_id"]
        seen[rid] = seen.get(rid, 0) + 1
    runs = sch.conn.execute("SELECT reminder_id, due, started FROM runs WHERE outcome = 'ok'").fetchall()
    late = sorted((datetime.fromisoformat(r[2]) - datetime.fromisoformat(r[1])).total_seconds() for r in runs)
    running = sorted((datetime.fromisoformat(r[2]) - datetime.fromisoformat(r[1])).total_seconds() for r in runs
                     if not gap_from - timedelta(seconds=1) <= datetime.fromisoformat(r[1]) <= gap_to)
    twice = sum(1 for c in seen.values() if c > 1)
    lost = args.n - len(seen)
    print(f"delivered {len(seen)}/{args.n}; twice {twice}; lost {lost}")
    if late:
        print(f"lateness s: p50 {statistics.median(late):.2f}  p95 {late[int(0.95 * (len(late) - 1))]:.2f}  "
              f"max {late[-1]:.2f}")
        print(f"lateness s while a daemon was running ({len(running)} runs): p50 {statistics.median(running):.2f}  "
              f"p95 {running[int(0.95 * (len(running) - 1))]:.2f}  max {running[-1]:.2f}; within 1 s: "
              f"{sum(1 for x in running if x <= 1.0) / len(running):.4f}")
    # idle CPU
    proc = daemon(home)
    time.sleep(10)  # start-up is not idle
    c0, w0 = cpu_seconds(proc.pid), time.time()
    time.sleep(args.idle)
    c1, w1 = cpu_seconds(proc.pid), time.time()
    proc.send_signal(signal.SIGTERM)
    proc.wait(60)
    print(f"idle daemon CPU: {100 * (c1 - c0) / (w1 - w0):.2f}% over {w1 - w0:.0f} s")


if __name__ == "__main__":
    main()
