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


def test_a_calendar_cut_off_is_refused_and_one_unreadable_event_is_skipped(imported, tmp_path):
    app, _, _ = imported
    before = vault_snapshot(app)
    data = ICS.replace("\n", "\r\n").encode()
    cut = tmp_path / "cut.ics"
    cut.write_bytes(data[: data.index(b"SUMMARY:Team standup (moved)")])
    with pytest.raises(InvalidInput, match=r"event 2: the file ends inside the event \(truncated\?\)") as err:
        app.import_export("ics", cut)
    assert str(cut) in err.value.message
    assert vault_snapshot(app) == before
    odd = write_ics(tmp_path / "odd.ics", ICS.replace("DTSTART;VALUE=DATE:20250612", "DTSTART;VALUE=DATE:2025-06-xx"))
    r = app.import_export("ics", odd)
    assert any("Ana's birthday" in name and "DTSTART" in why for name, why in r.skipped) and not r.added


def _reminders(app):
    with app.scheduler() as sch:
        return {r.text: r for r in sch.list() if r.spec.get("calendar")}


def test_upcoming_events_become_reminders_once(imported, tmp_path):
    from datetime import datetime, timezone
    from cairn.tools import registry
    app, tmp, _ = imported
    now = datetime(2025, 3, 9, 12, 0, tzinfo=timezone.utc)
    app.settings.time.timezone = "Europe/Berlin"
    r = app.calendar_reminders(tmp / "cal" / "work.ics", before="30m", horizon="30d", now=now)
    # 10, 24 (moved to 11:30), 31 March and 7 April; 17 March is an EXDATE; 3 March is past;
    # the birthday (June) is beyond the horizon
    assert (len(r.added), r.past) == (4, 0)
    rows = _reminders(app)
    moved = rows["Team standup (moved) — Mon 24 Mar 11:30"]
    assert moved.next_due == "2025-03-24T10:00:00+00:00"
    assert moved.spec["calendar"] == "standup-1@example.org|2025-03-24T09:30:00+01:00"
    assert rows["Team standup — Mon 31 Mar 09:30, Room Alder"].next_due == "2025-03-31T07:00:00+00:00"
    again = app.calendar_reminders(tmp / "cal" / "work.ics", before="30m", horizon="30d", now=now)
    assert (len(again.added), len(again.updated), len(again.unchanged)) == (0, 0, 4)
    later = write_ics(tmp_path / "later.ics", ICS.replace("DTSTART;TZID=Europe/Berlin:20250324T113000",
                                                          "DTSTART;TZID=Europe/Berlin:20250324T120000"))
    moved_again = app.calendar_reminders(later, now=now)
    assert (len(moved_again.added), len(moved_again.updated), len(moved_again.unchanged)) == (0, 1, 3)
    assert len(_reminders(app)) == 4
    with pytest.raises(InvalidInput, match="--before: 'soon' is not a span of time"):
        app.calendar_reminders(later, before="soon", now=now)
    # the assistant's tool: a calendar in a folder the person let it read
    app.settings.assistant.files = [str(tmp / "cal")]
    out = registry().call(app, "remind_calendar", {})
    assert out["calendars"] == [str((tmp / "cal" / "work.ics").resolve())] and out["added"] == 0


def test_an_event_with_a_very_long_title_gets_a_reminder_within_the_limit(imported, tmp_path):
    """A reminder holds at most scheduler.MAX_TEXT_CHARS characters; a calendar event's title
    and location are cut to fit (they were stored whole, 1,300+ characters, before)."""
    from datetime import datetime, timezone
    from cairn.schedule.scheduler import MAX_TEXT_CHARS
    app, _, _ = imported
    cal = write_ics(tmp_path / "long.ics", "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//EN\nBEGIN:VEVENT\n"
                    "UID:long-1@example.org\nDTSTAMP:20250301T000000Z\nDTSTART:20250401T090000Z\n"
                    f"SUMMARY:Kiln day {'glaze ' * 200}\nLOCATION:Shed {'north ' * 100}\n"
                    "END:VEVENT\nEND:VCALENDAR\n")
    r = app.calendar_reminders(cal, now=datetime(2025, 3, 20, 12, 0, tzinfo=timezone.utc))
    [text] = r.added
    assert len(text) <= MAX_TEXT_CHARS and text.startswith("Kiln day glaze") and "… — Tue 01 Apr" in text
    assert text in _reminders(app) and text.endswith("…")


def test_an_event_with_two_start_times_is_skipped_naming_the_property(tmp_path):
    """probe23: a VEVENT with DTSTART twice (an editor appended a second one with a TZID) was
    skipped as "'list' object has no attribute 'dt'"; DTEND twice the same."""
    cal = tmp_path / "twice.ics"
    cal.write_bytes(b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
                    b"BEGIN:VEVENT\r\nUID:a@x\r\nSUMMARY:Two starts\r\nDTSTART:20250101T090000Z\r\n"
                    b"DTSTART;TZID=Europe/Paris:20250101T100000\r\nEND:VEVENT\r\n"
                    b"BEGIN:VEVENT\r\nUID:b@x\r\nSUMMARY:Two ends\r\nDTSTART:20250102T090000Z\r\n"
                    b"DTEND:20250102T100000Z\r\nDTEND:20250102T110000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        r = app.import_export("ics", cal)
    why = dict((name.split("(")[-1].rstrip(")"), reason) for name, reason in r.skipped)
    assert why == {"Two starts": "the event has 2 DTSTART lines; one is allowed",
                   "Two ends": "the event has 2 DTEND lines; one is allowed"}, r.skipped
