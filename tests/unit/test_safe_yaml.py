"""cairn.safe_yaml: a block read again comes back as its own copy; errors are never kept."""

from __future__ import annotations

import datetime

import pytest
import yaml

from cairn import safe_yaml


def test_a_text_read_twice_gives_equal_values_that_do_not_share_state():
    text = "title: Heron\ntags: [birds, mill]\nenrichment:\n  gist: nests\n  at: 2026-12-02\n"
    first = safe_yaml.load(text)
    assert first == yaml.safe_load(text)
    assert first["enrichment"]["at"] == datetime.date(2026, 12, 2)
    first["tags"].append("changed")
    first["enrichment"]["gist"] = "changed"
    hits = safe_yaml.stats()["hits"]
    second = safe_yaml.load(text)
    assert safe_yaml.stats()["hits"] == hits + 1  # remembered, not read again
    assert second == yaml.safe_load(text) and second is not first


def test_bad_yaml_raises_every_time():
    for _ in range(2):
        with pytest.raises(yaml.YAMLError):
            safe_yaml.load("title: [unclosed\n")


def test_a_long_text_is_read_but_not_kept():
    text = "items:\n" + "".join(f"  - item number {i}\n" for i in range(2000))
    assert len(text) > safe_yaml.MAX_REMEMBERED
    before = safe_yaml.stats()
    assert len(safe_yaml.load(text)["items"]) == 2000
    safe_yaml.remember(text, {"items": []})
    after = safe_yaml.stats()
    assert (after["misses"], after["kept"]) == (before["misses"], before["kept"])
    assert len(safe_yaml.load(text)["items"]) == 2000


def test_a_remembered_value_is_handed_out_as_a_copy():
    text = "title: Kestrel\nseen: [2026-12-01]\n"
    value = yaml.safe_load(text)
    safe_yaml.remember(text, value)
    value["title"] = "changed"
    hits = safe_yaml.stats()["hits"]
    got = safe_yaml.load(text)
    assert safe_yaml.stats()["hits"] == hits + 1 and got == yaml.safe_load(text)


def test_only_the_last_texts_are_kept():
    for i in range(safe_yaml.LAST_TEXTS + 5):
        safe_yaml.load(f"n: {i}\n")
    assert safe_yaml.stats()["kept"] == safe_yaml.LAST_TEXTS


def test_an_impossible_date_is_text_and_loses_no_other_key():
    """`created: 2024-02-30` (a typo) made PyYAML's timestamp raise, so the whole block failed
    and a note lost its block-style tags; it is now the text it was written as."""
    text = "title: Bad date\ncreated: 2024-02-30\nupdated: 2024-13-45 10:00\ntags:\n  - garden\n  - seeds\n"
    value = safe_yaml.load(text)
    assert value == {"title": "Bad date", "created": "2024-02-30", "updated": "2024-13-45 10:00",
                     "tags": ["garden", "seeds"]}
    assert safe_yaml.load("at: 2024-02-29\n")["at"] == datetime.date(2024, 2, 29)  # a real date stays a date


def test_only_true_and_false_are_booleans():
    """YAML 1.1 read `yes`, `no`, `on`, `off` as booleans, so a tag `no` became False; as in
    YAML 1.2 (and Obsidian), they are words."""
    value = safe_yaml.load("tags: [yes, no, On, off]\ntitle: Yes\ndraft: true\npinned: FALSE\n")
    assert value == {"tags": ["yes", "no", "On", "off"], "title": "Yes", "draft": True, "pinned": False}
