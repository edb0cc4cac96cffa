"""The assistant's changes of session 26 (assistant26), with sentences written for these tests (none
from a benchmark week): a general pronoun antecedent (nlu/antecedent.py: recency, gender read from the
message, the reply and the note, the current topic) in place of the special cases WHO_ANSWER_PERSON and
SHE_NAMED; the intent model's none threshold; a correction "A not B" after a statement."""

from __future__ import annotations


import numpy as np
import pytest

from cairn.assistant import Assistant, Channel
from cairn.assistant.nlu import antecedent as AN
from cairn.assistant.nlu import classify as C
from cairn.assistant.nlu import state as NS
from conftest import notes_app

NOTES = {
    "band.md": "# Brass band\n\nPractice is on Mondays at 7.30pm in the scout hut.\n"
               "Bandmaster: Olwen Price, 07700 900 611. She picks the programme.\n"
               "Subs go to the secretary, Gareth Moss. Ring him on 07700 900 622 about missed weeks.\n",
    "tortoise.md": "# Shelly the tortoise\n\nBaths twice a week in lukewarm water.\nHibernation check due 1 November.\n",
    "allotment.md": "# Allotment\n\nPlot 27, through the green gate off Fenwick Road.\n",
    "piano.md": "# Piano lessons\n\nLessons with Marta Quill on Wednesdays at 5pm.\nHer mobile is 07700 900 633.\n",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory, real_embedder):
    with notes_app(tmp_path_factory.mktemp("classes26"), NOTES, real_embedder, veto_s=0) as app:
        yield app


# -- the antecedent, as a function of turns --------------------------------------------------
def test_gender_in_reads_pronouns_after_the_name():
    body = NOTES["band.md"]
    assert AN.gender_in("Olwen Price", body) == "f"
    assert AN.gender_in("Gareth Moss", body) == "m"
    assert AN.gender_in("Otto", "Backup: her brother Otto, 07700 900 871.") == "m"  # "her" stands before him; "brother" names him
    assert AN.gender_in("Shelly", NOTES["tortoise.md"]) is None
    assert AN.gender_in("rufus", "how old was rufus when we got him") == "m"
    assert AN.pronoun_gender("Hers") == "f" and AN.pronoun_gender("it") is None


def test_mention_rejects_an_unknown_kind():
    with pytest.raises(ValueError, match="kind"):
        AN.mention("Olwen", "place", None)


def _turn(mentions, cast=()):
    return {"mentions": [AN.mention(*m) for m in mentions], "cast": [AN.mention(*c) for c in cast]}


def test_pick_prefers_the_most_recent_fitting_gender():
    band = [("Olwen Price", "person", "f"), ("Gareth Moss", "person", "m")]
    turns = [_turn([("Brass band", "thing", None)], band), _turn([("Gareth Moss", "person", None)], band)]
    assert AN.pick("his", turns) == "Gareth Moss"
    assert AN.pick("her", turns) == "Olwen Price"  # Gareth is a "he" (the cast says so): the earlier she


def test_pick_keeps_to_the_topic():
    # a person named before a subject whose note never names them is not what "her" means next
    turns = [_turn([("Marta Quill", "person", "f")], [("Marta Quill", "person", "f")]),
             _turn([("Shelly the tortoise", "thing", None)], [])]
    assert AN.pick("her", turns) == "Shelly the tortoise"
    # the same person named in the subject's note stays the referent
    turns[1]["cast"] = [AN.mention("Marta Quill", "person", "f")]
    assert AN.pick("her", turns) == "Marta Quill"


def test_pick_a_subject_of_the_other_gender_is_skipped():
    turns = [_turn([("Marta Quill", "person", None)]), _turn([("Rufus", "thing", "m")])]
    assert AN.pick("he", turns) == "Rufus"
    assert AN.pick("she", turns) == "Marta Quill"


def test_a_state_built_by_hand_and_a_legacy_log_resolve():
    assert NS.ConversationState(person="Ines").antecedent("her") == "Ines"
    st = NS.ConversationState()
    st.apply({"person": "Ines", "subject": "Garden"})  # a turn logged before mentions were kept
    assert st.antecedent("she") == "Ines"
    assert AN.pick("she", []) is None


