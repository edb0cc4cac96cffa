"""Answers: citations only to retrieved evidence, the verifier fails closed, abstention,
LLM drafts through a real OpenAI-compatible HTTP server (fake vendor on loopback) and the
embedded llama.cpp model, with visible fallback to the extractive answer."""

from __future__ import annotations

import pytest

from conftest import write
from fakes.openai_server import FakeOpenAIServer
from cairn.answer.verify import Evidence, split_answer, verify
from cairn.model import Hit


def _hit(text, title="T", n=1):
    return Hit(id=f"c{n}", note_id=f"n{n}", source_id=None, title=title, path=f"p{n}.md", source=None,
               snippet=text[:50], text=text, start=100, end=100 + len(text), page=None, score=1.0,
               signals={"semantic": 0.9, "keyword": 1.0, "recency": 1.0})


EV = [Evidence(1, "The boiler was serviced on 9 October 2024 for 110 EUR. The engineer replaced the seal.", 100,
               _hit("The boiler was serviced on 9 October 2024 for 110 EUR.")),
      Evidence(2, "Set the system pressure to 1.5 bar when the heating is cold.", 0,
               _hit("Set the system pressure to 1.5 bar when the heating is cold.", n=2))]


def test_verifier_passes_supported_quotes():
    v = verify("The boiler was serviced on 9 October 2024 for 110 EUR [1]. Set the pressure to 1.5 bar [2].", EV)
    assert v.verdict == "pass"
    assert [s.cites for s in v.kept] == [[1], [2]]
    assert v.kept[0].quote_span[0] >= 100  # span is in note coordinates


def test_every_quote_of_one_source_is_listed(app, tmp_path):
    """Two answer sentences citing one passage: the citation lists both quotes' ranges; a
    question word in another form ("live" / "lives") counts as shared."""
    body = ("# Marta Kowal\n\nMarta is my old rowing partner from school. She lives in Gdansk with "
            "her husband.\nShe works as a harbour pilot.\n")
    write(tmp_path / "v" / "marta.md", body)
    app.ingest([tmp_path / "v"])
    ans = app.ask("Where does Marta live?", llm="none")
    assert "lives in Gdansk" in ans.answer, ans.answer
    c = ans.citations[0]
    note_body = app.note_show(c["path"])["body"]
    for q in c["quotes"]:
        assert note_body[q["start"]:q["end"]] == q["quote"]
    assert any("Gdansk" in q["quote"] for q in c["quotes"])
    assert (c["start"], c["end"], c["quote"]) == (c["quotes"][0]["start"], c["quotes"][0]["end"], c["quotes"][0]["quote"])


@pytest.mark.parametrize("forms", [("live", "lives", "lived", "living"), ("box", "boxes"),
                                   ("make", "makes", "making", "made"), ("race", "races", "raced")])
def test_stem_joins_a_words_forms(forms):
    from cairn.lexical import stem
    assert len({stem(f) for f in forms}) == 1


def test_verifier_drops_citation_to_unretrieved_evidence():
    v = verify("The boiler was serviced on 9 October 2024 [1][7].", EV)
    assert v.verdict == "revise"
    assert v.dropped_citations == [7]
    assert "[7]" not in v.answer_text() and "[1]" in v.answer_text()


def test_verifier_rejects_unsupported_and_wrong_numbers():
    v = verify("The boiler was serviced on 9 October 2023 for 95 EUR [1]. The cat likes the sofa [2].", EV)
    assert v.verdict == "abstain"
    assert not v.kept


def test_verifier_revises_mixed_answer():
    v = verify("Set the system pressure to 1.5 bar [2]. It also needs a new flue [1].", EV)
    assert v.verdict == "revise"
    assert v.answer_text() == "Set the system pressure to 1.5 bar [2]."


@pytest.mark.parametrize("garbage", ["", "   ", "[1]", "{\"answer\": ", "The boiler is fine."])
def test_verifier_fails_closed_on_unparseable_or_uncited(garbage):
    assert verify(garbage, EV).verdict == "abstain"


def test_split_answer_attaches_trailing_citations():
    assert split_answer("One fact. [1] Two facts here [2].") == ["One fact. [1]", "Two facts here [2]."]


