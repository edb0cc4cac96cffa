"""A typed value stated of something else the notes hold (answer/elsewhere.py, typedwrong27): another note holding more
of the question's words, another line of the note stating the attribute asked. Declined by checks.finish with each
switch on, passed with it off."""

from __future__ import annotations

from cairn.answer import answer_question, elsewhere
from cairn.answer.elsewhere import other_line, other_note
from cairn.lexical import stem
from cairn.model import Hit


def _hit(text: str, title: str, path: str, n: int = 1) -> Hit:
    return Hit(id=f"c{n}", note_id=f"n{n}", source_id=None, title=title, path=path, source=None,
               snippet=text, text=text, start=0, end=len(text), page=None, score=0.9, signals={"semantic": 0.6})


CLUB = _hit("# Harbour Rowers\n\nFixtures:\n- Friday 3 May: Beacon Hill Hawks, lane 2, 6.15pm\n"
            "Training: Tuesdays 6.30pm at the boathouse\n", "Harbour Rowers", "club.md", 1)
PLAY = _hit("# Tickets for The Hill Hawks at the Corn Exchange\n\nShow: The Hill Hawks (a comedy)\n"
            "Doors: 7pm\n", "Tickets for The Hill Hawks at the Corn Exchange", "play.md", 2)


def test_other_note_names_the_words_only_another_note_holds():
    hill, hawk, comedy, boathouse = (stem(w) for w in ("hill", "hawks", "comedy", "boathouse"))
    assert other_note((hill, hawk), "club.md", [CLUB, PLAY]) == []  # the club's fixture names both words too
    assert other_note((hill, hawk, comedy), "club.md", [CLUB, PLAY]) == [comedy]
    assert other_note((comedy,), "play.md", [CLUB, PLAY]) == []  # the asked note holds every word
    assert other_note((boathouse, comedy), "club.md", [CLUB, PLAY]) == []  # neither holds all the other holds


def test_other_line_names_the_attribute_another_value_line_states():
    text = "Ashgrove Pensions\nAnnual statement\nPot value at 5 April: £45,402.35\nCharges: -£91.20\nYour contributions: £1,716.00\n"
    hits = [_hit(text, "pension-statement", "pension.md")]
    args = ("pension-statement", "", "pension.md", hits, frozenset({"what"}))
    assert other_line("whats the charge on my pension", "money", "Pot value at 5 April: £45,402.35", *args) == [
        stem("charge")]
    assert other_line("whats the charge on my pension", "money", "Charges: -£91.20", *args) == []
    # another line holding the word but not what the value's own line holds is no better answer
    assert other_line("whats my pot value charge", "money", "Pot value at 5 April: £45,402.35", *args) == []


def test_other_line_reads_other_table_rows_with_their_header():
    text = ("Home insurance schedule\n\n| Section | Cover | Excess |\n|---|---|---|\n| Buildings | £320,000 | £350 |\n"
            "| Contents | £45,000 | £150 |\n")
    row = "Section Buildings, Cover £320,000, Excess £350"
    args = ("home-insurance", row, "home.md", [_hit(text, "home-insurance", "home.md")], frozenset({"what"}))
    assert other_line("whats the excess on our contents insurance", "money", row, *args) == [stem("contents")]
    assert other_line("whats the excess on our buildings insurance", "money", row, *args) == []


def test_a_value_from_another_note_is_declined_then_passed_when_off(real_embedder, monkeypatch):
    q = "what time is the hill hawks comedy on"
    ans = answer_question(q, [CLUB, PLAY], real_embedder)
    assert ans.verdict == "abstain" and "'comedy'" in ans.answer and ans.checks["subject"] is False, ans.answer
    monkeypatch.setattr(elsewhere, "OTHER_NOTE", False)
    ans = answer_question(q, [CLUB, PLAY], real_embedder)
    assert ans.verdict == "pass" and "6.15pm" in ans.answer, ans.answer
