"""A sentence in the imperative is a procedure's step (typed24, issue 33, procedure.IMPERATIVE).

Fixture written here: a dehumidifier's care card whose instruction has no cue word of procedure._HOW ("Rinse the
tank ..."). With the switch off the question is declined."""

from __future__ import annotations

from cairn.answer import answer_question, procedure
from cairn.model import Hit

CARD = """# Care card for the Driftwell dehumidifier

Model DW-12, bought in March 2029.
Not covered: the float switch and the carbon pre-filter.
Rinse the tank once a week in warm soapy water and leave it to air dry before refitting it.
Keeps working down to 5C.
"""


def _ask(question: str, embedder):
    hit = Hit(id="c1", note_id="n1", source_id=None, title="Care card for the Driftwell dehumidifier", path="p1.md",
              source=None, snippet=CARD, text=CARD, start=0, end=len(CARD), page=1, score=0.9,
              signals={"semantic": 0.6})
    return answer_question(question, [hit], embedder)


def test_imperative_reads_an_opening_verb():
    assert procedure.imperative("Rinse the tank once a week.")
    assert procedure.imperative("Repairs: report them to the agent in writing.")
    assert not procedure.imperative("Keeps working down to 5C.")  # a third person -s states, not instructs
    assert not procedure.imperative("Model DW-12, bought in March 2029.")


def test_an_imperative_sentence_answers_how_to(real_embedder, monkeypatch):
    ans = _ask("how do i clean the tank", real_embedder)
    assert ans.verdict == "pass" and "warm soapy water" in ans.answer, ans.answer
    monkeypatch.setattr(procedure, "IMPERATIVE", False)
    ans = _ask("how do i clean the tank", real_embedder)
    assert "warm soapy water" not in ans.answer or ans.verdict != "pass", ans.answer
