"""The person's own statement holding the value a question asks for, when the knowledge answer
(ops/knowledge.py) declined the question: "when do we have to have riptide learnt by" after
"the strummers want everyone to know riptide by the 23rd" was remembered (and corrected).

The knowledge answer keeps a memory for a question only when the memory holds the coarse kind
of answer asked (answer.types.fits_answer_type: for "when", a month, a weekday, a year, a clock
time...), and that test knows no bare day of the month ("by the 23rd"). Here the finer typed
values of answer.types (`values`: a date, a clock time, a duration, a sum, a phone number, an
email address, a code) are the test, and the memory must be as relevant to the question as the
knowledge answer asks of any memory (ops.knowledge.MEMORY_FLOOR, its own measure: the recall's
semantic and keyword signals mixed by the memory settings' semantic share, times the focus on the
names the question asks: ops.knowledge_text.focus).

    own = own_value(app, "when do we have to have riptide learnt by")
    own.text   # 'You told me on 7 December: “the strummers want everyone to know riptide by the 23rd”.'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

# The kinds of value a remembered statement is checked for (search.asked.asked kind -> the kinds of
# answer.types.values that answer it): "when" is answered by a day or a clock time alike.
ANSWERED_BY = {"date": ("date", "time"), "time": ("time", "date"), "duration": ("duration",), "money": ("money",),
               "phone": ("phone",), "email": ("email",), "code": ("code",)}


@dataclass
class OwnValue:
    """The reply `text` ('You told me on DAY: “…”.'), the memory's `id` and `text`, and its
    `relevance` to the question (0..1)."""

    text: str
    memory_id: str
    memory_text: str
    relevance: float


def own_value(app, question: str, now: datetime | None = None, k: int = 3) -> OwnValue | None:
    """The most relevant of the `k` memories recalled for `question` that holds a value of the
    kind it asks (ANSWERED_BY) and reaches ops.knowledge.MEMORY_FLOOR (module docstring); None
    when the question asks no such kind, or no memory qualifies. Reads only."""
    from cairn.answer.types import values
    from cairn.search.asked import asked
    from cairn.ops import knowledge_text as KT
    from cairn.ops.knowledge import MEMORY_FLOOR, said_by_you
    kinds = ANSWERED_BY.get(asked(question).kind or "")
    if not kinds or not question.strip():
        return None
    now = now or datetime.now(timezone.utc)
    share = app.settings.memory.semantic_share
    names = KT.names(question)
    best: OwnValue | None = None
    for h in app.recall(question, k=k, at=now):
        m = h.memory
        if not any(values(kind, m.text) for kind in kinds):
            continue
        rel = (share * h.signals.get("semantic", 0.0) + (1 - share) * h.signals.get("keyword", 0.0)) \
            * KT.focus(names, m.text)
        if rel < MEMORY_FLOOR or (best is not None and rel <= best.relevance):
            continue
        day = KT.said_on(m.valid_from or m.created, now)
        head = "You told me" if said_by_you(m.source) else "From a conversation"
        best = OwnValue(f"{head}{' on ' + day if day else ''}: “{m.text.rstrip('.')}”.", m.id, m.text, rel)
    return best
