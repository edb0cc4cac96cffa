"""Typed results of the service operations that used to return bare dicts and lists.

Every public `cairn.service.Cairn` operation returns an object with one `to_json()`: the JSON
form the CLI prints with --json and the REST API and MCP server return unchanged. Reports and
records that already were dataclasses keep their classes (IngestReport, SyncReport, Answer,
MemoryChange, CoreContext...); the rest are defined here.

Two shapes, both cheap to import (no pydantic: importing it and defining one model costs
~0.4-0.9 s on the 2-core machine, most of a cold start; measured with time.perf_counter
around `from pydantic import BaseModel` plus one class, against plain dataclasses):

- `Record` — a dict with declared keys. It stays a dict (so `result["total"]`, `json.dumps`,
  `==` against a dict and every caller written for the old dict keep working) and adds
  attribute access (`result.total`) and `to_json()`. The declared keys (class annotations)
  are its contract; `Record.keys_declared()` lists them and the tests check each result
  against them.
- `Items` — a list of typed items (Memory, RecalledMemory, LinkView...), whose `to_json()` is
  the list of the items' JSON forms.
"""

from __future__ import annotations

from typing import Any

from cairn.results_base import Items, Record, _json  # noqa: F401 (the shapes, importable from here)


# --------------------------------------------------------------------------- jobs and index
class JobsInfo(Record):
    """`Cairn.jobs()`: job counts by state (and "interrupted") and the jobs
    (store.jobs.JobRow.to_json dicts); `interrupted`: claimed by a process that is gone."""

    counts: dict
    dead: list
    running: list
    interrupted: list
    queued: list


class Status(Record):
    """`Cairn.status()`: where the home, vault and index are, and counts of the index.
    Besides the declared keys it holds every count of store.notes.counts (notes, chunks,
    vectors, missing_vectors, orphan rows...). media: the media pass (pictures, recordings,
    PDFs, parsed after every text note is searchable: store.jobs.media_counts), {"pending",
    "done", "failed"} sources. warnings: what needs the person's action, each naming the
    command that mends it (an index holding no notes over a vault that has some)."""

    home: str
    vault: str
    index: str
    schema_version: int
    keyword_only_chunks: int
    missing_vectors: int
    vector_models: dict
    notes_by_type: dict
    media: dict
    warnings: list


class MemoryRebuild(Record):
    """`Cairn.rebuild_memories()`: rows restored from <vault>/_memory/, and the files that
    could not be read as (path, reason)."""

    memories: int
    entities: int
    core: int
    failed: list


class Reembedded(int):
    """`Cairn.set_fact_keys()`: the number of chunks rewritten and re-embedded (an int)."""

    def to_json(self) -> dict[str, int]:
        return {"reembedded": int(self)}


# --------------------------------------------------------------------------- search
class BatchHits(Record):
    """One line of `Cairn.search_batch()`: the query's id, its hits (Hit.to_json dicts) and
    the warnings of its search."""

    query_id: Any
    hits: list
    warnings: list


class AnswerRow(Record):
    """One line of `Cairn.ask_batch()`: the question's id and its answer's main fields."""

    id: Any
    verdict: str
    answer: str
    citations: list
    mode: str
    llm: Any
    fallback: Any
    problems: list


# --------------------------------------------------------------------------- notes and links
class NotePage(Record):
    """`Cairn.notes_list()`: one page of notes (NoteRow.summary dicts) and the total."""

    total: int
    limit: int
    offset: int
    notes: list


class NoteSummaries(Items):
    """`Cairn.recent_notes()`: {id, path, title} per note, newest first."""


class NoteText(Record):
    """`Cairn.note_show()`: a note and its body (frontmatter left out); input_source: how it
    came in (text, voice, url, file, image, import: cairn.model.input_source_of)."""

    id: str
    path: str
    title: str
    type: str
    tags: list
    aliases: list
    input_source: str
    body: str


class NoteDeleted(Record):
    """`Cairn.note_delete()`: the note that was moved to the vault's .trash, and where."""

    id: str
    path: str
    title: str
    trash_path: str


class NoteLinks(Record):
    """`Cairn.links()`: a note ({id, path, title}), its outgoing links and its backlinks
    (links.LinkView)."""

    note: dict
    outgoing: list
    backlinks: list


class LinkList(Items):
    """`Cairn.unresolved_links()`: links.LinkView items."""


class RemovedExports(Items):
    """`Cairn.cleanup_exports()`: the names of the export files deleted."""


class CoreBlock(Record):
    """`Cairn.core_set()`: the core block as saved (empty text: cleared)."""

    name: str
    text: str


# --------------------------------------------------------------------------- memory
class MemoryList(Items):
    """`Cairn.memories()` and `Cairn.memory_history()`: memory.model.Memory items."""


class NoteContext(Record):
    """`Cairn.note_context()`: the entities a note mentions ({id, name, count}) and its
    related notes ({id, title, path, why, score}), best first."""

    entities: list
    related: list


class ReviewItem(Record):
    """One memory of the review inbox: the memory, its near-duplicates ({"memory", "cosine"})
    and its sources ({"id", "text": the words it came from, or None})."""

    memory: Any
    near: list
    sources: list


