"""`cairn matrix`: run the Matrix bot (docs/matrix.md) — the same conversation as Telegram's."""

from __future__ import annotations

import os
from typing import Optional

import typer

from cairn.hookspecs import hookimpl


def matrix(homeserver: Optional[str] = typer.Option(None, "--homeserver", help="The homeserver URL, e.g. https://matrix.example.org (or the matrix.homeserver setting)."),
           token: Optional[str] = typer.Option(None, "--token", help="The bot account's access token (or the matrix.token setting, or CAIRN_MATRIX_TOKEN)."),
           allow: Optional[str] = typer.Option(None, "--allow", help="Comma-separated Matrix user ids allowed to talk, e.g. @me:example.org.")) -> None:
    """Talk to your memory on Matrix: only the allowed user ids get answers."""
    import sys

    from cairn.cli import _fail, _service
    from cairn.errors import InvalidInput
    from cairn.interfaces.matrix.bot import MatrixBot
    with _service() as svc:
        s = svc.settings
        ids = [a.strip() for a in (allow.split(",") if allow is not None else s.matrix.allow) if a.strip()]
        if not ids:
            _fail("no allowed Matrix user id: give --allow @you:server[,...] or set [matrix] allow "
                  "(anyone else is refused)")
        server = homeserver if homeserver is not None else s.matrix.homeserver
        secret = token or s.matrix.token or os.environ.get("CAIRN_MATRIX_TOKEN", "")
        try:
            bot = MatrixBot(s, server, secret, ids)
            me = bot.connect()
        except InvalidInput as exc:
            _fail(str(exc))
        except Exception as exc:  # noqa: BLE001 - the homeserver cannot be reached: say which
            _fail(f"cannot reach the homeserver {server}: {exc}")
        print(f"Matrix bot {me} running for {len(ids)} allowed user(s); Ctrl-C stops it.", file=sys.stderr)
        try:
            bot.run()
        except KeyboardInterrupt:
            pass
        except InvalidInput as exc:
            _fail(str(exc))
        finally:
            bot.close()


@hookimpl
def register_commands(cli):
    cli.command("matrix")(matrix)
