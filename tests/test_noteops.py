"""Note operations (noteops via the service): create/show/update/delete, their errors, and
frontmatter kept byte for byte on update."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import write
from cairn.links import NoteNotFound
from cairn.noteops import NoteConflict


def test_create_show_update_append_keeps_frontmatter(app):
    note = app.note_create("Bike: service / parts?", "Chain oiled.", folder="garage", tags=["bike"])
    assert note.path == "garage/Bike- service - parts.md"  # unsafe file-name characters replaced
    assert note.title == "Bike: service / parts?" and note.tags == ["bike"]
    path = app.settings.vault / note.path
    head = path.read_text().split("\n---\n")[0]
    app.note_update(note.id, "New brake pads.", mode="append")
    app.note_update("garage/Bike- service - parts.md", "Tyres pumped to 4 bar.", mode="append")
    assert path.read_text().startswith(head + "\n---\n")
    shown = app.note_show("bike: service / parts?")
    assert shown["body"] == "Chain oiled.\n\nNew brake pads.\n\nTyres pumped to 4 bar."
    assert shown["id"] == note.id and shown["tags"] == ["bike"]
    assert [h.title for h in app.search("brake pads", mode="keyword").hits] == ["Bike: service / parts?"]


def test_update_of_a_note_with_malformed_frontmatter_keeps_the_block(app):
    text = "---\ntitle: [unclosed\n---\nOld line.\n"
    write(app.settings.vault / "odd.md", text)
    app.sync()
    app.note_update("odd.md", "New line.")
    assert (app.settings.vault / "odd.md").read_text() == "---\ntitle: [unclosed\n---\n\nNew line.\n"


def test_a_note_saved_with_a_byte_order_mark_keeps_its_frontmatter(app):
    """A note saved by an editor that writes a BOM (Windows Notepad): the index read its
    title and tags, but `note update` wiped the block and `note mark` put a second block
    above it, the first one becoming body text (review2)."""
    write(app.settings.vault / "bom.md", "\ufeff---\ntitle: Seed order\ntags: [garden]\n---\nTomatoes.\n")
    app.sync()
    app.note_update("Seed order", "Beans.", mode="append")
    app.note_mark("Seed order", "read")
    app.note_update("Seed order", "Peas only.")
    shown = app.note_show("Seed order")
    assert (shown["title"], shown["tags"], shown["status"], shown["body"]) == ("Seed order", ["garden"], "read",
                                                                               "Peas only.")
    assert (app.settings.vault / "bom.md").read_text(encoding="utf-8").count("---\n") == 2


def test_mark_and_rename_keep_a_windows_notes_line_endings(app):
    """A note written with CRLF line endings keeps them when Cairn rewrites a key of its
    frontmatter (`note mark`, `note rename`); the index still reads the new values."""
    path = app.settings.vault / "crlf.md"
    path.write_bytes(b"---\r\ntitle: Loft ladder\r\ntags: [house]\r\n---\r\nRung three is loose.\r\n")
    app.sync()
    app.note_mark("Loft ladder", "read")
    app.note_rename("Loft ladder", "Attic ladder")
    raw = path.read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n") and b"status: read\r\n" in raw
    assert raw.endswith(b"Rung three is loose.\r\n")
    shown = app.note_show("Attic ladder")
    assert (shown["status"], shown["tags"], shown["body"].strip()) == ("read", ["house"], "Rung three is loose.")


def test_mark_keeps_an_old_mac_notes_line_endings(app):
    """A note with classic Mac OS line endings (CR only) was rewritten with LF by `note mark`:
    every line of the person's file changed; it keeps CR, as a Windows note keeps CRLF."""
    path = app.settings.vault / "cr.md"
    path.write_bytes(b"---\rtitle: Tide table\rtags: [sea]\r---\rHigh water at 06:12.\r")
    app.sync()
    app.note_mark("Tide table", "read")
    raw = path.read_bytes()
    assert b"\n" not in raw and b"status: read\r" in raw and raw.endswith(b"High water at 06:12.\r")
    shown = app.note_show("Tide table")
    assert (shown["status"], shown["tags"], shown["body"].strip()) == ("read", ["sea"], "High water at 06:12.")
    app.note_update("Tide table", "Low water at 12:30.", mode="append")  # `note update` too, and CRLF
    assert path.read_bytes() == b"---\rstatus: read\rtitle: Tide table\rtags: [sea]\r---\rHigh water at 06:12.\r\rLow water at 12:30.\r"
    win = app.settings.vault / "win.md"
    win.write_bytes(b"---\r\ntitle: Fuse box\r\n---\r\nMain switch on the left.\r\n")
    app.sync()
    app.note_update("Fuse box", "Spare fuses in the drawer.", mode="append")
    assert win.read_bytes() == b"---\r\ntitle: Fuse box\r\n---\r\nMain switch on the left.\r\n\r\nSpare fuses in the drawer.\r\n"


