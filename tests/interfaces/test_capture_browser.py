"""Capture from the browser: the bookmarklet, run on a page of another site in Debian's
chromium, opens Cairn's confirmation window with the selection, the page's title and
address; Save makes a highlight note. POST /capture also takes JSON from a script; bad input
is refused with the reason and stores nothing; a cross-site post is refused."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from web_site import chromium, serve, serve_app

from cairn.interfaces.web.views_capture import bookmarklet_code

ARTICLE = ("<!doctype html><title>Birds of the valley</title><body><h1>Birds</h1>"
           "<p id='p'>Herons nest in tall alders by the river.</p><p>Other text.</p></body>")


@pytest.fixture(scope="module")
def site(tmp_path_factory, real_embedder):
    home = tmp_path_factory.mktemp("cap") / "home"
    home.mkdir()
    app = serve_app(home, real_embedder)
    base, stop = serve(app, "127.0.0.1")

    class Article(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            body = ARTICLE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    other = ThreadingHTTPServer(("127.0.0.1", 0), Article)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    yield {"base": base, "article": f"http://127.0.0.1:{other.server_address[1]}/birds", "cairn": app.state.cairn}
    other.shutdown()
    stop()


def test_bookmarklet_captures_a_highlight_in_the_browser(site):
    with chromium() as b:
        ctx = b.new_context()
        pg = ctx.new_page()
        pg.set_default_timeout(60_000)
        pg.goto(site["base"] + "/bookmarklet")
        code = pg.get_attribute("a.button", "href")
        assert code == bookmarklet_code(site["base"])
        pg.goto(site["article"])
        pg.evaluate("""() => { const r = document.createRange(); r.selectNodeContents(document.getElementById('p'));
                              getSelection().removeAllRanges(); getSelection().addRange(r); }""")
        with ctx.expect_page() as popup_info:
            pg.evaluate(code[len("javascript:"):])
        popup = popup_info.value
        popup.wait_for_load_state()
        assert popup.input_value("#ctext") == "Herons nest in tall alders by the river."
        assert popup.input_value("#ctitle") == "Birds of the valley"
        assert popup.input_value("#curl") == site["article"]
        popup.fill("#ccomment", "check in spring")
        popup.click("button[type=submit]")
        popup.wait_for_selector("text=It is searchable now")
    hits = site["cairn"].search("herons alders", mode="keyword").hits
    assert hits and hits[0].path.startswith("captures/")
    body = site["cairn"].note_show(hits[0].note_id)["body"]
    assert "> Herons nest in tall alders by the river." in body and "check in spring" in body


def test_capture_json_bad_input_and_cross_site(site):
    with httpx.Client(base_url=site["base"], timeout=60) as c:
        ok = c.post("/capture", json={"kind": "bookmark", "url": "https://example.org/ferns", "title": "Ferns"})
        assert ok.status_code == 201 and ok.json()["action"] == "created"
        before = site["cairn"].notes_list(tag="capture")["total"]
        bad = c.post("/capture", json={"kind": "highlight", "url": "file:///etc/passwd", "text": "x"})
        assert bad.status_code == 400 and "http(s)" in bad.json()["message"]
        assert c.post("/capture", content=b"{nope", headers={"Content-Type": "application/json"}).status_code == 400
        cross = c.post("/capture", data={"kind": "bookmark", "url": "https://evil.example/"},
                       headers={"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
        assert cross.status_code == 403
        assert site["cairn"].notes_list(tag="capture")["total"] == before
