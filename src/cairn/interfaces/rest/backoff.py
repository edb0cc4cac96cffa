"""Slowing down wrong API keys: each failed attempt from a client address waits longer
before its 401 (exponential back-off, the usual defence against guessing; cf. OWASP's
Authentication Cheat Sheet, "account lockout" alternatives).

`FailedKeys.delay(client)` records one failure and returns the seconds to wait: `base_s` for
the first, doubling per further failure up to `cap_s`. A valid key from the address clears
its count (`clear`); so does `forget_s` without a failure. At most `max_clients` addresses
are remembered (the quietest are dropped), so memory stays bounded under a spray of
addresses. Only the failing request waits (an asyncio sleep): others are served meanwhile.
"""

from __future__ import annotations

import threading
import time


class FailedKeys:
    """Failure counts per client address; see the module docstring."""

    def __init__(self, base_s: float = 0.1, cap_s: float = 5.0, forget_s: float = 900.0,
                 max_clients: int = 10_000, clock=time.monotonic) -> None:
        self.base_s, self.cap_s, self.forget_s, self.max_clients = base_s, cap_s, forget_s, max_clients
        self._clock = clock
        self._seen: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def delay(self, client: str) -> float:
        """Record a failed attempt from `client`; the seconds its answer should wait."""
        now = self._clock()
        with self._lock:
            count, last = self._seen.pop(client, (0, now))
            if now - last > self.forget_s:
                count = 0
            count += 1
            self._seen[client] = (count, now)  # re-inserted: dict order is least recent first
            while len(self._seen) > self.max_clients:
                self._seen.pop(next(iter(self._seen)))
        return min(self.cap_s, self.base_s * 2 ** (count - 1))

    def clear(self, client: str) -> None:
        """A valid key came from `client`: its failures are forgiven."""
        with self._lock:
            self._seen.pop(client, None)

    def failures(self, client: str) -> int:
        """Failed attempts remembered for `client`."""
        with self._lock:
            return self._seen.get(client, (0, 0.0))[0]
