"""Abstention on questions that attribute to one person what another said or did, or that
ask about something never mentioned (answer/answerability.py), on a generated chat; notes
are unaffected by the person check."""

from __future__ import annotations

import json

import pytest

from conftest import write
from cairn.answer import answerability as A, types
from cairn.model import Hit
from cairn.service import Cairn

# A conversation written for this test: Priya and Tomas each talk about their own week.
MESSAGES = [
    ("Priya", "Hi Tomas! I finished my first pottery course last week and made a blue teapot."),
    ("Tomas", "That sounds lovely! How long did the course take?"),
    ("Priya", "Six weeks. My teacher said the glaze on the teapot was perfect."),
    ("Tomas", "I spent Saturday rebuilding the engine of my old motorbike in the garage."),
    ("Priya", "Wow, was that hard work?"),
    ("Tomas", "Very. The carburettor alone took me four hours to clean."),
    ("Priya", "I also adopted a rescue greyhound called Biscuit from the shelter."),
    ("Tomas", "Biscuit is a great name! I started learning the cello in March with a teacher from the conservatory."),
    ("Priya", "The cello is beautiful. Do you practise every day?"),
    ("Tomas", "Yes, every evening for half an hour before dinner."),
    ("Priya", "My sister is visiting from Lisbon next month, we will hike the coastal trail."),
    ("Tomas", "Enjoy the hike! My brother moved to Oslo to work as a ferry engineer."),
]


def _chat_home(tmp, embedder, conversation, prefix, day, messages):
    """A Cairn home holding one imported chat session of (speaker, text) messages, ids
    prefix0, prefix1, ... one minute apart from `day` 10:00 (a generator for fixtures)."""
    rows = [{"conversation": conversation, "session": "s1", "id": f"{prefix}{i}", "speaker": spk,
             "time": f"{day}T10:{i:02d}", "text": text} for i, (spk, text) in enumerate(messages)]
    path = tmp / "chat.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    with Cairn(tmp / "home", embedder=embedder) as app:
        app.import_chat(path)
        yield app


@pytest.fixture(scope="module")
def chat_app(tmp_path_factory, real_embedder):
    yield from _chat_home(tmp_path_factory.mktemp("abstain"), real_embedder, "c1", "m", "2024-03-02", MESSAGES)


def _cited(ans):
    return {c["source_id"] for c in ans.citations}


def test_hits_carry_the_speaker(chat_app):
    hits = chat_app.search("motorbike engine garage", k=3).hits
    assert hits[0].source_id == "m3" and hits[0].speaker == "Tomas"
    assert hits[0].to_json()["speaker"] == "Tomas"


def test_activity_of_the_other_person_abstains_with_reason(chat_app):
    ans = chat_app.ask("What engine did Priya rebuild in the garage?", llm="none")
    assert ans.abstained and ans.verdict == "abstain" and not ans.citations
    assert ans.answerability["person"] == "Priya" and ans.answerability["answerable"] is False
    reason = ans.answerability["reason"]
    assert "Tomas" in reason and "Priya" in reason
    assert reason in ans.answer and any(reason in p for p in ans.problems)


def test_answerable_twin_answers_with_the_right_citation(chat_app):
    ans = chat_app.ask("What engine did Tomas rebuild in the garage?", llm="none")
    assert not ans.abstained
    assert "m3" in _cited(ans)
    assert ans.answerability == {"person": "Tomas", "answerable": True, "reason": None,
                                 "scores": ans.answerability["scores"]}
    assert all(c["speaker"] == "Tomas" for c in ans.citations)


def test_person_who_is_the_speaker_is_not_abstained(chat_app):
    ans = chat_app.ask("What did Priya make in her pottery course?", llm="none")
    assert not ans.abstained and "teapot" in ans.answer
    assert _cited(ans) <= {"m0", "m2"} and _cited(ans)


@pytest.mark.parametrize("question, owner, wrong", [
    ("Which city did Priya's brother move to?", "Tomas", "Priya"),
    ("What instrument is Priya learning?", "Tomas", "Priya"),
    ("What is the name of Tomas's greyhound?", "Priya", "Tomas"),
])
def test_swapped_attributions_abstain_and_their_twins_answer(chat_app, question, owner, wrong):
    ans = chat_app.ask(question, llm="none")
    assert ans.abstained, ans.answer
    assert ans.answerability["person"] == wrong and ans.answerability["answerable"] is False
    assert f"from {owner}, not {wrong}" in ans.answerability["reason"]
    twin = chat_app.ask(question.replace(wrong, owner), llm="none")
    assert not twin.abstained and twin.answerability["person"] == owner
    assert twin.citations[0]["speaker"] == owner


