"""The session's working state, built without a model by folding session events one at a time.

    ws = WorkingState(); ws.fold(event) ...; ws.to_json() -> {"request", "decisions",
        "constraints", "questions", "errors", "files", "notes"}; ws.render() -> text

- request: the person's latest message (the active request).
- constraints: the person's sentences that bind later work — "not X, use Y", "don't ...",
  "never ...", "always ...", "must ...", "instead of ...", "only ...", "avoid ..." (kept
  until MAX_CONSTRAINTS newer ones push them out; a constraint is pinned in every prompt).
- decisions: "let's ...", "we'll go with ...", "I decided ...", "agreed ...".
- questions: the person's questions not yet followed by an assistant reply that answered them
  (the latest MAX_QUESTIONS; a question leaves once a later assistant turn shares its terms).
- errors: failed tool calls and model failures (latest MAX_ERRORS).
- files / notes: paths the person or a tool named, note ids/titles tools touched.
"""

from __future__ import annotations

import re

MAX_CONSTRAINTS, MAX_DECISIONS, MAX_QUESTIONS, MAX_ERRORS, MAX_REFS = 24, 12, 6, 6, 12

CONSTRAINT = re.compile(
    r"\b(?:not\s+\w[\w .+#-]{0,40},\s*(?:but\s+)?use\b|don'?t\b|do not\b|never\b|always\b|must(?:n'?t)?\b|"
    r"instead of\b|only use\b|avoid\b|no more\b|stop using\b|make sure\b|prefer\b)", re.I)
DECISION = re.compile(r"\b(?:let'?s\b|we(?:'ll| will) (?:go with|use)\b|i(?:'ve)? decided\b|decided to\b|"
                      r"(?:we|i) agreed\b|go with\b|settled on\b|we(?:'re| are) going with\b)", re.I)
PATH = re.compile(r"(?:(?<=\s)|^)((?:~|\.{1,2})?/?(?:[\w.-]+/)+[\w.-]+|[\w-]+\.(?:py|md|txt|json|toml|yaml|yml|csv|pdf|js|ts|rs|go|sh))\b")
SENT = re.compile(r"(?<=[.!?;])\s+|\n+")


def _push(lst: list, item, cap: int) -> None:
    if item in lst:
        lst.remove(item)
    lst.append(item)
    del lst[:-cap]


class WorkingState:
    """See module docstring. Folding is O(length of the event)."""

    def __init__(self) -> None:
        self.request = ""
        self.request_turn = 0
        self.constraints: list[dict] = []   # {"text", "turn"}
        self.decisions: list[dict] = []
        self.questions: list[dict] = []
        self.errors: list[dict] = []
        self.files: list[str] = []
        self.notes: list[str] = []

    def fold(self, e: dict) -> None:
        """Apply one session event (sessions.py event shapes)."""
        t = e.get("type")
        turn = int(e.get("turn") or 0)
        if t == "user":
            text = (e.get("text") or "").strip()
            self.request, self.request_turn = text[:600], turn
            for s in SENT.split(text):
                s = s.strip()
                if len(s) < 4:
                    continue
                if CONSTRAINT.search(s):
                    _push(self.constraints, {"text": s[:300], "turn": turn}, MAX_CONSTRAINTS)
                elif DECISION.search(s):
                    _push(self.decisions, {"text": s[:300], "turn": turn}, MAX_DECISIONS)
                if s.endswith("?"):
                    _push(self.questions, {"text": s[:300], "turn": turn}, MAX_QUESTIONS)
            for p in PATH.findall(text):
                _push(self.files, p, MAX_REFS)
        elif t == "assistant":
            from cairn.context.bm25 import terms
            said = set(terms(e.get("text") or ""))
            self.questions = [q for q in self.questions if not (set(terms(q["text"])) & said)] \
                if said and not (e.get("text") or "").startswith("The model failed") else self.questions
            if (e.get("text") or "").startswith("The model failed"):
                _push(self.errors, {"text": (e.get("text") or "")[:200], "turn": turn}, MAX_ERRORS)
        elif t == "tool_result":
            if e.get("error"):
                _push(self.errors, {"text": f"{e.get('name')}: {str(e['error'])[:200]}", "turn": turn}, MAX_ERRORS)
            res = e.get("result")
            for ref in _note_refs(res):
                _push(self.notes, ref, MAX_REFS)
        elif t == "tool_call":
            args = e.get("arguments") or {}
            for k in ("note", "title", "path", "file"):
                v = args.get(k)
                if isinstance(v, str) and v:
                    _push(self.files if k in ("path", "file") else self.notes, v[:120], MAX_REFS)

    def to_json(self) -> dict:
        return {"request": self.request, "decisions": list(self.decisions), "constraints": list(self.constraints),
                "questions": list(self.questions), "errors": list(self.errors), "files": list(self.files),
                "notes": list(self.notes)}

    @classmethod
    def from_json(cls, d: dict) -> "WorkingState":
        ws = cls()
        ws.request = d.get("request", "")
        for k in ("decisions", "constraints", "questions", "errors", "files", "notes"):
            setattr(ws, k, list(d.get(k) or []))
        return ws

    def items(self) -> list[tuple[str, str, str]]:
        """(id, kind, text) of each working-state line, constraints first."""
        out = [(f"constraint:t{c['turn']}:{i}", "constraint", f"Constraint (turn {c['turn']}): {c['text']}")
               for i, c in enumerate(self.constraints)]
        out += [(f"decision:t{d['turn']}:{i}", "decision", f"Decision (turn {d['turn']}): {d['text']}")
                for i, d in enumerate(self.decisions)]
        out += [(f"question:t{q['turn']}:{i}", "question", f"Open question (turn {q['turn']}): {q['text']}")
                for i, q in enumerate(self.questions)]
        out += [(f"error:t{x['turn']}:{i}", "error", f"Error (turn {x['turn']}): {x['text']}")
                for i, x in enumerate(self.errors)]
        if self.files:
            out.append(("files", "files", "Files in play: " + ", ".join(self.files)))
        if self.notes:
            out.append(("notes", "notes", "Notes in play: " + ", ".join(self.notes)))
        return out


def _note_refs(res) -> list[str]:
    out = []
    if isinstance(res, dict):
        for k in ("id", "note_id"):
            if isinstance(res.get(k), str) and res.get("title"):
                out.append(f"{res['title']} ({res[k]})"[:120])
        for v in res.values():
            if isinstance(v, list):
                for x in v[:5]:
                    if isinstance(x, dict) and x.get("title") and (x.get("note_id") or x.get("id")):
                        out.append(f"{x['title']} ({x.get('note_id') or x.get('id')})"[:120])
    return out
