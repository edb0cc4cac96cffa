"""Fact extraction (rules, grounded LLM path through a real loopback OpenAI-compatible
server, the real embedded SmolLM2) and fact-augmented keys in the index."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import write

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fakes.openai_server import FakeOpenAIServer  # noqa: E402

from cairn.config import ConfigError, load_settings  # noqa: E402
from cairn.llm import get_llm  # noqa: E402
from cairn.memory import grounding  # noqa: E402
from cairn.memory.extract import Message, extract_facts  # noqa: E402
from cairn.memory.rules import resolve_relative_date  # noqa: E402

# A conversation excerpt written for these tests.
EXCERPT = [
    Message("a1", "Priya", "Hi Tom! I started pottery classes at the community centre yesterday.",
            "2024-03-12T18:00:00"),
    Message("a2", "Tom", "That's great! What did you make?", "2024-03-12T18:01:00"),
    Message("a3", "Priya", "A wobbly green mug, haha. My brother Arjun thinks it looks like a frog. "
            "I love working with clay.", "2024-03-12T18:02:00"),
    Message("a4", "Tom", "Ha! I'm going to run the Porto marathon next month. I hate hills though.",
            "2024-03-12T18:03:00"),
]
IDS = {m.id for m in EXCERPT}


def by_text(res):
    return {f.text: f for f in res.facts}


def test_rules_turn_first_person_statements_into_sourced_third_person_facts():
    res = extract_facts(EXCERPT, llm=None)
    facts = by_text(res)
    assert res.method == "rules" and not res.problems
    assert "Priya started pottery classes at the community centre yesterday (11 March 2024)." in facts
    assert facts["Priya started pottery classes at the community centre yesterday (11 March 2024)."].source_ids == ["a1"]
    assert "Priya's brother is Arjun." in facts and facts["Priya's brother is Arjun."].kind == "person"
    assert facts["Priya loves working with clay."].kind == "preference"
    assert facts["Priya loves working with clay."].source_ids == ["a3"]
    assert facts["Priya loves working with clay."].said_at == "2024-03-12T18:02:00"
    marathon = "Tom is going to run the Porto marathon next month (April 2024)."
    assert marathon in facts and facts[marathon].kind == "expectation"
    assert "Porto" in facts[marathon].entities and facts[marathon].subject == "Tom"
    assert facts["Tom hates hills though."].kind == "preference"
    assert not any("?" in t or " I " in f" {t} " or "my " in t.lower() for t in facts)  # no questions, no first person
    assert all(set(f.source_ids) <= IDS and f.method == "rules" for f in res.facts)


def test_rules_resolve_a_relation_named_elsewhere_in_the_conversation():
    msgs = [Message("b1", "Lena", "My sister just had a baby girl!", "2024-01-05T10:00:00"),
            Message("b2", "Lena", "Her name? Oh, my sister is Marta, she lives in Graz.", "2024-01-05T10:01:00")]
    facts = by_text(extract_facts(msgs, llm=None, with_entities=False))
    assert "Lena's sister Marta just had a baby girl." in facts
    assert facts["Lena's sister Marta just had a baby girl."].source_ids == ["b1"]


def test_a_shared_image_becomes_a_fact_about_the_speaker():
    msgs = [Message("i1", "Tom", "Look at this! [image: a photo of a red kayak on a frozen lake]", "")]
    facts = extract_facts(msgs, llm=None, with_entities=False).facts
    assert [(f.text, f.source_ids) for f in facts] == [("Tom shared a photo of a red kayak on a frozen lake.", ["i1"])]


def test_no_statements_is_an_empty_result_that_says_so():
    msgs = [Message("c1", "Ana", "How was the weekend?", ""), Message("c2", "Ben", "Wow, nice!", "")]
    res = extract_facts(msgs, llm=None)
    assert res.facts == [] and res.problems == []
    assert "found no first-person statement in 2 message(s)" in res.note


def test_relative_dates_against_the_message_time():
    from datetime import datetime
    when = datetime(2023, 5, 8, 13, 56)
    assert resolve_relative_date("yesterday", when) == "7 May 2023"
    assert resolve_relative_date("last year", when) == "2022"
    assert resolve_relative_date("two weeks ago", when) == "around 24 April 2023"
    assert resolve_relative_date("last Saturday", when) == "6 May 2023"
    assert resolve_relative_date("next month", when) == "June 2023"


def test_llm_fact_in_first_person_or_about_someone_absent_is_rejected():
    from cairn.memory.extract import _ground
    ok, _ = _ground({"message": 3, "subject": "Priya", "fact": "Priya loves working with clay.", "kind": "preference"}, EXCERPT)
    assert ok is not None and ok.source_ids == ["a3"]
    bad, why = _ground({"message": 3, "subject": "Priya", "fact": "I love working with clay.", "kind": "preference"}, EXCERPT)
    assert bad is None and "first person" in why
    bad, why = _ground({"message": 3, "subject": "Priya", "fact": "Tom loves working with clay.", "kind": "preference"}, EXCERPT)
    assert bad is None and "given as a fact about Priya" in why
    bad, why = _ground({"message": 1, "subject": "Maria", "fact": "Maria loves clay.", "kind": "preference"}, EXCERPT)
    assert bad is None and "neither speaks nor is named" in why


def test_grounding_needs_names_and_content_words_of_the_source():
    src = ["I started pottery classes at the community centre yesterday."]
    assert grounding.check("Priya started pottery classes.", "Priya", src, ["Priya"]).ok
    bad = grounding.check("Priya moved to Paris for a cooking job.", "Priya", src, ["Priya"])
    assert not bad.ok and "Paris" in bad.missing_names
    assert not grounding.check("Priya enjoys sailing boats.", "Priya", src, ["Priya"]).ok
    # a name at the start of the sentence counts too: Priya's words given to Tom
    wrong = grounding.check("Tom started pottery classes.", "Priya", src, ["Priya"])
    assert not wrong.ok and wrong.missing_names == ["Tom"]


# ------------------------------------------------------------------ LLM path (fake server)

@pytest.fixture()
def fake():
    with FakeOpenAIServer() as srv:
        yield srv


def llm_for(srv):
    return get_llm(f"openai:{srv.base_url}:fake-model")


def test_llm_facts_are_grounded_and_an_invented_one_is_dropped(fake):
    fake.reply(json.dumps({"facts": [
        {"message": 1, "subject": "Priya", "fact": "Priya started pottery classes at the community centre.",
         "kind": "event"},
        {"message": 3, "subject": "Priya", "fact": "Priya moved to Paris to open a bakery.", "kind": "event"},
        {"message": 2, "subject": "Tom", "fact": "Tom started pottery classes at the community centre.",
         "kind": "event"},  # Priya's words given to Tom
    ]}))
    res = extract_facts(EXCERPT, llm=llm_for(fake))
    texts = [f.text for f in res.facts]
    assert texts == ["Priya started pottery classes at the community centre."]
    assert res.method == "llm" and res.facts[0].method == "llm" and res.facts[0].source_ids == ["a1"]
    assert res.stats["rejected"] == 2 and res.stats["llm_calls"] == 1
    assert any("rejected 2 LLM fact" in p and "Paris" in p for p in res.problems)
    body = fake.requests[-1].body
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["facts"]["maxItems"] == 3
    assert schema["properties"]["facts"]["items"]["properties"]["fact"]["maxLength"] == 160
    assert any("Biscuit" in m["content"] for m in body["messages"])  # the few-shot example
    assert "[4] Tom:" in body["messages"][-1]["content"]


def test_bad_json_twice_falls_back_to_rules_visibly(fake):
    fake.reply("Sure! Here are the facts: Priya likes clay")
    res = extract_facts(EXCERPT, llm=llm_for(fake))
    assert len(fake.requests) == 2  # one window, one retry
    assert res.method == "rules" and res.facts  # the rules' facts, never an empty success
    assert all(f.method == "rules" for f in res.facts)
    assert any("attempt 2" in p and "rule-based extractor" in p for p in res.problems)


def test_schema_breaking_reply_is_retried_then_falls_back(fake):
    fake.reply(json.dumps({"facts": [{"message": 9, "subject": "Tom", "fact": "Tom runs.", "kind": "event"}]}))
    res = extract_facts(EXCERPT[:2], llm=llm_for(fake))
    assert len(fake.requests) == 2
    assert any("not a message number 1..2" in p for p in res.problems)
    assert res.facts and res.method == "rules"


def test_unreachable_llm_falls_back_to_rules_and_says_so():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    res = extract_facts(EXCERPT, llm=get_llm(f"openai:http://127.0.0.1:{port}/v1:m"))
    assert res.method == "rules" and res.facts
    assert any("LLM unavailable" in p for p in res.problems)


@pytest.fixture(scope="module")
def embedded_result():
    """One real SmolLM2-135M extraction over a four-message excerpt (one window)."""
    return extract_facts(EXCERPT, llm=get_llm("embedded"))


def test_embedded_model_gives_sourced_facts_or_a_visible_fallback(embedded_result):
    res = embedded_result
    assert res.facts, res.problems  # never an empty success
    assert all(set(f.source_ids) <= IDS and f.source_ids for f in res.facts)
    assert res.stats["llm_calls"] >= 1
    llm_facts = [f for f in res.facts if f.method == "llm"]
    for f in llm_facts:  # every kept model fact passed the grounding check
        assert grounding.check(f.text, f.subject, [m.text for m in EXCERPT], ["Priya", "Tom"]).ok
    if res.method != "llm":
        assert res.problems  # the fallback is stated


# ------------------------------------------------------------------ fact-augmented keys

CHAT = [
    {"conversation": "fam", "session": "s1", "id": "m1", "speaker": "Lena", "time": "2024-01-05T10:00:00",
     "text": "Big news: my sister just had a baby girl!"},
    {"conversation": "fam", "session": "s1", "id": "m2", "speaker": "Omar", "time": "2024-01-05T10:01:00",
     "text": "Congratulations! What is your sister called again?"},
    {"conversation": "fam", "session": "s1", "id": "m3", "speaker": "Lena", "time": "2024-01-05T10:02:00",
     "text": "My sister is Marta. She lives in Graz."},
]


@pytest.fixture()
def chat_file(tmp_path):
    return write(tmp_path / "chat.jsonl", "\n".join(json.dumps(r) for r in CHAT) + "\n")


def ids(app, query):
    return [h.source_id for h in app.search(query, mode="keyword", group=False).hits]


def test_fact_keys_find_a_message_by_its_fact_only_after_extraction(app, chat_file):
    report = app.import_chat(chat_file, extract=False)
    assert report.extractions == [] and "extraction" not in report.to_json()
    assert ids(app, "Marta") == ["m3"]  # "Marta" is only in m3's text
    sessions = app.extract("fam")
    (s,) = sessions
    assert "Lena's sister Marta just had a baby girl." in [f.text for f in s.result.facts]
    assert s.keys.rewritten_chunks == 2 and s.keys.messages_with_facts == 2
    assert ids(app, "Marta") == ["m3", "m1"] or ids(app, "Marta") == ["m1", "m3"]  # m1 by its fact
    assert ids(app, "Marta baby")[0] == "m1"  # both words now in m1's key
    hit = next(h for h in app.search("Marta baby", mode="keyword", group=False).hits if h.source_id == "m1")
    assert hit.snippet == "Big news: my sister just had a baby girl!"  # the message, not the fact
    status = app.status()
    assert status["missing_vectors"] == 0 and status["embedded_chunks"] == 3  # re-embedded
    sem = app.search("Marta had a baby daughter", mode="semantic", group=False).hits
    assert sem[0].source_id == "m1"


def test_fact_keys_survive_reindex(app, chat_file):
    app.import_chat(chat_file)  # extraction on import (rules) is the default
    assert ids(app, "Marta baby")[0] == "m1"
    app.reindex()
    assert ids(app, "Marta baby")[0] == "m1"
    assert app.status()["missing_vectors"] == 0


def test_fact_keys_can_be_switched_off(app, chat_file):
    app.settings.memory.fact_keys = False
    report = app.import_chat(chat_file)
    assert report.extractions[0].result.facts  # facts are extracted and stored...
    assert report.extractions[0].keys.rewritten_chunks == 0
    assert ids(app, "Marta") == ["m3"]  # ...but the keys are the messages alone
    assert app.set_fact_keys(True) == 2
    assert "m1" in ids(app, "Marta")
    assert app.set_fact_keys(False) == 2
    assert ids(app, "Marta") == ["m3"]


def test_extract_unknown_target_is_a_clear_error(app, chat_file):
    app.import_chat(chat_file, extract=False)
    with pytest.raises(ValueError, match="no chat session matches 'nobody'"):
        app.extract("nobody")
    with pytest.raises(ValueError, match="invalid LLM spec"):
        app.extract(llm="gpt-please")
    assert ids(app, "Marta") == ["m3"]  # nothing lost or changed


def test_memory_config_is_validated(tmp_path):
    home = tmp_path / "h"
    write(home / "config.toml", "[memory]\nfact_keys = false\nextract_llm = \"embedded\"\n")
    s = load_settings(home)
    assert s.memory.fact_keys is False and s.memory.extract_llm == "embedded"
    write(home / "config.toml", "[memory]\nfact_keys = \"yes\"\n")
    with pytest.raises(ConfigError, match="memory.fact_keys must be true or false"):
        load_settings(home)


def cairn(home, *args):
    return subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=600, env=dict(os.environ))


def test_cli_import_extracts_and_extract_prints_facts(tmp_path, chat_file):
    home = tmp_path / "home"
    r = cairn(home, "import", "chat", str(chat_file), "-q")
    assert r.returncode == 0, r.stderr
    assert "extracted 2 fact(s) from 1 session(s) by rules" in r.stdout
    r = cairn(home, "extract", "--json", "--llm", "none")
    assert r.returncode == 0, r.stderr
    (session,) = json.loads(r.stdout)
    assert session["method"] == "rules" and session["path"] == "chats/fam/s1.md"
    assert {"text": "Lena's sister Marta just had a baby girl.", "source_ids": ["m1"]}.items() <= \
        next(f for f in session["facts"] if f["source_ids"] == ["m1"]).items()
    r = cairn(home, "extract", "fam")
    assert r.returncode == 0 and "[m1] (person) Lena's sister Marta just had a baby girl." in r.stdout
    r = cairn(home, "extract", "nobody")
    assert r.returncode == 1 and "no chat session matches 'nobody'" in r.stderr and "Traceback" not in r.stderr
    r = cairn(tmp_path / "home2", "import", "chat", str(chat_file), "--llm", "bogus")
    assert r.returncode == 1 and "invalid LLM spec" in r.stderr
    assert not (tmp_path / "home2" / "vault" / "chats").exists()  # refused before writing anything


def test_a_message_without_a_proper_name_is_not_given_to_spacy(monkeypatch):
    """_attach_entities: no capital letter but "I", "I'm", ... -> no NER (no spaCy load);
    a fact keeps its subject; a message with a name still goes to NER."""
    from cairn import ner
    from cairn.memory.extract import Message, extract_facts
    calls = []
    monkeypatch.setattr(ner, "entities_many", lambda texts: calls.append(texts) or [[] for _ in texts])
    monkeypatch.setattr(ner, "backend", lambda: "spacy")
    res = extract_facts([Message("m1", "The person", "I'm feeling stressed about the shed deadline", "2026-12-06T10:00")])
    assert res.facts and calls == [] and res.stats["ner"] == "none"
    assert res.facts[0].entities == ["The person"]
    res = extract_facts([Message("m1", "The person", "I'm meeting Ana in Leeds on Friday", "2026-12-06T10:00")])
    assert res.facts and calls == [["I'm meeting Ana in Leeds on Friday"]] and res.stats["ner"] == "spacy"


def test_a_chat_exports_me_and_the_person_read_as_prose():
    """probe21: a chat export whose own speaker is "Me" gave "Me's climbing shoes are size
    42."; the assistant's transcripts (speaker "The person") gave "The person forgot The
    person's keys at work.". Still the person's facts (entities.SELF_NAMES), written so."""
    from cairn.memory.extract_model import Message
    from cairn.memory.rules import rule_facts
    texts = [f.text for f in rule_facts([Message("m1", "Me", "my climbing shoes are size 42", "")])]
    assert texts == ["The person's climbing shoes are size 42."] or texts == ["The person's climbing shoes are size 42"], texts
    texts = [f.text for f in rule_facts([Message("m2", "The person", "I forgot my keys at work", "")])]
    assert texts and texts[0].startswith("The person forgot the person's keys at work"), texts
    texts = [f.text for f in rule_facts([Message("m3", "Ada", "I forgot my keys at work", "")])]
    assert texts and texts[0].startswith("Ada forgot Ada's keys at work"), texts
