"""Enrichment: an extractive gist without a model; with a (scripted) model, only items the
note supports are kept; the person's frontmatter is never overwritten; bad input is refused."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/fakes is a plain folder

from fakes.openai_server import FakeOpenAIServer  # noqa: E402

from cairn.errors import Conflict, InvalidInput  # noqa: E402

BOILER = """---
title: Boiler
tags:
  - home
---
# Boiler

The boiler was serviced on 3 October 2025 by Hearth and Sons. The pressure was 1.2 bar after
the service. The engineer replaced the expansion vessel, which cost 140 euros. Next service is
due in October 2026. The radiators in the attic need bleeding every winter.
"""


@pytest.fixture
def boiler(app, tmp_path):
    src = tmp_path / "in" / "boiler.md"
    src.parent.mkdir()
    src.write_text(BOILER)
    app.ingest([src])
    return app.find_note("Boiler")


def frontmatter(app, note):
    import yaml
    text = (app.settings.vault / note.path).read_text()
    return yaml.safe_load(text.split("---\n")[1]), text


def test_extractive_gist_is_stored_once_and_tags_kept(app, boiler):
    r = app.enrich("Boiler")
    assert r.method == "extractive" and "serviced on 3 October 2025" in r.added["gist"]
    meta, _ = frontmatter(app, boiler)
    assert meta["tags"] == ["home"] and meta["enrichment"]["gist"] == r.added["gist"]
    # the person edits the gist: a second run never overwrites it
    path = app.settings.vault / boiler.path
    path.write_text(path.read_text().replace(r.added["gist"], "My own words."))
    again = app.enrich("Boiler")
    assert again.method == "skipped" and frontmatter(app, boiler)[0]["enrichment"]["gist"] == "My own words."


def test_model_items_are_grounded_or_dropped(app, boiler):
    proposal = {"category": "home", "tags": ["boiler", "pressure", "plumbing"],
                "gist": "The boiler was serviced in October 2025 by Hearth and Sons. It exploded in 2019.",
                "key_points": ["The expansion vessel was replaced for 140 euros.",
                               "The pressure was 1.2 bar after the service.",
                               "The service cost 900 euros."]}
    with FakeOpenAIServer() as srv:
        srv.reply(json.dumps(proposal))
        r = app.enrich("Boiler", llm=f"openai:{srv.base_url}:fake")
    assert r.method.startswith("llm:")
    assert r.added["category"] == "home" and r.added["tags"] == ["boiler", "pressure"]
    assert r.added["gist"] == "The boiler was serviced in October 2025 by Hearth and Sons."
    assert r.added["key_points"] == ["The expansion vessel was replaced for 140 euros.",
                                     "The pressure was 1.2 bar after the service."]
    why = {(d["item"], d["value"]): d["why"] for d in r.dropped}
    assert ("tag", "plumbing") in why and ("key_point", "The service cost 900 euros.") in why
    assert ("gist", "It exploded in 2019.") in why


def test_a_failing_model_falls_back_to_the_extractive_gist(app, boiler):
    with FakeOpenAIServer() as srv:
        srv.fail(500, "boom")
        r = app.enrich("Boiler", llm=f"openai:{srv.base_url}:fake")
    assert r.method == "extractive" and "model failed" in r.reason and r.added["gist"]


def test_bad_input(app, boiler, tmp_path):
    with pytest.raises(InvalidInput):
        app.enrich("Boiler", llm="gpt-5-please")
    with pytest.raises(ValueError):
        app.enrich("no such note")
    bad = app.settings.vault / "broken.md"
    bad.write_text("---\ntitle: 'unclosed\n---\nThe kettle descaler is under the sink.\n")
    app.sync()
    before = bad.read_bytes()
    with pytest.raises(Conflict):
        app.enrich("broken.md")
    assert bad.read_bytes() == before  # never rewritten (case B04)


def test_a_heading_does_not_run_into_the_gist_s_first_sentence():
    from cairn.enrich import lexical_gist
    body = "# Lunch with Ilse Brandvold\n\nMet Ilse Brandvold at the harbour cafe to plan the survey.\n"
    assert lexical_gist(body) == "Met Ilse Brandvold at the harbour cafe to plan the survey."
    two = "## Plans\nWe fixed the survey dates for the spring tide.\n## Costs\nThe boat hire costs forty pounds a day.\n"
    assert lexical_gist(two) == ("We fixed the survey dates for the spring tide. "
                                 "The boat hire costs forty pounds a day.")
