"""Traces (cairn.traces): stages with summaries and milliseconds, saved under traces/,
refused ids that could name another file, the newest KEEP kept."""

from __future__ import annotations

import pytest

from cairn import traces
from cairn.errors import NotFound


def test_stages_saved_loaded_and_failures_recorded(tmp_path):
    seen = []
    t = traces.Trace("answer", {"question": "q" * 500}, listener=seen.append)
    with t.stage("search", {"k": 8}) as out:
        out["hits"] = 3
    with pytest.raises(RuntimeError):
        with t.stage("answer"):
            raise RuntimeError("model went away")
    data = t.save(tmp_path)
    back = traces.load(tmp_path, t.id)
    assert back == data and back["outcome"] == "failed"
    assert [s["name"] for s in back["stages"]] == ["search", "answer"] == [s["name"] for s in seen]
    assert back["stages"][0]["output"] == {"hits": 3} and back["stages"][1]["output"]["error"] == "model went away"
    assert len(back["input"]["question"]) < 250  # summaries, not whole texts
    assert traces.recent(tmp_path)[0]["id"] == t.id
    assert "search" in traces.render(back)


@pytest.mark.parametrize("bad", ["../keys", "..%2Fkeys", "0" * 31, "G" * 32, "", "/etc/passwd"])
def test_ids_that_are_not_trace_ids_are_not_found(tmp_path, bad):
    (tmp_path / "keys.json").write_text("{}")
    with pytest.raises(NotFound):
        traces.load(tmp_path, bad)


def test_only_the_newest_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(traces, "KEEP", 3)
    ids = [traces.Trace("ingest").save(tmp_path)["id"] for _ in range(5)]
    kept = {p.stem for p in (tmp_path / "traces").glob("*.json")}
    assert len(kept) == 3 and ids[-1] in kept
