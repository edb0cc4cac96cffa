"""Head words that name nothing, and totals known by their sums (typed24, issue 33).

Fixtures written here: a water bill printed as a PDF's text layer (one cell a line) whose last row, "Annual charge",
is the sum of the rows above it, and a hardware receipt. With each switch off the old answer comes back."""

from __future__ import annotations

from cairn.answer import answer_question, typed
from cairn.search import unasked
from cairn.model import Hit

BILL = """Fenmoor Water
Your water bill 2029/30
Charge
Amount
Fresh water supply
£212.40
Waste water collection
£187.15
Surface water drainage
£41.30
Annual charge
£440.85
Questions about your bill: 01632 960 321.
"""

RECEIPT = """Harbour Hardware
Kettle, stainless steel      £24.99
Descaler sachets x4          £3.50
Paid by card
"""


def _ask(question: str, text: str, title: str, embedder):
    hit = Hit(id="c1", note_id="n1", source_id=None, title=title, path="p1.md", source=None, snippet=text,
              text=text, start=0, end=len(text), page=1, score=0.9, signals={"semantic": 0.6})
    return answer_question(question, [hit], embedder)


def test_summed_reads_totals_by_their_sum():
    assert typed.summed(BILL) == frozenset({44085})
    assert typed.summed("£5.00 then £7.00 then £3.00") == frozenset()  # no amount is a sum of earlier ones
    assert typed.summed("£744.00 £136.00 -£420.00 £460.00") == frozenset({46000})  # a credit counts negative


def test_a_total_row_without_the_word_total_answers_the_bill(real_embedder, monkeypatch):
    ans = _ask("how much is the water bill", BILL, "water-bill", real_embedder)
    assert ans.verdict == "pass" and "£440.85" in ans.answer, ans.answer
    monkeypatch.setattr(typed, "TOTAL_SUM", False)
    ans = _ask("how much is the water bill", BILL, "water-bill", real_embedder)
    assert "£440.85" not in ans.answer, ans.answer


def test_this_month_is_no_head_word(real_embedder, monkeypatch):
    assert "month" in typed.unasked("how much is the water bill this month")
    assert "month" not in typed.unasked("how much is the monthly water bill")
    ans = _ask("how much is the water bill this year", BILL, "water-bill", real_embedder)
    assert ans.verdict == "pass" and "£440.85" in ans.answer, ans.answer
    monkeypatch.setattr(unasked, "PERIOD", False)
    ans = _ask("how much is the water bill this year", BILL, "water-bill", real_embedder)
    assert ans.verdict == "abstain", ans.answer  # 'year' is written nowhere


def test_a_pronoun_or_determiner_is_no_head_word(real_embedder, monkeypatch):
    assert "itself" in typed.unasked("how much was the kettle itself")
    assert not typed.unasked("is another due")  # a determiner is kept: "another" asks the next one
    ans = _ask("how much was the kettle itself", RECEIPT, "Receipt from Harbour Hardware", real_embedder)
    assert ans.verdict == "pass" and "£24.99" in ans.answer, ans.answer
    monkeypatch.setattr(unasked, "CLOSED", False)
    ans = _ask("how much was the kettle itself", RECEIPT, "Receipt from Harbour Hardware", real_embedder)
    assert ans.verdict == "abstain", ans.answer


def test_a_quantity_asked_is_no_phone_number(real_embedder):
    # "how much is my phone bill" asks money (search/asked.py: a phone naming the bill's kind); the
    # helpline's number once passed as its answer
    ans = _ask("how much is my phone bill this year", BILL, "phone-bill", real_embedder)
    assert "01632 960 321" not in ans.answer or ans.verdict != "pass", ans.answer


INVOICE = """Little Acorns Nursery
Invoice for June 2029
Child: Wren Tallis
Item
Amount
Full days
£620.00
Lunches
£41.60
Amount due
£661.60
Please pay by 5 June 2029. A £10 late payment fee applies after that date.
"""


def test_the_header_names_the_notes_own_thing(real_embedder, monkeypatch):
    ans = _ask("how much do we owe the nursery for june", INVOICE, "nursery-invoice", real_embedder)
    assert ans.verdict == "pass" and "£661.60" in ans.answer, ans.answer
    monkeypatch.setattr(typed, "HEADER", False)  # "june" then asks an item: the late fee's line names June
    ans = _ask("how much do we owe the nursery for june", INVOICE, "nursery-invoice", real_embedder)
    assert "£661.60" not in ans.answer, ans.answer
