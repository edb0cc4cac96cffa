"""Memory update decisions and recall latency (no data set needed).

1. Decisions: a fixed list of (stored statement, new statement, expected action) pairs,
   written for this benchmark, each run through `cairn.memory.remember` in a fresh store.
   Cairn's rules (src/cairn/memory/match.py) are compared with an embedding-only baseline
   measured in the same run: reinforce when cosine >= 0.85, else add (it can never
   supersede) — the usual dedup-by-similarity approach.
2. Slot questions ("where do I live" after "I live in Porto" -> "I moved to Lisbon"): how
   often recall ranks the current value first (RECALL_CASES, written for this benchmark).
3. Recall latency: p50/p95 of `recall` over N generated memories (default 1000).

    python bench/memory_updates.py [--memories 1000] [--queries 50]

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cairn.embed import get_embedder  # noqa: E402
from cairn.memory import recall, remember  # noqa: E402
from cairn.store import db  # noqa: E402

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)

PAIRS: list[tuple[str, str, str]] = [
    # restatements -> reinforce
    ("I'm vegetarian.", "I don't eat meat.", "reinforce"),
    ("I live in Porto.", "I live in Porto.", "reinforce"),
    ("I live in Porto.", "As I said, I live in Porto.", "reinforce"),
    ("My favourite band is Low.", "My favourite band is Low!", "reinforce"),
    ("I don't drink alcohol.", "I'm teetotal.", "reinforce"),
    ("I work at Nordlys Bank.", "I still work at Nordlys Bank.", "reinforce"),
    ("My sister is called Anna.", "My sister's name is Anna.", "reinforce"),
    ("I am 34 years old.", "I'm 34 years old.", "reinforce"),
    # contradictions -> supersede
    ("I live in Porto.", "I moved to Lyon.", "supersede"),
    ("I work at Nordlys Bank.", "I now work for Tidewater Labs.", "supersede"),
    ("My favourite band is Low.", "My favourite band is Slowdive now.", "supersede"),
    ("I love running in the morning.", "I hate running in the morning these days.", "supersede"),
    ("I like spicy food.", "I can't stand spicy food since last year.", "supersede"),
    ("I enjoy board games with friends.", "I don't enjoy board games any more.", "supersede"),
    ("I'm vegetarian.", "I'm no longer vegetarian, I eat meat again.", "supersede"),
    ("I am 34 years old.", "I am 35 years old.", "supersede"),
    ("Priya lives in Leeds.", "Priya moved to Bristol.", "supersede"),
    ("My favourite film is Alien.", "My current favourite film is Arrival.", "supersede"),
    # new information -> add
    ("I live in Porto.", "I work at Nordlys Bank.", "add"),
    ("Priya lives in Leeds.", "Priya works at the hospital.", "add"),
    ("Priya lives in Leeds.", "Priya hates mornings.", "add"),
    ("My favourite band is Low.", "I also like Slowdive.", "add"),
    ("My favourite film is Alien.", "My favourite book is Dune.", "add"),
    ("I love jazz.", "Priya hates jazz.", "add"),
    ("I'm vegetarian.", "Priya doesn't eat meat.", "add"),
    ("I like spicy food.", "I like hiking too.", "add"),
    ("I have a cat called Miso.", "I have a dog called Pepper as well.", "add"),
    ("My dentist is Dr. Okafor.", "My GP is Dr. Lindqvist.", "add"),
    ("I love running in the morning.", "I love swimming in the evening.", "add"),
    ("I play the cello.", "Priya plays the violin.", "add"),
    ("I love coffee in the morning.", "I hate tea in the morning.", "add"),
    ("I like my job.", "I hate my commute to the job.", "add"),
    ("I love summer.", "I hate winter.", "add"),
    ("I like jazz.", "I dislike jazz now.", "supersede"),
    # a changed state said with another word (attribute slots, memory/slots.py)
    ("I'm vegetarian.", "I'm vegan now.", "supersede"),
    ("I'm vegan.", "I don't eat meat.", "reinforce"),
    ("I live in Porto.", "I'm based in Lisbon now.", "supersede"),
    ("I work at Nordlys Bank.", "I got a new job at Tidewater Labs.", "supersede"),
    ("I work as a nurse.", "I'm a teacher now.", "supersede"),
    ("I'm single.", "I got married last month.", "supersede"),
    ("I'm married.", "I'm divorced now.", "supersede"),
    ("I'm vegetarian.", "I like pizza.", "add"),
    ("I'm vegetarian.", "I'm going to a vegan restaurant with Priya.", "add"),
    ("I'm vegetarian.", "My sister is vegan.", "add"),
    ("I play the guitar.", "I play tennis.", "add"),
    ("Priya is vegan.", "I had coffee with Priya.", "add"),
    # fresh-user review (branch memL): job + employer in one sentence, emoji, trimmed values
    ("I work as a teacher at Northfield School.", "I got a new job at Siemens as an engineer.", "supersede"),
    ("I'm vegetarian again.", "I'm \U0001F331 vegan \U0001F331", "supersede"),
    ("I work as a nurse at St. Luke's.", "I work as a nurse at St. Mary's.", "supersede"),
    ("I moved to Rotterdam last month.", "I live in Rotterdam.", "reinforce"),
    ("I work as a nurse at St. Luke's.", "I'm a nurse.", "reinforce"),
    # fresh-user review 3 (session 17, M6): the plain, un-negated predicate of a negated state
    ("I'm vegetarian.", "I eat meat now.", "supersede"),
    ("I'm vegan.", "I eat meat these days.", "supersede"),
    ("I don't eat meat.", "I eat meat now.", "supersede"),
    ("I'm teetotal.", "I drink alcohol now.", "supersede"),
    ("I'm vegetarian.", "My brother eats meat.", "add"),
    ("I'm vegetarian.", "I cook meat for my kids.", "add"),
    ("I'm teetotal.", "I drink coffee every morning.", "add"),
]

# Slot-aware recall: (memories said one day apart, query, the memory expected first).
RECALL_CASES: list[tuple[list[str], str, str]] = [
    (["I live in Porto.", "My sister Anna lives in Madrid.", "I like jazz and long walks.",
      "I moved to Lisbon."], "where do I live", "I moved to Lisbon."),
    (["I live in Porto.", "My sister Anna lives in Madrid.", "I like jazz and long walks.",
      "I moved to Lisbon."], "where do I live now", "I moved to Lisbon."),
    (["I work as a teacher at Northfield School.", "My brother works at a bank in Leeds.",
      "I got a new job at Siemens as an engineer."], "where do I work", "I got a new job at Siemens as an engineer."),
    (["I work as a teacher at Northfield School.", "My brother works at a bank in Leeds.",
      "I got a new job at Siemens as an engineer."], "what's my job", "I got a new job at Siemens as an engineer."),
    (["I'm vegetarian.", "My sister loves steak restaurants.", "I'm vegan now."], "what's my diet",
     "I'm vegan now."),
    (["Kai lives in Utrecht.", "I live in Porto.", "Kai's sister lives in Ghent.", "Kai moved to Rotterdam."],
     "where does Kai live", "Kai moved to Rotterdam."),
    (["I'm single.", "My friend Tom got married last year.", "I'm engaged now."], "am I married",
     "I'm engaged now."),
]


def decisions(embedder) -> None:
    ok_cairn = ok_base = 0
    misses = []
    for old, new, expected in PAIRS:
        with tempfile.TemporaryDirectory() as tmp:
            conn = db.connect(Path(tmp) / "i.db")
            remember(conn, embedder, old, now=T0)
            got = remember(conn, embedder, new, now=T0 + timedelta(days=1)).action
            conn.close()
        v = embedder.embed([old, new])
        base = "reinforce" if float(v[0] @ v[1]) >= 0.85 else "add"
        ok_cairn += got == expected
        ok_base += base == expected
        if got != expected:
            misses.append((old, new, expected, got))
    n = len(PAIRS)
    print(f"update decisions on {n} pairs: cairn rules {ok_cairn}/{n} = {ok_cairn / n:.2f}; "
          f"embedding-only baseline {ok_base}/{n} = {ok_base / n:.2f}")
    for old, new, expected, got in misses:
        print(f"  miss: {old!r} -> {new!r}: expected {expected}, got {got}")


def slot_recall(embedder) -> None:
    ok = 0
    for memories, query, expected in RECALL_CASES:
        with tempfile.TemporaryDirectory() as tmp:
            conn = db.connect(Path(tmp) / "i.db")
            for i, text in enumerate(memories):
                remember(conn, embedder, text, now=T0 + timedelta(days=i))
            hits = recall(conn, embedder, query, now=T0 + timedelta(days=30), touch=False)
            conn.close()
        top = hits[0].memory.text if hits else None
        ok += top == expected
        if top != expected:
            print(f"  miss: {query!r}: expected {expected!r} first, got {top!r}")
    n = len(RECALL_CASES)
    print(f"slot questions with the current value ranked first: {ok}/{n} = {ok / n:.2f}")


def latency(embedder, n: int, queries: int) -> None:
    topics = ["coffee", "cycling", "Lisbon", "piano", "the garden", "taxes", "Priya", "the car",
              "sourdough", "chess", "the boiler", "Kyoto", "running", "the cat", "the roof"]
    with tempfile.TemporaryDirectory() as tmp:
        conn = db.connect(Path(tmp) / "i.db")
        start = time.perf_counter()
        for i in range(n):
            topic = topics[i % len(topics)]
            remember(conn, embedder, f"Note {i}: something about {topic} on day {i}, item {i * 7 % 101}.",
                     now=T0 + timedelta(hours=i), kind="fact")
        add_s = time.perf_counter() - start
        times = []
        for q in range(queries):
            t = time.perf_counter()
            recall(conn, embedder, f"what about {topics[q % len(topics)]}", now=T0 + timedelta(days=400), touch=False)
            times.append((time.perf_counter() - t) * 1000)
        conn.close()
    times.sort()
    print(f"remember x{n}: {add_s:.1f} s ({n / add_s:.0f}/s, each compared with all active memories)")
    print(f"recall over {n} memories: p50 {statistics.median(times):.1f} ms, "
          f"p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms ({queries} queries)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memories", type=int, default=1000)
    ap.add_argument("--queries", type=int, default=50)
    args = ap.parse_args()
    embedder = get_embedder()
    decisions(embedder)
    slot_recall(embedder)
    latency(embedder, args.memories, args.queries)


if __name__ == "__main__":
    main()
