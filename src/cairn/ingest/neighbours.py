"""Neighbour-carrying keys for chat messages (issue 17, "neighbour context for
conversations"): a message's stored vector also points toward the messages around it, so
a short reply ("Yes, last Tuesday!") is found by what it answers.

    key(m) = normalise(v(m) + alpha x mean(v(prev), v(next)))

v(x) is the embedding of a message's own text (`embedding.embed_text`: "speaker: text"
and its facts); prev / next are the messages just before and after it in the same chat
note (one session, by chunk order); a message alone in its session keeps v(m). The same
rule was measured in bench/models.py (MiniLM, LoCoMo hybrid hit@10 +0.013 tuning half,
+0.017 held out at alpha 0.3) before it was carried into ingest; the alpha in use is
`[memory] neighbour_keys` (bench/README.md has the figures). Notes and documents keep the
plain vector of their own text.
"""

from __future__ import annotations

import hashlib


def mix(own: np.ndarray, neighbours: list[np.ndarray], alpha: float) -> np.ndarray:
    """normalise(own + alpha x mean(neighbours)) as float32 (own: (dim,) unit vector;
    neighbours: 0, 1 or 2 such vectors). alpha <= 0 or no neighbour: `own` unchanged."""
    import numpy as np
    v = np.asarray(own, dtype=np.float32)
    if alpha <= 0 or not neighbours:
        return v
    out = v + np.float32(alpha) * np.mean(np.stack([np.asarray(n, dtype=np.float32) for n in neighbours]), axis=0)
    norm = float(np.linalg.norm(out))
    return (out / norm).astype(np.float32) if norm > 0 else v


def mix_rows(mat: np.ndarray, groups: list, alpha: float) -> np.ndarray:
    """`mix` applied to every row of `mat` ((n, dim), rows in chunk order) with the rows
    before and after it that have the same group (a chat note's id); rows whose group is
    None (not a chat message) are left as they are. Returns a new (n, dim) float32 array."""
    import numpy as np
    mat = np.asarray(mat, dtype=np.float32)
    if alpha <= 0:
        return mat.copy()
    out = mat.copy()
    for i, g in enumerate(groups):
        if g is None:
            continue
        nb = [mat[j] for j in (i - 1, i + 1) if 0 <= j < len(groups) and groups[j] == g]
        out[i] = mix(mat[i], nb, alpha)
    return out


def key_hash(own_text: str, neighbour_texts: list[str], alpha: float) -> str:
    """The text hash stored with a mixed vector: sha1 of the message's embedded text, the
    alpha and the neighbours' embedded texts, so the vector cache (vectors of deleted
    chunks) only gives a mixed vector back to a message with the same text AND the same
    neighbours. Without neighbours or with alpha <= 0, the plain sha1 of `own_text`
    (the hash every other chunk stores)."""
    if alpha <= 0 or not neighbour_texts:
        return hashlib.sha1(own_text.encode("utf-8")).hexdigest()
    key = "\x1e".join([f"neighbours:{alpha:g}", own_text, *neighbour_texts])
    return hashlib.sha1(key.encode("utf-8")).hexdigest()