def test_create_errors(app):
    app.note_create("Groceries", "- oat milk")
    with pytest.raises(NoteConflict, match="exists already"):
        app.note_create("groceries", "again")  # same title, other case
    write(app.settings.vault / "x" / "Taken.md", "---\ntitle: Something else\n---\nbody\n")
    app.sync()
    with pytest.raises(NoteConflict, match="x/Taken.md exists already"):
        app.note_create("Taken", "body", folder="x")
    with pytest.raises(ValueError, match="title is empty"):
        app.note_create("   ", "body")
    with pytest.raises(ValueError, match="outside the vault"):
        app.note_create("Escape", "body", folder="../..")
    with pytest.raises(ValueError, match="hidden or reserved"):
        app.note_create("Hidden", "body", folder=".trash")
    # a new folder whose name a synced Windows copy cannot hold (a backslash made a folder named "a\\b")
    for bad, part in (("a\\b", "a\\b"), ("notes/con", "con"), ("q:a", "q:a"), ("x/trail.", "trail.")):
        with pytest.raises(ValueError, match=re.escape(f"folder name {part!r} cannot be used on every system")):
            app.note_create("Portable", "body", folder=bad)
    (app.settings.vault / "odd:name").mkdir()  # a folder the person made is theirs to use
    assert app.note_create("Kept", "body", folder="odd:name").path == "odd:name/Kept.md"
    app.note_delete("Kept")
    with pytest.raises(ValueError, match=r"'x/Taken.md/deeper': x/Taken.md is a file in the vault, not a folder"):
        app.note_create("Inside a file", "body", folder="x/Taken.md/deeper")
    with pytest.raises(ValueError, match=r"holds control characters \(U\+0007\)"):
        app.note_create("Bell\a ringer", "body")
    assert app.conn.execute("SELECT count(*) FROM notes").fetchone()[0] == 2  # nothing lost or added
    # line breaks and tabs in a title are white space: one line, as a rename makes it
    made = app.note_create("Two\nlines\tand a tab", "body")
    assert made.title == "Two lines and a tab" and made.path == "Two lines and a tab.md"


def test_file_names_fit_every_file_system(app):
    """A long title in a script of several bytes a character (Japanese, emoji) made a file
    name over the 255 bytes file systems allow ("file name too long", nothing created); a
    Windows device name (CON, aux, COM1.txt) made a file a synced Windows copy cannot hold."""
    long_cjk = "日本語のメモ" * 30
    made = app.note_create(long_cjk, "cjk body")
    assert made.title == long_cjk
    emoji = app.note_create("🙂" * 130, "emoji body")
    for note in (made, emoji):
        name = note.path.encode("utf-8")
        assert len(name) <= 255 and (app.settings.vault / note.path).is_file()
    assert app.note_show(long_cjk)["body"] == "cjk body"
    paths = [app.note_create(t, "x").path for t in ("CON", "aux", "COM1.txt", "Lpt9", "Console")]
    assert paths == ["CON_.md", "aux_.md", "COM1_.txt.md", "Lpt9_.md", "Console.md"]


