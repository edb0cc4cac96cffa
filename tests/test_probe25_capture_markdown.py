"""probe25: `cairn capture note "https://example.org/a<LF><LF># Injected heading<LF>[[Boathouse]]" --text hi`
(the same for POST /capture, the MCP/assistant `capture` tool) wrote the page address raw into
the note's markdown link: the note got a heading and a wikilink the person never wrote; a
space in the host ("https://exa mple.org/") broke the link. A page title with line breaks
or brackets (`--title "x](javascript:alert(1)) [y"`) did the same through the link text.
Now an address holding a space, line break or control character is refused naming it and
its place, and the title is one line with its brackets escaped."""

from __future__ import annotations

import re

import pytest

from cairn.capture import capture_note
from cairn.errors import InvalidInput
from cairn.parse.wikilinks import find_wikilinks


@pytest.mark.parametrize("url, what", [
    ("https://example.org/a\n\n# Injected heading\n[[Boathouse]]", "U+000A at character 22"),
    ("https://exa mple.org/", "a space at character 12"),
    ("https://example.org/\x1b[31m", "U+001B"),
    ("https://example.org/a\u2028b", "U+2028"),
])
def test_an_address_with_a_break_is_refused(url, what):
    with pytest.raises(InvalidInput) as exc:
        capture_note("note", url, text="hi")
    assert what in str(exc.value) and "percent-encode" in str(exc.value)


def test_a_title_stays_link_text():
    _title, body, _tags = capture_note("bookmark", "https://example.org/y",
                                       title="Nice page\n\n# Injected\n[[Boathouse]] x](javascript:alert(1)) [y")
    link = body.strip()
    assert "\n" not in link and not any(line.startswith("#") for line in body.splitlines())  # no heading
    assert link.endswith("](https://example.org/y)") and len(re.findall(r"(?<!\\)\]\(", link)) == 1
    assert find_wikilinks(body) == []
    assert r"\[\[Boathouse\]\] x\](javascript:alert(1)) \[y" in link


def test_ordinary_addresses_and_titles_are_kept(app):
    n = app.capture("bookmark", "https://en.wikipedia.org/wiki/Heron_(bird)?q=1#Nesting", title="Heron  (bird)")
    body = app.note_show(n.id)["body"]
    assert "[Heron (bird)](https://en.wikipedia.org/wiki/Heron_(bird)?q=1#Nesting)" in body
