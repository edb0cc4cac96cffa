#!/usr/bin/env python3
"""Time to keyword-searchable vs fully processed, with the pictures off the critical path.

    python bench/media_pass.py                       # the Dendron vault (CAIRN_DATA)
    python bench/media_pass.py --vault DIR --poll 5

One `cairn ingest VAULT --json` into a fresh home (bench/out/media-home-*, removed at the
end), with the packaged embedder. The ingest reports (its JSON `timings`, seconds since the
process started): keyword_searchable_s (every text source indexed), text_embedded_s (every
text note's chunks embedded, the entity graph built), first_media_parsed_s (the media pass's
first picture/recording/PDF parsed by a file worker), embedded_s (everything, the media's
chunks included). Meanwhile `cairn status --json` is polled every --poll seconds and its
`media` field ({pending, done, failed}) printed with the time, so the pass's progress is
seen from outside as a person would see it.

Figures printed: fully processed / keyword-searchable (issue 37: >= 20x), and whether every
text note was embedded before the first media file's parse finished. Nothing is asserted.
The load average is printed beside them (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import OUT, cairn_bin, data_dir, need, parse_json_report  # noqa: E402

MEDIA = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".tif", ".tiff", ".bmp", ".pdf", ".wav", ".mp3",
         ".m4a", ".ogg", ".flac", ".opus"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vault", type=Path, default=None)
    ap.add_argument("--poll", type=float, default=10.0, help="seconds between `cairn status --json` polls")
    ap.add_argument("--keep", action="store_true", help="keep the home and print its path")
    args = ap.parse_args()
    vault = need(args.vault or data_dir() / "notes-dendron-vault" / "vault", "notes vault")
    files = [p for p in vault.rglob("*") if p.is_file() and not any(x.startswith(".") for x in p.relative_to(vault).parts)]
    media = [p for p in files if p.suffix.lower() in MEDIA]
    OUT.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="media-home-", dir=OUT))
    cmd = [*cairn_bin(), "--home", str(home)]
    print(f"vault {vault}: {len(files)} files, {len(media)} pictures/recordings/PDFs; home {home}", flush=True)
    loads = [os.getloadavg()[0]]
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as out_f, tempfile.TemporaryFile() as err_f:
        proc = subprocess.Popen([*cmd, "ingest", str(vault), "--json", "-q"], stdout=out_f, stderr=err_f)
        polls = []
        while proc.poll() is None:
            time.sleep(args.poll)
            st = subprocess.run([*cmd, "status", "--json"], capture_output=True, text=True)
            loads.append(os.getloadavg()[0])
            if st.returncode == 0:
                info = json.loads(st.stdout)
                polls.append((time.monotonic() - t0, info.get("media"), info.get("notes"), info.get("missing_vectors")))
                print(f"  {polls[-1][0]:7.1f} s  media {polls[-1][1]}  notes {polls[-1][2]}  "
                      f"missing_vectors {polls[-1][3]}", flush=True)
        wall = time.monotonic() - t0
        out_f.seek(0), err_f.seek(0)
        out, err = out_f.read().decode(), err_f.read().decode()
    try:
        if proc.returncode != 0:
            print(err[-3000:])
            return 1
        rep = parse_json_report(out)
        t = rep.get("timings", {})
        ks, te, fm, done = (t.get(k) for k in ("keyword_searchable_s", "text_embedded_s", "first_media_parsed_s",
                                               "embedded_s"))
        print(f"\ningest wall {wall:.1f} s; added {rep.get('added')}, embedded chunks {rep.get('embedded_chunks')}")
        print(f"load average (1 min) over the run: min {min(loads):.1f}, max {max(loads):.1f}")
        print(f"keyword-searchable        {ks} s")
        print(f"text notes embedded       {te} s")
        print(f"first media file parsed   {fm} s")
        print(f"fully processed           {done} s")
        if ks and done:
            print(f"fully processed / keyword-searchable: {done / ks:.1f}x  (target >= 20x)")
        if te is not None and fm is not None:
            print(f"every text note embedded before the first media file was parsed: {te <= fm} "
                  f"({fm - te:+.1f} s)")
    finally:
        if args.keep:
            print(f"home kept: {home}")
        else:
            shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