def test_update_and_delete_errors(app):
    with pytest.raises(NoteNotFound, match="'Nope'"):
        app.note_update("Nope", "x")
    with pytest.raises(NoteNotFound):
        app.note_delete("Nope")
    app.note_create("Plan", "v1")
    with pytest.raises(ValueError, match="mode 'replace'"):
        app.note_update("Plan", "x", mode="replace")
    assert app.note_show("Plan")["body"] == "v1"


def test_delete_twice_same_name_keeps_both_in_trash(app):
    first = app.note_create("Draft", "first draft words")
    assert app.note_delete("Draft")["trash_path"] == ".trash/Draft.md"
    second = app.note_create("Draft", "second draft words")
    assert app.note_delete(second.id)["trash_path"] == ".trash/Draft-2.md"
    assert first.id == second.id  # same path, same id; both files kept in the trash
    assert (app.settings.vault / ".trash" / "Draft.md").read_text().rstrip().endswith("first draft words")
    assert app.search("draft words", mode="keyword").hits == []
    assert app.sync().added == []


@pytest.mark.parametrize("body", ["", "  \n\n"])
def test_update_with_an_empty_body_changes_nothing(app, body):
    app.note_create("Plan", "hi there")
    for mode in ("overwrite", "append"):
        with pytest.raises(ValueError, match="empty; nothing was changed"):
            app.note_update("Plan", body, mode=mode)
    assert app.note_show("Plan")["body"] == "hi there"
    assert app.search("hi there", mode="keyword").hits


def test_split_frontmatter_shapes_and_errors():
    from cairn.vault import FrontmatterError, split_frontmatter

    text = "---\ntitle: A\ntags: [x]\n---\n\nBody\n"
    meta, body = split_frontmatter(text)
    assert meta == {"title": "A", "tags": ["x"]} and body == "\nBody\n"
    assert text[:len(text) - len(body)] == "---\ntitle: A\ntags: [x]\n---\n"
    assert split_frontmatter("Just text\n---\n") == ({}, "Just text\n---\n")
    assert split_frontmatter("---\n---\nx") == ({}, "x")
    assert split_frontmatter("---\ntitle: B\n...\nend") == ({"title": "B"}, "end")
    for bad, problem in (("---\ntitle: A\nno end\n", "not closed"),
                         ("---\ntitle: [unclosed\n---\nbody\n", "not valid YAML"),
                         ("---\n- a\n- b\n---\nbody\n", "not a mapping")):
        with pytest.raises(FrontmatterError, match=problem):
            split_frontmatter(bad)
        meta, body = split_frontmatter(bad, lenient=True)
        assert meta == {} and body == (bad if problem == "not closed" else "body\n")
    assert issubclass(FrontmatterError, ValueError)


def test_memory_mirror_file_errors_are_named(tmp_path):
    from cairn.memory.mirror import memory_from_file

    for text, problem in (("id: m1\n", "no frontmatter block"), ("---\nid: m1\n", "not closed"),
                          ("---\nid: [m1\n---\ntext\n", "not valid YAML"),
                          ("---\n- m1\n---\ntext\n", "not a mapping"), ("---\nid: m1\n---\n\n", "body")):
        path = write(tmp_path / "m.md", text)
        with pytest.raises(ValueError, match=problem):
            memory_from_file(path)
    m = memory_from_file(write(tmp_path / "m.md", "---\nid: m1\nkind: fact\n---\n\n  Likes tea.\n\n"))
    assert m.id == "m1" and m.text == "Likes tea."


