"""hygiene27: a note whose frontmatter is a YAML alias bomb was read in full: the loader shares
what an alias points to, but every consumer walking the value expanded it (a 9^8 `tags: *h` took
383 s and 700 MB to ingest and 208 s to rename under cProfile, cleaning 43 million tags). safe_yaml now refuses a
text whose aliases stand for over MAX_ALIAS_VALUES values before anything walks it: sync and
ingest recover the plain `key: value` lines with a warning naming the bomb, `note rename` /
`note mark` refuse with that reason, and nothing is rewritten."""

from __future__ import annotations

import pytest

from conftest import write
from cairn import safe_yaml
from cairn.errors import Conflict


def _bomb(levels: int, *, width: int = 9, tags: bool = True) -> str:
    names = "abcdefghij"[:levels]
    lines = ["---", "title: Laughs", f"{names[0]}: &{names[0]} [" + ", ".join(['"lol"'] * width) + "]"]
    lines += [f"{n}: &{n} [" + ", ".join([f"*{p}"] * width) + "]" for p, n in zip(names, names[1:])]
    if tags:
        lines.append(f"tags: *{names[-1]}")
    return "\n".join(lines + ["---", "", "Herons nest on the estuary island.", ""])


def _block(text: str) -> str:
    return text.split("---\n")[1]


def test_the_loader_refuses_a_bomb_and_names_it():
    with pytest.raises(safe_yaml.AliasBomb, match=r"YAML aliases that stand for over 10,000 values .*alias bomb"):
        safe_yaml.load(_block(_bomb(9)))
    with pytest.raises(safe_yaml.AliasBomb):  # a second read is refused too: errors are never remembered
        safe_yaml.load(_block(_bomb(9)))


def test_aliases_that_expand_a_little_and_long_texts_without_aliases_still_read():
    small = safe_yaml.load("base: &b {kind: bird, seen: [1, 2]}\nheron: *b\negret: *b\n")
    assert small["egret"] == {"kind": "bird", "seen": [1, 2]}
    assert len(safe_yaml.load(_block(_bomb(3)))["tags"]) == 9  # 819 values expanded
    many = "tags: [" + ", ".join(f"t{i}" for i in range(30_000)) + "]\n"  # written out, no alias
    assert len(safe_yaml.load(many)["tags"]) == 30_000


def test_the_bound_is_on_expansion_not_on_what_is_written(monkeypatch):
    monkeypatch.setattr(safe_yaml, "MAX_ALIAS_VALUES", 100)
    assert safe_yaml.load("a: &a [1, 2, 3]\nb: [*a, *a, *a]\n")  # 9 values more than written
    with pytest.raises(safe_yaml.AliasBomb):
        safe_yaml.load(_block(_bomb(3, width=8)))  # not read before: a text read is remembered


def test_sync_recovers_a_bomb_note_and_rename_and_mark_refuse_it(app, tmp_path):
    src = write(tmp_path / "in" / "bomb.md", _bomb(9))
    report = app.ingest([src])
    warnings = " ".join(w for _, w in report.warnings)
    assert "alias bomb" in warnings and "plain 'key: value' lines recovered" in warnings, warnings
    note = app.notes_list()["notes"][0]
    assert note["title"] == "Laughs"
    assert app.note_show("Laughs")["tags"] == []  # `tags: *i` is an alias: no text of its own
    path = app.settings.vault / note["path"]
    before = path.read_bytes()
    for act in (lambda: app.note_rename("Laughs", "Herons"), lambda: app.note_mark("Laughs", "read")):
        with pytest.raises(Conflict) as err:
            act()
        msg = str(err.value)
        assert "frontmatter cannot be parsed" in msg and "alias bomb" in msg and "not rewritten" in msg, msg
    assert path.read_bytes() == before
