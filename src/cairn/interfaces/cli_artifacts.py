"""`cairn artifacts`: the content-addressed artifact store (tool outputs, saved conversations,
exports) and the lineage of an artifact: what produced it, from what inputs. A thin adapter
over `Cairn.artifacts`, `artifact_show` and `artifact_lineage` (ops/artifacts.py)."""

from __future__ import annotations

import json
import sys
from typing import Optional

import typer

from cairn.hookspecs import hookimpl
from cairn.interfaces.cli_io import say

artifacts_app = typer.Typer(help="Artifacts: tool outputs, saved conversations and exports, by content "
                            "(<home>/artifacts), and their lineage.", invoke_without_command=True)


def _dump(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, default=str) + "\n")


def _run(fn):
    """One operation on the service (cli_io._call: its errors become messages and exit codes)."""
    from cairn.interfaces.cli_io import _call
    return _call(fn)


@artifacts_app.callback()
def artifacts_list(ctx: typer.Context,
                   session: Optional[str] = typer.Option(None, "--session", help="Only this session's."),
                   kind: Optional[str] = typer.Option(None, "--kind", help="tool_output, message, conversation "
                                                      "or export."),
                   limit: int = typer.Option(50, "--limit", min=1, help="At most this many."),
                   json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """List artifacts, newest first: id, kind, size, what produced it."""
    if ctx.invoked_subcommand is not None:
        return
    rows = _run(lambda s: s.artifacts(session=session, kind=kind, limit=limit))
    if json_out:
        _dump(rows)
        return
    for r in rows:
        by = r["tool"] or r["kind"]
        where = f"{r['session']} turn {r['turn']}" if r["session"] else ""
        say(f"{r['id'][:16]}  {r['kind']:12} {r['size']:8} B  {by:18} {where}\n")


@artifacts_app.command("show")
def artifacts_show(ref: str = typer.Argument(..., help="Artifact id (or 8+ leading hex digits)."),
                   json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Print one artifact's records and content (text and JSON; binary: its size only)."""
    data = _run(lambda s: s.artifact_show(ref))
    if json_out:
        _dump(data)
        return
    say(f"{data['id']}  {data['media']}  {data['size']} B\n")
    say((data["content"] if data["content"] is not None else "(binary content)") + "\n")


def _print_node(node: dict, depth: int) -> None:
    pad = "  " * depth
    if "artifact" not in node:
        say(f"{pad}{node['id'][:16]} ({'shown above' if node.get('seen') else 'not here'})\n")
        return
    a = node["artifact"]
    for r in node["produced_by"]:
        by = f"{r['tool']}({json.dumps(r['arguments'], ensure_ascii=False)[:80]})" if r["tool"] else r["kind"]
        where = f" in {r['session']} turn {r['turn']}" if r["session"] else ""
        srcs = ", ".join(f"{k} {v}" for s in r["sources"] for k, v in s.items())
        say(f"{pad}{a['id'][:16]} {a['kind']} {a['size']} B <- {by}{where}"
                         + (f" from {srcs}" if srcs else "") + f" at {r['at'][:19]}\n")
    for child in node["inputs"]:
        _print_node(child, depth + 1)


@artifacts_app.command("prune")
def artifacts_prune(days: float = typer.Option(..., "--days", help="Remove the records older than this many days "
                                               "and the content no record names any more."),
                    json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Remove old artifacts (the daily export-cleanup job does it with \\[assistant] artifacts_days)."""
    data = _run(lambda s: s.artifacts_prune(days))
    if json_out:
        _dump(data)
        return
    say(f"removed {data['records_removed']} record(s) and {data['blobs_removed']} stored "
                     f"content(s), {data['bytes_freed']} B; {data['records_kept']} record(s) kept\n")


@artifacts_app.command("lineage")
def artifacts_lineage(ref: str = typer.Argument(..., help="Artifact id (or 8+ leading hex digits)."),
                      json_out: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """What produced an artifact and from what inputs, back through its inputs' own lineage."""
    data = _run(lambda s: s.artifact_lineage(ref))
    if json_out:
        _dump(data)
        return
    _print_node(data, 0)


@hookimpl
def register_commands(cli):
    cli.add_typer(artifacts_app, name="artifacts")
