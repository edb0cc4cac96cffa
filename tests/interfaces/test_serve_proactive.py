"""`cairn serve` runs every scheduled job it documents (digest, followups, sync,
export-cleanup) — through the runtime's service, where they failed with AttributeError
'open_app' before — and Cairn speaks first: the digest and promise/expectation follow-ups
go through the proactive gates (quiet hours, daily cap) to the person's channel. A fake
clock (`run_due(now=...)`) drives the gates; a real server runs the jobs on its own clock."""

from __future__ import annotations

import time
from datetime import datetime, timezone

from rest_support import RestServer

from cairn.config import load_settings
from cairn.schedule.jobs import BUILTIN_JOBS
from cairn.schedule.scheduler import Scheduler
from cairn.service import Cairn


class Inbox:
    """The person's channel in the test: records what reaches it."""

    name = "inbox"
    reaches_person = True

    def __init__(self):
        self.sent = []

    def send(self, message):
        self.sent.append(message)


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


def test_digest_and_followups_inside_serve_respect_quiet_hours_and_the_daily_cap(tmp_path, real_embedder):
    from cairn.interfaces.rest.app import build_scheduler, create_app
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('[time]\ntimezone = "Europe/Lisbon"\nquiet_hours = "22:00-08:00"\n'
                                      'daily_cap = 2\n')
    with Cairn(home, embedder=real_embedder) as c:
        c.remember("I promised to send Ana the photos on 2026-03-10", kind="promise", at="2026-03-09T10:00:00Z")
        c.remember("I expect the plumber on 2026-03-10", kind="expectation", at="2026-03-09T10:01:00Z")
    app = create_app(load_settings(home), embedder=real_embedder)  # what `cairn serve` runs
    sch = build_scheduler(app.state.runtime)
    inbox = Inbox()
    sch.notifiers.append(inbox)
    try:
        t0 = _utc("2026-03-09T21:00:00")
        digest = sch.remind("digest", every="every day at 8", kind="job", job="digest", now=t0)
        follow = sch.remind("followups", every="every 1 hour", kind="job", job="followups", now=t0)
        # 22:00 Lisbon: quiet hours — the follow-ups wait, nothing reaches the person
        assert [r["outcome"] for r in sch.run_due(now=_utc("2026-03-09T22:00:00"))] == ["ok"]
        assert inbox.sent == []
        assert "suppressed: quiet hours 22:00-08:00" in sch.history(follow.id)[-1]["output"]
        # 08:00: the digest goes out (1 of the daily cap of 2)
        sch.run_due(now=_utc("2026-03-10T08:00:00"))
        assert [m.kind for m in inbox.sent] == ["digest"]
        assert inbox.sent[0].text.startswith("Daily digest")
        assert "send Ana the photos" in inbox.sent[0].text
        # 09:00: the promise follow-up is the second message of the day; the expectation hits the cap
        sch.run_due(now=_utc("2026-03-10T09:00:00"))
        assert [m.text for m in inbox.sent[1:]] == [
            "You promised: I promised to send Ana the photos on 2026-03-10. Done, or still on your list?"]
        out = sch.history(follow.id)[-1]["output"]
        assert "sent: all gates passed" in out and "suppressed: daily cap of 2 reached" in out
        # the next morning the cap still counts the last 24 hours: the 08:00 digest waits;
        # at 09:30 the expectation gets its turn; the promise is never followed up twice
        sch.run_due(now=_utc("2026-03-11T08:00:00"))
        assert sch.history(digest.id)[-1]["output"] == "digest suppressed: daily cap of 2 reached"
        sch.run_due(now=_utc("2026-03-11T09:30:00"))
        assert [m.text for m in inbox.sent[2:]] == [
            "You were expecting: I expect the plumber on 2026-03-10. Did it happen?"]
        assert sch.get(digest.id).state == "scheduled"
    finally:
        sch.close()
        app.state.runtime.close()


def test_a_running_server_runs_the_digest_and_sync_jobs(tmp_path):
    home = tmp_path / "home"
    with RestServer(home, '[time]\nquiet_hours = ""\n') as srv:
        with Scheduler(srv.settings, [], jobs=BUILTIN_JOBS) as sch:
            ids = {job: sch.remind(job, at="in 1 second", kind="job", job=job).id
                   for job in ("digest", "sync", "followups", "export-cleanup")}
        deadline = time.monotonic() + 90
        runs = {}
        while time.monotonic() < deadline and len(runs) < len(ids):
            with Scheduler(srv.settings, []) as sch:
                runs = {job: sch.history(rid) for job, rid in ids.items() if sch.history(rid)}
            time.sleep(0.2)
    assert {job: [r["outcome"] for r in rs] for job, rs in runs.items()} == {job: ["ok"] for job in ids}
    assert runs["digest"][0]["output"] == "digest sent: all gates passed"  # to the server's event stream
    assert runs["sync"][0]["output"].startswith("sync")
    assert "open_app" not in str(runs)
