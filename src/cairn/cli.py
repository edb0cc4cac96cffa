"""`cairn` command line: a thin adapter over `cairn.service.Cairn`.

Results go to stdout (tables, or JSON with --json); progress bars, warnings and errors go
to stderr. Exit codes: 0 ok, 1 user error (bad input, named in the message) or a run in
which a source failed (its report is printed first), 2 usage error (unknown option, a value
outside an option's choices or range: reported by the argument parser; a bad `search
--batch` FILE: `_usage_fail`).
"""

from __future__ import annotations

import json
import logging
import signal
import sqlite3
import sys
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Iterator, Optional

import typer

from cairn.interfaces import typer_lite
from cairn.model import FUSIONS, MEMORY_KINDS, NOTE_TYPES, NOTE_UPDATE_MODES, SEARCH_MODES
from cairn.validate import check_question, check_since


typer_lite.install()  # options coerced without importing pydantic (see typer_lite)


def _choices(name: str, values: tuple[str, ...]) -> type[Enum]:
    """An Enum of the allowed values of an option, so the argument parser refuses any other
    value as a usage error (exit 2) naming the option and the values. The values come from
    the modules that define them; the service still checks them for Python callers."""
    return Enum(name, {v: v for v in values}, type=str)


SearchMode = _choices("SearchMode", SEARCH_MODES)
Fusion = _choices("Fusion", FUSIONS)
NoteType = _choices("NoteType", NOTE_TYPES)
NoteUpdateMode = _choices("NoteUpdateMode", NOTE_UPDATE_MODES)
MemoryKind = _choices("MemoryKind", MEMORY_KINDS)


def _value(choice):
    """The plain string of an enumerated option (None stays None, lists map item by item)."""
    if choice is None:
        return None
    if isinstance(choice, list):
        return [c.value for c in choice]
    return choice.value


app = typer.Typer(help="Cairn: a local-first memory for everything you read, save and decide.",
                  no_args_is_help=True, add_completion=False)
import_app = typer.Typer(help="Import JSONL exports (notes or chat transcripts).", no_args_is_help=True)
app.add_typer(import_app, name="import")

class _LazyConsole:
    """A rich Console made on first use: importing rich costs ~60 ms of a cold start (measured
    with `python -X importtime`), and `search --json` or a failing command never need it."""

    def __init__(self, **options) -> None:
        self._options = options
        self._console = None

    def real(self):
        """The rich Console itself (to hand to rich objects such as Progress)."""
        if self._console is None:
            from rich.console import Console
            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str):
        return getattr(self.real(), name)

    def __enter__(self):
        return self.real().__enter__()

    def __exit__(self, *exc):
        return self.real().__exit__(*exc)


def escape(text: str) -> str:
    """rich.markup.escape, imported on first use."""
    from rich.markup import escape as _escape
    return _escape(text)


def Table(*args, **kwargs):  # noqa: N802 (stands in for the class)
    """A rich Table (rich.table imported on first use)."""
    from rich.table import Table as _Table
    return _Table(*args, **kwargs)


out = _LazyConsole(soft_wrap=True)
err = _LazyConsole(stderr=True, soft_wrap=True)
STATE: dict = {"home": None}


@app.callback()
def main(home: Optional[str] = typer.Option(None, "--home", envvar="CAIRN_HOME",
                                              help="Cairn home folder (default ~/.cairn)."),
         verbose: bool = typer.Option(False, "--verbose", "-v", help="Log details to stderr.")) -> None:
    """Global options apply to every command."""
    if home is not None and not home.strip():
        _fail("--home is empty; give a folder (or unset CAIRN_HOME to use ~/.cairn)")
    STATE["home"] = Path(home) if home else None
    # SIGTERM (e.g. from `timeout` or a service manager) stops like Ctrl-C: running ingest
    # jobs are put back in the queue instead of waiting for their lease to expire.
    signal.signal(signal.SIGTERM, _terminate)
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")


def _error_text(exc: Exception) -> str:
    """An error as one line naming the problem: OS errors as "PATH: reason" (no errno).
    The same text every door shows (cairn.errors.user_message)."""
    from cairn.errors import user_message
    return user_message(exc)


def _terminate(signum, frame) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _arg_text(value: str) -> str:
    """Command-line text as the user typed it: under a non-UTF-8 locale Python decodes argv
    with surrogate escapes, so re-decode those bytes as UTF-8 (e.g. "Děčín" under LC_ALL=C)."""
    if any("\udc80" <= ch <= "\udcff" for ch in value):
        raw = value.encode(sys.getfilesystemencoding(), "surrogateescape")
        return raw.decode("utf-8", "replace")
    return value


