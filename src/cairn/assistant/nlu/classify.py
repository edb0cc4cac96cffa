"""The intent classifier: multinomial logistic regression over sentence embeddings, trained
on the utterances of `utterances.txt` at first use, with a calibrated "none of these" threshold.

Features of a message (shape (2 * dim + 1,)): the embedder's vector of the whole message beside
the vector of its first HEAD_WORDS words, and whether it reads as a question. The head carries the request ("remind me", "add ... to
the note") while the rest is mostly its content, which would otherwise pull a "remember that my
dentist is ..." towards a question about the dentist.

Training (numpy only): softmax regression with L2 penalty L2, full-batch gradient descent
with Nesterov momentum (EPOCHS steps of rate RATE, momentum MOMENTUM; the loss is convex). The "none"
threshold is calibrated on a held-out split (every CALIB_EVERY-th utterance of each intent):
the model is trained on the rest and the threshold on the top probability is the one that
maximises the split's accuracy when a message below it, or classified "none", counts as none (the
highest of equally accurate thresholds: one held-out utterance more or less swung the
lowest-of-ties choice between 0.05 and 0.19, i.e. between "never none" and "none below 0.19").
(Session 26 also calibrated a margin of the top over the second intent, under which a message below
the threshold would still be read; on every split it found none that paid, so it was deleted in
session 27.)
The final model is then trained on all utterances. Weights, threshold and the calibration's
figures are cached in `<home>/nlu/<key>.npz`, key = sha256 of the embedder's model id, the
data file and TRAIN_VERSION; and in memory per process. The package ships the model trained
for the shipped embedder (SHIPPED, written by `python -m cairn.assistant.nlu.classify`): it
is used when its stored key is the current key, so a new home's first turn does not train
(~7 CPU s on the 2-core machine); with another embedder or changed utterances the key differs
and the model is trained as above. Training is deterministic (full-batch descent from zeros),
so the shipped weights are the ones training would give (tests/test_nlu.py checks it).

Errors: ValueError for a malformed data file (a line before the first "## intent" header).
"""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DATA = Path(__file__).with_name("utterances.txt")
HEAD_WORDS = 4
L2 = 1e-4
EPOCHS = 300
RATE = 5.0
MOMENTUM = 0.9
CALIB_EVERY = 5
NONE = "none"
TRAIN_VERSION = "5"
SHIPPED = Path(__file__).with_name("intents.npz")
_LOCK = threading.Lock()
_MODELS: dict[str, "IntentModel"] = {}


def read_utterances(path: Path = DATA) -> list[tuple[str, str]]:
    """(intent, utterance) pairs of a data file: "## intent" headers, one utterance a line,
    "#" comments and blank lines skipped. ValueError for an utterance before any header."""
    out, intent = [], None
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if line.startswith("## "):
            intent = line[3:].strip()
        elif line and not line.startswith("#"):
            if intent is None:
                raise ValueError(f"{path.name}:{n}: an utterance before the first '## intent' header")
            out.append((intent, line))
    return out


def head(text: str) -> str:
    """The first HEAD_WORDS words of `text` (the whole text when shorter)."""
    return " ".join(text.split()[:HEAD_WORDS])


_QUESTION = re.compile(r"\?\s*$|^(?:what|when|where|who|whose|which|how|why|is|are|was|were|do|does|did)\b", re.I)


