"""newuser28's trial: faults a new user met through the CLI, the web page, MCP and the chat,
each with the test that failed on the code before its fix (bench/README.md, "Session 28 —
newuser28")."""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from cairn.errors import InvalidInput
from cairn.paths import portable_name
from cairn.uploads import safe_name

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: "evil<RLO>dm.exe.md" shows as "evilem.exe.md" reversed


# -- a file name Cairn makes holds no bidirectional control ------------------------------------

def test_a_note_title_with_a_bidi_override_makes_a_file_name_without_it(app):
    # `cairn note create "a<RLO>exe.md"` wrote <vault>/a<RLO>exe.md.md, which a file manager
    # shows reordered ("amd.exe.md"); the title keeps what was typed, the file name does not
    note = app.note_create(f"a{RLO}exe.md", "x")
    assert RLO not in note.path and note.path == "aexe.md.md", note.path
    assert app.note_show(note.id)["title"] == f"a{RLO}exe.md"


def test_an_uploaded_or_ingested_name_with_bidi_controls_is_stored_without_them():
    # REST upload `filename=../../evil<RLO>dm.exe.md` was kept as <vault>/notes/evil<RLO>dm.exe.md
    assert safe_name(f"../../evil{RLO}dm.exe.md") == "evildm.exe.md"
    assert portable_name(f"plan\u2066{RLO}fdp.md\u2069") == "planfdp.md"
    assert portable_name("plan.md") == "plan.md"


# -- a reminder on a day the month never has ------------------------------------------------------

@pytest.mark.parametrize("said, month, most", [("31 February", "February", 29), ("April 31", "April", 30),
                                              ("30 february", "February", 29)])
def test_a_day_the_month_never_has_is_named_with_the_month(said, month, most):
    # was "'31 february': no month has a day 31" (January has one)
    from cairn.schedule.when import parse_when
    with pytest.raises(InvalidInput) as err:
        parse_when(said, ZoneInfo("UTC"), datetime(2026, 12, 7, 21, 0, tzinfo=timezone.utc), recurring=False)
    msg = str(err.value)
    day = "".join(ch for ch in said if ch.isdigit())
    assert f"{month} has no day {day}" in msg, msg
    assert f"at most {most}" in msg, msg


# -- the assistant's file tools name a NUL in a path ------------------------------------------

@pytest.mark.parametrize("tool, args", [("read_file", {"path": "notes/a\x00b.md"}),
                                        ("list_files", {"folder": "notes/a\x00b"})])
def test_a_file_tool_path_with_a_nul_is_refused_by_name(app, tool, args):
    # MCP read_file {"path": "a\x00b"} answered "embedded null byte" (the system call's words)
    from cairn.tools import registry
    with pytest.raises(InvalidInput) as err:
        registry(app.settings).call(app, tool, args)
    assert "NUL character (U+0000)" in str(err.value) and "notes/a" in str(err.value), str(err.value)


# -- the assistant does not set a reminder on another day than the one said -----------------------

@pytest.mark.parametrize("said, why", [
    ("remind me to check the tyres on 31 February at 9am", "February has no day 31"),
    ("remind me to call Ana on 3 March 2020 at 9am", "is in the past"),
    ("remind me to pay rent on Tuesday 12 January 2028 at 9", "is a Wednesday, not a Tuesday"),
])
def test_a_reminder_on_a_day_that_cannot_be_is_not_set_on_another_day(app, said, why):
    # was set for the next 9:00 (only "at 9am" read), the date left in the reminder's text
    from cairn.assistant import Assistant, Channel
    app.settings.assistant.veto_s = 0
    res = Assistant(app, model="none", new=True).turn(said, Channel())
    assert [c.name for c in res.tool_calls if c.name == "remind"] == [], res.tool_calls
    assert why in res.reply and "nothing is set yet" in res.reply, res.reply


def test_a_reminder_with_a_date_that_reads_is_still_set(app):
    from cairn.assistant.nlu.slots import reminder
    assert reminder("remind me to water the plants on 30 April at 8") == {"text": "water the plants",
                                                                         "at": "30 April at 8"}
    assert reminder("remind me to book the 31 February party tomorrow at 9") == {
        "text": "book the 31 February party", "at": "tomorrow at 9"}


