"""A one-item field whose key is the thing asked answers "what goes in it"; the note's title heading is no section
(typed24, issue 33, typed.OWN_KEY). Fixture written here: a shortbread recipe."""

from __future__ import annotations

from cairn.answer import answer_question, typed
from cairn.model import Hit

RECIPE = """# Aunt Morwenna's lemon shortbread

Makes 16 fingers.

Dough: 300g plain flour, 200g butter, 100g caster sugar, the zest of a lemon.
Glaze: the juice of half a lemon beaten with 60g icing sugar.

1. Rub the butter into the flour and sugar.
2. Bake at 160C for 25 minutes.
"""


def _ask(question: str, embedder):
    hit = Hit(id="c1", note_id="n1", source_id=None, title="Aunt Morwenna's lemon shortbread", path="p1.md",
              source=None, snippet=RECIPE, text=RECIPE, start=0, end=len(RECIPE), page=1, score=0.9,
              signals={"semantic": 0.6})
    return answer_question(question, [hit], embedder)


def test_section_is_not_the_title_heading():
    lines = RECIPE.split("\n")
    assert typed._section(lines, 4) == ""
    assert typed._section(["# Title", "", "## Topping", "- a", "- b"], 3) == "Topping"


def test_a_one_item_field_named_by_the_question_answers_it(real_embedder, monkeypatch):
    from cairn.answer import checks
    monkeypatch.setattr(checks, "GATE", False)  # the acceptance gate declines this right answer (wrongpass29: its cost)
    ans = _ask("what goes in the glaze", real_embedder)
    assert ans.verdict == "pass" and "60g icing sugar" in ans.answer and "300g" not in ans.answer, ans.answer
    monkeypatch.setattr(typed, "OWN_KEY", False)
    ans = _ask("what goes in the glaze", real_embedder)
    assert "60g icing sugar" not in ans.answer, ans.answer
