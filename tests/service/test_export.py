"""Export (cairn.exports through Cairn.export): formats, selections, de-duplicated names,
files only under <home>/exports/ (traversal in names and ids refused), expiry, --out copies."""

from __future__ import annotations

import json
import os
import time
import zipfile
from pathlib import Path

import pytest

from cairn.errors import Conflict, InvalidInput, NotFound
from cairn.exports import cleanup_exports, copy_export, resolve_export, strip_markdown
from cairn.service import Cairn


@pytest.fixture(scope="module")
def vault_app(tmp_path_factory, real_embedder):
    """A home with four notes: two titled "Plan" in different folders, tags, dates."""
    home = tmp_path_factory.mktemp("export") / "home"
    with Cairn(home, embedder=real_embedder) as app:
        v = app.settings.vault
        (v / "work").mkdir(parents=True)
        (v / "home").mkdir(parents=True)
        (v / "work" / "Plan.md").write_text("---\ntitle: Plan\ntags: [work]\ncreated: 2024-03-01\n---\n"
                                            "# Quarter plan\n\nShip the **boiler** monitor.\n", encoding="utf-8")
        (v / "home" / "Plan.md").write_text("---\ntitle: Plan\ntags: [home]\ncreated: 2024-05-10\n---\n"
                                            "Paint the fence and [fix](http://x) the *gate*.\n", encoding="utf-8")
        (v / "Recipes.md").write_text("---\ntags: [home, food]\ncreated: 2023-12-24\n---\n"
                                      "- rye bread\n- apple pie\n", encoding="utf-8")
        (v / "Unicode.md").write_text('---\ntitle: "Ünïcode: ../a/b\\\\c title"\n---\nText with the heron.\n',
                                      encoding="utf-8")
        app.sync()
        yield app


def _exports(app) -> Path:
    return app.settings.home / "exports"


def test_one_note_as_markdown_keeps_the_file_as_is(vault_app):
    res = vault_app.export(ids=["work/Plan.md"])
    assert res.format == "markdown" and res.name.endswith(".md")
    path = Path(res.path)
    assert path.parent == _exports(vault_app).resolve()
    assert path.read_text(encoding="utf-8") == (vault_app.settings.vault / "work" / "Plan.md").read_text(encoding="utf-8")
    assert res.notes == [{"id": res.notes[0]["id"], "path": "work/Plan.md", "title": "Plan"}]
    assert resolve_export(vault_app.settings.home, res.name) == path


def test_zip_names_are_deduplicated(vault_app):
    res = vault_app.export(ids=["work/Plan.md", "home/Plan.md"])
    assert res.format == "zip"
    with zipfile.ZipFile(res.path) as zf:
        names = zf.namelist()
        assert names == ["Plan.md", "Plan-2.md"]
        assert "Ship the **boiler** monitor." in zf.read("Plan.md").decode()
        assert "Paint the fence" in zf.read("Plan-2.md").decode()
    assert [n["file"] for n in res.notes] == ["Plan.md", "Plan-2.md"]


def test_zip_entry_names_cannot_escape(vault_app):
    res = vault_app.export(format="zip")  # every note, one of them titled "Ünïcode: ../a/b\\c title"
    with zipfile.ZipFile(res.path) as zf:
        for name in zf.namelist():
            assert "/" not in name and "\\" not in name and ".." not in name and not name.startswith(".")
        assert any(n.startswith("Ünïcode") and n.endswith("title.md") for n in zf.namelist())


def test_text_strips_markdown(vault_app):
    res = vault_app.export(ids=["work/Plan.md", "home/Plan.md"], format="text")
    text = Path(res.path).read_text(encoding="utf-8")
    assert "Ship the boiler monitor." in text and "**" not in text
    assert "Paint the fence and fix the gate." in text and "http://x" not in text
    assert "title: Plan" not in text  # frontmatter is not content


def test_strip_markdown_lists_code_and_html():
    out = strip_markdown("# T\n\n- a\n- b\n\n1. one\n2. two\n\n```\ncode\n```\n\n<b>x</b> ![alt](i.png)\n")
    assert out.splitlines()[0] == "T" and "- a\n- b" in out and "1. one\n2. two" in out
    assert "code" in out and "<b>" not in out and "x alt" in out


def test_json_has_metadata_and_content(vault_app):
    res = vault_app.export(tag="home", format="json")
    doc = json.loads(Path(res.path).read_text(encoding="utf-8"))
    assert doc["count"] == 2 and {n["path"] for n in doc["notes"]} == {"home/Plan.md", "Recipes.md"}
    note = next(n for n in doc["notes"] if n["path"] == "Recipes.md")
    assert note["tags"] == ["home", "food"] and note["content"].startswith("- rye bread")
    assert set(note) >= {"id", "title", "type", "tags", "created", "updated", "content"}


