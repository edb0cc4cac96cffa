"""`cairn entity show NAME`, `cairn entity merge A B`, `cairn entity split NAME ALIAS...`,
`cairn entity review [--yes ID | --no ID]` (merge questions, graph/candidates.py):
thin commands over Cairn.entity_show / entity_merge / entity_split (ops/entities.py,
graph/ops.py), added to the `cairn entity` group of cli_memory.py (where `entity alias` and
`cairn entities` live) by the register_commands hook."""

from __future__ import annotations

import typer

from cairn.hookspecs import hookimpl


def show(name: str = typer.Argument(..., help="An entity's name or alias (any case, with or without 'the', plurals, possessives)."),
         json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Show an entity: its names, the notes and memories that mention it, related entities."""
    from cairn.interfaces.cli_common import _arg_text, _dump, _service, escape, out
    with _service() as svc:
        ent = svc.entity_show(_arg_text(name))
    if json_out:
        _dump(ent.to_json())
        return
    out.print(f"[bold]{escape(ent['name'])}[/bold] ({ent['id']}, {ent['kind']}): {escape(', '.join(ent['aliases']))}")
    out.print(f"notes ({len(ent['notes'])}):")
    for n in ent["notes"]:
        out.print(f"  {escape(n['title'])} — {escape(n['path'])} ({n['mentions']}x, {', '.join(n['methods'])})")
    out.print(f"memories ({len(ent['memories'])}):")
    for m in ent["memories"]:
        out.print(f"  {m['id']}: {escape(m['text'])}")
    out.print(f"related ({len(ent['related'])}):")
    for r in ent["related"]:
        dates = f", {r['first'][:10]}..{r['last'][:10]}" if r.get("first") and r.get("last") else ""
        out.print(f"  {escape(r['name'])} ({r['count']}x{dates})")


def merge(keep: str = typer.Argument(..., help="The entity that stays."),
          other: str = typer.Argument(..., help="The entity merged into it (its names become aliases)."),
          json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Merge entity B into entity A: one entity with every name, note mention and memory."""
    from cairn.interfaces.cli_common import _arg_text, _dump, _service, escape, out
    with _service() as svc:
        ent = svc.entity_merge(_arg_text(keep), _arg_text(other))
    if json_out:
        _dump(ent.to_json())
        return
    out.print(f"{escape(ent['name'])} ({ent['id']}): {escape(', '.join(ent['aliases']))}")


def split(name: str = typer.Argument(..., help="The entity to split."),
          aliases: list[str] = typer.Argument(..., help="Its names that become a new entity (named after the first)."),
          json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Split names off an entity into a new one; notes mentioning it are re-read."""
    from cairn.interfaces.cli_common import _arg_text, _dump, _service, escape, out
    with _service() as svc:
        res = svc.entity_split(_arg_text(name), [_arg_text(a) for a in aliases])
    if json_out:
        _dump(res.to_json())
        return
    for key in ("from", "to"):
        e = res[key]
        out.print(f"{key}: {escape(e['name'])} ({e['id']}): {escape(', '.join(e['aliases']))}")


def review(json_out: bool = typer.Option(False, "--json", help="Print the questions as JSON and change nothing."),
           yes: str = typer.Option(None, "--yes", help="Answer yes to this question id: the two become one entity."),
           no: str = typer.Option(None, "--no", help="Answer no to this question id: never asked again.")) -> None:
    """Entities that may be one ("Is X the same as Y?"): list the questions, or answer one."""
    from cairn.interfaces.cli_common import _dump, _service, escape, out
    from cairn.interfaces.cli_io import _fail
    if yes and no:
        _fail("give --yes ID or --no ID, not both", code=2)
    with _service() as svc:
        if yes or no:
            res = svc.entity_candidate_answer(yes or no, same=bool(yes))
            if json_out:
                _dump(res.to_json())
            else:
                out.print(("merged into " if res["answer"] == "yes" else "kept apart; not asked again: ")
                          + escape(res["kept"]["name"]))
            return
        items = svc.entity_candidates()
    if json_out:
        _dump(items.to_json())
        return
    if not items:
        out.print("no merge questions")
    for c in items:
        out.print(f"{c['id']} ({c['similarity']:.2f}): {escape(c['question'])}")


@hookimpl
def register_commands(cli):
    """Add show/merge/split to the `cairn entity` group (interfaces/cli_memory.py)."""
    from cairn.interfaces.cli_memory import entity_app
    entity_app.command("show")(show)
    entity_app.command("merge")(merge)
    entity_app.command("split")(split)
    entity_app.command("review")(review)
