"""Issue 39's agent tools and content status: `note mark` / `search --status`, the tools
links, categorize, mark_note, save_conversation, search_session_log, and the memory kinds
pattern and mistake — through the service, the tool registry and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import notes_app
from cairn.errors import Conflict, InvalidInput
from cairn.tools import InvalidArguments, current_session, registry

NOTES = {
    "boiler.md": "---\ntitle: Boiler\n---\nThe boiler is a Vaillant, serviced in March. See [[Plumber]].\n",
    "plumber.md": "---\ntitle: Plumber\n---\nDave fixes leaks. His van is blue.\n",
    "article.md": "An article about boiler efficiency and condensing boilers, saved to read later.\n",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory, real_embedder):
    root = tmp_path_factory.mktemp("seedtools")
    with notes_app(root, NOTES, real_embedder) as app:
        yield app


def _titles(res) -> set[str]:
    return {h.title for h in res.hits}


def test_mark_note_writes_status_and_search_filters_on_it(app):
    row = app.note_mark("Boiler", "read")
    text = (app.settings.vault / row.path).read_text(encoding="utf-8")
    assert "status: read" in text and "title: Boiler" in text and "Vaillant" in text
    assert "Boiler" in _titles(app.search("boiler", status="read", mode="keyword"))
    assert "Boiler" not in _titles(app.search("boiler", status="saved", mode="keyword"))
    # a note never marked counts as saved
    assert "article" in {t.lower() for t in _titles(app.search("boiler efficiency", status="saved", mode="keyword"))}
    assert not app.search("boiler", status="archived", mode="keyword").hits
    # the status survives a rebuild of the index from the vault
    app.reindex()
    assert "Boiler" in _titles(app.search("boiler", status="read", mode="keyword"))


def test_bad_status_is_refused_naming_the_choices(app):
    with pytest.raises(InvalidInput, match="saved, read, archived"):
        app.note_mark("Plumber", "finished")
    with pytest.raises(InvalidInput, match="saved, read, archived"):
        app.search("boiler", status="done")


def test_unparseable_frontmatter_is_not_rewritten(app):
    bad = app.settings.vault / "broken.md"
    original = "---\ntitle: [unclosed\n---\nBroken frontmatter note about gutters.\n"
    bad.write_text(original, encoding="utf-8")
    app.sync([bad])
    with pytest.raises(Conflict, match="not rewritten"):
        app.note_mark("broken.md", "archived")
    assert bad.read_text(encoding="utf-8") == original


def test_tools_links_mark_and_categorize(app):
    reg = registry()
    links = reg.call(app, "links", {"note": "Boiler"})
    assert [l["target"] if isinstance(l, dict) else l.target for l in links["outgoing"]]
    assert links["note"]["title"] == "Boiler"
    marked = reg.call(app, "mark_note", {"note": "Plumber", "status": "archived"})
    assert marked["status"] == "archived"
    assert "Plumber" in _titles(app.search("leaks van", status="archived", mode="keyword"))
    with pytest.raises(InvalidArguments):
        reg.call(app, "mark_note", {"note": "Plumber", "status": "gone"})
    enriched = reg.call(app, "categorize", {"note": "Plumber"})
    assert enriched["note_id"] == app.find_note("Plumber").id
    assert "enrichment" in (app.settings.vault / app.find_note("Plumber").path).read_text(encoding="utf-8")


def _session(app) -> str:
    from cairn.assistant.sessions import SessionStore
    store = SessionStore(app.settings.home)
    st = store.create("cli", "local", "none")
    store.append(st.id, {"type": "user", "turn": 1, "text": "the garage door squeaks again"})
    store.append(st.id, {"type": "assistant", "turn": 1, "text": "I can remind you to oil the hinges."})
    return st.id


def test_search_session_log_and_save_conversation(app):
    reg = registry()
    sid = _session(app)
    found = reg.call(app, "search_session_log", {"query": "garage door squeaks"})
    assert found["turns"] and found["turns"][0]["session"] == sid
    assert "squeaks" in found["turns"][0]["text"]
    with pytest.raises(InvalidInput, match="no conversation to save"):
        reg.call(app, "save_conversation", {})
    token = current_session.set(sid)  # as the assistant sets it around a call
    try:
        saved = reg.call(app, "save_conversation", {"title": "Garage door chat"})
    finally:
        current_session.reset(token)
    assert saved["session"] == sid and saved["path"].startswith("conversations/")
    body = app.note_show("Garage door chat")["body"]
    assert "**You**" in body and "garage door squeaks" in body and "oil the hinges" in body
    with pytest.raises(Exception, match="no session"):
        reg.call(app, "save_conversation", {"session": "s-missing"})


def test_memory_kinds_pattern_and_mistake(app):
    for kind, text in (("pattern", "I skip breakfast when I work late"),
                       ("mistake", "I once booked the train for the wrong Sunday")):
        change = app.remember(text, kind=kind)
        assert change.memory.kind == kind
    kinds = {m.kind for m in app.memories()}
    assert {"pattern", "mistake"} <= kinds


def _cli(home, *args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(home), *args],
                          capture_output=True, text=True, env=env, timeout=300)


def test_cli_note_mark_and_search_status(tmp_path):
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "gutter.md").write_text("Clean the gutter in autumn.\n", encoding="utf-8")
    home = tmp_path / "home"
    assert _cli(home, "ingest", str(vault)).returncode == 0
    r = _cli(home, "note", "mark", "gutter", "read", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["status"] == "read"
    r = _cli(home, "search", "gutter", "--status", "read", "--mode", "keyword", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["hits"][0]["title"].lower() == "gutter"
    r = _cli(home, "search", "gutter", "--status", "archived", "--mode", "keyword", "--json")
    assert json.loads(r.stdout)["hits"] == []
    bad = _cli(home, "note", "mark", "gutter", "finished")
    assert bad.returncode == 2 and "finished" in bad.stderr
    r = _cli(home, "note", "rename", "gutter", "Gutter jobs", "--json")  # review3: no rename at the CLI
    assert r.returncode == 0 and json.loads(r.stdout)["title"] == "Gutter jobs", r.stderr
    bad = _cli(home, "note", "rename", "Gutter jobs", "  ")
    assert bad.returncode == 1 and "empty" in bad.stderr and "Traceback" not in bad.stderr
    assert json.loads(_cli(home, "note", "show", "Gutter jobs", "--json").stdout)["status"] == "read"
    r = _cli(home, "remember", "I leave the oven on when rushed", "--kind", "mistake")
    assert r.returncode == 0, r.stderr
    assert "mistake" in _cli(home, "memories").stdout
