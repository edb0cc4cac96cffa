"""probe24b: `POST /api/search {"batch": [..., {"id": 2, "query": "\\u0000"}]}` answered 200 with
no hits for the NUL query, while a single query with one (and the same line of `cairn search
--batch`) is refused "the query holds control characters". Each batch query is now checked as
a single one, the error naming its place and id; an empty one still finds nothing."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from cairn.interfaces.rest.app import create_app
from cairn.service import Cairn

H = {"content-type": "application/json"}


def test_a_batch_query_with_a_control_character_is_refused(tmp_path, real_embedder):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('llm = "none"\n')
    with Cairn(home, embedder=real_embedder) as app:
        app.note_create("Shed", "The shed key is under the blue pot.")
    with TestClient(create_app(home, embedder=real_embedder), base_url="http://127.0.0.1",
                    client=("127.0.0.1", 50000)) as c:
        bad = c.post("/api/search", content=json.dumps({"batch": [{"id": 1, "query": "shed"},
                                                                  {"id": 2, "query": "sh\x00ed"}]}), headers=H)
        ok = c.post("/api/search", content=json.dumps({"batch": [{"id": 1, "query": "shed"},
                                                                 {"id": 2, "query": ""}]}), headers=H)
    assert bad.status_code == 400 and "batch[1] (id '2')" in bad.text and "U+0000" in bad.text, bad.text
    assert ok.status_code == 200 and [len(r["hits"]) for r in ok.json()] == [1, 0], ok.text
