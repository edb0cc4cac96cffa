"""probe25: a file whose name is not valid UTF-8 (b"bad\\xff\\xfename.md", as an old archive or a
Windows copy leaves) crashed `cairn ingest FOLDER` with a traceback ("UnicodeEncodeError:
surrogates not allowed", from the job queue's SQL) and nothing of the folder was ingested;
`cairn ingest` of the file itself printed the traceback too (its trace could not be written) after
saying "no such file or directory" for a file that exists; `cairn sync` reported "'utf-8' codec
can't encode characters in position 3-4". Now the file is named (as it prints) with "its name is
not valid UTF-8 (byte 0xFF 0xFE); rename it", and every other file is ingested."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.paths import name_problem, shown

SRC = str(Path(__file__).resolve().parents[1] / "src")
BAD = b"bad\xff\xfename.md"


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "odd"
    d.mkdir()
    with open(os.path.join(os.fsencode(d), BAD), "wb") as f:
        f.write(b"# Bad name\nThe bad name note says hello.\n")
    (d / "ok.md").write_text("# Fine\nThe lamp is in the hall.\n", encoding="utf-8")
    return d


def _bad_path(folder: Path) -> str:
    return os.fsdecode(os.path.join(os.fsencode(folder), BAD))


def test_name_problem_and_shown():
    assert name_problem("ok/caf\u00e9.md") is None
    bad = os.fsdecode(BAD)
    assert "not valid UTF-8 (byte 0xFF 0xFE)" in name_problem(bad)
    assert shown(bad) == "bad\ufffd\ufffdname.md" and shown(bad).encode("utf-8")


def test_ingest_of_the_folder_names_the_file_and_ingests_the_rest(app, folder):
    report = app.ingest([folder])
    assert report.added and not report.failed, report.to_json()
    [(name, reason)] = [s for s in report.skipped if "UTF-8" in s[1]]
    assert name.endswith("bad\ufffd\ufffdname.md") and "byte 0xFF 0xFE" in reason
    json.dumps(report.to_json(), ensure_ascii=False).encode("utf-8")  # the report prints
    assert app.ask("where is the lamp", llm="none").verdict == "pass"


def test_ingest_of_the_file_itself_fails_naming_it(app, folder):
    report = app.ingest([_bad_path(folder)])
    [(name, reason)] = report.failed
    assert "bad\ufffd\ufffdname.md" in name and "not valid UTF-8" in reason


def test_sync_names_the_file(app):
    vault = app.settings.vault
    vault.mkdir(parents=True, exist_ok=True)
    (vault / "ok.md").write_text("# Fine\nThe lamp is in the hall.\n", encoding="utf-8")
    with open(os.path.join(os.fsencode(vault), BAD), "wb") as f:
        f.write(b"# Bad\nhello\n")
    report = app.sync()
    assert report.added == ["ok.md"]
    assert [(n, r) for n, r in report.failed] == [("bad\ufffd\ufffdname.md",
                                                    "its name is not valid UTF-8 (byte 0xFF 0xFE); rename it to read it, skipped")]


def test_cli_ingest_of_the_file_names_it_without_a_traceback(folder, tmp_path):
    env = {**os.environ, "PYTHONPATH": SRC, "CAIRN_HOME": str(tmp_path / "home"), "LC_ALL": "C.UTF-8"}
    run = subprocess.run([os.fsencode(sys.executable), b"-m", b"cairn", b"ingest",
                          os.path.join(os.fsencode(folder), BAD)], env=env, capture_output=True, timeout=180)
    err = run.stderr.decode("utf-8", "replace")
    assert run.returncode == 1 and "Traceback" not in err and "not valid UTF-8" in err, err
    assert "no such file" not in err


def test_a_scoped_sync_names_the_file(app):
    """The watcher's reconcile of the changed paths (sync.reconcile(paths=...)) says the same."""
    from cairn.sync import reconcile
    vault = app.settings.vault
    vault.mkdir(parents=True, exist_ok=True)
    bad = os.path.join(os.fsencode(vault), BAD)
    with open(bad, "wb") as f:
        f.write(b"# Bad\nhello\n")
    report = reconcile(app.conn, app.settings, app.embedder, [os.fsdecode(bad)])
    assert report.failed == [("bad\ufffd\ufffdname.md", "its name is not valid UTF-8 (byte 0xFF 0xFE); rename it to read it, skipped")]


def test_watch_survives_a_file_name_that_is_not_utf8(app):
    """The notifier (watchfiles) raised "Unable to decode path ... to string" out of its loop when
    such a file changed in the vault: `cairn watch` ended with a traceback. Now it says so and
    watches on; later edits are still indexed."""
    sys.path.insert(0, str(Path(__file__).parent))
    from watching import RunningWatcher, wait_until
    vault = app.settings.vault
    with RunningWatcher(app) as w:
        with open(os.path.join(os.fsencode(vault), BAD), "wb") as f:
            f.write(b"# Bad\nhello\n")
        wait_until(lambda: any(e.kind == "error" and "rename it" in (e.message or "") for e in w.events),
                   what="the name reported")
        (vault / "later.md").write_text("# Later\nThe heron nests in the alders.\n", encoding="utf-8")
        wait_until(lambda: [h.title for h in app.search("heron alders", mode="keyword").hits] == ["Later"],
                   what="a later note indexed")
        assert w.thread.is_alive()