def _dump(data, *, compact: bool = False) -> None:
    """The one JSON printer of the command line: `data` (a result's to_json()) on stdout,
    indented by 2, or on one line with `compact` (JSONL rows, note commands); non-ASCII kept."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=None if compact else 2) + "\n")


def _fail(message: str, code: int = 1) -> None:
    """Print `message` as an error on stderr and exit with `code` (1: a user error)."""
    err.print(f"[red]error:[/red] {escape(message)}")
    raise typer.Exit(code)


def _usage_fail(message: str) -> None:
    """A usage error the argument parser cannot see (a bad `--batch` FILE): printed as by
    `_fail`, exit code 2, before anything is opened."""
    _fail(message, code=2)


def _early(rule, *args, code: int | None = None) -> None:
    """Apply one of the service's input rules (cairn.validate) before the index is opened:
    a refusal prints its message and exits with `code` (default the error's own, 1: as it
    would from inside the service; 2 where the command line treats it as a usage error)."""
    from cairn.errors import CairnError
    try:
        rule(*args)
    except CairnError as exc:
        _fail(exc.message, code=exc.exit_code if code is None else code)


@contextmanager
def _service() -> Iterator["object"]:
    from cairn.errors import CairnError
    from cairn.service import Cairn
    try:
        svc = Cairn(STATE["home"])
    except (CairnError, OSError) as exc:  # ConfigError, HomeNotWritable, IndexOpenError...
        _fail(_error_text(exc))
    try:
        yield svc
    except CairnError as exc:  # every user error and unavailable dependency (cairn.errors)
        _fail(exc.message or str(exc), code=exc.exit_code)
    except OSError as exc:  # a file named on the command line: missing, unreadable...
        _fail(_error_text(exc))
    except sqlite3.OperationalError as exc:
        _fail(svc.database_error_message(exc))
    except KeyboardInterrupt:
        err.print("[yellow]interrupted[/yellow]: what was stored so far is kept; unfinished ingest "
                  "jobs stay queued — `cairn jobs run` finishes them")
        raise typer.Exit(130)
    finally:
        svc.close()


@contextmanager
def _progress(enabled: bool = True):
    if not enabled:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err.real(), transient=True) as bar:
        tasks: dict[str, int] = {}

        def update(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = bar.add_task(phase, total=total)
            bar.update(tasks[phase], completed=done, total=total)

        yield update


def _print_report(report, as_json: bool) -> None:
    if as_json:
        _dump(report.to_json())
        return
    for name, reason in report.skipped:
        err.print(f"[yellow]skipped[/yellow] {escape(name)}: {escape(reason)}")
    for name, reason in report.failed:
        err.print(f"[red]failed[/red]  {escape(name)}: {escape(reason)}")
    for name, warning in report.warnings:
        err.print(f"[yellow]warning[/yellow] {escape(name)}: {escape(warning)}")
    for name in report.tombstoned:
        err.print(f"[yellow]left alone[/yellow] {escape(name)}: deleted in Cairn before")
    out.print(f"added {len(report.added)}, updated {len(report.updated)}, "
              f"unchanged {len(report.unchanged)}, skipped {len(report.skipped)}, "
              f"failed {len(report.failed)}; embedded {report.embedded} chunk(s)")


def _exit_if_failed(report) -> None:
    """Exit 1 (after the report was printed) when any source failed or became a dead letter;
    what succeeded in the same run is stored all the same."""
    if report.failed:
        raise typer.Exit(1)


@app.command()
def ingest(paths: list[str] = typer.Argument(..., help="Files, folders (recursive) or http(s) URLs."),
           json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
           quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar.")) -> None:
    """Ingest files, folders and web pages: notes, documents (PDF, Office, EPUB, RTF, e-mail),
    images (OCR), audio (speech-to-text) and https://... URLs (see docs/formats.md)."""
    with _service() as svc, _progress(not quiet) as prog:
        report = svc.ingest([_arg_text(p) for p in paths], progress=prog)
    _print_report(report, json_out)
    _exit_if_failed(report)


# --- jobs, url ingest
jobs_app = typer.Typer(help="The ingest job queue: counts, dead letters, retry, resume.",
                       invoke_without_command=True)
app.add_typer(jobs_app, name="jobs")


def _ts(value) -> str:
    from datetime import datetime, timezone
    return datetime.fromtimestamp(value, timezone.utc).strftime("%Y-%m-%d %H:%M:%S") if value else "-"