def test_selection_by_type_dates_and_search(vault_app):
    assert {n["path"] for n in vault_app.export(since="2024-01-01", until="2024-04-30", format="json").notes} \
        == {"work/Plan.md"}
    assert {n["path"] for n in vault_app.export(since="2024-01-01", format="json").notes} \
        == {"work/Plan.md", "home/Plan.md"}
    assert len(vault_app.export(type="markdown", format="json").notes) == 4
    hits = vault_app.export(query="heron", k=1, format="json").notes
    assert [n["path"] for n in hits] == ["Unicode.md"]


@pytest.mark.parametrize("kwargs, error, words", [
    ({"ids": ["../../etc/passwd"]}, NotFound, "no note"),
    ({"ids": ["/etc/passwd"]}, NotFound, "no note"),
    ({"tag": "nope"}, NotFound, "no note matches"),
    ({"format": "pdf"}, InvalidInput, "format"),
    ({"ids": ["work/Plan.md", "home/Plan.md"], "format": "markdown"}, InvalidInput, "markdown exports one note"),
    ({"since": "2024-02-30"}, InvalidInput, "not a real date"),
    ({"since": "yesterday"}, InvalidInput, "YYYY-MM-DD"),
    ({"since": "2024-05-01", "until": "2024-01-01"}, InvalidInput, "after"),
    ({"query": "  "}, InvalidInput, "empty"),
    ({"name": "../../outside"}, InvalidInput, "export name"),
    ({"name": "a/b"}, InvalidInput, "export name"),
    ({"name": ".hidden"}, InvalidInput, "export name"),
    ({"name": "x\x00y"}, InvalidInput, "export name"),
])
def test_bad_input_is_refused_and_writes_nothing(vault_app, kwargs, error, words):
    before = sorted(os.listdir(_exports(vault_app))) if _exports(vault_app).exists() else []
    with pytest.raises(error) as exc:
        vault_app.export(**kwargs)
    assert words in str(exc.value)
    assert sorted(os.listdir(_exports(vault_app))) == before
    assert not (vault_app.settings.home.parent / "outside.zip").exists()


def test_given_name_is_used_and_never_overwritten(vault_app):
    a = vault_app.export(ids=["Recipes.md"], name="recipes")
    b = vault_app.export(ids=["Recipes.md"], name="recipes.md")
    assert (a.name, b.name) == ("recipes.md", "recipes-2.md")


@pytest.mark.parametrize("name", ["../index.db", "..", "a/../../x", "/etc/passwd", "%2e%2e", ".tmp-x", ""])
def test_resolve_refuses_names_outside(vault_app, name):
    with pytest.raises((InvalidInput, NotFound)):
        vault_app.export_path(name)


