"""`cairn daemon` delivers through the desktop (freedesktop notifications: `notify-send`,
here a stand-in script on PATH that records its arguments, as the real one takes them) and
marks a reminder delivered only when a channel that reaches a person took it: with no such
channel, or a failing one, the run is a visible failure and is retried."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time

import pytest

from cairn.config import load_settings
from cairn.schedule.notify import DeliveryFailed, DesktopNotifier, Message
from cairn.schedule.scheduler import Scheduler


def _bin(tmp_path, exit_code: int = 0):
    """A folder holding a `notify-send` that appends its arguments (JSON) to calls.jsonl."""
    folder = tmp_path / f"bin{exit_code}"
    folder.mkdir()
    tool = folder / "notify-send"
    tool.write_text(f"#!{sys.executable}\nimport json, sys\n"
                    f"open({str(tmp_path / 'calls.jsonl')!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n"
                    f"print('no notification daemon', file=sys.stderr) if {exit_code} else None\n"
                    f"sys.exit({exit_code})\n")
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    return folder


def _daemon(home, path: str):
    env = {**os.environ, "CAIRN_LOAD_PLUGINS": "", "PATH": path, "CAIRN_TELEGRAM_TOKEN": ""}
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "daemon", "--once"],
                          capture_output=True, text=True, env=env, timeout=120)


def _due(home, text: str) -> str:
    s = load_settings(home)
    s.ensure_dirs()
    with Scheduler(s, []) as sch:
        rid = sch.remind(text, at="in 1 second").id
    time.sleep(1.2)
    return rid


def _state(home, rid):
    with Scheduler(load_settings(home), []) as sch:
        return sch.get(rid)


def test_daemon_shows_a_desktop_notification_and_marks_it_delivered(tmp_path):
    home = tmp_path / "home"
    rid = _due(home, "water the plants")
    r = _daemon(home, str(_bin(tmp_path)))
    assert r.returncode == 0, r.stderr
    calls = [json.loads(x) for x in (tmp_path / "calls.jsonl").read_text().splitlines()]
    assert calls == [["--app-name=Cairn", "Reminder", "water the plants"]]
    assert _state(home, rid).state == "delivered"


@pytest.mark.parametrize("has_tool", [False, True])
def test_without_a_channel_that_reaches_a_person_the_run_fails_visibly_and_is_retried(tmp_path, has_tool):
    home = tmp_path / "home"
    rid = _due(home, "call Ana")
    empty = tmp_path / "empty"
    empty.mkdir()
    r = _daemon(home, str(_bin(tmp_path, exit_code=1)) if has_tool else str(empty))
    assert r.returncode == 0, r.stderr
    row = _state(home, rid)
    assert row.state == "failed" and row.attempts == 1 and row.next_due  # retried later
    if has_tool:
        assert "notify-send exited with 1: no notification daemon" in r.stderr
    else:
        assert f"{rid} failed: no channel reaches a person" in r.stderr
    assert "[reminder] call Ana" in r.stderr  # the daemon's own output still shows it
    logged = [json.loads(x) for x in (home / "notifications.jsonl").read_text().splitlines()]
    assert logged[0]["text"] == "call Ana"  # the record is kept


def test_desktop_notifier_refuses_when_nothing_can_show_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    assert not DesktopNotifier.available()
    with pytest.raises(DeliveryFailed, match="neither notify-send nor a D-Bus session bus"):
        DesktopNotifier().send(Message(text="x"))
