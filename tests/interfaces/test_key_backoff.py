"""Wrong API keys are slowed down (issue 34): the front door (a real Guard over a real key
store, driven through ASGI) waits before each 401, longer for each further wrong key from
the same address; a valid key forgives; other addresses are not affected. The waits are
recorded, not timed."""

from __future__ import annotations

import asyncio

import httpx

from cairn.apikeys import KeyStore
from cairn.config import load_settings
from cairn.interfaces.rest.backoff import FailedKeys
from cairn.interfaces.rest.security import Guard


async def _ok(scope, receive, send):
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


def test_wrong_keys_wait_longer_each_time(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    good = KeyStore(home).create("phone", "read")[1]
    guard = Guard(_ok, load_settings(home))
    waits: list[float] = []

    async def record(seconds):
        waits.append(seconds)
    guard.sleep = record

    async def go():
        async def status(key, client=("10.0.0.5", 5000)):
            t = httpx.ASGITransport(app=guard, client=client)
            async with httpx.AsyncClient(transport=t, base_url="http://localhost") as c:
                return (await c.get("/api/status", headers={"Authorization": f"Bearer {key}"})).status_code
        assert [await status("cairn_00000000_guess") for _ in range(4)] == [401] * 4
        assert waits == [0.1, 0.2, 0.4, 0.8]
        assert await status("other", client=("10.0.0.6", 1)) == 401 and waits[-1] == 0.1  # per address
        assert await status(good) == 200 and len(waits) == 5  # a valid key: no wait, and forgiven
        assert await status("again") == 401 and waits[-1] == 0.1
    asyncio.run(go())


def test_failed_keys_cap_forget_and_bound():
    now = [0.0]
    f = FailedKeys(base_s=1, cap_s=4, forget_s=60, max_clients=3, clock=lambda: now[0])
    assert [f.delay("a") for _ in range(5)] == [1, 2, 4, 4, 4]
    now[0] = 61
    assert f.delay("a") == 1  # a quiet minute forgets
    for c in "bcd":
        f.delay(c)
    assert f.failures("a") == 0 and f.failures("d") == 1  # the quietest address was dropped


def test_the_web_sign_in_is_slowed_by_the_same_back_off(tmp_path):
    """`POST /login` with a wrong key waits as the front door does (the server's shared
    FailedKeys); a right key does not."""
    from rest_support import RestServer

    class Recorder(FailedKeys):
        def __init__(self):
            super().__init__()
            self.calls: list[float] = []

        def delay(self, client):
            self.calls.append(super().delay(client))
            return 0.0  # recorded, not slept: no timed test
    with RestServer(tmp_path / "home") as srv:
        good = KeyStore(srv.home).create("laptop", "read")[1]
        rec = srv.app.state.failed_keys = Recorder()
        with srv.client(follow_redirects=False) as c:
            for _ in range(2):
                assert c.post("/login", data={"key": "cairn_00000000_guess", "next": "/"}).status_code == 401
            assert rec.calls == [0.1, 0.2]
            assert c.post("/login", data={"key": good, "next": "/"}).status_code == 303
            assert len(rec.calls) == 2
