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


MAX_ALIAS_VALUES = 10_000  # values YAML aliases may add to a text beyond those written in it


class AliasBomb(ValueError):
    """A YAML text whose aliases (`*name` of an `&name` anchor) stand for more than
    MAX_ALIAS_VALUES values beyond those written out: an alias bomb ("billion laughs")."""


def _check_aliases(value: Any) -> None:
    """Raise AliasBomb when `value` (as the loader built it: an alias is the anchored object
    itself, shared, never a copy) stands for more than MAX_ALIAS_VALUES values beyond those
    its text writes out, once every alias is expanded. expanded(c) = 1 + each child's
    expanded size (a scalar 1); written = each distinct list, dict or set once, 1 + its
    children. A text without aliases has expanded <= written and is never refused. An
    iterative walk memoised by identity: O(values written), whatever the expansion. Every
    consumer that walks the expanded value (tags cleaned one by one, the meta stored as JSON)
    would otherwise take minutes: a 9^8 `tags: *h` took 383 s and 700 MB to ingest under cProfile
    (bench/README.md, Session 27 — hygiene27)."""
    if not isinstance(value, (dict, list, set)):
        return
    expanded: dict[int, int] = {}  # id(container) -> its values once expanded, itself included
    written = 0
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in expanded:
            continue
        children = [c for pair in node.items() for c in pair] if isinstance(node, dict) else list(node)
        inner = [c for c in children if isinstance(c, (dict, list, set))]
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in inner if id(c) not in expanded)
            continue
        size = 1 + len(children) - len(inner) + sum(expanded[id(c)] for c in inner)
        expanded[id(node)] = size
        written += 1 + len(children)
        if size - written > MAX_ALIAS_VALUES:
            raise AliasBomb(f"YAML aliases that stand for over {MAX_ALIAS_VALUES:,} values (an &name anchor "
                            "repeated by *name aliases: an alias bomb), refused unread")


def _build(text: str) -> Any:
    value = yaml.load(text, Loader=LOADER)  # noqa: S506 - safe loader
    if "*" in text:  # an alias is written `*name`: a text without one has none to expand
        _check_aliases(value)
    return value


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
    (yaml.YAMLError; RecursionError for deep nesting), and AliasBomb (a ValueError) for a
    text whose aliases expand to over MAX_ALIAS_VALUES values: errors are never remembered."""
    if len(text) > MAX_REMEMBERED:
        return _build(text)
    with _lock:
        found = text in _kept
        if found:
            _kept.move_to_end(text)
            value = _kept[text]
        _counts["hits" if found else "misses"] += 1
    if not found:
        value = _build(text)
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
