#!/usr/bin/env python3
"""Ingest throughput, peak memory and search latency on a real notes vault.

    python bench/ingest_speed.py                  # Dendron vault (~1,000 notes)
    python bench/ingest_speed.py --pad-scifact    # latency on a home padded to ~100k chunks
    python bench/ingest_speed.py --queries 100 --cold-runs 3
    python bench/ingest_speed.py --keep           # keeps the fresh home, prints its path
    python bench/ingest_speed.py --reuse-home bench/out/ingest-home-XXXX --pad-scifact
                                                  # (latency again without re-ingesting)

Steps (each figure is printed in one table at the end; nothing is asserted):
1. `cairn ingest <notes-dendron-vault>` into a fresh home: wall time, notes/s (files added
   per wall second), CPU time (from /usr/bin/time -v); the two phases as the ingest reports
   them in its JSON (`timings`, seconds since the process started): time to
   keyword-searchable (every text source indexed) and time to fully embedded (images OCR'd
   by the parse workers and every vector stored), and their ratio; peak RSS of the ingest
   process itself and of the largest parse worker (`peak_rss_mib`, each process's own
   VmHWM/ru_maxrss: /usr/bin/time's figure would include the workers);
2. the same command again with nothing changed: wall time and peak RSS;
3. warm search latency in one process (Python API, `Cairn.search`, k=10) over ~200 queries
   (Dendron note titles containing a word; with --pad-scifact half are SciFact train queries), p50/p95 per
   mode, after a warm-up query per mode (the first query's time is shown separately), with
   the p95/p50 ratio and the process CPU seconds per query (all threads), whose ratio a busy
   machine distorts less than the wall times;
4. cold `cairn search QUERY --k 10 --json` wall time, a new process each run (median of
   --cold-runs), for the hybrid and the keyword mode, interleaved with the floor
   `python -c "import numpy, onnxruntime"` (same Python, same runs), and the ratios of the
   medians to the floor. The source tree is byte-compiled first (`compileall`), since the
   environment may set PYTHONDONTWRITEBYTECODE and an installed package is compiled too.

--pad-scifact: the latency home is a copy of the fresh Dendron index plus N copies of the
SciFact index (imported once by `cairn import notes` and cached in bench/out/scifact-home,
shared with bench/scifact.py) until it holds ~--pad-target chunks. The copies are made by
SQL inside the index (notes, chunks, keyword rows and vectors, each copy with new ids and
paths); they have no vault files and duplicate real text and vectors, so they are a load
for latency only, never for quality figures. The padded home is a new folder
bench/out/latency-home-* made in each run (a few seconds to a minute) and removed at the end.

Every run ingests into its own new folder bench/out/ingest-home-* (removed at the end unless
--keep), so two runs at the same time do not disturb each other's homes (they still compete
for the CPU).

The machine's load matters: CPU seconds (user+sys) are printed beside wall times.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (MODES, OUT, CairnError, cairn_bin, data_dir, fmt_s, header, need,  # noqa: E402
                     parse_json_report, table)

TIME_BIN = "/usr/bin/time"
# The environment this script started with, for every command it runs: importing cairn here
# (the warm latencies) sets OPENBLAS_NUM_THREADS=1 in this process (cairn/__init__.py), which
# children would inherit; the floor `import numpy, onnxruntime` must run as the person's shell
# runs it, and each `cairn` command sets what it sets itself.
START_ENV = dict(os.environ)


# ----------------------------------------------------------------------------- measuring

def measure(cmd: list[str]) -> dict:
    """Run `cmd`; returns wall, cpu (user+sys, None if unknown), peak RSS in MiB, rc, out, err."""
    if os.path.exists(TIME_BIN):
        with tempfile.NamedTemporaryFile("r", suffix=".time", delete=False) as tf:
            tpath = tf.name
        try:
            t0 = time.perf_counter()
            proc = subprocess.run([TIME_BIN, "-v", "-o", tpath, *cmd], capture_output=True, env=START_ENV)
            wall = time.perf_counter() - t0
            info = Path(tpath).read_text()
        finally:
            os.unlink(tpath)

        def field(name: str) -> float | None:
            m = re.search(rf"{re.escape(name)}: ([\d.]+)", info)
            return float(m.group(1)) if m else None
        user, sys_ = field("User time (seconds)"), field("System time (seconds)")
        rss_kb = field("Maximum resident set size (kbytes)")
        return {"wall": wall, "cpu": (user or 0) + (sys_ or 0) if user is not None else None,
                "rss_mb": rss_kb / 1024 if rss_kb else None, "rc": proc.returncode,
                "out": proc.stdout.decode("utf-8", "replace"), "err": proc.stderr.decode("utf-8", "replace")}
    # Fallback: poll the peak (VmHWM) of the child while it runs.
    with tempfile.TemporaryFile() as out_f, tempfile.TemporaryFile() as err_f:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out_f, stderr=err_f, env=START_ENV)
        peak_kb = 0
        status = Path(f"/proc/{proc.pid}/status")
        while proc.poll() is None:
            try:
                m = re.search(r"VmHWM:\s+(\d+) kB", status.read_text())
                if m:
                    peak_kb = max(peak_kb, int(m.group(1)))
            except OSError:
                pass
            time.sleep(0.02)
        wall = time.perf_counter() - t0
        out_f.seek(0), err_f.seek(0)
        return {"wall": wall, "cpu": None, "rss_mb": peak_kb / 1024 if peak_kb else None,
                "rc": proc.returncode, "out": out_f.read().decode("utf-8", "replace"),
                "err": err_f.read().decode("utf-8", "replace")}


def cairn_measured(home: Path, args: list[str]) -> dict:
    res = measure([*cairn_bin(), "--home", str(home), *args])
    if res["rc"] != 0:
        raise CairnError(f"`cairn --home {home} {' '.join(args)}` exited {res['rc']}:\n{res['err'][-3000:]}")
    return res


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    s = sorted(values)
    return s[max(0, min(len(s) - 1, int(round(p / 100 * len(s) + 0.5)) - 1))]


# ----------------------------------------------------------------------------- padding

def pad_index(index: Path, pad_index_path: Path, target_chunks: int) -> dict:
    """Add copies of every note/chunk/keyword row/vector of `pad_index_path` to `index` until
    it holds about `target_chunks` chunks. Returns {copies, chunks, seconds}."""
    t0 = time.perf_counter()
    conn = sqlite3.connect(index, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("ATTACH DATABASE ? AS pad", (str(pad_index_path),))
        have = conn.execute("SELECT count(*) FROM main.chunks").fetchone()[0]
        per_copy = conn.execute("SELECT count(*) FROM pad.chunks").fetchone()[0]
        if per_copy == 0:
            raise RuntimeError(f"{pad_index_path} has no chunks")
        copies = max(0, -(-(target_chunks - have) // per_copy))  # ceil
        note_cols = [r[1] for r in conn.execute("PRAGMA main.table_info(notes)")]
        chunk_cols = [r[1] for r in conn.execute("PRAGMA main.table_info(chunks)")]
        conn.execute("BEGIN")
        for n in range(1, copies + 1):
            base = conn.execute("SELECT coalesce(max(id), 0) FROM main.chunks").fetchone()[0]
            off = base  # new chunk id = old id + off (old ids are >= 1, so no collision)
            sel_notes = ", ".join(
                f"id || '~pad{n}'" if c == "id" else f"'pad{n}/' || path" if c == "path" else f'"{c}"'
                for c in note_cols)
            conn.execute(f'INSERT INTO main.notes ({", ".join(chr(34) + c + chr(34) for c in note_cols)}) '
                         f"SELECT {sel_notes} FROM pad.notes")
            sel_chunks = ", ".join(
                f"id + {off}" if c == "id" else f"note_id || '~pad{n}'" if c == "note_id" else f'"{c}"'
                for c in chunk_cols)
            conn.execute(f'INSERT INTO main.chunks ({", ".join(chr(34) + c + chr(34) for c in chunk_cols)}) '
                         f"SELECT {sel_chunks} FROM pad.chunks")
            conn.execute(f"INSERT INTO main.chunks_fts(rowid, title, body, tags) "
                         f"SELECT rowid + {off}, title, body, tags FROM pad.chunks_fts")
            conn.execute(f"INSERT INTO main.vectors(chunk_id, model, text_hash, vec) "
                         f"SELECT chunk_id + {off}, model, text_hash, vec FROM pad.vectors")
        conn.execute("""INSERT INTO main.meta(key, value) VALUES ('vector_generation', '1')
                        ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1""")
        conn.execute("COMMIT")
        conn.execute("DETACH DATABASE pad")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        chunks = conn.execute("SELECT count(*) FROM main.chunks").fetchone()[0]
        vecs = conn.execute("SELECT count(*) FROM main.vectors").fetchone()[0]
    finally:
        conn.close()
    return {"copies": copies, "chunks": chunks, "vectors": vecs, "seconds": time.perf_counter() - t0}


# ----------------------------------------------------------------------------- queries

def vault_titles(vault: Path, n: int, seed: int = 42) -> list[str]:
    titles = []
    for p in sorted(vault.rglob("*.md")):
        head = p.read_text(encoding="utf-8", errors="replace")[:2000]
        m = re.search(r"^title:\s*['\"]?(.+?)['\"]?\s*$", head, re.MULTILINE)
        t = (m.group(1) if m else p.stem.replace(".", " ")).strip()
        if re.search(r"[^\W\d_]{3,}", t):  # skip titles like "0.99" (changelog versions)
            titles.append(t)
    rnd = random.Random(seed)
    return rnd.sample(titles, min(n, len(titles)))


def scifact_queries(n: int, seed: int = 42) -> list[str]:
    from _common import read_jsonl
    qs = [q["text"] for q in read_jsonl(data_dir() / "beir-scifact" / "queries-train.jsonl")]
    return random.Random(seed).sample(qs, min(n, len(qs)))


# ----------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pad-scifact", action="store_true", help="measure latency on a home padded to ~--pad-target chunks")
    ap.add_argument("--pad-target", type=int, default=100_000, help="chunks to reach with --pad-scifact")
    ap.add_argument("--queries", type=int, default=200, help="warm queries per mode")
    ap.add_argument("--cold-runs", type=int, default=3, help="cold CLI runs per mode (median)")
    ap.add_argument("--vault", type=Path, default=None, help="notes folder (default: the Dendron vault)")
    ap.add_argument("--keep", action="store_true", help="keep the homes made by this run (paths printed)")
    ap.add_argument("--reuse-home", type=Path, default=None, metavar="HOME",
                    help="skip steps 1-2 and measure latency on HOME (e.g. kept by an earlier --keep run)")
    args = ap.parse_args(argv)

    t_start = time.perf_counter()
    vault = need(args.vault or data_dir() / "notes-dendron-vault" / "vault", "notes vault")
    reuse = args.reuse_home is not None
    if reuse:
        home = args.reuse_home.resolve()
        if not (home / "index.db").exists():
            sys.exit(f"error: --reuse-home {home}: no index.db there")
    else:
        OUT.mkdir(parents=True, exist_ok=True)
        home = Path(tempfile.mkdtemp(prefix="ingest-home-", dir=OUT))
    nfiles = sum(1 for p in vault.rglob("*") if p.is_file() and not any(s.startswith(".") for s in p.relative_to(vault).parts))
    header(f"ingest speed — {vault} ({nfiles} files) into "
           + (f"the kept home {home} (--reuse-home: ingest not timed)" if reuse else f"a fresh home {home}"))
    if not os.path.exists(TIME_BIN):
        print(f"({TIME_BIN} not found: peak RSS by polling /proc/<pid>/status VmHWM, no CPU times)")
    rows: list[list[object]] = []
    notes_of_interest: list[str] = []
    cpu = lambda r: f"{r['cpu']:.1f} s" if r["cpu"] is not None else "-"  # noqa: E731
    rss = lambda r: f"{r['rss_mb']:.0f} MiB" if r["rss_mb"] else "-"  # noqa: E731
    try:
        if not reuse:
            first = cairn_measured(home, ["ingest", str(vault), "--json", "--quiet"])
            rep = parse_json_report(first["out"])
            second = cairn_measured(home, ["ingest", str(vault), "--json", "--quiet"])
            rep2 = parse_json_report(second["out"])
        status = parse_json_report(cairn_measured(home, ["status", "--json"])["out"])
    except CairnError as exc:
        print(f"INGEST FAILED: {exc}")
        return 1
    if not reuse:
        rows.append(["fresh ingest", fmt_s(first["wall"]), cpu(first), rss(first),
                     f"{rep['added']} added, {len(rep['skipped'])} skipped, {len(rep['failed'])} failed, "
                     f"{rep['embedded_chunks']} chunks embedded; {rep['added'] / first['wall']:.1f} notes/s"
                     " (peak RSS from /usr/bin/time includes the parse workers)"])
        t, mem = rep.get("timings") or {}, rep.get("peak_rss_mib") or {}
        if t:
            ks, full = t["keyword_searchable_s"], t.get("embedded_s") or t["parsed_s"]
            rows.append(["  phase: keyword-searchable", fmt_s(ks), "", f"{mem.get('ingest', 0):.0f} MiB",
                         "every text source indexed (seconds since the process started); "
                         "peak RSS = the ingest process itself"])
            rows.append(["  phase: images parsed", fmt_s(t["parsed_s"]), "",
                         f"{mem.get('parse_workers', 0):.0f} MiB", "OCR/ASR/PDF in the parse worker; "
                         "peak RSS = the largest worker"])
            rows.append(["  phase: fully embedded", fmt_s(full), "", "",
                         f"keyword-searchable {full / ks:.1f}x sooner than fully embedded"])
        rows.append(["unchanged re-ingest", fmt_s(second["wall"]), cpu(second), rss(second),
                     f"{rep2['unchanged']} unchanged, {rep2['added']} added, {rep2['updated']} updated, "
                     f"{rep2['embedded_chunks']} embedded"])
        for key in ("skipped", "failed"):
            reasons = Counter(item["reason"] for item in rep[key])
            for reason, n in reasons.most_common():
                example = next(Path(i["name"]).name for i in rep[key] if i["reason"] == reason)
                notes_of_interest.append(f"{key} {n}x: {reason} (e.g. {example})")
        if rep["warnings"]:
            notes_of_interest.append(f"{len(rep['warnings'])} ingest warning(s), e.g. "
                                     + "; ".join(f"{Path(w['name']).name}: {w['warning']}" for w in rep["warnings"][:3]))
        if rep2["added"] or rep2["updated"] or rep2["embedded_chunks"]:
            notes_of_interest.append("the unchanged re-ingest changed something: " + str(
                {k: rep2[k] for k in ("added", "updated", "embedded_chunks")}))
    print(f"index: {status['notes']} notes, {status['chunks']} chunks, {status['embedded_chunks']} vectors, "
          f"{status['keyword_only_chunks']} keyword-only, {status['missing_vectors']} missing vectors", flush=True)

    # ---- latency home
    lat_home = home
    queries = vault_titles(vault, args.queries)
    if args.pad_scifact:
        import scifact
        sf_root = need(data_dir() / "beir-scifact", "BEIR SciFact")
        # Latency only: a home built by older indexing code is good enough padding.
        marker = scifact.ensure_home(sf_root / "corpus.jsonl", fresh=False, allow_stale=True)
        lat_home = Path(tempfile.mkdtemp(prefix="latency-home-", dir=OUT))
        (lat_home / "vault").mkdir(parents=True)
        src = sqlite3.connect(home / "index.db")
        src.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        dst = sqlite3.connect(lat_home / "index.db")
        src.backup(dst)
        src.close(), dst.close()
        info = pad_index(lat_home / "index.db", scifact.HOME / "index.db", args.pad_target)
        print(f"padded {lat_home}: +{info['copies']} copies of SciFact ({marker['chunks']} chunks each, "
              f"{'cached' if marker['cached'] else 'imported now'}) -> {info['chunks']} chunks, "
              f"{info['vectors']} vectors in {fmt_s(info['seconds'])}", flush=True)
        half = args.queries // 2
        queries = queries[:args.queries - half] + scifact_queries(half)

    from cairn.service import Cairn
    lat: dict[str, list[float]] = {}
    cpu_lat: dict[str, list[float]] = {}  # CPU seconds of the whole process per query (all threads)
    first_q: dict[str, float] = {}
    svc = Cairn(lat_home)
    zero_hits: dict[str, int] = {}
    try:
        from cairn.embed.cache import clear_query_cache
        for mode in MODES:
            clear_query_cache()  # each mode embeds its queries itself (search remembers recent ones)
            t = time.perf_counter()
            svc.search(queries[0], k=10, mode=mode)
            first_q[mode] = time.perf_counter() - t
            times, cpus, zero = [], [], 0
            for q in queries:
                t, c = time.perf_counter(), time.process_time()
                res = svc.search(q, k=10, mode=mode)
                times.append(time.perf_counter() - t)
                cpus.append(time.process_time() - c)
                zero += not res.hits
            lat[mode], zero_hits[mode], cpu_lat[mode] = times, zero, cpus
    finally:
        svc.close()
    nchunks = status["chunks"] if not args.pad_scifact else info["chunks"]
    for mode in MODES:
        ms = [x * 1000 for x in lat[mode]]
        cms = [x * 1000 for x in cpu_lat[mode]]
        rows.append([f"warm search {mode} (k=10)", f"p50 {statistics.median(ms):.1f} ms",
                     f"p95 {pct(ms, 95):.1f} ms", "",
                     f"{len(ms)} queries over {nchunks} chunks; p95/p50 {pct(ms, 95) / statistics.median(ms):.2f}x "
                     f"(wall); CPU per query p50 {statistics.median(cms):.1f} ms, p95 {pct(cms, 95):.1f} ms, "
                     f"{pct(cms, 95) / statistics.median(cms):.2f}x (all threads: less sensitive to the "
                     f"machine's load); first query {fmt_s(first_q[mode])}"
                     + (f"; {zero_hits[mode]} with no hits" if zero_hits[mode] else "")])

    # A realistic query for the cold runs: the first one with at least three words.
    cold_q = next((q for q in queries if len(re.findall(r"[^\W\d_]{2,}", q)) >= 3), queries[0])
    import compileall
    import cairn
    compileall.compile_dir(str(Path(cairn.__file__).parent), quiet=1)
    cold: dict[str, list[dict]] = {"floor": [], "hybrid": [], "keyword": []}
    floor_cmd = [sys.executable, "-c", "import numpy, onnxruntime"]
    try:
        for _ in range(args.cold_runs):  # interleaved, so load changes hit all three alike
            cold["floor"].append(measure(floor_cmd))
            for mode in ("hybrid", "keyword"):
                cold[mode].append(cairn_measured(lat_home, ["search", cold_q, "--k", "10", "--json", "--mode", mode]))
    except CairnError as exc:
        print(f"COLD SEARCH FAILED: {exc}")
    floor_med = statistics.median(r["wall"] for r in cold["floor"]) if cold["floor"] else None
    floor_cpu = statistics.median(r["cpu"] for r in cold["floor"]) if cold["floor"] and cold["floor"][0]["cpu"] is not None else None
    for mode in ("floor", "hybrid", "keyword"):
        runs = cold[mode]
        if not runs:
            continue
        walls = [r["wall"] for r in runs]
        med = sorted(runs, key=lambda r: r["wall"])[len(runs) // 2]
        ratio = (f"; {statistics.median(walls) / floor_med:.2f}x the floor (wall)"
                 + (f", {statistics.median(r['cpu'] for r in runs) / floor_cpu:.2f}x (CPU)" if floor_cpu else "")
                 if mode != "floor" and floor_med else "")
        label = "cold floor `import numpy, onnxruntime`" if mode == "floor" else f"cold `cairn search` {mode}"
        rows.append([label, f"median {fmt_s(statistics.median(walls))}", cpu(med), rss(med),
                     f"{len(runs)} runs: " + ", ".join(fmt_s(w) for w in walls) + ratio
                     + (f"; query {cold_q[:40]!r}" if mode != "floor" else "")])
    header("results" + (" (latency on the padded home)" if args.pad_scifact else ""))
    print(table(["step", "wall / p50", "cpu / p95", "peak RSS", "notes"], rows, aligns="lrrrl"))
    for n in notes_of_interest:
        print("  " + n)
    try:
        load = os.getloadavg()
        print(f"load average at the end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} CPUs")
    except OSError:
        pass
    if args.keep:
        print(f"kept: {home}" + (f" and {lat_home}" if lat_home != home else ""))
    else:
        if not reuse:
            shutil.rmtree(home, ignore_errors=True)
        if args.pad_scifact:
            shutil.rmtree(lat_home, ignore_errors=True)
    print(f"total time {fmt_s(time.perf_counter() - t_start)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
