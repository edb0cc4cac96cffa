"""A note's page connects: images its markdown references are found inside the vault only
(`Cairn.note_asset`), related notes come by meaning and shared entities, the entities it
mentions are listed (`Cairn.note_context`), and a citation highlight keeps a fenced code
block a block (web.render)."""

from __future__ import annotations

import os

import pytest

from cairn.errors import NotFound
from cairn.interfaces.web.render import markdown_html
from cairn.service import Cairn

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201a5f0a3f30000000049454e44ae426082")
POND = ("# Pond walk\n\nAna saw the heron at the mill pond in Porto.\n\n![heron](/assets/heron.png)\n\n"
        "![[heron.png]]\n\n![up](../assets/heron.png)\n")


@pytest.fixture(scope="module")
def app(tmp_path_factory, real_embedder):
    root = tmp_path_factory.mktemp("notepage")
    (root / "secret.png").write_bytes(PNG)
    with Cairn(root / "home", embedder=real_embedder) as a:
        vault = a.settings.vault
        (vault / "assets").mkdir(parents=True)
        (vault / "assets" / "heron.png").write_bytes(PNG)
        (vault / "assets" / "notes.txt").write_text("not an image")
        os.symlink(root / "secret.png", vault / "assets" / "leak.png")
        (vault / "walks").mkdir()
        (vault / "walks" / "pond.md").write_text(POND)
        (vault / "walks" / "porto.md").write_text("# Porto trip\n\nAna and I walked around Porto.\n")
        (vault / "walks" / "bread.md").write_text("# Bread\n\nRye sourdough needs a long proof.\n")
        a.sync()
        yield a


@pytest.mark.parametrize("src", ["/assets/heron.png", "heron.png", "../assets/heron.png", "..%2Fassets%2Fheron.png"])
def test_images_the_markdown_references_are_found_in_the_vault(app, src):
    assert app.note_asset("Pond walk", src) == (app.settings.vault / "assets" / "heron.png").resolve()


@pytest.mark.parametrize("src,why", [
    ("../../secret.png", "no image"), ("/../secret.png", "no image"), ("leak.png", "no image"),
    ("/assets/leak.png", "no image"), ("https://example.org/x.png", "no image"),
    ("/assets/notes.txt", "not an image"), ("", "no image"), ("missing.png", "no image")])
def test_nothing_outside_the_vault_and_nothing_but_images(app, src, why):
    with pytest.raises(NotFound, match=why):
        app.note_asset("Pond walk", src)


def test_related_notes_and_entities(app):
    ctx = app.note_context("Pond walk")
    names = {e["name"] for e in ctx.entities}
    assert "Porto" in names
    related = [r["title"] for r in ctx.related]
    assert related[0] == "Porto trip" and "mentions" in ctx.related[0]["why"]
    assert "Pond walk" not in related


def test_a_citation_keeps_a_fenced_code_block_a_block():
    body = "Intro line.\n\n```python\nprint('hi')\nx = 1\n```\n\nAfter.\n"
    start = body.index("Intro")
    html = markdown_html(body, (start, body.index("After.") + 6))
    assert "<pre><code class=\"language-python\">" in html
    assert '<mark class="cite">print(' in html and "x = 1</mark>" in html
    inner = body.index("x = 1")  # a span starting inside the block
    html = markdown_html(body, (inner, inner + 5))
    assert "<pre><code" in html and '<mark class="cite" id="cite" tabindex="-1">x = 1</mark>' in html


def test_local_images_are_rewritten_and_web_images_left_alone():
    html = markdown_html("![a](pic.png) ![b](https://example.org/b.png) ![[c.jpg|the c]]",
                         asset=lambda s: f"/notes/asset?src={s}")
    assert 'src="/notes/asset?src=pic.png"' in html and 'src="https://example.org/b.png"' in html
    assert 'src="/notes/asset?src=c.jpg"' in html and 'alt="the c"' in html
