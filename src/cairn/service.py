"""The application service: the one set of functions every interface calls.

The CLI (and later the REST API, bot and MCP server) are thin adapters over `Cairn`; no
logic lives in them. `Cairn` owns the settings, the index connection, the vector index and
the (lazily loaded) embedder for one home folder.

    from cairn.service import Cairn
    app = Cairn("~/.cairn")
    app.ingest([Path("~/notes")])
    print(app.search("boiler pressure").hits[0].title)
    print(app.ask("When was the boiler serviced?", llm="none").answer)
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from cairn import results as R
from cairn.config import HomeNotWritable, Settings, load_settings, write_problem
from cairn.errors import InvalidInput
from cairn.report import IngestReport, Progress
from cairn.store import db
from cairn.store import notes as N
from cairn.validate import check_question, check_since, clean_id

# The layers below (ingest, answer, memory, the vector index, numpy) are imported by the
# operations that use them, so a command pays only for what it runs: a cold
# `cairn search --mode keyword` imports no numpy, httpx or LLM code (tests/test_cold_start.py).
if TYPE_CHECKING:
    import threading

    from cairn.answer import Answer
    from cairn.exports import ExportResult
    from cairn.search.hybrid import SearchResult
    from cairn.store.vectors import VectorIndex
    from cairn.memory.model import CoreContext, MemoryChange
    from cairn.sync import SyncReport


class Cairn:
    """Cairn for one home folder (`home`: path, or None for $CAIRN_HOME / ~/.cairn).

    embedder: optional object with `embed(list[str]) -> (n, dim) array` and `model_name`
    (tests pass a counting wrapper); by default the packaged all-MiniLM-L6-v2.
    """

    def __init__(self, home: str | Path | None = None, *, embedder=None, settings: Settings | None = None):
        self.settings = settings or load_settings(home)
        self.settings.ensure_dirs()
        self._conn: sqlite3.Connection | None = None
        self._embedder = embedder
        self._vectors: VectorIndex | None = None
        self._alias_cache: tuple[tuple[int, int], frozenset[str]] | None = None  # (index state, aliases)
        from cairn.events import bus_for
        self.events = bus_for(self.settings.home)  # typed events of this home (cairn.events)
        self._pending_cache: tuple[tuple[int, int], int] | None = None  # (index state, vectors pending)

    # ------------------------------------------------------------------ resources
    @property
    def conn(self) -> sqlite3.Connection:
        """The index connection, opened on first use. Raises HomeNotWritable when the index
        cannot be opened because its folder is not writable, IndexOpenError otherwise."""
        if self._conn is None:
            try:
                self._conn = db.connect(self.settings.index_path)
            except (db.IndexOpenError, sqlite3.OperationalError, PermissionError) as exc:
                folder = self.settings.index_path.parent
                reason = write_problem(folder) if folder.is_dir() else None
                if reason:
                    raise HomeNotWritable(folder, reason) from exc
                raise
        return self._conn

    @property
    def embedder(self):
        if self._embedder is None:
            from cairn.embed import get_embedder
            self._embedder = get_embedder(self.settings.embedder)
        return self._embedder

    @property
    def vectors(self) -> VectorIndex:
        if self._vectors is None:
            from cairn.store.vectors import VectorIndex
            self._vectors = VectorIndex(self.conn, self.settings.home)
        return self._vectors

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            self._vectors = None
            self._alias_cache = None  # its index state belongs to the closed connection
            self._pending_cache = None

    def database_error_message(self, exc: sqlite3.OperationalError) -> str:
        """One line for a SQLite error met while using the index, for any adapter to show:
        busy/locked (another process held the lock past the 10 s timeout), read-only (names
        the unwritable file and the fix: store/writable.py), or SQLite's own message."""
        if "locked" in str(exc) or "busy" in str(exc):
            return (f"the index {self.settings.index_path} is busy: another Cairn process kept it "
                    f"locked for more than 10 s ({exc}); nothing was lost — try again")
        from cairn.store.writable import is_readonly_error, readonly_message
        if is_readonly_error(exc):
            return readonly_message(self.settings.index_path, exc)
        return f"index database error: {exc}"

    def __enter__(self) -> "Cairn":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------ ingest
    def ingest(self, paths: Iterable[str | Path], progress: Progress | None = None) -> IngestReport:
        """Ingest files/folders and URLs (str "https://..."), see ingest.ingest_paths.
        Publishes ingest.* / note.* events and saves a trace (`report.trace_id`)."""
        from cairn.ingest import ingest_paths, is_url
        sources: list[Path | str] = [p if isinstance(p, str) and is_url(p) else Path(p).expanduser()
                                     for p in paths]
        return self._traced_ingest("ingest", [str(s) for s in sources], progress,
                                   lambda prog: ingest_paths(self.conn, self.settings, sources, self.embedder, prog))

    def _traced_ingest(self, op: str, sources: list[str], progress, run) -> IngestReport:
        """Run `run(progress)` (an ingest-like operation returning an IngestReport) with
        events (ingest.started/progress/done/failed, note.created/changed, job.dead_lettered)
        and a trace whose stages are the progress phases. The report gets `trace_id`."""
        from cairn.events import ProgressEvents
        from cairn.store import jobs as J
        from cairn.traces import Trace
        trace = Trace("ingest", {"op": op, "sources": sources[:20], "count": len(sources)})
        self.events.publish("ingest.started", {"op": op, "sources": sources[:20], "trace_id": trace.id})
        dead_before = {j.id for j in J.by_state(self.conn, "dead")}
        prog = ProgressEvents(self.events, op, progress)
        try:
            report = run(prog)
        except BaseException as exc:
            trace.outcome = "failed"
            trace.add(op, {"sources": len(sources)}, {"error": str(exc) or type(exc).__name__}, 0.0)
            trace.save(self.settings.home)
            self.events.publish("ingest.failed", {"op": op, "error": str(exc) or type(exc).__name__,
                                                 "trace_id": trace.id})
            raise
        for phase, (t0, t1, total) in prog.phases.items():
            trace.add(phase, {"items": total}, {}, (t1 - t0) * 1000)
        trace.add("report", {}, report.to_json(), 0.0)
        trace.outcome = "failed" if report.failed else "ok"
        report.trace_id = trace.save(self.settings.home)["id"]
        for name in report.added:
            self.events.publish("note.created", {"name": str(name), "via": op})
        for name in report.updated:
            self.events.publish("note.changed", {"name": str(name), "via": op})
        for name, reason in report.failed:
            self.events.publish("ingest.failed", {"op": op, "name": str(name), "error": reason,
                                                 "trace_id": trace.id})
        for job in J.by_state(self.conn, "dead"):
            if job.id not in dead_before:
                self.events.publish("job.dead_lettered", job.to_json())
        self.events.publish("ingest.done", {"op": op, **report.to_json(), "trace_id": trace.id})
        return report

    # --- jobs, url ingest
    def jobs(self, limit: int = 50) -> R.JobsInfo:
        """The job queue: {"counts": {state: n, "interrupted": n}, "dead": [job dicts, oldest
        first], "running": [job dicts of live processes], "interrupted": [job dicts claimed by
        a process that is gone (a crash): `cairn jobs run` resumes them], "queued": [up to
        `limit` job dicts]} (see store.jobs.JobRow). Nothing is changed."""
        from cairn.jobs import process_alive
        from cairn.store import jobs as J
        claimed = J.by_state(self.conn, "running")
        alive = [j for j in claimed if process_alive(j.owner_pid or 0, j.owner_start)]
        gone = [j for j in claimed if j not in alive]
        counts = J.counts(self.conn)
        counts["running"] -= len(gone)
        counts["interrupted"] = len(gone)
        return R.JobsInfo(counts=counts,
                          dead=[j.to_json() for j in J.by_state(self.conn, "dead")],
                          running=[j.to_json() for j in alive],
                          interrupted=[j.to_json() for j in gone],
                          queued=[j.to_json() for j in J.by_state(self.conn, "queued", limit)])

    def jobs_run(self, progress: Progress | None = None) -> IngestReport:
        """Resume pending work: requeue jobs of dead processes, run every queued job, then
        embed chunks that lack vectors."""
        from cairn.ingest import run_jobs
        return self._traced_ingest("jobs.run", [], progress, lambda prog: run_jobs(
            self.conn, self.settings, self.embedder, IngestReport(), progress=prog))

    def jobs_retry(self, ids: list[int] | None, progress: Progress | None = None) -> IngestReport:
        """Requeue dead letters (`ids`, or all of them when None) and run the queue.
        Raises ValueError naming ids that are not dead letters."""
        from cairn.store import jobs as J
        if ids is not None:
            bad = [i for i in ids if (j := J.get(self.conn, i)) is None or j.state != "dead"]
            if bad:
                states = {i: (J.get(self.conn, i).state if J.get(self.conn, i) else "no such job") for i in bad}
                raise InvalidInput("not a dead letter: " + ", ".join(f"job {i} ({st})" for i, st in states.items())
                                 + " — `cairn jobs` lists the dead letters")
        J.requeue_dead(self.conn, ids)
        from cairn.ingest import run_jobs
        return self._traced_ingest("jobs.retry", [str(i) for i in ids or []], progress, lambda prog: run_jobs(
            self.conn, self.settings, self.embedder, IngestReport(), progress=prog))

    def import_file(self, importer: str, path: str | Path, progress: Progress | None = None,
                    **options) -> IngestReport:
        """Run the importer registered as `importer` (the `register_importers` hook; built-ins
        "notes" and "chat": cairn.builtin_plugins.importers) on the file `path`. Raises NotFound naming the
        registered importers for an unknown name."""
        from cairn.errors import NotFound
        from cairn.registries import importers
        table = importers()
        if importer not in table:
            raise NotFound(f"no importer {importer!r}; registered: {', '.join(sorted(table))}")
        return table[importer](self, Path(path), progress, **options)

    def import_notes(self, path: str | Path, progress: Progress | None = None) -> IngestReport:
        """Import a JSONL file of notes (see ingest.import_notes_jsonl)."""
        return self.import_file("notes", path, progress)

    def import_chat(self, path: str | Path, progress: Progress | None = None, *,
                    extract: bool | None = None, llm: str | None = None) -> "ChatImportReport":
        """Import a JSONL chat transcript (see ingest.import_chat_jsonl), then extract facts
        from the imported sessions and store them as fact keys before embedding.
        extract: None = `[memory] extract_on_import` (default on). llm: extraction model
        spec (None = `[memory] extract_llm`, default "none" = rules). The report's
        `extracted` says whether extraction ran (not for a file without messages)."""
        do_extract = self.settings.memory.extract_on_import if extract is None else extract
        extractions: list[SessionExtraction] = []
        model = _extraction_llm(self.settings, llm) if do_extract else None  # bad spec: fail first

        ran: list[bool] = []  # the hook is not called for a file without messages

        def hook(note_ids: list[str]) -> None:
            ran.append(True)
            extractions.extend(self._extract_notes(note_ids, model, embed=False))

        report = self.import_file("chat", path, progress, after_index=hook if do_extract else None)
        return ChatImportReport(**vars(report), extractions=extractions, extracted=bool(ran))

    def reindex(self, progress: Progress | None = None) -> IngestReport:
        """Rebuild the index from the vault alone."""
        from cairn.ingest import reindex
        return self._traced_ingest("reindex", [], progress,
                                   lambda prog: reindex(self.conn, self.settings, self.embedder, prog))

    def status(self) -> R.Status:
        """Counts and health of the index (notes, chunks, vectors, missing rows)."""
        c = N.counts(self.conn)
        keyword_only = self.conn.execute(
            "SELECT count(*) FROM chunks WHERE ord >= ?", (self.settings.chunk.embed_max_chunks,)).fetchone()[0]
        c["keyword_only_chunks"] = keyword_only
        c["missing_vectors"] = max(0, c["missing_vectors"] - keyword_only)
        by_type = dict(self.conn.execute("SELECT type, count(*) FROM notes GROUP BY type").fetchall())
        c["vector_models"] = dict(self.conn.execute(
            "SELECT model, count(*) FROM vectors GROUP BY model").fetchall())
        return R.Status({"home": str(self.settings.home), "vault": str(self.settings.vault),
                         "index": str(self.settings.index_path), "schema_version": db.schema_version(self.conn),
                         **c, "notes_by_type": by_type})

    # ------------------------------------------------------------------ search
    def search(self, query: str, *, k: int | None = None, mode: str = "hybrid", fusion: str | None = None,
               types: list[str] | None = None, since: str | None = None, group: bool = True) -> SearchResult:
        """Hybrid search (see search.hybrid.search). Raises InvalidInput for a bad mode, fusion,
        type or `since` (not an ISO date: validate.check_since)."""
        check_since(since)
        from cairn.search.hybrid import search
        needs_vectors = mode in ("hybrid", "semantic")
        res = search(self.conn, self.vectors if needs_vectors else None,
                     self.embedder if needs_vectors else None, query,
                     k=k or self.settings.search.k, mode=mode,
                     fusion=fusion or self.settings.search.fusion, types=types,
                     since=since, settings=self.settings.search, group=group)
        if needs_vectors:
            res.vectors_pending = self._vectors_pending()
            if res.vectors_pending:
                res.warnings.append(
                    f"{res.vectors_pending} chunk(s) are not embedded yet, so results by meaning are "
                    "incomplete (embedding runs after ingest; `cairn jobs run` finishes it)")
        return res

    def _vectors_pending(self) -> int:
        """Chunks that should have a vector and do not yet (two-phase ingest: text is
        searchable first): eligible chunks minus the vectors the loaded index holds. Cached
        per index state (store.db.index_state), so a warm search pays nothing."""
        from cairn.store.db import index_state
        state = index_state(self.conn)
        if self._pending_cache is None or self._pending_cache[0] != state:
            have = len(self.vectors)
            # count(*) of all chunks reads the smallest index (0.2 ms at 6k chunks); the exact
            # count of eligible chunks scans one (3 ms at 6k): only when vectors are short.
            pending = self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0] - have
            if pending > 0:
                eligible = self.conn.execute("SELECT count(*) FROM chunks WHERE ord < ?",
                                             (self.settings.chunk.embed_max_chunks,)).fetchone()[0]
                pending = eligible - have
            self._pending_cache = (state, max(0, pending))
        return self._pending_cache[1]

    def search_batch(self, queries: Iterable[tuple[str, str]], **kwargs) -> Iterator[R.BatchHits]:
        """Run many queries: yields {"query_id", "hits", "warnings"} per (id, query)."""
        for qid, query in queries:
            res = self.search(query, **kwargs)
            yield R.BatchHits({"query_id": qid, **res.to_json()})

    # ------------------------------------------------------------------ answer
    def ask(self, question: str, *, llm: str | None = None, k: int = 8, trace=None) -> Answer:
        """Answer with checked citations. llm: "none", "embedded", "openai:BASE_URL:MODEL"
        or None for the configured/default one. A question naming one chat participant
        also gets a second search without the name, for the person check
        (answer/answerability.py). Raises InvalidInput for an empty question or a bad llm spec.
        trace: a cairn.traces.Trace to record the stages in (default: a new one); it is
        saved under <home>/traces and its id set as `answer.trace_id`. Publishes
        answer.produced."""
        check_question(question)
        from cairn.llm import default_llm_spec, get_llm
        from cairn.traces import Trace
        trace = trace or Trace("answer", {"question": question})
        trace.input = trace.input or {"question": question}
        try:
            ans = self._ask(question, llm, k, trace, get_llm, default_llm_spec)
        except BaseException:
            trace.save(self.settings.home)
            raise
        ans.trace_id = trace.save(self.settings.home)["id"]
        self.events.publish("answer.produced", {"question": question[:200], "verdict": ans.verdict,
                                               "citations": len(ans.citations), "trace_id": ans.trace_id})
        return ans

    def _ask(self, question, llm, k, trace, get_llm, default_llm_spec) -> Answer:
        from cairn.answer import answer_question
        from cairn.answer.answerability import CONTEXT_K, named_people, strip_people
        from cairn.answer.offtopic import unknown_terms
        from cairn.answer.premise import question_names, unknown_names
        from cairn.search.hybrid import document_frequency
        with trace.stage("model", {"llm": llm}) as out:
            spec = llm or self.settings.llm or default_llm_spec()
            model = get_llm(spec)
            out["llm"] = getattr(model, "name", None) or spec
        with trace.stage("search", {"question": question, "k": k}) as out:
            res = self.search(question, k=k, group=False)
            out.update(hits=len(res.hits), top=[h.title for h in res.hits[:3]], warnings=res.warnings)
        # The person check (answer/answerability.py) also looks at who else the topic
        # belongs to: the same search without the named person's name.
        context = None
        people = named_people(question, res.hits)
        if len(people) == 1:
            topic = strip_people(question, people)
            if topic:
                with trace.stage("context_search", {"person": sorted(people)[0], "topic": topic}) as out:
                    context = self.search(topic, k=max(k, CONTEXT_K), group=False).hits
                    out["hits"] = len(context)
        # The premise check (answer/premise.py): names in the question that no chunk holds.
        df = lambda w, prefix: document_frequency(self.conn, w, prefix)  # noqa: E731
        with trace.stage("premise", {"question": question}) as out:
            known = {h.speaker for h in res.hits + (context or []) if h.speaker}
            if question_names(question, known):
                known |= self._aliases()
            unknown = unknown_names(question, df, exclude=known)
            out["unknown_names"] = sorted(unknown) if unknown else []
            # the off-topic check (answer/offtopic.py): key terms no chunk holds
            terms = unknown_terms(question, df)
            out["unknown_terms"] = terms
        with trace.stage("answer", {"evidence_hits": len(res.hits)}) as out:
            ans = answer_question(question, res.hits, self.embedder, model,
                                  floor=self.settings.search.answer_floor, context=context,
                                  unknown_names=unknown, unknown_terms=terms)
            ans.problems.extend(res.warnings)
            out.update(verdict=ans.verdict, mode=ans.mode, citations=len(ans.citations),
                       problems=ans.problems[:5])
        return ans

    def ask_batch(self, questions: Iterable[tuple[str, str]], *, llm: str | None = None,
                  k: int = 8) -> Iterator[dict]:
        """Answer many questions in this process: yields, per (id, question), {"id",
        "verdict", "answer", "citations", "mode", "llm", "fallback", "problems"} (citations as
        in `Answer.citations`: source_id, path, page, quote, ...). Same checks as `ask`."""
        for qid, question in questions:
            ans = self.ask(question, llm=llm, k=k)
            row = ans.to_json()
            yield {"id": qid, **{key: row[key] for key in ("verdict", "answer", "citations", "mode", "llm",
                                                           "fallback", "problems")}}

    def _aliases(self) -> frozenset[str]:
        """Every alias of a note (frontmatter `aliases`) or of a memory entity: names the
        premise check must treat as known even where no chunk's text holds them. Read once
        per index state (`db.index_state`, as search's term statistics): any write to the
        index, on this connection or another, reads them again."""
        state = db.index_state(self.conn)
        if self._alias_cache is None or self._alias_cache[0] != state:
            self._alias_cache = (state, frozenset(self._read_aliases()))
        return self._alias_cache[1]

    def _read_aliases(self) -> set[str]:
        """The aliases of `_aliases`, read from the index."""
        out: set[str] = set()
        for (raw,) in self.conn.execute("SELECT aliases FROM notes WHERE aliases != '[]'"):
            try:
                out.update(str(a) for a in json.loads(raw) if a)
            except (ValueError, TypeError):
                continue
        out.update(a for (a,) in self.conn.execute("SELECT alias FROM aliases"))
        return out

    # --- memory (src/cairn/memory, docs/memory.md) ----------------------------------------
    @staticmethod
    def _when(at):
        """None -> None (now), a datetime as is, an ISO string parsed (ValueError if bad)."""
        from cairn.memory.temporal import parse_time
        return parse_time(at) if isinstance(at, str) else at

    def remember(self, text: str, *, kind: str | None = None, scope: str = "global", at=None,
                 source: str = "user", source_ids=(), entities=(), event_time: str | None = None,
                 confidence: float | None = None, importance: float | None = None) -> "MemoryChange":
        """Store a memory (see memory.store.remember); `at`: when it was said (ISO string or
        datetime, default now) — relative dates resolve against it. Returns a MemoryChange;
        ValueError for empty text, unknown kind, bad time."""
        from cairn.memory import remember
        change = remember(self.conn, self.embedder, text, kind=kind, scope=scope, source=source,
                          source_ids=source_ids, entities=entities, event_time=event_time,
                          confidence=confidence, importance=importance, now=self._when(at),
                          vault=self.settings.vault)
        kind_of = {"add": "memory.added", "supersede": "memory.superseded"}.get(change.action)
        if kind_of:
            self.events.publish(kind_of, {"id": change.memory.id, "text": change.memory.text[:200],
                                          "previous": change.previous.id if change.previous else None})
        return change

    def memories(self, *, kind: str | None = None, scope: str | None = None,
                 include_inactive: bool = False) -> R.MemoryList:
        """Memories (active ones, or all with include_inactive), see memory.list_memories."""
        from cairn.memory import list_memories
        return R.MemoryList(list_memories(self.conn, kind=kind, scope=scope, include_inactive=include_inactive))

    def memory_history(self, memory_id: str) -> R.MemoryList:
        """The supersession chain through a memory, oldest first (MemoryNotFound if unknown)."""
        from cairn.memory import history
        return R.MemoryList(history(self.conn, clean_id(memory_id)))

    def forget(self, memory_id: str, *, at=None) -> "MemoryChange":
        """Tombstone a memory; returns a MemoryChange: action "forget", or "none" when it was
        already forgotten (memory.store.forget_change). MemoryNotFound (a ValueError) names
        an unknown id."""
        from cairn.memory.store import forget_change
        change = forget_change(self.conn, clean_id(memory_id), now=self._when(at), vault=self.settings.vault)
        if change.action == "forget":
            self.events.publish("memory.forgotten", {"id": change.memory.id})
        return change

    def recall(self, query: str, *, scope: str | None = None, k: int = 10, at=None,
               include_history: bool = False) -> R.RecallList:
        """Ranked memories with score breakdowns (see memory.recall for the formula)."""
        from cairn.memory import recall
        return R.RecallList(recall(self.conn, self.embedder, query, scope=scope, k=k, now=self._when(at),
                      include_history=include_history, settings=self.settings.memory,
                      vault=self.settings.vault))

    def core(self, *, scope: str | None = None, at=None) -> "CoreContext":
        """Core blocks plus the top memories (what an assistant puts in its prompt)."""
        from cairn.memory import core_context
        return core_context(self.conn, scope=scope, limit=self.settings.memory.core_limit,
                            now=self._when(at))

    def core_set(self, name: str, text: str) -> R.CoreBlock:
        """Create/replace a core block (empty text clears it); returns it as saved."""
        from cairn.memory import set_core_block
        set_core_block(self.conn, name, text, vault=self.settings.vault)
        return R.CoreBlock(name=name, text=text.strip())

    def entity_alias(self, name: str, alias: str) -> R.Entity:
        """Join ALIAS to the entity NAME (merging entities if both exist)."""
        from cairn.memory import add_alias
        return R.Entity(add_alias(self.conn, name, alias, vault=self.settings.vault))

    def entities(self) -> R.EntityList:
        """Every entity with its aliases and number of linked memories."""
        from cairn.memory.entities import list_entities
        return R.EntityList(list_entities(self.conn))

    def rebuild_memories(self) -> R.MemoryRebuild:
        """Restore the memory tables from <vault>/_memory/ (also done by reindex)."""
        from cairn.memory import rebuild_memories
        return R.MemoryRebuild(rebuild_memories(self.conn, self.settings.vault, self.embedder))
    # ------------------------------------------------------------------ sync, watch, links, notes
    def sync(self, paths: Iterable[str | Path] | None = None) -> "SyncReport":
        """Reconcile the vault with the index (see sync.reconcile); paths: only these."""
        from cairn.sync import reconcile
        return reconcile(self.conn, self.settings, _LazyEmbedder(self), paths)

    def watch(self, stop: "threading.Event", on_event=None, raise_interrupt: bool = False) -> None:
        """Watch the vault and the `[sync] inbox` folders until `stop` is set (see
        watch.watch; runs on its own index connection, so it may run in a thread)."""
        from cairn.ingest import ingest_paths
        from cairn.watch import watch

        def ingest(conn, files):
            return ingest_paths(conn, self.settings, files, self.embedder, skip_tombstoned=True, embed=False)

        watch(self.settings, _LazyEmbedder(self), stop, ingest=ingest, on_event=on_event,
              raise_interrupt=raise_interrupt)

    def find_note(self, ref: str) -> N.NoteRow:
        """The note `ref` names (id, vault path, file name, title or alias). Raises
        links.NoteNotFound / links.AmbiguousNote (both ValueError)."""
        from cairn.links import find_note
        return find_note(self.conn, ref)

    def links(self, ref: str) -> R.NoteLinks:
        """{"note": {id, path, title}, "outgoing": [LinkView], "backlinks": [LinkView]}."""
        from cairn.links import Resolver, backlinks, find_note, outgoing
        note = find_note(self.conn, ref)
        resolver = Resolver.from_db(self.conn)
        return R.NoteLinks(note={"id": note.id, "path": note.path, "title": note.title},
                           outgoing=outgoing(self.conn, note.id, resolver),
                           backlinks=backlinks(self.conn, note.id, resolver))

    def unresolved_links(self) -> R.LinkList:
        """Every link whose target matches no note (links.LinkView, by source path)."""
        from cairn.links import unresolved
        return R.LinkList(unresolved(self.conn))

    def note_create(self, title: str, body: str, folder: str = "", tags: list[str] | None = None) -> N.NoteRow:
        """Write and index a new note (see noteops.create_note)."""
        from cairn.noteops import create_note
        note = create_note(self.conn, self.settings, self.embedder, title, body, folder, tags)
        self.events.publish("note.created", {"id": note.id, "path": note.path, "title": note.title})
        return note

    def notes_list(self, *, type: str | None = None, tag: str | None = None, limit: int = 50,
                   offset: int = 0) -> R.NotePage:
        """One page of notes: {"total", "limit", "offset", "notes": [NoteRow.summary()]}.
        Raises InvalidInput for a negative offset or a limit outside 1..1000."""
        from cairn.errors import InvalidInput
        if not 1 <= limit <= 1000:
            raise InvalidInput(f"limit must be between 1 and 1000, got {limit}")
        if offset < 0:
            raise InvalidInput(f"offset must be 0 or more, got {offset}")
        total, rows = N.list_notes(self.conn, type=type, tag=tag, limit=limit, offset=offset)
        return R.NotePage(total=total, limit=limit, offset=offset, notes=[r.summary() for r in rows])

    def ingest_text(self, text: str, title: str | None = None, *, folder: str = "inbox",
                    tags: list[str] | None = None) -> N.NoteRow:
        """Store raw text or markdown as a new note (title: given, else the first line, cut to
        80 characters). Raises InvalidInput for empty text, NoteConflict for a taken title."""
        from cairn.errors import InvalidInput
        if not text or not text.strip():
            raise InvalidInput("the text is empty")
        if not title or not title.strip():
            first = next(line for line in text.strip().splitlines() if line.strip())
            title = first.lstrip("# ").strip()[:80] or "note"
        return self.note_create(title.strip(), text, folder, tags)

    def recent_notes(self, since: str, limit: int = 10) -> R.NoteSummaries:
        """Notes indexed since `since` (UTC ISO), newest first: [{"id", "path", "title"}]."""
        return R.NoteSummaries(N.recent_notes(self.conn, since, limit))

    def scheduler(self, *, interactive: bool = False, notifiers: list | None = None):
        """The reminder scheduler of this home (cairn.schedule.scheduler.Scheduler) with the
        built-in jobs (digest, export-cleanup, sync). The caller closes it."""
        from cairn.schedule.jobs import BUILTIN_JOBS
        from cairn.schedule.scheduler import Scheduler
        return Scheduler(self.settings, notifiers, interactive=interactive, jobs=BUILTIN_JOBS)

    def note_show(self, ref: str) -> R.NoteText:
        """{id, path, title, type, tags, aliases, body} of the note `ref` names."""
        from cairn.noteops import read_note
        return R.NoteText(read_note(self.conn, self.settings, self.embedder, ref))

    def note_update(self, ref: str, body: str, mode: str = "overwrite") -> N.NoteRow:
        """Overwrite or append to a note's body (see noteops.update_note)."""
        from cairn.noteops import update_note
        note = update_note(self.conn, self.settings, self.embedder, ref, body, mode)
        self.events.publish("note.changed", {"id": note.id, "path": note.path, "title": note.title})
        return note

    def note_delete(self, ref: str) -> R.NoteDeleted:
        """Move a note to the vault's .trash and drop it from the index, with a tombstone."""
        from cairn.noteops import delete_note
        info = R.NoteDeleted(delete_note(self.conn, self.settings, self.embedder, ref))
        self.events.publish("note.deleted", {"id": info.get("id"), "path": info.get("path")})
        return info

    # --- export (exports.py, docs/cli.md#cairn-export) ------------------------------------
    def export(self, *, ids: list[str] | None = None, tag: str | None = None, type: str | None = None,
               since: str | None = None, until: str | None = None, query: str | None = None,
               format: str | None = None, name: str | None = None, k: int = 20) -> "ExportResult":
        """Export the selected notes to a new file under `<home>/exports/` (it expires):
        one note as markdown; several as text, json or zip. Select by note references `ids`,
        a search `query` (top `k` hits), or all notes; narrowed by `tag`, `type` and the
        inclusive days `since` / `until` (YYYY-MM-DD). See exports.export_notes for errors."""
        from cairn.exports import export_notes
        return export_notes(self, ids=ids, tag=tag, type=type, since=since, until=until, query=query,
                            format=format, name=name, k=k)

    def export_path(self, name: str) -> Path:
        """The file of export `name` (an ExportResult's name) if it is still there and has not
        expired. InvalidInput for an unsafe name, NotFound otherwise (exports.resolve_export)."""
        from cairn.exports import resolve_export
        return resolve_export(self.settings.home, name)

    def cleanup_exports(self, max_age: float | None = None) -> list[str]:
        """Delete export files older than `max_age` seconds (default 24 h); returns their
        names. `cairn serve` runs it hourly (exports.cleanup_exports)."""
        from cairn.exports import DEFAULT_MAX_AGE, cleanup_exports
        return cleanup_exports(self.settings.home, DEFAULT_MAX_AGE if max_age is None else max_age)


    # --- extraction ------------------------------------------------------------------
    # Fact extraction from chat sessions and fact-augmented keys (memory/extract.py, keys.py).
    def _extract_notes(self, note_ids: list[str], model: tuple, *, embed: bool = True) -> list[SessionExtraction]:
        """Extract from chat notes `note_ids` with `model` = (llm or None, problem or None)
        from `_extraction_llm`; store the fact keys; re-embed changed messages if `embed`."""
        from cairn.memory.extract import extract_facts
        from cairn.ingest import embed_missing
        from cairn.memory.keys import facts_by_source, store_fact_keys
        model, problem = model
        out = []
        for note_id in note_ids:  # 1. facts and search keys of every session
            note = N.get_note(self.conn, note_id)
            if note is None:
                continue
            res = extract_facts(_session_messages(self.conn, note_id), model)
            if problem:
                res.problems.insert(0, problem)
            upd = store_fact_keys(self.conn, note_id, facts_by_source(res.facts), res.method,
                                  apply=self.settings.memory.fact_keys)
            out.append(SessionExtraction(note_id, note.path, note.title, res, upd, {}))
        if embed and any(e.keys.rewritten_chunks for e in out):  # 2. before the memory step can fail
            embed_missing(self.conn, self.embedder, None, self.settings.chunk.embed_max_chunks,
                          fact_keys=self.settings.memory.fact_keys)
        if self.settings.memory.store_extracted:  # 3. the memory store
            for e in out:
                e.memories = self._remember_facts(e.result)
        return out

    def _remember_facts(self, res) -> dict[str, int]:
        """Store each extracted fact in the memory store (memory.store.remember) as said at its
        first message's time, with its message ids as provenance; a restated fact reinforces
        and a contradicting one supersedes, as for `cairn remember`. Returns counts per
        action ("add", "reinforce", "supersede", "none"); a fact the store refuses is added to
        `res.problems` (never dropped silently)."""
        from cairn.memory import remember, resolve_event_time
        from cairn.memory.temporal import parse_time
        counts: dict[str, int] = {}
        for fact in res.facts:
            try:
                said = parse_time(fact.said_at) if fact.said_at else None
                # The extractor already wrote the absolute date into the text; take the event
                # time from it without rewriting the text a second time.
                event_time = resolve_event_time(fact.text, said)[0] if said else None
                change = remember(self.conn, self.embedder, fact.text, kind=fact.kind,
                                  event_time=event_time,
                                  source=fact.source_ids[0] if fact.source_ids else "chat",
                                  source_ids=fact.source_ids, entities=fact.entities,
                                  confidence=fact.confidence, now=said, vault=self.settings.vault)
            except ValueError as exc:
                res.problems.append(f"memory store refused {fact.text!r}: {exc}")
                continue
            counts[change.action] = counts.get(change.action, 0) + 1
        return counts

    def extract(self, target: str | None = None, *, llm: str | None = None) -> R.ExtractionList:
        """Extract facts from chat sessions and store them as fact-augmented keys.

        target: None = every chat session; a conversation name (all its sessions); a chat note id
        or vault path. llm: "none" (rule-based extractor), "embedded", "openai:BASE_URL:MODEL",
        or None for `[memory] extract_llm` ("none" by default). Returns one SessionExtraction per
        session (facts with source ids, method, problems). Raises ValueError for an unknown
        target or a malformed llm spec; model failures are reported in each result's problems.
        Messages whose keys changed are re-embedded before returning.
        """
        model = _extraction_llm(self.settings, llm)
        return R.ExtractionList(self._extract_notes(_chat_note_ids(self.conn, target), model))

    def set_fact_keys(self, enabled: bool) -> R.Reembedded:
        """Index chat messages with (True) or without (False) their stored facts, for this
        process (benchmark A/B; the lasting switch is `[memory] fact_keys`). Returns the number
        of chunks rewritten and re-embedded."""
        from cairn.ingest import embed_missing
        from cairn.memory.keys import apply_setting
        self.settings.memory.fact_keys = enabled
        n = apply_setting(self.conn, enabled)
        embed_missing(self.conn, self.embedder, None, self.settings.chunk.embed_max_chunks, fact_keys=enabled)
        return R.Reembedded(n)
    # --- end extraction --------------------------------------------------------------

