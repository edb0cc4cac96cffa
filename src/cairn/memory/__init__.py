"""Memory about the person (docs/memory.md).

- model.py — KINDS, EVERGREEN_KINDS, Memory, MemoryChange, RecalledMemory, CoreContext;
- temporal.py — relative dates resolved against the message time;
- entities.py — entities with aliases (any script) and their links to memories;
- match.py — reinforce / supersede / add decisions, each with its reason;
- store.py — remember, forget (forget_change), list_memories, history, core blocks, core_context;
- recall.py — ranked recall with every score component;
- mirror.py — the readable vault mirror under `<vault>/_memory/`; rebuild.py — rebuild_memories;
- extract.py (+ extract_model, rules, grounding, ner) — facts extracted from conversations
  (grounded LLM path, rule-based fallback), plain data, independent of the store;
- keys.py — fact-augmented keys for the conversation archive.
"""

from cairn.memory.rebuild import rebuild_memories
from cairn.memory.model import (EVERGREEN_KINDS, KINDS, CoreContext, Memory, MemoryChange,
                                RecalledMemory)
from cairn.memory.recall import recall
from cairn.memory.store import (MemoryNotFound, add_alias, core_context, forget, forget_change,
                                get_core_blocks, get_memory, history, list_memories, remember, set_core_block)
from cairn.memory.temporal import resolve_event_time

__all__ = ["EVERGREEN_KINDS", "KINDS", "CoreContext", "Memory", "MemoryChange", "MemoryNotFound",
           "RecalledMemory", "add_alias", "core_context", "forget", "forget_change", "get_core_blocks", "get_memory",
           "history", "list_memories", "rebuild_memories", "recall", "remember",
           "resolve_event_time", "set_core_block"]
