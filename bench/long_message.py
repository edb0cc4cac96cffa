"""One assistant turn on a long message, against a short one in the same run.

    python bench/long_message.py [--sizes 2000,10000,100000] [--kinds remind,ask]

A home over two invented notes (written here) is opened with the packaged embedder; each
turn runs in a new session through `Assistant.turn` (model "none": the offline understanding
layer, the default), the door every interface uses. The baseline is the median of three short
distinct turns ("remind me tomorrow at 9 to buy milk and eggs", ...); each long message repeats its kind's
words to the size asked:

- remind: "remind me tomorrow at 9 to " + "buy milk and eggs " ... (one "and" every 18 characters);
- ask: "and what about " + "it " ... + "?" (a follow-up naming nothing).

Prints per message its characters, seconds, the ratio to the baseline and the tools called.
Before the compound-request seams were bounded (session 18 — probe) every "and" was a seam
tried with two classifications: 2 KB took 14 s, 10 KB 78 s.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (puts src/ on sys.path)

from cairn.assistant import Assistant
from cairn.assistant.results import Channel
from cairn.embed import get_embedder
from cairn.service import Cairn

NOTES = {"shop.md": "# Shopping\n\n- rice\n- apples\n", "kayak.md": "# Kayak trip\n\nLaunch at 8:15. Hire £45.\n"}
SHORT = ("buy milk and eggs", "ring the vet and the bank", "water the ferns and the basil")  # distinct: no cache hit
KINDS = {"remind": ("remind me tomorrow at 9 to ", "buy milk and eggs ", ""), "ask": ("and what about ", "it ", "?")}


def message(kind: str, size: int) -> str:
    """A message of `kind` (KINDS) of about `size` characters."""
    head, unit, tail = KINDS[kind]
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


def turn(app, text: str) -> tuple[float, list[str]]:
    """(seconds, tool names) of one turn of `text` in a new session."""
    bot = Assistant(app, model="none", new=True)
    t0 = time.perf_counter()
    res = bot.turn(text, Channel())
    return time.perf_counter() - t0, [c.name for c in res.tool_calls]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="2000,10000,100000")
    ap.add_argument("--kinds", default="remind,ask")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cairn-long-message-") as tmp:
        root = Path(tmp)
        for name, text in NOTES.items():
            (root / "v").mkdir(exist_ok=True)
            (root / "v" / name).write_text(text, encoding="utf-8")
        with Cairn(root / "home", embedder=get_embedder()) as app:
            app.settings.assistant.veto_s = 0
            app.ingest([root / "v"])
            turn(app, "hello")  # warm-up: the classifier and the embedder loaded
            base = statistics.median(turn(app, f"remind me tomorrow at 9 to {task}")[0] for task in SHORT)
            print(f"baseline (short reminder, median of 3): {base:.3f} s")
            for kind in a.kinds.split(","):
                for size in (int(s) for s in a.sizes.split(",")):
                    text = message(kind, size)
                    secs, tools = turn(app, text)
                    print(f"{kind:7s} {len(text):>7,d} chars  {secs:7.2f} s  {secs / base:7.1f}x  tools={tools}")


if __name__ == "__main__":
    main()
