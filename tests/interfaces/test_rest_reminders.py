"""/api/reminders over a real uvicorn: create, list, upcoming (DST offsets), change; bad input
gets a clear error and changes nothing."""

from __future__ import annotations

from rest_support import RestServer


def test_reminders_through_the_api(tmp_path):
    with RestServer(tmp_path / "home") as srv, srv.client() as c:
        made = c.post("/api/reminders", json={"text": "stand-up", "every": "every weekday at 9am",
                                              "tz": "America/New_York"})
        assert made.status_code == 201 and set(made.json()) == {"id", "next_due"}
        rid = made.json()["id"]
        up = c.get(f"/api/reminders/{rid}/upcoming", params={"count": 3, "from": "2026-10-30T00:00"}).json()
        assert up == ["2026-10-30T09:00:00-04:00", "2026-11-02T09:00:00-05:00", "2026-11-03T09:00:00-05:00"]
        listed = c.get("/api/reminders").json()
        assert listed[0]["id"] == rid and listed[0]["state"] == "scheduled"
        assert c.post(f"/api/reminders/{rid}/cancel").json()["state"] == "cancelled"
        assert c.get("/api/reminders").json() == [] and c.get("/api/reminders", params={"all": True}).json()
        for body in ({"text": "x"}, {"text": "x", "at": "someday"}, {"text": "x", "at": "in 1 hour", "every": "every day"},
                     {"text": "", "at": "in 1 hour"}, {"text": "x", "at": "in 1 hour", "tz": "Mars/Base"},
                     {"text": "x", "at": "in 1 hour", "extra": 1},
                     {"text": "x", "at": "in 99999999999 days"}, {"text": "x", "every": "every 99999999999 hours"}):
            r = c.post("/api/reminders", json=body)
            assert r.status_code in (400, 422), (body, r.status_code)
        assert c.post("/api/reminders/nope/done").status_code == 404
        assert c.post(f"/api/reminders/{rid}/snooze", json={"until": "in 1 hour"}).status_code == 409
        assert c.post(f"/api/reminders/{rid}/explode").status_code == 400
        assert len(c.get("/api/reminders", params={"all": True}).json()) == 1
        # a search query past 4000 characters is refused as GET's is (review3: a POST's warning
        # header repeated a 110,000-character query and broke HTTP clients)
        r = c.post("/api/search", json={"query": "heron " * 20_000})
        assert r.status_code in (400, 422) and len(r.headers.get("x-cairn-warnings", "")) < 10_000
        r = c.post("/api/search", json={"batch": [{"id": 1, "query": "q" * 4001}]})
        assert r.status_code in (400, 422)
