"""`cairn` command line: a thin adapter over `cairn.service.Cairn`.

Results go to stdout (tables, or JSON with --json); progress bars, warnings and errors go
to stderr. Exit codes: 0 ok, 1 user error (bad input, named in the message), 2 usage error.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

app = typer.Typer(help="Cairn: a local-first memory for everything you read, save and decide.",
                  no_args_is_help=True, add_completion=False)
import_app = typer.Typer(help="Import JSONL exports (notes or chat transcripts).", no_args_is_help=True)
app.add_typer(import_app, name="import")

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)
STATE: dict = {"home": None}


@app.callback()
def main(home: Optional[str] = typer.Option(None, "--home", envvar="CAIRN_HOME",
                                              help="Cairn home folder (default ~/.cairn)."),
         verbose: bool = typer.Option(False, "--verbose", "-v", help="Log details to stderr.")) -> None:
    """Global options apply to every command."""
    if home is not None and not home.strip():
        _fail("--home is empty; give a folder (or unset CAIRN_HOME to use ~/.cairn)")
    STATE["home"] = Path(home) if home else None
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")


def _arg_text(value: str) -> str:
    """Command-line text as the user typed it: under a non-UTF-8 locale Python decodes argv
    with surrogate escapes, so re-decode those bytes as UTF-8 (e.g. "Děčín" under LC_ALL=C)."""
    if any("\udc80" <= ch <= "\udcff" for ch in value):
        raw = value.encode(sys.getfilesystemencoding(), "surrogateescape")
        return raw.decode("utf-8", "replace")
    return value


def _fail(message: str) -> None:
    err.print(f"[red]error:[/red] {escape(message)}")
    raise typer.Exit(1)


@contextmanager
def _service() -> Iterator["object"]:
    from cairn.config import ConfigError
    from cairn.embed import EmbedderUnavailable
    from cairn.llm.errors import LLMUnavailable
    from cairn.service import Cairn
    from cairn.store.db import IndexOpenError
    try:
        svc = Cairn(STATE["home"])
    except (ConfigError, IndexOpenError, OSError) as exc:
        _fail(str(exc))
    try:
        yield svc
    except (ValueError, OSError) as exc:
        _fail(str(exc))
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            _fail(f"the index {svc.settings.index_path} is busy: another Cairn process kept it "
                  f"locked for more than 10 s ({exc}); nothing was lost — try again")
        _fail(f"index database error: {exc}")
    except (EmbedderUnavailable, LLMUnavailable, IndexOpenError) as exc:
        _fail(str(exc))
    finally:
        svc.close()


@contextmanager
def _progress(enabled: bool = True):
    if not enabled:
        yield None
        return
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=True) as bar:
        tasks: dict[str, int] = {}

        def update(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = bar.add_task(phase, total=total)
            bar.update(tasks[phase], completed=done, total=total)

        yield update


def _print_report(report, as_json: bool) -> None:
    if as_json:
        out.print_json(data=report.to_json())
        return
    for name, reason in report.skipped:
        err.print(f"[yellow]skipped[/yellow] {escape(name)}: {escape(reason)}")
    for name, reason in report.failed:
        err.print(f"[red]failed[/red]  {escape(name)}: {escape(reason)}")
    for name, warning in report.warnings:
        err.print(f"[yellow]warning[/yellow] {escape(name)}: {escape(warning)}")
    out.print(f"added {len(report.added)}, updated {len(report.updated)}, "
              f"unchanged {len(report.unchanged)}, skipped {len(report.skipped)}, "
              f"failed {len(report.failed)}; embedded {report.embedded} chunk(s)")


@app.command()
def ingest(paths: list[Path] = typer.Argument(..., help="Files or folders (recursive)."),
           json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
           quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar.")) -> None:
    """Ingest files and folders: markdown, text, HTML, PDF, DOCX."""
    with _service() as svc, _progress(not quiet) as prog:
        report = svc.ingest(paths, progress=prog)
    _print_report(report, json_out)


@import_app.command("notes")
def import_notes(file: Path, json_out: bool = typer.Option(False, "--json"),
                 quiet: bool = typer.Option(False, "--quiet", "-q")) -> None:
    """Import notes from JSONL: {"id", "text", "title"?, "tags"?, "created"?} per line."""
    with _service() as svc, _progress(not quiet) as prog:
        report = svc.import_notes(file, progress=prog)
    _print_report(report, json_out)


@import_app.command("chat")
def import_chat(file: Path, json_out: bool = typer.Option(False, "--json"),
                quiet: bool = typer.Option(False, "--quiet", "-q"),
                no_extract: bool = typer.Option(False, "--no-extract",
                                                help="Do not extract facts after importing."),
                llm: Optional[str] = typer.Option(None, "--llm", help="Extraction model: none (rules) | "
                                                  "embedded | openai:BASE_URL:MODEL (default: [memory] extract_llm).")) -> None:
    """Import a chat transcript from JSONL: {"conversation", "session", "id", "speaker",
    "time", "text"} per line (time in ISO 8601); then extract facts from its sessions."""
    with _service() as svc, _progress(not quiet) as prog:
        report = svc.import_chat(file, progress=prog, extract=False if no_extract else None, llm=llm)
    _print_report(report, json_out)
    if not json_out and report.extracted:
        _print_extraction_summary(report.extractions)


# --- extraction ------------------------------------------------------------------------

def _print_extraction_summary(sessions) -> None:
    facts = sum(len(s.result.facts) for s in sessions)
    methods = sorted({s.result.method for s in sessions})
    out.print(f"extracted {facts} fact(s) from {len(sessions)} session(s) by {', '.join(methods) or '-'}")
    for s in sessions:
        for p in s.result.problems:
            err.print(f"[yellow]extraction[/yellow] {escape(s.path)}: {escape(p)}")


@app.command("extract")
def extract_cmd(target: Optional[str] = typer.Argument(None, help="Conversation name, chat note id or "
                                                       "path (default: every chat session)."),
                llm: Optional[str] = typer.Option(None, "--llm", help="none (rules) | embedded | "
                                                  "openai:BASE_URL:MODEL (default: [memory] extract_llm)."),
                json_out: bool = typer.Option(False, "--json", help="Print the facts as JSON.")) -> None:
    """Extract facts about the people in chat sessions; store them as fact-augmented keys."""
    with _service() as svc:
        sessions = svc.extract(target, llm=llm)
    if json_out:
        sys.stdout.write(json.dumps([s.to_json() for s in sessions], ensure_ascii=False, indent=2) + "\n")
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


@app.command()
def status(json_out: bool = typer.Option(False, "--json")) -> None:
    """Counts of notes, chunks and vectors, and rows missing from either index."""
    with _service() as svc:
        info = svc.status()
    if json_out:
        out.print_json(data=info)
        return
    for key, value in info.items():
        out.print(f"{key:22} {value}")


def _hits_table(hits) -> Table:
    table = Table(show_lines=False, expand=True)
    table.add_column("#", justify="right", width=3)
    table.add_column("title / snippet", ratio=3)
    table.add_column("where", ratio=1)
    table.add_column("score", justify="right", width=6)
    table.add_column("kw / sem / rec", width=16)
    for i, h in enumerate(hits, 1):
        where = h.path + (f" p.{h.page}" if h.page else "") + (f" #{h.source_id}" if h.source_id else "")
        s = h.signals
        table.add_row(str(i), f"[bold]{escape(h.title)}[/bold]\n{escape(h.snippet)}", escape(where),
                      f"{h.score:.3f}",
                      f"{s.get('keyword', 0):.2f} / {s.get('semantic', 0):.2f} / {s.get('recency', 0):.2f}")
    return table


@app.command("search")
def search_cmd(query: Optional[str] = typer.Argument(None, help="Any text."),
               k: Optional[int] = typer.Option(None, "--k", min=1, max=1000, help="Number of hits (default: [search] k, 10)."),
               json_out: bool = typer.Option(False, "--json", help="Print hits as JSON."),
               type_: Optional[list[str]] = typer.Option(None, "--type", help="Keep only notes of this type (repeatable)."),
               since: Optional[str] = typer.Option(None, "--since", help="Keep only items dated on/after this ISO date."),
               mode: str = typer.Option("hybrid", "--mode", help="hybrid | keyword | semantic"),
               fusion: Optional[str] = typer.Option(None, "--fusion", help="weighted | rrf (default: [search] fusion, weighted)"),
               batch: Optional[Path] = typer.Option(None, "--batch", help="JSONL of {id, query}; prints JSONL of {query_id, hits}.")) -> None:
    """Search by keyword and meaning; each hit shows its per-signal scores."""
    if since:
        from datetime import date
        try:
            date.fromisoformat(since[:10])
        except ValueError:
            _fail(f"--since {since!r} is not an ISO date (YYYY-MM-DD)")
    if (query is None) == (batch is None):
        _fail("give either a QUERY or --batch FILE")
    with _service() as svc:
        if batch is not None:
            from cairn.service import read_batch_file
            queries = read_batch_file(batch)
            for row in svc.search_batch(queries, k=k, mode=mode, fusion=fusion, types=type_, since=since):
                sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
            return
        res = svc.search(_arg_text(query), k=k, mode=mode, fusion=fusion, types=type_, since=since)
    for w in res.warnings:
        err.print(f"[yellow]warning:[/yellow] {escape(w)}")
    if json_out:
        sys.stdout.write(json.dumps([h.to_json() for h in res.hits], ensure_ascii=False, indent=2) + "\n")
        return
    if not res.hits:
        out.print("no results" + (" (see warnings above)" if res.warnings else ""))
        return
    out.print(_hits_table(res.hits))


@app.command()
def ask(question: str = typer.Argument(..., help="A question about your notes."),
        llm: Optional[str] = typer.Option(None, "--llm", help="none | embedded | openai:BASE_URL:MODEL"),
        json_out: bool = typer.Option(False, "--json", help="Print the answer as JSON.")) -> None:
    """Answer a question from your notes, with checked citations."""
    if not question.strip():
        _fail("the question is empty")
    with _service() as svc:
        ans = svc.ask(_arg_text(question), llm=llm)
    if json_out:
        sys.stdout.write(json.dumps(ans.to_json(), ensure_ascii=False, indent=2) + "\n")
        return
    if ans.fallback:
        err.print(f"[yellow]note:[/yellow] {escape(ans.fallback)}")
    out.print(escape(ans.answer))
    out.print(f"[dim]verdict: {ans.verdict} · {ans.mode}{' · ' + ans.llm if ans.llm else ''}[/dim]")
    if ans.citations:
        out.print("\n[bold]Sources[/bold]")
        for c in ans.citations:
            where = c["path"] + (f", page {c['page']}" if c["page"] else "") + f", chars {c['start']}–{c['end']}"
            out.print(f"[{c['n']}] {escape(c['title'])} — {escape(where)}")
            if c.get("source"):
                out.print(f"    [dim]source: {escape(str(c['source']))}[/dim]")


if __name__ == "__main__":
    app()
