"""The `cairn import` command line, in a subprocess: --list names every importer with its
format; SOURCE PATH --json reports counts; --dry-run writes nothing; a truncated export exits
1 with one line naming the file. (Real imports, second imports and updates: the in-process
tests beside this one; `import notes` and `import chat`: tests/test_cli.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import write
from export_fixtures import gpt_conversation, write_chatgpt

SOURCES = ["chatgpt", "claude", "mbox", "maildir", "ics", "enex", "notion", "keep", "kindle", "readwise", "bookmarks",
           "applenotes"]


def cairn(home, *args):
    return subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "NO_COLOR": "1"})


def test_list_names_every_importer_with_its_format(tmp_path):
    r = cairn(tmp_path / "h", "import", "--list")
    assert r.returncode == 0, r.stderr
    lines = {line.split()[0]: line for line in r.stdout.splitlines() if line.strip()}
    assert set(SOURCES) | {"notes", "chat"} <= set(lines)
    assert "conversations.json" in lines["chatgpt"] and "RFC 5545" in lines["ics"]
    assert "[imap] table" in lines["imap"]  # printed as written, not eaten as console markup
    listed = json.loads(cairn(tmp_path / "h", "import", "--list", "--json").stdout)["importers"]
    assert {i["name"] for i in listed} >= set(SOURCES) and all(i["format"] for i in listed)


def test_import_dry_run_json_and_a_truncated_file(tmp_path):
    home = tmp_path / "h"
    path = write_chatgpt(tmp_path / "conversations.json",
                         [gpt_conversation("c1", "Heron walk", [("user", "Herons nest in the alders by the mill.")])])
    dry = cairn(home, "import", "chatgpt", str(path), "--dry-run", "--json", "-q")
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout)["counts"] == {"added": 1, "updated": 0, "unchanged": 0, "skipped": 0}
    assert not (home / "vault" / "imports").exists()
    cut = write(tmp_path / "cut.json", path.read_bytes()[:120])
    bad = cairn(home, "import", "chatgpt", str(cut), "-q")
    assert bad.returncode == 1 and str(cut) in bad.stderr
    assert len([x for x in bad.stderr.splitlines() if x.strip()]) == 1


def test_import_ics_with_reminders(tmp_path):
    from datetime import datetime, timedelta, timezone
    start = (datetime.now(timezone.utc) + timedelta(days=2)).strftime("%Y%m%dT%H%M00Z")
    cal = write(tmp_path / "cal.ics", ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:dentist@example.org\r\n"
                                       f"DTSTART:{start}\r\nSUMMARY:Dentist\r\nLOCATION:Rua Alta 5\r\n"
                                       "END:VEVENT\r\nEND:VCALENDAR\r\n").encode())
    home = tmp_path / "h"
    r = cairn(home, "import", "ics", str(cal), "--reminders", "--before", "1h", "--json", "-q")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["counts"]["added"] == 1 and out["reminders"]["added"] == 1
    listed = json.loads(cairn(home, "reminders", "--json").stdout)
    assert [x["text"].split(" — ")[0] for x in listed] == ["Dentist"]
    bad = cairn(home, "import", "ics", str(cal), "--reminders", "--before", "soon", "-q")
    assert bad.returncode != 0 and "--before: 'soon'" in bad.stderr
    # (a second run adding nothing, and moved occurrences: tests/importing/test_import_ics.py)