def test_key_term_never_mentioned_abstains(chat_app):
    ans = chat_app.ask("What colour is Priya's kayak?", llm="none")
    assert ans.abstained and not ans.citations
    assert "'kayak'" in ans.answerability["reason"] and "never said of Priya" in ans.answerability["reason"]


def test_question_naming_both_people_is_not_person_checked(chat_app):
    ans = chat_app.ask("Who has a teacher, Priya or Tomas?", llm="none")
    assert ans.answerability is None


def test_notes_are_unaffected_by_the_person_check(tmp_path, real_embedder):
    write(tmp_path / "v" / "shed.md", "# Shed\n\nPriya rebuilt the shed roof in May with cedar shingles.\n")
    with Cairn(tmp_path / "home", embedder=real_embedder) as app:
        app.ingest([tmp_path / "v"])
        ans = app.ask("What did Priya rebuild?", llm="none")
    assert not ans.abstained and "shed roof" in ans.answer
    assert ans.answerability is None


# ---------------------------------------------------------------- the rule's parts

def _hit(text, speaker, n):
    return Hit(id=f"c{n}", note_id="n1", source_id=f"m{n}", title="chat", path="chats/c.md", source=None,
               snippet=text, text=text, start=0, end=len(text), page=None, score=1.0,
               signals={"semantic": 0.8, "keyword": 1.0, "recency": 1.0}, type="chat", speaker=speaker)


@pytest.mark.parametrize("sentence, speaker, subject", [
    ("I rebuilt the engine.", "Tomas", "Tomas"),
    ("The engine was hard to fix.", "Tomas", "Tomas"),
    ("How was your pottery course?", "Tomas", "Priya"),  # second person by someone else: about Priya
    ("Congrats on finishing your course!", "Priya", A.ADDRESSEE),  # Priya speaking to someone else
    ("You and I should hike.", "Tomas", "Tomas"),  # first person present: the speaker
    ("Priya rebuilt the roof.", None, None),  # a note: about anyone
    ("Any fun plans for the summer?", "Priya", A.ADDRESSEE),  # a question Priya asks: about the other
    ("Any fun plans for the summer?", "Tomas", "Priya"),  # a question Tomas asks (Priya checked): about her
    ("Should I try the cello?", "Priya", "Priya"),  # a first-person question: the speaker
    ("That race sounds great, Tom!", "Priya", A.ADDRESSEE),  # calls Tomas by a short name
    ("That race sounds great, Tom!", "Tomas", "Tomas"),  # no other participant is named
    ("Big news from Lisbon.", "Tomas", "Tomas"),  # a capitalised word that is no participant's name
    ("Congrats on those deals!", "Priya", A.ADDRESSEE),  # a reaction to the other's news
    ("That sounds lovely.", "Tomas", "Priya"),  # Tomas reacting to what Priya said
    ("Wow, what a view.", "Tomas", "Priya"),
    ("That is what I like most.", "Tomas", "Tomas"),  # a first-person word wins over the opener
    ("Sunflowers mean warmth?", "Tomas", "Priya"),  # a plain question asks the other person
])
def test_sentence_subject(sentence, speaker, subject):
    assert A.sentence_subject(sentence, speaker, "Priya", ["Priya", "Tomas"]) == subject


def test_named_people_and_strip():
    hits = [_hit("I like tea.", "Priya Shah", 1), _hit("Me too.", "Tomas", 2)]
    assert A.named_people("What does Priya's cat eat?", hits) == ["Priya Shah"]
    assert A.named_people("What do Tomas and Priya like?", hits) == ["Tomas", "Priya Shah"]
    assert A.named_people("What is the capital of Norway?", hits) == []
    own = hits + [_hit("Who is driving?", "Me", 3)]  # an export's label for the person: no name
    assert A.named_people("Which till served me at the hardware shop?", own) == []
    assert A.named_people("What did Tomas tell me?", own) == ["Tomas"]
    assert A.strip_people("What does Priya's cat eat?", ["Priya Shah"]) == "What does cat eat?"


def test_check_on_hits(real_embedder):
    hits = [_hit("I spent Saturday rebuilding the engine of my motorbike.", "Tomas", 1),
            _hit("Wow, that sounds like hard work.", "Priya", 2)]
    swapped = A.check("What engine did Priya rebuild?", hits, real_embedder)
    assert not swapped.answerable and "from Tomas, not Priya" in swapped.reason
    twin = A.check("What engine did Tomas rebuild?", hits, real_embedder)
    # Priya's "Wow, that sounds like hard work." reacts to Tomas's news: it is about him too.
    assert twin.answerable and twin.about_person == {"c1", "c2"}
    assert A.check("What engine was rebuilt?", hits, real_embedder).person is None


