"""Text piped into the command line is read as the file it came from: UTF-8, a Windows
(cp1252/latin-1) or UTF-16 (PowerShell) pipe, never a traceback; a body no file system
encoding can hold is refused by the service before anything is written (probe23)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cairn.errors import InvalidInput
from fakes.embedder import HashEmbedder


def _cairn(home, *args, data: bytes):
    return subprocess.run([sys.executable, "-m", "cairn", "--home", str(home), *args], input=data,
                          capture_output=True, timeout=300, env=dict(os.environ))


def test_a_latin1_or_utf16_pipe_becomes_a_note_and_binary_data_is_refused(tmp_path):
    """`printf 'caf\\xe9 au lait' | cairn note create X` ended in a UnicodeEncodeError
    traceback ('surrogates not allowed') after the title was checked."""
    home = tmp_path / "home"
    r = _cairn(home, "note", "create", "Latin", data="café au lait\n".encode("cp1252"))
    assert r.returncode == 0 and b"Traceback" not in r.stderr, r.stderr.decode()
    r = _cairn(home, "note", "create", "Wide", data="Ünïcode from PowerShell\r\n".encode("utf-16"))
    assert r.returncode == 0, r.stderr.decode()
    r = _cairn(home, "note", "update", "Latin", "--mode", "append", data="crème brûlée".encode("latin-1"))
    assert r.returncode == 0, r.stderr.decode()
    assert (home / "vault" / "Latin.md").read_text(encoding="utf-8").endswith("café au lait\n\ncrème brûlée\n")
    assert (home / "vault" / "Wide.md").read_text(encoding="utf-8").endswith("Ünïcode from PowerShell\n")
    r = _cairn(home, "note", "create", "Junk", data=bytes(range(256)) * 8)
    assert r.returncode == 1 and b"Traceback" not in r.stderr
    assert r.stderr.decode().startswith("error: the text piped on stdin is not text:"), r.stderr.decode()
    assert not (home / "vault" / "Junk.md").exists()


def test_a_piped_chat_line_in_latin1_keeps_its_letters(tmp_path):
    """`printf 'remember that the caf\\xe9 opens at 8\\n' | cairn chat` remembered "the caf opens
    at 8": the undecodable byte was dropped."""
    home = tmp_path / "home"
    r = _cairn(home, "chat", data="remember that the café opens at 8\n".encode("cp1252"))
    assert r.returncode == 0, r.stderr.decode()
    r = _cairn(home, "memories", data=b"")
    assert "the café opens at 8" in r.stdout.decode(), r.stdout.decode()


def test_the_service_refuses_a_body_holding_an_unpaired_surrogate(tmp_path):
    """A lone surrogate (a JSON "\\udce9" through MCP, a surrogate-escaped byte) cannot be
    written as UTF-8: refused by name, nothing written (it raised UnicodeEncodeError after
    the file was opened)."""
    from cairn.service import Cairn
    with Cairn(tmp_path / "home", embedder=HashEmbedder()) as app:
        with pytest.raises(InvalidInput, match=r"unpaired surrogate \(U\+DCE9\)"):
            app.note_create("Odd", "caf\udce9")
        assert not (app.settings.vault / "Odd.md").exists()
        app.note_create("Even", "fine")
        with pytest.raises(InvalidInput, match=r"U\+D800"):
            app.note_update("Even", "x\ud800", mode="append")
        assert (app.settings.vault / "Even.md").read_text(encoding="utf-8").endswith("fine\n")
