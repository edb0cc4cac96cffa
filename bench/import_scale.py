#!/usr/bin/env python3
"""Importing large exports with bounded memory: a 10k-message mbox, a 2,000-conversation
ChatGPT export and a 20,000-event iCalendar file, generated here (no third-party data),
imported by `Cairn.import_export`.

    python bench/import_scale.py [--messages 10000] [--conversations 2000] [--events 20000]
                                 [--only mbox,chatgpt,ics] [--embed hash|model] [--extract]

Each import runs in a child process of its own, so its peak RSS (ru_maxrss) is its alone.
Baseline in the same run: the same import of a one-item export (it loads everything an
import loads: the parsers, spaCy for the entity graph, the embedder). Each export is also
imported at a quarter of its size: if memory is bounded (the readers stream), the peak RSS
above the baseline grows far less than the export, which grows 4x. Printed per run: export size (MiB), items, seconds until every note is
keyword-searchable (`keyword_searchable_s`: written and indexed, before embedding), total
seconds, peak RSS (MiB) and its excess over the baseline, and a keyword search that finds
the last item. A second import of the full export is timed too (nothing to add: all
unchanged). --embed model uses the packaged MiniLM (slow on 2 cores: ~70 chunks/s); the
default "hash" embedder (cheap, deterministic) keeps the figure about the importer.
--extract also extracts facts from the conversations (off by default: its cost is the
extraction's, measured elsewhere). For the calendar, the reader alone is also measured at
each size both ways: streamed (cairn's reader) and the whole file parsed at once (the way
it was read before session 15), each in its own child process.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import need  # noqa: E402,F401  (also puts <repo>/src on sys.path)

WORDS = ("heron alder river kayak sourdough rye lantern harbour orchard granite meadow ferry "
         "violin pottery glacier compass thistle saffron lighthouse quarry").split()


def _text(i: int, n: int = 40) -> str:
    return " ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(n)) + f" token{i}."


def make_mbox(path: Path, n: int) -> None:
    with open(path, "wb") as fh:
        for i in range(n):
            body = f"{_text(i)}\nFrom the desk of sender {i % 97}.\n".replace("\nFrom ", "\n>From ")
            fh.write((f"From sender{i % 97}@example.org Mon Feb  3 10:00:00 2025\n"
                      f"From: Sender {i % 97} <sender{i % 97}@example.org>\nTo: me@example.org\n"
                      f"Subject: Message {i} about {WORDS[i % len(WORDS)]}\n"
                      f"Date: Mon, 03 Feb 2025 {i % 24:02d}:{i % 60:02d}:00 +0000\n"
                      f"Message-ID: <m{i}@example.org>\nContent-Type: text/plain; charset=utf-8\n\n"
                      f"{body}\n").encode())


def make_chatgpt(path: Path, n: int) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("[")
        for c in range(n):
            mapping = {"root": {"id": "root", "message": None, "parent": None, "children": ["m0"]}}
            parent = "root"
            for k in range(6):
                nid = f"m{k}"
                mapping[nid] = {"id": nid, "parent": parent, "children": [],
                                "message": {"id": f"c{c}m{k}", "author": {"role": "user" if k % 2 == 0 else "assistant"},
                                            "create_time": 1_700_000_000 + c * 100 + k,
                                            "content": {"content_type": "text", "parts": [_text(c * 6 + k, 30)]},
                                            "metadata": {}}}
                mapping[parent]["children"].append(nid)
                parent = nid
            conv = {"id": f"conv{c}", "conversation_id": f"conv{c}", "title": f"Conversation {c}",
                    "create_time": 1_700_000_000 + c * 100, "update_time": 1_700_000_000 + c * 100 + 6,
                    "mapping": mapping, "current_node": parent}
            fh.write(("," if c else "") + json.dumps(conv))
        fh.write("]")


ICS_TZ = ("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\n"
          "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
          "BEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\n"
          "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n")


def make_ics(path: Path, n: int) -> None:
    """n events in one calendar: every 10th a weekly series with an EXDATE, whose moved
    occurrence (RECURRENCE-ID) is written at the end of the file, away from its master."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n" + ICS_TZ)
        for i in range(n):
            day = f"2025{1 + i % 12:02d}{1 + i % 28:02d}"
            rule = f"RRULE:FREQ=WEEKLY;COUNT=8\r\nEXDATE;TZID=Europe/Berlin:{day}T090000\r\n" if i % 10 == 0 else ""
            fh.write(f"BEGIN:VEVENT\r\nUID:ev{i}@bench\r\nDTSTAMP:20250101T000000Z\r\n"
                     f"DTSTART;TZID=Europe/Berlin:{day}T090000\r\nDTEND;TZID=Europe/Berlin:{day}T100000\r\n"
                     f"{rule}SUMMARY:Event {i} {WORDS[i % len(WORDS)]}\r\nLOCATION:Room {i % 50}\r\n"
                     f"ATTENDEE;CN=Person {i % 97}:mailto:p{i % 97}@example.org\r\n"
                     f"DESCRIPTION:{_text(i)}\r\nEND:VEVENT\r\n")
        for i in range(0, n, 10):
            day = f"2025{1 + i % 12:02d}{1 + i % 28:02d}"
            fh.write(f"BEGIN:VEVENT\r\nUID:ev{i}@bench\r\nDTSTAMP:20250101T000000Z\r\n"
                     f"RECURRENCE-ID;TZID=Europe/Berlin:{day}T090000\r\n"
                     f"DTSTART;TZID=Europe/Berlin:{day}T110000\r\nSUMMARY:Event {i} moved\r\nEND:VEVENT\r\n")
        fh.write("END:VCALENDAR\r\n")


