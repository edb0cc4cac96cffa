"""The everyday doors of the web page in a real browser (Debian's chromium through
Playwright, one browser for the module): the conversation at /chat over `POST /chat` (a
scripted OpenAI-compatible model on loopback writes the replies), approvals as buttons, the
reminders page, and every page without horizontal scroll at phone width. Screenshots go to
tests/output/web-doors/ (the small ones in docs/screens/ were copied from there)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import httpx
import pytest

from conftest import write
from fakes.scripted_llm import ScriptedLLM, say, tool
from web_site import browser, outside_address, serve, serve_app, watched_page
from web_site import shoot as shoot_at

from cairn.apikeys import KeyStore

from cairn.service import Cairn

SHOTS = Path(__file__).parents[1] / "output" / "web-doors"


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


@pytest.fixture(scope="module")
def site(tmp_path_factory, real_embedder, llm):
    tmp = tmp_path_factory.mktemp("doors")
    home = tmp / "home"
    home.mkdir()
    (home / "config.toml").write_text(f'llm = "none"\n[assistant]\nmodel = "openai:{llm.base_url}:scripted"\n')
    write(tmp / "in" / "pond.md", "# Mill pond\n\nThe heron nests by the mill pond, in the tall reeds.\n")
    write(tmp / "in" / "shed.md", "# Shed plan\n\nThe shed needs paint before winter.\n")
    with Cairn(home, embedder=real_embedder) as cairn:
        cairn.ingest([tmp / "in"])
        from PIL import Image  # a note in the vault with an image beside it, as an Obsidian vault has
        (cairn.settings.vault / "assets").mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (64, 40), (47, 107, 85)).save(cairn.settings.vault / "assets" / "heron.png")
        write(cairn.settings.vault / "walks" / "heron.md", "# Heron photo\n\nThe heron by the Mill pond.\n\n"
              "![the heron](/assets/heron.png)\n\n```\ncode stays a block\n```\n")
        cairn.sync()
        cairn.remember("I promised to call Ana on Friday")  # and a reworded duplicate, extracted:
        cairn.extract_transcript([("s-20260101-000000-abcdef#2", "I told Ana I would phone her on Friday.",
                                   "2026-01-01T10:00:00+00:00")], llm="none")
    key = KeyStore(home).create("phone", "write")[1]
    outside = outside_address()
    app = serve_app(home, real_embedder, bind_host=outside)
    base, stop = serve(app, "127.0.0.1")
    far, far_stop = serve(app, outside)
    if SHOTS.exists():
        shutil.rmtree(SHOTS)
    SHOTS.mkdir(parents=True)
    yield {"base": base, "home": home, "tmp": tmp, "far": far, "key": key}
    stop()
    far_stop()


@pytest.fixture
def page(browser):
    with watched_page(browser) as pg:
        yield pg


def shoot(pg, name: str) -> None:
    """At 390 px nothing may be wider than the screen; screenshots at phone and desktop width."""
    shoot_at(pg, SHOTS, name, {"phone": (390, 844), "wide": (1280, 860)})


def test_a_message_sent_with_enter_gets_a_streamed_reply(site, page, llm):
    llm.script(say("The heron nests in the tall reeds by the mill pond."))
    page.goto(site["base"] + "/chat")
    box = page.locator("textarea[name=message]")
    assert page.evaluate("document.activeElement.name") == "message"  # keyboard first
    box.fill("where does the heron nest?")
    box.press("Enter")
    reply = page.locator(".turn-assistant .said").last
    reply.filter(has_text="tall reeds").wait_for()
    assert page.locator(".turn-user .said").last.inner_text() == "where does the heron nest?"
    assert box.input_value() == ""
    # the model was asked with streaming on: the page read the reply as delta events
    assert llm.requests[-1]["body"].get("stream") is True
    page.wait_for_url("**/chat?session=s-*")
    sid = page.url.split("session=")[1]
    # the session is listed; /why opens behind its disclosure
    page.reload()
    assert page.locator(f".sessions a[href='/chat?session={sid}']").count() == 1
    # listed by what was said first, not by its id alone
    assert page.locator(f".sessions a[href='/chat?session={sid}']").inner_text() == "where does the heron nest?"
    assert "tall reeds" in page.locator(".turn-assistant").last.inner_text()
    page.locator("#why summary").click()
    page.locator("#whybody").filter(has_text="tokens").wait_for()
    shoot(page, "chat")


def test_a_delete_asked_in_chat_waits_for_approve_and_runs_after_it(site, page, llm):
    llm.script(tool("delete_note", note="Shed plan"), say("Deleting a note waits for your approval."))
    page.goto(site["base"] + "/chat")
    page.locator("textarea[name=message]").fill("delete the shed plan note")
    page.locator("textarea[name=message]").press("Enter")
    waiting = page.locator(".turn-tool.pending")
    approve = waiting.get_by_role("button", name="Approve", exact=True)
    approve.wait_for()
    assert waiting.get_by_role("button", name="Deny", exact=True).is_visible()
    assert httpx.get(site["base"] + "/api/notes/Shed%20plan").status_code == 200  # not yet
    shoot(page, "chat-approval")
    approve.click()
    page.locator(".turn-tool", has_text="delete_note · ran").wait_for()
    assert httpx.get(site["base"] + "/api/notes/Shed%20plan").status_code == 404


def test_a_streamed_reply_shows_buttons_not_typed_approval_commands(site, page, llm):
    """faults27: the typed "/approve ID or /deny ID" of the command line is not shown beside the buttons."""
    llm.script(tool("delete_note", note="Mill pond"), say("delete_note waits for your approval: /approve ap-9 or /deny ap-9."))
    page.goto(site["base"] + "/chat")
    page.locator("textarea[name=message]").fill("delete the mill pond note")
    page.locator("textarea[name=message]").press("Enter")
    page.locator(".turn-tool.pending").get_by_role("button", name="Approve", exact=True).wait_for()
    reply = page.locator(".turn-assistant .said", has_text="waits for your approval")
    reply.wait_for()
    assert "/approve" not in reply.inner_text() and "Approve or Deny below" in reply.inner_text()


def test_new_conversation_is_new_and_a_waiting_call_is_shown_once(site, page, llm):
    def send(text: str, reply: str) -> None:
        page.locator("textarea[name=message]").fill(text)
        page.locator("textarea[name=message]").press("Enter")
        page.locator(".turn-assistant .said", has_text=reply).wait_for()

    page.goto(site["base"] + "/chat")
    llm.script(tool("delete_note", note="Mill pond"), say("That waits for your approval."))
    send("delete the mill pond note", "waits for your approval")
    page.wait_for_url("**/chat?session=s-*")
    first = page.url.split("session=")[1]
    # the call still waits after the next reply: one box for it, not one more per reply
    llm.script(say("Still waiting on you."))
    send("anything else?", "Still waiting")
    assert page.locator(".turn-tool.pending").count() == 1
    # "New conversation" is one: the server starts a new session, the old call stays there
    page.get_by_role("link", name="New conversation").click()
    llm.script(say("Hello again."))
    send("hello", "Hello again")
    page.wait_for_url(lambda u: "session=s-" in u and first not in u)
    assert page.locator(".turn-tool.pending").count() == 0
    page.goto(site["base"] + f"/chat?session={first}")  # the old conversation still has it
    assert page.locator(".turn-tool.pending").count() == 1


def test_share_target_prefills_the_message_and_the_app_is_installable(site, page):
    page.goto(site["base"] + "/chat?title=Otters&text=look&url=https%3A%2F%2Fexample.org%2Fotters")
    assert page.locator("textarea[name=message]").input_value() == "Otters\nlook\nhttps://example.org/otters"
    manifest = httpx.get(site["base"] + "/manifest.webmanifest").json()
    assert manifest["share_target"]["action"] == "/chat" and manifest["start_url"] == "/chat"
    for icon in manifest["icons"]:
        r = httpx.get(site["base"] + icon["src"])
        assert r.status_code == 200 and r.content[:8] == b"\x89PNG\r\n\x1a\n"
    # the service worker takes the page's shell: it is registered and activated
    state = page.evaluate("""async () => { const r = await navigator.serviceWorker.ready;
                                           return [r.scope, r.active && r.active.state]; }""")
    assert state[0] == site["base"] + "/" and state[1] in ("activating", "activated")


def test_reminders_page_creates_snoozes_and_finishes_one(site, page):
    page.goto(site["base"] + "/reminders")
    page.fill("#remtext", "water the plants")
    page.fill("#remwhen", "every weekday at 9")
    page.get_by_role("button", name="Set reminder").click()
    page.locator(".msg-ok", has_text="Reminder set.").wait_for()
    item = page.locator("#active li", has_text="water the plants")
    assert "every weekday at 9" in item.inner_text()
    rid = item.get_attribute("data-id")
    item.locator("select[name=until]").select_option("tomorrow at 9")
    item.get_by_role("button", name="Snooze").click()
    page.locator(".msg-ok", has_text="Snoozed.").wait_for()
    got = {r["id"]: r for r in httpx.get(site["base"] + "/api/reminders").json()}[rid]
    assert got["state"] == "scheduled" and "T09:00:00" in got["next_due"]
    # words Cairn cannot read: the form comes back filled in, nothing is stored
    page.fill("#remtext", "call Ana")
    page.fill("#remwhen", "when pigs fly")
    page.get_by_role("button", name="Set reminder").click()
    page.locator(".msg-error").wait_for()
    assert page.locator("#remtext").input_value() == "call Ana"
    assert "call Ana" not in json.dumps(httpx.get(site["base"] + "/api/reminders?all=true").json())
    shoot(page, "reminders")
    page.locator(f"#active li[data-id='{rid}']").get_by_role("button", name="Done").click()
    page.locator(".msg-ok", has_text="Marked done.").wait_for()
    assert "water the plants" in page.locator("#history").inner_text()


def test_from_another_machine_the_chat_api_takes_the_pages_cookie_only_from_the_page(site, llm):
    llm.script(say("Hello from afar."))
    cookie = {"cairn_key": site["key"]}
    with httpx.Client(base_url=site["far"], cookies=cookie, timeout=60) as c:
        assert c.post("/chat", json={"message": "hi"}).status_code == 403  # no Sec-Fetch-Site: no key
        r = c.post("/chat", json={"message": "hi"}, headers={"Sec-Fetch-Site": "same-origin"})
        assert r.status_code == 200 and "Hello from afar." in r.text
        assert c.post("/chat", json={"message": "hi"}, headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
        # a browser that sends no Sec-Fetch-Site (plain http to a LAN address): its Origin decides
        llm.script(say("Hello from afar."))
        r = c.post("/chat", json={"message": "hi"}, headers={"Origin": site["far"]})
        assert r.status_code == 200 and "Hello from afar." in r.text
        assert c.post("/chat", json={"message": "hi"}, headers={"Origin": "http://evil.example"}).status_code == 403
        assert c.post("/chat", json={"message": "hi"}, headers={"Origin": "null"}).status_code == 403
    with httpx.Client(base_url=site["far"], cookies={"cairn_key": "cairn_0000_wrong"}, timeout=60) as c:
        r = c.post("/chat", json={"message": "hi"}, headers={"Sec-Fetch-Site": "same-origin"})
        assert r.status_code == 403 and "scope" in r.text


def test_from_another_machine_over_plain_http_the_chat_works_in_a_real_browser(site, page, llm):
    # Chromium sends no Sec-Fetch-Site to an http:// address other than localhost (not a
    # "trustworthy" origin); its fetch() still sends Origin, which names the page itself
    page.goto(site["far"] + "/login?next=/chat")
    page.fill("input[name=key]", site["key"])
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/chat")
    llm.script(say("Hello over the local network."))
    page.locator("textarea[name=message]").fill("hello from the other room")
    page.locator("textarea[name=message]").press("Enter")
    page.locator(".turn-assistant .said", has_text="Hello over the local network.").wait_for()
    assert page.locator(".turn-tool.failed").count() == 0


def test_review_inbox_merges_two_duplicate_memories(site, page):
    page.goto(site["base"] + "/memories/review")
    item = page.locator(".review-item", has_text="Ana")
    pair = item.locator(".review-pair")
    assert "I promised to call Ana on Friday" in pair.inner_text()  # side by side, with sources
    assert "s-20260101-000000-abcdef#2" in pair.inner_text()
    shoot(page, "review")
    item.get_by_role("button", name="Merge into the older one").click()
    page.locator(".msg-ok", has_text="Merged").wait_for()
    assert page.locator(".review-item").count() == 0
    mems = httpx.get(site["base"] + "/api/memories").json()
    texts = [m["text"] for m in (mems["memories"] if isinstance(mems, dict) else mems)]
    assert [t for t in texts if "Ana" in t] == [t for t in texts if t.startswith("I promised to call Ana on Friday")]
    assert len([t for t in texts if "Ana" in t]) == 1


def test_a_notes_image_loads_from_the_vault(site, page):
    page.goto(site["base"] + "/notes/open?ref=Heron%20photo")
    img = page.locator(".prose img[alt='the heron']")
    img.wait_for()
    page.wait_for_function("document.querySelector(\".prose img[alt='the heron']\").complete")
    assert page.evaluate("document.querySelector(\".prose img[alt='the heron']\").naturalWidth") == 64
    assert page.locator(".prose pre code").inner_text().strip() == "code stays a block"
    assert "Mill pond" in page.locator("#related").inner_text()
    shoot(page, "note-image")
    outside = httpx.get(site["base"] + "/notes/asset", params={"ref": "Heron photo", "src": "../../config.toml"})
    assert outside.status_code == 404


def test_a_dead_letter_is_shown_and_replayed_from_the_reminders_page(site, page):
    from datetime import datetime, timedelta, timezone

    from cairn.config import load_settings
    from cairn.schedule.notify import DeliveryFailed
    from cairn.schedule.scheduler import Scheduler

    class Down:
        name, reaches_person = "down", True

        def send(self, message):
            raise DeliveryFailed("the phone is off")
    settings = load_settings(site["home"])
    with Scheduler(settings, [Down()]) as sch:
        rid = sch.remind("renew the passport", at="in 1 minute").id
        later = datetime.now(timezone.utc) + timedelta(minutes=2)
        for n in range(settings.time.max_attempts):  # every retry fails: a dead letter
            sch.run_due(now=later + timedelta(hours=n))
        assert sch.get(rid).state == "dead"
    page.goto(site["base"] + "/reminders")
    dead = page.locator(f"#dead li[data-id='{rid}']")
    assert "the phone is off" in dead.inner_text()
    dead.get_by_role("button", name="Replay").click()
    page.locator(".msg-ok", has_text="Queued again.").wait_for()
    assert page.locator(f"#active li[data-id='{rid}']").count() == 1
    with Scheduler(settings, []) as sch:
        assert sch.get(rid).state == "scheduled" and sch.get(rid).attempts == 0
