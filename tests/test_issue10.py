"""Issue 10: time filters compare instants, imports are all-or-nothing with reasons written for
a person, state changes supersede the slot they change, and the rough edges a newcomer hit
(links markup, parallel ingests, interrupted jobs, the search table, usage exit codes, a
query starting with "-", snippets, the read-only home hint, the licence metadata)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import tomllib
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from cairn import ingest as I
from cairn import vault as V
from cairn.instants import instant
from cairn.service import Cairn

from conftest import CountingEmbedder, fail_nth_write, write, write_jsonl

REPO = Path(__file__).resolve().parents[1]


def cli(home, *args, env=None, **kw):
    return subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=300, env=env, **kw)


# ------------------------------------------------------------------ time: instants

@pytest.mark.parametrize("text, utc", [
    ("2024-06-01T09:00:00+02:00", "2024-06-01T07:00:00Z"),
    ("2024-06-01T01:00:00-05:00", "2024-06-01T06:00:00Z"),
    ("2024-06-01T06:00:00Z", "2024-06-01T06:00:00Z"),
    ("2024-06-01T06:00:00", "2024-06-01T06:00:00Z"),       # naive: UTC, as the index reads notes
    ("2024-06-01", "2024-06-01T00:00:00Z"),
    ("2024-03-31T01:30:00+01:00", "2024-03-31T00:30:00Z"),  # Berlin, before the DST switch
    ("2024-03-31T03:30:00+02:00", "2024-03-31T01:30:00Z"),  # ... one hour later, after it
    ("2024-10-27T02:30:00+02:00", "2024-10-27T00:30:00Z"),  # the repeated hour, first pass
    ("2024-10-27T02:30:00+01:00", "2024-10-27T01:30:00Z"),  # ... second pass
    ("not a time", "not a time"),
])
def test_instant_maps_every_offset_to_one_utc_form(text, utc):
    assert instant(text) == utc


def test_search_since_compares_instants_across_offsets_naive_and_dst(app, tmp_path):
    """Chat messages keep the offset they were written with; imported notes are stored in
    UTC. `--since` with any offset keeps exactly the units at or after that instant (it
    compared time strings: 3 of 10 expected results)."""
    times = {  # id -> (written time, instant)
        "m1": "2024-06-01T01:00:00-05:00",   # 06:00Z
        "m2": "2024-06-01T06:00:00",         # naive: 06:00Z
        "m3": "2024-06-01T09:30:00+02:00",   # 07:30Z
        "m4": "2024-06-01T04:59:00Z",        # 04:59Z  (before)
        "m5": "2024-06-01T06:59:00+02:00",   # 04:59Z  (before)
        "m6": "2024-03-31T01:30:00+01:00",   # DST night, 00:30Z (before)
        "m7": "2024-10-27T02:30:00+01:00",   # repeated hour, 01:30Z (after)
    }
    write_jsonl(tmp_path / "chat.jsonl", [
        {"conversation": "c", "session": "s", "id": k, "speaker": "Ann", "time": t, "text": f"zorblatt {k}"}
        for k, t in times.items()])
    app.import_chat(tmp_path / "chat.jsonl")
    write_jsonl(tmp_path / "notes.jsonl", [
        {"id": "r1", "text": "zorblatt record one", "created": "2024-06-01T05:30:00+00:00"},   # after
        {"id": "r2", "text": "zorblatt record two", "created": "2024-06-01T07:00:00+03:00"},   # 04:00Z before
    ])
    app.import_notes(tmp_path / "notes.jsonl")

    def kept(since):
        hits = app.search("zorblatt", mode="keyword", k=50, since=since).hits
        return sorted((h.source_id or h.title) for h in hits)

    # 05:00Z written with a +02:00 offset, as UTC and as a naive time: the same answer
    expected = ["m1", "m2", "m3", "m7", "r1"]
    assert kept("2024-06-01T07:00:00+02:00") == expected
    assert kept("2024-06-01T05:00:00Z") == expected
    assert kept("2024-06-01T05:00:00") == expected
    assert kept("2024-03-31T01:00:00Z") == sorted(expected + ["m4", "m5", "r2"])  # m6 (00:30Z) out


def test_chat_messages_are_kept_in_time_order_whatever_their_offsets(app, tmp_path):
    write_jsonl(tmp_path / "chat.jsonl", [
        {"conversation": "c", "session": "s", "id": "late", "speaker": "A", "time": "2024-06-01T04:00:00-02:00",
         "text": "second"},   # 06:00Z, but sorts first as text
        {"conversation": "c", "session": "s", "id": "early", "speaker": "A", "time": "2024-06-01T08:00:00+05:00",
         "text": "first"},    # 03:00Z
    ])
    app.import_chat(tmp_path / "chat.jsonl")
    body = (app.settings.vault / "chats" / "c" / "s.md").read_text()
    assert body.index("first") < body.index("second")


def test_search_since_must_be_a_date_or_date_time(tmp_path):
    r = cli(tmp_path / "h", "search", "x", "--since", "2024-06-01garbage")
    assert r.returncode == 2 and "is not an ISO date" in r.stderr


# ------------------------------------------------------------------ imports: all or nothing

def test_import_notes_with_an_escaped_nul_writes_nothing(app, tmp_path):
    path = tmp_path / "n.jsonl"
    path.write_text('{"id": "a", "text": "hello"}\n{"id": "b", "text": "bad \\u0000 nul"}\n'
                    '{"id": "c", "text": "fine"}\n')
    with pytest.raises(I.ImportFormatError, match=r"line 2: field text holds a NUL character"):
        app.import_notes(path)
    assert app.status()["notes"] == 0 and not (app.settings.vault / "records").exists()


def test_cli_import_notes_nul_is_one_clear_line(tmp_path):
    path = tmp_path / "n.jsonl"
    path.write_text('{"id": "a", "text": "hello"}\n{"id": "b", "text": "x", "tags": ["ok", "b\\u0000d"]}\n')
    r = cli(tmp_path / "h", "import", "notes", str(path))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "line 2: field tags[1] holds a NUL character" in r.stderr
    assert not list((tmp_path / "h" / "vault").rglob("*.md"))


def test_import_notes_rolls_back_when_a_write_fails_midway(app, tmp_path, monkeypatch):
    """A failure after some records were written (a full disk) puts every file back as it
    was and the index with it: the earlier import of the same file is what stays."""
    path = write_jsonl(tmp_path / "n.jsonl", [{"id": i, "text": f"version one of {i} quillwort"} for i in "abc"])
    app.import_notes(path)
    before = {p: p.read_bytes() for p in (app.settings.vault / "records").rglob("*.md")}
    write_jsonl(path, [{"id": i, "text": f"version two of {i} bramblefen"} for i in "abcd"])
    real_write = V.atomic_write
    fail_nth_write(monkeypatch, 3)
    with pytest.raises(I.ImportFormatError, match="No space left on device.*nothing was imported"):
        app.import_notes(path)
    monkeypatch.setattr(V, "atomic_write", real_write)
    after = {p: p.read_bytes() for p in (app.settings.vault / "records").rglob("*.md")}
    assert after == before
    assert app.status()["notes"] == 3
    assert not app.search("bramblefen", mode="keyword").hits
    assert len(app.search("quillwort", mode="keyword", k=10).hits) == 3


def test_import_chat_rolls_back_when_a_write_fails_midway(app, tmp_path, monkeypatch):
    rows = [{"conversation": "c", "session": f"s{n}", "id": "1", "speaker": "A",
             "time": "2024-06-01T09:00:00Z", "text": f"session {n} marshwren"} for n in range(3)]
    path = write_jsonl(tmp_path / "chat.jsonl", rows)
    fail_nth_write(monkeypatch, 2)
    with pytest.raises(I.ImportFormatError, match="nothing was imported"):
        app.import_chat(path)
    assert app.status()["notes"] == 0 and not list(app.settings.vault.rglob("*.md"))


def test_deeply_nested_frontmatter_is_reported_in_words(app, tmp_path):
    deep = "---\nx: " + "[" * 3000 + "]" * 3000 + "\n---\n\n# Deep\n\nbody\n"
    write(app.settings.vault / "deep.md", deep)
    write(app.settings.vault / "fine.md", "# Fine\n\nA fine note.\n")
    report = app.sync()
    assert "fine.md" in report.added
    reasons = " ".join(r for _, r in report.failed) + " ".join(w for _, w in report.to_json().get("warnings", []))
    assert "RecursionError" not in reasons
    write(tmp_path / "src" / "deep.md", deep)
    rep = app.ingest([str(tmp_path / "src")])
    text = json.dumps(rep.to_json())
    assert "RecursionError" not in text and "Traceback" not in text


def test_a_parser_crash_is_reported_without_the_exception_name(app, tmp_path, monkeypatch):
    """Some corrupt DOCX files made python-docx raise AttributeError deep inside; the
    person saw 'AttributeError: ...'."""
    import cairn.parse.docx as D

    def broken(data, name):
        raise AttributeError("'NoneType' object has no attribute 'getparent'")

    monkeypatch.setattr(D, "parse_docx", broken)
    import docx
    doc = docx.Document()
    doc.add_paragraph("hello")
    doc.save(tmp_path / "bad.docx")
    report = app.ingest([str(tmp_path / "bad.docx")])
    reasons = [r for _, r in report.skipped + report.failed]
    assert reasons and all("AttributeError" not in r and "NoneType" not in r for r in reasons), reasons
    assert "looks damaged" in reasons[0]


# ------------------------------------------------------------------ memory: state changes

@pytest.mark.parametrize("old, change, other", [
    ("Olga lives in Oslo.", "Olga moved from Oslo to Bergen.", "Olga works at Acme."),
    ("I live in Paris.", "I relocated from Paris to Lyon last year.", "I'm vegan."),
    ("Tom works at Acme.", "Tom switched jobs from Acme to Globex.", "Tom lives in Leeds."),
    ("I'm a teacher.", "I changed careers from teacher to nurse.", "I work at St. Mary's."),
])
def test_a_state_change_supersedes_the_slot_it_changes_and_nothing_else(tmp_path, real_embedder, old, change, other):
    from cairn.memory import list_memories, remember
    from cairn.store import db
    conn = db.connect(tmp_path / "index.db")
    t0 = datetime(2025, 3, 1, 9, tzinfo=timezone.utc)
    first = remember(conn, real_embedder, old, now=t0)
    kept = remember(conn, real_embedder, other, now=t0 + timedelta(days=1))
    moved = remember(conn, real_embedder, change, now=t0 + timedelta(days=40))
    assert moved.action == "supersede" and moved.previous.id == first.memory.id, moved.reason
    assert sorted(m.text for m in list_memories(conn)) == sorted([other, change])
    assert kept.memory.id in {m.id for m in list_memories(conn)}
    conn.close()


def test_where_does_she_live_after_a_move(app):
    app.remember("Olga lives in Oslo.", at="2025-01-01T09:00:00Z")
    app.remember("Olga moved from Oslo to Bergen.", at="2025-03-01T09:00:00Z")
    top = app.recall("where does Olga live", at="2025-03-02T09:00:00Z")
    assert top and top[0].memory.text == "Olga moved from Oslo to Bergen."
    assert "Olga lives in Oslo." not in [r.memory.text for r in top]


# ------------------------------------------------------------------ newcomer defects

def test_parallel_ingests_of_one_folder_add_and_embed_each_file_once(home, real_embedder, tmp_path):
    """Five ingests of the same folder at once (threads with their own connections, as
    processes would have): every file added exactly once in total and every chunk embedded
    once (it was 8/16/0/16/0 added and 106 chunks embedded for 40 vectors)."""
    for i in range(12):
        write(tmp_path / "src" / f"n{i}.md", f"# Note {i}\n\nParallel note number {i} about herons.\n")
    with Cairn(home, embedder=real_embedder):
        pass  # create the home once
    counter = CountingEmbedder(real_embedder)
    reports, errors = [], []

    def run():
        try:
            with Cairn(home, embedder=counter) as a:
                reports.append(a.ingest([str(tmp_path / "src")]))
        except Exception as exc:  # noqa: BLE001 — reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors, errors
    assert sum(len(r.added) for r in reports) == 12
    assert all(len(r.added) + len(r.unchanged) == 12 for r in reports)
    with Cairn(home, embedder=real_embedder) as a:
        vectors = a.conn.execute("SELECT count(*) FROM vectors").fetchone()[0]
    assert counter.texts == vectors == sum(r.embedded for r in reports)


def test_jobs_of_a_dead_process_are_listed_as_interrupted_not_running(app, tmp_path):
    from cairn.store import jobs as J
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    jid, _ = J.enqueue(app.conn, "file", "/x/a.md", {"path": "/x/a.md"}, max_attempts=3)
    J.claim_batch(app.conn, gone.pid, "1", 3600)
    info = app.jobs()
    assert info["running"] == [] and [j["id"] for j in info["interrupted"]] == [jid]
    assert info["counts"]["running"] == 0 and info["counts"]["interrupted"] == 1
    r = cli(app.settings.home, "jobs")
    assert f"interrupted job {jid} (its process {gone.pid} is gone; `cairn jobs run` resumes it)" in r.stdout


def test_cli_links_search_table_usage_codes_and_dash_queries(tmp_path):
    home = tmp_path / "h"
    deep = "deeply-nested-folder/with-a-long-name/herons-and-egrets-2024.md"
    write(tmp_path / "in" / "a.md", "# Alpha\n\nSee [[todo]] and [[my-note]] and [[project plan]]. "
                                    "The -v flag of heronctl prints more.\n")
    write(tmp_path / "in" / deep, "# Herons\n\nGrey herons and egrets in the estuary heronctl.\n")
    deep = "notes/in/" + deep  # its vault path
    assert cli(home, "ingest", "-q", str(tmp_path / "in")).returncode == 0
    env = {**os.environ, "COLUMNS": "80"}
    r = cli(home, "links", "--unresolved", env=env)
    assert "[[todo]]" in r.stdout and "[[my-note]]" in r.stdout and "[[project plan]]" in r.stdout
    assert "[]" not in r.stdout
    r = cli(home, "search", "heronctl", env=env)
    assert r.returncode == 0
    assert "…" not in r.stdout.split("where")[-1].replace("…\n", "")  # the path is wrapped, not cut
    flat = "".join(line.split("│")[3].strip() for line in r.stdout.splitlines() if line.count("│") >= 5)
    assert deep in flat
    for args in (["search", "x", "--batch", str(tmp_path / "q.jsonl")], ["links"], ["jobs", "retry"]):
        r = cli(home, *args)
        assert r.returncode == 2, (args, r.returncode, r.stderr)
    for args in (["search", "-v flag", "--json"], ["search", "--json", "--", "-v flag"]):
        r = cli(home, *args)
        assert r.returncode == 0, (args, r.stderr)
        assert json.loads(r.stdout)["hits"] and json.loads(r.stdout)["hits"][0]["title"] == "Alpha"


def test_snippets_start_and_end_at_word_boundaries():
    from cairn.search.hybrid import make_snippet
    text = " ".join(f"word{i}" for i in range(120)) + " cormorant " + " ".join(f"tail{i}" for i in range(120))
    for width in (60, 120, 240, 241, 333):
        snip = make_snippet(text, ["cormorant"], width=width)
        core = snip.strip("…")
        at = text.index(core)
        assert at == 0 or text[at - 1] == " ", snip
        assert at + len(core) == len(text) or text[at + len(core)] == " ", snip
        assert "cormorant" in core


def test_read_only_file_system_hint_does_not_suggest_chmod(tmp_path):
    from cairn.config import HomeNotWritable
    ro = str(HomeNotWritable(tmp_path / "h", "read-only file system"))
    assert "chmod" not in ro and "writable disk" in ro
    assert "chmod u+w" in str(HomeNotWritable(tmp_path / "h", "permission denied"))


def test_package_metadata_builds_without_a_licence_warning(tmp_path):
    """`make demo` printed setuptools' licence deprecation warning three times."""
    meta = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert isinstance(meta["project"]["license"], str)
    (tmp_path / "src" / "cairn").mkdir(parents=True)
    (tmp_path / "src" / "cairn" / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text((REPO / "pyproject.toml").read_text())
    (tmp_path / "README.md").write_text("x\n")
    r = subprocess.run([sys.executable, "-c", "import setuptools; setuptools.setup()", "egg_info",
                        "-e", str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "DeprecationWarning" not in r.stderr + r.stdout and "project.license" not in r.stderr
