"""Turn vectors of a session, embedded once as the turns arrive, for the semantic half of
the compiler's max(BM25, semantic) relevance.

    vecs = TurnVectors(embedder)            # any object with embed(list[str]) -> (n, dim)
    vecs.add(7, "I adopted a puppy named Biscuit")   # one embedding call, cached
    vecs.scores("what is my dog called?")   # {7: 0.61, ...}: cosine, clipped at 0

The person's message of a turn is both a turn to find later and the query of the prompt
compiled for it: `add` keeps the last vector by text, so `scores` for that same text embeds
nothing. A turn with a reply gets a second vector (`add(n, reply, part=1)`), and its score is
the better of its two. Vectors are assumed unit length (the packaged embedders' are); the
matrix grows in place as turns are added. Texts go through the process's sentence cache
(cairn.embed.cache.embed_cached), which the intent classifier also uses: the person's
message, read by the classifier first (nlu/classify.py), is not embedded a second time here.
"""

from __future__ import annotations

from cairn.embed.cache import embed_cached


class TurnVectors:
    """See module docstring. `embed_calls` counts embedding requests (for benchmarks; a
    request whose texts are all in the sentence cache embeds nothing)."""

    def __init__(self, embedder) -> None:
        self.embedder = embedder
        self._matrix = None                       # (capacity, dim) float32, rows [:len] used
        self._turns: list[int] = []
        self._last: tuple[str, object] | None = None
        self.embed_calls = 0

    def _embed(self, text: str):
        if self._last is not None and self._last[0] == text:
            return self._last[1]
        self.embed_calls += 1
        v = embed_cached(self.embedder, [text])[0]
        self._last = (text, v)
        return v

    def add(self, turn: int, text: str) -> None:
        """Embed `text` as (part of) turn `turn`; empty text is skipped."""
        self.add_many([(turn, text)])

    def add_many(self, items: list[tuple[int, str]]) -> None:
        """Embed [(turn, text)] in one call (empty texts skipped); the last becomes the
        reusable query vector."""
        items = [(t, x[:2000]) for t, x in items if (x or "").strip()]
        if not items:
            return
        if len(items) == 1:
            vecs = [self._embed(items[0][1])]
        else:
            self.embed_calls += 1
            vecs = list(embed_cached(self.embedder, [x for _, x in items]))
            self._last = (items[-1][1], vecs[-1])
        for (turn, _), v in zip(items, vecs):
            self._put(turn, v)

    def _put(self, turn: int, v) -> None:
        """Append one vector; the matrix grows by doubling (amortised O(1) per turn)."""
        import numpy as np
        v = np.asarray(v, dtype=np.float32)
        n = len(self._turns)
        if self._matrix is None or n == len(self._matrix):
            grown = np.zeros((max(64, 2 * n), v.shape[0]), dtype=np.float32)
            if self._matrix is not None:
                grown[:n] = self._matrix[:n]
            self._matrix = grown
        self._matrix[n] = v
        self._turns.append(turn)

    def __len__(self) -> int:
        return len(self._turns)

    def scores(self, text: str, floor: float = 0.0) -> dict[int, float]:
        """{turn: max cosine of its vectors with `text`} for the turns whose cosine is above
        `floor` (>= 0)."""
        import numpy as np
        if not self._turns or not (text or "").strip():
            return {}
        n = len(self._turns)
        sims = self._matrix[:n] @ np.asarray(self._embed(text[:2000]), dtype=np.float32)
        idx = np.nonzero(sims > floor)[0]
        out: dict[int, float] = {}
        for i, s in zip(idx.tolist(), sims[idx].tolist()):
            t = self._turns[i]
            if s > out.get(t, 0.0):
                out[t] = s
        return out
