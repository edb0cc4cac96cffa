"""Moving the reminder just set, in the words people use (assistant23): for each wording, a new
session sets "remind me tomorrow at 8.15am to ring the caterer" and the next turn asks to move it;
the reminder's new local time is compared with the one meant. Sentences written for Cairn by
assistant23 (none from a benchmark week). In-process, `--model none`; a rule may be switched off.

    PYTHONPATH=src python bench/assistant_reschedule.py [--off nlu.times.DAYTIME ...]

Prints each wording, the time it was moved to (or what happened) and the count right. Nothing asserts.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
from datetime import datetime
from pathlib import Path

from _common import REPO

# (wording, the local HH:MM meant, or None: nothing moved and the reply asks)
CASES = [("can u move that to half 10", "10:30"), ("push it to quarter past 3", "15:15"), ("change that to 4pm", "16:00"),
         ("move that to twenty to 6", "17:40"), ("could we make it 11.15 instead", "11:15"),
         ("can you push that back to 7", "07:00"), ("move it to noon", "12:00"), ("shift that to 9 tomorrow", "09:00"),
         ("bump it to friday at 4", "16:00"), ("push it back an hour", "09:15"), ("can you move it to 5 past 8", "08:05"),
         ("change it to half eight tomorrow night", "20:30"), ("put it back to 18:30", "18:30"),
         ("make it quarter to 12 please", "11:45"), ("could you bring it forward half an hour", "07:45")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--off", action="append", default=[], metavar="MODULE.SWITCH",
                    help="a True/False rule of cairn.assistant.MODULE switched off (repeatable)")
    args = ap.parse_args()
    for s in args.off:
        mod, _, name = s.rpartition(".")
        m = importlib.import_module(f"cairn.assistant.{mod}")
        if not isinstance(getattr(m, name, None), bool):
            ap.error(f"--off {s}: cairn.assistant.{mod} has no switch {name} (a True/False rule)")
        setattr(m, name, False)
    sys.path.insert(0, str(REPO / "tests"))
    from conftest import notes_app
    from cairn.assistant import Assistant, Channel
    from cairn.embed import get_embedder
    from cairn.schedule import when as W
    right = 0
    with notes_app(Path(tempfile.mkdtemp(prefix="cairn-resched-")), {"a.md": "# A\n\nnothing here\n"}, get_embedder()) as app:
        app.settings.assistant.veto_s = 0
        for text, want in CASES:
            bot = Assistant(app, model="none", new=True)
            bot.turn("remind me tomorrow at 8.15am to ring the caterer", Channel())
            res = bot.turn(text, Channel())
            moved = [c for c in res.tool_calls if c.name == "reminder_snooze" and c.outcome == "ran"]
            got = (datetime.fromisoformat(moved[-1].result["next_due"]).astimezone(W.zone(None)).strftime("%H:%M")
                   if moved else None)
            ok = got == want
            right += ok
            print(f"{'ok ' if ok else 'BAD'} {text!r:46} -> {got or res.reply[:60]!r} (meant {want})")
            bot.turn("cancel the caterer reminder", Channel())
    print(f"\nright {right} of {len(CASES)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
