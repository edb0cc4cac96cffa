"""Whether any third-party plugin can exist in this process, answered without the plugin
manager (pluggy) or importlib.metadata: `builtins_only()`.

Why a module of its own: the registries (cairn.registries) ask it before they build a table,
and when the answer is "built-ins only" they call the one built-in module that implements the
hook directly, so a cold `cairn search` never builds pluggy's plugin manager (~8 ms of
CPU of its start-up; pluggy itself is still imported, for the built-in module's hookimpl). cairn.plugins asks the same question before it reads entry points.
"""

from __future__ import annotations

import os
import re
import sys

_SECTION = re.compile(rb"^[ \t]*\[[ \t]*cairn\.plugins[ \t]*\][ \t]*\r?$", re.MULTILINE)
_scanned: list[bool] = []  # the answer of may_have_entry_points, once per process


def may_have_entry_points() -> bool:
    """`_scan_entry_points()`, computed once per process."""
    if not _scanned:
        _scanned.append(_scan_entry_points())
    return _scanned[0]


def builtins_only() -> bool:
    """True when no third-party plugin will be loaded: CAIRN_LOAD_PLUGINS is set and empty,
    or no distribution on sys.path declares a `cairn.plugins` entry point."""
    wanted = os.environ.get("CAIRN_LOAD_PLUGINS")
    return (wanted is not None and not wanted.strip()) or not may_have_entry_points()


def _scan_entry_points() -> bool:
    """False when no distribution on sys.path declares a `cairn.plugins` entry point, found
    by reading the `entry_points.txt` of each *.dist-info / *.egg-info folder directly (~3 ms
    of CPU for ~180 distributions) instead of importing importlib.metadata (~60-70 ms of CPU:
    it imports email, zipfile, csv...), which a hybrid search paid on every cold start to
    find the embedder. True (importlib.metadata decides) when one does, or when a sys.path
    entry is not a folder (a zip file: only importlib.metadata reads those)."""
    for entry in sys.path:
        folder = entry or "."
        try:
            names = os.listdir(folder)
        except NotADirectoryError:
            return True
        except OSError:
            if os.path.isfile(folder):
                return True
            continue
        for name in names:
            if not name.lower().endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(folder, name, "entry_points.txt"), "rb") as fh:
                    if _SECTION.search(fh.read()):
                        return True
            except OSError:
                continue
    return False
