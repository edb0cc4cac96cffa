"""The web page's routes over a real service (no browser): what the server renders, the
guards (key from another machine, CSRF), and the service operations the page added
(search by tag and date range, the conflict-checked note update, disk usage)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from conftest import write
from web_site import RIGHT_KEY, web_app

from cairn.service import Cairn

LOCAL = ("127.0.0.1", 50000)
OUTSIDE = ("203.0.113.7", 50000)


@pytest.fixture
def site(tmp_path, real_embedder):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    write(tmp_path / "in" / "alpha.md", "# Alpha\n\nThe heron nests by the mill pond.\n\nSee [[Beta]] and [[Nowhere]].\n")
    write(tmp_path / "in" / "beta.md", "---\ntags: [birds]\ncreated: 2024-05-02\n---\n# Beta\n\nHerons eat fish in spring.\n")
    cairn = Cairn(home, embedder=real_embedder)
    cairn.ingest([tmp_path / "in"])
    app = web_app(cairn)
    with TestClient(app, client=LOCAL) as local:
        yield {"cairn": cairn, "app": app, "local": local, "tmp": tmp_path}
    cairn.close()


def test_search_is_rendered_on_the_server_grouped_with_bars_and_highlights(site):
    r = site["local"].get("/search?q=heron")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    html = r.text
    assert "mill pond" in html
    assert "<mark>heron</mark>" in html  # matched word highlighted
    assert html.count('class="result card"') == 2  # one group per note
    for signal in ("keyword", "semantic", "recency"):
        assert f'aria-label="{signal} ' in html  # one bar per signal
    assert "script-src 'self'" in r.headers["content-security-policy"]


def test_search_filters_by_type_tag_and_dates(site):
    c = site["local"]
    assert "eat fish in spring" in c.get("/search?q=heron&tag=birds").text
    assert "mill pond" not in c.get("/search?q=heron&tag=birds").text
    assert "Nothing in your notes matches" in c.get("/search?q=heron&type=pdf").text
    dated = c.get("/search?q=heron&from=2024-05-01&to=2024-05-02").text
    assert "eat fish in spring" in dated and "mill pond" not in dated
    assert "eat fish in spring" not in c.get("/search?q=heron&from=2020-01-01&to=2024-05-01").text


def test_bad_search_input_is_named_and_the_page_still_renders(site):
    r = site["local"].get("/search?q=heron&from=yesterday")
    assert r.status_code == 400
    assert "from must be an ISO date" not in r.text  # the service names its own parameter
    assert "since &#39;yesterday&#39; is not an ISO date" in r.text
    r = site["local"].get("/search?q=heron&type=spreadsheet")
    assert r.status_code == 400 and "unknown note type" in r.text
    # probe22: the web page's search took any length; the limit is REST's (validate.MAX_QUESTION_CHARS)
    r = site["local"].get("/search?q=" + "h" * 4001)
    assert r.status_code == 400 and "the query is 4,001 characters long; the limit is 4,000" in r.text
    r = site["local"].get("/ask?q=" + "h" * 4001)
    assert r.status_code == 400 and "the question is 4,001 characters long" in r.text
    assert 'maxlength="4000"' in site["local"].get("/").text and 'maxlength="4000"' in site["local"].get("/ask").text


def test_search_escapes_what_the_person_typed(site):
    r = site["local"].get("/search?q=<script>alert(1)</script>heron")
    assert "<script>alert(1)" not in r.text
    assert "&lt;script&gt;" in r.text


def test_ask_without_script_shows_the_verdict_in_words_and_linked_citations(site):
    r = site["local"].get("/ask?q=Where does the heron nest?")
    assert r.status_code == 200
    assert "answers your question" in r.text
    assert 'class="citeref" href="/notes/open?ref=' in r.text and "#cite" in r.text
    nothing = site["local"].get("/ask?q=What is my passport number?").text
    assert "your notes don&#39;t say" in nothing


def test_ask_stream_sends_phases_pieces_and_the_finished_block(site):
    r = site["local"].get("/ask/stream?q=Where does the heron nest?")
    assert r.headers["content-type"].startswith("text/event-stream")
    events = [blk.split("\n")[0] for blk in r.text.split("\n\n") if blk.startswith("event:")]
    assert events[0] == "event: phase" and events[-1] == "event: done"
    assert "event: text" in events
    assert "answers your question" in r.text
    # the phases follow the service's own stages as they end (model, search, premise...)
    phases = [blk.split("data: ", 1)[1] for blk in r.text.split("\n\n") if blk.startswith("event: phase")]
    assert phases[1:4] == ["Searching your notes…", "Read 2 passages. Checking what the question is about…",
                           "Writing the answer and checking each sentence against your notes…"], phases


def test_note_page_highlights_the_cited_span_and_lists_links(site):
    c = site["local"]
    ans = site["cairn"].ask("Where does the heron nest?", llm="none")
    cite = ans.citations[0]
    html = c.get(f"/notes/open?ref={cite['path']}&start={cite['start']}&end={cite['end']}").text
    marked = html.split('<mark class="cite" id="cite" tabindex="-1">', 1)[1].split("</mark>", 1)[0]
    assert marked == cite["quote"].rstrip(".") or marked == cite["quote"]
    assert 'href="/notes/open?ref=Beta" class="wikilink"' in html or 'class="wikilink"' in html
    assert "Notes that link here" in html
    assert 'class="unresolved"' in html and "Nowhere" in html  # unresolved link shown
    beta = c.get("/notes/open?ref=Beta").text
    assert "Alpha" in beta.split("Notes that link here", 1)[1]  # backlink


def test_note_markdown_cannot_inject_script(site):
    c = site["local"]
    r = c.post("/notes/new", data={"title": "Sneaky", "body": "<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>"},
               follow_redirects=True)
    assert r.status_code == 200
    assert "<script>alert(1)" not in r.text and "<img src=x" not in r.text


def test_edit_saves_to_the_vault_and_an_outside_edit_is_a_conflict(site):
    c, cairn = site["local"], site["cairn"]
    note = cairn.note_show("Alpha")
    r = c.post("/notes/save", data={"ref": note["id"], "body": "The heron moved to the weir.",
                                    "file_hash": note["file_hash"]}, follow_redirects=True)
    assert r.status_code == 200 and "Saved to the vault." in r.text
    path = cairn.settings.vault / note["path"]
    assert "moved to the weir" in path.read_text()
    stale = cairn.note_show("Alpha")["file_hash"]
    path.write_text(path.read_text() + "\nAn edit made in another editor.\n")  # outside edit
    r = c.post("/notes/save", data={"ref": note["id"], "body": "My text from the page.", "file_hash": stale})
    assert r.status_code == 409
    assert "The file changed while you were editing" in r.text
    assert "An edit made in another editor." in r.text  # the current version is shown
    assert "My text from the page." in r.text  # the person's text is kept in the editor
    assert "An edit made in another editor." in path.read_text()  # nothing overwritten


def test_empty_save_is_refused_and_loses_nothing(site):
    c, cairn = site["local"], site["cairn"]
    note = cairn.note_show("Alpha")
    r = c.post("/notes/save", data={"ref": note["id"], "body": "  ", "file_hash": note["file_hash"]})
    assert r.status_code == 400 and "is empty; nothing was changed" in r.text
    assert "mill pond" in cairn.note_show("Alpha")["body"]


def test_create_and_delete_asks_first(site):
    c = site["local"]
    r = c.post("/notes/new", data={"title": "Shed", "body": "Paint the shed green.", "tags": "house"},
               follow_redirects=True)
    assert "Note created." in r.text and "Paint the shed green." in r.text
    dup = c.post("/notes/new", data={"title": "Shed", "body": "again"})
    assert dup.status_code == 409 and "exists already" in dup.text and 'value="again"' not in dup.text or "again" in dup.text
    ask = c.get("/notes/delete?ref=Shed").text
    assert "Delete “Shed”?" in ask and 'action="/notes/delete" method="post"' in ask
    assert site["cairn"].find_note("Shed")  # asking deleted nothing
    gone = c.post("/notes/delete", data={"ref": "Shed"})
    assert gone.status_code == 200 and ".trash" in gone.text
    assert c.get("/notes/open?ref=Shed").status_code == 404


def test_remember_forget_history_core_and_alias(site):
    c, cairn = site["local"], site["cairn"]
    r = c.post("/memories/remember", data={"text": "I prefer window seats on trains", "kind": "preference"},
               follow_redirects=True)
    assert "Remembered." in r.text and "I prefer window seats on trains" in r.text
    mem = cairn.memories()[0]
    hist = c.get(f"/memories/history?id={mem.id}").text
    assert "I prefer window seats on trains" in hist and "timeline" in hist
    r = c.post("/memories/forget", data={"memory_id": mem.id}, follow_redirects=True)
    assert "Forgotten." in r.text and "I prefer window seats on trains" not in r.text
    assert "I prefer window seats" in c.get("/memories?all=1").text  # kept in history
    r = c.post("/memories/core", data={"name": "persona", "text": "Keep answers short."}, follow_redirects=True)
    assert "Keep answers short." in r.text
    bad = c.post("/memories/core", data={"name": "no spaces allowed", "text": "x"})
    assert bad.status_code == 400 and "core block name" in bad.text
    c.post("/memories/remember", data={"text": "Robert fixed the boiler"})
    r = c.post("/memories/alias", data={"name": "Robert", "alias": "Bob"}, follow_redirects=True)
    assert "Alias added." in r.text and ">Bob<" in r.text
    assert c.post("/memories/forget", data={"memory_id": "nope"}).status_code == 404


def test_upload_is_ingested_in_the_background_and_stays_in_its_folder(site):
    c, cairn = site["local"], site["cairn"]
    r = c.post("/ingest/upload", headers={"Accept": "application/json"},
               files=[("files", ("../../escape.md", b"# Kestrel\n\nA kestrel hovers over the quarry.\n", "text/markdown"))])
    assert r.status_code == 202
    task = r.json()
    deadline = time.time() + 120
    while task["state"] not in ("done", "failed") and time.time() < deadline:
        time.sleep(0.2)
        task = c.get(f"/ingest/tasks/{task['id']}").json()
    assert task["state"] == "done" and task["percent"] == 100 and task["report"]["added"] == 1
    assert [p.name for p in (cairn.settings.home / "uploads").glob("*/escape.md")] == ["escape.md"]
    assert not (cairn.settings.home.parent / "escape.md").exists()
    assert "quarry" in c.get("/search?q=kestrel").text
    assert "escape.md" in c.get("/ingest").text


def test_ingest_refuses_a_bad_url_and_an_unknown_dead_letter(site):
    c = site["local"]
    r = c.post("/ingest/url", data={"url": "file:///etc/passwd"}, headers={"Accept": "application/json"})
    assert r.status_code == 400 and "http://" in r.json()["error"]
    r = c.post("/ingest/retry", data={"job_id": "99"})
    assert r.status_code == 400 and "not a dead letter" in r.text
    assert c.get("/ingest/tasks/12345").status_code == 404


def test_status_shows_counts_health_models_and_disk(site):
    html = site["local"].get("/status").text
    assert "Index health" in html and "Everything is indexed." in html
    assert "all-MiniLM-L6-v2" in html or site["cairn"].embedder.model_name in html
    assert "no language model" in html
    assert " KB" in html or " bytes" in html


def test_another_machine_needs_a_key_and_the_key_never_reaches_a_page(site):
    with TestClient(site["app"], client=OUTSIDE) as far:
        assert far.get("/search?q=heron", headers={"Accept": "application/json"}).status_code == 401
        r = far.get("/search?q=heron", headers={"Accept": "text/html"}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/login?next=/search")
        assert far.get("/", headers={"Authorization": "Bearer wrong"}).status_code == 401
        bad = far.post("/login", data={"key": "wrong", "next": "/"})
        assert bad.status_code == 401 and "not valid" in bad.text and "cairn_key" not in far.cookies
        ok = far.post("/login", data={"key": RIGHT_KEY, "next": "/search?q=heron"}, follow_redirects=False)
        assert ok.status_code == 303
        cookie = ok.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        page = far.get("/search?q=heron")
        assert page.status_code == 200 and "mill pond" in page.text and RIGHT_KEY not in page.text
        assert far.get("/static/web/app.js").status_code == 200
        assert far.get("/", headers={"Authorization": f"Bearer {RIGHT_KEY}"}).status_code == 200


def test_no_key_check_configured_means_loopback_only(site, real_embedder):
    app = web_app(site["cairn"], check_key=None)
    with TestClient(app, client=OUTSIDE) as far:
        assert far.post("/login", data={"key": RIGHT_KEY}).status_code == 401


@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
                                     {"Origin": "null"}, {"Sec-Fetch-Site": "same-site", "Origin": "http://testserver"}])
def test_cross_site_posts_are_refused(site, headers):
    c, cairn = site["local"], site["cairn"]
    r = c.post("/memories/remember", data={"text": "Cross-site memory"}, headers=headers)
    assert r.status_code == 403 and "CSRF" in r.text
    assert not cairn.memories()


def test_same_origin_posts_pass(site):
    c = site["local"]
    for headers in ({"Origin": "http://testserver"}, {"Sec-Fetch-Site": "same-origin"}, {}):
        assert c.post("/memories/remember", data={"text": "Same-origin memory"}, headers=headers,
                      follow_redirects=False).status_code == 303


def test_static_files_come_from_the_package_only(site):
    c = site["local"]
    assert c.get("/static/web/app.css").headers["content-type"].startswith("text/css")
    assert c.get("/static/web/..%2F__init__.py").status_code == 404
    assert c.get("/static/web/nothing.js").status_code == 404


def test_a_page_that_does_not_exist_is_a_page_for_a_browser_and_json_for_a_script(site):
    c = site["local"]
    html = c.get("/notes/n-does-not-exist", headers={"accept": "text/html,application/xhtml+xml"})
    assert html.status_code == 404 and html.headers["content-type"].startswith("text/html")
    assert "Page not found" in html.text and "/notes/n-does-not-exist" in html.text and 'href="/"' in html.text
    script = c.get("/notes/n-does-not-exist")
    assert script.status_code == 404 and script.headers["content-type"] == "application/json"
    api = c.get("/api/nothing-here", headers={"accept": "text/html"})
    assert api.status_code == 404 and api.headers["content-type"] == "application/json"


def test_page_assets_are_local_and_written_for_the_project():
    from cairn.interfaces.web import STATIC_DIR
    import pathlib
    web = STATIC_DIR.parent
    for f in list(web.glob("templates/*.html")) + list(STATIC_DIR.iterdir()):
        if f.suffix == ".png":  # the web app's icons (drawn for the project)
            assert f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f.stat().st_size < 20_000, f
            continue
        text = f.read_text()
        assert "https://" not in text.replace("https://example.org/article", ""), f  # no CDN
        assert "<script>" not in text and " style=" not in text, f  # CSP: no inline script/style
    assert sorted(p.name for p in STATIC_DIR.iterdir()) == ["app.css", "app.js", "cairn.svg", "chat.js",
                                                             "icon-192.png", "icon-512.png", "sw.js"]
    assert isinstance(web, pathlib.Path)


# --- the service operations the page added ------------------------------------------------

def test_service_search_by_tag_and_until(app, tmp_path):
    write(tmp_path / "n" / "a.md", "---\ntags: [x]\ncreated: 2024-01-10\n---\n# A\n\nwillow bark\n")
    write(tmp_path / "n" / "b.md", "---\ncreated: 2024-03-10T18:30:00+00:00\n---\n# B\n\nwillow leaf\n")
    app.ingest([tmp_path / "n"])
    titles = lambda **kw: sorted(h.title for h in app.search("willow", mode="keyword", **kw).hits)  # noqa: E731
    assert titles(tag="x") == ["A"]
    assert titles(until="2024-03-10") == ["A", "B"]  # the whole day counts
    assert titles(until="2024-03-09") == ["A"]
    assert titles(since="2024-02-01", until="2024-12-31") == ["B"]
    from cairn.errors import InvalidInput
    with pytest.raises(InvalidInput, match="until 'soon' is not an ISO date"):
        app.search("willow", until="soon")


def test_service_note_update_with_a_stale_hash_writes_nothing(app):
    from cairn.noteops import EditConflict
    note = app.note_create("Plan", "first")
    shown = app.note_show(note.id)
    path = app.settings.vault / note.path
    path.write_text(path.read_text().replace("first", "changed outside"))
    with pytest.raises(EditConflict) as err:
        app.note_update(note.id, "mine", expected_hash=shown["file_hash"])
    assert err.value.http_status == 409 and err.value.details["current_body"] == "changed outside"
    assert "changed outside" in path.read_text()
    app.note_update(note.id, "mine", expected_hash=app.note_show(note.id)["file_hash"])
    assert app.note_show(note.id)["body"] == "mine"


def test_service_disk_usage(app):
    app.note_create("Sized", "some text")
    d = app.disk_usage()
    assert 0 < d["vault"] <= d["home"] and 0 < d["index"] <= d["home"]


def _luminance(hex_colour: str) -> float:
    """WCAG 2.x relative luminance of #rrggbb."""
    c = [int(hex_colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_text_colours_meet_wcag_aa_in_light_and_dark():
    import re as _re
    from cairn.interfaces.web import STATIC_DIR
    css = (STATIC_DIR / "app.css").read_text()
    light_block = css.split(":root {", 1)[1].split("}", 1)[0]
    dark_block = css.split("@media (prefers-color-scheme: dark)", 1)[1].split(":root {", 1)[1].split("}", 1)[0]
    for block in (light_block, dark_block):
        v = dict(_re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", block))
        pairs = [("text", "bg"), ("text", "surface"), ("muted", "bg"), ("muted", "surface"),
                 ("muted", "accent-soft"), ("accent", "bg"), ("accent", "surface"), ("accent", "accent-soft"),
                 ("accent-text", "accent"), ("danger", "surface"), ("warn", "surface"), ("warn", "accent-soft"),
                 ("text", "mark"), ("text", "cite")]
        for fg, bg in pairs:
            assert _contrast(v[fg], v[bg]) >= 4.5, (fg, bg, v[fg], v[bg])


def test_a_read_key_can_look_but_not_change(site):
    scopes = {"reader": "read", "writer": "write"}
    app = web_app(site["cairn"], check_key=lambda key: scopes.get(key))
    with TestClient(app, client=OUTSIDE) as far:
        read = {"Authorization": "Bearer reader"}
        assert "mill pond" in far.get("/search?q=heron", headers=read).text
        r = far.post("/memories/remember", data={"text": "Read keys write nothing"}, headers=read)
        assert r.status_code == 403 and r.json()["error"] == "forbidden" and "scope" in r.json()["message"]
        r = far.post("/memories/remember", data={"text": "Read keys write nothing"},
                     headers={**read, "Accept": "text/html"})  # a browser gets a page, not JSON
        assert r.status_code == 403 and r.headers["content-type"].startswith("text/html")
        assert "Not allowed" in r.text and "this needs a key with scope" in r.text
        write = {"Authorization": "Bearer writer"}
        assert far.post("/memories/remember", data={"text": "Writers may remember"}, headers=write,
                        follow_redirects=False).status_code == 303
        mem = site["cairn"].memories()[0]
        r = far.post("/memories/forget", data={"memory_id": mem.id}, headers=write)
        assert r.status_code == 403 and "'admin'" in r.text  # forgetting needs admin, as in REST
        assert far.post("/notes/delete", data={"ref": "Alpha"}, headers=write).status_code == 403
        assert [m.text for m in site["cairn"].memories()] == ["Writers may remember"]
        assert site["cairn"].find_note("Alpha")


def test_a_pdf_citation_names_its_page_and_highlights_the_passage(site):
    from test_ingest import make_pdf
    c, cairn = site["local"], site["cairn"]
    folder = site["tmp"] / "pdf"
    folder.mkdir()
    pdf = make_pdf(folder / "manual.pdf", ["Boiler manual. Read this first.",
                                           "The boiler pressure should read 1.5 bar when cold."])
    cairn.ingest([pdf])
    r = c.get("/ask?q=What pressure should the boiler read?")
    assert "answers your question" in r.text
    href = r.text.split('class="citeref" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    assert "&page=2" in href
    note = c.get(href)
    assert "(page 2 of the original)" in note.text
    marked = note.text.split('id="cite"', 1)[1].split("</mark>", 1)[0]
    assert "1.5 bar" in marked


def test_dead_letters_are_listed_and_retried_from_the_page(site, monkeypatch):
    from pathlib import Path

    from test_jobs import FAST
    c, cairn = site["local"], site["cairn"]
    cairn.settings.jobs = FAST
    bad = write(site["tmp"] / "more" / "bad.md", "# Bad\n\nOtter tracks near the mill.\n")
    real = Path.read_bytes

    def read_bytes(self):
        if self.name == "bad.md" and self.parent == bad.parent:
            raise OSError(5, "Input/output error", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    cairn.ingest([bad.parent])
    monkeypatch.setattr(Path, "read_bytes", real)
    job = cairn.jobs()["dead"][0]
    page = c.get("/ingest").text
    assert "Failed (dead letters)" in page and "Input/output error" in page
    assert f'name="job_id" value="{job["id"]}"' in page
    task = c.post("/ingest/retry", data={"job_id": str(job["id"])}, headers={"Accept": "application/json"}).json()
    deadline = time.time() + 120
    while task["state"] not in ("done", "failed") and time.time() < deadline:
        time.sleep(0.2)
        task = c.get(f"/ingest/tasks/{task['id']}").json()
    assert task["state"] == "done" and task["report"]["added"] == 1
    assert cairn.jobs()["counts"]["dead"] == 0
    assert "Failed (dead letters)" not in c.get("/ingest").text
    assert "near the mill" in c.get("/search?q=otter+tracks").text


def test_a_url_run_that_is_refused_says_why(site):
    c = site["local"]
    task = c.post("/ingest/url", data={"url": "http://127.0.0.1:9/private"},
                  headers={"Accept": "application/json"}).json()
    deadline = time.time() + 120
    while task["state"] not in ("done", "failed") and time.time() < deadline:
        time.sleep(0.2)
        task = c.get(f"/ingest/tasks/{task['id']}").json()
    assert task["state"] == "failed" and task["report"]["added"] == 0
    reason = task["report"]["failed"][0]["reason"]
    assert "loopback" in reason and "refused" in reason  # Cairn never fetches inside your machine
    assert reason in task["error"]
    assert reason in c.get("/ingest").text.replace("&#39;", "'").replace("&amp;", "&")
