"""`cairn reflect` and `cairn mood`: the reflection pass between sessions and the mood state
(issue 18; the service's Cairn.reflect and Cairn.mood)."""

from __future__ import annotations

from typing import Optional

import typer

from cairn.hookspecs import hookimpl


def reflect_cmd(
    llm: Optional[str] = typer.Option(None, "--llm", help="none (the rules), embedded or openai:BASE_URL:MODEL "
                                                          "(default: \\[memory] extract_llm)."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Reflect on what you said recently: writes only observations and expectations, each
    grounded in the turns it came from (see them with `cairn memories`, remove one with
    `cairn forget ID`). Bounded by \\[assistant] reflection, reflection_tokens, reflection_daily."""
    from cairn.interfaces.cli_common import _dump, _service, out
    with _service() as svc:
        res = svc.reflect(llm=llm)
    if json_out:
        _dump(res.to_json())
        return
    # a Reflection is a dict: its keys by subscript (res.items would be dict.items)
    out.print(f"reflection ({res['method']}): {res['reason']}", markup=False)
    for it in res["items"]:
        out.print(f"  {it['id']}  {it['type']}: {it['text']}  [from {', '.join(map(str, it['sources']))}]",
                  markup=False)
    for d in res["dropped"]:
        out.print(f"  dropped: {d}", markup=False)
    for p in res["problems"]:
        out.print(f"  problem: {p}", markup=False)


def mood_cmd(json_out: bool = typer.Option(False, "--json", help="Print the result as JSON.")) -> None:
    """The mood state read from your messages (updated when a session's memories are
    extracted; decays to neutral after a quiet period)."""
    from cairn.interfaces.cli_common import _dump, _service, out
    with _service() as svc:
        res = svc.mood()
    if json_out:
        _dump(res.to_json())
        return
    out.print(res.rendered or f"neutral (last signal: {res.last_signal or 'none'})", markup=False)


@hookimpl
def register_commands(cli):
    cli.command("reflect")(reflect_cmd)
    cli.command("mood")(mood_cmd)
