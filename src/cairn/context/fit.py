"""Cutting text to a token count: the compiler's clip (whole words, "…" marks the cut) and
its last-resort safety net (the longest pinned unit cut so the prompt fits the budget)."""

from __future__ import annotations

from cairn.context.tokens import Counter


def clip(counter: Counter, text: str, limit: int) -> str:
    """`text` cut after the most whole words that fit `limit` tokens (minus 2 for " …"),
    or unchanged when it fits (binary search over the word count)."""
    if counter.count(text) <= limit:
        return text
    words = text.split(" ")
    lo, hi = 1, len(words)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if counter.count(" ".join(words[:mid])) <= limit - 2:
            lo = mid
        else:
            hi = mid - 1
    return " ".join(words[:lo]) + " …"


def safety_net(counter: Counter, units: list, over: int) -> None:
    """Cut the longest of `units` (compiler Units: .id, .text, .tokens) by `over` tokens plus
    a margin, in place: the current message keeps its end (the request is usually last), any
    other unit its start. Raises ValueError when even one token is too many."""
    big = max(units, key=lambda u: u.tokens)
    target = max(1, big.tokens - over - 8)
    if big.tokens <= 1:
        raise ValueError("the prompt budget is too small for the message")
    if big.id == "current":
        words = big.text.split(" ")
        while len(words) > 1 and counter.count("… " + " ".join(words)) > target:
            words = words[max(1, len(words) // 8):]
        big.text = "… " + " ".join(words)
    else:
        big.text = clip(counter, big.text, target)
    new = counter.count(big.text)
    if new >= big.tokens:  # one unbreakable word: cut characters
        big.text = big.text[: max(1, len(big.text) * target // max(1, big.tokens))]
        new = counter.count(big.text)
    big.tokens = new