@pytest.fixture
def notes_app(app, tmp_path):
    write(tmp_path / "v" / "boiler.md",
          "# Boiler service history\n\nThe boiler was serviced on 9 October 2024 by Harbour Lane Plumbing "
          "for 110 EUR. The engineer replaced the pressure relief valve seal.\n\n"
          "## Pressure\n\nSet the system pressure to 1.5 bar when the heating is cold.\n")
    write(tmp_path / "v" / "bikes.md", "# Bikes\n\nThe tandem needs a new chain before the summer holidays.\n")
    write(tmp_path / "v" / "bread.md", "# Sourdough\n\nFeed the starter with rye flour every evening.\n")
    app.ingest([tmp_path / "v"])
    return app


def test_extractive_answer_cites_only_retrieved_evidence(notes_app):
    ans = notes_app.ask("When was the boiler serviced?", llm="none")
    assert ans.verdict in ("pass", "revise")
    assert "9 October 2024" in ans.answer
    assert ans.citations
    evidence_ids = {e["chunk_id"] for e in ans.evidence}
    for c in ans.citations:
        assert c["chunk_id"] in evidence_ids
        assert c["path"] == "notes/v/boiler.md"
        assert c["quote"] and c["quote"] in (notes_app.settings.vault / c["path"]).read_text()
        assert c["page"] is None and c["start"] < c["end"]
        assert f"[{c['n']}]" in ans.answer


def test_absent_topic_abstains(notes_app):
    ans = notes_app.ask("What is the capital of Mongolia?", llm="none")
    assert ans.verdict == "abstain"
    assert ans.citations == []
    assert "do not contain" in ans.answer


def test_llm_answer_via_openai_compatible_server(notes_app):
    with FakeOpenAIServer() as srv:
        srv.reply("The boiler was serviced on 9 October 2024 by Harbour Lane Plumbing [1].")
        ans = notes_app.ask("When was the boiler serviced?", llm=f"openai:{srv.base_url}:fake-model")
        assert ans.mode == "llm" and ans.verdict == "pass" and ans.fallback is None
        assert ans.citations[0]["path"] == "notes/v/boiler.md"
        body = srv.requests[-1].body
        assert body["model"] == "fake-model"
        prompt = body["messages"][-1]["content"]
        assert "<note n=\"1\"" in prompt and "untrusted" in body["messages"][0]["content"]


def test_hallucinating_llm_falls_back_visibly(notes_app):
    with FakeOpenAIServer() as srv:
        srv.reply("The boiler was replaced in 2019 by a heat pump [1]. Source: [9].")
        ans = notes_app.ask("When was the boiler serviced?", llm=f"openai:{srv.base_url}:fake-model")
    assert ans.mode == "extractive"
    assert ans.fallback and "failed verification" in ans.fallback
    assert "9 October 2024" in ans.answer and "2019" not in ans.answer


def test_llm_server_error_falls_back_visibly(notes_app):
    with FakeOpenAIServer() as srv:
        srv.fail(500, "model crashed")
        ans = notes_app.ask("When was the boiler serviced?", llm=f"openai:{srv.base_url}:fake-model")
    assert ans.mode == "extractive" and "LLM failed" in ans.fallback
    assert ans.citations


def test_unreachable_llm_falls_back_visibly(notes_app):
    ans = notes_app.ask("When was the boiler serviced?", llm="openai:http://127.0.0.1:9/v1:nothing")
    assert "LLM failed" in ans.fallback and ans.citations


def test_bad_llm_spec_is_a_clear_error(notes_app):
    with pytest.raises(ValueError, match="invalid LLM spec .gpt-5-please."):
        notes_app.ask("When was the boiler serviced?", llm="gpt-5-please")


def test_embedded_llm_answer_is_verified_or_falls_back(notes_app):
    ans = notes_app.ask("When was the boiler serviced?", llm="embedded")
    assert ans.llm and ans.verdict in ("pass", "revise")
    # Either the small model's draft verified, or the fallback is stated; never an unchecked answer.
    assert ans.mode == "llm" or ans.fallback
    assert ans.citations and all(c["chunk_id"] in {e["chunk_id"] for e in ans.evidence} for c in ans.citations)


def test_related_sentence_that_does_not_answer_is_not_passed_off(app, tmp_path):
    write(tmp_path / "v" / "kettle.md", "# Kettle\n\nThe kettle descaling is done with citric acid because the water is hard.\n")
    app.ingest([tmp_path / "v"])
    ans = app.ask("When was the kettle bought and how much did it cost?", llm="none")
    assert ans.verdict == "abstain" and not ans.citations
    ans = app.ask("How is the kettle descaled?", llm="none")
    assert "citric acid" in ans.answer