# -- a note too long to embed whole says so when it is ingested -------------------------------------

def test_ingest_says_when_a_note_is_searched_by_meaning_only_in_part(tmp_path, home, embedder):
    # a 30 MB note of 16,667 passages said only "embedded 400 chunk(s)"; that the other 16,267
    # are found by keyword only showed in `cairn status` alone, summed over every note
    from cairn.service import Cairn
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n\n[chunk]\nembed_max_chunks = 2\n')
    src = tmp_path / "in"
    src.mkdir()
    (src / "long.md").write_text("# Long\n\n" + "\n\n".join(f"## Part {i}\n\n" + f"line {i} of the river log. " * 40
                                                             for i in range(12)))
    (src / "short.md").write_text("# Short\n\nThe pier is closed on Mondays.\n")
    with Cairn(home, embedder=embedder) as app:
        report = app.ingest([src])
        said = [(p.rsplit("/", 1)[-1], w) for p, w in report.warnings]
        partly = [w for p, w in said if p == "long.md" and "by keyword only" in w]
        assert len(partly) == 1 and "the first 2 are searched by meaning" in partly[0], said
        assert not [w for p, w in said if p == "short.md"], said
        total = int(partly[0].split(" passages")[0].replace(",", ""))
        assert total == app.status()["chunks"] - 1  # short.md has one


def test_a_new_folder_with_a_bidi_control_is_refused_by_that_reason(app):
    # after file names dropped bidi controls, a new folder "a<RLO>b" was refused as "cannot be
    # used on every system (Windows forbids ...)": the reason is the override
    with pytest.raises(InvalidInput) as err:
        app.note_create("Boat", "x", folder=f"trips/a{RLO}b")
    assert "holds bidirectional controls (U+202E)" in str(err.value), str(err.value)
    assert not (app.settings.vault / "trips").exists()


# -- a snapshot's manifest is checked by what is wrong with it, also under `python -O` --------------

@pytest.mark.parametrize("manifest, said", [
    (None, "manifest.json is missing"),
    ("{not json", "manifest.json cannot be read"),
    ("{}", "is not a Cairn snapshot manifest"),
    ('{"format": 2, "files": {}}', "is not a Cairn snapshot manifest"),
])
def test_a_snapshot_manifest_is_refused_by_what_is_wrong_with_it(tmp_path, manifest, said):
    # `cairn restore DIR` with a manifest.json of "{}" said "missing or unreadable"; the format
    # check was an `assert`, which `python -O` leaves out (a format-2 manifest then passed)
    import subprocess
    import sys
    snap = tmp_path / "snap"
    snap.mkdir()
    if manifest is not None:
        (snap / "manifest.json").write_text(manifest)
    code = ("import sys\nfrom cairn.store.backup import verify\n"
            "try:\n    verify(sys.argv[1])\nexcept Exception as e:\n    print(type(e).__name__, e)\n"
            "else:\n    print('accepted')\n")
    for flags in ([], ["-O"]):
        out = subprocess.run([sys.executable, *flags, "-c", code, str(snap)], capture_output=True, text=True,
                             env={**__import__("os").environ}, timeout=120).stdout
        assert out.startswith("BackupDamaged") and said in out, (flags, out)


def test_a_reflection_reply_whose_items_are_no_list_is_a_bad_reply_also_under_python_O():
    # `assert isinstance(raw, list)` is left out by `python -O`: {"items": "abc"} was then read
    # character by character (each dropped) instead of failing over to the rules
    import subprocess
    import sys
    code = ("from cairn.context.reflect import Turn, model_items\n"
            "class LLM:\n    def chat(self, *a, **k):\n        return '{\"items\": \"abc\"}'\n"
            "try:\n    model_items(LLM(), [Turn('s#1', 'I moved to Leeds', '2026-12-01T09:00:00+00:00')])\n"
            "except Exception as e:\n    print(type(e).__name__, e)\nelse:\n    print('accepted')\n")
    for flags in ([], ["-O"]):
        out = subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True, timeout=120)
        assert out.stdout.startswith("LLMBadResponse") and "not a list" in out.stdout, (flags, out.stdout, out.stderr)
