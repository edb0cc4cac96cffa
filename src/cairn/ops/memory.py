"""Memory of the person, the operations of `cairn.service.Cairn` on memories: remember,
memories, memory_history, forget, recall, core, core_set, entity_alias, entities,
rebuild_memories, and fact extraction from chat sessions (extract, set_fact_keys). A mixin:
`self` is the Cairn."""

from __future__ import annotations

from typing import TYPE_CHECKING
import json
import re
from dataclasses import dataclass, field

from cairn import results as R
from cairn.config import Settings
from cairn.errors import InvalidInput
from cairn.validate import clean_id

if TYPE_CHECKING:
    from cairn.memory.model import CoreContext, MemoryChange


class MemoryOps:
    """Memories, core blocks, entities and fact extraction."""

    @staticmethod
    def _when(at):
        """None -> None (now), a datetime as is, an ISO string parsed (ValueError if bad)."""
        from cairn.memory.temporal import parse_time
        return parse_time(at) if isinstance(at, str) else at

    def remember(self, text: str, *, kind: str | None = None, scope: str = "global", at=None,
                 source: str = "user", source_ids=(), entities=(), event_time: str | None = None,
                 confidence: float | None = None, importance: float | None = None,
                 impact: int | None = None, tags=None) -> "MemoryChange":
        """Store a memory (see memory.store.remember); `at`: when it was said (ISO string or
        datetime, default now) — relative dates resolve against it; impact/tags: its
        emotional weight (default: weighed from the text). Returns a MemoryChange;
        ValueError for empty text, unknown kind, bad time."""
        from cairn.memory import remember
        from cairn.people import memory_scope
        scope = memory_scope(self.settings.owner, scope) or "global"
        change = remember(self.conn, self.embedder, text, kind=kind, scope=scope, source=source,
                          source_ids=source_ids, entities=entities, event_time=event_time,
                          confidence=confidence, importance=importance, now=self._when(at),
                          vault=self.settings.vault, impact=impact, tags=tags)
        kind_of = {"add": "memory.added", "supersede": "memory.superseded"}.get(change.action)
        if kind_of:
            self.events.publish(kind_of, {"id": change.memory.id, "text": change.memory.text[:200],
                                          "previous": change.previous.id if change.previous else None})
        return change

    def memories(self, *, kind: str | None = None, scope: str | None = None,
                 include_inactive: bool = False) -> R.MemoryList:
        """Memories (active ones, or all with include_inactive), see memory.list_memories."""
        from cairn.memory import list_memories
        from cairn.people import memory_scope, memory_visible
        person = self.settings.owner
        rows = list_memories(self.conn, kind=kind, scope=memory_scope(person, scope) if scope else None,
                             include_inactive=include_inactive)
        return R.MemoryList([m for m in rows if memory_visible(m.scope, person)])

    def _own_memory(self, memory_id: str) -> str:
        """`memory_id` cleaned, if the service's person may see that memory; a memory of
        another person is not found (MemoryNotFound: its existence is not revealed).
        InvalidInput for an empty id."""
        from cairn.validate import check_given
        memory_id = clean_id(check_given(memory_id, "the memory id"))
        if self.settings.owner is not None:
            from cairn.memory.store import MemoryNotFound
            from cairn.people import memory_visible
            row = self.store.memories.memory_row(memory_id)
            if row is None or not memory_visible(row["scope"], self.settings.owner):
                raise MemoryNotFound(f"no memory with id {memory_id!r}")
        return memory_id

    def memory_history(self, memory_id: str) -> R.MemoryList:
        """The supersession chain through a memory, oldest first (MemoryNotFound if unknown)."""
        from cairn.memory import history
        return R.MemoryList(history(self.conn, self._own_memory(memory_id)))

    def memory_correct(self, memory_id: str, text: str) -> "MemoryChange":
        """The person corrects a memory ("it's 121, not 112"): `text`, the corrected statement,
        is stored and supersedes memory `memory_id` (kept in its history), as a review's edit
        does (memory.review.edit). Returns the MemoryChange (action "edit"); MemoryNotFound
        (a ValueError) names an unknown or inactive id, InvalidInput an empty text."""
        from cairn.errors import InvalidInput
        from cairn.memory import review
        if not (text or "").strip():
            raise InvalidInput("a corrected memory needs its text")
        change = review.edit(self.conn, self.embedder, self._own_memory(memory_id), text.strip(),
                             vault=self.settings.vault, reason="corrected by the person")
        self.events.publish("memory.superseded", {"id": change.memory.id, "text": change.memory.text[:200],
                                                  "previous": change.previous.id if change.previous else None})
        return change

    def forget(self, memory_id: str, *, at=None) -> "MemoryChange":
        """Tombstone a memory; returns a MemoryChange: action "forget", or "none" when it was
        already forgotten (memory.store.forget_change). MemoryNotFound (a ValueError) names
        an unknown id."""
        from cairn.memory.store import forget_change
        change = forget_change(self.conn, self._own_memory(memory_id), now=self._when(at), vault=self.settings.vault)
        if change.action == "forget":
            self.events.publish("memory.forgotten", {"id": change.memory.id})
        return change

    def recall(self, query: str, *, scope: str | None = None, k: int = 10, at=None,
               include_history: bool = False) -> R.RecallList:
        """Ranked memories with score breakdowns (see memory.recall for the formula)."""
        from cairn.memory import recall
        from cairn.people import memory_scope, memory_visible
        person = self.settings.owner
        hits = recall(self.conn, self.embedder, query, scope=memory_scope(person, scope), k=k if person is None else 4 * k,
                      now=self._when(at), include_history=include_history, settings=self.settings.memory,
                      vault=self.settings.vault)
        return R.RecallList([h for h in hits if memory_visible(h.memory.scope, person)][:k])

    def core(self, *, scope: str | None = None, at=None) -> "CoreContext":
        """Core blocks plus the top memories (what an assistant puts in its prompt)."""
        from cairn.memory import core_context
        from cairn.people import memory_scope, memory_visible
        person = self.settings.owner
        from cairn.people import own_core_blocks
        ctx = core_context(self.conn, scope=memory_scope(person, scope), limit=self.settings.memory.core_limit,
                           now=self._when(at))
        ctx.blocks = own_core_blocks(ctx.blocks, person)  # each person has their own blocks
        if person is not None:  # ...and gets their own memories only
            ctx.memories = [m for m in ctx.memories if memory_visible(m.scope, person)]
        return ctx

    def core_set(self, name: str, text: str) -> R.CoreBlock:
        """Create/replace a core block of the service's person (empty text clears it);
        returns it as saved. A named person's block is stored as "@NAME/BLOCK" (cairn.people)
        and seen only by them. InvalidInput for a bad block name."""
        from cairn.memory import get_core_blocks, set_core_block
        from cairn.people import core_key
        name = (name or "").strip()
        if not re.fullmatch(r"[\w-]{1,40}", name):
            raise InvalidInput(f"core block name {name!r} must be 1-40 letters, digits, '-' or '_'")
        key = core_key(self.settings.owner, name, get_core_blocks(self.conn) if self.settings.owner else ())
        set_core_block(self.conn, key, text, vault=self.settings.vault)
        return R.CoreBlock(name=name, text=text.strip())

    def entity_alias(self, name: str, alias: str) -> R.Entity:
        """Join ALIAS to the entity NAME (merging entities if both exist). Forbidden for a
        named person (cairn.people): only the home's own person edits the shared graph."""
        from cairn.memory import add_alias
        self._entity_edit_allowed()
        return R.Entity(add_alias(self.conn, name, alias, vault=self.settings.vault))

    def entities(self) -> R.EntityList:
        """Every entity with its aliases, number of linked memories and of notes mentioning it;
        for a named person (cairn.people) only the entities their notes or memories mention,
        counted over those (graph/view.py)."""
        from cairn.graph.view import View
        from cairn.memory.entities import list_entities
        rows = list_entities(self.conn)
        view = View.of(self.conn, self.settings.owner)  # a named person: what they see only
        return R.EntityList(rows if view is None else view.entities(rows))

    def rebuild_memories(self) -> R.MemoryRebuild:
        """Restore the memory tables from <vault>/_memory/ (also done by reindex), then the
        entity graph of the notes against the restored entities (graph/update.py, under the
        lock the ingest's graph pass takes)."""
        from cairn.graph.update import update_graph
        from cairn.memory import rebuild_memories
        from cairn.store.locks import exclusive
        report = R.MemoryRebuild(rebuild_memories(self.conn, self.settings.vault, self.embedder))
        with exclusive(self.conn, "embed"):
            update_graph(self.conn)
        return report

    def _extract_notes(self, note_ids: list[str], model: tuple, *, embed: bool = True) -> list[SessionExtraction]:
        """Extract from chat notes `note_ids` with `model` = (llm or None, problem or None)
        from `_extraction_llm`; store the fact keys; re-embed changed messages if `embed`."""
        from cairn.memory.extract import extract_facts
        from cairn.ingest import embed_missing
        from cairn.memory.keys import facts_by_source, store_fact_keys
        from cairn.people import OWNER_KEY
        model, problem = model
        out, owners = [], []
        for note_id in note_ids:  # 1. facts and search keys of every session
            note = self.store.notes.get_note(note_id)
            if note is None:
                continue
            # the facts of a chat are its owner's memories (cairn.people)
            owners.append(str(note.meta.get(OWNER_KEY) or "") or self.settings.owner)
            res = extract_facts(_session_messages(self.store, note_id), model)
            if problem:
                res.problems.insert(0, problem)
            upd = store_fact_keys(self.conn, note_id, facts_by_source(res.facts), res.method,
                                  apply=self.settings.memory.fact_keys)
            out.append(SessionExtraction(note_id, note.path, note.title, res, upd, {}))
        if embed and any(e.keys.rewritten_chunks for e in out):  # 2. before the memory step can fail
            embed_missing(self.conn, self.embedder, None, self.settings.chunk.embed_max_chunks,
                          fact_keys=self.settings.memory.fact_keys,
                          neighbour_keys=self.settings.memory.neighbour_keys)
        if self.settings.memory.store_extracted:  # 3. the memory store
            for e, owner in zip(out, owners):
                e.memories = self._remember_facts(e.result, owner=owner)
        return out

    def _remember_facts(self, res, owner: str | None = None) -> dict[str, int]:
        """Store each extracted fact in the memory store (memory.store.remember) as said at its
        first message's time, with its message ids as provenance; a restated fact reinforces
        and a contradicting one supersedes, as for `cairn remember`. Returns counts per
        action ("add", "reinforce", "supersede", "none"); a fact the store refuses is added to
        `res.problems` (never dropped silently). A reworded restatement of an active memory
        reinforces it (match.EXTRACTED_PARAPHRASE_COS): deduplicated before anything is
        stored. The memories go to the scope of `owner`
        (cairn.people), else of the service's person."""
        from cairn.memory import remember, resolve_event_time
        from cairn.memory.match import EXTRACTED_PARAPHRASE_COS
        from cairn.memory.temporal import parse_time
        from cairn.people import memory_scope
        scope = memory_scope(owner or self.settings.owner, None) or "global"  # the person's own memories
        counts: dict[str, int] = {}
        for fact in res.facts:
            try:
                said = parse_time(fact.said_at) if fact.said_at else None
                # The extractor already wrote the absolute date into the text; take the event
                # time from it without rewriting the text a second time.
                event_time = resolve_event_time(fact.text, said)[0] if said else None
                change = remember(self.conn, self.embedder, fact.text, kind=fact.kind, scope=scope,
                                  event_time=event_time,
                                  source=fact.source_ids[0] if fact.source_ids else "chat",
                                  source_ids=fact.source_ids, entities=fact.entities,
                                  confidence=fact.confidence, now=said, vault=self.settings.vault,
                                  impact=getattr(fact, "impact", None), tags=getattr(fact, "tags", None),
                                  paraphrase_cos=EXTRACTED_PARAPHRASE_COS)
            except ValueError as exc:
                res.problems.append(f"memory store refused {fact.text!r}: {exc}")
                continue
            counts[change.action] = counts.get(change.action, 0) + 1
        return counts

    def extract(self, target: str | None = None, *, llm: str | None = None) -> R.ExtractionList:
        """Extract facts from chat sessions and store them as fact-augmented keys.

        target: None = every chat session; a conversation name (all its sessions); a chat note id
        or vault path. llm: "none" (rule-based extractor), "embedded", "openai:BASE_URL:MODEL",
        or None for `[memory] extract_llm` ("none" by default). Returns one SessionExtraction per
        session (facts with source ids, method, problems). Raises ValueError for an unknown
        target or a malformed llm spec; model failures are reported in each result's problems.
        Messages whose keys changed are re-embedded before returning.
        """
        model = _extraction_llm(self.settings, llm)
        return R.ExtractionList(self._extract_notes(_chat_note_ids(self.store, target, self.settings.owner), model))

    def extract_transcript(self, messages: list[tuple[str, str, str]], *, speaker: str = "The person",
                           llm: str | None = None) -> R.TranscriptExtraction:
        """Grounded extraction on an assistant session's transcript: `messages` are the
        person's turns as (source id "SESSION#SEQ", text, ISO time). Facts go to the memory
        store with their source turns (as `cairn extract` does for chats), and the messages
        update the home's mood state (context/mood.py). llm: as `extract`.
        Returns {"facts": n, "memories": {action: count}, "method", "problems"}."""
        from cairn.memory.extract import Message, extract_facts
        model, problem = _extraction_llm(self.settings, llm)
        res = extract_facts([Message(sid, speaker, text, at) for sid, text, at in messages], model)
        if problem:
            res.problems.insert(0, problem)
        counts = self._remember_facts(res) if self.settings.memory.store_extracted else {}
        self._update_mood(messages)  # the mood state is a side effect of extraction (ops/person.py)
        return R.TranscriptExtraction(facts=len(res.facts), memories=counts, method=res.method,
                                      problems=res.problems)

    def set_fact_keys(self, enabled: bool) -> R.Reembedded:
        """Index chat messages with (True) or without (False) their stored facts, for this
        process (benchmark A/B; the lasting switch is `[memory] fact_keys`). Returns the number
        of chunks rewritten and re-embedded."""
        from cairn.ingest import embed_missing
        from cairn.memory.keys import apply_setting
        self.settings.memory.fact_keys = enabled
        n = apply_setting(self.conn, enabled)
        embed_missing(self.conn, self.embedder, None, self.settings.chunk.embed_max_chunks, fact_keys=enabled,
                      neighbour_keys=self.settings.memory.neighbour_keys)
        return R.Reembedded(n)


