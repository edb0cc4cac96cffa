"""Shared helpers for Cairn's benchmark scripts (bench/*.py).

Data is read where it lies: `<repo>/../shared/data` (override with the CAIRN_DATA
environment variable). Homes and scratch files go to a temp dir or to bench/out/ (git-ignored).
The `cairn` executable is the one beside the running Python (the venv's), else the one on
PATH; override with CAIRN_BIN.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Sequence

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
OUT = BENCH / "out"
MODES = ("keyword", "semantic", "hybrid")

if str(REPO / "src") not in sys.path:  # let `python bench/x.py` import cairn without install
    sys.path.insert(0, str(REPO / "src"))


def data_dir() -> Path:
    """The shared data folder (CAIRN_DATA, else <repo>/../shared/data)."""
    env = os.environ.get("CAIRN_DATA")
    return Path(env).expanduser().resolve() if env else (REPO.parent / "shared" / "data").resolve()


def need(path: Path, what: str) -> Path:
    """`path` if it exists, else exit with a message naming it (and CAIRN_DATA)."""
    if not path.exists():
        sys.exit(f"error: {what} not found at {path} (set CAIRN_DATA to the shared data folder)")
    return path


def cairn_bin() -> list[str]:
    """Command prefix that runs the Cairn CLI."""
    env = os.environ.get("CAIRN_BIN")
    if env:
        return [env]
    beside = Path(sys.executable).parent / "cairn"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("cairn")
    if found:
        return [found]
    return [sys.executable, "-m", "cairn.cli"]


class CairnError(RuntimeError):
    pass


def run_cairn(home: Path, args: Sequence[str], *, stdout_path: Path | None = None,
              timeout: float | None = None) -> tuple[str, str, float]:
    """Run `cairn --home HOME ARGS...`; returns (stdout, stderr, wall seconds).

    With stdout_path, stdout goes to that file (returned stdout is ""). Raises CairnError
    with the command, exit code and stderr tail on a non-zero exit.
    """
    cmd = [*cairn_bin(), "--home", str(home), *args]
    t0 = time.perf_counter()
    if stdout_path is not None:
        with open(stdout_path, "wb") as fh:
            proc = subprocess.run(cmd, stdout=fh, stderr=subprocess.PIPE, timeout=timeout)
        out = ""
    else:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        out = proc.stdout.decode("utf-8", "replace")
    wall = time.perf_counter() - t0
    err = proc.stderr.decode("utf-8", "replace")
    if proc.returncode != 0:
        raise CairnError(f"`{' '.join(cmd)}` exited {proc.returncode}:\n{err[-3000:]}")
    return out, err, wall


def parse_json_report(stdout: str) -> dict:
    """The JSON object printed by `cairn ... --json` (ignores anything before the first '{')."""
    start = stdout.find("{")
    if start < 0:
        raise CairnError(f"no JSON report in output: {stdout[:500]!r}")
    return json.loads(stdout[start:])


@contextmanager
def work_dir(keep: bool, keep_prefix: str, tmp_prefix: str) -> Iterator[Path]:
    """A scratch folder for homes and batch files: with `keep`, a new bench/out/<keep_prefix>*
    folder that is kept (its path is printed); else a temp dir removed on exit."""
    if keep:
        OUT.mkdir(parents=True, exist_ok=True)
        path = Path(tempfile.mkdtemp(prefix=keep_prefix, dir=OUT))
        print(f"keeping homes and batch files in {path}")
        yield path
    else:
        with tempfile.TemporaryDirectory(prefix=tmp_prefix) as tmp:
            yield Path(tmp)


def write_jsonl(path: Path, rows: Iterable[dict]) -> int:
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            n += 1
    return n


def read_jsonl(path: Path) -> Iterator[dict]:
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def batch_search(home: Path, batch_file: Path, out_file: Path, *, k: int, mode: str,
                 fusion: str | None = None) -> tuple[dict[str, list[dict]], list[str], float]:
    """`cairn search --batch` -> ({query_id: hits}, warnings seen, wall seconds).
    fusion None: Cairn's default (no --fusion option)."""
    args = ["search", "--batch", str(batch_file), "--k", str(k), "--mode", mode]
    if fusion:
        args += ["--fusion", fusion]
    _, err, wall = run_cairn(home, args, stdout_path=out_file)
    results: dict[str, list[dict]] = {}
    warnings: list[str] = []
    for row in read_jsonl(out_file):
        results[str(row["query_id"])] = row.get("hits") or []
        warnings.extend(f"{row['query_id']}: {w}" for w in row.get("warnings") or [])
    if err.strip():
        warnings.append("stderr: " + err.strip()[-500:])
    return results, warnings, wall


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], aligns: str | None = None) -> str:
    """A plain monospace table (markdown-compatible pipes)."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    aligns = aligns or ("l" + "r" * (len(headers) - 1))

    def fmt(row: Sequence[str]) -> str:
        parts = [c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(row, widths, aligns)]
        return "| " + " | ".join(parts) + " |"

    sep = "|" + "|".join(("-" * (w + 1) + ":" if a == "r" else "-" * (w + 2)) for w, a in zip(widths, aligns)) + "|"
    return "\n".join([fmt(cells[0]), sep, *(fmt(r) for r in cells[1:])])


def fusion_label(fusion: str | None) -> str:
    """What a --fusion passthrough value means, for headers."""
    if fusion:
        return fusion
    try:
        from cairn.config import SearchSettings
        return f"Cairn default ({SearchSettings().fusion})"
    except Exception:  # noqa: BLE001 - only a label
        return "Cairn default"


def fmt_s(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds >= 1 else f"{seconds * 1000:.0f} ms"


def header(title: str) -> None:
    print(f"\n== {title}", flush=True)


def fresh_database(server_url: str, name: str) -> str:
    """Create (dropping any old one) the database `name` on the PostgreSQL server of
    `server_url` (a postgresql:// URL to any database there) and return its URL; the store
    option of the quality benchmarks (a fresh index per home)."""
    import psycopg
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, query = server_url.partition("?")
    return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")


def switch_off(package: str, switches: Iterable[str], option: str, fail) -> None:
    """Set each MODULE.SWITCH of `switches` (a True/False rule of `package`.MODULE, e.g. "typed.UNWRAP" of
    "cairn.answer", or of cairn.MODULE when `package` has no such module: "search.asked.HEAD_NOUNS") to False, to
    measure what the rule does. A name that is no such switch calls `fail(message)` (which should exit: argparse's
    `error`, `sys.exit`), the message naming `option` and what is missing."""
    import importlib
    for switch in switches:
        module, _, name = switch.strip().rpartition(".")
        try:
            mod = importlib.import_module(f"{package}.{module}")
        except ImportError:
            try:
                mod = importlib.import_module(f"cairn.{module}") if "." in module else None
            except ImportError:
                mod = None
            if mod is None:
                fail(f"{option} {switch}: there is no module {package}.{module}")
        if not isinstance(getattr(mod, name, None), bool):
            fail(f"{option} {switch}: {package}.{module} has no switch {name} (a True/False rule)")
        setattr(mod, name, False)
