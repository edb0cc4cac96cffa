"""Wikilink resolution (case B13), deferred resolution, backlinks, unresolved links, the
ingested-folder and Dendron rules, and `cairn links` in a subprocess."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import write
from cairn.links import AmbiguousNote, NoteNotFound, Resolver, NoteRef

CASE = Path(__file__).parent / "cases" / "B13-wikilink-resolution"


def expected_rows():
    """(link text, expected resolved path or None) from the case's expected.txt."""
    rows = []
    text = (CASE / "expected.txt").read_text().split("# After creating")[0]
    for line in text.splitlines():
        if "->" not in line or line.startswith("#"):
            continue
        left, right = (x.strip() for x in line.split("->", 1))
        m = re.match(r"(.*?\.md)", right)
        rows.append((left, m.group(1) if m and not right.startswith("UNRESOLVED") else None))
    return rows


@pytest.fixture
def b13(app):
    shutil.copytree(CASE / "vault", app.settings.vault, dirs_exist_ok=True)
    assert len(app.sync().added) == 3
    return app


def shown(link):
    text = link.target + (f"#{link.anchor}" if link.anchor and link.kind != "heading" else "")
    return f"[[{text}{'|' + link.alias if link.alias else ''}]]"


def test_b13_every_link_resolves_as_expected(b13):
    out = {shown(l): l for l in b13.links("weekly-review.md")["outgoing"]}
    checked = 0
    for text, path in expected_rows():
        if text.startswith("`"):
            assert "[[Not A Link]]" not in out  # inside inline code: not a link
            continue
        if text == "[[Project Atlas (archived)]]" or text == "[[Garden Shed Plan]]":
            assert out[text].kind == "unresolved" and out[text].resolved_id is None
        elif text == "[[#Decisions]]":
            assert out[text].kind == "heading" and out[text].resolved_path == "weekly-review.md"
            assert out[text].target == "#Decisions"
        else:
            assert out[text].resolved_path == path == "projects/Project Atlas.md", text
        checked += 1
    assert checked == 9
    assert out["[[Project Atlas|the kitchen job]]"].alias == "the kitchen job"
    assert out["[[Project Atlas#Risks]]"].anchor == "Risks"
    assert "Atlas Travel Budget.md" not in {l.resolved_path for l in out.values()}
    embeds = [l for l in out.values() if l.embed]
    assert len(embeds) == 1 and embeds[0].resolved_path == "projects/Project Atlas.md"


def test_b13_unresolved_listed_by_literal_text_then_deferred_resolution(b13):
    names = [l.target for l in b13.unresolved_links()]
    assert names == ["Garden Shed Plan", "Project Atlas (archived)"]
    assert all(n and n not in ("None", "null") for n in names)
    write(b13.settings.vault / "Garden Shed Plan.md", "# Garden Shed Plan\n\nLarch cladding, felt roof.\n")
    b13.sync()
    assert [l.target for l in b13.unresolved_links()] == ["Project Atlas (archived)"]
    back = b13.links("Garden Shed Plan")["backlinks"]
    assert [(b.source_path, b.target) for b in back] == [("weekly-review.md", "Garden Shed Plan")]


def test_b13_backlinks(b13):
    back = b13.links("Project Atlas")["backlinks"]
    assert {b.source_path for b in back} == {"weekly-review.md"}
    assert len(back) == 7  # every link form that names it, the embed included
    assert b13.links("Atlas Travel Budget")["backlinks"] == []


def test_b13_links_inside_ingested_folder(app, tmp_path):
    """The same vault ingested with `cairn ingest FOLDER` lands under notes/<folder>/; a path
    link is then taken relative to that folder's root."""
    src = tmp_path / "b13"
    shutil.copytree(CASE / "vault", src)
    app.ingest([src])
    out = {shown(l): l for l in app.links("Weekly review")["outgoing"]}
    assert out["[[projects/Project Atlas]]"].resolved_path == "notes/b13/projects/Project Atlas.md"
    assert out["[[Atlas]]"].resolved_path == "notes/b13/projects/Project Atlas.md"
    assert out["[[Garden Shed Plan]]"].kind == "unresolved"


def test_resolver_levels_and_ties():
    r = Resolver([
        NoteRef("a", "notes/x/Plan.md", "Roadmap", ["Q3"]),
        NoteRef("b", "notes/y/Plan.md", "Plan B", []),
        NoteRef("c", "dendron.project.plan.md", "Plan", []),
        NoteRef("d", "Plan.md", "Something else", ["Roadmap"]),
    ])
    assert r.resolve("plan", "notes/y/index.md") == "b"  # stem, same ingest root wins
    assert r.resolve("Plan", "top.md") == "d"  # stem, shortest path
    assert r.resolve("dendron.project.plan") == "c"  # Dendron hierarchy name = file stem
    assert r.resolve("Roadmap") == "a"  # a title beats another note's alias
    assert r.resolve("q3") == "a"  # alias
    assert r.resolve("notes/x/Plan.md") == "a"  # vault path with suffix
    assert r.resolve("Plan (old)") is None and r.resolve("Pla") is None  # nothing fuzzy
    assert r.resolve("ÉTÉ") is None
    r2 = Resolver([NoteRef("e", "Été.md", "Été", [])])
    assert r2.resolve("été") == "e" and r2.resolve("E\u0301te\u0301") == "e"  # NFC + casefold


