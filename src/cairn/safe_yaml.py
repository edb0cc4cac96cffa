"""YAML read with libyaml's safe loader, remembering the last few texts read.

An ingest reads one note's frontmatter block several times over: the source's block, the
block of the vault copy it writes (to check it: cairn.vault.add_frontmatter_keys), then that
block again when the copy is indexed (cairn.parse.frontmatter), ~0.3 ms a read on the 2-core
machine. `load` keeps the values of the last LAST_TEXTS texts and hands out a fresh deep copy
each time, so a caller may change what it gets without touching another's; `remember` adds a
value read elsewhere (the text lane's worker read the source's block already).
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from typing import Any

import yaml

_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when PyYAML has it


class LOADER(_BASE):  # type: ignore[valid-type, misc]
    """The safe loader, except that a timestamp that is no date (`2024-02-30`, a typo) is
    kept as its text instead of failing the whole block (a note lost its other keys), and
    only `true` and `false` are booleans (YAML 1.2's core schema, as Obsidian's reader has
    it): `yes`, `no`, `on`, `off` stay words (a tag `no`, a title `Yes`)."""


def _timestamp(loader: Any, node: Any) -> Any:
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node)
    except (ValueError, OverflowError):
        return loader.construct_scalar(node)


def _bool(loader: Any, node: Any) -> Any:
    text = loader.construct_scalar(node)
    return {"true": True, "false": False}.get(text.lower(), text)


LOADER.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)
LOADER.add_constructor("tag:yaml.org,2002:bool", _bool)
LAST_TEXTS = 16  # texts remembered
MAX_REMEMBERED = 16_384  # characters: a longer text is read each time (never kept)

_kept: OrderedDict[str, Any] = OrderedDict()
_lock = threading.Lock()
_counts = {"hits": 0, "misses": 0}


def _keep(text: str, value: Any) -> None:
    with _lock:
        _kept[text] = value
        _kept.move_to_end(text)
        while len(_kept) > LAST_TEXTS:
            _kept.popitem(last=False)


def load(text: str) -> Any:
    """`yaml.safe_load(text)`: the same values (dict, list, str, int, float, bool, None,
    dates and times, bytes, sets; a timestamp that is no date stays text), through libyaml
    when PyYAML was built with it; a value
    read (or remembered) before comes back as a deep copy. Raises what yaml.safe_load raises
    (yaml.YAMLError; RecursionError for deep nesting): errors are never remembered."""
    if len(text) > MAX_REMEMBERED:
        return yaml.load(text, Loader=LOADER)  # noqa: S506 - safe loader
    with _lock:
        found = text in _kept
        if found:
            _kept.move_to_end(text)
            value = _kept[text]
        _counts["hits" if found else "misses"] += 1
    if not found:
        value = yaml.load(text, Loader=LOADER)  # noqa: S506 - safe loader
        _keep(text, value)
    return copy.deepcopy(value)


def remember(text: str, value: Any) -> None:
    """Keep `value` as what `load(text)` returns: only for a value `load` gave for this very
    text (in another process, with the same loader)."""
    if len(text) <= MAX_REMEMBERED:
        _keep(text, copy.deepcopy(value))


def stats() -> dict[str, int]:
    """{"hits", "misses", "kept"}: loads answered from memory, loads read, texts kept."""
    with _lock:
        return {**_counts, "kept": len(_kept)}
