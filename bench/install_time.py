#!/usr/bin/env python3
"""`make demo` on fresh clones, timed in one run (issue 38): the candidate against a baseline.

    python bench/install_time.py                                   # this repository's HEAD vs main@1557fd8
    python bench/install_time.py --baseline /work/main@1557fd8 --candidate /work/wt/lean@lean

Each side is `git clone`d into --workdir (a clean folder: no .venv, no .demo-home), checked out
at its commit, and runs `make demo` there with the same environment, so both use the same pip
cache (pip's default ~/.cache/pip, or $PIP_CACHE_DIR) and the same package index. Printed per
side: wall seconds of `make demo` (install + ingest + search + ask) and the CPU seconds of
everything it ran, the 1-minute load
average before and after (the machine is shared), `du -sm .venv`, whether torch is installed,
whether the output ends with a cited answer (a "[1]" citation in the last lines), and the
step lines the Makefile printed, each with the second it started at and its length. Then the
candidate/baseline wall ratio (issue 38: <= 0.40).

Both sides ingest the same folder (`make demo DIR=...`): by default the baseline commit's own
docs/, extracted once with `git archive` (the repository's docs/ has grown since: session 16's
first run without this compared 16 files against 29, ten of them screenshots to OCR); `--dir`
names another folder.
Exit status 1 when a `make demo` fails.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _split(spec: str) -> tuple[str, str]:
    """'PATH@COMMIT' -> (PATH, COMMIT); 'PATH' -> (PATH, 'HEAD')."""
    path, _, commit = spec.partition("@")
    return path, commit or "HEAD"


def _children_cpu() -> float:
    """User + system CPU seconds of this process's waited-for children so far."""
    import resource
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def demo_docs(spec: str, workdir: Path) -> Path:
    """The docs/ folder of `spec` (PATH@COMMIT), extracted into workdir/demo-docs."""
    src, commit = _split(spec)
    dest = workdir / "demo-docs"
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", src, "archive", commit, "docs"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest / "docs"


def run_side(label: str, spec: str, workdir: Path, demo_dir: Path) -> dict:
    """Clone `spec` into workdir/label, run `make demo`, and measure it."""
    src, commit = _split(spec)
    dest = workdir / label
    if dest.exists():
        shutil.rmtree(dest)
    subprocess.run(["git", "clone", "--quiet", src, str(dest)], check=True)
    subprocess.run(["git", "-C", str(dest), "checkout", "--quiet", commit], check=True)
    rev = subprocess.run(["git", "-C", str(dest), "rev-parse", "--short", "HEAD"], check=True,
                         capture_output=True, text=True).stdout.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CAIRN_", "VIRTUAL_ENV", "PYTHONPATH"))}
    load0 = os.getloadavg()[0]
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    # stdout and stderr in one stream, read line by line: each "==>" step line gets the seconds
    # since the start at which it was printed, so the wall time splits into install and demo steps.
    proc = subprocess.Popen(["make", "demo", f"DIR={demo_dir}"], cwd=dest, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines, stamps = [], []
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith("==>"):
            stamps.append((time.perf_counter() - t0, line.strip()))
    proc.wait()
    wall = time.perf_counter() - t0
    cpu = _children_cpu() - cpu0
    load1 = os.getloadavg()[0]
    out = "\n".join(lines)
    (workdir / f"{label}.log").write_text(out)
    venv = dest / ".venv"
    du = subprocess.run(["du", "-sm", str(venv)], capture_output=True, text=True).stdout.split()[0]
    du_h = subprocess.run(["du", "-sh", str(venv)], capture_output=True, text=True).stdout.split()[0]
    site = next(venv.glob("lib/python3*/site-packages"), venv)
    tail = lines[-15:]
    steps = [f"{at:6.1f} s (+{(stamps[i + 1][0] if i + 1 < len(stamps) else wall) - at:5.1f} s)  {text}"
             for i, (at, text) in enumerate(stamps)]
    return {"label": label, "spec": f"{src}@{rev}", "rc": proc.returncode, "wall": wall, "cpu": cpu,
            "load": (load0, load1), "du_mb": int(du), "du_h": du_h, "torch": (site / "torch").is_dir(),
            "cited": any("[1]" in line for line in tail),
            "steps": steps,
            "tail": tail[-6:]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", default="/work/main@1557fd8", help="PATH[@COMMIT] of the baseline")
    ap.add_argument("--candidate", default=f"{REPO}@HEAD", help="PATH[@COMMIT] of the candidate")
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/cairn-install-time"))
    ap.add_argument("--dir", type=Path, default=None,
                    help="the folder both demos ingest (default: the baseline commit's docs/)")
    ap.add_argument("--candidate-first", action="store_true", help="run the candidate before the baseline")
    args = ap.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    order = [("candidate", args.candidate), ("baseline", args.baseline)]
    if not args.candidate_first:
        order.reverse()
    print(f"pip cache: {os.environ.get('PIP_CACHE_DIR') or '~/.cache/pip (default)'}; "
          f"{os.cpu_count()} CPUs; started {time.strftime('%Y-%m-%d %H:%M:%S')}", flush=True)
    demo_dir = args.dir.resolve() if args.dir else demo_docs(args.baseline, args.workdir)
    print(f"both demos ingest {demo_dir} ({sum(1 for p in demo_dir.rglob('*') if p.is_file())} files)", flush=True)
    res = {}
    for label, spec in order:
        print(f"== {label}: {spec} ...", flush=True)
        r = res[label] = run_side(label, spec, args.workdir, demo_dir)
        print(f"   rc {r['rc']}, {r['wall']:.0f} s wall, {r['cpu']:.0f} s CPU, load {r['load'][0]:.1f} -> {r['load'][1]:.1f}, "
              f".venv {r['du_mb']} MiB ({r['du_h']}), torch {'yes' if r['torch'] else 'no'}, "
              f"cited answer {'yes' if r['cited'] else 'no'}", flush=True)
        for line in r["steps"]:
            print(f"   | {line}")
        for line in r["tail"]:
            print(f"   > {line}")
    print()
    print("| side | commit | make demo wall | CPU | load before/after | .venv (du -sm / -sh) | torch | cited answer |")
    print("|---|---|---:|---:|---|---:|---|---|")
    for label in ("baseline", "candidate"):
        r = res[label]
        print(f"| {label} | {r['spec']} | {r['wall']:.0f} s | {r['cpu']:.0f} s | {r['load'][0]:.1f} / {r['load'][1]:.1f} | "
              f"{r['du_mb']} MiB / {r['du_h']} | {'yes' if r['torch'] else 'no'} | {'yes' if r['cited'] else 'no'} |")
    ratio = res["candidate"]["wall"] / res["baseline"]["wall"]
    cpu_ratio = res["candidate"]["cpu"] / max(res["baseline"]["cpu"], 1e-9)
    print(f"\ncandidate / baseline wall: {ratio:.2f} (issue 38 target <= 0.40); CPU: {cpu_ratio:.2f}")
    return 0 if all(r["rc"] == 0 for r in res.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
