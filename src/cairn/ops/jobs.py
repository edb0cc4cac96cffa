"""Ingest and the job queue, the operations of `cairn.service.Cairn` on sources: ingest, jobs,
jobs_run, jobs_retry, import_file/import_notes/import_chat, reindex, status. A mixin: `self`
is the Cairn (its conn, settings, embedder and events)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from cairn import results as R
from cairn.errors import InvalidInput
from cairn.ops.memory import SessionExtraction, _extraction_llm
from cairn.report import ImportReport, IngestReport, Progress
from cairn.store import db

if TYPE_CHECKING:
    from cairn.schedule.calendar import CalendarReminders


class JobOps:
    """Ingest, imports, the job queue, reindex and status."""

    def ingest(self, paths: Iterable[str | Path], progress: Progress | None = None, *,
               public_only: bool = False, started: float | None = None) -> IngestReport:
        """Ingest files/folders and URLs (str "https://..."), see ingest.ingest_paths.
        Publishes ingest.* / note.* events and saves a trace (`report.trace_id`).
        public_only: URLs never reach a private or loopback address, whatever `[fetch]
        allow_private` says (the tools a model drives pass True). A file named with a
        trailing slash ("garden.md/") is not read: it fails as "not a folder", as the shell's
        `ls garden.md/` does. started: the origin of `report.timings` (a `time.monotonic()`
        reading; default: this call; the CLI passes its process's start)."""
        from cairn.ingest import ingest_paths, is_url
        paths = list(paths)
        if any(not str(p).strip() for p in paths):
            raise InvalidInput("an empty path names nothing: give a file, a folder or a URL")
        # "garden.md/": a trailing slash names a folder; Path() would drop it and read the file
        not_folders = [p for p in paths if isinstance(p, str) and not is_url(p) and p.endswith(("/", os.sep))
                       and Path(p.rstrip("/" + os.sep) or "/").expanduser().is_file()]
        sources: list[Path | str] = [p if isinstance(p, str) and is_url(p) else Path(p).expanduser()
                                     for p in paths if p not in not_folders]
        report = self._traced_ingest("ingest", [str(s) for s in sources], progress,
                                     lambda prog: ingest_paths(self.conn, self.settings, sources, self.embedder, prog,
                                                               public_only=public_only, started=started))
        for p in not_folders:
            report.failed.append((p, "not a folder: the trailing '/' names a folder, but this is a file "
                                     "(give the path without the '/')"))
        self._enrich_with_model(report, progress)
        return report

    def _enrich_with_model(self, report: IngestReport, progress: Progress | None) -> None:
        """With `[ingest] enrich = "auto"` and a model (`enrich_llm`, else `llm`): the
        model's grounded category, tags, gist and key points for each note this ingest
        added or changed, replacing the extractive block written at ingest unless the person
        has edited the note (cairn.enrich). Runs after the notes are searchable and embedded;
        a model failure keeps the extractive block and becomes a warning of the report."""
        spec = (self.settings.ingest.enrich_llm or self.settings.llm or "").strip()
        if self.settings.ingest.enrich != "auto" or spec.lower() in ("", "none") or not report.note_ids:
            return
        from cairn.enrich import enrich
        from cairn.errors import CairnError
        ids = list(dict.fromkeys(report.note_ids))
        for i, note_id in enumerate(ids, 1):
            try:
                result = enrich(self, note_id, spec, model_only=True)
                if result.reason and result.reason.startswith("the model failed"):
                    report.warnings.append((note_id, "enrichment: " + result.reason))
            except (CairnError, ValueError, OSError) as exc:
                report.warnings.append((note_id, f"enrichment: {exc}"))
            if progress:
                progress("enrich", i, len(ids))

    def _traced_ingest(self, op: str, sources: list[str], progress, run) -> IngestReport:
        """Run `run(progress)` (an ingest-like operation returning an IngestReport) with
        events (ingest.started/progress/done/failed, note.created/changed, job.dead_lettered)
        and a trace whose stages are the progress phases. The report gets `trace_id`."""
        from cairn.events import ProgressEvents
        from cairn.traces import Trace
        trace = Trace("ingest", {"op": op, "sources": sources[:20], "count": len(sources)})
        self.events.publish("ingest.started", {"op": op, "sources": sources[:20], "trace_id": trace.id})
        dead_before = {j.id for j in self.store.jobs.by_state("dead")}
        prog = ProgressEvents(self.events, op, progress)
        try:
            report = run(prog)
        except BaseException as exc:
            trace.outcome = "failed"
            trace.add(op, {"sources": len(sources)}, {"error": str(exc) or type(exc).__name__}, 0.0)
            trace.save(self.settings.home, self.settings.owner)
            self.events.publish("ingest.failed", {"op": op, "error": str(exc) or type(exc).__name__,
                                                 "trace_id": trace.id})
            raise
        for phase, (t0, t1, total) in prog.phases.items():
            trace.add(phase, {"items": total}, {}, (t1 - t0) * 1000)
        trace.add("report", {}, report.to_json(), 0.0)
        trace.outcome = "failed" if report.failed else "ok"
        report.trace_id = trace.save(self.settings.home, self.settings.owner)["id"]
        for name in report.added:
            self.events.publish("note.created", {"name": str(name), "via": op})
        for name in report.updated:
            self.events.publish("note.changed", {"name": str(name), "via": op})
        for name, reason in report.failed:
            self.events.publish("ingest.failed", {"op": op, "name": str(name), "error": reason,
                                                 "trace_id": trace.id})
        for job in self.store.jobs.by_state("dead"):
            if job.id not in dead_before:
                self.events.publish("job.dead_lettered", job.to_json())
        self.events.publish("ingest.done", {"op": op, **report.to_json(), "trace_id": trace.id})
        return report

    def jobs(self, limit: int = 50) -> R.JobsInfo:
        """The job queue: {"counts": {state: n, "interrupted": n}, "dead": [job dicts, oldest
        first], "running": [job dicts of live processes], "interrupted": [job dicts claimed by
        a process that is gone (a crash): `cairn jobs run` resumes them], "queued": [up to
        `limit` job dicts]} (see store.jobs.JobRow). Nothing is changed. A named person
        (cairn.people) sees only the jobs queued for them (payload "owner"), counted alike."""
        from cairn.jobs import process_alive
        jobs, owner = self.store.jobs, self.settings.owner

        def mine(rows: list) -> list:
            from cairn.people import same_person
            return rows if owner is None else [j for j in rows if same_person((j.payload or {}).get("owner"), owner)]
        claimed = mine(jobs.by_state("running"))
        alive = [j for j in claimed if process_alive(j.owner_pid or 0, j.owner_start)]
        gone = [j for j in claimed if j not in alive]
        counts = jobs.counts()
        if owner is not None:
            counts = {state: len(mine(jobs.by_state(state))) for state in counts}
        counts["running"] = counts.get("running", 0) - len(gone)
        counts["interrupted"] = len(gone)
        queued = jobs.by_state("queued", limit) if owner is None else mine(jobs.by_state("queued"))[:limit]
        return R.JobsInfo(counts=counts,
                          dead=[j.to_json() for j in mine(jobs.by_state("dead"))],
                          running=[j.to_json() for j in alive],
                          interrupted=[j.to_json() for j in gone],
                          queued=[j.to_json() for j in queued])

    def jobs_run(self, progress: Progress | None = None, *, started: float | None = None) -> IngestReport:
        """Resume pending work: requeue jobs of dead processes, run every queued job, then
        embed chunks that lack vectors. started: as for `ingest`."""
        from cairn.ingest import run_jobs
        return self._traced_ingest("jobs.run", [], progress, lambda prog: run_jobs(
            self.conn, self.settings, self.embedder, IngestReport(), progress=prog, started=started))

    def repair_vectors(self) -> int:
        """Embed the chunks that have no vector (a process killed after a note was indexed
        and before its chunks were embedded left them keyword-only). `cairn serve` runs it
        at start-up. Returns how many chunks were embedded (0: nothing was missing)."""
        if not self.store.notes.counts().get("missing_vectors"):
            return 0
        from cairn.ingest.embedding import embed_missing
        s = self.settings
        return embed_missing(self.conn, self.embedder, None, s.chunk.embed_max_chunks, fact_keys=s.memory.fact_keys,
                             neighbour_keys=s.memory.neighbour_keys)[0]

    def jobs_retry(self, ids: list[int] | None, progress: Progress | None = None) -> IngestReport:
        """Requeue dead letters (`ids`, or all of them when None) and run the queue.
        Raises InvalidInput naming ids that are not dead letters."""
        if ids is not None:
            jobs = self.store.jobs
            real = {i for i in ids if 1 <= i <= 2**63 - 1}  # a larger id is no job (nor an SQL integer)
            bad = [i for i in ids if i not in real or (j := jobs.get(i)) is None or j.state != "dead"]
            if bad:
                states = {i: (jobs.get(i).state if i in real and jobs.get(i) else "no such job") for i in bad}
                raise InvalidInput("not a dead letter: " + ", ".join(f"job {i} ({st})" for i, st in states.items())
                                 + " — `cairn jobs` lists the dead letters")
        self.store.jobs.requeue_dead(ids)
        from cairn.ingest import run_jobs
        return self._traced_ingest("jobs.retry", [str(i) for i in ids or []], progress, lambda prog: run_jobs(
            self.conn, self.settings, self.embedder, IngestReport(), progress=prog))

    def import_file(self, importer: str, path: str | Path, progress: Progress | None = None,
                    **options) -> IngestReport:
        """Run the importer registered as `importer` (the `register_importers` hook; built-ins
        "notes" and "chat": cairn.builtin_plugins.importers) on the file `path`. Raises NotFound naming the
        registered importers for an unknown name. Imports into one home take turns (the
        index's "import" lock, store.locks): an import that fails puts back what it wrote,
        which must not undo what another import of the same file wrote meanwhile."""
        from cairn.errors import NotFound
        from cairn.registries import importers
        from cairn.store.locks import exclusive
        table = importers()
        if importer not in table:
            raise NotFound(f"no importer {importer!r}; registered: {', '.join(sorted(table))}")
        with exclusive(self.conn, "import"):
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

    def import_export(self, source: str, path: str | Path | None, progress: Progress | None = None, *,
                      dry_run: bool = False, extract: bool | None = None, llm: str | None = None,
                      **options) -> ImportReport:
        """`cairn import SOURCE PATH`: run the export importer `source` (chatgpt, claude, mbox,
        maildir, ics, enex, notion, keep, kindle, readwise, bookmarks, applenotes, whatsapp or a plugin's) on `path`
        (cairn.ingest.importing.run: incremental by stable source id; dry_run writes nothing).
        Conversations it adds or updates have their facts extracted as `import_chat` does
        (extract/llm: the same meaning). options: passed to the importer (imap: folders; its
        path is None). Returns a cairn.report.ImportReport. Raises NotFound
        for an unknown importer, InvalidInput (ExportFormatError) for a bad export file."""
        do_extract = (self.settings.memory.extract_on_import if extract is None else extract) and not dry_run
        model = _extraction_llm(self.settings, llm) if do_extract else None  # bad spec: fail first
        found: list[int] = []

        def hook(note_ids: list[str]) -> None:
            for ex in self._extract_notes(note_ids, model, embed=False):
                found.append(len(getattr(ex.result, "facts", []) or []))

        report = self.import_file(source, path if path is not None else "", progress, dry_run=dry_run,
                                  after_index=hook if do_extract else None, **options)
        if hasattr(report, "facts_extracted"):
            report.facts_extracted = sum(found)
        return report

    def calendar_reminders(self, path: str | Path, *, before: str | None = None, horizon: str | None = None,
                           dry_run: bool = False, now=None) -> CalendarReminders:
        """Reminders for the upcoming events of the iCalendar file(s) at `path`, when the
        person asks (`cairn import ics PATH --reminders`, the `remind_calendar` tool): one per
        occurrence starting within `horizon` (default 30d), due `before` it (default 30m),
        keyed by UID + occurrence so a second run adds nothing (cairn.schedule.calendar).
        Returns cairn.schedule.calendar.CalendarReminders. Raises InvalidInput for a bad
        span, ExportFormatError for a file that is not iCalendar or is cut off."""
        from cairn.schedule.calendar import remind_calendar
        from cairn.ingest.importing.items import ExportFormatError
        p = Path(path)
        if not p.exists():
            raise ExportFormatError(f"{p}: no such file or folder")
        with self.scheduler() as sched:
            return remind_calendar(sched, p, before=before, horizon=horizon, now=now, dry_run=dry_run)

    def reindex(self, progress: Progress | None = None) -> IngestReport:
        """Rebuild the index from the vault alone: the configured store's (the SQLite
        file, or the PostgreSQL store with CAIRN_STORE_URL / `[store] url`)."""
        from cairn.ingest import reindex
        kept = self._set_aside_damaged_index()
        report = self._traced_ingest("reindex", [], progress,
                                     lambda prog: reindex(self.conn, self.settings, self.embedder, prog))
        if kept:
            report.warnings.insert(0, (self.settings.index_path.name, kept))
        return report

    def _set_aside_damaged_index(self) -> str | None:
        """Before a reindex on SQLite: when the index file is damaged (store.damaged), rename
        it (with its -wal and -shm) so that the rebuild starts on a new file; returns the
        warning saying so, None when the file is sound (or the store is PostgreSQL). Raises
        Conflict, changing nothing, while another Cairn process has the home open."""
        from cairn.errors import Conflict
        from cairn.store import damaged, locks
        from cairn.store.backend import store_url
        index = self.settings.index_path
        if store_url(self.settings) or not (problem := damaged.index_damage(index)):
            return None
        self.close()  # this process's handle on the damaged file
        alone = locks.try_home_alone(self.settings.home)
        if alone is None:
            raise Conflict(f"the index {index} is damaged ({problem}) and another Cairn process has the home "
                           f"open (a running `cairn serve`, worker or chat?): stop it, then reindex again; "
                           f"nothing was changed")
        try:
            kept = damaged.set_aside(index)
        finally:
            locks.release(alone)
        return f"the index was damaged ({problem}); it was kept as {kept.name} and rebuilt from the vault"

    def disk_usage(self) -> R.DiskUsage:
        """Bytes on disk: {"vault", "index" (the database with its WAL/SHM files), "home"
        (everything under the home folder, the two above included)}. Unreadable files count 0."""
        def size(paths) -> int:
            total = 0
            for p in paths:
                try:
                    if p.is_file() and not p.is_symlink():
                        total += p.stat().st_size
                except OSError:
                    continue
            return total
        index = self.settings.index_path
        return R.DiskUsage(vault=size(self.settings.vault.rglob("*")) if self.settings.vault.is_dir() else 0,
                           index=size(index.parent.glob(index.name + "*")),
                           home=size(self.settings.home.rglob("*")))

    def _unindexed_vault(self, notes: int | None = None, *, every: bool = False) -> str | None:
        """A warning naming note files of the vault the index does not list, with the command
        that mends it; None when there are none. The index holding no notes at all (deleted, or
        never built over an existing folder): one file and `cairn reindex`. every: also look
        for files missing from an index that holds notes (a walk of the vault's names and one
        read of the index's paths: `status`; a search with no hits checks only the first case).
        notes: the index's note count when the caller has it."""
        from cairn import vault as V  # here, not at the top: a cold search loads no yaml or hashlib
        if notes is None:
            notes = self.store.notes.list_notes(limit=1)[0]  # a count of notes alone (counts() scans chunks)
        if not notes:
            example = V.first_note_file(self.settings.vault)
            return None if example is None else (
                f"the index holds no notes, but the vault holds note files ({example}, ...): the index was deleted "
                "or never built; run `cairn reindex` to rebuild it from the vault")
        if not every:
            return None
        from cairn.store import notes as N
        indexed = N.file_stats(self.conn)
        missing = [p for p in V.note_names(self.settings.vault) if p not in indexed]
        if not missing:
            return None
        return (f"{len(missing)} note file(s) of the vault are not in the index ({', '.join(missing[:3])}"
                f"{', ...' if len(missing) > 3 else ''}): run `cairn sync` to index them (it names any it cannot read)")

    def status(self) -> R.Status:
        """Counts and health of the index (notes, chunks, vectors, missing rows); warnings:
        what needs the person's action (`_unindexed_vault`), [] when nothing does."""
        c = self.store.notes.counts()
        profile = self.store.notes.index_profile(self.settings.chunk.embed_max_chunks)
        keyword_only = profile["keyword_only_chunks"]
        c["keyword_only_chunks"] = keyword_only
        c["missing_vectors"] = max(0, c["missing_vectors"] - keyword_only)
        c["vector_models"] = profile["vector_models"]
        return R.Status({"home": str(self.settings.home), "vault": str(self.settings.vault),
                         "index": self._index_label(), "backend": "postgresql" if self.on_postgres else "sqlite",
                         "schema_version": db.schema_version(self.conn),
                         **c, "notes_by_type": profile["notes_by_type"],
                         "media": self.store.jobs.media_counts(),
                         "warnings": [w for w in (self._unindexed_vault(c["notes"], every=True),) if w]})


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
