"""The queue-driven pipeline: `ingest_paths` enqueues files and URLs as jobs, `run_jobs`
runs them (cairn.jobs: retries, dead letters, crash-safe resume) and embeds what is new.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import Callable

from cairn import paths as P
from cairn import vault as V
from cairn.config import Settings
from cairn.store import jobs as J
from cairn.store import notes as N
from cairn.store.locks import exclusive
from cairn.report import IngestReport, Progress
from cairn.ingest.embedding import NER_WORKER_MIN, embed_missing
from cairn.ingest.files import _parse_options, ingest_file
from cairn.ingest.sources import iter_sources, special_file_kind
from cairn.ingest.urls import ingest_url, is_url


def _job_name(job) -> str:
    """How a job's source is named in reports: the path or URL as the person gave it."""
    return str(job.payload.get("name") or job.payload.get("path") or job.payload.get("url") or job.source)


def _merge(report: IngestReport, part: IngestReport) -> None:
    for key in ("added", "updated", "unchanged", "skipped", "failed", "warnings", "tombstoned", "note_ids"):
        getattr(report, key).extend(getattr(part, key))


def _outcome(part: IngestReport) -> str:
    """A finished job's outcome from its one-source report. A failed entry left by
    ingest_file (a vault note it wrote but could not index) is permanent: raise."""
    if part.failed:
        from cairn.jobs import PermanentJobError
        raise PermanentJobError(part.failed[0][1])
    if part.skipped:
        return f"skipped: {part.skipped[0][1]}"
    if part.tombstoned:
        return "skipped: deleted in Cairn before"
    for key in ("added", "updated", "unchanged"):
        if getattr(part, key):
            return key
    return "unchanged"


def job_handlers(conn: sqlite3.Connection, settings: Settings, report: IngestReport, *,
                 resolver=None, connector=None, pool=None) -> dict[str, Callable]:
    """Handlers for the job kinds "file" (payload {path, name, root, skip_tombstoned?}) and
    "url" (payload {url}), both with "owner" when a named person queued them (cairn.people):
    each ingests its source for the job's owner, whoever runs it, adds its outcome to
    `report` and returns the outcome string."""
    import dataclasses
    base = settings

    def owned(job) -> Settings:
        """The settings acting for the job's owner (None: the home's own person)."""
        owner = job.payload.get("owner") or None
        from cairn.people import same_person
        return base if same_person(owner, base.owner) else dataclasses.replace(base, owner=owner)

    def run_file(job) -> str:
        settings = owned(job)
        part = IngestReport()
        root = job.payload.get("root")
        src = Path(job.payload["path"])
        name = _job_name(job)
        outside = P.outside_reason(root, src, "the folder given") if root and src.exists() else None
        if not src.exists() and not src.is_symlink():
            part.skipped.append((name, "no such file (moved or deleted before it was ingested)"))
        elif outside is not None:  # a link swapped in after the folder was walked
            part.skipped.append((name, f"{outside}, skipped"))
        else:
            try:
                ingest_file(conn, settings, src, Path(root) if root else None, part, name=name,
                            raise_errors=True, skip_tombstoned=bool(job.payload.get("skip_tombstoned")),
                            pool=pool)
            except (FileNotFoundError, NotADirectoryError, IsADirectoryError) as exc:
                from cairn.jobs import PermanentJobError
                dangling = f" (a dangling symlink to {os.readlink(src)})" if src.is_symlink() and not src.exists() else ""
                raise PermanentJobError(f"cannot read: {exc.strerror or exc}{dangling}") from exc
        _merge(report, part)
        return _outcome(part)

    def run_url(job) -> str:
        settings = owned(job)
        part = IngestReport()
        ingest_url(conn, settings, job.payload["url"], part, resolver=resolver, connector=connector,
                   public_only=bool(job.payload.get("public_only")))
        _merge(report, part)
        return _outcome(part)

    return {"file": run_file, "url": run_url}


