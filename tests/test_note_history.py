"""Note history and undo (issue 34): every change Cairn makes to a note keeps the previous
version under `<home>/history/` (not in the vault), outside edits become versions when sync
sees them, and the assistant's last approved change is undone to the exact bytes — through
the CLI (a real `python -m cairn` process), the MCP tool and the service. The REST route
and the web page's button (in Chromium) are tested in tests/interfaces/test_history_browser.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cairn.assistant import Assistant, WaitingChannel
from cairn.service import Cairn
from cairn.store import history as H
from fakes.scripted_llm import ScriptedLLM, say, tool

SRC = Path(__file__).resolve().parents[1] / "src"
# Bytes an editor might leave: CRLF line ends, no final newline, non-ASCII, a BOM-less
# frontmatter with a key Cairn does not know. Undo must bring back exactly these.
ORIGINAL = ("---\r\ntitle: Boiler\r\nowner_note: keep me\r\n---\r\n\r\n"
            "Pressure 1.2 bar when cold — serviced by Zoë.\r\nNo final newline").encode("utf-8")


def cli(home, *args, timeout=300):
    env = dict(os.environ, PYTHONPATH=str(SRC), CAIRN_LOAD_PLUGINS="")
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args], capture_output=True,
                          text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def llm():
    with ScriptedLLM() as server:
        yield server


def _home_with_note(root: Path, embedder) -> tuple[Path, Path]:
    home = root / "home"
    (home / "vault").mkdir(parents=True)
    (home / "config.toml").write_text('llm = "none"\n')
    path = home / "vault" / "Boiler.md"
    path.write_bytes(ORIGINAL)  # written outside Cairn: sync sees it
    with Cairn(home, embedder=embedder) as app:
        app.sync()
    return home, path


def _assistant_edit(home, embedder, llm, text: str) -> None:
    with Cairn(home, embedder=embedder) as app:
        app.settings.assistant.veto_s = app.settings.assistant.approval_timeout_s = 0.1
        llm.script(tool("update_note", note="Boiler", body=text), say("Done."))
        ui = WaitingChannel(on_ask=lambda call: ui.answer(call["id"], True))  # the person approves
        res = Assistant(app, model=f"openai:{llm.base_url}:scripted").turn("rewrite my boiler note", ui)
        assert [(c.name, c.outcome) for c in res.tool_calls] == [("update_note", "ran")]


def test_cli_undo_of_an_assistant_edit_returns_the_exact_bytes(tmp_path, real_embedder, llm):
    home, path = _home_with_note(tmp_path, real_embedder)
    _assistant_edit(home, real_embedder, llm, "The assistant's new text.")
    assert path.read_bytes() != ORIGINAL and b"assistant's new text" in path.read_bytes()

    r = cli(home, "note", "history", "Boiler", "--json")
    assert r.returncode == 0, r.stderr
    versions = json.loads(r.stdout)["versions"]
    assert [v["version"] for v in versions] == sorted((v["version"] for v in versions), reverse=True)
    assert all(isinstance(v["version"], int) and v["at"] for v in versions)
    assert versions[0]["by"] == "assistant" and versions[0]["action"] == "update"
    assert versions[-1]["by"] == "outside"  # the file as sync first saw it

    r = cli(home, "undo", "--json")
    assert r.returncode == 0, r.stderr
    done = json.loads(r.stdout)
    assert done["action"] == "undo" and done["undid"]["by"] == "assistant"
    assert path.read_bytes() == ORIGINAL
    with Cairn(home, embedder=real_embedder) as app:
        assert "Zoë" in app.note_show("Boiler")["body"]  # the index follows the file
        newest = app.note_history("Boiler")["versions"][0]
        assert (newest["by"], newest["action"]) == ("cli", "undo")
    r = cli(home, "undo")  # the one assistant change is undone: nothing left
    assert r.returncode == 1 and "no change by the assistant to undo" in r.stderr
    assert path.read_bytes() == ORIGINAL
    # history lives under the home, never among the vault's notes
    assert not [p for p in (home / "vault").rglob("*") if p.is_file() and p.name != "Boiler.md"]
    assert list((home / "history" / "notes").glob("*.jsonl"))


def test_history_diff_restore_and_outside_edits(tmp_path, real_embedder):
    home, path = _home_with_note(tmp_path, real_embedder)
    with Cairn(home, embedder=real_embedder) as app:
        with H.acting("rest"):
            app.note_update("Boiler", "second text")
        second = path.read_bytes()
        path.write_bytes(second.replace(b"second text", b"edited in another editor"))
        app.sync()  # the outside edit becomes a version
        hist = app.note_history("Boiler")["versions"]
        assert [(v["version"], v["by"], v["action"]) for v in hist] == [
            (3, "outside", "seen"), (2, "rest", "update"), (1, "outside", "seen")]
        diff = app.note_diff("Boiler", 2)["diff"]
        assert "-second text" in diff and "+edited in another editor" in diff
        app.note_restore("Boiler", 1)
        assert path.read_bytes() == ORIGINAL
        assert app.note_history("Boiler")["versions"][0]["action"] == "restore"
        before = path.read_bytes()
        from cairn.errors import NotFound
        with pytest.raises(NotFound, match=r"no version 99 \(versions kept: 1\.\.4\)"):
            app.note_restore("Boiler", 99)
        assert path.read_bytes() == before  # a bad version changes nothing
    r = cli(home, "note", "diff", "Boiler", "--version", "2")
    assert r.returncode == 0 and "+Pressure 1.2 bar" in r.stdout.replace("\r", "")
    r = cli(home, "note", "restore", "Boiler", "--version", "0")
    assert r.returncode == 1 and "no version 0" in r.stderr and path.read_bytes() == before


def test_undo_walks_back_through_an_approved_delete_and_create_over_mcp(tmp_path, real_embedder, llm):
    home, path = _home_with_note(tmp_path, real_embedder)
    with Cairn(home, embedder=real_embedder) as app:
        app.settings.assistant.veto_s = app.settings.assistant.approval_timeout_s = 0.1
        llm.script(tool("create_note", title="Shopping", body="eggs"), tool("delete_note", note="Boiler"),
                   say("Done."))
        ui = WaitingChannel(on_ask=lambda call: ui.answer(call["id"], True))  # the person approves
        res = Assistant(app, model=f"openai:{llm.base_url}:scripted").turn("tidy up", ui)
        assert [(c.name, c.outcome) for c in res.tool_calls] == [("create_note", "ran"), ("delete_note", "ran")]
        assert not path.exists()
    # MCP (the tool a client calls): the approved delete is undone first, byte for byte
    from cairn.tools import registry
    from cairn.tools.invoke import invoke
    with Cairn(home, embedder=real_embedder) as app:
        out = invoke(app, registry(), "undo", {}, actor="mcp")
        assert out.ok, out.message
        assert out.result["undid"]["action"] == "delete" and path.read_bytes() == ORIGINAL
        hist = app.note_history("Boiler")["versions"]
        assert hist[0]["by"] == "mcp" and hist[0]["action"] == "undo"
        assert app.note_diff("Boiler", 1)["diff"] == ""
        # then the create — the note goes to the trash
        out = invoke(app, registry(), "undo", {}, actor="mcp")
        assert out.ok, out.message
        assert out.result["undid"]["action"] == "create" and out.result["version"] is None
        assert not (home / "vault" / "Shopping.md").exists()
        assert list((home / "vault" / ".trash").glob("Shopping*.md"))
        out = invoke(app, registry(), "undo", {}, actor="mcp")
        assert not out.ok and out.category == "not_found"


def test_chat_slash_undo(tmp_path, real_embedder, llm):
    home, path = _home_with_note(tmp_path, real_embedder)
    _assistant_edit(home, real_embedder, llm, "Rewritten once more.")
    env = dict(os.environ, PYTHONPATH=str(SRC), CAIRN_LOAD_PLUGINS="")
    r = subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), "chat", "--model",
                        f"openai:{llm.base_url}:scripted"], input="/undo\n/undo\n", capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert '"action": "undo"' in r.stdout and "no change by the assistant to undo" in r.stderr
    assert path.read_bytes() == ORIGINAL


def test_prune_history_keeps_the_newest_and_the_recent_and_refuses_bad_numbers(tmp_path):
    from fakes.embedder import HashEmbedder

    from cairn.errors import InvalidInput
    home = tmp_path / "home"
    with Cairn(home, embedder=HashEmbedder()) as app:
        app.note_create("Kettle", "descale monthly, version 1")
        for n in range(2, 7):
            app.note_update("Kettle", f"descale monthly, version {n}")
        found = app.note_history("Kettle")["versions"]
        assert len(found) >= 6
        blobs = lambda: sorted(p.name for p in (home / "history" / "blobs").glob("*/*.z"))  # noqa: E731
        before_blobs = blobs()
        assert app.history_prune(keep_versions=1, keep_days=1)["versions"] == 0  # all are recent
        with pytest.raises(InvalidInput, match="at least 1 version"):
            app.history_prune(keep_versions=0, keep_days=0)
        for days in (float("nan"), float("inf")):  # nan once pruned every recent version (review2)
            with pytest.raises(InvalidInput, match="days"):
                app.history_prune(keep_versions=1, keep_days=days)
        assert len(app.note_history("Kettle")["versions"]) == len(found) and blobs() == before_blobs
        done = app.history_prune(keep_versions=2, keep_days=0)
        assert (done["notes"], done["versions"]) == (1, len(found) - 2)
        kept = app.note_history("Kettle")["versions"]
        assert [v["version"] for v in kept] == [v["version"] for v in found[:2]]  # newest first
        assert done["blobs"] >= 1 and sorted(blobs()) == sorted(f"{v['hash']}.z" for v in kept if v["hash"])
        assert {e["version"] for e in H.log_entries(home)} == {v["version"] for v in kept}
        older, note_id = kept[-1]["version"], app.note_history("Kettle")["note"]["id"]
        assert "version 5" in H.read_bytes(home, H.get(home, note_id, older)).decode()
        app.note_restore("Kettle", older)  # a kept version still restores
        assert "version 5" in (home / "vault" / app.note_history("Kettle")["note"]["path"]).read_text()
    r = cli(home, "note", "prune-history", "--keep", "0", "--json")
    assert r.returncode == 1 and "at least 1 version" in r.stderr
    r = cli(home, "note", "prune-history", "--keep", "1", "--days", "0", "--json")
    assert r.returncode == 0, r.stderr
    assert set(json.loads(r.stdout)) == {"notes", "versions", "blobs", "bytes", "keep_versions", "keep_days"}


def test_concurrent_appends_and_marks_on_one_home_lose_nothing(tmp_path):
    """Four processes appending to one note while another marked it: each said "updated",
    yet lines were lost, or one failed with ".x.md.cairn-tmp: no such file or directory"
    (review2). Each Cairn below has its own index connection, as separate processes do."""
    import threading

    from fakes.embedder import HashEmbedder
    home = tmp_path / "home"
    with Cairn(home, embedder=HashEmbedder()) as app:
        app.note_create("Race", "start")
    apps = [Cairn(home, embedder=HashEmbedder()) for _ in range(5)]
    errors: list[BaseException] = []
    gate = threading.Barrier(len(apps))

    def work(i, a):
        try:
            gate.wait()
            for n in range(3):
                if i == 0:
                    a.note_mark("Race", ("read", "archived", "read")[n])
                else:
                    a.note_update("Race", f"line {i}.{n}", mode="append")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(i, a)) for i, a in enumerate(apps)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a in apps:
        a.close()
    assert errors == []
    text = (home / "vault" / "Race.md").read_text(encoding="utf-8")
    assert all(f"line {i}.{n}" in text for i in range(1, 5) for n in range(3)), text
    assert "status: read" in text


def test_the_diff_of_a_utf16_note_shows_its_text(tmp_path):
    """probe23: a note saved as UTF-16 in the vault and then appended to (written back as UTF-8):
    `note diff NOTE 1` compared the raw UTF-16 bytes read as UTF-8 (U+FFFD and NULs on every
    line) with the new text."""
    from fakes.embedder import HashEmbedder
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        (app.settings.vault / "win.md").write_bytes("# Alarm\nThe alarm code is 9931.\n".encode("utf-16"))
        app.sync()
        app.note_update("win.md", "Parking bay 12.", mode="append")
        diff = app.note_diff("win.md", 1)["diff"]
    assert "\x00" not in diff and "\ufffd" not in diff, diff
    assert diff.splitlines()[2:] == ["@@ -1,2 +1,4 @@", " # Alarm", " The alarm code is 9931.", "+", "+Parking bay 12."]
