"""The cost of a note whose frontmatter is a YAML alias bomb (hygiene27): ingest it, then
`note rename` it, and print the seconds each took, what rename said, and the peak RSS.

    PYTHONPATH=src python bench/alias_bomb.py [--levels 9]

--levels N: anchors a..N, each a list of 9 aliases of the one before, and `tags:` the last but
one, so the tags expand to 9^(N-1) values (N=9: 43,046,721 tags). A fast hash embedder stands in
for the model: the figures are Cairn's own work on the block, not embedding.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # conftest.HashEmbedder

from conftest import HashEmbedder  # noqa: E402

from cairn.service import Cairn  # noqa: E402


def bomb(levels: int) -> str:
    """A note whose `tags` is an alias standing for 9^(levels-1) strings."""
    names = "abcdefghijkl"[:levels]
    lines = ["---", "title: Bomb", f'{names[0]}: &{names[0]} [' + ", ".join(['"lol"'] * 9) + "]"]
    lines += [f"{n}: &{n} [" + ", ".join([f"*{p}"] * 9) + "]" for p, n in zip(names, names[1:])]
    lines.append(f"tags: *{names[-2]}")
    return "\n".join(lines + ["---", "", "Herons nest on the estuary island.", ""])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", type=int, default=9)
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="cairn-bomb-"))
    (root / "in").mkdir()
    (root / "in" / "bomb.md").write_text(bomb(args.levels), encoding="utf-8")
    with Cairn(root / "home", embedder=HashEmbedder()) as app:
        t = time.perf_counter()
        report = app.ingest([root / "in" / "bomb.md"])
        ingest_s = time.perf_counter() - t
        t = time.perf_counter()
        try:
            app.note_rename("Bomb", "Herons")
            said = "renamed"
        except Exception as exc:  # noqa: BLE001 - the refusal is the figure
            said = f"{type(exc).__name__}: {exc}"
        rename_s = time.perf_counter() - t
    print(f"levels {args.levels}: ingest {ingest_s:.2f} s (added {len(report.added)}, "
          f"warnings {len(report.warnings)}); rename {rename_s:.3f} s: {said[:160]}")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MiB")


if __name__ == "__main__":
    main()
