"""cairn-hello: a worked example of a Cairn plugin (docs/plugins.md).

It adds, through Cairn's hooks:
- a command: `cairn hello [NAME]` prints a greeting and how many notes the home holds;
- a tool: `word_count` counts the words of a note (assistant, MCP, REST, `cairn tool run`);
- a parser: `.todo` files (one task per line, "x " marks a done one) become notes;
- an importer: `cairn import lines FILE` makes one note of each line of a text file.
"""

from __future__ import annotations

import pluggy
import typer

hookimpl = pluggy.HookimplMarker("cairn")


def hello(name: str = typer.Argument("world", help="Whom to greet.")) -> None:
    """Greet NAME and count the notes in the Cairn home."""
    from cairn.cli import _service
    with _service() as app:
        total = app.notes_list(limit=1)["total"]
    typer.echo(f"hello, {name}: {total} note(s) in this Cairn")


@hookimpl
def register_commands(cli):
    cli.command("hello")(hello)


def _word_count(app, arguments: dict) -> dict:
    note = app.note_show(arguments["note"])
    return {"note": note["id"], "title": note["title"], "words": len(note["body"].split())}


@hookimpl
def register_tools(register):
    from cairn.tools import Tool
    register(Tool(name="word_count", description="Count the words of a note (title, alias, path or id).",
                  parameters={"type": "object", "properties": {"note": {"type": "string", "minLength": 1}},
                              "required": ["note"], "additionalProperties": False},
                  run=_word_count, risk="low", read_only=True, source="cairn-hello"))


def parse_todo(data: bytes, name: str, **options):
    """A .todo file: one task per line; "x " in front marks it done."""
    from cairn.model import ParsedDocument
    from cairn.parse.errors import EmptyDocument
    lines = [line.strip() for line in data.decode("utf-8").splitlines() if line.strip()]
    if not lines:
        raise EmptyDocument("no tasks")
    done = [line[2:] for line in lines if line.startswith("x ")]
    todo = [line for line in lines if not line.startswith("x ")]
    body = "\n".join([f"- [ ] {t}" for t in todo] + [f"- [x] {t}" for t in done])
    return ParsedDocument(kind="text", title=name.rsplit(".", 1)[0], body=body)


@hookimpl
def register_parsers(register):
    register(".todo", parse_todo)


def import_lines(app, path, progress=None, **options):
    """One note (in the vault folder lines/) per non-empty line of the text file `path`."""
    from cairn.ingest import IngestReport
    report = IngestReport()
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for i, line in enumerate(lines, 1):
        note = app.ingest_text(line, folder="lines")
        report.added.append(note.path)
        if progress:
            progress("import", i, len(lines))
    return report


@hookimpl
def register_importers(register):
    register("lines", import_lines)