def test_check_tolerates_odd_input(real_embedder):
    assert A.check("", [], real_embedder).answerable
    assert A.check("Priya?", [_hit("Hello!", "Priya", 1)], real_embedder).answerable


# A second conversation written for this test: only Priya names the kite, in a question she
# asks Tomas, and in a cheer that calls him by a short name; both are about him, not her.
KITE_MESSAGES = [
    ("Priya", "Flying the red dragon kite at the festival this weekend?"),
    ("Tomas", "Yes! It has a twelve metre tail that my neighbour stitched."),
    ("Priya", "The red dragon kite over the beach will look amazing, Tom!"),
    ("Priya", "I will be at the bakery all weekend, baking rye bread for the market."),
    ("Tomas", "Good luck with the rye bread."),
]


@pytest.fixture(scope="module")
def kite_app(tmp_path_factory, real_embedder):
    yield from _chat_home(tmp_path_factory.mktemp("kite"), real_embedder, "k1", "k", "2024-05-04", KITE_MESSAGES)


def test_questions_and_cheers_to_the_other_person_are_not_evidence_about_the_asker(kite_app):
    ans = kite_app.ask("What kite is Priya flying at the festival?", llm="none")
    assert ans.abstained and not ans.citations
    assert ans.answerability["person"] == "Priya" and "not Priya" in ans.answerability["reason"]


def test_faithful_kite_question_answers_from_the_owner(kite_app):
    ans = kite_app.ask("What kite is Tomas flying at the festival?", llm="none")
    assert not ans.abstained and "dragon" in ans.answer
    assert _cited(ans) <= {"k0", "k1", "k2"} and _cited(ans)


def test_reaction_rule_can_be_switched_off_for_measuring(monkeypatch):
    monkeypatch.setattr(A, "REACTIONS", False)
    assert A.sentence_subject("Congrats on those deals!", "Priya", "Priya", ["Priya", "Tomas"]) == "Priya"


# A third conversation written for this test: one message of Tomas's mixes a cheer for
# Priya's news with his own news; the answer about Priya must quote only the cheer's side.
MIXED_MESSAGES = [
    ("Priya", "I glazed a green vase in the studio on Friday."),
    ("Tomas", "Congrats on the green vase! I repainted my canoe in the studio on Friday."),
    ("Priya", "Which colour did you choose for the canoe?"),
]


@pytest.fixture(scope="module")
def mixed_app(tmp_path_factory, real_embedder):
    yield from _chat_home(tmp_path_factory.mktemp("mixed"), real_embedder, "x1", "x", "2024-06-07", MIXED_MESSAGES)


def test_answer_quotes_only_sentences_about_the_person(mixed_app):
    ans = mixed_app.ask("What did Priya make in the studio on Friday?", llm="none")
    assert not ans.abstained and "vase" in ans.answer
    assert "canoe" not in ans.answer  # Tomas's own news is in a cited message, but not about Priya


def test_a_question_is_never_quoted_as_the_answer(mixed_app):
    ans = mixed_app.ask("Which colour did Tomas choose for the canoe?", llm="none")
    assert "Which colour did you choose" not in ans.answer


# A fourth conversation written for this test: irregular verbs, and a cheer that only calls
# the person by name.
VERB_MESSAGES = [
    ("Ben", "I sold my sailboat yesterday and bought a road bike."),
    ("Ana", "That sounds great, Ben!"),
    ("Ana", "I made a walnut bookshelf for the hallway."),
    ("Ben", "Nice work, Ana!"),
]


@pytest.fixture(scope="module")
def verb_app(tmp_path_factory, real_embedder):
    yield from _chat_home(tmp_path_factory.mktemp("verbs"), real_embedder, "v1", "v", "2024-07-01", VERB_MESSAGES)


def test_irregular_verbs_are_said_of_the_person(verb_app):
    for question, word in (("What did Ben sell?", "sailboat"), ("What did Ben buy?", "road bike")):
        ans = verb_app.ask(question, llm="none")
        assert not ans.abstained and word in ans.answer, ans.answer


def test_a_cheer_calling_the_person_by_name_is_not_the_answer(verb_app):
    ans = verb_app.ask("What did Ana make?", llm="none")
    assert "walnut bookshelf" in ans.answer and "Nice work" not in ans.answer


def test_time_words_alone_are_no_topic_to_attribute(verb_app):
    ans = verb_app.ask("What did Ben do yesterday?", llm="none")
    assert ans.answerability is None or ans.answerability["answerable"], ans.answer


