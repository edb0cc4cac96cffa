"""bench/answers_replay.py: why a chat answer's citation is not gold (`cause_of`) and where the
gold turn stands among the hits `ask` handed over (`reach`), on a chat written for the test."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from answers_replay import CAUSES, cause_of, reach  # noqa: E402

from cairn.answer import MAX_EVIDENCE
from cairn.model import Hit

QUESTION = "Which lake did Ilka swim across last summer?"
# D1:9 states the answer; the other turns chat about swimming without naming the lake
TURNS = {f"D1:{i}": f"Swimming is fun, session one turn {i}." for i in range(1, 12)}
TURNS["D1:9"] = "I swam across Lake Orvel last summer with my cousin."


def _hit(turn: str, semantic: float, text: str | None = None) -> Hit:
    text = TURNS[turn] if text is None else text
    return Hit(id=f"c{turn[3:]}", note_id="n1", source_id=turn, title="chat", path="chat/s1.md", source=None,
               snippet=text, text=text, start=0, end=len(text), page=None, score=semantic,
               signals={"semantic": semantic}, type="chat", speaker="Ilka")


def _record(gold_semantic: float, gold_text: str | None = None) -> dict:
    """Eight hits, the gold turn D1:9 ranked last (after MAX_EVIDENCE), the answer citing D1:1."""
    hits = [_hit(f"D1:{i}", 0.6) for i in range(1, 8)] + [_hit("D1:9", gold_semantic, gold_text)]
    return {"question": QUESTION, "category": 4, "evidence": ["D1:9"], "now": {"cited": ["D1:1"]},
            "inputs": {"hits": hits, "floor": 0.35}}


def test_a_gold_hit_cut_by_max_evidence_is_not_called_under_the_floor():
    assert MAX_EVIDENCE < 8  # the eighth hit is past the cut
    over = _record(0.5)   # relevance 0.5 >= floor 0.35: the cap cut it
    under = _record(0.1, "Ok, it was great.")  # no shared word, cosine 0.1: under the floor
    assert cause_of(over, TURNS, "Lake Orvel") == CAUSES[4]
    assert cause_of(under, TURNS, "Lake Orvel") == CAUSES[3]
    missing = _record(0.5)
    missing["inputs"]["hits"] = missing["inputs"]["hits"][:-1]
    assert cause_of(missing, TURNS, "Lake Orvel") == CAUSES[2]


def test_reach_counts_the_gold_turn_at_hit_one_in_the_kept_hits_and_anywhere():
    last = _record(0.5)
    first = _record(0.5)
    first["inputs"]["hits"] = first["inputs"]["hits"][::-1]
    unanswerable = dict(_record(0.5), category=5)
    out = reach([last, first, unanswerable])
    assert out.startswith(f"hit 1 1/2 (0.500), first {MAX_EVIDENCE} 1 (0.500), any 2 (1.000)")


def test_gold_first_moves_the_gold_hit_to_the_front_over_the_best_score():
    from answers_replay import gold_first
    rec = _record(0.5)
    moved = gold_first(rec, 0.1)
    assert [h.source_id for h in moved["hits"]][:2] == ["D1:9", "D1:1"]
    assert len(moved["hits"]) == 8 and abs(moved["hits"][0].score - 0.7) < 1e-9
    assert rec["inputs"]["hits"][-1].source_id == "D1:9"  # the record itself is left as it was
    assert gold_first(dict(rec, category=5), 0.1) is rec["inputs"]
    assert gold_first(dict(rec, evidence=["D1:10"]), 0.1) is rec["inputs"]


def test_compare_counts_the_answers_that_differ_and_refuses_a_missing_file(tmp_path, capsys):
    import pickle

    import pytest
    from answers_replay import main
    before = {("locomo", "q1"): ("pass", "A [1].", ("D1:1",), "None", (), "None"),
              ("typed", 0, "q2"): ("abstain", "No.", (), "None", ("no evidence",), "None")}
    after = {**before, ("typed", 0, "q2"): ("pass", "Yes [1].", ("n1",), "None", (), "None")}
    for name, data in (("a.pkl", before), ("b.pkl", after)):
        with open(tmp_path / name, "wb") as fh:
            pickle.dump(data, fh)
    assert main(["compare", str(tmp_path / "a.pkl"), str(tmp_path / "a.pkl")]) == 0
    assert "0 of 2 answers differ" in capsys.readouterr().out
    assert main(["compare", str(tmp_path / "a.pkl"), str(tmp_path / "b.pkl")]) == 1
    assert "1 of 2 answers differ" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["compare", str(tmp_path / "a.pkl"), str(tmp_path / "missing.pkl")])
    assert "no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["dump", str(tmp_path / "a.pkl")])
    assert "needs a second file" in capsys.readouterr().err


def test_set_constant_reaches_a_module_of_the_answerer_and_refuses_an_unknown_name(monkeypatch):
    import pytest

    import cairn.answer as A
    from answers_replay import set_constant
    from cairn.answer import types
    monkeypatch.setattr(types, "KIND_FREE", True)
    monkeypatch.setattr(A, "PAD_MARGIN", A.PAD_MARGIN)
    set_constant("types.KIND_FREE=False", pytest.fail)
    set_constant("PAD_MARGIN=0.2", pytest.fail)
    assert types.KIND_FREE is False and A.PAD_MARGIN == 0.2
    errors: list[str] = []
    for bad in ("types.NO_SUCH=1", "nomodule.X=1", "NO_SUCH=1"):
        set_constant(bad, errors.append)
    assert errors == ["--set: cairn.answer.types has no constant 'NO_SUCH'",
                      "--set: cairn.answer.nomodule has no constant 'X'", "--set: cairn.answer has no constant 'NO_SUCH'"]
