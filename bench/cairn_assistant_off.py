#!/usr/bin/env python
"""The cairn CLI with rules of the assistant switched off, for benches that run `cairn` as a
subprocess (bench/assistant_week.py through CAIRN_BIN):

    A23_OFF=nlu.understand.MISSPELT,nlu.replies.DIRECTION CAIRN_BIN=bench/cairn_assistant_off.py \
        PYTHONPATH=src python bench/assistant_week.py --case bench/cases/week-m

Each MODULE.SWITCH of A23_OFF names a True/False rule of cairn.assistant.MODULE, set False before
the CLI runs; a name that is no such switch stops with exit code 1 and says which.
"""

import importlib
import os
import sys

for s in filter(None, os.environ.get("A23_OFF", "").split(",")):
    mod, _, name = s.strip().rpartition(".")
    try:
        m = importlib.import_module(f"cairn.assistant.{mod}")
    except ImportError:
        sys.exit(f"A23_OFF {s}: there is no module cairn.assistant.{mod}")
    if not isinstance(getattr(m, name, None), bool):
        sys.exit(f"A23_OFF {s}: cairn.assistant.{mod} has no switch {name} (a True/False rule)")
    setattr(m, name, False)

from cairn.interfaces.cli_program import main  # noqa: E402

sys.exit(main())
