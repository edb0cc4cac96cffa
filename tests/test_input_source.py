"""How a note came in (`input_source`: text, voice, url, file, image, import; EchOS E13):
recorded in the frontmatter by each way in (a note written in Cairn, a capture from a page,
an ingested file and image, an import, a turn that came in by voice), told for notes written
before the key existed, and shown by note show, the notes list and the web note page."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn import vault as V
from cairn.errors import InvalidInput
from cairn.model import input_source_of
from cairn.service import Cairn
from cairn.tools import current_input_source



def _png() -> bytes:
    import io
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (40, 20), "white").save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    root = tmp_path_factory.mktemp("insrc")
    with Cairn(root / "home", embedder=HashEmbedder()) as a:
        yield a, root


def _recorded(app, note) -> str:
    fm, _ = V.split_frontmatter((app.settings.vault / note.path).read_text(encoding="utf-8"))
    return fm["input_source"]


def test_each_way_in_records_its_input_source(app):
    a, root = app
    typed = a.note_create("Kettle", "The kettle whistles at dawn.")
    assert _recorded(a, typed) == "text" and a.note_show("Kettle")["input_source"] == "text"
    clip = a.capture("highlight", "https://example.org/herons", text="Herons nest in alders.", title="Herons")
    assert _recorded(a, clip) == "url"
    token = current_input_source.set("voice")  # as the Telegram bot sets it around a voice note's turn
    try:
        spoken = a.ingest_text("Buy oat milk on the way home.", title="Oat milk")
    finally:
        current_input_source.reset(token)
    assert _recorded(a, spoken) == "voice" and a.note_show("Oat milk")["input_source"] == "voice"
    (root / "in").mkdir()
    (root / "in" / "plan.txt").write_text("Plot 14: kale and chard.\n")
    (root / "in" / "photo.png").write_bytes(_png())
    (root / "in" / "walk.md").write_text("# Walk\n\nMill pond loop.\n")
    a.ingest([root / "in"])
    shown = {n["title"]: n["input_source"] for n in a.notes_list(limit=100)["notes"]}
    shown["Herons"] = shown.pop(clip.title)
    assert shown["Kettle"] == "text" and shown["Herons"] == "url" and shown["Oat milk"] == "voice"
    assert shown["plan"] == "file" and shown["photo"] == "image" and shown["Walk"] == "file"
    with pytest.raises(InvalidInput, match="input source 'fax' is not one of text, voice, url, file, image, import"):
        a.note_create("Fax", "x", input_source="fax")
    # filterable in search: by the recorded key, and by the rule for a note without one (walk.md)
    assert [h.title for h in a.search("oat milk kettle", mode="keyword", input_source="voice").hits] == ["Oat milk"]
    assert [h.title for h in a.search("mill pond loop", mode="keyword", input_source="file").hits] == ["Walk"]
    assert not a.search("mill pond loop", mode="keyword", input_source="text").hits
    with pytest.raises(InvalidInput, match="input source 'fax'"):
        a.search("kettle", input_source="fax")


def test_imports_and_older_notes(app, tmp_path):
    a, _ = app
    from importing.export_fixtures import gpt_conversation, write_chatgpt
    r = a.import_export("chatgpt", write_chatgpt(tmp_path / "c.json", [gpt_conversation("q1", "Quarry", [("user", "Swim at ten.")])]),
                        extract=False)
    assert a.note_show(r.note_ids[0])["input_source"] == "import"
    # notes written before the key existed are told by what they carry
    assert input_source_of({"import_source": "keep"}) == "import"
    assert input_source_of({"source": "https://example.org/a"}, "html") == "url"
    assert input_source_of({"source": "/home/ana/a.m4a"}, "audio") == "voice"
    assert input_source_of({"cairn_source": "/home/ana/notes/a.md"}, "markdown") == "file"
    assert input_source_of({}, "note") == "text" and input_source_of({"input_source": "Voice"}) == "voice"


def test_web_note_page_shows_it(app):
    from interfaces.rest_support import RestServer
    a, root = app
    with RestServer(a.settings.home) as srv, srv.client() as c:
        page = c.get("/notes/open", params={"ref": "Oat milk"})
    assert page.status_code == 200 and 'title="how it came in">voice</span>' in page.text


def test_a_telegram_voice_turn_is_marked_voice_in_its_lane_thread():
    """The bot runs a turn on a lane's worker thread, where the event loop's context does not
    reach: `_by_voice` sets input_source there, and only for that turn."""
    from concurrent.futures import ThreadPoolExecutor

    from cairn.interfaces.telegram.bot import _by_voice
    from cairn.tools import current_input_source
    seen = lambda person, text: (person, text, current_input_source.get())  # noqa: E731
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(_by_voice, seen, "telegram:1", "hi").result() == ("telegram:1", "hi", "voice")
        assert pool.submit(seen, "telegram:1", "typed").result()[2] == "text"  # the next turn is typed again
