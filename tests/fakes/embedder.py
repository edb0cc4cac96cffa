"""A fast stand-in embedder for tests where retrieval quality is not the point.

Each word (lower-cased) hashes to a few of 384 dimensions (blake2b); a text's
vector is the L2-normalised sum. Texts sharing words get a positive cosine, so hybrid search
still ranks, in microseconds and with no model files. Same interface as cairn.embed's
Embedder: `embed(list[str]) -> (n, 384) float32`, `model_name`, `model_id`, `dim`."""

from __future__ import annotations

import hashlib
import re

import numpy as np

_WORD = re.compile(r"\w+")


class HashEmbedder:
    model_name = "fake-hash-384"
    model_id = "fake-hash-384"
    dim = 384

    def embed(self, texts):
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in _WORD.findall(str(text).lower()):
                h = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
                for j in range(3):
                    out[i, (h[j] * 256 + h[j + 3]) % self.dim] += 1.0
            norm = np.linalg.norm(out[i])
            out[i] = out[i] / norm if norm else out[i]
        return out
