"""Issue 39: entities of kind "technology" (EchoGarden G12) found by the text's own cues, over
the whole document; and merge candidates (EchoVessel V11): entities whose names mean nearly
the same, asked of the person ("Is X the same as Y?") through the service, the CLI and REST,
merged on yes, never asked again on no."""

from __future__ import annotations

import json

import pytest

from conftest import notes_app
from cairn.errors import NotFound
from cairn.graph.tech import technology_names

FILLER = "We talked about the weather and the garden for a long while. " * 12  # > 500 characters
NOTES = {
    "backend.md": "---\ntitle: Backend rewrite\ntools: [ripgrep, Neovim]\n---\n" + FILLER +
                  "The new backend is written in Rust and stores everything in Postgres 16.2.\n",
    "ops.md": "---\ntitle: Ops log\n---\nDave Moss moved the PostgreSQL database to the new host. "
              "He uses the Ruff linter on the scripts.\n",
    "visit.md": "---\ntitle: Visit\n---\nDavid Moss came round on Tuesday with Ana Lima to look at the boiler.\n",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("techmerge"), NOTES, real_embedder) as a:
        yield a


def _kinds(app) -> dict[str, str]:
    return {e["name"]: e["kind"] for e in app.entities()}


def test_technology_cues():
    assert technology_names("We run Python 3.11 and the htmx library; it is written in Rust.") == \
        ["Python", "htmx", "Rust"]
    assert technology_names("I installed ripgrep. The Node.js runtime is fast.") == ["Node.js", "ripgrep"]
    for plain in ("The letter was written in haste.", "See chapter 3.2 and page 4.1.",
                  "Ana met Tom at the harbour in Lisbon.", "I was using the car.", "Open the new app."):
        assert technology_names(plain) == [], plain


def test_the_cheap_gates_find_the_same_technologies(monkeypatch):
    from cairn.graph import tech
    names = ["Ruff", "the fast Zig", "Node.js", "k3s", "ripgrep", "C++", "Visual Studio", "plan B", "haste"]
    texts = [f"{a} {n} {x}." for n in names for a in ("We met", "It is written in", "I installed", "Mondays with")
             for x in ("", "17.8", "v2.1", *tech.TOOL_NOUNS[::3], "Libraries", "page 4.1")]
    texts += ["Nothing technical, only 3 apples and 4.5 pears.", "The api and THE LINTER", FILLER,
              " ".join(tech.USE_CUES) + " Rust", "runs on Mondays", "switched to plan B"]
    monkeypatch.setattr(tech, "GATE", False)
    scanned = [tech.technology_names(t) for t in texts]
    monkeypatch.setattr(tech, "GATE", True)
    assert [tech.technology_names(t) for t in texts] == scanned
    assert sum(map(bool, scanned)) > len(texts) // 3  # the texts do hold names


def test_technologies_are_entities_of_their_own_kind_from_the_whole_note(app):
    kinds = _kinds(app)
    for name in ("Rust", "Postgres", "PostgreSQL", "Ruff", "ripgrep", "Neovim"):
        assert kinds.get(name) == "technology", (name, kinds.get(name))
    assert kinds.get("Dave Moss") == "person"
    shown = app.entity_show("Rust")
    assert [n["title"] for n in shown["notes"]] == ["Backend rewrite"]  # said after character 500


def test_merge_questions_yes_merges_and_no_is_remembered(app):
    questions = app.entity_candidates()
    asked = {frozenset((q["a"]["name"], q["b"]["name"])): q for q in questions}
    dave = asked[frozenset(("Dave Moss", "David Moss"))]
    pg = asked[frozenset(("Postgres", "PostgreSQL"))]
    assert dave["question"] in ("Is Dave Moss the same as David Moss?", "Is David Moss the same as Dave Moss?")
    assert 0.72 <= dave["similarity"] <= 1.0
    assert frozenset(("Rust", "Postgres")) not in asked and frozenset(("Ruff", "Dave Moss")) not in asked
    assert [q["similarity"] for q in questions] == sorted((q["similarity"] for q in questions), reverse=True)
    done = app.entity_candidate_answer(dave["id"], same=True)
    assert done["answer"] == "yes" and {"Dave Moss", "David Moss"} <= set(done["kept"]["aliases"])
    assert len([e for e in app.entities() if e["name"] in ("Dave Moss", "David Moss")]) == 1
    shown = app.entity_show("David Moss")
    assert {n["title"] for n in shown["notes"]} == {"Ops log", "Visit"}
    no = app.entity_candidate_answer(pg["id"], same=False)
    assert no["answer"] == "no"
    assert {"Postgres", "PostgreSQL"} <= set(_kinds(app))  # kept apart
    left = {q["id"] for q in app.entity_candidates()}
    assert pg["id"] not in left and dave["id"] not in left
    with pytest.raises(NotFound, match="no open merge question"):
        app.entity_candidate_answer(pg["id"], same=True)
    with pytest.raises(NotFound):
        app.entity_candidate_answer("ep-000000000000", same=False)


def test_cli_lists_the_questions_and_refuses_a_bad_id(app):
    from test_persona import cli
    home = str(app.settings.home)
    code, out, err = cli("--home", home, "entity", "review", "--json")
    assert code == 0, err
    assert [q["id"] for q in json.loads(out)] == [q["id"] for q in app.entity_candidates()]
    code, _, err = cli("--home", home, "entity", "review", "--no", "ep-nope")
    assert code != 0 and "no open merge question" in err and "`cairn entity review` lists" in err


def test_an_unreadable_answers_file_is_not_overwritten(tmp_path):
    """`<home>/review/entity_pairs.json` damaged (say a half-synced copy): the next `--no`
    replaced it, and every earlier "no" in it was lost (review2). It is refused, named, and
    kept as it is."""
    from cairn.errors import Conflict
    from cairn.graph.candidates import answers, remember_answer
    path = tmp_path / "review" / "entity_pairs.json"
    path.parent.mkdir()
    path.write_text('{"ep-1": "no", "ep-2": "no"', encoding="utf-8")
    assert answers(tmp_path) == {}
    with pytest.raises(Conflict, match="entity_pairs.json"):
        remember_answer(tmp_path, "ep-3", "no")
    assert path.read_text(encoding="utf-8") == '{"ep-1": "no", "ep-2": "no"'
    path.unlink()
    remember_answer(tmp_path, "ep-3", "no")
    assert answers(tmp_path) == {"ep-3": "no"} and sorted(p.name for p in path.parent.iterdir()) == ["entity_pairs.json",
                                                                                       "entity_pairs.json.lock"]


def _answer_many(home: str, worker: int, n: int) -> None:
    from cairn.graph.candidates import remember_answer
    for i in range(n):
        remember_answer(home, f"ep-{worker}-{i}", "no")


def test_answers_given_at_the_same_time_are_all_kept(tmp_path):
    """Two `cairn entity review --no` at once (a terminal and the web page): each answer is
    read-modify-written under a lock, so none overwrites the other's."""
    import multiprocessing as mp
    from cairn.graph.candidates import answers
    # spawned, not forked: a fork of the one-process suite copies any lock a leftover thread of an earlier test
    # holds (the import lock, a logging lock), and the four children hung until join's timeout (fresh-clone run, 240 s)
    procs = [mp.get_context("spawn").Process(target=_answer_many, args=(str(tmp_path), w, 40)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    assert len(answers(tmp_path)) == 160