def own_files(settings: Settings):
    """A test `is_own(resolved_path) -> bool`: True for the home folder itself and what is in
    it (index, session logs, traces, exports, audit log, config), except the folders files
    arrive in to be ingested: REST and web uploads (`uploads/`), the Telegram inbox
    (`telegram/inbox/`), `[sync] inbox` folders and the vault (which has a rule of its own).
    The folders are resolved once, not per file of a walk."""
    home = settings.home.resolve()
    # An inbox that is the home or holds it (`[sync] inbox` naming a folder above it) is no
    # arrival folder for the home's own files: those stay Cairn's.
    inboxes = [d for d in settings.inbox_dirs if d != home and d not in home.parents]
    arrivals = (home / "uploads", home / "telegram" / "inbox", *inboxes, settings.vault.resolve())

    def is_own(resolved: Path) -> bool:
        if resolved != home and home not in resolved.parents:
            return False
        return not any(resolved == a or a in resolved.parents for a in arrivals)
    return is_own


def _refused_url(settings: Settings, url: str, public_only: bool) -> str | None:
    """Why `url` is refused by its form alone (cairn.fetch.refused_at_once: file:, a
    loopback or private literal, ...), under `[fetch] allow_private` unless `public_only`;
    None for a URL to queue (YouTube links keep their own reader)."""
    from cairn.fetch import refused_at_once
    from cairn.sources import youtube
    if youtube.video_id(url):
        return None
    return refused_at_once(url, allow_private=settings.fetch.allow_private and not public_only)


def enqueue_sources(conn: sqlite3.Connection, settings: Settings, sources: list[Path | str],
                    report: IngestReport, *, skip_tombstoned: bool = False, public_only: bool = False) -> list[int]:
    """One job per file under `sources` (folders walked) and per URL; a source with a
    pending job is not queued twice. Missing and empty paths, paths inside the vault and
    Cairn's own files in the home folder (`own_files`) are reported as failed; a folder walk
    leaves the home's own files out, with one warning. skip_tombstoned: file jobs skip
    sources deleted in Cairn (see `ingest_file`). public_only: URL jobs never fetch a
    private or loopback address, whatever `[fetch] allow_private` says (a model asked for
    them). Returns the job ids, in order."""
    from cairn.store import jobs as J

    jobs: list[tuple[str, str, dict]] = []
    vault = settings.vault.resolve()
    left_out = 0
    own_file = own_files(settings)
    for item in sources:
        if isinstance(item, str) and is_url(item):
            refused = _refused_url(settings, item, public_only)
            if refused:  # the same on every try: reported now, never a dead letter to retry
                report.failed.append((item, refused))
                continue
            jobs.append(("url", item, {"url": item, **({"public_only": True} if public_only else {})}))
            continue
        if not str(item).strip():
            report.failed.append((repr(str(item)), "an empty path names nothing (give a file, a folder or a URL)"))
            continue
        p = Path(item)
        if P.name_problem(p) and p.exists():  # the job queue and the index keep names as UTF-8 text
            report.failed.append((P.shown(p), P.name_problem(p)))
            continue
        if not p.exists():
            report.failed.append((str(p), "symlink loop: nothing to read" if P.is_loop(p)
                                  else "no such file or directory"))
            continue
        real_p = P.resolved(p)  # never raises, also on a loop swapped in since
        if real_p == vault or vault in real_p.parents:
            report.failed.append((str(p), "is inside the Cairn vault, which is indexed already "
                                  "(use `cairn reindex` to rebuild from it)"))
            continue
        if own_file(real_p):
            report.failed.append((str(p), f"is Cairn's own data in its home folder {settings.home} (index, "
                                  "sessions, traces, exports): not ingested"))
            continue
        if p.is_symlink() and not p.is_dir():  # named on purpose: the person's choice
            report.warnings.append((str(p), f"is a symbolic link to {P.real(p)}; read as given"))
        walked, skipped_before = 0, len(report.skipped)
        for f, root in iter_sources([p], report.skipped):
            walked += 1
            try:
                kind = special_file_kind(f.stat().st_mode)
            except OSError:
                kind = None  # dangling link or unreadable: the job reports it by name
            if kind:
                report.skipped.append((str(f), f"not a regular file ({kind})"))
                continue
            resolved = P.resolved(f)  # a loop swapped in since the walk: its job skips it
            if own_file(resolved):
                left_out += 1
                continue
            if vault not in resolved.parents:
                # Absolute paths (symlinks kept), so `cairn jobs run` works from any folder.
                payload = {"path": os.path.abspath(f), "name": str(f),
                           "root": os.path.abspath(root) if root is not None else None}
                if skip_tombstoned:
                    payload["skip_tombstoned"] = True
                if _heavy_file(f):
                    payload["heavy"] = True  # parsed in phase 2, after every text source
                jobs.append(("file", str(resolved), payload))
        if not walked and len(report.skipped) == skipped_before and p.is_dir():  # "added 0" alone said nothing
            report.warnings.append((str(p), "holds no file to ingest (hidden files and folders, and files of a type "
                                            "Cairn does not read, are left out: see docs/formats.md)"))
    if left_out:
        report.warnings.append((str(settings.home), f"{left_out} file(s) of Cairn's own home folder left out"))
    jobs.sort(key=lambda j: bool(j[2].get("heavy")))  # text sources first (stable order)
    ids: list[int] = []
    seen: set[int] = set()
    if settings.owner is not None:  # the person the notes will belong to (cairn.people)
        jobs = [(kind, source, {**payload, "owner": settings.owner}) for kind, source, payload in jobs]
    with N.transaction(conn):  # one transaction for the whole batch (fast for big folders)
        for kind, source, payload in jobs:
            jid, _ = J.enqueue(conn, kind, source, payload, max_attempts=settings.jobs.max_attempts)
            if jid not in seen:
                seen.add(jid)
                ids.append(jid)
    return ids


