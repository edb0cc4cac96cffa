"""A value of another type passed as the one asked (typedwrong28, issue 33): a count labelled "balance" read as money,
a phone number read as a padlock code. Fixtures written here; with each switch off the old wrong answer comes back."""

from __future__ import annotations

from cairn.answer import answer_question, typed
from cairn.answer.types import values
from cairn.model import Hit

GARAGE = """# Lock-up garage rental agreement

Landlord: Brindlecombe Garages (owner Mr Percival Stroud), 01632 960 442
Rent: £58 a calendar month by standing order on the 1st.
"""

GATE = """# Allotment plot 22

Site gate code: 4481
Secretary: Winifred Osei, 07700 900 712
"""


def _ask(question: str, text: str, title: str, embedder):
    hit = Hit(id="c1", note_id="n1", source_id=None, title=title, path="p1.md", source=None, snippet=text,
              text=text, start=0, end=len(text), page=1, score=0.9, signals={"semantic": 0.6})
    return answer_question(question, [hit], embedder)


def test_a_labelled_number_counting_something_is_no_money():
    text = "Fairbrook Rewards: 31 points earned today, balance 1,284 points."
    assert values("money", text) == []
    assert [("GRAND TOTAL 211,522"[s:e]) for s, e in values("money", "GRAND TOTAL 211,522")] == ["211,522"]
    assert ["Amount due: 97"[s:e] for s, e in values("money", "Amount due: 97")] == ["97"]
    assert ["Total: £31.47"[s:e] for s, e in values("money", "Total: £31.47")] == ["£31.47"]


def test_a_phone_number_is_no_code_asked_by_name(real_embedder, monkeypatch):
    ans = _ask("whats the code for the garage padlock", GARAGE, "Lock-up garage rental agreement", real_embedder)
    assert ans.verdict == "abstain" and "01632" not in ans.answer, ans.answer
    # a "number" asked may be a phone number; a code written beside one is still read
    ans = _ask("whats the landlord's number", GARAGE, "Lock-up garage rental agreement", real_embedder)
    assert ans.verdict == "pass" and "01632 960 442" in ans.answer, ans.answer
    ans = _ask("what's the allotment gate code", GATE, "Allotment plot 22", real_embedder)
    assert ans.verdict == "pass" and "4481" in ans.answer, ans.answer
    monkeypatch.setattr(typed, "CODE_NO_PHONE", False)
    ans = _ask("whats the code for the garage padlock", GARAGE, "Lock-up garage rental agreement", real_embedder)
    assert ans.verdict == "pass" and "01632" in ans.answer, ans.answer  # the old wrong pass


def test_a_named_persons_number_is_their_phone_number(monkeypatch):
    from cairn.search import asked as QT
    assert QT.asked("what's lowri's number").kind == "phone"
    assert QT.asked("whats shona's number").kind == "phone"  # typed without the apostrophe of "what's"
    # a thing's number, or a number after a determiner, stays a code
    assert QT.asked("what's tobin's passport number").kind == "code"
    assert QT.asked("what is the car's number").kind == "code"
    monkeypatch.setattr(QT, "PERSON_NUMBER", False)
    assert QT.asked("what's lowri's number").kind == "code"  # the old reading


def test_a_person_number_question_is_declined_without_their_phone(real_embedder):
    text = "# Bathroom refit\n\nShower: Aquaveil tray, £689 from Bathstore Direct, order number BSD-551072.\n" \
           "Tiler: Stavros Kallis, 07700 900 921.\n"
    ans = _ask("what's lowri's number", text, "Bathroom refit", real_embedder)
    assert ans.verdict == "abstain" and "BSD-551072" not in ans.answer, ans.answer
    ans = _ask("what's stavros's number", text, "Bathroom refit", real_embedder)
    assert ans.verdict == "pass" and "07700 900 921" in ans.answer, ans.answer
