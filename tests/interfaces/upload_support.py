"""Shared by the upload tests (test_upload_leftovers.py, test_upload_skipped.py): the text of a
small note to upload, what lies under `<home>/uploads/`, and the web page's application over a
fresh home."""

from __future__ import annotations

import contextlib

from fastapi.testclient import TestClient
from web_site import web_app

from cairn.service import Cairn

TEXT = b"# Kestrels\n\nKestrels hover over the motorway verge at noon.\n"


def upload_files(home) -> list[str]:
    """The files and folders under `home`/uploads, relative to it, sorted."""
    return sorted(p.relative_to(home / "uploads").as_posix() for p in (home / "uploads").rglob("*"))


@contextlib.contextmanager
def web_client(tmp_path, embedder):
    """(home, TestClient) of the web page's routes over a new home `tmp_path`/home (llm "none"),
    from loopback; the Cairn is closed on exit."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    cairn = Cairn(home, embedder=embedder)
    try:
        with TestClient(web_app(cairn), client=("127.0.0.1", 50000)) as c:
            yield home, c
    finally:
        cairn.close()