@dataclass
class SessionExtraction:
    """Facts extracted from one chat session (a `chats/...` note): its note id, vault path,
    title, the ExtractionResult, the KeyUpdate applied to the index, and `memories`: how
    many facts the memory store added / reinforced / superseded / already had ("none")."""

    note_id: str
    path: str
    title: str
    result: object
    keys: object
    memories: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"note_id": self.note_id, "path": self.path, "title": self.title,
                **self.result.to_json(),
                "keys": {"messages_with_facts": self.keys.messages_with_facts,
                         "rewritten_chunks": self.keys.rewritten_chunks},
                "memories": dict(self.memories)}


def _extraction_llm(settings: Settings, llm: str | None):
    """(model or None, problem or None) for an extraction LLM spec. ValueError for a bad
    spec; an unavailable model becomes a problem (the rules are used)."""
    from cairn.llm import get_llm
    from cairn.llm.errors import LLMUnavailable
    spec = llm or settings.memory.extract_llm or "none"
    try:
        return get_llm(spec), None
    except LLMUnavailable as exc:
        return None, f"LLM {spec!r} unavailable, used the rule-based extractor: {exc}"


def _session_messages(store, note_id: str) -> list:
    """The messages of a chat note (`store`: the storage backend, store.backend)."""
    from cairn.memory.extract import Message
    return [Message(str(r["source_id"]), r["speaker"] or "", r["text"].replace("\\## [", "## ["),
                    r["event_time"] or "")
            for r in store.notes.message_rows(note_id)]


def _chat_note_ids(store, target: str | None, person: str | None = None) -> list[str]:
    """Chat notes for `target`: None = all; a note id; a vault path; or a conversation name
    (all its sessions); of those `person` may see (cairn.people; None: all). ValueError when
    nothing matches."""
    from cairn.people import note_visible
    rows = [r for r in store.notes.chat_notes() if note_visible(json.loads(r["meta"] or "{}"), person)]
    if target is None:
        return [r["id"] for r in rows]
    hits = [r["id"] for r in rows if target in (r["id"], r["path"])
            or json.loads(r["meta"]).get("conversation") == target]
    if not hits:
        raise InvalidInput(f"no chat session matches {target!r}: give a conversation name, a chat "
                         "note id or path (see `cairn import chat`), or nothing for all chats")
    return hits