def test_rename_and_mark_of_a_note_whose_frontmatter_is_broken_name_the_yaml_fault_on_one_line(app):
    """probe21: `note rename` said "its frontmatter is not a YAML mapping" of a block that is not
    YAML at all (an unclosed "["); `note mark` named the parser's fault over five lines. Both
    now say the same, on one line, and leave the file as it was."""
    from cairn.errors import Conflict
    text = "---\ntitle: [unclosed\ntags: {a: b\n---\nThe spare key is under the blue pot.\n"
    write(app.settings.vault / "odd.md", text)
    app.sync()
    for act in (lambda: app.note_rename("odd.md", "Spare key"), lambda: app.note_mark("odd.md", "read")):
        with pytest.raises(Conflict) as exc:
            act()
        msg = str(exc.value)
        assert "cannot be parsed" in msg and "not valid YAML" in msg and "\n" not in msg, msg
        assert "not a YAML mapping" not in msg
    assert (app.settings.vault / "odd.md").read_text() == text


def test_a_note_saved_as_utf16_or_in_a_legacy_encoding_is_shown_and_edited_as_its_text(app):
    """A note dropped into the vault as UTF-16 (Windows Notepad's "Unicode") or cp1252: sync
    indexed its text, but `note show` printed the raw bytes as U+FFFD and NUL characters, and
    `note update --mode append`, `note mark` and `note rename` wrote those back as UTF-8,
    destroying the note's text (probe23). Since hygiene27 each keeps its own encoding."""
    vault = app.settings.vault
    (vault / "win.md").write_bytes("# Alarm\r\nThe alarm code is 9931.\r\n".encode("utf-16"))
    (vault / "old.md").write_bytes("Café Rouge on Friday – table for two.\n".encode("cp1252"))
    app.sync()
    assert app.note_show("win.md")["body"] == "# Alarm\nThe alarm code is 9931."
    assert app.note_show("old.md")["body"] == "Café Rouge on Friday – table for two."
    app.note_update("win.md", "Parking bay 12.", mode="append")
    app.note_mark("old.md", "read")
    app.note_rename("win.md", "Alarm code")
    win = (vault / "win.md").read_bytes().decode("utf-16")  # written back in its own encoding (hygiene27)
    old = (vault / "old.md").read_bytes().decode("cp1252")
    assert "The alarm code is 9931.\r\n\r\nParking bay 12.\r\n" in win and "title: Alarm code" in win
    assert "\x00" not in win + old and "\ufffd" not in win + old
    assert old.endswith("---\n\nCafé Rouge on Friday – table for two.\n") and "status: read" in old
    assert app.note_show("Alarm code")["body"] == "# Alarm\nThe alarm code is 9931.\n\nParking bay 12."
    assert [h.title for h in app.search("parking bay", mode="keyword").hits] == ["Alarm code"]
    exported = app.export(ids=["old.md"], format="text")
    assert "Café Rouge on Friday – table for two." in Path(exported.path).read_text(encoding="utf-8")


def test_a_body_holding_a_nul_is_refused_before_anything_is_written(app):
    """probe23: `POST /api/notes` (or MCP create_note) with "a\\u0000b" answered "binary data
    (NUL bytes), not text" but left the file in the vault, unindexed (every sync then failed on
    it, and its title was 'taken'); `PUT /api/notes/gate` appended the NUL to the note's file,
    which the index could no longer read."""
    from cairn.errors import InvalidInput
    vault = app.settings.vault
    with pytest.raises(InvalidInput, match=r"the note body holds a NUL character \(U\+0000\)"):
        app.note_create("nul body", "a\x00b")
    assert not (vault / "nul body.md").exists()
    with pytest.raises(InvalidInput, match=r"U\+0000"):
        app.ingest_text("nul\x00text", "nt")
    assert not (vault / "inbox").exists() or not list((vault / "inbox").iterdir())
    note = app.note_create("gate", "The gate code is 4512.")
    before = (vault / note.path).read_bytes()
    with pytest.raises(InvalidInput, match=r"U\+0000"):
        app.note_update("gate", "x\x00y", mode="append")
    assert (vault / note.path).read_bytes() == before
    assert app.sync().failed == []
