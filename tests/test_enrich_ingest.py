"""Enrichment on ingest ([ingest] enrich): every ingested note is written with a lexical gist;
with a model configured the model's grounded enrichment replaces it after the ingest; the
person's own block and edits are never overwritten; bad settings are refused."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/fakes is a plain folder

from fakes.openai_server import FakeOpenAIServer  # noqa: E402

from cairn.config import ConfigError, load_settings  # noqa: E402
from cairn.enrich import lexical_gist  # noqa: E402
from cairn.service import Cairn  # noqa: E402

GARDEN = """# Garden

The tomatoes were planted on 12 May along the south fence. Tomatoes need water every evening
in July. The compost heap behind the shed feeds the tomatoes and the beans. My neighbour Ines
lent me a ladder. The fence was painted green last spring.
"""


def meta_of(app, ref):
    note = app.find_note(ref)
    text = (app.settings.vault / note.path).read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n")[1]), note


def ingest(app, tmp_path, name, text):
    src = tmp_path / "in" / name
    src.parent.mkdir(exist_ok=True)
    src.write_text(text, encoding="utf-8")
    return src, app.ingest([src])


def test_lexical_gist_picks_the_central_sentences_in_order():
    gist = lexical_gist(GARDEN)
    # the two sentences sharing the note's most frequent terms (tomatoes), in document order
    assert gist.startswith("The tomatoes were planted on 12 May") and "compost heap" in gist
    assert "ladder" not in gist and len(gist) <= 500
    assert lexical_gist("") == "" and lexical_gist("Short.") == "Short."


def test_an_ingested_note_gets_a_gist_written_with_it(app, tmp_path):
    _, report = ingest(app, tmp_path, "garden.md", GARDEN)
    assert report.added and not report.warnings
    meta, _ = meta_of(app, "Garden")
    block = meta["enrichment"]
    assert block["by"] == "ingest" and block["gist"] == lexical_gist(GARDEN.split("\n", 1)[1]) or block["gist"]
    assert "tomatoes" in block["gist"].lower()
    # a generated note (plain text) gets one too
    ingest(app, tmp_path, "memo.txt", "Plumber visit. The plumber fixed the leaking kitchen tap on Monday "
                                      "morning. The plumber charged ninety euros for the kitchen tap.")
    meta, _ = meta_of(app, "memo")
    assert meta["enrichment"]["by"] == "ingest" and "kitchen tap" in meta["enrichment"]["gist"]


def test_the_persons_own_block_is_kept_and_off_means_off(app, tmp_path, home):
    own = "---\nenrichment:\n  gist: Written by me.\n---\n" + GARDEN
    ingest(app, tmp_path, "garden.md", own)
    assert meta_of(app, "Garden")[0]["enrichment"] == {"gist": "Written by me."}
    (home / "config.toml").write_text('[ingest]\nenrich = "off"\n')
    with Cairn(home, embedder=app.embedder) as off:
        ingest(off, tmp_path, "other.md", "# Other\n\nBread rises overnight in the cold larder. Bread needs "
                                          "flour, water and salt. Bread keeps for three days.")
        assert "enrichment" not in meta_of(off, "Other")[0]


def test_cairn_enrich_replaces_only_the_ingest_block_of_an_unedited_note(app, tmp_path):
    ingest(app, tmp_path, "garden.md", GARDEN)
    r = app.enrich("Garden")
    assert r.method == "extractive" and meta_of(app, "Garden")[0]["enrichment"]["by"] == "extractive"
    again = app.enrich("Garden")  # an explicit block is never replaced
    assert again.method == "skipped"


def test_an_edited_note_keeps_its_ingest_block(app, tmp_path):
    ingest(app, tmp_path, "garden.md", GARDEN)
    meta, note = meta_of(app, "Garden")
    path = app.settings.vault / note.path
    path.write_text(path.read_text(encoding="utf-8").replace("lent me a ladder", "lent me a rake"), encoding="utf-8")
    app.sync()
    r = app.enrich("Garden")
    assert r.method == "skipped" and meta_of(app, "Garden")[0]["enrichment"] == meta["enrichment"]


def test_reingesting_a_changed_source_after_enrich_makes_no_conflict_copy(app, tmp_path):
    src, _ = ingest(app, tmp_path, "garden.md", GARDEN)
    app.enrich("Garden")
    src.write_text(GARDEN + "\nThe beans climb the old fence.\n", encoding="utf-8")
    report = app.ingest([src])
    assert report.updated and not report.warnings
    assert not list(app.settings.vault.rglob("*.conflict-*"))
    assert "beans climb" in (app.settings.vault / app.find_note("Garden").path).read_text(encoding="utf-8")


def test_with_a_model_the_grounded_enrichment_replaces_the_gist(home, embedder, tmp_path):
    proposal = {"category": "home", "tags": ["tomatoes", "rockets"],
                "gist": "Tomatoes were planted along the south fence.",
                "key_points": ["The compost heap feeds the tomatoes.", "The tomatoes won a prize in 2019."]}
    with FakeOpenAIServer() as srv:
        srv.reply(json.dumps(proposal))
        home.mkdir(parents=True)
        (home / "config.toml").write_text(f'[ingest]\nenrich_llm = "openai:{srv.base_url}:fake"\n')
        with Cairn(home, embedder=embedder) as app:
            _, report = ingest(app, tmp_path, "garden.md", GARDEN)
            block = meta_of(app, "Garden")[0]["enrichment"]
    assert report.added and not report.warnings
    assert block["by"].startswith("llm:") and block["category"] == "home" and block["tags"] == ["tomatoes"]
    assert block["key_points"] == ["The compost heap feeds the tomatoes."]  # the prize is not in the note


def test_a_failing_model_keeps_the_ingest_gist_and_warns(home, embedder, tmp_path):
    with FakeOpenAIServer() as srv:
        srv.fail(500, "boom")
        home.mkdir(parents=True)
        (home / "config.toml").write_text(f'[ingest]\nenrich_llm = "openai:{srv.base_url}:fake"\n')
        with Cairn(home, embedder=embedder) as app:
            _, report = ingest(app, tmp_path, "garden.md", GARDEN)
            block = meta_of(app, "Garden")[0]["enrichment"]
            assert app.find_note("Garden")  # the note itself is in
    assert block["by"] == "ingest"
    assert [w for _, w in report.warnings if w.startswith("enrichment: the model failed")]


@pytest.mark.parametrize("body, key", [('[ingest]\nenrich = "sometimes"\n', "ingest.enrich"),
                                       ('[ingest]\nenrich_llm = "gpt-please"\n', "ingest.enrich_llm")])
def test_bad_enrich_settings_are_refused(tmp_path, body, key):
    (tmp_path / "config.toml").write_text(body)
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        load_settings(tmp_path)


def test_replacing_a_nested_frontmatter_key_keeps_the_block_readable():
    from cairn.vault import add_frontmatter_keys
    text = "---\ntitle: T\nenrichment:\n  gist: old\n  tags:\n  - a\ntags:\n- x\n- y\nkeep: 1\n---\nBody\n"
    out = add_frontmatter_keys(text, {"enrichment": {"gist": "new"}, "tags": ["z"]})
    meta = yaml.safe_load(out.split("---\n")[1])
    assert meta == {"enrichment": {"gist": "new"}, "tags": ["z"], "title": "T", "keep": 1}
    assert out.endswith("---\nBody\n") and "old" not in out
    # a block that would not read back is never written
    assert add_frontmatter_keys("---\na: 1\n---\nB", {"b": 2}) is not None
    assert add_frontmatter_keys("---\n- just\n- a list\n---\nB", {"b": 2}) is None


def test_reingesting_a_changed_source_keeps_a_model_enrichment(home, embedder, tmp_path):
    proposal = {"category": "home", "tags": ["tomatoes"], "gist": "Tomatoes were planted along the south fence.",
                "key_points": ["The compost heap feeds the tomatoes."]}
    with FakeOpenAIServer() as srv:
        srv.reply(json.dumps(proposal))
        with Cairn(home, embedder=embedder) as app:
            src, _ = ingest(app, tmp_path, "garden.md", GARDEN)
            app.enrich("Garden", llm=f"openai:{srv.base_url}:fake")
            before = meta_of(app, "Garden")[0]["enrichment"]
            src.write_text(GARDEN + "\nThe beans climb the old fence.\n", encoding="utf-8")
            report = app.ingest([src])
            after = meta_of(app, "Garden")[0]["enrichment"]
    assert report.updated and before["by"].startswith("llm:") and after == before


@pytest.mark.parametrize("key", ["source_weight", "graph_weight", "speaker_weight", "context_weight"])
def test_signal_weights_above_one_are_refused(tmp_path, key):
    (tmp_path / "config.toml").write_text(f"[search]\n{key} = 5\n")
    with pytest.raises(ConfigError, match=f"search.{key}"):
        load_settings(tmp_path)
