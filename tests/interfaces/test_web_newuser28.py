"""The web page's words for a way out (newuser28): a service message that names a command
("`cairn sync` updates the index", "use `cairn remember` or `cairn note create`") names the
page's place for it instead, or says the command is one for the computer that runs Cairn — a
person at a browser cannot type it. In a real browser (Debian's chromium through Playwright, as
tests/interfaces/test_web_browser.py) on `cairn serve`'s application."""

from __future__ import annotations

import pytest

from conftest import write
from web_site import TIMEOUT, browser, serve, serve_app, watched_page  # noqa: F401  (browser: the fixture)

from cairn.service import Cairn


@pytest.fixture(scope="module")
def site(tmp_path_factory, real_embedder):
    tmp = tmp_path_factory.mktemp("web28")
    home = tmp / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    write(tmp / "in" / "shed.md", "# Shed\n\nThe shed key hangs behind the blue door.\n")
    write(tmp / "in" / "kiln.md", "# Kiln\n\nThe shed kiln fires on Tuesdays at 1200 degrees.\n")
    with Cairn(home, embedder=real_embedder) as cairn:
        cairn.ingest([tmp / "in"])
    app = serve_app(home, real_embedder)
    base, stop = serve(app, "127.0.0.1")
    yield {"base": base, "home": home}
    stop()


@pytest.fixture
def page(browser):  # noqa: F811
    with watched_page(browser, (1280, 860)) as pg:
        yield pg


def test_a_too_long_question_points_to_the_pages_not_to_commands(site, page):
    # was "... (to keep a long text, use `cairn remember` or `cairn note create`)"
    page.goto(site["base"] + "/ask?q=" + "w" * 4100)
    said = page.locator("#main .msg-error").inner_text()
    assert "the limit is 4,000" in said, said
    assert "`cairn" not in said and "the Memories page" in said and "New note on the Notes page" in said, said


def test_the_status_page_says_the_sync_is_a_command_for_the_server(site, page):
    # was "1 note file(s) of the vault are not in the index (...): run `cairn sync` to index them"
    write(site["home"] / "vault" / "loft.md", "# Loft\n\nThe loft ladder is in the garage.\n")
    page.goto(site["base"] + "/status")
    said = " ".join(page.locator("#main .health.warn").all_inner_texts())
    assert "not in the index (loft.md)" in said, said
    assert "run the command `cairn sync` on the computer that runs Cairn to index them" in said, said


def test_an_upload_added_with_a_warning_shows_the_warning(site, page):
    # the run said "1 added · 0 updated · 0 unchanged": the frontmatter left out of the note
    # (malformed YAML) was said at the command line only
    page.goto(site["base"] + "/ingest")
    page.set_input_files("#files", [{"name": "dock.md", "mimeType": "text/markdown",
                                     "buffer": b"---\ntitle: [unclosed\n---\nThe dock opens at 7.\n"}])
    run = page.locator("#runs .run-done .run-detail")
    run.wait_for(timeout=TIMEOUT)
    said = run.inner_text()
    assert "1 added" in said and "dock.md: frontmatter: YAML parse error" in said, said
    page.reload()  # the page as the server renders it says the same
    said = page.locator("#runs .run-done .run-detail").first.inner_text()
    assert "dock.md: frontmatter: YAML parse error" in said, said


def test_every_command_with_a_place_on_the_page_is_named_by_it():
    from cairn.interfaces.web.render import web_words
    assert web_words("add some with `cairn ingest PATH` first") == "add some with the Add page first"
    assert web_words("— `cairn jobs` lists the dead letters") == "— the job queue on the Add page lists the dead letters"
    assert web_words("run `cairn reindex` to rebuild it") == (
        "run the command `cairn reindex` on the computer that runs Cairn to rebuild it")
    assert web_words("no `code` here, cairn ingest unquoted") == "no `code` here, cairn ingest unquoted"