@pytest.mark.parametrize("question, kind", [
    ("When did Ana adopt the kitten?", "time"), ("What year was the house built?", "time"),
    ("How much did the boiler service cost?", "quantity"), ("How many kids does Ben have?", "quantity"),
    ("How often should I bleed the radiators?", "frequency"), ("What did Caroline research?", None)])
def test_answer_type(question, kind):
    from cairn.search.asked import answer_type
    assert answer_type(question) == kind


@pytest.fixture
def chat_app(app, tmp_path):
    import json
    rows = [{"conversation": "c9", "session": "s1", "id": "a1", "speaker": "Rosa",
             "time": "2024-06-01T09:00", "text": "I repainted the garden fence a deep green colour."},
            {"conversation": "c9", "session": "s1", "id": "a2", "speaker": "Ivo",
             "time": "2024-06-01T09:01", "text": "Nice! I bought a second-hand canoe for the lake."}]
    path = tmp_path / "c9.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    app.import_chat(path)
    return app


def test_when_question_over_chat_uses_the_message_time(chat_app):
    # The sentence has no time word; the message's own time dates it.
    ans = chat_app.ask("When did Rosa repaint the garden fence?", llm="none")
    assert not ans.abstained and "fence" in ans.answer
    assert ans.citations[0]["source_id"] == "a1" and ans.citations[0]["event_time"] == "2024-06-01T09:00"
    assert ans.citations[0]["speaker"] == "Rosa"


def test_answer_json_shows_the_person_check(chat_app):
    j = chat_app.ask("What did Rosa buy for the lake?", llm="none").to_json()
    assert j["verdict"] == "abstain" and j["answerability"]["person"] == "Rosa"
    assert "from Ivo, not Rosa" in j["answerability"]["reason"]
    j = chat_app.ask("What did Ivo buy for the lake?", llm="none").to_json()
    assert j["verdict"] in ("pass", "revise") and "canoe" in j["answer"]


def test_notes_answer_has_no_person_check(notes_app):
    ans = notes_app.ask("When was the boiler serviced?", llm="none")
    assert ans.answerability is None and not ans.abstained


def test_how_often_and_weekday_answers_and_titles_keep_their_sentence(app, tmp_path):
    """"how often" takes a frequency without a number; "on Tuesdays" dates a "when"; a full
    stop after "Dr." does not end the quoted sentence."""
    write(tmp_path / "v" / "house.md", "# House\n\nBleed the radiators every autumn before the heating season. "
                                       "The review board meets on Tuesdays in the library.\n\n"
                                       "For the knee, book a session with Dr. Okafor at the clinic on Elm Street.\n")
    app.ingest([tmp_path / "v"])
    assert "every autumn" in app.ask("How often should I bleed the radiators?", llm="none").answer
    assert "on Tuesdays" in app.ask("When does the review board meet?", llm="none").answer
    ans = app.ask("Which clinic should I book for the knee session?", llm="none")
    assert "Dr. Okafor at the clinic" in ans.answer and "Dr [" not in ans.answer


@pytest.mark.parametrize("text, pieces", [
    ("Talk to Dr. Okafor today. She is kind.", ["Talk to Dr. Okafor today.", "She is kind."]),
    ("C. S. Lewis wrote it. Fine.", ["C. S. Lewis wrote it.", "Fine."]),
    ("Meet Dr.\n\nOkafor next.", ["Meet Dr.", "Okafor next."]),  # a blank line still ends it
    ("She said no. Then Bob left.", ["She said no.", "Then Bob left."]),  # "no." is no title
    ("It was a. Then b.", ["It was a.", "Then b."]),  # a lower-case letter is no initial
    # a hard-wrapped paragraph is one sentence; headings, list items and blank lines still end one
    ("It is rebuilt when the\nindex file is deleted.", ["It is rebuilt when the\nindex file is deleted."]),
    ("# Title\nFirst line\n- item one\n- item two\n\nNew para", ["Title", "First line", "item one", "item two",
                                                              "New para"]),
])
def test_sentences_do_not_end_after_titles_or_initials(text, pieces):
    from cairn.lexical import sentences
    assert [text[a:b] for a, b in sentences(text)] == pieces


