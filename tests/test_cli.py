"""The real `cairn` command in a subprocess: imports, --json output, --batch, --home, and
clear errors (exit code 1, message naming the problem) for bad input, losing nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import write


def cairn(home, *args, input=None, env=None):
    cmd = [sys.executable, "-m", "cairn.cli", "--home", str(home), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, input=input,
                          env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def chat_home(tmp_path_factory):
    """One home with imported notes and a chat transcript, shared by the read-only tests."""
    root = tmp_path_factory.mktemp("cli")
    home = root / "home"
    notes = write(root / "notes.jsonl", "\n".join(json.dumps(r) for r in [
        {"id": "doc-1", "title": "Sourdough", "text": "Feed the starter with rye flour every evening.", "tags": ["bread"],
         "created": "2024-03-01"},
        {"id": "doc-2", "text": "The tandem bicycle needs a new chain before the summer."},
    ]) + "\n")
    chat = write(root / "chat.jsonl", "\n".join(json.dumps(m) for m in [
        {"conversation": "c1", "session": "s1", "id": "D1:1", "speaker": "Ana", "time": "2023-05-08T13:56:00",
         "text": "I went to the pottery class yesterday and made a blue bowl."},
        {"conversation": "c1", "session": "s1", "id": "D1:2", "speaker": "Ben", "time": "2023-05-08T13:57:00",
         "text": "Nice! I am training for the Lisbon half marathon in October."},
        {"conversation": "c1", "session": "s2", "id": "D2:1", "speaker": "Ana", "time": "2023-06-01T09:00:00",
         "text": "My sister adopted a grey kitten called Pebble."},
    ]) + "\n")
    r = cairn(home, "import", "notes", str(notes), "-q")
    assert r.returncode == 0, r.stderr
    assert "added 2" in r.stdout
    r = cairn(home, "import", "chat", str(chat), "-q", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["added"] == 2
    return home


def test_search_json_fields_and_source_ids(chat_home):
    r = cairn(chat_home, "search", "half marathon training", "--json", "--k", "3")
    assert r.returncode == 0, r.stderr
    hits = json.loads(r.stdout)["hits"]
    assert hits[0]["source_id"] == "D1:2"
    assert hits[0]["event_time"] == "2023-05-08T13:57:00"  # the message's own time, not import time
    for key in ("id", "source_id", "title", "path", "source", "snippet", "start", "end", "page", "score", "signals"):
        assert key in hits[0]
    assert set(hits[0]["signals"]) == {"keyword", "semantic", "recency", "graph", "source", "context", "speaker", "time"}


def test_chat_messages_are_separate_units(chat_home):
    r = cairn(chat_home, "search", "kitten", "--json", "--mode", "keyword")
    hits = json.loads(r.stdout)["hits"]
    assert [h["source_id"] for h in hits] == ["D2:1"]


def test_record_keeps_its_id(chat_home):
    hits = json.loads(cairn(chat_home, "search", "rye flour starter", "--json").stdout)["hits"]
    assert hits[0]["source_id"] == "doc-1" and hits[0]["title"] == "Sourdough"


def test_batch_search(chat_home, tmp_path):
    batch = write(tmp_path / "q.jsonl", '{"id": "a", "query": "pottery bowl"}\n{"id": "b", "query": "C++ (\\""}\n')
    r = cairn(chat_home, "search", "--batch", str(batch), "--k", "2", "--mode", "hybrid")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [row["query_id"] for row in rows] == ["a", "b"]
    assert rows[0]["hits"][0]["source_id"] == "D1:1"


def test_ask_json(chat_home):
    r = cairn(chat_home, "ask", "What did Ana make at the pottery class?", "--llm", "none", "--json")
    assert r.returncode == 0, r.stderr
    ans = json.loads(r.stdout)
    assert ans["verdict"] in ("pass", "revise")
    assert "blue bowl" in ans["answer"]
    c = ans["citations"][0]
    for key in ("n", "source_id", "title", "path", "source", "page", "start", "end", "quote"):
        assert key in c
    assert c["source_id"] == "D1:1" and c["page"] is None
    assert c["quotes"] == [{"start": c["start"], "end": c["end"], "quote": c["quote"]}]


def test_ask_text_names_who_said_a_chat_source(chat_home):
    r = cairn(chat_home, "ask", "What did Ana make at the pottery class?", "--llm", "none")
    assert r.returncode == 0, r.stderr
    assert "said by Ana, 2023-05-08T13:56:00" in r.stdout


def test_status_json(chat_home):
    r = cairn(chat_home, "status", "--json")
    st = json.loads(r.stdout)
    assert st["notes"] == 4 and st["chunks"] == 5 and st["embedded_chunks"] == 5
    assert st["missing_keyword_rows"] == 0 and st["missing_vectors"] == 0


def test_cairn_home_env_var(chat_home, tmp_path):
    cmd = [sys.executable, "-m", "cairn.cli", "status", "--json"]
    r = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "CAIRN_HOME": str(chat_home)})
    assert json.loads(r.stdout)["notes"] == 4


@pytest.mark.parametrize("line, message", [
    ("{not json", "line 2: not valid JSON"),
    ('{"conversation": "c", "session": "s", "id": "x", "speaker": "A", "text": "hi"}', "line 2: missing field(s) time"),
    ('{"conversation": "c", "session": "s", "id": "x", "speaker": "A", "time": "yesterday", "text": "hi"}',
     "line 2: time 'yesterday' is not ISO 8601"),
    ('["a", "list"]', "line 2: expected a JSON object"),
])
def test_bad_chat_import_names_the_line_and_loses_nothing(chat_home, tmp_path, line, message):
    good = '{"conversation": "c9", "session": "s", "id": "Z:1", "speaker": "A", "time": "2024-01-01T10:00:00", "text": "zebra"}'
    bad = write(tmp_path / "bad.jsonl", good + "\n" + line + "\n")
    before = json.loads(cairn(chat_home, "status", "--json").stdout)
    r = cairn(chat_home, "import", "chat", str(bad))
    assert r.returncode == 1
    assert message in r.stderr and "Traceback" not in r.stderr
    after = json.loads(cairn(chat_home, "status", "--json").stdout)
    assert after["notes"] == before["notes"] and after["chunks"] == before["chunks"]


def test_bad_notes_import(chat_home, tmp_path):
    bad = write(tmp_path / "bad.jsonl", '{"id": "1"}\n')
    r = cairn(chat_home, "import", "notes", str(bad))
    assert r.returncode == 1 and "line 1: missing field(s) text" in r.stderr
    r = cairn(chat_home, "import", "notes", str(tmp_path / "missing.jsonl"))
    assert r.returncode == 1 and "no such file" in r.stderr


@pytest.mark.parametrize("args, message, code", [
    (["search", "x", "--since", "last week"], "is not an ISO date", 2),  # usage errors: 2
    (["search"], "give either a QUERY or --batch FILE", 2),
    (["ask", "   "], "the question is empty", 1),
    (["ask", "x", "--llm", "gpt"], "invalid LLM spec", 1),
])
def test_bad_arguments_are_named(chat_home, args, message, code):
    r = cairn(chat_home, *args)
    assert r.returncode == code, r.stdout
    assert message in r.stderr and "Traceback" not in r.stderr


def test_bad_batch_file_is_a_usage_error_naming_the_file(chat_home, tmp_path):
    """A `search --batch` FILE that is malformed, missing, a folder or not UTF-8: exit 2 (a
    usage error, like a bad option value), the message names the file and the problem."""
    bad = write(tmp_path / "q.jsonl", '{"id": "a"}\n')
    binary = write(tmp_path / "latin1.jsonl", '{"query": "caf\xe9"}\n'.encode("latin-1"))
    cases = [(bad, f"--batch {bad}: line 1: expected an object with 'id' and 'query'"),
             (tmp_path / "missing.jsonl", f"--batch {tmp_path / 'missing.jsonl'}: no such file or directory"),
             (tmp_path, f"--batch {tmp_path}: is a directory"),
             (binary, f"--batch {binary}: line 1: not UTF-8 text")]
    for path, message in cases:
        r = cairn(chat_home, "search", "--batch", str(path))
        assert r.returncode == 2, (path, r.stderr)
        assert r.stderr.startswith("error: ") and message in r.stderr, r.stderr
        assert "Traceback" not in r.stderr and "Errno" not in r.stderr and r.stdout == ""


def test_bad_batch_file_opens_nothing(tmp_path):
    home = tmp_path / "h"
    r = cairn(home, "search", "--batch", str(tmp_path / "missing.jsonl"))
    assert r.returncode == 2 and "missing.jsonl: no such file or directory" in r.stderr
    assert not home.exists()  # refused before the index was opened or created


def test_bad_config_is_named(tmp_path):
    home = tmp_path / "h"
    write(home / "config.toml", "[search]\nk = 'many'\n")
    r = cairn(home, "status")
    assert r.returncode == 1 and "search.k must be a number" in r.stderr


def test_not_a_database(tmp_path):
    home = tmp_path / "h"
    write(home / "index.db", b"this is not sqlite at all" * 100)
    r = cairn(home, "status")
    assert r.returncode == 1 and "cannot open index database" in r.stderr


def test_ingest_reports_skipped_and_failed(tmp_path):
    home = tmp_path / "h"
    write(tmp_path / "in" / "a.md", "# A\n\nAn ordinary note about kayaks.\n")
    write(tmp_path / "in" / "blob.txt", b"\x00\x01\x02\x03" * 200)
    r = cairn(home, "ingest", str(tmp_path / "in"), str(tmp_path / "missing"), "-q")
    assert r.returncode == 1  # a failed source makes the run exit 1; the rest is still stored
    assert "added 1" in r.stdout and "skipped 1" in r.stdout and "failed 1" in r.stdout
    assert "blob.txt" in r.stderr and "missing: no such file or directory" in r.stderr


def test_empty_home_is_refused(tmp_path):
    r = subprocess.run([sys.executable, "-m", "cairn.cli", "--home", "", "status"], capture_output=True,
                       text=True, cwd=tmp_path)
    assert r.returncode == 1 and "--home is empty" in r.stderr
    assert not (tmp_path / "vault").exists()


def test_unknown_type_filter_is_named(chat_home):
    r = cairn(chat_home, "search", "kitten", "--type", "pdfs")
    assert r.returncode == 2 and "'pdfs' is not one of 'pdf'" in " ".join(r.stderr.replace("│", " ").split())


def test_ingesting_the_vault_into_itself_is_refused(chat_home):
    before = json.loads(cairn(chat_home, "status", "--json").stdout)
    r = cairn(chat_home, "ingest", str(chat_home / "vault"), "-q")
    assert r.returncode == 1 and "is inside the Cairn vault" in r.stderr
    after = json.loads(cairn(chat_home, "status", "--json").stdout)
    assert after["notes"] == before["notes"]


def test_concurrent_first_open_migrates_once(tmp_path):
    home = tmp_path / "race"
    procs = [subprocess.Popen([sys.executable, "-m", "cairn.cli", "--home", str(home), "status", "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        from cairn.store.db import MIGRATIONS
        assert json.loads(out)["schema_version"] == MIGRATIONS[-1][0]


def test_locked_index_is_named_and_loses_nothing(tmp_path):
    import sqlite3

    home = tmp_path / "h"
    write(tmp_path / "in" / "a.md", "# A\n\nAn ordinary note about kayaks.\n")
    assert cairn(home, "ingest", "-q", str(tmp_path / "in")).returncode == 0
    write(tmp_path / "in" / "b.md", "# B\n\nA second note about canoes.\n")
    holder = sqlite3.connect(home / "index.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        r = cairn(home, "ingest", "-q", str(tmp_path / "in"))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert r.returncode == 1 and "is busy" in r.stderr and "Traceback" not in r.stderr
    r = cairn(home, "ingest", "-q", str(tmp_path / "in"))
    assert r.returncode == 0 and "added 1" in r.stdout and "unchanged 1" in r.stdout
    assert json.loads(cairn(home, "status", "--json").stdout)["notes"] == 2


def test_dangling_symlink_is_reported_and_rest_ingested(tmp_path):
    home = tmp_path / "h"
    write(tmp_path / "in" / "a.md", "# A\n\nAn ordinary note about kayaks.\n")
    (tmp_path / "in" / "gone.md").symlink_to(tmp_path / "nowhere.md")
    r = cairn(home, "ingest", "-q", str(tmp_path / "in"))
    # leftovers26: skipped, never queued (a retry could never read it, so no dead letter)
    assert r.returncode == 0 and "added 1" in r.stdout and "skipped 1" in r.stdout and "failed 0" in r.stdout
    assert f"gone.md: dangling symbolic link to {tmp_path / 'nowhere.md'}" in r.stderr
    assert "dead 0" in cairn(home, "jobs").stdout


def test_os_errors_name_the_path_without_errno(tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    r = cairn(tmp_path / "h", "import", "notes", str(folder))
    assert r.returncode == 1
    assert f"{folder}: is a directory" in r.stderr and "Errno" not in r.stderr


def test_enrich_does_each_note_and_reports_the_bad_ones(tmp_path):
    """One unknown note no longer stops `cairn enrich A B C` after A, hiding that A was done."""
    home = tmp_path / "home"
    src = tmp_path / "in"
    for name, text in (("a.md", "# Alpha\n\nHerons nest in alders by the river. Herons return in March. "
                                 "Alders grow by the river.\n"),
                       ("c.md", "# Gamma\n\nOwls hunt at night over the meadow. Owls nest in old barns. "
                                 "The meadow is mown in July.\n")):
        write(src / name, text)
    assert cairn(home, "ingest", str(src)).returncode == 0
    r = cairn(home, "enrich", "Alpha", "no-such-note", "Gamma", "--json")
    rows = json.loads(r.stdout)
    assert r.returncode == 1
    assert [x.get("method") for x in rows if "method" in x] == ["extractive", "extractive"]
    assert [x["note"] for x in rows if "error" in x] == ["no-such-note"]
    r = cairn(home, "enrich", "no-such-note", "Alpha")
    assert r.returncode == 1 and "no-such-note: error" in r.stdout and "skipped" in r.stdout