def reader_child(args) -> None:
    """In a child process: read the .ics alone (no vault, no index), print one JSON line.
    "ics-stream": cairn's reader (cairn.ingest.importing.ics.read: one series at a time);
    "ics-whole": the whole calendar parsed at once with icalendar and walked (the reader
    before session 15), the same Items built."""
    from cairn.ingest.importing import ics
    t0, n = time.monotonic(), 0
    if args.source == "ics-stream":
        n = sum(1 for x in ics.read(Path(args.path)) if not isinstance(x, ics.Skip))
    else:
        import icalendar
        cal = icalendar.Calendar.from_ical(Path(args.path).read_bytes())
        for comp in (c for c in cal.walk("VEVENT") if c.get("RECURRENCE-ID") is None):
            ics.event_item(cal, comp, "x")
            n += 1
    print(json.dumps({"events": n, "seconds": round(time.monotonic() - t0, 2),
                      "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}))


def child(args) -> None:
    """In a child process: open the home, import (or not: baseline), print one JSON line."""
    if args.source.startswith("ics-"):
        return reader_child(args)
    from cairn.service import Cairn
    if args.embed == "model":
        from cairn.embed import get_embedder
        emb = get_embedder()
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from conftest import HashEmbedder
        emb = HashEmbedder()
    out: dict = {}
    with Cairn(Path(args.home), embedder=emb) as app:
        if args.source != "baseline":
            t0 = time.monotonic()
            r = app.import_export(args.source, Path(args.path), extract=args.extract)
            out = {"seconds": round(time.monotonic() - t0, 2), "added": len(r.added), "updated": len(r.updated),
                   "unchanged": len(r.unchanged), "skipped": len(r.skipped), **r.timings}
            out["found_last"] = bool(app.search(args.probe, mode="keyword").hits)
    out["peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(out))


def run(source: str, path: Path | None, home: Path, args, probe: str = "") -> dict:
    cmd = [sys.executable, __file__, "--child", source, "--home", str(home), "--embed", args.embed,
           "--path", str(path or ""), "--probe", probe] + (["--extract"] if args.extract else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(p.stderr)
    return json.loads(p.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--messages", type=int, default=10_000)
    ap.add_argument("--conversations", type=int, default=2_000)
    ap.add_argument("--events", type=int, default=20_000)
    ap.add_argument("--only", default="mbox,chatgpt,ics", help="comma-separated: mbox, chatgpt, ics")
    ap.add_argument("--embed", choices=("hash", "model"), default="hash")
    ap.add_argument("--extract", action="store_true")
    ap.add_argument("--child")
    ap.add_argument("--home")
    ap.add_argument("--path")
    ap.add_argument("--probe", default="")
    args = ap.parse_args()
    if args.child:
        args.source = args.child
        return child(args)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        only = set(args.only.split(","))
        for source, n, make, probe in (("mbox", args.messages, make_mbox, "token{last}"),
                                       ("chatgpt", args.conversations, make_chatgpt, "token{last}"),
                                       ("ics", args.events, make_ics, "token{last}")):
            if source not in only:
                continue
            base = None
            for size in (1, n // 4, n):
                f = t / {"mbox": f"mbox-{size}.mbox", "ics": f"ics-{size}.ics"}.get(
                    source, f"{source}-{size}/conversations.json")
                f.parent.mkdir(parents=True, exist_ok=True)
                make(f, size)
                last = size * 6 - 1 if source == "chatgpt" else size - 1
                home = t / f"h-{source}-{size}"
                r = run(source, f, home, args, probe.format(last=last))
                base = base or r
                mib = f.stat().st_size / 2**20
                print(f"{source} {size:>6} items, {mib:6.1f} MiB: added {r['added']}, skipped {r['skipped']}, "
                      f"keyword-searchable {r['keyword_searchable_s']:.1f} s, total {r['seconds']:.1f} s, "
                      f"{r['added'] / max(r['keyword_searchable_s'], 1e-9):.0f} items/s to searchable; "
                      f"peak RSS {r['peak_rss_mib']} MiB (+{r['peak_rss_mib'] - base['peak_rss_mib']:.1f} over baseline); "
                      f"last item found by keyword: {r['found_last']}")
                if source == "ics":
                    for how in ("ics-whole", "ics-stream"):
                        rr = run(how, f, home, args)
                        print(f"ics {size:>6} read only, {how}: {rr['events']} events, {rr['seconds']:.1f} s, "
                              f"peak RSS {rr['peak_rss_mib']} MiB")
                if size == n:
                    again = run(source, f, home, args, probe.format(last=last))
                    print(f"{source} {size:>6} again: unchanged {again['unchanged']}, added {again['added']}, "
                          f"{again['seconds']:.1f} s, peak RSS {again['peak_rss_mib']} MiB")


if __name__ == "__main__":
    main()
