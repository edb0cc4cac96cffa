"""newuser29: a failure of the service under a page (here a damaged index) reached a browser as
the API's raw JSON body; it is a page saying what is wrong and what to do, in the page's words,
while the API keeps its JSON. In a real browser (Debian's chromium through Playwright, as
tests/interfaces/test_web_browser.py) on `cairn serve`'s application."""

from __future__ import annotations


import httpx
import pytest

from conftest import write
from web_site import browser, serve, serve_app, watched_page  # noqa: F401  (browser: the fixture)

from cairn.service import Cairn


@pytest.fixture(scope="module")
def site(tmp_path_factory, real_embedder):
    tmp = tmp_path_factory.mktemp("web29")
    home = tmp / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    write(tmp / "in" / "plumber.md", "# Plumber\n\nThe plumber's mobile number is 07700 900417.\n")
    with Cairn(home, embedder=real_embedder) as cairn:
        cairn.ingest([tmp / "in"])
        cairn.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size, root = (cairn.conn.execute("PRAGMA page_size").fetchone()[0], cairn.conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'chunks'").fetchone()[0])
    index = home / "index.db"
    data = bytearray(index.read_bytes())
    at = page_size * (root - 1)
    data[at:at + page_size] = b"\x07" * page_size  # a bad sector under the chunks table
    index.write_bytes(bytes(data))
    app = serve_app(home, real_embedder)
    base, stop = serve(app, "127.0.0.1")
    yield {"base": base, "home": home}
    stop()


@pytest.fixture
def page(browser):  # noqa: F811
    with watched_page(browser, (1280, 860)) as pg:
        yield pg


def test_a_damaged_index_is_a_page_with_the_way_out_not_json(site, page):
    # was the body {"error":"internal","message":"internal error (DatabaseError) ..."} as text
    resp = page.goto(site["base"] + "/search?q=plumber")
    assert resp.status == 503
    said = page.locator("#main .msg-error").inner_text()
    assert "damaged" in said and "run the command `cairn reindex` on the computer that runs Cairn" in said, said
    assert "{" not in page.locator("body").inner_text()[:1]


def test_the_api_keeps_its_json_for_the_same_failure(site):
    r = httpx.get(site["base"] + "/api/search", params={"q": "plumber"}, timeout=60)
    assert r.status_code == 503 and r.json()["error"] == "unavailable", r.text
    assert "cairn reindex" in r.json()["message"] and "<home>/index.db" in r.json()["message"], r.text


def test_a_failed_server_task_names_no_absolute_path(site):
    # POST /api/reindex on the damaged index (the server holds the home, so it is refused):
    # the task's error named /tmp/.../home/index.db, which docs/server.md says no message does
    import time
    r = httpx.post(site["base"] + "/api/reindex", timeout=60)
    assert r.status_code == 202, r.text
    task_id = r.json()["id"]
    deadline = time.monotonic() + 120
    while (task := httpx.get(site["base"] + f"/api/tasks/{task_id}", timeout=60).json())["state"] in ("queued", "running"):
        assert time.monotonic() < deadline, task
        time.sleep(0.2)
    assert task["state"] == "failed" and "damaged" in task["error"], task
    assert str(site["home"]) not in task["error"] and "<home>/index.db" in task["error"], task["error"]
    assert (site["home"] / "index.db").exists()  # nothing was set aside under the running server
