"""`cairn serve` runs the scheduler: a reminder created through the API's tool endpoint or the
service is delivered to the event stream (`reminder.due`) and to the log channel."""

from __future__ import annotations

import json
import time

from rest_support import RestServer

from cairn.service import Cairn


def test_a_due_reminder_reaches_the_event_stream(tmp_path):
    home = tmp_path / "home"
    with RestServer(home) as srv:
        with Cairn(home) as app:
            sch = app.scheduler()
            r = sch.remind("stretch your legs", at="in 2 seconds")
            sch.close()
        got = None
        with srv.client() as c, c.stream("GET", "/events", params={"types": "reminder.due"}) as s:
            deadline = time.monotonic() + 60
            for line in s.iter_lines():
                if line.startswith("data:"):
                    got = json.loads(line[5:])
                    break
                if time.monotonic() > deadline:
                    break
    assert got is not None
    data = got.get("data", got)
    assert data["reminder_id"] == r.id and data["text"] == "stretch your legs"
    lines = (home / "notifications.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["reminder_id"] == r.id