def test_resolve_refuses_a_symlink_out_of_the_folder(vault_app, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    link = _exports(vault_app) / "link.txt"
    link.symlink_to(secret)
    try:
        with pytest.raises(NotFound):
            vault_app.export_path("link.txt")
    finally:
        link.unlink()


def test_a_tampered_index_path_is_not_read(tmp_path, real_embedder):
    outside = tmp_path / "outside.md"
    outside.write_text("private")
    with Cairn(tmp_path / "h", embedder=real_embedder) as app:
        app.note_create("Victim", "body")
        app.conn.execute("UPDATE notes SET path = '../../outside.md' WHERE title = 'Victim'")
        with pytest.raises(InvalidInput, match="leaves the vault"):
            app.export(format="json")


def test_expiry_and_cleanup(vault_app):
    res = vault_app.export(ids=["Recipes.md"], format="text")
    home, path = vault_app.settings.home, Path(res.path)
    assert res.name not in vault_app.cleanup_exports()
    assert path.exists()
    old = time.time() - 25 * 3600
    os.utime(path, (old, old))
    with pytest.raises(NotFound, match="expired"):
        vault_app.export_path(res.name)
    tmp_left = _exports(vault_app) / ".tmp-abandoned"
    tmp_left.write_text("x")
    os.utime(tmp_left, (old, old))
    removed = vault_app.cleanup_exports()
    assert res.name in removed and ".tmp-abandoned" in removed and not path.exists()
    assert cleanup_exports(home, max_age=0, now=time.time() + 1)  # everything else goes too
    assert os.listdir(_exports(vault_app)) == []
    with pytest.raises(InvalidInput):
        cleanup_exports(home, max_age=-1)


def test_copy_export_to_a_folder_or_file_and_never_over_one(vault_app, tmp_path):
    res = vault_app.export(ids=["Recipes.md"])
    assert copy_export(res.path, tmp_path) == (tmp_path / res.name).resolve()
    assert copy_export(res.path, tmp_path / "mine.md").read_text(encoding="utf-8").startswith("---")
    with pytest.raises(Conflict):
        copy_export(res.path, tmp_path / "mine.md")
    with pytest.raises(NotFound):
        copy_export(res.path, tmp_path / "no" / "such" / "x.md")


def test_the_scheduled_export_cleanup_job_removes_expired_files(tmp_path):
    """`cairn schedule add export-cleanup` runs cairn.schedule.jobs.export_cleanup."""
    from types import SimpleNamespace

    from cairn.schedule.jobs import export_cleanup
    home = tmp_path / "home"
    folder = home / "exports"
    folder.mkdir(parents=True)
    (folder / "old.zip").write_text("x")
    (folder / "new.zip").write_text("y")
    old = time.time() - 25 * 3600
    os.utime(folder / "old.zip", (old, old))
    from cairn.store import artifacts as A
    kept = A.put(home, "a recent tool output", tool="search")
    settings = SimpleNamespace(home=home, assistant=SimpleNamespace(artifacts_days=90.0))
    assert export_cleanup(SimpleNamespace(settings=settings)) == (
        "export cleanup: 1 expired export(s) removed, 0 artifact record(s) older than 90 days")
    assert os.listdir(folder) == ["new.zip"] and A.get(home, kept.id) == b"a recent tool output"


@pytest.fixture
def gone_app(tmp_path, hash_embedder):
    """A home whose index lists two notes, one of whose files was deleted by hand (no sync)."""
    with Cairn(tmp_path / "h", embedder=hash_embedder) as app:
        app.note_create("Kept note", "still in the vault")
        app.note_create("Gone note", "deleted by hand")
        [gone] = [p for p in app.settings.vault.rglob("*.md") if "Gone note" in p.read_text(encoding="utf-8")]
        gone.unlink()
        yield app, gone.relative_to(app.settings.vault).as_posix()


@pytest.mark.parametrize("fmt", ["text", "json", "zip"])
def test_a_note_missing_from_the_vault_fails_the_export_naming_it(gone_app, fmt):
    """The index lists a note whose file is gone: the export fails with one line naming the
    note and `cairn sync` (it was a bare OSError), and no file is left in exports/."""
    app, rel = gone_app
    with pytest.raises(NotFound) as exc:
        app.export(format=fmt)
    message = str(exc.value)
    assert "'Gone note'" in message and rel in message and "missing from the vault" in message, message
    assert "cairn sync" in message and "Kept note" not in message and "\n" not in message
    assert not _exports(app).exists() or os.listdir(_exports(app)) == []
    app.sync()  # what the message says to do: the export then holds the note that is there
    assert [n["title"] for n in app.export(format="json").notes] == ["Kept note"]


def test_a_note_the_vault_cannot_read_fails_the_export_naming_it(tmp_path, hash_embedder):
    with Cairn(tmp_path / "h", embedder=hash_embedder) as app:
        app.note_create("Odd note", "a folder takes its place")
        [path] = app.settings.vault.rglob("*.md")
        path.unlink()
        path.mkdir()  # a folder where the note was: reading it is not "missing"
        from cairn.errors import Unavailable
        with pytest.raises(Unavailable, match=r"cannot read the note 'Odd note' \(.*\) from the vault: "
                                              r"is a directory; nothing was exported"):
            app.export(format="json")
        assert not _exports(app).exists() or os.listdir(_exports(app)) == []


def test_the_export_command_names_the_missing_note_in_one_line(tmp_path):
    """The command line: exit 1, "error: ..." naming the note, no traceback."""
    import subprocess
    import sys
    home = tmp_path / "home"
    code = ("import sys\nfrom cairn.service import Cairn\nfrom conftest import HashEmbedder\n"
            f"with Cairn({str(home)!r}, embedder=HashEmbedder()) as app:\n"
            "    app.note_create('Kept note', 'still here')\n"
            "    app.note_create('Gone note', 'deleted by hand')\n"
            "    [p.unlink() for p in app.settings.vault.rglob('*.md') if 'Gone note' in p.read_text()]\n")
    tests = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, os.environ.get("PYTHONPATH", "")])}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=tests, timeout=300)
    r = subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(home), "export", "--format", "zip"],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 1, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: a note is in the index but missing from the vault: "
                                                   "'Gone note'"), r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert not (home / "exports").exists() or os.listdir(home / "exports") == []
