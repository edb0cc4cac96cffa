"""Context pressure (PRAANA P11): how full the prompt would be, weighted by how dense each
kind of content is, and the tier that follows from it.

    p = measure([units, ...], budget=3000)
    p.weighted   # sum(tokens x density weight) / budget, in [0, inf)
    p.raw        # sum(tokens) / budget
    p.tier       # "active" | "soft" | "hard"
    p.to_json()  # {"weighted", "raw", "tier", "compact_at", "emergency_at", "demand_tokens", "budget"}

Measured on everything the session *wants* in the prompt (every candidate unit, before the
compiler fits them to the budget), so it says how hard the budget squeezes, not how full the
fitted prompt is (the compiler always fills the budget).

Density weights (the seed's table, mapped to Cairn's unit kinds): decisions, constraints,
plans, rules, core blocks, the clock = 1.0; open errors and checkpoints (narrative 0.6 with a
plan 1.0) 0.8; verbatim turns and the current
message 0.9; narrative, files/notes in play, questions, mood, memories 0.6; retrieved notes
(artifacts) and compacted summaries 0.4; anything else 1.0 (counted in full, to be safe).
A prompt full of low-density filler (search hits, digests) so rises more slowly than one
full of decisions.

Tiers (thresholds COMPACT_AT = 0.70, EMERGENCY_AT = 0.85, the seed's defaults):
  active  weighted < 0.70 and raw <= 0.85
  soft    0.70 <= weighted < 0.85: the working state is demoted one tier (tiers.py) from the
          next prompt on (the seed demotes after each turn)
  hard    weighted >= 0.85, or the raw-token safety net: raw > 0.85 (the raw fill passes the
          emergency threshold even though the weighting says less): working state demoted
          and a session checkpoint is written (checkpoint.py).
"""

from __future__ import annotations

from dataclasses import dataclass

COMPACT_AT = 0.70
EMERGENCY_AT = 0.85
DENSITY: dict[str, float] = {
    "constraint": 1.0, "decision": 1.0, "plan": 1.0, "rules": 1.0, "core": 1.0, "clock": 1.0, "hint": 1.0,
    "error": 0.8, "checkpoint": 0.8,
    "turn": 0.9, "message": 0.9,
    "narrative": 0.6, "files": 0.6, "notes": 0.6, "question": 0.6, "mood": 0.6, "memory": 0.6,
    "memory_top": 0.6, "memories_more": 0.6, "previous": 0.6, "about": 0.6,
    "note": 0.4, "summary": 0.4,
}


def density(kind: str) -> float:
    """The density weight of a unit kind (DENSITY; 1.0 for a kind not listed)."""
    return DENSITY.get(kind, 1.0)


@dataclass(frozen=True)
class Pressure:
    """weighted and raw fill (fractions of `budget`), the tier, the demand in tokens."""

    weighted: float
    raw: float
    tier: str
    demand_tokens: int
    budget: int

    def to_json(self) -> dict:
        return {"weighted": round(self.weighted, 3), "raw": round(self.raw, 3), "tier": self.tier,
                "compact_at": COMPACT_AT, "emergency_at": EMERGENCY_AT, "demand_tokens": self.demand_tokens,
                "budget": self.budget}


def tier_of(weighted: float, raw: float) -> str:
    """"hard" at weighted >= EMERGENCY_AT or raw > EMERGENCY_AT (the raw-token safety net),
    "soft" at weighted >= COMPACT_AT, else "active"."""
    if weighted >= EMERGENCY_AT or raw > EMERGENCY_AT:
        return "hard"
    if weighted >= COMPACT_AT:
        return "soft"
    return "active"


def measure(groups, budget: int, extra: list[tuple[str, int]] = ()) -> Pressure:
    """The pressure of the candidate units in `groups` (iterables of objects with `kind` and
    `tokens`; a unit object present in several groups counts once) plus `extra` (kind, tokens)
    pairs, against `budget` tokens (at least 1)."""
    seen: set[int] = set()
    raw = weighted = 0.0
    for group in groups:
        for u in group:
            if id(u) not in seen:
                seen.add(id(u))
                raw += u.tokens
                weighted += u.tokens * DENSITY.get(u.kind, 1.0)
    for kind, tokens in extra:
        raw += tokens
        weighted += tokens * density(kind)
    b = max(1, int(budget))
    return Pressure(weighted / b, raw / b, tier_of(weighted / b, raw / b), int(raw), b)
