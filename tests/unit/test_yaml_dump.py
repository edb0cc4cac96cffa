"""vault.dump_yaml: libyaml's emitter where it writes what PyYAML's own emitter writes,
PyYAML's emitter elsewhere: the bytes are always those of yaml.safe_dump."""

from __future__ import annotations

import datetime
import random

import yaml

from cairn.vault import add_frontmatter_keys, dump_yaml, render_note

_PY = dict(sort_keys=False, allow_unicode=True, width=1000)


def _pool() -> list[str]:
    codes = list(range(0, 0x600)) + list(range(0x2000, 0x2100)) + [0x3000, 0x4E00, 0xFEFF, 0xFFFD, 0xE000,
                                                                     0x1F389, 0x1F600]
    return [chr(c) for c in codes] + list(" :#-'\"!&*?|>%@`{}[],\n\t") * 20 + list("abcxyz019 ") * 60


def _value(rnd: random.Random, text, depth: int = 0):
    r = rnd.random()
    if depth < 2 and r < 0.1:
        return [_value(rnd, text, depth + 1) for _ in range(rnd.randint(0, 3))]
    if depth < 2 and r < 0.2:
        return {text(8): _value(rnd, text, depth + 1) for _ in range(rnd.randint(0, 3))}
    if r < 0.25:
        return rnd.choice([None, True, False, 3, -1.5, datetime.date(2024, 1, 2),
                           datetime.datetime(2024, 1, 2, 3, 4, 5), "yes", "~", "", "null", "1e3", "2024-01-01"])
    return text(1500 if r < 0.27 else 40)


def test_same_bytes_as_pyyaml_on_random_mappings():
    rnd = random.Random(20261202)
    pool = _pool()

    def text(n: int) -> str:
        return "".join(rnd.choice(pool) for _ in range(rnd.randint(0, n)))
    for _ in range(4000):
        data = {text(rnd.choice([3, 8, 130])): _value(rnd, text) for _ in range(3)}
        assert dump_yaml(data) == yaml.safe_dump(data, **_PY), repr(data)


def test_the_cases_libyaml_writes_differently():
    # Each of these is written differently by libyaml's emitter (escaped emoji, NEL, a
    # complex key for an empty, multi-line or long key): dump_yaml must not use it there.
    for data in ({"gist": "a winner \U0001F389."}, {"a": "x\x85y"}, {"": "x"}, {"a\rb": 1},
                 {"é" * 60: "x"}, {"k": ["\U0001F331 seed"]}):
        assert dump_yaml(data) == yaml.safe_dump(data, **_PY)
        if "a" not in data:  # PyYAML itself reads its NEL back as a space
            assert yaml.safe_load(dump_yaml(data)) == data


def test_notes_keep_emoji_readable():
    text = render_note({"title": "Party \U0001F389"}, "body")
    assert "Party \U0001F389" in text and "\\U0001F389" not in text
    added = add_frontmatter_keys("---\ntitle: x\n---\n\nbody\n", {"gist": "seed \U0001F331"})
    assert added is not None and "seed \U0001F331" in added
