"""`python -m cairn`: the same command line as `cairn`."""

from cairn.cli import app

app(prog_name="cairn")
