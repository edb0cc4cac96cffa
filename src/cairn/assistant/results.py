"""What a turn produces and how the assistant talks to the person while it runs.

`Channel` (non-interactive: nothing approved implicitly), `WaitingChannel` (answers arrive
from another thread: web, Telegram, tests), `CallRecord` (one proposed call and its outcome),
`TurnResult` (the `cairn chat --json` object) and `describe` (one sentence about a call).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from cairn.assistant.nlu.spoken import when_spoken
from cairn.errors import CairnError

# A reminder's time in a reply is said as the person would ("tomorrow at 07:45", "on Saturday at 19:00"), not as
# the stored ISO time. Switch off: SPOKEN_TIMES.
SPOKEN_TIMES = True


class Channel:
    """How the assistant talks to the person while a turn runs. The base class is the
    non-interactive one (one-shot CLI, scripts): no veto window, high-risk calls are deferred
    (pending) — nothing is approved implicitly. Interactive channels override:

    approve(call) -> "granted" | "denied" | "timeout" | "defer"   (call: dict with id, name,
        arguments, risk, reasons; `timeout` seconds to answer)
    veto(call, seconds) -> True when the person vetoed within the window
    delta(text): streamed reply text;  notice(text): a side message (what ran, warnings)."""

    interactive = False

    def approve(self, call: dict, timeout: float) -> str:
        return "defer"

    def veto(self, call: dict, seconds: float) -> bool:
        return False

    def delta(self, text: str) -> None:
        pass

    def notice(self, text: str) -> None:
        pass


class WaitingChannel(Channel):
    """An interactive channel whose answers arrive from elsewhere (a web button, a Telegram
    inline button, a test): `approve` and `veto` block until `answer(id, ...)` /
    `veto_call(...)` is called from another thread, or the timeout passes (approval: "timeout",
    which counts as denied; veto window: not vetoed). `asked` lists the calls shown, in order,
    each with its exact arguments; `on_ask(call)` is called when one is shown."""

    interactive = True

    def __init__(self, on_ask=None) -> None:
        import threading
        self.asked: list[dict] = []
        self.notices: list[str] = []
        self.text: list[str] = []
        self._answers: dict[str, bool] = {}
        self._vetoes: set[str] = set()
        self._cv = threading.Condition()
        self.on_ask = on_ask

    def answer(self, approval_id: str, granted: bool) -> None:
        with self._cv:
            self._answers[approval_id] = granted
            self._cv.notify_all()

    def veto_call(self, name: str) -> None:
        """Veto the next medium call of tool `name` (or one already in its window)."""
        with self._cv:
            self._vetoes.add(name)
            self._cv.notify_all()

    def approve(self, call: dict, timeout: float) -> str:
        self.asked.append(call)
        if self.on_ask:
            self.on_ask(call)
        with self._cv:
            got = self._cv.wait_for(lambda: call["id"] in self._answers, timeout)
            if not got:
                return "timeout"
            return "granted" if self._answers[call["id"]] else "denied"

    def veto(self, call: dict, seconds: float) -> bool:
        with self._cv:
            return self._cv.wait_for(lambda: call["name"] in self._vetoes, seconds)

    def delta(self, text: str) -> None:
        self.text.append(text)

    def notice(self, text: str) -> None:
        self.notices.append(text)


@dataclass
class CallRecord:
    """One proposed call and what became of it. outcome: ran, pending, denied, vetoed, failed."""

    name: str
    arguments: dict
    risk: str
    outcome: str
    reasons: list[str] = field(default_factory=list)
    provenance: str = "user"
    approval_id: str | None = None
    result: object = None
    error: str | None = None
    preview: str | None = None  # what the person was shown for approval (a file tool's diff)

    def to_json(self) -> dict:
        out = {"name": self.name, "arguments": self.arguments, "risk": self.risk, "outcome": self.outcome,
               "reasons": self.reasons, "provenance": self.provenance}
        if self.approval_id:
            out["approval_id"] = self.approval_id
        if self.error:
            out["error"] = self.error
        return out


@dataclass
class TurnResult:
    """What one turn (or one approval) produced. `to_json()` is the `cairn chat --json` object."""

    reply: str
    session: str
    tool_calls: list[CallRecord] = field(default_factory=list)
    pending_approvals: list[dict] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    usage: dict = field(default_factory=dict)
    model: str = ""
    stopped: str | None = None

    def to_json(self) -> dict:
        return {"reply": self.reply, "tool_calls": [c.to_json() for c in self.tool_calls],
                "pending_approvals": self.pending_approvals, "session": self.session,
                "notices": self.notices, "model": self.model, "usage": self.usage, "stopped": self.stopped}


def _pending_json(pending: dict) -> list[dict]:
    """Pending approvals as shown to the person: [{"id", "name", "arguments", "risk",
    "reasons", "provenance", "turn", "requested_at"}]."""
    return [dict(id=aid, **{k: v for k, v in call.items() if k != "call_id"}) for aid, call in pending.items()]


def _message(exc: BaseException) -> str:
    if isinstance(exc, CairnError):
        return exc.message or str(exc)
    return str(exc) or type(exc).__name__


def _summary(calls: list[CallRecord]) -> str:
    return " ".join(describe(c) for c in calls)


def _until(iso: str | None) -> str:
    """The time a reminder is snoozed until, after "until": "tomorrow at 09:00", "Friday at 17:00"."""
    return when_spoken(iso).removeprefix("on ") if SPOKEN_TIMES else str(iso)


def describe(rec: CallRecord) -> str:
    """One sentence for the person about what became of a call."""
    args = json.dumps(rec.arguments, ensure_ascii=False)
    if rec.outcome == "pending":
        return (f"{rec.name}({args}) is {rec.risk} risk and waits for your approval: "
                f"/approve {rec.approval_id} or /deny {rec.approval_id}.")
    if rec.outcome in ("denied", "vetoed"):
        return f"{rec.name}({args}) did not run: {rec.error or rec.outcome}."
    if rec.outcome == "failed":
        return f"{rec.name} failed: {rec.error}."
    r = rec.result
    if rec.name == "remember" and isinstance(r, dict) and r.get("action") == "edit":
        was = (r.get("previous") or {}).get("text")
        return f"Corrected: “{r.get('memory', {}).get('text')}”" + (f" (was “{was}”)." if was else ".")
    if rec.name == "remember" and isinstance(r, dict):
        return f"Noted: “{r.get('memory', {}).get('text', rec.arguments.get('text'))}” ({r.get('action')})."
    if rec.name == "recall":
        if not r:
            return f"I don't remember anything about {rec.arguments.get('query')}."
        lines = [f"- {h['memory']['text']} [{h['memory']['id']}]" for h in r[:5]]
        return "Here is what I remember:\n" + "\n".join(lines)
    if rec.name == "forget" and isinstance(r, dict):
        return f"Forgotten: “{r.get('memory', {}).get('text', '')}”."
    if rec.name == "search" and isinstance(r, dict):
        hits = r.get("hits") or []
        top = max((h.get("score") or 0 for h in hits), default=0)
        hits = [h for h in hits if (h.get("score") or 0) >= 0.5 * top]  # the clear matches only
        if not hits:
            return f"No notes match “{rec.arguments.get('query')}”."
        return "Notes I found:\n" + "\n".join(f"- {h['title']} ({h['note_id']}): {h['snippet'][:120]}"
                                              for h in hits[:5])
    if rec.name == "ask" and isinstance(r, dict):
        cites = "; ".join(f"[{c['n']}] {c.get('title')}" for c in r.get("citations") or [])
        return (r.get("answer") or "I could not find that in your notes.") + (f"\nSources: {cites}" if cites else "")
    if rec.name in ("create_note", "update_note", "ingest_text", "rename_note") and isinstance(r, dict):
        return f"Note {r.get('action')}: {r.get('title')} ({r.get('id')})."
    if rec.name == "remind" and isinstance(r, dict):
        when = (when_spoken(r["next_due"]) if SPOKEN_TIMES and r.get("next_due") else
                r.get("next_due") or r.get("when") or "")
        if SPOKEN_TIMES and str(r.get("schedule") or "").lower().startswith("every"):
            when = f"{r['schedule']}; the first {when}"  # "every wednesday at 5pm; the first on Wednesday at 17:00"
        return f"I'll remind you: “{r.get('text', rec.arguments.get('text'))}” ({when})."
    if rec.name == "reminder_cancel" and isinstance(r, dict):
        return f"Cancelled the reminder “{r.get('text')}”."
    if rec.name == "reminder_snooze" and isinstance(r, dict):
        return f"Snoozed “{r.get('text')}” until {_until(r.get('next_due'))}."
    if rec.name == "delete_note":
        return f"Deleted the note {rec.arguments.get('note')} (it is in the vault's .trash)."
    return f"{rec.name} ran: {json.dumps(r, ensure_ascii=False, default=str)[:300]}"


_SOURCES_LINE = re.compile(r"Sources: (\[\d{1,3}\] [^;\n]+(?:; \[\d{1,3}\] [^;\n]+)*)")
_REF_LINE = re.compile(r"\[(\d{1,3})\] (.+)")


def _cited(reply: str) -> tuple[str, dict[int, str]]:
    """`reply` split into its text and its sources ({number: title}): a last line "Sources:
    [1] A; [2] B" (a note read, a tool's answer) or last lines "[1] A" (the knowledge answer,
    cairn.ops.knowledge). ({}: a reply citing nothing, returned whole.)"""
    lines = reply.rstrip("\n").split("\n")
    if lines and (m := _SOURCES_LINE.fullmatch(lines[-1])):
        refs = [_REF_LINE.fullmatch(r) for r in m.group(1).split("; ")]
        return "\n".join(lines[:-1]), {int(r.group(1)): r.group(2).strip() for r in refs}
    refs: dict[int, str] = {}
    while len(lines) > 1 and (r := _REF_LINE.fullmatch(lines[-1])):
        refs[int(r.group(1))] = r.group(2).strip()
        lines.pop()
    return "\n".join(lines), refs


def join_replies(replies: list[str]) -> str:
    """The replies to a message's parts as one reply ("when is my appointment and what do I
    bring?"): the texts one after another (a blank line between), then one "Sources:" line
    citing each note once, numbered in the order first cited, each text's [n] markers
    renumbered to match; a text saying what an earlier one said (but for its markers and end
    punctuation) is said once. A message whose parts cite nothing, or only one part cites, is
    the replies joined as they are. Returns "" for no replies."""
    cited = [_cited(r) for r in replies]
    if sum(1 for _, refs in cited if refs) < 2:
        return "\n\n".join(replies)
    numbering: dict[str, int] = {}
    texts, said = [], set()
    for text, refs in cited:
        if (plain := re.sub(r"\s*\[\d{1,3}\]", "", text).rstrip(" .")) in said:
            continue  # two parts answered by the same line ("… Station Road [1]." and "… Station Road. [1]")
        said.add(plain)
        local = {n: numbering.setdefault(title, len(numbering) + 1) for n, title in sorted(refs.items())}
        texts.append(re.sub(r"\[(\d{1,3})\]", lambda m: f"[{local.get(int(m.group(1)), m.group(1))}]", text)
                     if local else text)
    return "\n\n".join(texts) + "\nSources: " + "; ".join(f"[{n}] {t}" for t, n in numbering.items())


def read_already(calls: list[CallRecord], title: str) -> CallRecord | None:
    """The get_note call of note `title` that ran among `calls` (a turn's, in order) after the
    last call of another tool that ran, or None: a message's second part asked of the note its
    first part read ("when is it and what do I bring?") is answered from that read, not a
    second one; a read before a change (an update_note) is not reused."""
    ran = [c for c in calls if c.outcome == "ran"]
    last = max((i for i, c in enumerate(ran) if c.name != "get_note"), default=-1)
    return next((c for c in ran[last + 1:] if c.arguments.get("note") == title), None)
