"""Tool outputs shortened before they enter the prompt; the full output stays in the session
log (`tool_result` event) and `cairn sessions output SESSION CALL_ID` prints it.

- search-like results (a list of hits with ids/titles): ids, titles and ~160-character snippets
- a note (a dict with "body"/"text"/"content"): the paragraphs that share most terms with the
  person's message, up to `limit` tokens
- anything else: its JSON cut to `limit` tokens
"""

from __future__ import annotations

import json

from cairn.context.bm25 import terms
from cairn.context.tokens import estimate


def _cut(text: str, limit: int) -> str:
    if estimate(text) <= limit:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix within the limit
        mid = (lo + hi + 1) // 2
        if estimate(text[:mid]) <= limit:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "…(cut)"


def distill(name: str, result, query: str = "", call_id: str = "", limit: int = 300) -> str:
    """The prompt form of tool `name`'s `result` for a turn about `query` (at most about
    `limit` tokens); names `call_id` so the full output can be fetched from the log."""
    tail = f' (full output: call {call_id})' if call_id else ""
    hits = None
    if isinstance(result, list):
        hits = result
    elif isinstance(result, dict):
        hits = next((v for k, v in result.items() if k in ("hits", "results", "notes", "memories", "items")
                     and isinstance(v, list)), None)
    if hits is not None and all(isinstance(h, dict) for h in hits):
        lines = []
        for h in hits[:10]:
            hid = h.get("note_id") or h.get("id") or ""
            title = h.get("title") or ""
            snip = str(h.get("snippet") or h.get("text") or h.get("body") or "").replace("\n", " ")[:160]
            lines.append(f"- {hid} {title}: {snip}".strip())
        extra = {k: v for k, v in result.items() if not isinstance(v, list)} if isinstance(result, dict) else {}
        head = (json.dumps(extra, ensure_ascii=False, default=str)[:200] + "\n") if extra else ""
        return _cut(head + "\n".join(lines) + (f"\n({len(hits)} results)" if len(hits) > 10 else ""), limit) + tail
    if isinstance(result, dict):
        body = next((result[k] for k in ("body", "text", "content") if isinstance(result.get(k), str)), None)
        if body and estimate(body) > limit:
            q = set(terms(query))
            paras = [p for p in body.split("\n\n") if p.strip()]
            ranked = sorted(range(len(paras)), key=lambda i: -len(q & set(terms(paras[i]))))
            keep, used = [], 0
            for i in ranked:
                t = estimate(paras[i])
                if used + t > limit and keep:
                    break
                keep.append(i)
                used += t
            meta = {k: v for k, v in result.items() if k not in ("body", "text", "content")}
            text = json.dumps(meta, ensure_ascii=False, default=str)[:200] + "\n" + "\n…\n".join(
                paras[i] for i in sorted(keep))
            return _cut(text, limit) + tail
    blob = json.dumps(result, ensure_ascii=False, default=str)
    return _cut(blob, limit) + (tail if estimate(blob) > limit else "")
