"""Issue 39, EchOS E18 on the web page: in Debian's chromium (Playwright), the note page's
**Enrich** button shows the category and tags while a scripted model on loopback has not yet
written the gist (its stream paused half-way), then the rest, then the stored block."""

from __future__ import annotations

import json
import threading

import pytest

from rest_support import RestServer
from web_site import ARGS, CHROMIUM

from fakes.scripted_llm import ScriptedLLM, pause, say

BODY = "The boiler pressure should be 1.2 bar when cold. Dave the plumber services the boiler every March."
REPLY = json.dumps({"category": "home", "tags": ["boiler", "plumber"],
                    "gist": "The boiler pressure should be 1.2 bar when cold.",
                    "key_points": ["Dave services the boiler every March."]})


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


def test_enrichment_appears_on_the_page_as_it_is_produced(tmp_path, llm):
    from playwright.sync_api import sync_playwright
    with RestServer(tmp_path / "home", f'llm = "openai:{llm.base_url}:scripted"\n') as srv, \
            sync_playwright() as p:
        with srv.client() as c:
            note = c.post("/api/notes", json={"title": "Boiler", "body": BODY}).json()
        resume = threading.Event()
        step = pause(say(REPLY), REPLY.index('"gist"'), resume)
        llm.script(step)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(60_000)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{srv.base}/notes/open?ref={note['id']}")
            page.click("#enrich-note")
            page.wait_for_selector("#enrich-live li[data-field=tag] >> nth=1")
            assert step["paused"].is_set() and not resume.is_set()
            shown = page.locator("#enrich-live li").all_inner_texts()
            assert shown == ["category: home", "tag: boiler", "tag: plumber"]  # no gist yet
            resume.set()
            page.wait_for_selector("#enrich-live li.enrich-done")
            shown = page.locator("#enrich-live li").all_inner_texts()
            assert shown[3:] == ["gist: The boiler pressure should be 1.2 bar when cold.",
                                 "key point: Dave services the boiler every March.", "Stored in the note."]
            page.reload()
            assert "Dave services the boiler every March." in page.locator("#enrichment dl").inner_text()
            assert not errors, errors
        finally:
            resume.set()
            browser.close()