_HEAVY_SUFFIXES = frozenset({".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".gif", ".bmp",
                             ".wav", ".mp3", ".m4a", ".ogg", ".oga", ".flac", ".opus", ".aac", ".mp4"})


def _heavy_file(path: Path) -> bool:
    """Whether a source is queued for phase 2, by its name alone (the file is read once, by
    its job; `_parse_source` sends it to a worker by its content all the same)."""
    return path.suffix.lower() in _HEAVY_SUFFIXES


def _needs_parse(conn: sqlite3.Connection, settings: Settings, path: Path) -> bool:
    """False when `ingest_file` would find this source unchanged (same bytes as the note made
    from it, whose vault copy exists), so no worker time is spent parsing it ahead."""
    try:
        existing = N.get_note_by_source(conn, P.real(path))
        if existing is None or not (settings.vault / existing.path).exists():
            return True
        return existing.source_hash != V.sha256_bytes(path.read_bytes())
    except OSError:
        return False  # the job reports it


def process_started() -> float:
    """The `time.monotonic()` reading at which this process started (Linux /proc; elsewhere
    when this module was imported): the origin of a command's phase timings, so they
    include its start-up."""
    try:
        start_ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return time.monotonic() - max(0.0, uptime - start_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return _IMPORTED


_IMPORTED = time.monotonic()


def _queued_split(conn: sqlite3.Connection, ids: list[int] | None) -> tuple[list[int], list[int]]:
    """(text-source job ids, heavy-source job ids) among the queued jobs (or among `ids`)."""
    rows = J.queued_payloads(conn)
    wanted = set(ids) if ids is not None else None
    light, heavy = [], []
    for jid, payload in rows:
        if wanted is not None and jid not in wanted:
            continue
        (heavy if '"heavy": true' in payload else light).append(jid)
    return light, heavy


TEXT_LANE_MIN = 50  # queued text sources from which a worker parses them ahead (the text lane)


def _text_lane_items(conn: sqlite3.Connection, settings: Settings,
                     light: list[int]) -> list[tuple[str, str | None, str | None]]:
    """(path, root, known sha256) of the file jobs among `light`, in queue order, for the
    parse pool's text lane (cairn.parse.pool.ParsePool.prefetch_text); the known hash is the
    one the source's note is indexed with (the worker then only hashes it). Empty when a
    plugin registers a parser: the worker could not be sure to parse as this process does."""
    from cairn.registries import parsers
    if any(getattr(fn, "__module__", "") != "cairn.builtin_plugins.parsers" for fn in parsers().values()):
        return []
    import json
    vault = settings.vault
    wanted = set(light)
    items = []
    for _jid, raw in sorted(row for row in J.queued_payloads(conn) if row[0] in wanted):
        payload = json.loads(raw)
        path = payload.get("path")
        if not path or payload.get("heavy"):
            continue
        existing = N.get_note_by_source(conn, os.path.realpath(path))
        known = existing.source_hash if existing and (vault / existing.path).exists() else None
        items.append((path, payload.get("root"), known))
    return items


def run_jobs(conn: sqlite3.Connection, settings: Settings, embedder, report: IngestReport, *,
             ids: list[int] | None = None, progress: Progress | None = None,
             resolver=None, connector=None, embed: bool = True, started: float | None = None) -> IngestReport:
    """Run the queue in two phases and embed. Phase 1: every text source (parse, vault
    copy, keyword index: one job each) — from then on they are keyword-searchable, listed
    and linked; then their chunks are embedded (the entity graph alongside). Phase 2, the
    media pass: images, audio and PDFs, parsed in bounded worker processes (cairn.parse.pool)
    at low priority (MEDIA_NICE), only once every text note is searchable by meaning; then
    their chunks are embedded too (`cairn status` counts the pass: `media`). embed=False leaves the vectors to a
    background embedder (watch) or a later `cairn jobs run`: `status` counts them as
    `missing_vectors`. A process that dies between the phases loses nothing: the text is
    committed per job, unfinished jobs stay queued and missing vectors are found by the next
    run. Dead letters are added to `report.failed` with the job id. `report.timings` holds
    the seconds since `started` (a `time.monotonic()` reading: when the person asked, by
    default this call; a command passes `process_started()`) at which each phase ended
    (keyword_searchable_s, text_embedded_s, first_media_parsed_s, parsed_s, embedded_s).
    Returns `report`."""
    import dataclasses
    import resource

    from cairn.jobs import requeue_orphans, run_queue
    from cairn.parse.pool import MEDIA_NICE, ParsePool

    origin = time.monotonic() if started is None else started

    def since() -> float:
        return round(time.monotonic() - origin, 3)

    ing = settings.ingest
    pool = (ParsePool(ing.parse_workers, ing.parse_memory_mib, ing.parse_timeout_s, nice=MEDIA_NICE)
            if ing.parse_workers > 0 else None)
    handlers = job_handlers(conn, settings, report, resolver=resolver, connector=connector, pool=pool)
    ner_in_worker = None  # set below for a large ingest or one that starts the worker anyway
    retries = 0
    try:
        with exclusive(conn, "ingest"):  # one queue runner per home: no source ingested twice at once
            requeue_orphans(conn, settings.jobs)
            light, heavy = _queued_split(conn, ids)
            if pool is not None and (heavy or len(light) >= NER_WORKER_MIN):
                # spaCy's entity model (~250 MiB) runs in the parse worker: the ingest process
                # of a large folder stays small. A small ingest with no image, recording or
                # PDF runs it here, where a long-lived process (serve, watch, a test run)
                # loads it once, instead of starting a worker that loads it each time.
                ner_in_worker = pool.entities_many
            if pool is not None and len(light) >= TEXT_LANE_MIN:
                # Phase 1 on two cores: a worker reads, parses and summarises the text notes
                # while this process writes their vault copies and indexes them.
                pool.prefetch_text(_text_lane_items(conn, settings, light), _parse_options(settings),
                                   summarise="cairn.enrich:lexical_gist" if settings.ingest.enrich != "off" else None)
            result = run_queue(conn, handlers, settings.jobs, ids=light, progress=progress)
            if pool is not None:
                pool.end_text()
            dead, retries = list(result.dead), result.retries
            report.timings["keyword_searchable_s"] = since()
            if embed:
                report.embedded, report.reused_vectors = embed_missing(
                    conn, embedder, progress, settings.chunk.embed_max_chunks, fact_keys=settings.memory.fact_keys,
                    neighbour_keys=settings.memory.neighbour_keys, entities_many=ner_in_worker)
                report.timings["text_embedded_s"] = since()
            if pool is not None and heavy:
                # The media pass: only now, every text note searchable by keyword and by
                # meaning, the pictures, recordings and PDFs go to the (niced) file workers.
                paths = [Path(p["path"]) for p in J.payloads(conn, heavy)]
                pool.prefetch([(p, _parse_options(settings)) for p in paths if _needs_parse(conn, settings, p)])
            if heavy or ids is None:
                parse_progress = (lambda _p, d, t: progress("parse", d, t)) if progress else None
                # One media job a claim: each is marked done as soon as it is read, so
                # `cairn status` (media.done) follows the pass file by file.
                result = run_queue(conn, handlers, dataclasses.replace(settings.jobs, batch=1),
                                   ids=heavy if ids is not None else None, progress=parse_progress)
                dead += result.dead
                retries += result.retries
            report.timings["parsed_s"] = since()
            if embed:
                more, reused = embed_missing(conn, embedder, progress, settings.chunk.embed_max_chunks,
                                             fact_keys=settings.memory.fact_keys,
                                             neighbour_keys=settings.memory.neighbour_keys, entities_many=ner_in_worker)
                report.embedded += more
                report.reused_vectors += reused
                report.timings["embedded_s"] = since()
    finally:
        if pool is not None:
            report.peak_rss_mib["parse_workers"] = round(pool.peak_rss_mib, 1)
            if pool.first_file_at is not None:  # when the media pass's first file was parsed
                report.timings["first_media_parsed_s"] = round(
                    pool.first_file_at - origin, 3)
            pool.close()
    report.peak_rss_mib["ingest"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    for job, error in dead:
        report.failed.append((_job_name(job), f"{error} [dead letter: job {job.id}; `cairn jobs retry {job.id}`]"))
    report.retried = retries
    return report


def ingest_paths(conn: sqlite3.Connection, settings: Settings, paths: list[Path | str], embedder,
                 progress: Progress | None = None, *, resolver=None, connector=None,
                 skip_tombstoned: bool = False, embed: bool = True, public_only: bool = False,
                 started: float | None = None) -> IngestReport:
    """Ingest files, folders (recursively) and URLs (str `https://...`): one queued job per
    source (cairn.jobs: retries with back-off, dead letters, resumes after a crash), then
    the queue is run and missing vectors embedded. Missing paths are reported as failed.
    skip_tombstoned: files whose bytes were deleted in Cairn are listed in
    `report.tombstoned`, not ingested (the watcher's inbox). resolver/connector: test hooks
    passed to cairn.fetch for URL jobs. embed: see run_jobs. public_only: see
    enqueue_sources (a model-driven tool's URLs). started: see run_jobs (default: now)."""
    started = time.monotonic() if started is None else started
    report = IngestReport()
    with exclusive(conn, "ingest"):  # parallel ingests of one folder: each file added once
        enqueue_sources(conn, settings, list(paths), report, skip_tombstoned=skip_tombstoned,
                        public_only=public_only)
        return run_jobs(conn, settings, embedder, report, progress=progress,
                        resolver=resolver, connector=connector, embed=embed, started=started)
