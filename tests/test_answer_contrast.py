"""The quoted value stated of a counterpart of the asked thing (answer/contrast.py, typed23): a role counterpart, a
negated compound; declined by checks.finish with the switch on, passed with it off."""

from __future__ import annotations

from cairn.answer import answer_question, contrast
from cairn.answer.contrast import counterpart
from cairn.model import Hit


def _hit(text: str, title: str) -> Hit:
    return Hit(id="c1", note_id="n1", source_id=None, title=title, path="p1.md", source=None,
               snippet=text, text=text, start=0, end=len(text), page=1, score=0.9, signals={"semantic": 0.6})


def test_role_counterparts_and_negated_compounds():
    assert counterpart("how much does my employer pay in", "Pension, employee 4%: £88.10") == "employer"
    assert counterpart("who is the lessee", "Lessor: Brandmoor Estates") == "lessee"
    assert counterpart("what's the peak fare", "Off-peak return: £14.20") == "peak"
    # the asked word written as itself, or a role with no counterpart, is no contrast
    assert counterpart("what's the employee contribution", "Pension, employee 4%: £88.10") is None
    assert counterpart("what's the peak fare", "Peak return £21; off-peak £14.20") is None
    assert counterpart("how much notice do we give the landlord", "Tenants give two months' notice.") is None
    assert counterpart("is the phone line working", "The router shows offline") is None  # a hyphen makes the compound
    assert counterpart("is the deposit refundable", "Deposit: non-refundable", polar=True) is None  # it answers No


def test_a_negated_compound_answers_a_yes_no_question_no(real_embedder):
    text = "# Cottage booking\n\nDeposit: £200, non-refundable\nCheck-in: from 4pm\n"
    ans = answer_question("is the deposit refundable", [_hit(text, "Cottage booking")], real_embedder)
    assert ans.verdict == "pass" and ans.answer.startswith("No:") and "non-refundable" in ans.answer, ans.answer


def test_a_value_of_the_counterpart_is_declined_then_passed_when_off(real_embedder, monkeypatch):
    text = "# Payslip\n\nEmployee: Orla Finch\nPension, employee 5%: £120.40\nNet pay: £1,904.22\n"
    q = "how much did my employer put into my pension"
    ans = answer_question(q, [_hit(text, "Payslip")], real_embedder)
    assert ans.verdict == "abstain" and "another thing than 'employer'" in ans.answer, ans.answer
    assert ans.checks["subject"] is False and ans.pointers
    monkeypatch.setattr(contrast, "CONTRAST", False)
    ans = answer_question(q, [_hit(text, "Payslip")], real_embedder)
    assert ans.verdict == "pass" and "£120.40" in ans.answer, ans.answer  # the old wrong pass


EYES = ("# Eye test\n\nClearview Opticians, 4 Mill Lane, Dunsford\nPatient: Rosalind Achterberg\n"
        "Right eye: sphere -1.25, cylinder -0.50\nTraining on the new lenses: Tuesdays and Thursdays.\n")


def test_a_line_stating_no_word_of_the_asked_attribute_does_not_state_it(real_embedder):
    from cairn.answer import fit
    from cairn.search import asked as QT
    def states(q, line, title="Eye test"):
        return fit.states_attribute(q, QT.asked(q), line, title, real_embedder, EYES)
    assert not states("what prism is on my glasses", "Clearview Opticians, 4 Mill Lane, Dunsford", "Glasses prescription")
    assert states("what sphere is my right eye", "Right eye: sphere -1.25, cylinder -0.50")
    assert states("what's rosalind's cylinder", "Right eye: sphere -1.25, cylinder -0.50")  # a name typed in lower case
    assert states("what nights is lens training", "Training on the new lenses: Tuesdays and Thursdays.")  # a weekday
    assert states("what pet does rosalind have", "Rosalind has a grey cat called Pixel.")  # a word's near synonym
    assert states("who checked rosalind's eyes", "Patient: Rosalind Achterberg")  # no noun asked beyond the subject


def test_the_attribute_check_declines_what_the_scorer_passes(real_embedder, monkeypatch):
    from cairn.answer import checks, fit
    monkeypatch.setattr(fit, "THRESHOLD", 0.0)  # the scorer passes every line: the attribute check alone decides
    text = "# Glasses prescription\n\nClearview Opticians, 4 Mill Lane, Dunsford, spectacle prescription\n"
    ans = answer_question("what prism is on my glasses", [_hit(text, "Glasses prescription")], real_embedder)
    assert ans.verdict == "abstain" and "no quoted line answers" in ans.answer.lower(), ans.answer
    assert ans.checks["subject"] is False
    monkeypatch.setattr(checks, "ATTR_STATED", False)
    ans = answer_question("what prism is on my glasses", [_hit(text, "Glasses prescription")], real_embedder)
    assert ans.verdict == "pass" and "Clearview" in ans.answer, ans.answer  # the old wrong pass


def test_an_uncited_answer_is_declined_with_a_reason_not_a_crash():
    """checks.finish read the first gap word before asking whether there was one: an answer with no citation (the
    support check failed, no gap) raised IndexError instead of being declined."""
    from cairn.answer import Answer, checks
    from cairn.search import asked as QT
    q = "what is the gate code"
    out = checks.finish(q, Answer(q, "It is 4412.", "pass"), [], None, None, False, QT.asked(q))
    assert out.verdict == "abstain" and "no quote holds what was asked" in out.answer.lower(), out


def test_another_modifier_of_the_asked_noun_is_another_thing():
    from cairn.answer.contrast import other_modifier
    assert other_modifier("how much tread is left on the rear tyres", "New front tyres: tread 8mm.", "Car service") \
        == "rear"
    assert other_modifier("what's in juno's reading support plan", "We will go through Cass's reading support plan.",
                          "Parents' evening") == "juno"
    # the asked modifier written in the quote or the note's title, a type word, or no other modifier: no contrast
    assert other_modifier("how much tread is on the front tyres", "New front tyres: tread 8mm.", "Car service") is None
    assert other_modifier("when is the lisbon flight", "Outbound flight departs at 07:45.", "Lisbon flight") is None
    assert other_modifier("whats the plumber's phone number", "Emergency number: 07700 900 931.", "Plumber") is None
    assert other_modifier("how much tread is left on the rear tyres", "Tyres: tread 8mm.", "Car service") is None
    # a possessor is not a kind: "Class teacher" is no other owner of "tobias's teacher"
    assert other_modifier("who's tobias's teacher", "Class teacher: Mr Anselm Drury", "School report") is None


def test_a_value_of_another_modifier_is_declined_then_passed_when_off(real_embedder, monkeypatch):
    text = "# Car service invoice\n\nNew front tyres: tread 8mm, pressure set to 2.4 bar.\nMileage: 41,806\n"
    q = "how much tread is left on the rear tyres"
    ans = answer_question(q, [_hit(text, "Car service invoice")], real_embedder)
    assert ans.verdict == "abstain" and "another thing than 'rear'" in ans.answer, ans.answer
    monkeypatch.setattr(contrast, "MODIFIER", False)
    ans = answer_question(q, [_hit(text, "Car service invoice")], real_embedder)
    assert ans.verdict == "pass" and "8mm" in ans.answer, ans.answer  # the old wrong pass
