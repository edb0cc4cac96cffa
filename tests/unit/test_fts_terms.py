"""store/fts.py: the ASCII fast path gives the same terms as the full pattern; search/query.py's
adjacent-word pairs."""

import random
import re
import string

from cairn.search import query as Q
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


def test_adjacent_phrases_pair_neighbouring_words_and_skip_stopwords_and_clause_ends():
    assert Q.adjacent_phrases("breast cancer risk") == '"breast cancer" OR "cancer risk"'
    # a hyphenated word is joined by its last term; stopwords and dropped words break pairs
    assert Q.adjacent_phrases("T-cell growth in the lung") == '"cell growth"'
    assert Q.adjacent_phrases("breast cancer risk", drop=frozenset({"risk"})) == '"breast cancer"'
    # a clause end or a field filter breaks a pair; a repeated pair is OR-ed once
    assert Q.adjacent_phrases("lung cancer. Smoking rates") == '"lung cancer" OR "smoking rates"'
    assert Q.adjacent_phrases("title:garden beds soil") == '"beds soil"'
    assert Q.adjacent_phrases("red wine, red wine") == '"red wine"'
    assert Q.adjacent_phrases('say "hi" Ana') == '"say hi" OR "hi ana"'
    for text in ("cancer", "the of and", "", "?! ##", "of cancer"):
        assert Q.adjacent_phrases(text) is None, text
