"""`cairn` command line: a thin adapter over `cairn.service.Cairn`.

Results go to stdout (tables, or JSON with --json); progress bars, warnings and errors go
to stderr. Exit codes: 0 ok, 1 user error (bad input, named in the message) or a run in
which a source failed (its report is printed first), 2 usage error (unknown option, a value
outside an option's choices or range: reported by the argument parser; a bad `search
--batch` FILE: `_usage_fail`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

from cairn.interfaces.cli_start import command_name as _command_name, is_program, start_early

start_early()  # before typer is imported: the model session of a search starts now (cli_start)

import typer  # noqa: E402

from cairn.validate import check_question  # noqa: E402
from cairn.interfaces.terminal_text import listed_title  # noqa: E402
from cairn.interfaces.cli_common import (  # noqa: F401,E402  (importable from cairn.cli as before)
    _choices, SearchMode, Fusion, NoteType, NoteUpdateMode, MemoryKind, NoteStatus, InputSource,
    _value, app, import_app, _LazyConsole, escape, Table,
    out, err, main, _error_text, _terminate, _arg_text, _arg_path,
    _dump, _fail, _usage_fail, _early, _service, _progress,
    _print_report, _exit_if_failed, STATE)


@app.command()
def ingest(paths: list[str] = typer.Argument(..., help="Files, folders (recursive) or http(s) URLs."),
           json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
           quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar.")) -> None:
    """Ingest files, folders and web pages: notes, documents (PDF, Office, EPUB, RTF, e-mail),
    images (OCR), audio (speech-to-text) and https://... URLs (see docs/formats.md)."""
    with _service(jobs=True) as svc, _progress(not quiet) as prog:
        from cairn.ingest.run import process_started  # timings include this command's start-up
        report = svc.ingest([_arg_path(p) for p in paths], progress=prog, started=process_started())
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
    with _service(jobs=True) as svc, _progress(not quiet) as prog:
        report = svc.jobs_retry(None if all_ else list(ids), progress=prog)
    _print_report(report, json_out)
    _exit_if_failed(report)


@jobs_app.command("run")
def jobs_run(json_out: bool = typer.Option(False, "--json"),
             quiet: bool = typer.Option(False, "--quiet", "-q")) -> None:
    """Resume pending work: jobs left by a stopped process, queued jobs, missing vectors."""
    with _service(jobs=True) as svc, _progress(not quiet) as prog:
        from cairn.ingest.run import process_started
        report = svc.jobs_run(progress=prog, started=process_started())
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
        if key != "warnings":
            out.print(f"{key:22} {value}")
    for warning in info.get("warnings", []):
        err.print(f"[yellow]warning:[/yellow] {escape(warning)}")


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
               batch: Optional[Path] = typer.Option(None, "--batch", help="JSONL of {id, query}; prints JSONL of {query_id, hits}."),
               entity: Optional[str] = typer.Option(None, "--entity", help="Keep only notes/messages mentioning this entity (any of its names)."),
               status: Optional[NoteStatus] = typer.Option(None, "--status", help="Keep only notes with this status (a note never marked is 'saved')."),
               input_source: Optional[InputSource] = typer.Option(None, "--input-source", help="Keep only notes that came in this way.")) -> None:
    """Search by keyword and meaning; each hit shows its per-signal scores."""
    from cairn.interfaces.cli_search import run_search
    run_search(query, k=k, json_out=json_out, types=_value(type_), since=since, mode=_value(mode),
               fusion=_value(fusion), batch=batch, entity=entity, status=_value(status),
               input_source=_value(input_source))


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
    with _service(preload="hybrid") as svc:  # answers start from a hybrid search
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
            out.print(f"[{c['n']}] {escape(listed_title(c['title']))} — {escape(where)}")
            if c.get("speaker"):
                said = c["speaker"] + (f", {c['event_time']}" if c.get("event_time") else "")
                out.print(f"    [dim]said by {escape(said)}[/dim]")
            if c.get("source"):
                out.print(f"    [dim]source: {escape(str(c['source']))}[/dim]")


def _ask_batch(path: Path, llm: Optional[str], json_out: bool) -> None:
    """`cairn ask --batch FILE`: every question in one process (ops/search.py `read_questions`
    reads the file; a bad file is a usage error, exit 2, before anything is opened)."""
    from cairn.ops.search import read_questions
    try:
        questions = read_questions(path)
    except (ValueError, OSError) as exc:
        _usage_fail(f"--batch {_error_text(exc)}")
    with _service(preload="hybrid") as svc:
        for row in svc.ask_batch(questions, llm=llm):
            if json_out:
                sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
            else:
                out.print(f"[bold]{escape(row['id'])}[/bold] {escape(row['answer'])} "
                          f"[dim]({row['verdict']} · {row['mode']})[/dim]")
            sys.stdout.flush()


