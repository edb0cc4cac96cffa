"""`python -m cairn`: the same program as `cairn` (cairn.interfaces.cli_program)."""

import sys

from cairn.interfaces.cli_program import main

sys.exit(main())
