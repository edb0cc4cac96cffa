"""`cairn remember`, `memories`, `forget`, `recall`, `core`, `entity alias` and `entities`: the memory
commands (docs/memory.md). Registered on the root app when cairn.cli imports this module.
"""

from __future__ import annotations

from typing import Optional

import typer

from cairn.interfaces.cli_common import MemoryKind, _arg_text, _dump, _service, _value, app, escape, out


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
             kind: Optional[MemoryKind] = typer.Option(None, "--kind", help="fact | preference | person | project | expertise | decision | constraint | promise | expectation | event | observation | pattern | mistake (default: inferred)"),
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


memories_app = typer.Typer(help="List memories; `cairn memories review` reviews what Cairn learned.",
                           invoke_without_command=True)
app.add_typer(memories_app, name="memories")


@memories_app.callback()
def memories(ctx: typer.Context, kind: Optional[MemoryKind] = typer.Option(None, "--kind"),
             scope: Optional[str] = typer.Option(None, "--scope"),
             all_: bool = typer.Option(False, "--all", help="Include superseded and forgotten memories, with their history."),
             json_out: bool = typer.Option(False, "--json")) -> None:
    """List memories (active ones; --all adds superseded and forgotten)."""
    if ctx.invoked_subcommand is not None:
        return
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


@memories_app.command("review")
def memories_review(json_out: bool = typer.Option(False, "--json", help="Print the inbox as JSON and change nothing."),
                    confirm: Optional[str] = typer.Option(None, "--confirm", help="Confirm this memory id."),
                    reject: Optional[str] = typer.Option(None, "--reject", help="Reject (forget) this memory id."),
                    edit: Optional[str] = typer.Option(None, "--edit", help="Correct this memory id (with --text)."),
                    text: Optional[str] = typer.Option(None, "--text", help="The corrected text for --edit."),
                    merge: Optional[str] = typer.Option(None, "--merge", help="Merge this duplicate id into --into."),
                    into: Optional[str] = typer.Option(None, "--into", help="The memory --merge folds into.")) -> None:
    """Review what Cairn learned from conversations: list the inbox, or act on one memory."""
    from cairn.interfaces.cli_io import _fail
    from cairn.errors import CairnError
    acts = [(a, i) for a, i in (("confirm", confirm), ("reject", reject), ("edit", edit), ("merge", into)) if i]
    if len(acts) > 1 or (merge and not into) or (into and not merge):
        _fail("give one of --confirm ID, --reject ID, --edit ID --text T, --merge ID --into ID", code=2)
    with _service() as svc:
        try:
            if acts:
                action, mid = acts[0]
                change = svc.memory_review_act(action, mid, text=text, other=merge)
                if json_out:
                    _dump(change.to_json())
                else:
                    out.print(f"{action}: {_memory_line(change.memory)}")
                return
            items = svc.memory_review()
        except CairnError as exc:
            _fail(str(exc), code=exc.exit_code)
    if json_out:
        _dump(items.to_json())
        return
    if not items:
        out.print("nothing to review")
    for it in items:
        out.print(_memory_line(it.memory))
        for s in it.sources:
            out.print(f"    [dim]from {escape(s['id'])}{': ' + escape(s['text'][:160]) if s['text'] else ''}[/dim]")
        for n in it.near:
            out.print(f"    [yellow]looks like {n['memory'].id}[/yellow] ({n['cosine']:.2f}): {escape(n['memory'].text)}")


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
    from cairn.interfaces.cli_common import _early
    from cairn.memory.recall import explain
    from cairn.validate import check_query
    if query.strip():  # an empty one is the service's "recall query is empty"
        _early(check_query, query)  # REST's limit on a recall query, and search's
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
    """List entities with their aliases, number of memories and of notes mentioning them."""
    with _service() as svc:
        items = svc.entities()
    if json_out:
        _dump(items.to_json())
        return
    if not items:
        out.print("no entities")
    for e in items:
        out.print(f"{escape(e['name'])} ({e['id']}, {e['kind']}, {e.get('notes', 0)} notes, {e['memories']} memories): "
                  f"{escape(', '.join(e['aliases']))}")