@jobs_app.callback()
def jobs_list(ctx: typer.Context, json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Job counts by state, and the dead letters with their last error."""
    if ctx.invoked_subcommand is not None:
        return
    with _service() as svc:
        info = svc.jobs()
    if json_out:
        _dump(info.to_json())
        return
    c = info["counts"]
    out.print(f"queued {c['queued']}, running {c['running']}, interrupted {c['interrupted']}, "
              f"done {c['done']}, dead {c['dead']}")
    for j in info["running"]:
        out.print(f"running job {j['id']} (pid {j['owner_pid']}, attempt {j['attempts']}): {escape(j['source'])}")
    for j in info["interrupted"]:
        out.print(f"interrupted job {j['id']} (its process {j['owner_pid']} is gone; `cairn jobs run` "
                  f"resumes it): {escape(j['source'])}")
    if info["dead"]:
        table = Table(title="dead letters (`cairn jobs retry ID` or `--all`)", expand=True)
        table.add_column("id", justify="right")
        table.add_column("source", ratio=2)
        table.add_column("attempts", justify="right")
        table.add_column("last error", ratio=3)
        table.add_column("when (UTC)")
        for j in info["dead"]:
            table.add_row(str(j["id"]), escape(j["source"]), str(j["attempts"]),
                          escape(j["last_error"] or ""), _ts(j["finished_at"]))
        out.print(table)


@jobs_app.command("retry")
def jobs_retry(ids: Optional[list[int]] = typer.Argument(None, help="Dead-letter job ids."),
               all_: bool = typer.Option(False, "--all", help="Retry every dead letter."),
               json_out: bool = typer.Option(False, "--json"),
               quiet: bool = typer.Option(False, "--quiet", "-q")) -> None:
    """Requeue dead letters and run them."""
    if bool(ids) == all_:
        _usage_fail("give job ID(s) or --all (see `cairn jobs` for the dead letters)")
    with _service() as svc, _progress(not quiet) as prog:
        report = svc.jobs_retry(None if all_ else list(ids), progress=prog)
    _print_report(report, json_out)
    _exit_if_failed(report)


@jobs_app.command("run")
def jobs_run(json_out: bool = typer.Option(False, "--json"),
             quiet: bool = typer.Option(False, "--quiet", "-q")) -> None:
    """Resume pending work: jobs left by a stopped process, queued jobs, missing vectors."""
    with _service() as svc, _progress(not quiet) as prog:
        report = svc.jobs_run(progress=prog)
    _print_report(report, json_out)
    _exit_if_failed(report)
# --- end jobs, url ingest


@import_app.command("notes")
def import_notes(file: Path, json_out: bool = typer.Option(False, "--json"),
                 quiet: bool = typer.Option(False, "--quiet", "-q")) -> None:
    """Import notes from JSONL: {"id", "text", "title"?, "tags"?, "created"?} per line
    (created in ISO 8601); the whole file is checked before anything is written."""
    with _service() as svc, _progress(not quiet) as prog:
        report = svc.import_notes(file, progress=prog)
    _print_report(report, json_out)
    _exit_if_failed(report)


@import_app.command("chat")
def import_chat(file: Path, json_out: bool = typer.Option(False, "--json"),
                quiet: bool = typer.Option(False, "--quiet", "-q"),
                no_extract: bool = typer.Option(False, "--no-extract",
                                                help="Do not extract facts after importing."),
                llm: Optional[str] = typer.Option(None, "--llm", help="Extraction model: none (rules) | "
                                                  "embedded | openai:BASE_URL:MODEL (default: \\[memory] extract_llm).")) -> None:
    """Import a chat transcript from JSONL: {"conversation", "session", "id", "speaker",
    "time", "text"} per line (time in ISO 8601); then extract facts from its sessions."""
    with _service() as svc, _progress(not quiet) as prog:
        report = svc.import_chat(file, progress=prog, extract=False if no_extract else None, llm=llm)
    _print_report(report, json_out)
    if not json_out and report.extracted:
        _print_extraction_summary(report.extractions)
    _exit_if_failed(report)


# --- extraction ------------------------------------------------------------------------

def _print_extraction_summary(sessions) -> None:
    facts = sum(len(s.result.facts) for s in sessions)
    methods = sorted({s.result.method for s in sessions})
    out.print(f"extracted {facts} fact(s) from {len(sessions)} session(s) by {', '.join(methods) or '-'}")
    actions: dict[str, int] = {}
    for s in sessions:
        for action, n in s.memories.items():
            actions[action] = actions.get(action, 0) + n
    if actions:
        out.print("memory store: " + ", ".join(f"{n} {a}" for a, n in sorted(actions.items())))
    for s in sessions:
        for p in s.result.problems:
            err.print(f"[yellow]extraction[/yellow] {escape(s.path)}: {escape(p)}")


@app.command("extract")
def extract_cmd(target: Optional[str] = typer.Argument(None, help="Conversation name, chat note id or "
                                                       "path (default: every chat session)."),
                llm: Optional[str] = typer.Option(None, "--llm", help="none (rules) | embedded | "
                                                  "openai:BASE_URL:MODEL (default: \\[memory] extract_llm)."),
                json_out: bool = typer.Option(False, "--json", help="Print the facts as JSON.")) -> None:
    """Extract facts about the people in chat sessions; store them as fact-augmented keys."""
    with _service() as svc:
        sessions = svc.extract(target, llm=llm)
    if json_out:
        _dump(sessions.to_json())
        return
    for s in sessions:
        res = s.result
        out.print(f"[bold]{escape(s.path)}[/bold] — {len(res.facts)} fact(s), method {res.method}"
                  f" ({escape(res.note)})")
        for f in res.facts:
            out.print("  " + escape(f"[{', '.join(f.source_ids)}] ({f.kind}) {f.text}"))
        for p in res.problems:
            err.print(f"[yellow]problem[/yellow] {escape(s.path)}: {escape(p)}")
    if not sessions:
        out.print("no chat sessions to extract from (import one with `cairn import chat`)")
# --- end extraction --------------------------------------------------------------------


@app.command("reindex")
def reindex_cmd(json_out: bool = typer.Option(False, "--json"),
                quiet: bool = typer.Option(False, "--quiet", "-q")) -> None:
    """Rebuild the whole index from the vault alone."""
    with _service() as svc, _progress(not quiet) as prog:
        report = svc.reindex(progress=prog)
    _print_report(report, json_out)
    _exit_if_failed(report)


@app.command()
def status(json_out: bool = typer.Option(False, "--json")) -> None:
    """Counts of notes, chunks and vectors, and rows missing from either index."""
    with _service() as svc:
        info = svc.status()
    if json_out:
        _dump(info.to_json())
        return
    for key, value in info.items():
        out.print(f"{key:22} {value}")


def _hits_table(hits):
    table = Table(show_lines=False, expand=True)
    table.add_column("#", justify="right", width=3)
    table.add_column("title / snippet", ratio=3, overflow="fold")
    table.add_column("where", ratio=1, min_width=12, overflow="fold")  # a path wraps, never "notes/d…"
    table.add_column("score", justify="right", width=6)
    table.add_column("kw / sem / rec", width=16)
    for i, h in enumerate(hits, 1):
        where = h.path + (f" p.{h.page}" if h.page else "") + (f" #{h.source_id}" if h.source_id else "")
        s = h.signals
        table.add_row(str(i), f"[bold]{escape(h.title)}[/bold]\n{escape(h.snippet)}", escape(where),
                      f"{h.score:.3f}",
                      f"{s.get('keyword', 0):.2f} / {s.get('semantic', 0):.2f} / {s.get('recency', 0):.2f}")
    return table


# A query may start with "-" ("-5 degrees", "-v flag"): an unknown option is taken as the
# text (`--` before the text also works).
_TEXT_ARG = {"ignore_unknown_options": True}


@app.command("search", context_settings=_TEXT_ARG)
def search_cmd(query: Optional[str] = typer.Argument(None, help="Any text."),
               k: Optional[int] = typer.Option(None, "--k", min=1, max=1000, help="Number of hits (default: \\[search] k, 10)."),
               json_out: bool = typer.Option(False, "--json", help="Print hits as JSON."),
               type_: Optional[list[NoteType]] = typer.Option(None, "--type", help="Keep only notes of this type (repeatable)."),
               since: Optional[str] = typer.Option(None, "--since", help="Keep only items dated on/after this ISO date."),
               mode: SearchMode = typer.Option("hybrid", "--mode", help="Signals to use: all, BM25 only, embeddings only."),
               fusion: Optional[Fusion] = typer.Option(None, "--fusion", help="How signals combine (default: \\[search] fusion, weighted)."),
               batch: Optional[Path] = typer.Option(None, "--batch", help="JSONL of {id, query}; prints JSONL of {query_id, hits}.")) -> None:
    """Search by keyword and meaning; each hit shows its per-signal scores."""
    _early(check_since, since, "--since", code=2)  # the service's rule, checked before the index opens
    if (query is None) == (batch is None):
        _usage_fail("give either a QUERY or --batch FILE")
    mode, fusion, type_ = _value(mode), _value(fusion), _value(type_)
    if batch is not None:
        from cairn.service import read_batch_file
        try:  # read before the index is opened: a bad file is a usage error (exit 2)
            queries = read_batch_file(batch)
        except (OSError, ValueError) as exc:
            _usage_fail(f"--batch {_error_text(exc)}")
    with _service() as svc:
        if batch is not None:
            for row in svc.search_batch(queries, k=k, mode=mode, fusion=fusion, types=type_, since=since):
                _dump(row.to_json(), compact=True)
            return
        res = svc.search(_arg_text(query), k=k, mode=mode, fusion=fusion, types=type_, since=since)
    for w in res.warnings:
        err.print(f"[yellow]warning:[/yellow] {escape(w)}")
    if json_out:
        _dump(res.to_json())
        return
    if not res.hits:
        out.print("no results" + (" (see warnings above)" if res.warnings else ""))
        return
    out.print(_hits_table(res.hits))
    if res.below_floor and len(res.hits) < (k or 10):
        err.print(f"{res.below_floor} less related note(s) not shown: below the relevance floor "
                  f"(cosine < {res.semantic_floor:g}, \\[search] semantic_floor)")


@app.command(context_settings=_TEXT_ARG)
def ask(question: Optional[str] = typer.Argument(None, help="A question about your notes."),
        llm: Optional[str] = typer.Option(None, "--llm", help="none (extractive, the default) | embedded | "
                                          "openai:BASE_URL:MODEL"),
        json_out: bool = typer.Option(False, "--json", help="Print the answer as JSON (with --batch: JSONL)."),
        trace: bool = typer.Option(False, "--trace", help="Also show each stage (what ran, in/out, ms) on stderr."),
        batch: Optional[Path] = typer.Option(None, "--batch", help="One question per line, or JSONL of "
                                             "{id, question}; prints one answer per line.")) -> None:
    """Answer a question from your notes, with checked citations."""
    if (question is None) == (batch is None):
        _usage_fail("give either a QUESTION or --batch FILE")
    if batch is not None:
        return _ask_batch(batch, llm, json_out)
    _early(check_question, question)
    with _service() as svc:
        ans = svc.ask(_arg_text(question), llm=llm)
        if trace:
            from cairn.traces import load, render
            trace_text = render(load(svc.settings.home, ans.trace_id))
    if json_out:
        _dump(ans.to_json())
    else:
        _print_answer(ans)
    if trace:
        sys.stdout.flush()
        err.print(trace_text, markup=False)


def _print_answer(ans) -> None:
    if ans.fallback:
        err.print(f"[yellow]note:[/yellow] {escape(ans.fallback)}")
    out.print(escape(ans.answer))
    out.print(f"[dim]verdict: {ans.verdict} · {ans.mode}{' · ' + ans.llm if ans.llm else ''}[/dim]")
    if ans.citations:
        out.print("\n[bold]Sources[/bold]")
        for c in ans.citations:
            ranges = ", ".join(f"{q['start']}–{q['end']}" for q in c.get("quotes") or [c])
            where = c["path"] + (f", page {c['page']}" if c["page"] else "") + f", chars {ranges}"
            out.print(f"[{c['n']}] {escape(c['title'])} — {escape(where)}")
            if c.get("speaker"):
                said = c["speaker"] + (f", {c['event_time']}" if c.get("event_time") else "")
                out.print(f"    [dim]said by {escape(said)}[/dim]")
            if c.get("source"):
                out.print(f"    [dim]source: {escape(str(c['source']))}[/dim]")


def _ask_batch(path: Path, llm: Optional[str], json_out: bool) -> None:
    """`cairn ask --batch FILE`: every question in one process (answer/batch.py reads the
    file; a bad file is a usage error, exit 2, before anything is opened)."""
    from cairn.answer.batch import read_questions
    try:
        questions = read_questions(path)
    except (ValueError, OSError) as exc:
        _usage_fail(f"--batch {_error_text(exc)}")
    with _service() as svc:
        for row in svc.ask_batch(questions, llm=llm):
            if json_out:
                sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
            else:
                out.print(f"[bold]{escape(row['id'])}[/bold] {escape(row['answer'])} "
                          f"[dim]({row['verdict']} · {row['mode']})[/dim]")
            sys.stdout.flush()



# --- memory (src/cairn/memory, docs/memory.md) ---------------------------------------------
core_app = typer.Typer(help="Core memory blocks (always in the assistant's prompt).",
                       invoke_without_command=True)
entity_app = typer.Typer(help="Entities (people, projects, places) and their aliases.", no_args_is_help=True)
app.add_typer(core_app, name="core")
app.add_typer(entity_app, name="entity")


def _memory_line(m) -> str:
    bits = [f"[bold]{m.id}[/bold]", m.kind, f"conf {m.confidence:.2f}", f"scope {escape(m.scope)}"]
    if m.status != "active":
        bits.append(f"[yellow]{m.status}[/yellow]")
    if m.event_time:
        bits.append(f"when {m.event_time}")
    line = " · ".join(bits) + f"\n  {escape(m.text)}"
    if m.valid_to:
        line += f"\n  [dim]valid {m.valid_from} → {m.valid_to}" + (
            f", superseded by {m.superseded_by}" if m.superseded_by else "") + "[/dim]"
    return line




@app.command()
def remember(text: str = typer.Argument(..., help="The statement to remember."),
             kind: Optional[MemoryKind] = typer.Option(None, "--kind", help="fact | preference | person | project | expertise | decision | constraint | promise | expectation | event (default: inferred)"),
             scope: str = typer.Option("global", "--scope", help="global, or a project/agent name."),
             at: Optional[str] = typer.Option(None, "--at", help="When it was said (ISO 8601); relative dates resolve against it."),
             json_out: bool = typer.Option(False, "--json")) -> None:
    """Remember a statement: adds, reinforces or supersedes, and says why."""
    with _service() as svc:
        change = svc.remember(_arg_text(text), kind=_value(kind), scope=scope, at=at)
    if json_out:
        _dump(change.to_json())
        return
    out.print(f"{change.action}: {_memory_line(change.memory)}")
    if change.previous:
        out.print(f"  [dim]replaces {change.previous.id}: {escape(change.previous.text)}[/dim]")
    out.print(f"  [dim]reason: {escape(change.reason)}[/dim]")


@app.command()
def memories(kind: Optional[MemoryKind] = typer.Option(None, "--kind"),
             scope: Optional[str] = typer.Option(None, "--scope"),
             all_: bool = typer.Option(False, "--all", help="Include superseded and forgotten memories, with their history."),
             json_out: bool = typer.Option(False, "--json")) -> None:
    """List memories (active ones; --all adds superseded and forgotten)."""
    with _service() as svc:
        items = svc.memories(kind=_value(kind), scope=scope, include_inactive=all_)
    if json_out:
        _dump(items.to_json())
        return
    if not items:
        out.print("no memories")
    for m in items:
        out.print(_memory_line(m))
        if all_:
            for event in m.log:
                out.print(f"    [dim]{escape(str(event.get('at')))} {escape(str(event.get('action')))}: "
                          f"{escape(str(event.get('reason', '')))}[/dim]")


@app.command()
def forget(memory_id: str = typer.Argument(..., help="Memory id (see `cairn memories`).")) -> None:
    """Forget a memory (tombstone: never recalled again, still shown by `memories --all`)."""
    with _service() as svc:
        change = svc.forget(memory_id)
    if change.action == "none":
        out.print(f"{escape(change.reason)}: {_memory_line(change.memory)}")
    else:
        out.print(f"forgotten: {_memory_line(change.memory)}")


@app.command()
def recall(query: str = typer.Argument(..., help="What to recall."),
           scope: Optional[str] = typer.Option(None, "--scope", help="Project/agent scope (global memories always included)."),
           k: int = typer.Option(10, "--k", min=1, max=1000),
           at: Optional[str] = typer.Option(None, "--at", help="Time of the query (ISO 8601), for recency."),
           history: bool = typer.Option(False, "--history", help="Include superseded and forgotten memories."),
           json_out: bool = typer.Option(False, "--json")) -> None:
    """Recall memories, ranked, with every score component."""
    from cairn.memory.recall import explain
    with _service() as svc:
        hits = svc.recall(_arg_text(query), scope=scope, k=k, at=at, include_history=history)
    if json_out:
        _dump(hits.to_json())
        return
    if not hits:
        out.print("no memories recalled")
    for i, h in enumerate(hits, 1):
        s = h.signals
        out.print(f"{i:>2}. {h.score:.3f}  {_memory_line(h.memory)}")
        out.print(f"     [dim]{explain(s)}  (cos {s['semantic']:.2f}, kw {s['keyword']:.2f}, "
                  f"bm25 {s['bm25']:.2f}, age {s['age_days']:.0f} d)[/dim]")


@core_app.callback()
def core_show(ctx: typer.Context, scope: Optional[str] = typer.Option(None, "--scope"),
              json_out: bool = typer.Option(False, "--json")) -> None:
    """Show the core blocks and the top memories an assistant gets in its prompt."""
    if ctx.invoked_subcommand is not None:
        return
    with _service() as svc:
        ctx_data = svc.core(scope=scope)
    if json_out:
        _dump(ctx_data.to_json())
        return
    out.print(escape(ctx_data.render()) or "no core blocks and no memories yet")


@core_app.command("set")
def core_set(name: str = typer.Argument(..., help="Block name, e.g. person or style."),
             text: str = typer.Argument(..., help="Block text (empty clears it).")) -> None:
    """Create or replace a core block."""
    with _service() as svc:
        svc.core_set(name, _arg_text(text))
    out.print(f"core block {escape(name)} saved")


@entity_app.command("alias")
def entity_alias(name: str = typer.Argument(..., help="An entity's name."),
                 alias: str = typer.Argument(..., help="Another name for it (any script).")) -> None:
    """Join ALIAS to the entity NAME (recall for either finds facts stored under the other)."""
    with _service() as svc:
        ent = svc.entity_alias(_arg_text(name), _arg_text(alias))
    out.print(f"{escape(ent['name'])} ({ent['id']}): {escape(', '.join(ent['aliases']))}")


@app.command("entities")
def entities_cmd(json_out: bool = typer.Option(False, "--json")) -> None:
    """List entities with their aliases and number of memories."""
    with _service() as svc:
        items = svc.entities()
    if json_out:
        _dump(items.to_json())
        return
    if not items:
        out.print("no entities")
    for e in items:
        out.print(f"{escape(e['name'])} ({e['id']}, {e['memories']} memories): {escape(', '.join(e['aliases']))}")
# --- sync, watch, links, notes ---------------------------------------------------------------

note_app = typer.Typer(help="Create, show, update and delete notes in the vault.", no_args_is_help=True)
app.add_typer(note_app, name="note")


def _print_sync(report, as_json: bool) -> None:
    if as_json:
        _dump(report.to_json())
        return
    for path, reason in report.failed:
        err.print(f"[red]failed[/red]  {escape(path)}: {escape(reason)}")
    for path in report.trashed:
        err.print(f"[yellow]trashed[/yellow] {escape(path)}: deleted in Cairn, not re-indexed")
    for label, paths in (("added", report.added), ("updated", report.updated),
                         ("metadata", report.metadata), ("removed", report.removed)):
        for path in paths:
            out.print(f"{label:8} {escape(path)}")
    for old, new in report.moved:
        out.print(f"moved    {escape(old)} -> {escape(new)}")
    out.print(f"added {len(report.added)}, updated {len(report.updated)}, metadata {len(report.metadata)}, "
              f"moved {len(report.moved)}, removed {len(report.removed)}, unchanged {report.unchanged}, "
              f"trashed {len(report.trashed)}, failed {len(report.failed)}; embedded {report.embedded} chunk(s)")


@app.command("sync")
def sync_cmd(json_out: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Reconcile the vault with the index: new, changed, moved and deleted notes."""
    with _service() as svc:
        report = svc.sync()
    _print_sync(report, json_out)
    _exit_if_failed(report)


@app.command("watch")
def watch_cmd() -> None:
    """Keep the index in line with the vault (and ingest inbox files) until Ctrl-C."""
    import threading

    def show(event) -> None:
        if event.kind == "ready":
            err.print("watching the vault" + (" and inbox folder(s)" if svc.settings.sync.inbox else "")
                      + "; Ctrl-C to stop")
        elif event.kind == "sync" and event.sync is not None:
            _print_sync(event.sync, False)
        elif event.kind == "inbox":
            if event.ingest is not None:  # its report lists the files deleted in Cairn too
                _print_report(event.ingest, False)
            else:
                for name in event.skipped or []:
                    err.print(f"[yellow]skipped[/yellow] {escape(name)}: deleted in Cairn before")
        elif event.kind == "error":
            err.print(f"[red]error:[/red] {escape(event.message)}")

    with _service() as svc:
        try:
            svc.watch(threading.Event(), on_event=show, raise_interrupt=True)
        except KeyboardInterrupt:
            err.print("stopped")


def _link_row(link, outgoing: bool) -> str:
    text = link.target + (f"#{link.anchor}" if link.anchor and link.kind != "heading" else "")
    shown = f"[[{text}{'|' + link.alias if link.alias else ''}]]"
    if not outgoing:
        return f"{link.source_path}  {shown}"
    if link.kind == "unresolved":
        return f"{shown}  -> unresolved"
    if link.kind == "heading":
        return f"{shown}  -> this note"
    return f"{shown}  -> {link.resolved_path}"


@app.command("links")
def links_cmd(note: Optional[str] = typer.Argument(None, help="Note title, alias, path or id."),
              unresolved: bool = typer.Option(False, "--unresolved", help="List every unresolved link."),
              json_out: bool = typer.Option(False, "--json")) -> None:
    """Outgoing links and backlinks of a note, or all unresolved links."""
    if (note is None) == (not unresolved):
        _usage_fail("give either a NOTE or --unresolved")
    with _service() as svc:
        if unresolved:
            items = svc.unresolved_links()
            if json_out:
                _dump(items.to_json())
                return
            for l in items:
                out.print(escape(f"{l.source_path}  [[{l.target}]]"))  # the whole line: [[x]] is markup
            out.print(f"{len(items)} unresolved link(s)")
            return
        info = svc.links(_arg_text(note))
    if json_out:
        _dump(info.to_json())
        return
    n = info["note"]
    out.print(f"[bold]{escape(n['title'])}[/bold]  {escape(n['path'])}  ({n['id']})")
    out.print(f"\n[bold]Outgoing[/bold] ({len(info['outgoing'])})")
    for l in info["outgoing"]:
        out.print("  " + escape(_link_row(l, True)))
    out.print(f"\n[bold]Backlinks[/bold] ({len(info['backlinks'])})")
    for l in info["backlinks"]:
        out.print("  " + escape(_link_row(l, False)))


def _body_arg(body: Optional[str]) -> str:
    if body is not None:
        return _arg_text(body)
    if sys.stdin.isatty():
        _fail("give the note text with --body, or pipe it on stdin")
    return sys.stdin.read()


def _print_note(note, action: str, as_json: bool) -> None:
    if as_json:
        _dump({"action": action, "id": note.id, "path": note.path, "title": note.title}, compact=True)
    else:
        out.print(f"{action} {escape(note.path)} ({note.id})")


@note_app.command("create")
def note_create(title: str = typer.Argument(..., help="Title (also the file name)."),
                body: Optional[str] = typer.Option(None, "--body", help="Text (default: stdin)."),
                folder: str = typer.Option("", "--folder", help="Vault sub-folder."),
                tag: Optional[list[str]] = typer.Option(None, "--tag", help="Tag (repeatable)."),
                json_out: bool = typer.Option(False, "--json")) -> None:
    """Create a note <vault>/<folder>/<title>.md and index it."""
    text = _body_arg(body)
    with _service() as svc:
        note = svc.note_create(_arg_text(title), text, folder, tag)
    _print_note(note, "created", json_out)


@note_app.command("show")
def note_show(note: str = typer.Argument(..., help="Title, alias, path or id."),
              json_out: bool = typer.Option(False, "--json")) -> None:
    """Print a note's text."""
    with _service() as svc:
        info = svc.note_show(_arg_text(note))
    if json_out:
        _dump(info.to_json())
        return
    out.print(f"[bold]{escape(info['title'])}[/bold]  {escape(info['path'])}  ({info['id']})\n")
    out.print(escape(info["body"]))


@note_app.command("update")
def note_update(note: str = typer.Argument(..., help="Title, alias, path or id."),
                body: Optional[str] = typer.Option(None, "--body", help="Text (default: stdin)."),
                mode: NoteUpdateMode = typer.Option("overwrite", "--mode", help="Replace the body or add to it."),
                json_out: bool = typer.Option(False, "--json")) -> None:
    """Overwrite or append to a note's body (its frontmatter is kept)."""
    text = _body_arg(body)
    with _service() as svc:
        row = svc.note_update(_arg_text(note), text, _value(mode))
    _print_note(row, "updated", json_out)


@note_app.command("delete")
def note_delete(note: str = typer.Argument(..., help="Title, alias, path or id."),
                json_out: bool = typer.Option(False, "--json")) -> None:
    """Move a note to <vault>/.trash and remove it from the index (kept deleted on sync)."""
    with _service() as svc:
        info = svc.note_delete(_arg_text(note))
    if json_out:
        _dump(info.to_json(), compact=True)
        return
    out.print(f"deleted {escape(info['path'])} ({info['id']}); file moved to "
              f"{escape(str(info['trash_path']))}")


if __name__ == "__main__":
    app()


def _register_plugin_commands(argv: list[str] | None = None) -> None:
    """Commands from plugins through the `register_commands` hook: the built-ins' always;
    the entry-point plugins' only when the command line may need them (help, no command, or
    a command name Cairn does not know), since reading entry points scans every installed
    package (plugins.load_entry_points). `cairn plugins` loads them itself."""
    from cairn.plugins import load_builtins, load_entry_points, pm
    load_builtins().hook.register_commands(cli=app)
    args = sys.argv[1:] if argv is None else argv
    command = _command_name(args)
    known = {c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands}
    known |= {g.name for g in app.registered_groups}
    if command is not None and command in known and "--help" not in args:
        if command != "import" or _subcommand(args, "import") in {c.name for c in import_app.registered_commands}:
            return
    added = load_entry_points()
    if added:
        pm.subset_hook_caller("register_commands",
                              remove_plugins=[p for n, p in pm.list_name_plugin() if n not in added])(cli=app)
        register_importer_commands(import_app)  # `cairn import NAME` for plugin importers


def _importer_command(name: str):
    """`cairn import NAME FILE [--json] [-q]` for an importer a plugin registered."""

    def run(file: Path = typer.Argument(..., help="The file to import."),
            json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
            quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar.")) -> None:
        with _service() as svc, _progress(not quiet) as prog:
            report = svc.import_file(name, file, progress=prog)
        _print_report(report, json_out)
        _exit_if_failed(report)

    run.__doc__ = f"Import FILE with the {name!r} importer (registered by a plugin)."
    return run

def register_importer_commands(import_app) -> None:
    """`cairn import NAME` for every importer a plugin adds (notes and chat have their own).
    Called by the command line once the entry-point plugins are loaded (cli.py), so a
    command that needs no plugin never reads the installed packages."""
    from cairn.registries import importers, reset
    reset()  # the tables were maybe built before these plugins were loaded
    known = {c.name for c in import_app.registered_commands}
    for name in importers():
        if name not in known:
            import_app.command(name)(_importer_command(name))


def _subcommand(args: list[str], command: str) -> str | None:
    """The word after `command` on the command line, or None."""
    try:
        return args[args.index(command) + 1]
    except (ValueError, IndexError):
        return None


def _command_name(args: list[str]) -> str | None:
    """The command word of a command line (after the global options), or None."""
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--home":
            i += 2
            continue
        if a.startswith("-"):
            i += 1
            continue
        return a
    return None


_register_plugin_commands()
