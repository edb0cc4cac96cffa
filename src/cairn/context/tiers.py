"""Tiers of the working state (PRAANA P7): each line of the session's working state
(working.py) is shown in the prompt at one of three resolutions, and older lines are demoted.

    for uid, kind, text, score, why, pinned, tier in working_units(ws, cur=40, message="...", shift=0):
        ...

  active  the full line (the current working set)
  soft    a one-liner: its first SOFT_WORDS words (recently idle)
  hard    an anchor only: kind, turn and id (older context; a later message naming it brings
          it back)

A line's tier comes from its age in turns (current turn - the turn it was said in):
< IDLE_SOFT active, < IDLE_HARD soft, else hard (the seed's idle_soft_after_turns = 20,
idle_hard_after_turns = 50), then moved `shift` tiers further down under context pressure
(pressure.py: shift 1 in the soft and hard tiers). Constraints are never demoted (they bind
all later work) and stay pinned; files and notes in play carry no turn and stay active.
Hydration: a demoted line sharing a content word (bm25.terms, stop words left out) with the
person's message is put back active, its `why` saying so.
"""

from __future__ import annotations

from functools import lru_cache

from cairn.context.bm25 import terms

IDLE_SOFT, IDLE_HARD = 20, 50
SOFT_WORDS = 12
TIERS = ("active", "soft", "hard")


def base_tier(age: int) -> int:
    """0 (active), 1 (soft) or 2 (hard) for a line said `age` turns ago."""
    return 0 if age < IDLE_SOFT else 1 if age < IDLE_HARD else 2


def _turn_of(uid: str) -> int | None:
    """The turn in an item id "kind:tN:i" (None for ids without one)."""
    parts = uid.split(":")
    if len(parts) >= 2 and parts[1].startswith("t") and parts[1][1:].isdigit():
        return int(parts[1][1:])
    return None


@lru_cache(maxsize=4096)
def _terms_of(text: str) -> frozenset[str]:
    """The content words of a working-state line's body (after "Kind (turn N): ")."""
    return frozenset(terms(text.partition(": ")[2]))


def _soft(text: str) -> str:
    head, _, body = text.partition(": ")
    words = body.split()
    short = " ".join(words[:SOFT_WORDS]) + (" …" if len(words) > SOFT_WORDS else "")
    return f"{head}: {short}" if body else text


def working_units(working, cur: int, message: str, shift: int = 0) -> list[tuple]:
    """The working state's lines as (id, kind, text, score, why, pinned, tier) for the prompt
    of turn `cur` answering `message`, demoted `shift` extra tiers (module docstring)."""
    said = set(terms(message))
    out = []
    for uid, kind, text in working.items():
        if kind == "constraint":
            out.append((uid, kind, text, 1.0, "constraint stated by the person: pinned", True, "active"))
            continue
        turn = _turn_of(uid)
        if turn is None:
            out.append((uid, kind, text, 0.8, f"working state: {kind}", False, "active"))
            continue
        level = min(2, base_tier(cur - turn) + max(0, shift))
        why = f"working state: {kind}"
        if level and not said.isdisjoint(_terms_of(text)):
            level, why = 0, f"working state: {kind}, hydrated (this message names it)"
        tier = TIERS[level]
        if tier == "soft":
            text, why = _soft(text), f"{why}; soft tier (idle {cur - turn} turns): one line"
        elif tier == "hard":
            text, why = f"{text.partition(':')[0]} [{uid}]", f"{why}; hard tier (idle {cur - turn} turns): anchor"
        out.append((uid, kind, text, 0.8 - 0.2 * level, why, False, tier))
    return out
