"""probe24b: on the web page's Ask, a question holding a lone UTF-16 surrogate (half of a pasted
emoji) made the page's script throw "URI malformed" (encodeURIComponent): the Ask button did
nothing, without a word. The script now sends it as HTML's own form submission would (the lone
half as U+FFFD), and the answer comes."""

from __future__ import annotations

import pytest

from web_site import chromium, serve, serve_app, watched_page

from cairn.service import Cairn


@pytest.fixture(scope="module")
def site(tmp_path_factory, real_embedder):
    home = tmp_path_factory.mktemp("web") / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    with Cairn(home, embedder=real_embedder) as cairn:
        cairn.note_create("Shed", "The shed key is under the blue pot.")
    base, stop = serve(serve_app(home, real_embedder), "127.0.0.1")
    yield base
    stop()


def test_a_lone_surrogate_in_the_question_still_gets_an_answer(site):
    with chromium() as browser, watched_page(browser) as page:  # a script error fails the test
        page.goto(site + "/ask")
        page.evaluate("q => { document.getElementById('askq').value = q; }", "where is the shed key \ud83d?")
        page.click("button[type=submit]")
        page.locator("#answer .verdict").wait_for()
        assert "blue pot" in page.locator("#answer").inner_text()
        assert "%EF%BF%BD" in page.url  # the lone half sent as U+FFFD, as a form would send it
