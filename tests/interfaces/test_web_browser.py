"""The web page in a real browser: Debian's chromium driven by Playwright (no browser
download), `cairn serve`'s application (create_app: its front door, keys, event stream)
on a real uvicorn on loopback, and on a non-loopback address of this machine for the key
check. Each view leaves screenshots at 390 px and 1440 px wide in
tests/output/web/ (printed at the end of the run; not committed)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import write
from web_site import TIMEOUT, browser, outside_address, serve, serve_app, watched_page
from web_site import shoot as shoot_at

from cairn.apikeys import KeyStore
from cairn.service import Cairn

SHOTS = Path(__file__).parents[1] / "output" / "web"
WIDTHS = {"phone": (390, 844), "wide": (1440, 900)}


@pytest.fixture(scope="module")
def site(tmp_path_factory, real_embedder):
    tmp = tmp_path_factory.mktemp("web")
    home = tmp / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    write(tmp / "in" / "pond.md", "# Mill pond\n\nNotes from the walk on Sunday.\n\n"
          "The heron nests by the mill pond, in the tall reeds on the north bank.\n\n"
          "Later we saw two coots and a [[Kingfisher]].\n")
    write(tmp / "in" / "garden.md", "---\ntags: [garden]\n---\n# Garden plan\n\n"
          "Plant the beans in May. The shed needs paint. See [[Mill pond]].\n")
    with Cairn(home, embedder=real_embedder) as cairn:
        cairn.ingest([tmp / "in"])
    key = KeyStore(home).create("browser", "write")[1]
    outside = outside_address()
    app = serve_app(home, real_embedder, bind_host=outside)
    base, stop = serve(app, "127.0.0.1")
    far_base, far_stop = serve(app, outside)
    if SHOTS.exists():
        shutil.rmtree(SHOTS)
    SHOTS.mkdir(parents=True)
    yield {"base": base, "far": far_base, "cairn": app.state.cairn, "tmp": tmp, "key": key}
    stop()
    far_stop()
    print(f"\nweb screenshots: {SHOTS}")


@pytest.fixture
def page(browser):
    with watched_page(browser, (1440, 900)) as pg:
        yield pg


def shoot(pg, name: str) -> None:
    """Screenshots of the current view at phone and desktop width (whole page); at phone
    width nothing may be wider than the screen."""
    shoot_at(pg, SHOTS, name, WIDTHS, full_page=True)


def test_upload_by_drag_and_drop_becomes_searchable(site, page):
    page.goto(site["base"] + "/ingest")
    shoot(page, "ingest-empty")
    # a real drop event carrying a file, as a person dragging it from their desktop
    handle = page.evaluate_handle("""() => {
        const dt = new DataTransfer();
        dt.items.add(new File(["# Otters\\n\\nAn otter family lives under the old weir bridge.\\n"],
                              "otters.md", {type: "text/markdown"}));
        return dt; }""")
    page.dispatch_event("#dropzone", "dragover", {"dataTransfer": handle})
    page.dispatch_event("#dropzone", "drop", {"dataTransfer": handle})
    run = page.locator(".run").first
    run.locator(".run-name", has_text="otters.md").wait_for()
    page.locator(".run.run-done", has_text="otters.md").wait_for(timeout=TIMEOUT * 2)
    assert run.locator("progress").get_attribute("value") == "100"
    assert "1 added" in run.locator(".run-detail").inner_text()
    shoot(page, "ingest-done")
    page.goto(site["base"] + "/search?q=otter+weir")
    assert "Otters" in page.locator(".result h2").first.inner_text()


def test_a_long_unbroken_title_stays_inside_a_phone_screen(site, page):
    long = "Reed" + "warbler" * 40  # one word of 284 letters, as a pasted link or a hash would be
    site["cairn"].note_create(long, "A reed warbler sang in the mill pond reeds. See [[Mill pond]].")
    for where in ("/notes", "/notes/open?ref=Mill%20pond", "/search?q=reed+warbler"):
        page.goto(site["base"] + where)
        assert long in page.locator("main").inner_text()
        if where.startswith("/notes/open"):  # the gist quotes "a [[Kingfisher]]": shown as words
            assert "[[" not in page.locator("main").inner_text()
        shoot(page, "long-title" + where.replace("/", "-").split("?")[0])


def test_search_page_slash_key_filters_and_why_bars(site, page):
    page.goto(site["base"] + "/")
    shoot(page, "home")
    page.goto(site["base"] + "/notes")  # a page without autofocus
    page.keyboard.press("Tab")  # focus order starts with the skip link, then the brand and nav
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "brand"
    page.goto(site["base"] + "/")
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.name") == "q"
    page.keyboard.type("heron")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/search\?q=heron"))
    first = page.locator(".result").first
    assert "mill pond" in first.locator(".snippet").inner_text()
    assert first.locator("mark").first.inner_text().lower() == "heron"
    assert first.locator("meter").count() >= 3
    # keyword, meaning and recency always; a signal added later only when it ranked the passage
    shown = [t.lower() for t in first.locator(".passage").first.locator("dt").all_inner_texts()]
    assert shown[:3] == ["keyword", "semantic", "recency"] and "speaker" not in shown, shown
    shoot(page, "search")
    page.emulate_media(color_scheme="dark")  # the system's dark setting is followed
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(21, 25, 23)"
    shoot(page, "search-dark")
    page.emulate_media(color_scheme="light")
    page.goto(site["base"] + "/search?q=paint&tag=garden")
    assert page.locator(".result").count() == 1 and "Garden plan" in page.locator(".result h2").inner_text()


def test_ask_streams_and_a_citation_opens_the_passage_highlighted(site, page):
    page.goto(site["base"] + "/ask")
    page.fill("#askq", "Where does the heron nest?")
    page.keyboard.press("Enter")
    page.locator("#answer .verdict").wait_for()
    assert page.locator("#answer .verdict").inner_text() == "answers your question"
    assert "mill pond" in page.locator("#answer .answer-text").inner_text()
    shoot(page, "ask")
    page.locator("#answer a.citeref").first.click()
    page.wait_for_url(re.compile(r"/notes/open\?.*#cite$"))
    mark = page.locator("mark#cite")
    assert "heron nests by the mill pond" in mark.inner_text()
    assert page.evaluate("document.activeElement.id") == "cite"  # focused, so scrolled to
    box = mark.bounding_box()
    assert box is not None and 0 <= box["y"] <= page.viewport_size["height"]
    shoot(page, "note-cited")


def test_edit_a_note_and_find_the_new_text(site, page):
    page.goto(site["base"] + "/notes")
    shoot(page, "notes")
    page.get_by_role("link", name="Garden plan").click()
    page.get_by_role("link", name="Edit").click()
    page.fill("#body", "# Garden plan\n\nPlant the beans in June. The greenhouse roof leaks near the door.")
    shoot(page, "note-edit")
    page.get_by_role("button", name="Save to vault").click()
    page.locator(".msg-ok", has_text="Saved to the vault.").wait_for()
    shoot(page, "note")
    page.goto(site["base"] + "/search?q=greenhouse+roof")
    assert "Garden plan" in page.locator(".result h2").first.inner_text()
    # an outside edit while the editor is open is shown, and nothing is overwritten
    page.goto(site["base"] + "/notes/open?ref=Garden%20plan&edit=1")
    path = site["cairn"].settings.vault / site["cairn"].note_show("Garden plan")["path"]
    path.write_text(path.read_text() + "\nAdded in another editor.\n")
    page.fill("#body", "My version from the page.")
    page.get_by_role("button", name="Save to vault").click()
    page.locator(".conflict").wait_for()
    assert "Added in another editor." in page.locator(".current-version").inner_text()
    assert page.input_value("#body") == "My version from the page."
    shoot(page, "note-conflict")


def test_remember_and_forget_a_memory(site, page):
    page.goto(site["base"] + "/memories")
    page.fill("#mtext", "My sister Ana lives in Porto")
    page.get_by_role("button", name="Remember").click()
    page.locator(".msg-ok", has_text="Remembered.").wait_for()
    assert page.locator(".mem", has_text="My sister Ana lives in Porto").count() == 1
    page.fill("#core-new-name", "persona")
    page.fill("#core-new-text", "Prefers short answers.")
    page.get_by_role("button", name="Add block").click()
    page.locator(".msg-ok", has_text="Core block saved.").wait_for()
    page.fill("#mtext", "My sister Ana lives in Lisbon now")  # contradicts: supersedes
    page.get_by_role("button", name="Remember").click()
    page.locator(".msg-ok", has_text="it replaces an older memory").wait_for()
    assert page.locator(".mem", has_text="lives in Porto").count() == 0
    shoot(page, "memories")
    page.locator(".mem", has_text="Lisbon").get_by_role("link", name="History").click()
    items = page.locator(".timeline > li")
    items.first.wait_for()
    assert items.count() == 2 and "superseded" in items.nth(0).inner_text() and "active" in items.nth(1).inner_text()
    shoot(page, "memory-history")
    page.go_back()
    page.once("dialog", lambda d: d.accept())  # forgetting asks first
    page.locator(".mem", has_text="Lisbon").get_by_role("button", name=re.compile("^Forget")).click()
    page.locator(".msg-ok", has_text="Forgotten.").wait_for()
    assert page.locator(".mem", has_text="Lisbon").count() == 0


def test_status_page(site, page):
    page.goto(site["base"] + "/status")
    assert page.locator(".health").inner_text().strip() == "Everything is indexed."
    shoot(page, "status")


def test_wrong_key_from_another_machine_is_refused(site, page):
    page.goto(site["far"] + "/search?q=heron")
    page.wait_for_url(re.compile(r"/login\?next="))
    shoot(page, "login")
    page.fill("#key", "not-the-key")
    page.get_by_role("button", name="Sign in").click()
    page.locator(".msg-error", has_text="That key is not valid.").wait_for()
    resp = page.request.get(site["far"] + "/search?q=heron", headers={"Authorization": "Bearer not-the-key"})
    assert resp.status == 401
    page.fill("#key", site["key"])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/search\?q=heron"))
    assert "mill pond" in page.locator(".result").first.inner_text()
    assert site["key"] not in page.content()
    assert page.evaluate("document.cookie") == ""  # HttpOnly: no script can read the key


# last in the module: it leaves a dead letter, which /status (above) would count
def test_a_skipped_upload_is_named_and_a_failed_url_gets_retry_without_reload(site, page):
    page.goto(site["base"] + "/ingest")
    page.set_input_files("#files", [{"name": "lark.md", "mimeType": "text/markdown",
                                     "buffer": b"# Lark\n\nA skylark sang over the water meadow.\n"},
                                    {"name": "junk.bin", "mimeType": "application/octet-stream",
                                     "buffer": b"\x00\x01\x02 not text \xff"}])
    page.locator("#dropzone button[type=submit]").click()
    done = page.locator(".run.run-done", has_text="lark.md")
    done.wait_for(timeout=TIMEOUT * 2)
    assert "skipped junk.bin: binary data" in done.locator(".run-detail").inner_text()  # which file
    # a URL refused by its form (loopback) is named at once and never queued: no Retry that cannot succeed
    page.fill("#url", "http://127.0.0.1:9/nothing-here")
    page.locator("#urlform button[type=submit]").click()
    refused = page.locator(".run.run-failed", has_text="127.0.0.1:9")
    refused.wait_for(timeout=TIMEOUT * 2)
    assert "loopback" in refused.inner_text()
    queue = page.locator("section[aria-labelledby=jobs-h]")
    assert queue.locator("li", has_text="127.0.0.1:9/nothing-here").count() == 0
    # a web page that cannot be fetched (a name that never resolves, RFC 2606 .invalid): the queue offers Retry
    page.fill("#url", "http://nothing-here.invalid/page")
    page.locator("#urlform button[type=submit]").click()
    page.locator(".run.run-failed", has_text="nothing-here.invalid").wait_for(timeout=TIMEOUT * 2)
    queue.locator("li", has_text="nothing-here.invalid/page").get_by_role("button", name="Retry").wait_for()
    shoot(page, "ingest-failed-url")
