"""Token counting for prompt budgets.

`estimate(text)`: a Unicode-aware estimate for models whose tokenizer is not on this machine:
ASCII words cost 1 token per started 4 characters (OpenAI's published rule of thumb, ~4
characters a token in English), CJK / kana / hangul characters 1 token each (BPE vocabularies
rarely merge them), other non-ASCII letters 1 token per 2 characters (accented Latin, Cyrillic,
Greek mostly split into 2-character pieces), and every punctuation mark or symbol 1 token.
It errs high, so a budget computed with it is not exceeded by the real tokenizer in practice.

`Counter(model)`: the model's real tokenizer when it is a llama.cpp server (the embedded model or
a loopback llama.cpp endpoint: POST /tokenize), else the estimate. Counts are cached by text.
"""

from __future__ import annotations

import re
from functools import lru_cache

_PIECE = re.compile(r"[A-Za-z0-9]+|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]|[^\W\d_A-Za-z]+|\d+|\S")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")


@lru_cache(maxsize=65536)
def estimate(text: str) -> int:
    """Estimated tokens of `text` (0 for ""); see the module docstring for the rule."""
    if not text:
        return 0
    n = 0
    for p in _PIECE.findall(text):
        c = p[0]
        if c.isascii() and c.isalnum():
            n += (len(p) + 3) // 4
        elif _CJK.match(c):
            n += 1
        elif c.isalpha():
            n += (len(p) + 1) // 2
        else:
            n += 1
    return n


class Counter:
    """Counts tokens for one model. `count(text)` -> int; `exact` says whether the model's own
    tokenizer is used. `model`: a `cairn.assistant.models.ChatModel` or None."""

    def __init__(self, model=None):
        self.exact = False
        self._url = None
        self._cache: dict[str, int] = {}
        base = None
        try:
            if model is not None and getattr(model, "local", False) and str(getattr(model, "name", "")).startswith("embedded"):
                base = model.client.base_url  # the embedded llama.cpp server
        except Exception:
            base = None
        if base:
            self._url = base.rstrip("/").removesuffix("/v1") + "/tokenize"
            self.exact = self._probe()

    def _probe(self) -> bool:
        try:
            return self._remote("probe") is not None
        except Exception:
            return False

    def _remote(self, text: str) -> int | None:
        import httpx
        r = httpx.post(self._url, json={"content": text}, timeout=5)
        r.raise_for_status()
        toks = r.json().get("tokens")
        return len(toks) if isinstance(toks, list) else None

    def count(self, text: str) -> int:
        """Tokens of `text` (the real tokenizer when available, else `estimate`)."""
        if not self.exact or not text:
            return estimate(text or "")
        hit = self._cache.get(text)
        if hit is None:
            try:
                hit = self._remote(text)
            except Exception:
                hit = None
            hit = estimate(text) if hit is None else hit
            if len(self._cache) > 20000:
                self._cache.clear()
            self._cache[text] = hit
        return hit

    def messages(self, messages: list[dict]) -> int:
        """Tokens of a chat request's messages: content plus ~4 per message for the role
        framing of chat templates (ChatML: <|im_start|>role\\n ... <|im_end|>\\n)."""
        import json
        total = 0
        for m in messages:
            c = m.get("content")
            total += 4 + self.count(c if isinstance(c, str) else json.dumps(c or "", ensure_ascii=False))
            if m.get("tool_calls"):
                total += self.count(json.dumps(m["tool_calls"], ensure_ascii=False))
        return total + 2
