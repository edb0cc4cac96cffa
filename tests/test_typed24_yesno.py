"""Yes/no over a PDF bill: the sender in its header is the subject, and "in credit" is no negated "credit" (typed24,
issue 33). Fixture written here: a gas bill's text layer."""

from __future__ import annotations

from cairn.answer import answer_question, typed, yesno
from cairn.model import Hit

BILL = """Hollowmere Gas
Your gas bill
Account number: HG-4471-220
Bill date: 2 April 2029
Hollowmere Gas: Your gas bill
Your account is £18.40 in credit after this bill.
Questions about your bill: 01632 960 552.
"""


def _ask(question: str, embedder):
    hit = Hit(id="c1", note_id="n1", source_id=None, title="gas-bill", path="p1.md", source=None, snippet=BILL,
              text=BILL, start=0, end=len(BILL), page=1, score=0.9, signals={"semantic": 0.6})
    return answer_question(question, [hit], embedder)


def test_in_is_a_negating_prefix_only_when_attached():
    assert yesno.polarity(["credit"], "Your account is £18.40 in credit.", True) == "Yes"
    assert yesno.polarity(["complete"], "The form was incomplete.", False) == "No"
    assert yesno.polarity(["smoking"], "A non smoking room.", False) == "No"


def test_the_sender_in_the_header_is_the_subject(real_embedder, monkeypatch):
    ans = _ask("are we in credit with hollowmere", real_embedder)
    assert ans.verdict == "pass" and ans.answer.startswith("Yes") and "£18.40" in ans.answer, ans.answer
    monkeypatch.setattr(typed, "HEADER", False)
    ans = _ask("are we in credit with hollowmere", real_embedder)
    assert "£18.40" not in ans.answer or ans.verdict != "pass", ans.answer
