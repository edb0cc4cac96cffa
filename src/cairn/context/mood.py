"""A mood state of the person, read from their own messages without a model, decaying to
neutral when they are quiet.

    m = Mood(); m.signal("I'm exhausted and worried about the exam", at); m.render(now)
    -> "The person seemed worried, low energy (2 hours ago)."

The state of a home lives in `<home>/mood.json` (a named person's in `<home>/people/NAME/mood.json`, cairn.people) (a single JSON object: mood, energy,
intensity, last_signal, at; `load`/`save`): the grounded extraction at the end of a session
updates it as a side effect (ops/person.py), and each session's prompt compiler starts from it
and folds the person's new messages in as they come.

State: mood (one of MOODS or "neutral"), energy ("low", "normal", "high"), intensity in
[0, 1], last signal (the words that set it) and its time. Decay: intensity * 0.5 ** (hours
since the signal / HALF_LIFE_H); below 0.25 the mood reads as neutral (nothing rendered), so
after at most 12 quiet hours (EchoVessel's window) a conversation no longer opens under it.
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path

HALF_LIFE_H = 6.0
MOODS = {
    "worried": r"worried|anxious|nervous|scared|afraid|stress(?:ed|ful)|panick",
    "sad": r"\bsad\b|upset|down\b|depressed|lonely|heartbroken|miss (?:him|her|them)|crying|grief",
    "angry": r"angry|furious|annoyed|frustrat|pissed|fed up",
    "happy": r"happy|glad|great news|excited|thrilled|delighted|proud|can't wait|love it|wonderful",
    "tired": r"tired|exhausted|worn out|sleepy|drained|burn(?:ed|t) out",
}
ENERGY = {"low": r"tired|exhausted|drained|sleepy|worn out|burn(?:ed|t) out|sick",
          "high": r"excited|thrilled|pumped|energi[sz]ed|can't wait|!{2,}"}


class Mood:
    """See module docstring."""

    def __init__(self) -> None:
        self.mood, self.energy, self.intensity, self.last, self.at = "neutral", "normal", 0.0, "", ""

    def signal(self, text: str, at: str) -> None:
        """Update from one message of the person at ISO time `at` (no signal: unchanged)."""
        low = (text or "").lower()
        hits = {m: len(re.findall(p, low)) for m, p in MOODS.items()}
        mood, n = max(hits.items(), key=lambda x: x[1])
        energy = next((e for e, p in ENERGY.items() if re.search(p, low)), None)
        if n == 0 and energy is None:
            return
        if n:
            self.mood, self.intensity = mood, min(1.0, 0.6 + 0.2 * n)
            self.last = re.search(MOODS[mood], low).group(0)
        self.energy = energy or "normal"
        self.at = at

    def current(self, now: datetime | None = None) -> tuple[str, str, float]:
        """(mood, energy, intensity) decayed to `now`."""
        if not self.at:
            return "neutral", "normal", 0.0
        now = now or datetime.now(timezone.utc)
        try:
            t = datetime.fromisoformat(self.at.replace("Z", "+00:00"))
            t = t if t.tzinfo else t.replace(tzinfo=timezone.utc)
            now = now if now.tzinfo else now.replace(tzinfo=timezone.utc)
            hours = max(0.0, (now - t).total_seconds() / 3600)
        except ValueError:
            hours = 0.0
        k = self.intensity * 0.5 ** (hours / HALF_LIFE_H)
        if k < 0.25:
            return "neutral", "normal", k
        return self.mood, self.energy, k

    def render(self, now: datetime | None = None) -> str:
        """A prompt line, or "" when the mood has decayed to neutral."""
        from cairn.context.person import relative
        mood, energy, k = self.current(now)
        if mood == "neutral":
            return ""
        when = relative(self.at, now)
        return (f"The person seemed {mood}" + (f", {energy} energy" if energy != "normal" else "")
                + f" (said \"{self.last}\", {when}). Be considerate; do not mention this unless it helps.")


FILE = "mood.json"


def to_json(m: Mood, now: datetime | None = None) -> dict:
    """{"mood", "energy", "intensity", "last_signal", "at"} decayed to `now`, plus the stored
    "signal_mood" and "signal_intensity" (before decay) and "rendered" (the prompt line)."""
    mood, energy, k = m.current(now)
    return {"mood": mood, "energy": energy, "intensity": round(k, 3), "last_signal": m.last, "at": m.at,
            "signal_mood": m.mood, "signal_intensity": round(m.intensity, 3), "rendered": m.render(now)}


def load(home: Path) -> Mood:
    """The mood state of a home (a neutral Mood when the file is missing or unreadable)."""
    m = Mood()
    try:
        d = json.loads((Path(home) / FILE).read_text(encoding="utf-8"))
        if isinstance(d, dict) and d.get("at"):
            mood = str(d.get("signal_mood") or d.get("mood") or "neutral")
            m.mood = mood if mood in MOODS else "neutral"
            m.energy = str(d.get("energy") or "normal") if d.get("energy") in ENERGY else "normal"
            m.intensity = max(0.0, min(1.0, float(d.get("signal_intensity", d.get("intensity", 0.0)))))
            m.last, m.at = str(d.get("last_signal") or ""), str(d["at"])
    except (OSError, ValueError, TypeError):
        pass
    return m


def save(home: Path, m: Mood) -> None:
    """Write the state atomically (a temporary file, then rename)."""
    path = Path(home) / FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"mood": m.mood, "energy": m.energy, "signal_mood": m.mood,
                               "signal_intensity": m.intensity, "last_signal": m.last, "at": m.at}),
                   encoding="utf-8")
    os.replace(tmp, path)


def newer(a: Mood, b: Mood) -> Mood:
    """The one of two states whose signal is more recent (`a` on a tie or unreadable times)."""
    if not b.at:
        return a
    if not a.at:
        return b
    try:
        ta = datetime.fromisoformat(a.at.replace("Z", "+00:00"))
        tb = datetime.fromisoformat(b.at.replace("Z", "+00:00"))
        ta, tb = (t if t.tzinfo else t.replace(tzinfo=timezone.utc) for t in (ta, tb))
    except ValueError:
        return a
    return b if tb > ta else a