# A fifth conversation written for this test: a stated liking, a repeated activity without a
# number, and enough about each person for a hypothetical question.
TASTE_MESSAGES = [
    ("Lena", "I love watching old westerns on Sunday nights."),
    ("Omar", "My grandma gave me her old cello when I moved out."),
    ("Omar", "I went bouldering at the quarry this morning."),
    ("Lena", "My cello teacher says my Bach suite is finally clean."),
    ("Omar", "Went bouldering again after work, my fingers are sore."),
    ("Lena", "Classical music always calms me down after a long shift."),
    ("Omar", "I'm a carpenter, mostly kitchens and staircases."),
]
# message ids: t0 westerns, t1 grandma's cello, t2 t4 bouldering, t3 Bach, t5 classical, t6 carpenter


@pytest.fixture(scope="module")
def taste_app(tmp_path_factory, real_embedder):
    yield from _chat_home(tmp_path_factory.mktemp("taste"), real_embedder, "t1", "t", "2024-08-03", TASTE_MESSAGES)


def test_answer_stating_the_opposite_abstains_and_its_twin_answers(taste_app):
    ans = taste_app.ask("What movies does Lena hate watching?", llm="none")
    assert ans.abstained and not ans.citations
    assert "'love'" in ans.answer and "'hate'" in ans.answer
    assert any("the evidence says 'love' where the question says 'hate'" in p for p in ans.problems)
    twin = taste_app.ask("What movies does Lena love watching?", llm="none")
    assert not twin.abstained and "westerns" in twin.answer and _cited(twin) == {"t0"}


def test_answer_naming_the_other_kin_abstains(taste_app):
    ans = taste_app.ask("What did Omar's grandpa give him?", llm="none")
    assert ans.abstained and "'grandma' where the question says 'grandpa'" in ans.answer
    twin = taste_app.ask("What did Omar's grandma give him?", llm="none")
    assert not twin.abstained and "cello" in twin.answer and _cited(twin) == {"t1"}


def test_a_lone_key_word_never_said_is_no_reason_to_abstain(taste_app):
    # "job" is never said, but Omar says what he does; two such words still abstain (kayak test)
    ans = taste_app.ask("What is Omar's job?", llm="none")
    assert not ans.abstained and "carpenter" in ans.answer and _cited(ans) == {"t6"}


def test_how_many_times_is_answered_from_each_mention(taste_app, monkeypatch):
    ans = taste_app.ask("How many times has Omar gone bouldering?", llm="none")
    assert not ans.abstained, ans.problems
    assert _cited(ans) <= {"t2", "t4"} and _cited(ans)
    # "how many" of anything else wants a number; with no sentence holding one, the best sentence over SENTENCE_FLOOR
    # is quoted (types.KIND_FREE, session 29: LoCoMo's chats answer counts without numerals), labelled a quote only
    cello = taste_app.ask("How many cello teachers does Lena have?", llm="none")
    assert not cello.abstained and _cited(cello) == {"t3"} and cello.checks["type"] is False
    assert cello.to_json()["label"] == "quoted from your notes"
    monkeypatch.setattr(types, "KIND_FREE", False)  # before: declined
    assert taste_app.ask("How many cello teachers does Lena have?", llm="none").abstained


def test_hypothetical_question_is_answered_from_the_evidence_about_the_person(taste_app):
    # "Vivaldi" is never mentioned: a question presuming it abstains ...
    plain = taste_app.ask("Which Vivaldi concerto did Lena play?", llm="none")
    assert plain.abstained and "never mention 'Vivaldi'" in plain.answer
    # ... but asking for a judgement about Lena is answered from what she said
    ans = taste_app.ask("Would Lena enjoy a Vivaldi concert?", llm="none")
    assert not ans.abstained, ans.problems
    assert _cited(ans) and _cited(ans) <= {"t0", "t3", "t5"}


def test_hypothetical_question_is_not_answered_with_someone_elses_words(taste_app):
    ans = taste_app.ask("Would Lena like bouldering at the quarry?", llm="none")
    if ans.answerability:  # never "not answerable" on an answer that was given
        assert ans.answerability["answerable"] is True or ans.abstained
    # the bouldering is Omar's: never quoted as evidence about Lena
    assert not ({"t2", "t4"} & _cited(ans))


