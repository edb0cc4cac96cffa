"""A mood state of the person, read from their own messages without a model, decaying to
neutral when they are quiet.

    m = Mood(); m.signal("I'm exhausted and worried about the exam", at); m.render(now)
    -> "The person seemed worried, low energy (2 hours ago)."

State: mood (one of MOODS or "neutral"), energy ("low", "normal", "high"), intensity in
[0, 1], last signal (the words that set it) and its time. Decay: intensity * 0.5 ** (hours
since the signal / HALF_LIFE_H); below 0.25 the mood reads as neutral (nothing rendered).
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

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
            hours = max(0.0, (now - datetime.fromisoformat(self.at)).total_seconds() / 3600)
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
