"""The web page used as a new user would, in a real browser (Debian's chromium through
Playwright, as tests/interfaces/test_web_browser.py), on `cairn serve`'s application with a
small upload limit: what the page says when the server refuses something."""

from __future__ import annotations

import re

import pytest

from conftest import write
from web_site import TIMEOUT, browser, outside_address, serve, serve_app, watched_page

from cairn.apikeys import KeyStore
from cairn.service import Cairn


@pytest.fixture(scope="module")
def site(tmp_path_factory, real_embedder):
    tmp = tmp_path_factory.mktemp("webuser")
    home = tmp / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n\n[server]\nmax_upload_bytes = 4096\n')
    write(tmp / "in" / "pond.md", "# Mill pond\n\nThe heron nests by the mill pond, in the tall reeds.\n")
    with Cairn(home, embedder=real_embedder) as cairn:
        cairn.ingest([tmp / "in"])
    keys = {scope: KeyStore(home).create(scope, scope)[1] for scope in ("read", "write")}
    outside = outside_address()
    app = serve_app(home, real_embedder, bind_host=outside)
    base, stop = serve(app, "127.0.0.1")
    far, far_stop = serve(app, outside)  # "another machine": the page asks for a key
    yield {"base": base, "far": far, "keys": keys, "cairn": app.state.cairn, "tmp": tmp}
    stop()
    far_stop()


@pytest.fixture
def page(browser):
    with watched_page(browser, (1280, 860)) as pg:
        yield pg


def test_an_upload_over_the_limit_is_refused_in_words(site, page):
    # the server refuses with {"error": "too_large", "message": words}: the words are shown,
    # not the error's code
    page.goto(site["base"] + "/ingest")
    page.set_input_files("#files", [{"name": "big.md", "mimeType": "text/markdown",
                                     "buffer": b"# Big\n\n" + b"reeds " * 2000}])
    alert = page.locator("#main .msg-error")
    alert.wait_for(timeout=TIMEOUT)
    said = alert.inner_text()
    assert "larger than the limit of 4096 bytes" in said, said
    assert said.strip() != "too_large"