# -- the antecedent in conversations ------------------------------------------------------------
def test_his_after_who_is_the_person_answered(home, monkeypatch):
    from cairn.answer import checks
    # the acceptance gate declines "Ring him on 07700 900 622" (the line names him only as "him"): its cost, measured
    # in bench/README.md "Session 29 — wrongpass29"; this test is of the pronoun, so the gate is off here
    monkeypatch.setattr(checks, "GATE", False)
    bot = Assistant(home, model="none", new=True)
    assert "Gareth" in bot.turn("who do the band subs go to", Channel()).reply
    reply = bot.turn("whats his number", Channel()).reply
    assert "07700 900 622" in reply and "07700 900 611" not in reply


def test_her_after_a_pet_of_another_topic_is_the_pet(home):
    bot = Assistant(home, model="none", new=True)
    assert "07700 900 633" in bot.turn("whats martas number", Channel()).reply
    bot.turn("how often does shelly have a bath", Channel())
    st = NS.load(bot.store, bot.state.id)
    assert st.antecedent("her").startswith("Shelly")  # not Marta Quill, whom the tortoise note never names


# -- the intent model's none decision: the threshold alone (the margin was deleted in session 27) -------
def test_under_the_threshold_is_none_whatever_the_lead():
    m = C.IntentModel(["ask", "none", "remind"], np.zeros((1, 3)), np.log(np.array([0.18, 0.02, 0.80])),
                      0.9, {"n": 1, "accuracy": 1.0, "threshold": 0.9})
    assert m.predict_features(np.zeros((1, 1)))[0].intent == "none"  # 0.80 < 0.9, though it leads by 0.62
    m.threshold = 0.5
    assert m.predict_features(np.zeros((1, 1)))[0].intent == "remind"


def test_a_saved_model_keeps_its_threshold_and_no_margin(tmp_path):
    loaded = C._load(C.SHIPPED)
    assert loaded is not None and loaded.threshold == loaded.calibration["threshold"]
    C._save(tmp_path / "m.npz", loaded, "k")
    with np.load(tmp_path / "m.npz") as z:
        assert "margin" not in z.files
    assert C._load(tmp_path / "m.npz").threshold == loaded.threshold


# -- a correction "A not B" right after a statement ------------------------------------------------
def test_meant_a_not_b_corrects_the_statement(home):
    bot = Assistant(home, model="none", new=True)
    bot.turn("remember the window cleaner comes on fridays", Channel())
    bot.turn("oops i meant mondays not fridays", Channel())
    texts = [m.text for m in home.memories()]
    assert any("mondays" in t for t in texts) and not any("window cleaner comes on fridays" in t for t in texts)


def test_it_never_means_a_person():
    turns = [_turn([("Boiler", "thing", None)]), _turn([("Martin Greaves", "person", "m")])]
    assert AN.pick_thing(turns) == "Boiler"
    assert AN.pick_thing([{"subject": "Garden", "person": "Ines"}]) == "Garden"  # a legacy turn
    assert AN.pick_thing([]) is None


# -- a greeting opening a message ------------------------------------------------------------------
def test_a_greeting_first_is_dropped(real_embedder, monkeypatch):
    from cairn.assistant.nlu import understand as U
    u = U.understand(real_embedder, "hiya, when does the library shut on saturdays", NS.ConversationState())
    assert [a.intent for a in u.actions] == ["ask"] and u.actions[0].text == "when does the library shut on saturdays"
    assert U.understand(real_embedder, "thanks, that's lovely", NS.ConversationState()).actions[0].text == \
        "thanks, that's lovely"  # small talk through and through: nothing dropped
    monkeypatch.setattr(U, "GREETING_FIRST", False)
    u = U.understand(real_embedder, "hiya, when does the library shut on saturdays", NS.ConversationState())
    assert u.actions[0].text.startswith("hiya")


def test_a_note_title_is_no_person_of_its_cast(home):
    # "# Allotment\n\nPlot 27 ..." read as the two-word name "Allotment Plot" across lines, which made the
    # allotment a person and "it" skip it
    bot = Assistant(home, model="none", new=True)
    assert "27" in bot.turn("which plot is ours at the allotment", Channel()).reply
    st = NS.load(bot.store, bot.state.id)
    assert st.turns[-1]["mentions"] and all("\n" not in c["name"] for c in st.turns[-1]["cast"])
    assert all(m["kind"] == "thing" for m in st.turns[-1]["mentions"])