# Memory, then notes: imported here so their commands keep their place in `cairn --help`.
from cairn.interfaces import cli_memory  # noqa: E402,F401
from cairn.interfaces import cli_notes  # noqa: E402,F401
from cairn.interfaces import cli_import  # noqa: E402,F401  (cairn import SOURCE PATH, --list)
from cairn.interfaces import cli_history  # noqa: E402,F401
from cairn.interfaces import cli_backup  # noqa: E402,F401


def _register_plugin_commands(argv: list[str] | None = None) -> None:
    """Commands from plugins through the `register_commands` hook: the built-ins' unless
    the `cairn` program was asked for one of this module's own commands (without --help:
    spares importing their modules and typer building their options, ~60-90 ms of a cold
    `cairn search`); the entry-point plugins' only when the command line may need them
    (help, no command, or a command name Cairn does not know), since reading entry points
    scans every installed package (plugins.load_entry_points). `cairn plugins` loads them.
    When the program was asked for a known command, the others are also dropped from `app`
    (`_keep_only`)."""
    args = sys.argv[1:] if argv is None else argv
    command = _command_name(args)
    program = is_program()
    if program and _is_known(command, args):
        _keep_only(command)
        return
    from cairn.plugins import load_builtins, load_entry_points, pm
    load_builtins().hook.register_commands(cli=app)
    if _is_known(command, args):
        return
    added = load_entry_points()
    if added:
        pm.subset_hook_caller("register_commands",
                              remove_plugins=[p for n, p in pm.list_name_plugin() if n not in added])(cli=app)
        register_importer_commands(import_app)  # `cairn import NAME` for plugin importers


def _keep_only(command: str) -> None:
    """Leave on `app` only the command (or group) named `command`. typer turns every
    registered command into a click command, options and all, each time the program runs
    (typer.main.get_group_from_info: 24 commands and 11 groups, ~20-50 ms of a cold
    start on the 2-core machine); a process that runs one known command needs only that
    one. Only for the `cairn` program (its command line is fixed for its life), never
    when shell completion is asked for (it lists the commands)."""
    import os
    if any(k.startswith("_CAIRN_COMPLETE") for k in os.environ):
        return
    app.registered_commands = [c for c in app.registered_commands
                               if (c.name or c.callback.__name__.replace("_", "-")) == command]
    app.registered_groups = [g for g in app.registered_groups if g.name == command]


def _is_known(command: str | None, args: list[str]) -> bool:
    """True when `command` is a command registered on `app`, or a group whose next word on
    the command line is one of its registered commands (plugins may add commands to a
    group: `entity show`), and no --help was asked for."""
    if command is None or "--help" in args:
        return False

    def names(typer_app) -> set[str]:
        return ({c.name or c.callback.__name__.replace("_", "-") for c in typer_app.registered_commands}
                | {g.name for g in typer_app.registered_groups})
    if command in {c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands}:
        return True
    group = next((g for g in app.registered_groups if g.name == command), None)
    return group is not None and _subcommand(args, command) in names(group.typer_instance)


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


def _one_line_summaries(group: typer.Typer) -> None:
    """Give each command of `group` (and of its sub-groups) whose summary, the first
    paragraph of its docstring, is wrapped in the source a `short_help` with those line
    breaks joined: typer's rich help keeps single line breaks in the commands table, so
    the summaries broke mid-sentence at whatever width the terminal had."""
    import inspect
    for info in group.registered_commands:
        if info.short_help is None:
            first = (info.help or inspect.getdoc(info.callback) or "").split("\n\n")[0]
            if "\n" in first.strip():
                info.short_help = " ".join(first.split())
    for sub in group.registered_groups:
        if sub.typer_instance is not None:
            _one_line_summaries(sub.typer_instance)


_register_plugin_commands()
_one_line_summaries(app)


if __name__ == "__main__":  # after the plugins' commands are registered (python -m cairn.cli)
    try:
        app()
    except SystemExit as exc:
        if exc.code == 130:  # interrupted (cli_io._stopped): leave as the `cairn` program does
            # Under `python -m`, CPython ends a process by SIGINT (status -2, not 130) when a
            # KeyboardInterrupt once left code run from a string (`exec(str)`, as dataclasses
            # and namedtuple do when a module defining them is imported lazily), even though
            # the command caught it and exited 130: a SIGTERM during `ingest` ended -2 in 1 run
            # of 5 under load (tests/test_special_files.py). os._exit keeps the status (the
            # service is closed: what was stored is committed), as cli_program._interrupted.
            import os
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(130)
        raise
