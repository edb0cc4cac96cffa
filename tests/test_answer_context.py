"""Session 13 ranking rules of the extractive answer (answer/__init__.py): short lines are no
candidates (a "Key: value" line of a typed question is the typed answer's, answer/typed.py;
the short-label rule was removed in issue 33, session 15); a note's title and section heading lift its sentences
alike, so among same-shaped sentences of different notes the one from the note the question
names is quoted, without padding. Fixtures written for these tests."""

from __future__ import annotations

import pytest

import cairn.answer as ans_mod
from cairn.answer import extractive_draft
from cairn.answer.verify import Evidence
from cairn.model import Hit


def _note(i: int, title: str, text: str, score: float = 0.5) -> Evidence:
    hit = Hit(id=f"c{i}", note_id=f"n{i}", source_id=f"s{i}", title=title, path=f"notes/{i}.md", source=None,
              snippet=text[:80], text=text, start=0, end=len(text), page=None, score=score,
              signals={"semantic": 0.6, "keyword": 0.5})
    return Evidence(n=i, text=text, offset=0, hit=hit)


def test_short_noise_and_unrelated_labels_stay_out(real_embedder):
    note = _note(1, "Book club", "Thanks!\nBring snacks.\nHost: Marcus\nCurrent book: The Remains of the Day\n")
    draft = extractive_draft("What book are we reading?", [note], real_embedder)
    assert draft == "Current book: The Remains of the Day. [1]", draft
    # a "how much" question takes a short line only when its value is a quantity
    assert extractive_draft("How much does the host charge?", [note], real_embedder) == ""


CARS = [_note(1, "House", "Insurer: Harbour Mutual, policy HM-2231.\nRenews on 1 August 2027.\n"),
        _note(2, "Skoda Octavia", "Insured with Halden Motor, policy 55-KL.\nRenews on 14 March 2027.\n"),
        _note(3, "Honda Jazz", "Insured with Crestline, policy CR-9.\nRenews on 2 June 2027.\n")]


def test_the_named_notes_sentence_is_quoted_without_the_others(real_embedder, monkeypatch):
    q = "When does the Skoda's insurance renew?"
    draft = extractive_draft(q, CARS, real_embedder)
    assert draft == "Renews on 14 March 2027. [2]", draft
    monkeypatch.setattr(ans_mod, "CONTEXT_WEIGHT", 0.0)  # without the title: three notes alike
    old = extractive_draft(q, CARS, real_embedder)
    assert "1 August 2027" in old or "2 June 2027" in old, old


def test_the_section_heading_counts_as_context(real_embedder, monkeypatch):
    text = ("# Roof estimates\n\n## Carter and Sons\n\nTotal quoted: 7,350 GBP including VAT.\n\n"
            "## Northfield Roofing\n\nTotal quoted: 4,800 GBP including VAT.\n")
    note = _note(1, "Roof estimates", text)
    draft = extractive_draft("How much did Northfield quote for the roof?", [note], real_embedder)
    assert draft == "Total quoted: 4,800 GBP including VAT. [1]", draft
    monkeypatch.setattr(ans_mod, "CONTEXT_WEIGHT", 0.0)
    # without the heading the two sections' sentences are alike: Northfield's figure is not found
    # (the other one is quoted, or nothing clears the floor, by the embedder's last digits)
    assert "4,800" not in extractive_draft("How much did Northfield quote for the roof?", [note], real_embedder)


def test_the_lift_never_reorders_one_sections_sentences(real_embedder):
    # both sentences share the title: the lift is the same, so the better sentence stays first
    note = _note(1, "Passport renewal", "Passport renewal takes about three weeks by post.\n"
                                        "The passport expires on 2027-04-20.\n")
    draft = extractive_draft("When does the passport expire?", [note], real_embedder)
    assert draft.startswith("The passport expires on 2027-04-20. [1]"), draft


def test_consecutive_label_lines_are_separate_sentences():
    from cairn.lexical import sentences
    text = "Phone: +351 912 000 471\nPartner: Rui\n\nShe likes dark chocolate and\ncrime novels."
    got = [text[s:e] for s, e in sentences(text)]
    assert got == ["Phone: +351 912 000 471", "Partner: Rui", "She likes dark chocolate and\ncrime novels."]


def test_a_full_stop_after_incl_or_tel_ends_no_sentence():
    """A receipt's "VAT 20% incl. 3.71" keeps its amount with its label ("How much VAT?")."""
    from cairn.lexical import sentences
    text = "VAT 20% incl. 3.71 GBP\n\nCall us (tel. 01632 960 123) any day. We open at 9."
    got = [text[s:e] for s, e in sentences(text)]
    assert got == ["VAT 20% incl. 3.71 GBP", "Call us (tel. 01632 960 123) any day.", "We open at 9."]
