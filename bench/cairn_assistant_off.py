#!/usr/bin/env python
"""The cairn CLI with rules of the assistant switched off, for benches that run `cairn` as a
subprocess (bench/assistant_week.py through CAIRN_BIN):

    A23_OFF=nlu.understand.MISSPELT,nlu.replies.DIRECTION CAIRN_BIN=bench/cairn_assistant_off.py \
        PYTHONPATH=src python bench/assistant_week.py --case bench/cases/week-m

Each MODULE.SWITCH of A23_OFF names a True/False rule of cairn.assistant.MODULE, set False before
the CLI runs; a name that is no such switch stops with exit code 1 and says which.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import switch_off  # noqa: E402

switch_off("cairn.assistant", filter(None, os.environ.get("A23_OFF", "").split(",")), "A23_OFF", sys.exit)

from cairn.interfaces.cli_program import main  # noqa: E402

sys.exit(main())