def _get(url: str, accept: str) -> tuple[int, str, str]:
    import urllib.error
    import urllib.request
    req = urllib.request.Request(url, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.headers.get("content-type", ""), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("content-type", ""), e.read().decode()


def test_a_bad_value_in_a_page_address_is_a_page_not_json(site, page):
    # an edited bookmark with a word where a number goes: a browser gets a page naming the
    # value; a script keeps the API's JSON 400
    url = site["base"] + "/notes/open?ref=Mill%20pond&start=abc"
    resp = page.goto(url)
    assert resp.status == 400
    assert page.locator("h1").inner_text() == "Not a valid address"
    said = page.locator("#main .msg-error").inner_text()
    assert "start" in said and "integer" in said, said
    assert '"error"' not in page.locator("body").inner_text()
    assert page.locator("header nav").count() == 1  # a page of the site, with its way back
    status, kind, body = _get(url, "application/json")
    assert status == 400 and kind.startswith("application/json") and '"invalid_input"' in body


def test_a_diff_with_long_lines_stays_inside_a_phone_screen(site, browser):
    # a changed line of a sentence or two is the common case; the diff and the table of
    # versions wrap inside a 390 px screen instead of widening the page
    cairn = site["cairn"]
    note = cairn.note_create("Boiler", "The boiler was serviced on 3 March by the engineer from the "
                             "heating company, who also bled the radiators upstairs.")
    cairn.note_update(note.id, "The boiler was serviced on 9 April by the engineer from the "
                      "heating company, who also replaced the pressure valve in the airing cupboard.")
    with watched_page(browser, (390, 844)) as pg:
        pg.goto(site["base"] + f"/notes/history?ref={note.id}&version=1")
        assert "pressure valve" in pg.locator("pre.diff").inner_text()
        assert pg.locator("table.versions tbody tr").count() >= 2
        wide = pg.evaluate("document.documentElement.scrollWidth")
        assert wide <= 390, f"the page is {wide} px wide on a 390 px screen"


def test_a_new_conversation_is_listed_beside_it_at_once(site, page):
    # the list was rendered before the conversation existed: once the first message is
    # answered the list names it (under its first message) instead of "No conversation yet."
    page.goto(site["base"] + "/chat")
    assert page.locator("#sesslist").inner_text().strip() == "No conversation yet."
    page.fill("#message", "Where does the heron nest?")
    page.keyboard.press("Enter")
    page.locator("#convo .turn-assistant").first.wait_for(timeout=TIMEOUT)
    listed = page.locator("#sesslist li")
    assert listed.count() == 1, page.locator("#sesslist").inner_text()
    link = listed.first.locator("a")
    assert link.inner_text() == "Where does the heron nest?"
    assert link.get_attribute("href") == "/chat?" + page.url.split("?", 1)[1]
    assert listed.first.get_attribute("aria-current") == "true"


def test_a_refusal_goes_once_the_next_upload_is_taken(site, page):
    # a refusal stayed above the runs after the next file was taken, as if that one had
    # been refused too
    page.goto(site["base"] + "/ingest")
    page.set_input_files("#files", [{"name": "big.md", "mimeType": "text/markdown",
                                     "buffer": b"# Big\n\n" + b"reeds " * 2000}])
    page.locator("#main .msg-error").wait_for(timeout=TIMEOUT)
    page.set_input_files("#files", [{"name": "coots.md", "mimeType": "text/markdown",
                                     "buffer": b"# Coots\n\nTwo coots on the mill pond.\n"}])
    page.locator(".run.run-done", has_text="coots.md").wait_for(timeout=TIMEOUT * 2)
    assert page.locator("#main .msg-error").count() == 0


def test_undo_with_nothing_to_undo_stays_on_the_note(site, page):
    # a fresh vault: the assistant changed nothing; the button said so on a dead-end page
    # away from the note
    page.goto(site["base"] + "/notes/open?ref=Mill%20pond")
    page.click("#undo-assistant")
    page.wait_for_url("**/notes/open?*saved=nothing")
    assert page.locator("h1").inner_text() == "Mill pond"
    assert "Nothing to undo" in page.locator("#main .msg-ok").inner_text()


def test_why_this_answer_without_a_token_limit_says_no_limit(site, page):
    # without a language model the prompt has no token budget (0): the disclosure said
    # "356 of 0 tokens", as if the prompt were over a limit of nothing
    page.goto(site["base"] + "/chat")
    page.fill("#message", "What is on the north bank of the mill pond?")
    page.keyboard.press("Enter")
    page.locator("#convo .turn-assistant").first.wait_for(timeout=TIMEOUT)
    page.click("#why summary")
    head = page.locator("#whybody p").first
    head.wait_for(timeout=TIMEOUT)
    said = head.inner_text()
    assert said.endswith(" tokens") and int(said.split()[0]) > 0, said
    assert " of 0 " not in said, said


def test_undoing_a_note_the_assistant_created_says_where_it_went(site, page):
    # the Undo button led to the list of notes without a word when the change undone was a
    # note the assistant had created (it went to the trash)
    page.goto(site["base"] + "/chat")
    page.fill("#message", "Create a note titled Otters saying the otters live under the old weir bridge.")
    page.keyboard.press("Enter")
    page.locator("#convo .turn-assistant", has_text="Otters").first.wait_for(timeout=TIMEOUT)
    assert site["cairn"].note_show("Otters")["title"] == "Otters"
    page.goto(site["base"] + "/notes/open?ref=Mill%20pond")
    page.click("#undo-assistant")
    page.wait_for_url("**/notes?undone=1")
    assert "now in the vault's .trash folder" in page.locator("#main .msg-ok").inner_text()
    assert "Otters" not in page.locator("main").inner_text()


def test_a_read_key_is_told_before_typing_a_note_it_cannot_save(browser, site):
    # signed in from another machine with a read key, a person wrote a note and lost it on
    # the "Not allowed" page; every page now says what the key allows before anything is typed
    for scope, shown in (("read", True), ("write", False)):
        with watched_page(browser) as pg:
            pg.goto(site["far"] + "/notes/new")
            pg.fill("#key", site["keys"][scope])
            pg.click("button:has-text('Sign in')")
            pg.wait_for_url("**/notes/new")
            assert pg.locator("#read-only").count() == (1 if shown else 0), scope
            if shown:
                assert "read key" in pg.locator("#read-only").inner_text()
    with watched_page(browser) as pg:  # on this machine no key is needed: no word about one
        pg.goto(site["base"] + "/notes/new")
        assert pg.locator("#read-only").count() == 0


def test_a_declined_answer_links_the_nearest_notes(site, page):
    # "your notes don't say" named the nearest notes only as words: each is now a link
    page.goto(site["base"] + "/ask")
    page.fill("#askq", "Is the heron nest on the south bank of the mill pond?")
    page.keyboard.press("Enter")
    page.locator("#answer .verdict").wait_for(timeout=TIMEOUT)
    assert page.locator("#answer .verdict").inner_text() == "your notes don't say"
    link = page.locator("#answer ul.pointers a", has_text="Mill pond")
    assert link.count() == 1
    link.click()
    page.wait_for_url(re.compile(r"/notes/open\?ref="))
    assert page.locator("h1").inner_text() == "Mill pond"


def test_an_uploaded_name_with_quotes_is_not_shown_percent_encoded(site, page):
    # chromium sends '"' in a file name as %22 (HTML's form encoding): the run and the
    # vault path read 'say %22hi%22.md'
    page.goto(site["base"] + "/ingest")
    page.set_input_files("#files", [{"name": 'say "hi" to the grebe.md', "mimeType": "text/markdown",
                                     "buffer": b"# Grebe\n\nA great crested grebe dived by the sluice.\n"}])
    run = page.locator(".run.run-done", has_text="grebe")
    run.wait_for(timeout=TIMEOUT * 2)
    name = run.locator(".run-name").inner_text()
    assert "%22" not in name and name == "say hi to the grebe.md", name
