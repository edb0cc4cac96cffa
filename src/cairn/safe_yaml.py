"""YAML read with libyaml's safe loader, remembering the last few texts read.

An ingest reads one note's frontmatter block several times over: the block of the vault
copy it has just written is read to check it (cairn.vault.add_frontmatter_keys), then again
when the copy is indexed (cairn.parse.frontmatter), ~0.3 ms a read on the 2-core machine.
`load` keeps the values of the last LAST_TEXTS texts and hands out a fresh deep copy each
time, so a caller may change what it gets without touching another's.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when PyYAML has it
LAST_TEXTS = 16  # texts remembered
MAX_REMEMBERED = 16_384  # characters: a longer text is read each time (never kept)


@functools.lru_cache(maxsize=LAST_TEXTS)
def _remembered(text: str) -> Any:
    return yaml.load(text, Loader=LOADER)  # noqa: S506 - safe loader


def load(text: str) -> Any:
    """`yaml.safe_load(text)`: the same values (dict, list, str, int, float, bool, None,
    dates and times, bytes, sets), through libyaml when PyYAML was built with it; a value
    read before comes back as a deep copy. Raises what yaml.safe_load raises
    (yaml.YAMLError; RecursionError for deep nesting): errors are never remembered."""
    if len(text) > MAX_REMEMBERED:
        return yaml.load(text, Loader=LOADER)  # noqa: S506 - safe loader
    return copy.deepcopy(_remembered(text))
