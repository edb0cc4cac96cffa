"""A small incremental BM25 index (Robertson & Zaragoza, "The Probabilistic Relevance
Framework: BM25 and Beyond", 2009; k1 = 1.2, b = 0.75) over short texts such as turns.

    idx = BM25(); idx.add("t1u", "we use postgres"); idx.scores("postgres?") -> {"t1u": 1.3}
"""

from __future__ import annotations

import math
import re
from collections import Counter as _C, defaultdict

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
STOP = frozenset("""a an and are as at be but by did do does for from had has have he her him his how i
if in into is it its me my no not of on or our she so than that the their them then there these they this
to was we were what when where which who why will with you your yes ok okay just about would could should
can been being am also too very really oh well like get got""".split())


def terms(text: str) -> list[str]:
    """Lower-cased word terms of `text` without stop words (light plural stripping)."""
    out = []
    for w in _WORD.findall((text or "").lower()):
        if w in STOP or len(w) < 2:
            continue
        if len(w) > 4 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        out.append(w)
    return out


class BM25:
    """Documents added one at a time (ids unique); `scores(query)` -> {id: score > 0}."""

    K1, B = 1.2, 0.75
    MAX_DF = 0.25  # query terms in more than this share of the documents are skipped

    def __init__(self) -> None:
        self.post: dict[str, dict[str, int]] = defaultdict(dict)
        self.lens: dict[str, int] = {}
        self.total = 0

    def add(self, doc_id: str, text: str) -> None:
        if doc_id in self.lens:
            return
        tf = _C(terms(text))
        for t, n in tf.items():
            self.post[t][doc_id] = n
        self.lens[doc_id] = sum(tf.values())
        self.total += self.lens[doc_id]

    def __len__(self) -> int:
        return len(self.lens)

    def scores(self, query: str) -> dict[str, float]:
        n = len(self.lens)
        if not n:
            return {}
        avg = self.total / n or 1.0
        out: dict[str, float] = defaultdict(float)
        for t in set(terms(query)):
            docs = self.post.get(t)
            if not docs or (n > 50 and len(docs) > self.MAX_DF * n):
                continue  # a term in most turns says little and costs a pass over all of them
            idf = math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5))
            for d, f in docs.items():
                dl = self.lens[d]
                out[d] += idf * f * (self.K1 + 1) / (f + self.K1 * (1 - self.B + self.B * dl / avg))
        return dict(out)
