"""leftovers26: `note rename` / `note status` of a note whose frontmatter is a YAML alias bomb
with its anchor on the replaced key's line said "not a YAML mapping" (it is one); the message
now names the aliases, and nothing is rewritten."""

from __future__ import annotations

import pytest

from conftest import write
from cairn.errors import Conflict, InvalidInput
from cairn.noteops import rewrite_refusal


def _bomb(first_key: str) -> str:
    # four levels (1,864 values expanded): a larger bomb is refused as it is read since hygiene27
    # (safe_yaml.MAX_ALIAS_VALUES; tests/test_alias_bomb_bound.py)
    names = "abcd"
    lines = ["---", f'{first_key}: &a ["lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"{n}: &{n} [" + ", ".join([f"*{p}"] * 6) + "]" for p, n in zip(names, names[1:])]
    return "\n".join(lines + ["---", "", "Herons nest on the estuary island.", ""])


def test_rename_of_an_alias_bomb_names_the_aliases_and_writes_nothing(app, tmp_path):
    src = write(tmp_path / "in" / "bomb.md", _bomb("title"))
    app.ingest([src])
    note = app.notes_list()["notes"][0]
    path = app.settings.vault / note["path"]
    before = path.read_bytes()
    with pytest.raises(InvalidInput) as err:
        app.note_rename(note["path"], "Herons")
    msg = str(err.value)
    assert "18 YAML alias(es)" in msg and "refused YAML" in msg and "not a YAML mapping" not in msg, msg
    assert path.read_bytes() == before


def test_rewrite_refusal_without_aliases_says_it_would_not_read_back():
    assert rewrite_refusal("---\ntitle: x\n---\nB\n", ["title"]) == (
        "its frontmatter would not read back as a YAML mapping with `title` replaced")
    assert "5 YAML alias(es)" in rewrite_refusal("---\nstatus: &s [1]\nb: [*s, *s, *s, *s, *s]\n---\n", ["status"])
