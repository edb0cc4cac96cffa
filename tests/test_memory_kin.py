"""cairn.memory.kin: family links read from memory texts and the relative a kin phrase names
(sentences written for this test; invented names)."""

from __future__ import annotations

from cairn.memory import kin as K

ORDINARY = frozenset("the a is my loves tulips likes lego plays chess fixes bikes birthday june car sold".split())


def test_links_read_four_shapes_and_skip_a_verb_after_a_kin_word():
    ls = K.links(["ludo is odile's brother, he mends clocks", "Bea is my daughter", "my son Arlo plays chess",
                  "my sister marisol's birthday is 2 june", "odile's husband is felix", "Tam, my nephew, likes lego",
                  "my mum loves tulips", "my dad sold the car"], ORDINARY)
    assert K.Link("ludo", "brother", "odile") in ls and K.Link("bea", "daughter", K.ME) in ls
    assert K.Link("arlo", "son", K.ME) in ls and K.Link("marisol", "sister", K.ME) in ls
    assert K.Link("felix", "husband", "odile") in ls and K.Link("tam", "nephew", K.ME) in ls
    assert not [l for l in ls if l.a in ("loves", "sold")], ls


def test_relative_follows_converses_shared_parents_and_gender():
    ls = K.links(["ludo is odile's brother", "Bea is my daughter", "Arlo is my son", "odile's husband is felix",
                  "my sister is called Marisol"], ORDINARY)
    assert K.relative(ls, "odile", "brother") == ["ludo"]        # said outright
    assert K.relative(ls, "ludo", "sister") == ["odile"]         # the converse (her gender unknown: allowed)
    assert K.relative(ls, "bea", "brother") == ["arlo"]          # two children of one parent, a son: a brother
    assert K.relative(ls, "arlo", "sister") == ["bea"]
    assert K.relative(ls, "bea", "sister") == []                 # Arlo is a son: no sister
    assert K.relative(ls, "felix", "wife") == ["odile"]
    assert K.relative(ls, K.ME, "sister") == ["marisol"]
    assert K.relative(ls, "odile", "uncle") == [] and K.relative(ls, "odile", "plumber") == []
