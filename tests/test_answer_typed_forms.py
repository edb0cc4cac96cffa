"""The thing asked, read the way documents write it (issue 33, session 20): a table a PDF wrote
one cell a line, a word of the same family ("dental" / "Dentist"), the units of a measured
quantity, "the number for making a claim", and a compound's kind noun ("the vet bill" of an
"Invoice"). Each with its switch off: the answer it gave before comes back. Fixtures written here."""

from __future__ import annotations

import pytest

from cairn.answer import answer_question, types
from cairn.search import asked as QT
from cairn.lexical import stem
from cairn.model import Hit

# A vet's invoice as a PDF's text layer gives it: the table one cell a line.
INVOICE = ("Riverbend Animal Clinic\nInvoice\nInvoice number: RAC-7731\nPatient: Moss (dog)\nItem\nQty\nAmount\n"
           "Consultation\n1\n£45.00\nBooster vaccination\n1\n£58.20\nNail clip\n1\n£12.00\nTotal\n£115.20\n"
           "Next booster due: May 2029.\n")
BAKE = "# Spelt loaf\n\nMakes one loaf (about 800 g).\nSpelt flour: 500 g\nBake at 220 °C for 35 minutes.\n"
SCHEDULE = ("Harbour Van Insurance\nPolicy schedule\nPolicy number: HVI-4410-2297\nVehicle: 2020 Ford Transit\n"
            "Claims line (24 hours): 0800 112 7781.\n")
ELECTRIC = "# Electricity bill\n\nSupplier: Brightwatt\nTotal this bill: £84.78\n"


def _hit(text: str, title: str, i: int = 1) -> Hit:
    return Hit(id=f"c{i}", note_id=f"n{i}", source_id=None, title=title, path=f"p{i}.md", source=None,
               snippet=text, text=text, start=0, end=len(text), page=1, score=0.9, signals={"semantic": 0.6})


@pytest.mark.parametrize("switch,question,hit,expect", [
    ("UNITS", "what temperature do I bake the spelt loaf at?", (BAKE, "Spelt loaf"), "220 °C"),
    ("COMPOUND_KIND", "what was the total of the vet bill?", (INVOICE, "vet-invoice"), "115.20"),
])
def test_the_thing_asked_as_documents_write_it(real_embedder, monkeypatch, switch, question, hit, expect):
    """Answered with pass; with the rule off, not answered with pass (another value, or declined)."""
    ans = answer_question(question, [_hit(*hit)], real_embedder)
    assert ans.verdict == "pass" and expect in ans.answer, ans.answer
    monkeypatch.setattr(QT, switch, False)
    ans = answer_question(question, [_hit(*hit)], real_embedder)
    assert not (ans.verdict == "pass" and expect in ans.answer), ans.answer


@pytest.mark.parametrize("question,hit", [
    ("how much was the gas bill?", (ELECTRIC, "Electricity bill")),  # the kind noun held, its modifier not
    ("what is the rear tyre pressure?", ("# Van notes\n\nFront tyre pressure: 3.1 bar\n", "Van notes")),
    ("how much does the spelt loaf weigh?", ("# Spelt loaf\n\nBake at 220 °C for 35 minutes.\n", "Spelt loaf")),
])
def test_another_thing_of_the_same_kind_is_still_declined(real_embedder, question, hit):
    ans = answer_question(question, [_hit(*hit)], real_embedder)
    assert ans.verdict != "pass", ans.answer


def test_units_and_another_modifier():
    assert types.missing((stem("rear"),), "Front tyre pressure") == ["rear"]
    assert QT.units_of("what temperature is the oven?") and not QT.units_of("how much flour?")
    assert QT.asked("what is the number to the power of two?").kind != "phone"
    assert ("bill", ("vet",)) in QT.compound_kinds("what was the total of the vet bill?")


def test_function_words_of_the_question(monkeypatch):
    """Adverbs, prepositions, conjunctions and determiners are no words of the thing asked
    (search.asked.NOMINAL); "ref" asked is held by "reference" written."""
    q = QT.asked("how much went into my pension this month?")
    assert "into" not in q.head + q.subject and "pension" in q.head + q.subject
    assert "if" not in QT.asked("what's the excess if we have to cancel a trip?").subject
    assert types.missing(("ref",), "Booking reference: TRX4Q9PL") == []
    monkeypatch.setattr(QT, "NOMINAL", False)
    q = QT.asked("how much went into my pension this month?")
    assert "into" in q.head + q.subject



def test_the_tagger_starts_only_for_a_word_whose_part_depends_on_its_use(monkeypatch):
    """A cold `cairn ask` must not pay ~1 s for spaCy's tagger when the thing asked holds only
    nouns and function words: these are dropped by their closed class; a word such as "back"
    or "altogether" (an adverb here, a noun or adjective elsewhere) still asks the tagger."""
    calls = []
    real = QT.parts_of_speech  # cairn.ner's, as search.asked reads it
    monkeypatch.setattr(QT, "parts_of_speech", lambda text: calls.append(text) or real(text))
    q = QT.asked("what should the boiler pressure be on the gauge?")
    assert calls == [] and "be" not in q.head + q.subject and "boiler" in q.head + q.subject
    q = QT.asked("how much did we get back from the tax office?")
    assert calls and "back" not in q.head + q.subject and "tax" in q.head + q.subject


def test_a_capitalised_run_opening_with_a_verb_is_no_person(real_embedder):
    """"See Lemon drizzle cake for the recipe" names no person: "who will book the venue?" was
    answered with it, labelled as answering; the closed-class word that opens a sentence
    (ner_written.without_closed_lead) is no part of a name."""
    assert [v for v in types.values("person", "See Lemon drizzle cake for the recipe.")] == []
    text = "Call Anna Berg on Monday. The Grand Hotel is booked."
    assert [text[a:b] for a, b in types.values("person", text)] == ["Anna Berg", "Grand Hotel"]
    minutes = ("# Bake sale planning\n\nPresent: Raj, Mona, Edith.\nMona will book the venue.\n"
               "See Lemon drizzle cake for the recipe we sell.\n")
    ans = answer_question("Who will book the venue?", [_hit(minutes, "Bake sale planning")], real_embedder)
    assert "Lemon" not in ans.answer or ans.verdict != "pass", ans.answer
