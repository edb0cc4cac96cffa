"""cairn.ner loads spaCy without thinc's torch probe (ner._without_torch): the same entities,
torch not imported by it, and torch still importable afterwards where it is installed."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
CODE = """
import importlib.util, sys
from cairn import ner
ents = ner.entities_many(["Jo Price fixed the tap in Leeds with Kev."])
print(ner.backend(), sorted((e.text, e.label) for e in ents[0]))
print("torch loaded by spaCy:", "torch" in sys.modules)
# the block is lifted once spaCy is loaded: find_spec raises ValueError while sys.modules["torch"] is None
print("torch findable:", importlib.util.find_spec("torch") is not None)
"""


def test_spacy_loads_without_torch_and_finds_the_same_names():
    r = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=600,
                       env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0].startswith("spacy") and "('Jo Price', 'PERSON')" in out[0] and "('Leeds', 'GPE')" in out[0]
    assert out[1] == "torch loaded by spaCy: False"
    assert out[2] == f"torch findable: {importlib.util.find_spec('torch') is not None}"
