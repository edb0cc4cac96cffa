"""newuser29's trial: faults a new user met through the CLI, REST, MCP and the chat, each with
the test that failed on the code before its fix (bench/README.md, "Session 29 — newuser29")."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

from conftest import write
from cairn.service import Cairn


def cairn(home, *args):
    cmd = [sys.executable, "-m", "cairn.cli", "--home", str(home), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=dict(os.environ))


# -- a damaged index file ---------------------------------------------------------------------

def _home_with_notes(tmp_path, embedder):
    home = tmp_path / "home"
    write(home / "config.toml", 'llm = "none"\n')
    write(tmp_path / "v" / "plumber.md", "# Plumber\n\nThe plumber's mobile number is 07700 900417.\n")
    write(tmp_path / "v" / "bees.md", "# Bees\n\nThe queen was marked blue in May.\n")
    with Cairn(home, embedder=embedder) as app:
        app.ingest([tmp_path / "v"])
        app.remember("I'm allergic to penicillin")
        app.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return home


def _damage(index, page: int | None):
    """Overwrite one page of `index` (None: the header) with junk, as a bad disk sector does."""
    size = sqlite3.connect(index).execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(index.read_bytes())
    at, n = (100, 3900) if page is None else (size * page, size)
    data[at:at + n] = b"\x07" * n
    index.write_bytes(bytes(data))


def _chunks_page(index) -> int:
    """The page the chunks table starts on (0-based), a page every search and status reads."""
    return sqlite3.connect(index).execute(
        "SELECT rootpage FROM sqlite_master WHERE name = 'chunks'").fetchone()[0] - 1


def test_a_damaged_index_page_is_named_with_its_fix_not_a_traceback(tmp_path, embedder):
    # `cairn status` / `search` on an index with a bad page printed Python's traceback
    # ("DatabaseError: database disk image is malformed"), which docs/cli.md calls a bug
    home = _home_with_notes(tmp_path, embedder)
    index = home / "index.db"
    _damage(index, _chunks_page(index))
    r = cairn(home, "status")
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and "malformed" in r.stderr and "cairn reindex" in r.stderr, r.stderr
    assert str(index) in r.stderr


@pytest.mark.parametrize("page", [None, "chunks"])
def test_reindex_sets_a_damaged_index_aside_and_rebuilds_it_from_the_vault(tmp_path, embedder, page):
    # `cairn reindex` ("run it whenever the index seems wrong") failed on a damaged index with
    # the same error, so the documented way out did not exist
    home = _home_with_notes(tmp_path, embedder)
    index = home / "index.db"
    before = index.read_bytes()
    _damage(index, None if page is None else _chunks_page(index))
    damaged = index.read_bytes()
    assert damaged != before
    with Cairn(home, embedder=embedder) as app:
        report = app.reindex()
        assert sorted(report.added) == ["notes/v/bees.md", "notes/v/plumber.md"], report.to_json()
        assert report.warnings and "damaged" in report.warnings[0][1], report.warnings
        assert [h.title for h in app.search("plumber", mode="keyword").hits][:1] == ["Plumber"]
        assert [m.text for m in app.memories()] == ["I'm allergic to penicillin"]  # from vault/_memory
    kept = [p for p in home.iterdir() if p.name.startswith("index.db.damaged-")
            and not p.name.endswith(("-wal", "-shm"))]
    assert len(kept) == 1 and kept[0].read_bytes() == damaged  # kept, byte for byte, never deleted


def test_reindex_of_a_sound_index_sets_nothing_aside(tmp_path, embedder):
    home = _home_with_notes(tmp_path, embedder)
    with Cairn(home, embedder=embedder) as app:
        report = app.reindex()
    assert not report.warnings
    assert not [p for p in home.iterdir() if ".damaged-" in p.name]


def test_reindex_of_a_damaged_index_waits_for_other_processes(tmp_path, embedder):
    from cairn.errors import Conflict
    from cairn.store import locks
    home = _home_with_notes(tmp_path, embedder)
    index = home / "index.db"
    _damage(index, _chunks_page(index))
    other = locks.hold_home(home)  # as a running `cairn serve` holds it
    try:
        with Cairn(home, embedder=embedder) as app, pytest.raises(Conflict) as err:
            app.reindex()
    finally:
        locks.release(other)
    assert "damaged" in str(err.value) and "nothing was changed" in str(err.value)
    assert index.exists() and not [p for p in home.iterdir() if ".damaged-" in p.name]


def test_a_damaged_index_is_unavailable_with_its_fix_for_a_tool_caller(tmp_path, embedder):
    # MCP / assistant tool calls: the same words as the CLI, category "unavailable", not a bug
    from cairn.tools.invoke import failure
    home = _home_with_notes(tmp_path, embedder)
    with Cairn(home, embedder=embedder) as app:
        exc = sqlite3.DatabaseError("database disk image is malformed")
        exc.sqlite_errorcode = 11
        out = failure(app, exc)
    assert out.category == "unavailable" and "cairn reindex" in out.message, out


def test_a_damaged_reminder_store_is_named_not_the_index(tmp_path, embedder):
    # once a damaged database was named at all, a damaged schedule.db was reported as the
    # index (whose reindex cannot mend it): SQLite's words name no file
    home = _damaged_schedule_home(tmp_path, embedder)
    schedule = home / "schedule.db"
    r = cairn(home, "reminders")
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"the reminder store {schedule} cannot be read" in r.stderr and "cairn backup" in r.stderr, r.stderr
    assert "cairn reindex" not in r.stderr


def _damaged_schedule_home(tmp_path, embedder):
    home = _home_with_notes(tmp_path, embedder)
    with Cairn(home, embedder=embedder) as app, app.scheduler() as sched:
        sched.remind("call mum", at="tomorrow at 9")
    schedule = home / "schedule.db"
    conn = sqlite3.connect(schedule)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    _damage(schedule, 1)
    return home


@pytest.mark.parametrize("said, done", [("what reminders do I have?", None),
                                        ("cancel the call mum reminder", "Nothing was cancelled"),
                                        ("no, make it 10am", "Nothing was changed")])
def test_the_assistant_does_not_read_a_failed_reminder_list_as_an_empty_one(tmp_path, embedder, said, done):
    # chat "what reminders do I have?" over a damaged schedule.db answered "You have no
    # reminders set." (the tool had failed, three times, with "ask me to try again")
    from cairn.assistant import Assistant
    home = _damaged_schedule_home(tmp_path, embedder)
    with Cairn(home, embedder=embedder) as app:
        app.settings.assistant.veto_s = 0
        reply = Assistant(app, model="none", new=True).turn(said).reply
    assert "no reminders" not in reply.lower() and "couldn't find" not in reply and "no reminder to" not in reply, reply
    assert "reminder store" in reply and "damaged" in reply and "try again" not in reply, reply
    if done:
        assert done in reply, reply


def test_an_empty_job_schedule_is_not_called_no_reminders(tmp_path):
    # `cairn schedule` (jobs other than reminders) printed "no reminders" while one was set
    home = tmp_path / "home"
    write(home / "config.toml", 'llm = "none"\n')
    r = cairn(home, "remind", "call mum", "--at", "tomorrow at 9")
    assert r.returncode == 0, r.stderr
    r = cairn(home, "schedule")
    assert r.returncode == 0 and "no scheduled jobs" in r.stdout and "no reminders" not in r.stdout, r.stdout
    assert "call mum" in cairn(home, "reminders").stdout


def test_reindex_leaves_other_open_problems_to_the_open_which_names_them(tmp_path, embedder):
    # the damage check must not hide what opening the index says (a -wal that is a folder)
    home = _home_with_notes(tmp_path, embedder)
    (home / "index.db-wal").mkdir()
    r = cairn(home, "reindex", "-q")
    assert r.returncode == 1 and "index.db-wal is a directory" in r.stderr, r.stderr
    assert not [p for p in home.iterdir() if ".damaged-" in p.name]


@pytest.mark.parametrize("said", ["yesterday at 9", "yesterday", "9am yesterday"])
def test_a_reminder_for_yesterday_is_refused_as_past_not_as_unreadable(said):
    # `cairn remind x --at "yesterday at 9"` said "cannot read the time", as if the words were unknown
    from datetime import datetime, timezone
    from zoneinfo import ZoneInfo

    from cairn.errors import InvalidInput
    from cairn.schedule.when import parse_when
    with pytest.raises(InvalidInput) as err:
        parse_when(said, ZoneInfo("UTC"), datetime(2026, 12, 7, 21, 0, tzinfo=timezone.utc), recurring=False)
    assert "is in the past" in str(err.value) and "cannot read" not in str(err.value), str(err.value)


def test_the_assistant_says_a_reminder_for_yesterday_is_past(tmp_path, embedder):
    from cairn.assistant import Assistant
    home = tmp_path / "home"
    write(home / "config.toml", 'llm = "none"\n')
    with Cairn(home, embedder=embedder) as app:
        app.settings.assistant.veto_s = 0
        reply = Assistant(app, model="none", new=True).turn("remind me yesterday at 9 to call mum").reply
        with app.scheduler() as sched:
            assert not sched.list(("scheduled",))
    assert "“yesterday at 9” is in the past" in reply and "nothing is set yet" in reply, reply
