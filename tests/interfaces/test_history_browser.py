"""Undo of the assistant's approved edits through the web page (Debian's chromium driven by
Playwright, clicking the note page's button) and the REST route, on `cairn serve`'s
application under a real uvicorn on loopback: the note gets its exact previous bytes back."""

from __future__ import annotations

import pytest

from fakes.scripted_llm import ScriptedLLM, say, tool
from web_site import chromium, serve, serve_app

from cairn.assistant import Assistant, WaitingChannel
from cairn.service import Cairn

ORIGINAL = "---\ntitle: Kettle\n---\n\nDescale the kettle monthly — vinegar, then rinse twice.\n\n\n".encode()


@pytest.fixture(scope="module")
def site(tmp_path_factory, real_embedder):
    home = tmp_path_factory.mktemp("hist") / "home"
    (home / "vault").mkdir(parents=True)
    (home / "config.toml").write_text('llm = "none"\n')
    (home / "vault" / "Kettle.md").write_bytes(ORIGINAL)
    with Cairn(home, embedder=real_embedder) as app:
        app.sync()
    base, stop = serve(serve_app(home, real_embedder), "127.0.0.1")
    with ScriptedLLM() as llm:
        yield {"base": base, "home": home, "llm": llm, "embedder": real_embedder}
    stop()


def assistant_edit(site, text: str) -> None:
    with Cairn(site["home"], embedder=site["embedder"]) as app:
        app.settings.assistant.veto_s = app.settings.assistant.approval_timeout_s = 0.1
        site["llm"].script(tool("update_note", note="Kettle", body=text), say("Done."))
        ui = WaitingChannel(on_ask=lambda call: ui.answer(call["id"], True))  # the person approves
        res = Assistant(app, model=f"openai:{site['llm'].base_url}:scripted").turn("rewrite it", ui)
        assert [(c.name, c.outcome) for c in res.tool_calls] == [("update_note", "ran")]


def test_web_page_undo_button_returns_the_exact_bytes(site):
    path = site["home"] / "vault" / "Kettle.md"
    assistant_edit(site, "Replaced by the assistant.")
    assert path.read_bytes() != ORIGINAL
    with chromium() as browser:
        page = browser.new_page()
        page.set_default_timeout(60_000)
        page.goto(site["base"] + "/notes/open?ref=Kettle")
        assert "Replaced by the assistant." in page.inner_text(".prose")
        page.click("#undo-assistant")
        page.wait_for_selector("text=The assistant's last change was undone.")
        assert "vinegar" in page.inner_text(".prose")
        page.goto(site["base"] + "/notes/history?ref=Kettle")
        rows = page.locator("table.versions tbody tr").all_inner_texts()
        assert "web" in rows[0] and "undo" in rows[0] and "assistant" in rows[1]
    assert path.read_bytes() == ORIGINAL


def test_rest_undo_route_returns_the_exact_bytes(site):
    import httpx
    path = site["home"] / "vault" / "Kettle.md"
    before = path.read_bytes()
    assistant_edit(site, "Second rewrite by the assistant.")
    with httpx.Client(base_url=site["base"], timeout=120) as client:
        r = client.post("/api/undo")
        assert r.status_code == 200, r.text
        assert r.json()["undid"]["by"] == "assistant"
        assert path.read_bytes() == before
        hist = client.get("/api/notes/Kettle/history").json()["versions"]
        assert hist[0]["by"] == "rest" and isinstance(hist[0]["version"], int)
        r = client.post("/api/undo")  # each assistant change is undone once (the web test undid the first)
        assert r.status_code == 404 and "no change by the assistant" in r.json()["message"]
        r = client.get("/api/undo")  # nothing that changes state answers to GET
        assert r.status_code in (404, 405)
