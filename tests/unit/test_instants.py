"""cairn.instants.to_iso at the ends of the calendar: a year under 1000 is written with four
digits (strftime gave "1-01-01T00:00:00Z", which sorts after every real date), and a time
whose UTC instant falls outside years 1-9999 is a ValueError (an OverflowError escaped the
frontmatter reader and stopped a whole `cairn sync`)."""

from __future__ import annotations

import pytest

from cairn.instants import instant, to_iso
from cairn.parse.markdown import parse_markdown


@pytest.mark.parametrize("value,expected", [
    ("0001-01-01", "0001-01-01T00:00:00Z"),
    ("0999-12-31T23:00:00-02:00", "1000-01-01T01:00:00Z"),
    ("0099-06-01T12:00:00Z", "0099-06-01T12:00:00Z"),
    ("2024-03-10T02:30:00+05:45", "2024-03-09T20:45:00Z"),
])
def test_four_digit_years(value, expected):
    assert to_iso(value) == expected and instant(value) == expected


@pytest.mark.parametrize("value", ["9999-12-31T23:30:00-05:00", "0001-01-01T00:30:00+05:00"])
def test_out_of_range_is_a_value_error(value):
    with pytest.raises(ValueError, match="out of range"):
        to_iso(value)
    assert instant(value) == value  # never raises


def test_a_note_with_such_dates_is_read_with_warnings():
    doc = parse_markdown("---\ntitle: Far\ncreated: 9999-12-31 23:30:00-05:00\nupdated: 0001-01-01\n"
                         "tags: [a]\n---\nbody\n", "far.md")
    assert (doc.title, doc.tags, doc.created, doc.updated) == ("Far", ["a"], None, "0001-01-01T00:00:00Z")
    assert any("could not read date 'created'" in w and "out of range" in w for w in doc.warnings)
