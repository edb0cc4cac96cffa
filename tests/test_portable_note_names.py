"""hygiene27: an ingested markdown file's name became its vault note's path as it was, so a
name Linux allows but Windows does not (`What?.md`, `a:b.md`, `CON.md`, a folder `draft.`)
gave a vault that a sync app cannot put on a Windows machine. Each name of a vault copy is now
made portable by a stable mapping (cairn.paths.portable_name: each forbidden character becomes
"-", a trailing dot or space is dropped, a device name gets "_"), and a note whose title came
from its file name keeps the name given as its `title:`."""

from __future__ import annotations

import re

from conftest import write
from cairn.paths import portable_name

WINDOWS_BAD = re.compile(r'[\\:*?"<>|]|[ .]$|^(con|prn|aux|nul|com\d|lpt\d)(\.|$)', re.IGNORECASE)


def test_portable_name_maps_each_forbidden_name_the_same_way_every_time():
    assert portable_name('What?.md') == "What-.md"
    assert portable_name('a:b<c>"d"|e*f\\g.md') == "a-b-c--d--e-f-g.md"
    assert [portable_name(n) for n in ("CON.md", "nul", "COM1.txt.md", "lpt9.md")] == [
        "CON_.md", "nul_", "COM1_.txt.md", "lpt9_.md"]
    assert portable_name("draft. .md") == "draft.md" and portable_name("folder. ") == "folder"
    assert portable_name("Straße – ok.md") == "Straße – ok.md"  # portable already: as it is
    assert portable_name("...") == "_"


def test_ingested_names_become_portable_note_paths_and_keep_their_titles(app, tmp_path):
    root = tmp_path / "in:box."
    write(root / "What?.md", "Ask the plumber about the boiler valve.\n")
    write(root / "CON.md", "# Console log\n\nThe console was moved to the attic.\n")
    write(root / "sub|dir" / 'a<b>.md', "---\ntitle: Angle brackets\n---\n\nKept as written.\n")
    write(root / "trail .md", "Trailing space before the suffix.\n")
    report = app.ingest([root])
    assert len(report.added) == 4 and not report.failed, report.to_json()
    notes = {n["path"]: n["title"] for n in app.notes_list()["notes"]}
    assert notes == {"notes/in-box/What-.md": "What?", "notes/in-box/CON_.md": "Console log",
                     "notes/in-box/sub-dir/a-b-.md": "Angle brackets", "notes/in-box/trail.md": "trail"}, notes
    for path in notes:
        assert not any(WINDOWS_BAD.search(part) for part in path.split("/")), path
    vault = app.settings.vault
    what = (vault / "notes/in-box/What-.md").read_text(encoding="utf-8")
    assert what.startswith("---\ntitle: What?\n") and "cairn_source:" in what and "What?.md" in what, what
    assert "title:" not in (vault / "notes/in-box/CON_.md").read_text(encoding="utf-8")  # its heading names it
    assert app.note_show("What?")["body"].endswith("Ask the plumber about the boiler valve.")
    again = app.ingest([root])  # the same sources map to the same notes
    assert not again.added and len(again.unchanged) == 4, again.to_json()
    write(root / "What?.md", "Ask the plumber about the boiler valve and the flue.\n")  # edited at its source
    assert len(app.ingest([root]).updated) == 1
    assert app.note_show("notes/in-box/What-.md")["title"] == "What?"  # the title is written again


def test_imported_names_never_make_a_device_name(app, tmp_path):
    from conftest import write_jsonl
    from cairn.paths import not_device
    assert [not_device(n) for n in ("con", "nul.md", "Com1.tar.md", "con-game.md", "console")] == [
        "con_", "nul_.md", "Com1_.tar.md", "con-game.md", "console"]
    notes = write_jsonl(tmp_path / "aux.jsonl", [{"id": "prn", "text": "The printer is in the study."}])
    app.import_notes(notes)
    chat = write_jsonl(tmp_path / "chat.jsonl", [{"conversation": "CON", "session": "nul", "id": "1", "speaker": "A",
                                                  "time": "2024-06-01T09:00:00Z", "text": "The lpt port is gone."}])
    app.import_chat(chat)
    paths = sorted(n["path"] for n in app.notes_list()["notes"])
    assert paths[0] == "chats/con_/nul_.md" and paths[1].startswith("records/aux_/prn-"), paths


def test_a_folder_named_with_a_leading_dot_is_not_hidden_in_the_vault(app, tmp_path):
    """`cairn ingest ~/.notes` wrote vault/notes/.notes/...: a hidden folder sync, reindex and the
    watcher skip, so `cairn sync` failed ("the vault holds no notes") or dropped those notes."""
    assert portable_name(".notes") == "_.notes" and portable_name("  .md") == "_.md"
    write(tmp_path / ".hid" / "otter.md", "# Otter\n\nThe otter swims at dawn.\n")
    app.ingest([tmp_path / ".hid"])
    assert [n["path"] for n in app.notes_list()["notes"]] == ["notes/_.hid/otter.md"]
    report = app.sync()
    assert not report.failed and not report.removed, report.to_json()
    assert [h.path for h in app.search("otter dawn", mode="keyword").hits] == ["notes/_.hid/otter.md"]