def test_alias_added_after_an_ask_is_known_at_the_next_ask(app):
    """The alias set behind the premise check is cached per index state: an alias added
    between two questions is seen by the second (no stale cache), on this connection or
    from another one."""
    app.note_create("Bees", "My grandmother keeps three hives of bees in the orchard.")
    question = "How many hives does Nana keep?"
    first = app.ask(question, llm="none")
    assert "abstained: the notes never mention 'Nana'" in first.problems
    assert app.ask(question, llm="none").problems == first.problems  # cached, same answer
    app.entity_alias("Grandmother", "Nana")
    assert not any("Nana" in p for p in app.ask(question, llm="none").problems)
    with Cairn(app.settings.home, embedder=app.embedder) as other:  # a write from elsewhere
        other.entity_alias("Grandmother", "Granny Weatherwax")
    assert "granny weatherwax" in app._aliases()


# A fifth conversation written for this test: the hedgehog is Lena's ("Pickle, my hedgehog");
# Marco names it only in his own question ("Can you send me a photo of Pickle?"), which asks
# about it and states nothing of his (answerability.states_of).
PET_MESSAGES = [
    ("Lena", "Morning Marco! The vet says Pickle, my hedgehog, is healthy again."),
    ("Marco", "Great news! Can you send me a photo of Pickle? I miss the little guy."),
    ("Lena", "Here he is, curled up in his blanket."),
    ("Marco", "So cute. Our parrot Mango learned a new whistle this week."),
    ("Lena", "Ha, Mango is a clever bird! Do you still take him to the park?"),
    ("Marco", "Every Sunday, he rides on my shoulder the whole way."),
]


@pytest.fixture(scope="module")
def pet_app(tmp_path_factory, real_embedder):
    yield from _chat_home(tmp_path_factory.mktemp("pet"), real_embedder, "p1", "p", "2024-06-01", PET_MESSAGES)


def test_a_persons_own_question_states_nothing_of_them(pet_app, monkeypatch):
    ans = pet_app.ask("Is Pickle Marco's pet?", llm="none")
    assert ans.abstained and not ans.citations
    assert "from Lena, not Marco" in ans.answerability["reason"]
    twin = pet_app.ask("Is Pickle Lena's pet?", llm="none")
    assert not twin.abstained and _cited(twin) == {"p0"} and "hedgehog" in twin.answer
    other = pet_app.ask("Is Mango Marco's pet?", llm="none")
    assert not other.abstained and _cited(other) == {"p3"}
    monkeypatch.setattr(A, "STATED", False)  # every sentence about Marco counts: his question answers
    assert not pet_app.ask("Is Pickle Marco's pet?", llm="none").abstained


@pytest.mark.parametrize("sentence, speaker, stated", [
    ("Can you send me a photo of Pickle?", "Marco", False),  # the person's own question
    ("Do your research and find a good vet.", "Lena", False),  # advice to them by someone else
    ("Any plans for the summer?", "Lena", True),  # a question put to them: their reply answers it
    ("I took Mango to the park.", "Marco", True),
    ("Marco's parrot whistles.", None, True),  # a note
])
def test_states_of(sentence, speaker, stated):
    assert A.states_of(sentence, speaker, "Marco") is stated


def test_a_comment_on_the_other_persons_news_states_nothing_of_the_commenter(real_embedder, monkeypatch):
    hits = [_hit("I got a flat tyre on the canal path this morning.", "Lena", 1),
            _hit("Flat tyres on that canal path are the worst.", "Marco", 2),  # echoes Lena's news
            _hit("I fixed the brakes on my bike last week.", "Marco", 3)]
    replies = {"c2": hits[0].text}
    swapped = A.check("Where did Marco get a flat tyre?", hits, real_embedder, replies=replies)
    assert not swapped.answerable and "from Lena, not Marco" in swapped.reason
    assert A.check("Where did Lena get a flat tyre?", hits, real_embedder, replies=replies).answerable
    monkeypatch.setattr(A, "STATED", False)  # the comment counts as Marco's own: answered
    assert A.check("Where did Marco get a flat tyre?", hits, real_embedder, replies=replies).answerable


def test_about_in_a_question_is_no_key_term(real_embedder):
    """"What did Mara say about her shoes?" is about shoes: "about" in the other speaker's
    question ("Have you told your sister about the job?") must not decline it."""
    assert "about" not in A.key_terms("What did Mara say about her shoes?")
    hits = [_hit("Not yet, he chewed my running shoes last night.", "Mara", 1),
            _hit("Have you told your sister about the job?", "Mara", 2),
            _hit("Yes, she thinks the commute by ferry will be fun.", "Tomas", 3)]
    assert A.check("What did Mara say about her shoes?", hits, real_embedder).answerable
    assert not A.check("What did Tomas say about his shoes?", hits, real_embedder).answerable