class _LazyEmbedder:
    """Stands in for `Cairn.embedder` and loads the model only when first used (a sync
    that finds nothing to embed never loads it)."""

    def __init__(self, app: Cairn):
        self._app = app

    def __getattr__(self, name: str):
        return getattr(self._app.embedder, name)


# --- extraction ------------------------------------------------------------------------
# Fact extraction from chat sessions and fact-augmented keys (memory/extract.py, keys.py).

@dataclass
class SessionExtraction:
    """Facts extracted from one chat session (a `chats/...` note): its note id, vault path,
    title, the ExtractionResult, the KeyUpdate applied to the index, and `memories`: how
    many facts the memory store added / reinforced / superseded / already had ("none")."""

    note_id: str
    path: str
    title: str
    result: object
    keys: object
    memories: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"note_id": self.note_id, "path": self.path, "title": self.title,
                **self.result.to_json(),
                "keys": {"messages_with_facts": self.keys.messages_with_facts,
                         "rewritten_chunks": self.keys.rewritten_chunks},
                "memories": dict(self.memories)}


@dataclass
class ChatImportReport(IngestReport):
    """An IngestReport plus the extraction run on the imported sessions (if any)."""

    extractions: list = field(default_factory=list)
    extracted: bool = False

    def to_json(self) -> dict:
        out = super().to_json()
        if self.extracted:
            out["extraction"] = [e.to_json() for e in self.extractions]
        return out


