"""Token and cost accounting: per call, per session, per day, with limits that stop the loop.

Cost = prompt_tokens * input price + completion_tokens * output price, prices in US dollars
per million tokens from `PRICES` (the vendors' published list prices; a model is matched by
the longest table key its name starts with). Models on this machine (embedded, loopback
endpoints) cost 0. A remote model missing from the table is priced 0 and reported as
"unpriced" so the person knows the cost figure is incomplete.

Usage is appended to `<home>/assistant/usage.jsonl` (one line per model call: at, session,
model, prompt_tokens, completion_tokens, cost) so the day total survives restarts.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

# US$ per 1M tokens (input, output), list prices.
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "o4-mini": (1.10, 4.40),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-3-haiku": (0.25, 1.25),
    "claude-haiku-4": (1.00, 5.00),
    "claude-3-5-sonnet": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-opus-4": (15.00, 75.00),
}

_LOCK = threading.Lock()


class BudgetExceeded(Exception):
    """A budget limit was reached; `str(exc)` names the limit, the usage and the setting."""


def price_of(model_id: str, local: bool) -> tuple[float, float] | None:
    """(input, output) US$ per 1M tokens; (0, 0) for a local model; None when unknown."""
    if local:
        return (0.0, 0.0)
    key = max((k for k in PRICES if model_id.lower().startswith(k)), key=len, default=None)
    return PRICES[key] if key else None


def cost_of(model_id: str, local: bool, prompt_tokens: int, completion_tokens: int) -> float:
    """US$ for one call (0 for local or unpriced models)."""
    p = price_of(model_id, local) or (0.0, 0.0)
    return (prompt_tokens * p[0] + completion_tokens * p[1]) / 1_000_000


@dataclass
class Limits:
    """Limits, 0 = none: tokens per call (prompt + completion), per session and per day;
    US$ per session and per day."""

    call_tokens: int = 0
    session_tokens: int = 0
    day_tokens: int = 0
    session_cost: float = 0.0
    day_cost: float = 0.0

    @classmethod
    def from_settings(cls, a) -> "Limits":
        return cls(a.call_tokens, a.session_tokens, a.day_tokens, a.session_cost, a.day_cost)


class Budget:
    """Usage of one session plus today's total for the home. `check(next_tokens)` before a
    call raises BudgetExceeded when a limit would be or has been passed; `add(...)` after it
    records the call. `home` None keeps everything in memory (incognito)."""

    def __init__(self, home: Path | None, session: str, limits: Limits, session_used: dict | None = None):
        self.home, self.session, self.limits = home, session, limits
        used = session_used or {}
        self.session_tokens = int(used.get("tokens", 0))
        self.session_cost = float(used.get("cost", 0.0))
        self.calls = int(used.get("calls", 0))
        self.unpriced = False
        self._day_tokens, self._day_cost = self._read_day()

    def _path(self) -> Path | None:
        return Path(self.home) / "assistant" / "usage.jsonl" if self.home else None

    def _read_day(self) -> tuple[int, float]:
        path = self._path()
        today = datetime.now(timezone.utc).date().isoformat()
        tokens, cost = 0, 0.0
        if path is None or not path.is_file():
            return tokens, cost
        with path.open(encoding="utf-8") as f:
            for line in f:
                try:
                    e = json.loads(line)
                except ValueError:
                    continue
                if str(e.get("at", "")).startswith(today):
                    tokens += int(e.get("prompt_tokens", 0)) + int(e.get("completion_tokens", 0))
                    cost += float(e.get("cost", 0.0))
        return tokens, cost

    def check(self, next_tokens: int = 0) -> None:
        """Raise BudgetExceeded if the next call (about `next_tokens` tokens) would pass a
        limit, or one is already used up."""
        lim = self.limits
        if lim.call_tokens and next_tokens > lim.call_tokens:
            raise BudgetExceeded(f"budget: the next model call needs about {next_tokens} tokens, over the "
                                 f"per-call limit of {lim.call_tokens} ([assistant] call_tokens)")
        for label, used, limit, key in (
                ("session token", self.session_tokens, lim.session_tokens, "session_tokens"),
                ("daily token", self._day_tokens, lim.day_tokens, "day_tokens")):
            if limit and used + next_tokens > limit:
                raise BudgetExceeded(f"budget: the {label} limit of {limit} is reached ({used} used, the next "
                                     f"call needs about {next_tokens}); stopped here. Raise [assistant] "
                                     f"{key} or start tomorrow / a new session")
        for label, used, limit, key in (("session cost", self.session_cost, lim.session_cost, "session_cost"),
                                        ("daily cost", self._day_cost, lim.day_cost, "day_cost")):
            if limit and used >= limit:
                raise BudgetExceeded(f"budget: the {label} limit of ${limit:.4f} is reached (${used:.4f} "
                                     f"spent); stopped here. Raise [assistant] {key}")

    def add(self, model_id: str, local: bool, prompt_tokens: int, completion_tokens: int) -> dict:
        """Record one call; returns {"prompt_tokens", "completion_tokens", "cost", "priced"}."""
        priced = price_of(model_id, local) is not None
        self.unpriced |= not priced
        cost = cost_of(model_id, local, prompt_tokens, completion_tokens)
        n = prompt_tokens + completion_tokens
        self.session_tokens += n
        self.session_cost += cost
        self._day_tokens += n
        self._day_cost += cost
        self.calls += 1
        entry = {"at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "session": self.session,
                 "model": model_id, "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                 "cost": cost}
        path = self._path()
        if path is not None:
            with _LOCK:
                path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                try:
                    os.write(fd, (json.dumps(entry) + "\n").encode())
                finally:
                    os.close(fd)
        return {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "cost": cost,
                "priced": priced}

    def to_json(self) -> dict:
        """{"session": {"tokens", "cost", "calls"}, "day": {"tokens", "cost"}, "limits": {...},
        "unpriced": bool}."""
        return {"session": {"tokens": self.session_tokens, "cost": round(self.session_cost, 6),
                            "calls": self.calls},
                "day": {"tokens": self._day_tokens, "cost": round(self._day_cost, 6)},
                "limits": vars(self.limits), "unpriced": self.unpriced}
