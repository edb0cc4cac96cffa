"""The memories band of the prompt (issue 39, EchOS E9): the memories most relevant to the
person's message plus their top memories by confidence and recency, at most SHOWN_MAX in
all, and a line saying how many more exist and that the `recall` tool finds them.

    band = memory_band(app, "when is Ana's birthday?", recall_k=5)
    band.units          # [(id, kind, text, score, why)], relevant first (kind "memory"), then
                        # the top ones (kind "memory_top": a router reads "memory" as relevant)
    band.recalled       # the recall hits (the compiler puts their source turns back verbatim)
    band.total          # active memories this person may see
    more_line(band.total, shown)   # "12 more memories are not shown here; the recall tool finds them."

Relevant = `app.recall(message, k=recall_k)` (memory/recall.py's score); top = `app.core()`
memories (confidence, then last use or creation: memory/store.core_context). A memory in
both is shown once, as relevant. `more_available` (in `cairn chat --why --json`) = total -
memories the compiled prompt kept (the band's token budget may keep fewer than chosen).
"""

from __future__ import annotations

from dataclasses import dataclass, field

SHOWN_MAX = 15
MORE_ID = "memories:more"
KINDS = ("memory", "memory_top")
TOP_SCORE = 0.5  # score of a top memory that recall did not return (relevant ones: their recall score, capped at 1)


@dataclass
class MemoryBand:
    """units [(id, kind, text, score, why)], recalled (RecalledMemory list), total (int)."""

    units: list[tuple] = field(default_factory=list)
    recalled: list = field(default_factory=list)
    total: int = 0


def memory_band(app, message: str, recall_k: int, shown_max: int = SHOWN_MAX) -> MemoryBand:
    """The band's candidates (module docstring). A failing store gives an empty band (the
    prompt is still compiled)."""
    band = MemoryBand()
    seen: set[str] = set()
    try:
        band.recalled = list(app.recall(message, k=recall_k)) if recall_k else []
    except Exception:
        band.recalled = []
    for m in band.recalled[:shown_max]:
        seen.add(m.memory.id)
        band.units.append((m.memory.id, "memory", f"[{m.memory.id}] {m.memory.text}", min(1.0, float(m.score)),
                           f"recall score {m.score:.2f}"))
    try:
        top = list(app.core().memories)
        band.total = len(app.memories())
    except Exception:
        top = []
        band.total = len(band.units)
    for m in top:
        if len(band.units) >= shown_max:
            break
        if m.id in seen:
            continue
        seen.add(m.id)
        band.units.append((m.id, "memory_top", f"[{m.id}] {m.text}", TOP_SCORE,
                           f"top memory by confidence ({m.confidence:.2f}) and recency"))
    band.total = max(band.total, len(band.units))
    return band


def more_line(total: int, shown: int) -> str:
    """The line under the shown memories: how many more exist and how to reach them ("" when
    none is left out)."""
    more = max(0, total - shown)
    if not more:
        return ""
    return (f"{more} more {'memory is' if more == 1 else 'memories are'} not shown here; "
            "the recall tool finds them.")
