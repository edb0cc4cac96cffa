"""One message -> ordered actions: resolution against the conversation state, compound
splitting, intent classification.

    u = understand(embedder, "remind me at 6 to buy rice, and add rice to the Shopping note",
                   state, cache_dir)
    [a.intent for a in u.actions]   # ["remind", "note_append"]

A message is split at a conjunction (", and", "; ", " and then ", " and also ", " then ",
" and ") only when BOTH sides classify as ACTIONABLE intents (writes the person asks for) with
their score above the none threshold. Two questions ("when is X and what do I bring?") are
two knowledge actions, the second answered with the first one's subject. Otherwise the
message is one action.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cairn.assistant.nlu import classify as C
from cairn.assistant.nlu import state as S

ACTIONABLE = frozenset({"remember", "forget", "remind", "reminder_cancel", "reminder_snooze", "note_create",
                        "note_append", "note_edit", "note_rename", "note_delete"})
KNOWLEDGE = frozenset({"ask", "about", "recall"})
_CONJ = re.compile(r"\s*(?:,\s*and\s+(?:then\s+|also\s+)?|;\s*|\s+and\s+then\s+|\s+and\s+also\s+|,\s*then\s+|\s+and\s+)", re.I)
_QUESTION = re.compile(r"\?\s*$|^(?:what|when|where|who|whose|which|how|why|is|are|was|were|do|does|did|can|could|"
                       r"should|will|would|have|has)\b", re.I)


@dataclass
class Action:
    """One thing to do: `intent`, the `text` it comes from, its classifier `prediction`."""

    intent: str
    text: str
    prediction: C.Prediction

    def to_json(self) -> dict:
        return {"intent": self.intent, "text": self.text, **{k: v for k, v in self.prediction.to_json().items()
                                                            if k != "intent"}}


@dataclass
class Understanding:
    """The `actions` in order, the `resolved` text, `resolution` notes and the `subject` a
    pronoun stands for (None when none)."""

    text: str
    resolved: str
    actions: list[Action] = field(default_factory=list)
    resolution: list[str] = field(default_factory=list)
    subject: str | None = None

    def to_json(self) -> dict:
        return {"text": self.text, "resolved": self.resolved, "resolution": self.resolution,
                "subject": self.subject, "actions": [a.to_json() for a in self.actions]}


def is_question(text: str) -> bool:
    """Whether `text` reads as a question (a question mark, or a question word first)."""
    return bool(_QUESTION.search(text.strip()))


def _splits(text: str) -> list[tuple[str, str]]:
    return [(text[:m.start()].strip(), text[m.end():].strip()) for m in _CONJ.finditer(text)
            if text[:m.start()].strip() and text[m.end():].strip()]


def understand(embedder, text: str, st: S.ConversationState, cache_dir=None) -> Understanding:
    """The Understanding of one message of the person (module docstring)."""
    resolved, how, subject = S.resolve(text, st)
    splits = _splits(resolved)
    texts = [resolved] + [s for pair in splits for s in pair]
    preds = C.classify(embedder, texts, cache_dir)
    whole = preds[0]
    u = Understanding(text, resolved, resolution=how, subject=subject)
    for i, (a, b) in enumerate(splits):
        pa, pb = preds[1 + 2 * i], preds[2 + 2 * i]
        if pa.intent in ACTIONABLE and pb.intent in ACTIONABLE:
            u.actions = [Action(pa.intent, a, pa), Action(pb.intent, b, pb)]
            u.resolution.append(f"two requests: {a!r} ({pa.intent}) then {b!r} ({pb.intent})")
            return u
    for i, (a, b) in enumerate(splits):  # two questions: each answered, the second keeps the subject
        pa, pb = preds[1 + 2 * i], preds[2 + 2 * i]
        if (is_question(a) and is_question(b) and len(b.split()) >= 3
                and {pa.intent, pb.intent} <= KNOWLEDGE | {"none"} and whole.intent in KNOWLEDGE | {"none"}):
            u.actions = [Action(pa.intent if pa.intent != "none" else "ask", a, pa),
                         Action(pb.intent if pb.intent != "none" else "ask", b, pb)]
            u.resolution.append(f"two questions: {a!r} then {b!r}")
            return u
    u.actions = [Action(whole.intent, resolved, whole)]
    return u
