"""The typed service contract: every public `Cairn` operation declares a result type with one
`to_json()` (the JSON form every door prints or returns), and what it returns at run time
has that type, its declared keys, and JSON that `json.dumps` accepts. The results that were
dicts and lists stay dicts and lists, so callers written against them keep working."""

from __future__ import annotations

import collections.abc
import inspect
import json
import typing

import pytest

from cairn import results as R
from cairn.service import Cairn

# Members of Cairn that are not operations: its resources and their upkeep, `watch`, which
# runs until stopped and reports through its on_event callback, and `scheduler`, a resource
# (the home's reminder scheduler) the caller runs and closes.
NOT_OPERATIONS = {"conn", "embedder", "vectors", "settings", "close", "database_error_message", "watch",
                  "scheduler", "store", "export_path",  # export_path: the file to stream (a Path)
                  "preload",  # starts loading a resource (the embedder) in the background
                  "note_asset",  # the image file a note page shows (a Path, streamed as export_path)
                  # housekeeping the server and daemon run themselves, no door calls them:
                  "repair_vectors", "backup_daily",
                  "catch_up_notes",  # the entity pass and vectors a chat's note writes left for later
                  "model_resolve"}  # a model name -> its spec (a str) for `/model`, inside the chat loop


def operations() -> list[str]:
    """Public methods of Cairn, its domain mixins' (cairn.ops) included."""
    return sorted(n for n in dir(Cairn) if not n.startswith("_") and n not in NOT_OPERATIONS
                  and callable(getattr(Cairn, n)) and not hasattr(object, n))


def test_every_operation_declares_a_result_with_to_json():
    from cairn.memory.model import CoreContext, MemoryChange
    from cairn.answer import Answer
    from cairn.exports import ExportResult
    from cairn.search.hybrid import SearchResult
    from cairn.enrich import Enrichment
    from cairn.store.vectors import VectorIndex
    from cairn.sync import SyncReport
    from cairn.ingest.worker import WorkerReport
    from cairn.schedule.calendar import CalendarReminders
    from cairn.search.query import ParsedQuery
    extra = {"WorkerReport": WorkerReport, "CoreContext": CoreContext, "MemoryChange": MemoryChange, "SyncReport": SyncReport,
             "ExportResult": ExportResult, "Answer": Answer, "SearchResult": SearchResult,
             "VectorIndex": VectorIndex, "Enrichment": Enrichment, "CalendarReminders": CalendarReminders,
             "ParsedQuery": ParsedQuery}  # names the service imports only for type checking
    hints = {}
    for name in operations():
        fn = getattr(Cairn, name)
        rt = typing.get_type_hints(fn, fn.__globals__ | extra)["return"]
        if typing.get_origin(rt) in (collections.abc.Iterator, collections.abc.Iterable):
            rt = typing.get_args(rt)[0]
        hints[name] = rt
    assert len(hints) >= 30
    assert [n for n, rt in hints.items() if not (inspect.isclass(rt) and hasattr(rt, "to_json"))] == []


@pytest.fixture
def app(tmp_path, hash_embedder):
    with Cairn(tmp_path / "home", embedder=hash_embedder) as a:
        yield a


def check(result, kind):
    assert isinstance(result, kind)
    data = result.to_json()
    json.dumps(data)
    if isinstance(result, R.Record):
        assert set(kind.keys_declared()) <= set(result), f"{kind.__name__} lacks declared keys"
        assert isinstance(result, dict) and result.to_json() == json.loads(json.dumps(data))
    return data


def test_results_at_run_time(app, tmp_path):
    heron = app.note_create("Heron", "The heron nests by the [[Mill]] pond. See [[Nowhere]].", "", ["birds"])
    app.note_create("Mill", "The old mill grinds barley.", "")
    check(heron, type(heron))
    check(app.find_note("Heron"), type(heron))
    page = check(app.notes_list(), R.NotePage)
    assert page["total"] == 2 and app.notes_list().total == 2  # a dict and typed
    shown = check(app.note_show("Heron"), R.NoteText)
    assert shown["body"].startswith("The heron")
    links = check(app.links("Heron"), R.NoteLinks)
    assert [l["target"] for l in links["outgoing"]] == ["Mill", "Nowhere"]
    assert [l["target"] for l in check(app.unresolved_links(), R.LinkList)] == ["Nowhere"]
    check(app.status(), R.Status)
    check(app.jobs(), R.JobsInfo)
    res = app.search("heron", mode="keyword")
    assert check(res, type(res))["hits"][0]["title"] == "Heron"
    rows = list(app.search_batch([("q1", "barley")], mode="keyword"))
    assert check(rows[0], R.BatchHits)["query_id"] == "q1"
    ans = app.ask("Where does the heron nest?", llm="none")
    check(ans, type(ans))
    rows = list(app.ask_batch([("q1", "Where does the heron nest?")], llm="none"))
    assert check(rows[0], R.AnswerRow)["id"] == "q1"
    change = app.remember("Sam lives in Leeds.", at="2025-01-01T10:00:00+00:00")
    check(change, type(change))
    check(app.memories(), R.MemoryList)
    check(app.memory_history(change.memory.id), R.MemoryList)
    check(app.recall("Where does Sam live?"), R.RecallList)
    assert check(app.core_set("style", "  terse  "), R.CoreBlock) == {"name": "style", "text": "terse"}
    check(app.core(), type(app.core()))
    check(app.entity_alias("Sam", "Samuel"), R.Entity)
    check(app.entities(), R.EntityList)
    check(app.rebuild_memories(), R.MemoryRebuild)
    check(app.forget(change.memory.id), type(change))
    check(app.extract(), R.ExtractionList)
    assert check(app.set_fact_keys(True), R.Reembedded) == {"reembedded": 0}
    check(app.sync(), type(app.sync()))
    check(app.note_update("Mill", "It grinds rye now.", "append"), type(heron))
    deleted = check(app.note_delete("Mill"), R.NoteDeleted)
    assert deleted["path"] == "Mill.md"
    note = tmp_path / "in" / "a.md"
    note.parent.mkdir()
    note.write_text("# Alpha\n\nKestrels hover.\n")
    check(app.ingest([note]), type(app.reindex()))
    check(app.ingest_text("Otters play in the weir."), type(heron))
    assert "Otters play in the weir." in [n["title"] for n in check(app.recent_notes("2000-01-01"), R.NoteSummaries)]
