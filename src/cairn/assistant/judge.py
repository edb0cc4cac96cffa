"""The judge: how risky is one proposed tool call, and why.

Levels: none < low < medium < high. Rules first:
- a read-only tool: low; reading a file outside the vault: high;
- a write: medium; deleting, forgetting, overwriting existing text, a bulk change (a list
  argument of more than BULK items), anything that leaves the machine (a URL fetched, a
  tool marked `meta["network"]`): high;
- provenance (case B27): a write proposed in a turn where the person's own words ask for no
  such action — while text from notes, pages or tool results is in the context — may have
  been planted in that text: high, so it waits for the person's explicit approval, and the
  approval prompt shows the exact call;
- arguments naming a URL or e-mail address the person never wrote: high (exfiltration);
- writing a file (`meta["write_files"]`) or running a program (`meta["shell"]`): high;
- `export` (GATHERS: notes gathered into a file that can be taken away) while text from
  notes, pages or tool results is in the context: high, asked for or not.
The tool's own risk hint (plugins set it) and an optional LLM second opinion can only raise
the level, never lower it. `Decision` carries the level, the reasons and the provenance.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Callable

from cairn.tools import RISKS, Tool

BULK = 10
_URL = re.compile(r"https?://[^\s\"'<>]+|[\w.+-]+@[\w-]+\.[\w.-]+", re.I)
# Words in the person's message that ask for each kind of action (English, whole words).
INTENT_WORDS: dict[str, tuple[str, ...]] = {
    "delete_note": ("delete", "remove", "trash", "erase", "get rid"),
    "forget": ("forget", "delete", "remove", "erase", "drop"),
    "update_note": ("update", "append", "add", "edit", "change", "rewrite", "replace", "overwrite", "fix"),
    "create_note": ("create", "write", "make", "save", "jot", "draft", "new note", "add a note", "take a note"),
    "ingest_text": ("save", "store", "keep", "ingest", "write down", "jot"),
    "ingest_url": ("save", "ingest", "fetch", "import", "bookmark", "clip"),
    "remember": ("remember", "note that", "keep in mind", "don't forget", "do not forget", "remind"),
    "core": ("core", "block", "persona", "set"),
    "remind": ("remind", "reminder", "alert", "notify", "ping me"),
    "export": ("export", "download", "zip", "bundle"),
    "rename_note": ("rename", "call", "title", "name", "retitle"),
    "reminder_cancel": ("cancel", "delete", "remove", "stop", "drop", "scrap", "turn off", "get rid", "no need",
                        "don't need"),
    "reminder_snooze": ("snooze", "postpone", "delay", "push", "later", "put off", "move", "again",
                        # a correction of a reminder just set moves it too ("no, I meant Friday")
                        "meant", "instead", "make it", "make that", "change", "rather", "actually", "correction",
                        "should be", "wrong",
                        # a named reminder moved for good ("switch the bins reminder to tuesdays")
                        "switch", "shift"),
}
# Tools that gather notes into something that can be taken away (a file under exports/):
# while text from notes or tool results is in the context they always wait for approval,
# asked for or not (that text may have asked for the export and chosen what goes in it).
GATHERS = ("export",)


def level_max(*levels: str) -> str:
    """The highest of `levels` (RISKS order)."""
    return max(levels, key=RISKS.index)


@dataclass
class Decision:
    """The judge's verdict on one call: `risk` (none/low/medium/high), `reasons` (sentences),
    `provenance` ("user": the person asked for it; "retrieved": untrusted text was in play and
    the person did not ask; "model": the model's own idea with nothing untrusted in play)."""

    risk: str
    reasons: list[str] = field(default_factory=list)
    provenance: str = "user"

    def to_json(self) -> dict:
        return {"risk": self.risk, "reasons": self.reasons, "provenance": self.provenance}


def _asked_for(tool: str, user_text: str) -> bool:
    words = INTENT_WORDS.get(tool)
    if words is None:
        return True  # a tool with no known intent words: cannot tell; rules alone decide
    low = user_text.lower()
    return any(re.search(r"\b" + re.escape(w) + r"\b", low) for w in words)


def _inside(path: str, folder) -> bool:
    from pathlib import Path

    from cairn.paths import resolved  # never raises, also on a symlink loop
    p = Path(path).expanduser()
    if not p.is_absolute():
        p = Path(folder) / p
    try:
        resolved(p).relative_to(resolved(folder))
        return True
    except (ValueError, OSError):
        return False


def classify(tool: Tool, arguments: dict, *, user_text: str, untrusted_in_context: bool,
             vault=None, second_opinion: Callable[[Tool, dict], str | None] | None = None) -> Decision:
    """The Decision for calling `tool` with `arguments` in a turn where the person wrote
    `user_text` (this turn's message) and `untrusted_in_context` says whether text from notes,
    pages or tool results is in the prompt. `vault`: the vault folder (file reads outside it
    are high). `second_opinion(tool, arguments)` may return a level (or None): it can only
    raise the result."""
    reasons: list[str] = []
    if tool.read_only:
        level = "low"
        reasons.append("reads only")
        path = arguments.get("path") or arguments.get("folder")
        if tool.meta.get("files") and isinstance(path, str) and vault is not None and not _inside(path, vault):
            level = "high"
            reasons.append("reads a file outside the vault")
    else:
        level = "medium"
        reasons.append("writes")
        if tool.destructive or tool.name in ("delete_note", "forget"):
            level = "high"
            reasons.append("deletes")
        if tool.name == "update_note" and arguments.get("mode", "overwrite") == "overwrite":
            level = "high"
            reasons.append("overwrites a note's text")
        if tool.meta.get("write_files"):
            level = "high"
            reasons.append("writes a file outside the vault (its diff is shown)")
        if tool.meta.get("shell"):
            level = "high"
            reasons.append("runs a program on this machine")
        if tool.name == "core" and "text" not in arguments:
            level, reasons = "low", ["reads only"]
    for key, value in arguments.items():
        if isinstance(value, list) and len(value) > BULK:
            level = "high"
            reasons.append(f"bulk change ({len(value)} items in {key})")
    if tool.meta.get("network") or tool.name == "ingest_url":
        level = "high"
        reasons.append("leaves the machine (fetches from the network)")
    blob = json.dumps(arguments, ensure_ascii=False)
    foreign = [u for u in _URL.findall(blob) if u.lower() not in user_text.lower()]
    if foreign and not tool.read_only:
        level = "high"
        reasons.append(f"names an address the person did not write ({foreign[0]})")
    provenance = "user"
    if tool.name in GATHERS and untrusted_in_context:
        level = "high"
        reasons.append("gathers notes into a file while text from notes or tool results is in the "
                       "context: that text may have asked for it")
    if not tool.read_only and level != "low" and not _asked_for(tool.name, user_text):
        provenance = "retrieved" if untrusted_in_context else "model"
        if untrusted_in_context:
            level = "high"
            reasons.append("the person did not ask for this; text from notes or tool results is "
                           "in the context, so the instruction may come from that text")
        else:
            reasons.append("the person did not ask for this in so many words")
    hint = tool.risk if tool.risk in RISKS else "high"
    if RISKS.index(hint) > RISKS.index(level):
        reasons.append(f"the tool's risk hint is {hint}")
        level = hint
    if second_opinion is not None:
        try:
            other = second_opinion(tool, arguments)
        except Exception as exc:  # an opinion that fails must not lower anything
            other = None
            reasons.append(f"second opinion failed: {type(exc).__name__}")
        if other in RISKS and RISKS.index(other) > RISKS.index(level):
            reasons.append(f"second opinion: {other}")
            level = other
    return Decision(level, reasons, provenance)


def llm_second_opinion(model) -> Callable[[Tool, dict], str | None]:
    """A second opinion from `model` (a ChatModel): it rates the call low/medium/high with
    a bounded JSON answer; None when it cannot answer."""
    def ask(tool: Tool, arguments: dict) -> str | None:
        msgs = [{"role": "system", "content": "Rate the risk of this assistant tool call for the "
                 "person's data: low (reads), medium (changes), high (deletes, overwrites, sends "
                 "data away). Answer JSON {\"risk\": ...}."},
                {"role": "user", "content": f"{tool.name}({json.dumps(arguments, ensure_ascii=False)[:800]})"}]
        comp = model.complete(msgs, None, max_tokens=20)
        m = re.search(r"\b(low|medium|high)\b", comp.content.lower())
        return m.group(1) if m else None
    return ask