def _extraction_llm(settings: Settings, llm: str | None):
    """(model or None, problem or None) for an extraction LLM spec. ValueError for a bad
    spec; an unavailable model becomes a problem (the rules are used)."""
    from cairn.llm import get_llm
    from cairn.llm.errors import LLMUnavailable
    spec = llm or settings.memory.extract_llm or "none"
    try:
        return get_llm(spec), None
    except LLMUnavailable as exc:
        return None, f"LLM {spec!r} unavailable, used the rule-based extractor: {exc}"


def _session_messages(conn: sqlite3.Connection, note_id: str) -> list:
    from cairn.memory.extract import Message
    return [Message(str(r["source_id"]), r["speaker"] or "", r["text"].replace("\\## [", "## ["),
                    r["event_time"] or "")
            for r in conn.execute("SELECT source_id, speaker, text, event_time FROM chunks "
                                  "WHERE note_id = ? AND source_id IS NOT NULL ORDER BY ord", (note_id,))]


def _chat_note_ids(conn: sqlite3.Connection, target: str | None) -> list[str]:
    """Chat notes for `target`: None = all; a note id; a vault path; or a conversation name
    (all its sessions). ValueError when nothing matches."""
    rows = conn.execute("SELECT id, path, meta FROM notes WHERE type = 'chat' ORDER BY path").fetchall()
    if target is None:
        return [r["id"] for r in rows]
    hits = [r["id"] for r in rows if target in (r["id"], r["path"])
            or json.loads(r["meta"]).get("conversation") == target]
    if not hits:
        raise InvalidInput(f"no chat session matches {target!r}: give a conversation name, a chat "
                         "note id or path (see `cairn import chat`), or nothing for all chats")
    return hits


# --- end extraction ----------------------------------------------------------------------


def read_batch_file(path: Path) -> list[tuple[str, str]]:
    """Read a `--batch` JSONL file of {"id", "query"} (UTF-8) into (id, query) pairs; a
    missing id is the line number. Raises ValueError "PATH: line N: problem" for a line
    that is not UTF-8 or not such an object (query a string, id a string or a number),
    OSError when the file cannot be read."""
    from cairn.report import json_type_name
    out = []
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InvalidInput(f"{path}: line {lineno}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"{path}: line {lineno}: not valid JSON ({exc})") from exc
            if not isinstance(obj, dict) or "query" not in obj:
                raise InvalidInput(f"{path}: line {lineno}: expected an object with 'id' and 'query'")
            qid, query = obj.get("id", lineno), obj["query"]
            if not isinstance(query, str):  # str(None) would search for "None"
                raise InvalidInput(f"{path}: line {lineno}: query must be a string, got {json_type_name(query)}")
            if isinstance(qid, bool) or not isinstance(qid, (str, int, float)):
                raise InvalidInput(f"{path}: line {lineno}: id must be a string or a number, "
                                 f"got {json_type_name(qid)}")
            out.append((str(qid), query))
    return out
