"""`cairn telegram`: run the Telegram bot (and the reminder scheduler beside it); and the
Telegram notifier, registered when `[telegram]` has a token and allowed users."""

from __future__ import annotations

import os
from typing import Optional

import typer

from cairn.hookspecs import hookimpl


def _token(settings, option: str | None) -> str:
    return option or settings.telegram.token or os.environ.get("CAIRN_TELEGRAM_TOKEN", "")


def telegram(token: Optional[str] = typer.Option(None, "--token", help="Bot token from @BotFather (or the telegram.token setting, or CAIRN_TELEGRAM_TOKEN)."),
             allow: Optional[str] = typer.Option(None, "--allow", help="Comma-separated Telegram user ids allowed to talk to the bot."),
             base_url: Optional[str] = typer.Option(None, "--base-url", help="Your own Bot API server, e.g. http://127.0.0.1:8081."),
             scheduler: bool = typer.Option(True, "--scheduler/--no-scheduler", help="Also deliver reminders while running.")) -> None:
    """Talk to your memory on Telegram: only the allowed user ids get answers."""
    import sys
    import threading

    from cairn.cli import _fail, _service
    from cairn.interfaces.telegram.bot import TelegramBot
    with _service() as svc:
        s = svc.settings
        ids = [a for a in (allow.split(",") if allow is not None else s.telegram.allow) if a.strip()]
        if not ids:
            _fail("no allowed Telegram user id: give --allow ID[,ID] or set [telegram] allow "
                  "(anyone else is refused)")
        # one notifier, built from configuration and flags alike: the flags become this run's
        # [telegram] settings, which the register_notifiers hook below reads
        s.telegram.token = _token(s, token)
        s.telegram.allow = ids
        s.telegram.base_url = base_url if base_url is not None else s.telegram.base_url
        bot = TelegramBot(s, s.telegram.token, ids, s.telegram.base_url)
        stop = threading.Event()
        if scheduler:
            from cairn.schedule.daemon import run_loop
            sch = svc.scheduler()
            threading.Thread(target=run_loop, args=(sch, stop), daemon=True, name="cairn-scheduler").start()
        print(f"Telegram bot running for {len(ids)} allowed user(s); Ctrl-C stops it.", file=sys.stderr)
        try:
            bot.run()
        finally:
            stop.set()


@hookimpl
def register_commands(cli):
    cli.command("telegram")(telegram)


@hookimpl
def register_notifiers(register, settings, interactive):
    """The Telegram channel when `[telegram]` (or `cairn telegram`'s flags, which fill it for
    that run) has a token and allowed users."""
    token = _token(settings, None)
    if token and settings.telegram.allow:
        from cairn.interfaces.telegram.bot import TelegramNotifier
        register(TelegramNotifier(settings, token, settings.telegram.allow, settings.telegram.base_url))
