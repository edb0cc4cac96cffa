"""probe24b: over `POST /chat`, `"session": ""` quietly continued the current session, and a slash
command of `cairn chat` reached the assistant as words ("/new": "What should the note be
called?"; "/quit": "There is nothing waiting for your approval."). Both are 400s naming the
problem (and what HTTP has instead); a message that merely starts with a slash is a message."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from cairn.interfaces.rest.app import create_app

H = {"content-type": "application/json"}


def test_rest_chat_refuses_an_empty_session_and_commands(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    with TestClient(create_app(home), base_url="http://127.0.0.1", client=("127.0.0.1", 50000)) as c:
        empty = c.post("/chat", content=json.dumps({"message": "hi", "session": ""}), headers=H)
        new = c.post("/chat", content=json.dumps({"message": "/new"}), headers=H)
        quit_ = c.post("/chat", content=json.dumps({"message": " /QUIT "}), headers=H)
        path = c.post("/chat", content=json.dumps({"message": "/etc/hosts holds what?"}), headers=H)
    assert empty.status_code == 400 and "session id is empty" in empty.text, empty.text
    assert new.status_code == 400 and '"new": true' in new.json()["message"], new.text
    assert quit_.status_code == 400 and "/quit is a command" in quit_.text, quit_.text
    assert path.status_code == 200 and "event: result" in path.text, path.text