def test_a_sentence_cut_at_the_chunk_start_is_not_quoted(real_embedder):
    from cairn.answer import Evidence, extractive_draft
    from cairn.model import Hit
    text = "index file is deleted, the rebuild reads the vault again. Rebuilding the index reads every vault note."
    hit = Hit(id="c2", note_id="n1", source_id=None, title="T", path="t.md", source=None, snippet=text,
              text=text, start=500, end=500 + len(text), page=None, score=1.0, signals={"semantic": 0.8})
    draft = extractive_draft("How is the index rebuilt from the vault?", [Evidence(n=1, text=text, offset=500, hit=hit)],
                             real_embedder)
    assert "Rebuilding the index reads every vault note." in draft and "index file is deleted" not in draft
    whole = Hit(**{**hit.__dict__, "start": 0})  # at the note's start the same text is a sentence
    draft = extractive_draft("How is the index rebuilt from the vault?", [Evidence(n=1, text=text, offset=0, hit=whole)],
                             real_embedder)
    assert "index file is deleted" in draft


def test_a_faq_answer_is_found_through_the_question_it_answers(app, tmp_path, monkeypatch):
    """'Q: ...? A: ...': the answer sentence shares no word with the question asked; it is
    scored with the question just before it, and only the answer is quoted."""
    from cairn.answer import checks
    monkeypatch.setattr(checks, "GATE", False)  # the acceptance gate declines this right answer (wrongpass29: its cost)
    write(tmp_path / "v" / "faq.md", "# Riverside allotments - members' questions\n\n"
          "Q: What is the normal pressure of the standpipes? A: Between two and three bar on a dry day.\n"
          "Q: Who empties the compost bays? A: Priya's crew does that every fortnight.\n")
    write(tmp_path / "v" / "shed.md", "# Shed\n\nThe shed roof was felted in April; the gutter still leaks.\n")
    app.ingest([tmp_path / "v"])
    ans = app.ask("What standpipe pressure is normal according to the committee?", llm="none")
    assert ans.verdict == "pass", ans.problems
    assert "two and three bar" in ans.answer and "standpipes?" not in ans.answer
    assert ans.citations[0]["title"].startswith("Riverside allotments")


def test_a_sentence_after_a_question_that_is_no_candidate_is_no_pair(real_embedder):
    # "Not sure." follows a question but is too short to quote: no question-answer pair
    # is scored (an empty list of pairs once went to the embedder)
    from cairn.answer import extractive_draft
    text = "Where is it? Not sure. The boiler service was on 3 May 2024."
    hit = Hit(id="c1", note_id="n1", source_id="s1", title="boiler", path="b.md", source=None, snippet=text,
              text=text, start=0, end=len(text), page=None, score=0.5, signals={"semantic": 0.6}, speaker=None)
    draft = extractive_draft("When was the boiler service?", [Evidence(n=1, text=text, offset=0, hit=hit)],
                             real_embedder)
    assert draft == "The boiler service was on 3 May 2024. [1]"


def test_a_sentence_meaning_the_question_keeps_a_diluted_note(real_embedder):
    """Class: a note sharing a word with the question whose one sentence says what is asked in
    other words ("owe" / "paid to") is diluted by its other lines in the chunk's cosine; read
    sentence by sentence (those holding the kind of value asked) it clears the floor; a note
    sharing only a name, with no such value, does not (session 19)."""
    from cairn.answer import select_evidence
    note = ("Saturday 6 March at the Lantern Rooms, 3 Dock Row, from 7pm, then a ceilidh band.\n"
            "Tickets are £30 each, paid to the organiser Marek Ostrowski by 20 February.\n"
            "Dress code: tartan if you have it.")
    hit = Hit(**{**_hit(note).__dict__, "signals": {"semantic": 0.2, "keyword": 1.0}})
    q = "how much money do I owe Marek?"  # "owe" asks the kind of value: no word the note must hold (faults28b)
    assert select_evidence(q, [hit], 0.35) == []  # the chunk's own cosine and word overlap are under the floor
    assert [e.hit for e in select_evidence(q, [hit], 0.35, real_embedder)] == [hit]
    other = Hit(**{**_hit("Marek lent me his ladder in June; the gutter is still blocked.").__dict__,
                   "signals": {"semantic": 0.1, "keyword": 1.0}})
    assert select_evidence("what is Marek's wifi password?", [other], 0.35, real_embedder) == []
    assert select_evidence("what's Marek's phone number?", [other], 0.35, real_embedder) == []
