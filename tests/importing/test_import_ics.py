"""`cairn import ics`: events with recurrence (RRULE with EXDATE and a moved occurrence),
time zones (TZID with a VTIMEZONE across a DST change), attendees as people; a second
import adds nothing; a changed event alone is updated; another format is refused."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from cairn.errors import InvalidInput
from cairn.service import Cairn
from export_fixtures import ICS, imported_notes, vault_snapshot, write_ics


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ics")
    path = write_ics(tmp / "cal" / "work.ics")
    with Cairn(tmp / "home", embedder=HashEmbedder()) as app:
        yield app, tmp, app.import_export("ics", tmp / "cal")


def test_recurrence_exdate_time_zones_and_attendees(imported):
    app, _, report = imported
    assert (len(report.added), len(report.skipped)) == (2, 1)
    assert "no DTSTART" in report.skipped[0][1]
    fm, text = imported_notes(app, "ics")["Team standup"]
    assert fm["source_id"] == "standup-1@example.org" and fm["timezone"] == "Europe/Berlin"
    assert fm["start"] == "2025-03-03T09:30:00+01:00" and fm["created"] == "2025-03-03T08:30:00Z"
    # COUNT=6 from 3 March; 17 March excluded; 24 March moved to 11:30; after 30 March (DST) +02:00
    assert fm["occurrences"] == ["2025-03-03T09:30:00+01:00", "2025-03-10T09:30:00+01:00",
                                 "2025-03-24T11:30:00+01:00", "2025-03-31T09:30:00+02:00",
                                 "2025-04-07T09:30:00+02:00"]
    assert fm["attendees"] == ["Marta Lopez", "Ben Okafor", "ana@example.org"]
    assert fm["location"] == "Room Alder" and fm["tags"] == ["work", "river"]
    assert "gauge readings" in text
    bday = imported_notes(app, "ics")["Ana's birthday"][0]
    assert bday["start"] == "2025-06-12" and "occurrences" not in bday
    people = {e["name"] for e in app.entities() if e["kind"] == "person"}
    assert {"Marta Lopez", "Ben Okafor"} <= people


def test_second_import_adds_nothing_and_a_change_updates_one(imported):
    app, tmp, _ = imported
    same = app.import_export("ics", tmp / "cal" / "work.ics")
    assert (len(same.added), len(same.updated), len(same.unchanged)) == (0, 0, 2)
    changed = write_ics(tmp / "changed.ics", ICS.replace("LOCATION:Room Alder", "LOCATION:Room Birch"))
    again = app.import_export("ics", changed)
    assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 1, 1)


def test_another_format_is_refused(imported, tmp_path):
    app, _, _ = imported
    before = vault_snapshot(app)
    bad = tmp_path / "x.ics"
    bad.write_text("BEGIN:VCARD\nFN:Ana\nEND:VCARD\n")
    with pytest.raises(InvalidInput, match="not an iCalendar file") as err:
        app.import_export("ics", bad)
    assert str(bad) in err.value.message
    assert vault_snapshot(app) == before


def test_an_endless_every_second_rule_lists_its_first_occurrences_without_expanding_a_year(tmp_path):
    cal = tmp_path / "busy.ics"
    cal.write_bytes(b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:tick@example.org\r\nSUMMARY:Tick\r\n"
                    b"DTSTART:20250101T100000Z\r\nRRULE:FREQ=SECONDLY\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        assert len(app.import_export("ics", cal).added) == 1
        occ = imported_notes(app, "ics")["Tick"][0]["occurrences"]
    assert occ[:2] == ["2025-01-01T10:00:00+00:00", "2025-01-01T10:00:01+00:00"] and len(occ) == 60
    assert occ == sorted(occ)
