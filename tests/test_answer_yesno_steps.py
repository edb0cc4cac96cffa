"""Procedures, yes/no answers and who-answers naming someone (typed22b, issue 33).

Fixtures written here (a sailing club, a campervan hire, a loft conversion): "how do I" answered
by the steps of the passage about the asked action or declined; a yes/no question answered with
"Yes"/"No" and the line holding what is asked (not a line only repeating the subject) or
declined; a who-question whose quote names nobody declined. Each behaviour has a switch; with it
off the old answer comes back.
"""

from __future__ import annotations

from cairn.answer import answer_question, checks, fit, procedure, yesno
from cairn.search import asked as QT
from cairn.model import Hit

SAILING = """# Harlow Reach sailing club

Member: Thaddeus Okonkwo
Club house hours: 9am to 6pm every day from April to October.

## Rigging a dinghy
1. Fit the mast into the step and attach the forestay.
2. Thread the mainsail up the mast track and hoist it.
3. Attach the boom and tie the mainsheet on.

To leave the club, write to the membership secretary before 1 March; the year's fee is not refunded.
"""

CAMPERVAN = """# Bramblecote campervan hire

Hirer: Ondine Pascoe
Dogs are welcome in the van for a £40 cleaning fee.
Smoking is not allowed in the van at any time.
The van sleeps four adults.
"""

LOFT = """# Loft conversion

Building control sign-off is expected in June.
Next visit due: 14 May.
The stairs were moved to the landing side.
"""


def _hit(text: str, title: str, i: int = 1) -> Hit:
    return Hit(id=f"c{i}", note_id=f"n{i}", source_id=None, title=title, path=f"p{i}.md", source=None,
               snippet=text, text=text, start=0, end=len(text), page=1, score=0.9, signals={"semantic": 0.6})


def _ask(question, text, title, embedder):
    return answer_question(question, [_hit(text, title)], embedder)


def test_process_for_asks_a_procedure():
    assert QT.asked("what's the process for renewing the permit").kind == "procedure"
    assert QT.asked("how do i rig the dinghy").kind == "procedure"


def test_units_are_sections_lists_and_how_sentences():
    got = procedure.units(SAILING)
    intros = [u[0] for u in got]
    assert "Rigging a dinghy" in intros and len(got[intros.index("Rigging a dinghy")][1]) == 3
    assert any(u[0].startswith("To leave the club") for u in got)
    assert not any("Harlow Reach" in u[0] for u in got)  # the note's own title is no procedure


def test_a_procedure_is_answered_by_its_steps(real_embedder):
    ans = _ask("how do i rig the dinghy", SAILING, "Harlow Reach sailing club", real_embedder)
    assert ans.verdict == "pass", ans.answer
    assert "forestay" in ans.answer and "mainsheet" in ans.answer and "9am" not in ans.answer


def test_a_procedure_no_passage_is_about_is_declined_with_pointers(real_embedder, monkeypatch):
    ans = _ask("how do i book a mooring", SAILING, "Harlow Reach sailing club", real_embedder)
    assert ans.verdict == "abstain" and ans.pointers, ans.answer
    assert "says how to do" in ans.answer
    monkeypatch.setattr(procedure, "PROCEDURE", False)
    ans = _ask("how do i book a mooring", SAILING, "Harlow Reach sailing club", real_embedder)
    assert "says how to do" not in ans.answer  # the sentence answer, as before


def test_yes_no_says_no_from_a_negated_line(real_embedder):
    ans = _ask("can we smoke in the campervan", CAMPERVAN, "Bramblecote campervan hire", real_embedder)
    assert ans.verdict == "pass" and ans.answer.startswith("No: Smoking is not allowed"), ans.answer


def test_yes_no_says_yes_from_the_line_holding_the_attribute(real_embedder, monkeypatch):
    ans = _ask("are dogs allowed in the campervan", CAMPERVAN, "Bramblecote campervan hire", real_embedder)
    assert ans.verdict == "pass" and ans.answer.startswith("Yes: Dogs are welcome"), ans.answer
    monkeypatch.setattr(yesno, "YESNO", False)
    ans = _ask("are dogs allowed in the campervan", CAMPERVAN, "Bramblecote campervan hire", real_embedder)
    assert not ans.answer.startswith("Yes")


def test_yes_no_no_line_states_is_declined(real_embedder):
    ans = _ask("does the campervan have a fridge", CAMPERVAN, "Bramblecote campervan hire", real_embedder)
    assert ans.verdict == "abstain" and ans.pointers, ans.answer
    assert "states what was asked" in ans.answer


def test_polarity_reads_negation_and_a_negating_prefix():
    assert yesno.polarity(["limited"], "Mileage: Unlimited", False) == "No"
    assert yesno.polarity(["allowed"], "Smoking is never allowed", True) == "No"
    assert yesno.polarity(["open"], "Open every day", True) == "Yes"
    assert yesno.polarity(["open"], "closed Sunday", False) == ""  # said otherwise: no word added


def test_a_flattened_cell_is_read_with_the_next():
    assert "Breakdown cover: Not included" in yesno.lines_of("Breakdown cover\nNot included\n")


def test_a_who_answer_naming_nobody_is_declined(real_embedder, monkeypatch):
    monkeypatch.setattr(fit, "THRESHOLD", 0.0)  # the scorer passes every line: the name check alone decides
    ans = _ask("who did the loft inspection", LOFT, "Loft conversion", real_embedder)
    assert ans.verdict == "abstain" and "no quoted line answers" in ans.answer.lower(), ans.answer
    monkeypatch.setattr(checks, "WHO_NAMED", False)
    monkeypatch.setattr(checks, "ATTR_STATED", False)  # typed23's attribute check declines it too
    monkeypatch.setattr(checks, "GATE", False)  # ... and wrongpass29's acceptance gate
    ans = _ask("who did the loft inspection", LOFT, "Loft conversion", real_embedder)
    assert ans.verdict == "pass", ans.answer  # the old wrong pass
    monkeypatch.setattr(checks, "WHO_NAMED", True)
    named = LOFT + "The inspection was done by Petronella Quist of Hallow Building Control.\n"
    ans = _ask("who did the loft inspection", named, "Loft conversion", real_embedder)
    assert ans.verdict == "pass" and "Petronella Quist" in ans.answer, ans.answer


LIBRARY = """# Fernhollow library

Opening hours: Monday to Saturday 9am to 5pm, closed Sunday.
Wifi: free for members.
Printing included: no
"""


def test_a_fields_key_only_names_what_is_asked_its_value_says_yes(real_embedder):
    # "open" is only in the key ("Opening hours"): its value says "closed Sunday", so no "Yes"
    ans = _ask("is the library open on sunday", LIBRARY, "Fernhollow library", real_embedder)
    assert not ans.answer.startswith("Yes"), ans.answer
    assert "closed Sunday" in ans.answer or ans.verdict == "abstain", ans.answer
    assert yesno.polarity(["free"], "Wifi: free for members.", True) == "Yes"
    assert yesno.polarity(["included"], "Printing included: no", True) == "No"  # a bare value
    assert yesno.polarity(["included"], "Towels included: yes", False) == "Yes"
