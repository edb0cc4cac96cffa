"""A total asked is answered by the note's total, an item by its line (typed23c, issue 33).

Fixture written here: a window cleaner's receipt with line items and a total. "How much did the window cleaner
charge" names nothing but the receipt's own thing, so a line item does not answer it; "how much was the conservatory
roof" names an item no total line holds, so the total does not answer it. With the switch off the old answer comes
back."""

from __future__ import annotations

from cairn.answer import answer_question, typed
from cairn.model import Hit

RECEIPT = """GLEAMING GLASS WINDOW CLEANING
Date 14/05/2029
Window cleaner visit, front and back     £24.00
Conservatory roof                        £35.00
Gutter clear                             £18.00
TOTAL                                    £77.00
PAID BY CARD
"""


def _ask(question: str, embedder):
    hit = Hit(id="c1", note_id="n1", source_id=None, title="Window cleaner receipt", path="p1.md", source=None,
              snippet=RECEIPT, text=RECEIPT, start=0, end=len(RECEIPT), page=1, score=0.9, signals={"semantic": 0.6})
    return answer_question(question, [hit], embedder)


def test_a_total_asked_is_answered_by_the_total(real_embedder, monkeypatch):
    ans = _ask("how much did the window cleaner charge", real_embedder)
    assert ans.verdict == "pass" and "£77.00" in ans.answer, ans.answer
    monkeypatch.setattr(typed, "TOTAL", False)
    ans = _ask("how much did the window cleaner charge", real_embedder)
    assert ans.verdict == "pass" and "£24.00" in ans.answer, ans.answer  # the old wrong pass: a line item


def test_an_item_asked_is_answered_by_its_line_not_the_total(real_embedder):
    ans = _ask("how much was the conservatory roof", real_embedder)
    assert ans.verdict == "pass" and "£35.00" in ans.answer and "£77.00" not in ans.answer, ans.answer
    ans = _ask("how much was the gutter clear", real_embedder)
    assert ans.verdict == "pass" and "£18.00" in ans.answer, ans.answer


SAFETY = """Property: Flat 2, 9 Mill Row
Landlord: Marisol Quenby
Electrician: Tobin Ashgrove
Date of test: 4 April 2029
Electrician's mobile: 07700 900 555
"""


def test_a_phone_number_is_whose_its_line_names(real_embedder, monkeypatch):
    hit = Hit(id="c1", note_id="n1", source_id=None, title="Electrical safety certificate", path="p1.md", source=None,
              snippet=SAFETY, text=SAFETY, start=0, end=len(SAFETY), page=1, score=0.9, signals={"semantic": 0.6})
    ans = answer_question("what's marisol's phone number", [hit], real_embedder)
    assert ans.verdict == "abstain" and "07700" not in ans.answer, ans.answer  # the electrician's, not hers
    ans = answer_question("what's the electrician's phone number", [hit], real_embedder)
    assert ans.verdict == "pass" and "07700 900 555" in ans.answer, ans.answer
    monkeypatch.setattr(typed, "OWNED", False)
    ans = answer_question("what's marisol's phone number", [hit], real_embedder)
    assert ans.verdict == "pass" and "07700 900 555" in ans.answer, ans.answer  # the old wrong pass


FETE = """Summer fete programme
Gates open Saturday 6 July at 10:00. The car park closes at 18:30.
Main act: The Hollin Brothers, bandstand, 15:00.
Swimming club: Thursdays from 6.30pm to 7.15pm at the leisure centre.
"""


def _fete(question: str, embedder):
    hit = Hit(id="c1", note_id="n1", source_id=None, title="Fete programme", path="p1.md", source=None,
              snippet=FETE, text=FETE, start=0, end=len(FETE), page=1, score=0.9, signals={"semantic": 0.6})
    return answer_question(question, [hit], embedder)


def test_a_time_no_label_says_ends_does_not_answer_when_it_ends(real_embedder, monkeypatch):
    assert typed.light_verbs("what time do the hollin brothers finish") >= {"finish"}
    ans = _fete("what time do the hollin brothers finish", real_embedder)
    assert ans.verdict == "abstain" and "15:00" not in ans.answer, ans.answer
    ans = _fete("what time are the hollin brothers on", real_embedder)
    assert ans.verdict == "pass" and "15:00" in ans.answer, ans.answer
    ans = _fete("what time does swimming club finish on thursdays", real_embedder)  # a span states its end
    assert ans.verdict == "pass" and "7.15pm" in ans.answer, ans.answer
    assert typed._span("time", "from 6.30pm to 7.15pm") and not typed._span("time", "at 10:00, closes 18:30")
    monkeypatch.setattr(typed, "LIGHT_ROLE", False)
    ans = _fete("what time do the hollin brothers finish", real_embedder)
    assert ans.verdict == "pass" and "15:00" in ans.answer, ans.answer  # the old wrong pass


MOVE = """Moving in to the flat on 2 June.
The sofa comes in the afternoon; the van cannot park on the street.
Door code: 4471 for the shed at the allotment.
Order number: KX-55120
"""


def test_a_code_is_what_its_line_names_the_thing_asked_is_by_name_anywhere(real_embedder, monkeypatch):
    hit = Hit(id="c1", note_id="n1", source_id=None, title="Moving day", path="p1.md", source=None,
              snippet=MOVE, text=MOVE, start=0, end=len(MOVE), page=1, score=0.9, signals={"semantic": 0.6})
    ans = answer_question("what's the door code for the flat", [hit], real_embedder)
    assert ans.verdict == "abstain", ans.answer  # the shed's code, not the flat's
    quote = "Kestrel Heating Ltd\nUnit 4, Mill Lane\nDate: 3 May 2029\nQuote number: KH-2291\nBoiler: £2,400\n"
    hit2 = Hit(id="c2", note_id="n2", source_id=None, title="Boiler quote", path="p2.md", source=None, snippet=quote,
               text=quote, start=0, end=len(quote), page=1, score=0.9, signals={"semantic": 0.6})
    ans = answer_question("what's the quote number from Kestrel?", [hit2], real_embedder)  # a name: the whole note's
    assert ans.verdict == "pass" and "KH-2291" in ans.answer, ans.answer
    monkeypatch.setattr(typed, "OWNED", False)
    ans = answer_question("what's the door code for the flat", [hit], real_embedder)
    assert ans.verdict == "pass" and "4471" in ans.answer, ans.answer  # the old wrong pass
