"""The names cairn.ner_written.written_names finds in the markdown and text files of
/work/shared/data (notes-foam-docs, notes-dendron-vault, sample-docs), with two versions of
the source side by side: how many, and which names one finds that the other does not (to read
by hand: a rule that drops names should drop only verbs, greetings, contractions...).

    git archive BASE src | tar -x -C /tmp/base          # the version to compare with
    python bench/written_names_compare.py /tmp/base/src src

Prints counts and the names lost and gained (name|label, files); asserts nothing.
"""

from __future__ import annotations

import collections
import glob
import json
import subprocess
import sys

DIRS = ("/work/shared/data/notes-foam-docs", "/work/shared/data/notes-dendron-vault", "/work/shared/data/sample-docs")
_ONE = """
import glob, json, sys
sys.path.insert(0, sys.argv[1])
from cairn.ner_written import written_names
out = {}
for d in %r:
    for f in sorted(glob.glob(d + "/**/*", recursive=True)):
        if f.endswith((".md", ".txt")):
            out[f] = sorted(f"{e.text}|{e.label}" for e in written_names(open(f, encoding="utf-8", errors="replace").read()))
print(json.dumps(out))
""" % (DIRS,)


def names(src: str) -> dict[str, list[str]]:
    """{file: sorted "name|label"} with the ner_written of source folder `src` (its own process)."""
    r = subprocess.run([sys.executable, "-c", _ONE, src], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def main() -> None:
    base, new = names(sys.argv[1]), names(sys.argv[2])
    lost, gained = collections.Counter(), collections.Counter()
    for f in base:
        lost.update(set(base[f]) - set(new.get(f, [])))
        gained.update(set(new.get(f, [])) - set(base[f]))
    print(f"files {len(base)}: names {sum(map(len, base.values()))} -> {sum(map(len, new.values()))}; "
          f"lost {sum(lost.values())}, gained {sum(gained.values())}")
    print("lost:", ", ".join(sorted(lost)))
    print("gained:", ", ".join(sorted(gained)))


if __name__ == "__main__":
    main()