class ReviewList(Items):
    """`Cairn.memory_review()`: ReviewItem items, newest first."""


class RecallList(Items):
    """`Cairn.recall()`: memory.model.RecalledMemory items, best first."""


class Entity(Record):
    """`Cairn.entity_alias()`: an entity with all its names."""

    id: str
    name: str
    aliases: list


class EntityList(Items):
    """`Cairn.entities()`: {id, name, kind, aliases, memories, notes} per entity."""


class MergeCandidates(Items):
    """`Cairn.entity_candidates()`: {"id", "question", "similarity", "a", "b"} per pair of
    entities that may be one (graph/candidates.py), most similar first."""


class MergeAnswer(Record):
    """`Cairn.entity_candidate_answer()`: the pair's id, the answer ("yes": merged, "no":
    kept apart and not asked again) and the entity that remains (`kept`: {id, name, aliases};
    for "no", the first of the pair)."""

    id: str
    answer: str
    kept: dict


class EntityDetail(Record):
    """`Cairn.entity_show()`: an entity with the notes ({id, title, path, mentions,
    methods}) and memories ({id, text}) that mention it and the entities mentioned with it
    ({id, name, count, first, last}: co-occurrence count and first/last date)."""

    id: str
    name: str
    kind: str
    aliases: list
    notes: list
    memories: list
    related: list


class EntitySplit(Record):
    """`Cairn.entity_split()`: {"from": the entity that kept its other names, "to": the
    new one}, each an Entity ("from" is a Python keyword, so only "to" is annotated)."""

    to: dict


class ExtractionList(Items):
    """`Cairn.extract()`: service.SessionExtraction items, one per chat session."""


class DiskUsage(Record):
    """`Cairn.disk_usage`: bytes on disk."""

    vault: int
    index: int
    home: int


class TranscriptExtraction(Record):
    """`Cairn.extract_transcript`: what grounded extraction found in an assistant session."""

    facts: int
    memories: dict
    method: str
    problems: list


class MoodState(Record):
    """`Cairn.mood`: the person's mood state decayed to now (context/mood.py): mood
    ("neutral" after a quiet period), energy, intensity in [0, 1], last_signal (the words that
    set it), at (ISO time of that signal), signal_mood/signal_intensity (as stored, before
    decay), rendered (the prompt line; "" when neutral)."""

    mood: str
    energy: str
    intensity: float
    last_signal: str
    at: str
    signal_mood: str
    signal_intensity: float
    rendered: str


class Reflection(Record):
    """`Cairn.reflect`: one reflection pass (context/reflect.py). ran: whether it read and
    wrote anything; reason: why not, or what it did; method "rules" or "llm"; read {"turns",
    "tokens"}; items [{"id", "type", "text", "sources", "due", "action"}]; dropped: reasons
    items were not kept (unsupported by their turns); problems: model failures (the rules
    were used); passes_today and daily_cap."""

    ran: bool
    reason: str
    method: str
    read: dict
    items: list
    dropped: list
    problems: list
    passes_today: int
    daily_cap: int


# --------------------------------------------------------------------------- note history
class NoteHistory(Record):
    """`Cairn.note_history()`: the note ({id, path, title}) and its kept versions, newest
    first, each {"version": int, "at": UTC ISO, "by": who made it, "action", "path",
    "hash": sha256 or null (a delete), "size": bytes}."""

    note: dict
    versions: list


class NoteDiff(Record):
    """`Cairn.note_diff()`: a unified diff from version `version` to the note's current file
    (`against`: "current") — lines starting "-" are in that version only."""

    note: dict
    version: int
    against: str
    diff: str


class HistoryPruned(Record):
    """`Cairn.history_prune()`: how many notes had versions forgotten (`notes`), how many
    versions (`versions`), stored copies removed (`blobs`) and their size on disk (`bytes`,
    compressed), and the rule applied (`keep_versions`, `keep_days`)."""

    notes: int
    versions: int
    blobs: int
    bytes: int
    keep_versions: int
    keep_days: float


class NoteRestored(Record):
    """`Cairn.note_restore()` / `Cairn.undo()`: the note written back ({id, path, title}),
    the version whose bytes it now holds (`version`: null when an undone create removed the
    note), the new version recorded (`recorded`) and what was done (`action`: "restore",
    "undo"; `undid`: the undone entry {note_id, version, action, by, at} for an undo)."""

    note: dict
    version: int
    recorded: int
    action: str
    undid: dict


# --------------------------------------------------------------------------- backups
class BackupTaken(Record):
    """`Cairn.backup()`: the snapshot folder written and how many files its manifest lists."""

    snapshot: str
    files: int


class BackupChecked(Record):
    """`Cairn.backup_verify()`: a snapshot that passed its check."""

    snapshot: str
    created: str
    store: str
    files: int


class BackupRestored(Record):
    """`Cairn.restore()`: the snapshot restored, where the replaced files were moved, how
    many files were restored and the reconcile that followed (SyncReport JSON)."""

    snapshot: str
    previous: str
    files: int
    sync: dict


from cairn.results_engine import *  # noqa: E402,F401,F403 (the engine's results, part of this module)