def features(embedder, texts: list[str]) -> np.ndarray:
    """(len(texts), 2 * dim + 1) float32: [vector of the text, vector of its head, 1.0 when
    the text reads as a question (a question mark, or a question word first) else 0.0]."""
    from cairn.embed.cache import embed_cached
    full = embed_cached(embedder, list(texts))
    heads = embed_cached(embedder, [head(t) for t in texts])
    asks = np.array([[1.0 if _QUESTION.search(t.strip()) else 0.0] for t in texts], dtype=np.float32)
    return np.hstack([full, heads, asks]).astype(np.float32)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def train(x: np.ndarray, y: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression weights (W (d, k), b (k,)) for features `x` (n, d) and labels `y`
    (n,) in 0..k-1, by full-batch gradient descent on the mean cross-entropy + L2/2 |W|^2."""
    n, d = x.shape
    w = np.zeros((d, k), dtype=np.float32)
    b = np.zeros(k, dtype=np.float32)
    vw, vb = np.zeros_like(w), np.zeros_like(b)
    onehot = np.eye(k, dtype=np.float32)[y]
    x = x.astype(np.float32)
    for _ in range(EPOCHS):  # Nesterov momentum: the gradient at the look-ahead point
        lw, lb = w + MOMENTUM * vw, b + MOMENTUM * vb
        g = (_softmax(x @ lw + lb) - onehot) / n
        vw = MOMENTUM * vw - RATE * (x.T @ g + L2 * lw)
        vb = MOMENTUM * vb - RATE * g.sum(axis=0)
        w, b = w + vw, b + vb
    return w, b


@dataclass
class Prediction:
    """One message's intent: `intent` (NONE below the threshold), `score` (its probability),
    `best` (the top intent before the threshold), `ranked` [(intent, probability)] top 3."""

    intent: str
    score: float
    best: str
    ranked: list[tuple[str, float]]

    def to_json(self) -> dict:
        return {"intent": self.intent, "score": round(self.score, 3), "best": self.best,
                "ranked": [[i, round(p, 3)] for i, p in self.ranked]}


class IntentModel:
    """A trained classifier: `labels`, weights, `threshold`, `calibration` figures
    ({"n", "accuracy", "threshold"} of the held-out split). A message is "none" when its top
    intent is "none" or its top probability is under `threshold`."""

    def __init__(self, labels: list[str], w: np.ndarray, b: np.ndarray, threshold: float, calibration: dict):
        self.labels, self.w, self.b = labels, w, b
        self.threshold, self.calibration = threshold, calibration

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """(n, k) class probabilities of feature rows `x`."""
        return _softmax(x.astype(np.float64) @ self.w + self.b)

    def predict_features(self, x: np.ndarray) -> list[Prediction]:
        out = []
        for row in self.probabilities(x):
            order = np.argsort(-row)
            best, p = self.labels[order[0]], float(row[order[0]])
            intent = NONE if (best == NONE or p < self.threshold) else best
            out.append(Prediction(intent, p, best, [(self.labels[i], float(row[i])) for i in order[:3]]))
        return out


def _calibrate(x: np.ndarray, y: np.ndarray, labels: list[str]) -> tuple[float, dict]:
    """The none threshold from a held-out split (module docstring) and its figures."""
    idx = np.arange(len(y))
    held = np.zeros(len(y), dtype=bool)
    for c in range(len(labels)):
        members = idx[y == c]
        held[members[CALIB_EVERY - 1::CALIB_EVERY]] = True
    w, b = train(x[~held], y[~held], len(labels))
    probs = _softmax(x[held].astype(np.float64) @ w + b)
    top, arg = probs.max(axis=1), probs.argmax(axis=1)
    none = labels.index(NONE) if NONE in labels else -1
    truth = y[held]
    best_t, best_acc = 0.0, -1.0
    for t in np.arange(0.05, 0.95, 0.01):
        pred = np.where((top < t) | (arg == none), none, arg)
        acc = float((pred == truth).mean())
        if acc >= best_acc - 1e-9:  # ties: the highest such threshold (the cautious one: more read as none)
            best_t, best_acc = float(t), acc
    return best_t, {"n": int(held.sum()), "accuracy": round(best_acc, 3), "threshold": round(best_t, 2)}


def _key(embedder, data: bytes) -> str:
    mid = str(getattr(embedder, "model_id", None) or getattr(embedder, "model_name", "embedder"))
    return hashlib.sha256(b"\0".join([mid.encode(), data, TRAIN_VERSION.encode()])).hexdigest()[:16]


def _load(path: Path, key: str | None = None) -> IntentModel | None:
    """The model saved at `path` (None when missing, unreadable, or, given `key`, saved
    under another key)."""
    try:
        with np.load(path, allow_pickle=False) as z:
            if key is not None and ("key" not in z.files or str(z["key"]) != key):
                return None
            return IntentModel(list(z["labels"]), z["w"], z["b"], float(z["threshold"]),
                               {"n": int(z["cal_n"]), "accuracy": float(z["cal_acc"]), "threshold": float(z["threshold"])})
    except (OSError, ValueError, KeyError):
        return None


def _save(path: Path, model: IntentModel, key: str) -> None:
    """Write `model` to `path` atomically (OSError when it cannot)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, labels=np.array(model.labels), w=model.w, b=model.b, threshold=model.threshold,
             cal_n=model.calibration["n"], cal_acc=model.calibration["accuracy"], key=key)
    tmp.replace(path)


def trained(embedder, data_path: Path = DATA) -> IntentModel:
    """A model trained now on the utterances of `data_path` (module docstring)."""
    pairs = read_utterances(data_path)
    labels = sorted({i for i, _ in pairs})
    x = features(embedder, [u for _, u in pairs])
    y = np.array([labels.index(i) for i, _ in pairs])
    threshold, cal = _calibrate(x, y, labels)
    w, b = train(x, y, len(labels))
    return IntentModel(labels, w, b, threshold, cal)


def model_for(embedder, cache_dir: Path | None = None, data_path: Path = DATA,
              shipped: Path | None = SHIPPED) -> IntentModel:
    """The trained IntentModel for `embedder`: from this process's memory, the home's cache,
    the package's shipped model when its key matches, else trained now and cached (module
    docstring). cache_dir: where the .npz goes (None: memory only); shipped: None to ignore it."""
    data = data_path.read_bytes()
    key = _key(embedder, data)
    with _LOCK:
        if key in _MODELS:
            return _MODELS[key]
        path = cache_dir / f"{key}.npz" if cache_dir else None
        model = _load(path) if path is not None and path.exists() else None
        if model is None and shipped is not None and shipped.exists():
            model = _load(shipped, key)
        if model is None:
            model = trained(embedder, data_path)
            if path is not None:
                try:
                    _save(path, model, key)
                except OSError:
                    pass  # a read-only home: trained again next process
        _MODELS[key] = model
        return model


def build(embedder=None, out: Path = SHIPPED) -> str:
    """Train on DATA with `embedder` (default: the shipped one) and write the package's
    model to `out`; returns its key. Run after changing utterances.txt or TRAIN_VERSION."""
    if embedder is None:
        from cairn.embed import get_embedder
        embedder = get_embedder()
    key = _key(embedder, DATA.read_bytes())
    _save(out, trained(embedder), key)
    return key


def classify(embedder, texts: list[str], cache_dir: Path | None = None) -> list[Prediction]:
    """The Prediction of each text (see IntentModel)."""
    model = model_for(embedder, cache_dir)
    return model.predict_features(features(embedder, texts))


if __name__ == "__main__":  # python -m cairn.assistant.nlu.classify: rebuild the shipped model
    print(f"wrote {SHIPPED} (key {build()})")