def test_find_note_errors(b13):
    write(b13.settings.vault / "other" / "Project Atlas.md", "# Project Atlas\n\nA second one.\n")
    b13.sync()
    with pytest.raises(AmbiguousNote, match="other/Project Atlas.md"):
        b13.find_note("Project Atlas")
    with pytest.raises(NoteNotFound, match="no note"):
        b13.links("Nothing like this")
    assert b13.find_note("projects/Project Atlas").path == "projects/Project Atlas.md"


def cli(home, *args, check=True):
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[1] / "src"))
    run = subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(home), *args],
                         capture_output=True, text=True, env=env, timeout=300)
    if check:
        assert run.returncode == 0, run.stderr
    return run


def test_cli_sync_links_and_notes(tmp_path):
    home = tmp_path / "home"
    shutil.copytree(CASE / "vault", home / "vault")
    run = cli(home, "sync", "--json")
    assert len(json.loads(run.stdout)["added"]) == 3
    run = cli(home, "links", "weekly review")
    assert "[[Garden Shed Plan]]  -> unresolved" in run.stdout
    assert "[[Atlas]]  -> projects/Project Atlas.md" in run.stdout
    assert "None" not in run.stdout
    run = cli(home, "links", "--unresolved", "--json")
    assert [l["target"] for l in json.loads(run.stdout)] == ["Garden Shed Plan", "Project Atlas (archived)"]
    run = cli(home, "note", "create", "Garden Shed Plan", "--body", "Larch cladding and a felt roof.")
    assert "created Garden Shed Plan.md" in run.stdout
    run = cli(home, "links", "Garden Shed Plan", "--json")
    assert [b["source_path"] for b in json.loads(run.stdout)["backlinks"]] == ["weekly-review.md"]
    run = cli(home, "note", "update", "Garden Shed Plan", "--mode", "append", "--body", "Gutter on the north side.")
    assert run.returncode == 0
    run = cli(home, "note", "show", "garden shed plan", "--json")
    body = json.loads(run.stdout)["body"]
    assert "Larch cladding" in body and "Gutter on the north side." in body
    run = cli(home, "note", "delete", "Garden Shed Plan")
    assert ".trash/Garden Shed Plan.md" in run.stdout
    run = cli(home, "search", "--mode", "keyword", "--json", "larch")
    assert json.loads(run.stdout)["hits"] == []
    run = cli(home, "sync", "--json")
    assert json.loads(run.stdout)["added"] == []
    # errors are named, no traceback; a usage conflict exits 2, the others 1
    for args, msg, code in ((("links",), "give either a NOTE or --unresolved", 2),
                            (("note", "show", "Nope"), "no note with id, path, title or alias 'Nope'", 1),
                            (("note", "create", "Project Atlas", "--body", "x"), "exists already", 1)):
        run = cli(home, *args, check=False)
        assert run.returncode == code and msg in run.stderr and "Traceback" not in run.stderr, (args, run.stderr)



def test_a_link_to_an_ingested_attachment_resolves_to_its_note(app, tmp_path):
    """probe23: an Obsidian folder with `![[router.png]]`, `[[manual.pdf]]` or
    `[[receipt.txt]]`, ingested whole: each attachment became a note of its own (OCR, PDF or
    text), yet every such link was listed as unresolved and the attachment had no backlink."""
    src = tmp_path / "obsidian"
    (src / "files").mkdir(parents=True)
    (src / "files" / "receipt.txt").write_text("Paid 42.00 for the ladder.\n")
    write(src / "home.md", "# Home\n![[receipt.txt]]\nSee [[files/receipt.txt]] and [[gone.txt]].\n")
    app.ingest([src])
    out = {shown(l): l for l in app.links("Home")["outgoing"]}
    assert out["[[receipt.txt]]"].kind == "resolved", out
    assert out["[[files/receipt.txt]]"].resolved_path == out["[[receipt.txt]]"].resolved_path
    assert out["[[gone.txt]]"].kind == "unresolved"
    back = app.links(out["[[receipt.txt]]"].resolved_path)["backlinks"]
    assert {b.source_title for b in back} == {"Home"}
    r = Resolver([NoteRef("i", "image/2026-01-01-router.md", "router", [], "/data/obsidian/attachments/router.png"),
                  NoteRef("u", "html/2026-01-01-page.md", "page", [], "https://example.org/router.png")])
    assert r.resolve("router.png") == "i" and r.resolve("attachments/router.png") == "i"
    assert r.resolve("other/router.png") is None  # the folders written must match the source's
