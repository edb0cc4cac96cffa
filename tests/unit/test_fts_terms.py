"""store/fts.py: the ASCII fast path gives the same terms as the full pattern."""

import random
import re
import string

from cairn.store import fts


def _full(text: str) -> list[str]:
    return re.findall(f"[{fts._CJK}]|[^\\W_]+", text)


def test_ascii_fast_path_matches_the_full_pattern():
    rng = random.Random(7)
    alphabet = string.printable + "_"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert fts._terms(text) == _full(text), text


def test_non_ascii_text_keeps_cjk_characters_and_accented_words():
    text = "Café 東京 tower_x 12ab Zoë"
    assert fts._terms(text) == _full(text) == ["Café", "東", "京", "tower", "x", "12ab", "Zoë"]
    assert fts.query_terms("Zoë's 東京") == ["zoë", "s", "東", "京"]
    assert fts.index_text("東京 ok") == " 東  京  ok"
    assert fts.index_text("plain ascii") == "plain ascii"
