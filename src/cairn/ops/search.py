"""Search and answers, the operations of `cairn.service.Cairn` on questions: search,
search_batch, ask; and the batch files: `read_batch_file` for `search --batch`, `read_questions`
for `ask --batch`. A mixin: `self` is the Cairn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from cairn import results as R
from cairn.errors import InvalidInput
from cairn.report import json_type_name
from cairn.store import db
from cairn.validate import check_query, check_question, check_since

if TYPE_CHECKING:
    from cairn.answer import Answer
    from cairn.search.hybrid import SearchResult
    from cairn.search.query import ParsedQuery


# Memories `ask` consults (_memory_hits): at most MEMORY_K, each at least MEMORY_FLOOR cosine
# similar to the question (the answer's default relevance floor, config search.answer_floor).
MEMORY_K = 3
MEMORY_FLOOR = 0.35


def gone_notes(vault: Path, hits: list) -> set[str]:
    """The vault-relative paths of `hits` whose note file no longer exists under `vault`
    (deleted or moved on disk since the index last saw it): one stat per distinct path.
    Hits without a path (none come from search) are never counted as gone."""
    from cairn.ops.notes import gone_paths
    return gone_paths(vault, (h.path for h in hits))


class SearchOps:
    """Hybrid search, batches of searches, and verified answers."""

    def search(self, query: "str | ParsedQuery", *, k: int | None = None, mode: str = "hybrid", fusion: str | None = None,
               types: list[str] | None = None, since: str | None = None, group: bool = True,
               until: str | None = None, tag: str | None = None,
               semantic_floor: float | None = None, entity: str | None = None,
               status: str | None = None, input_source: str | None = None) -> SearchResult:
        """Hybrid search (see search.hybrid.search). query: text, or a query parsed once by
        search.query.parse_query (the options here are its filters). since/until: ISO dates bounding the unit's
        time (until inclusive of its day); tag: notes with this tag; semantic_floor: this
        call's relevance floor (None = `[search] semantic_floor`); entity: only notes and chat
        messages mentioning this entity (any of its names). Raises InvalidInput for a
        bad mode, fusion, type, an empty entity, or a `since`/`until` that is not an ISO date
        (validate.check_since); NotFound for an entity no note or memory names (of the
        service's person, cairn.people). status: only notes with this content status (saved,
        read, archived; cairn.notestatus), InvalidInput for another. input_source: only notes
        that came in this way (cairn.model.INPUT_SOURCES), InvalidInput for another."""
        import dataclasses
        check_since(since)
        if status is not None:
            from cairn.notestatus import check_status
            status = check_status(status)
        if input_source is not None:
            from cairn.model import INPUT_SOURCES
            input_source = input_source.strip().lower()
            if input_source not in INPUT_SOURCES:
                raise InvalidInput(f"input source {input_source!r} is not one of {', '.join(INPUT_SOURCES)}")
        check_since(until, "until")
        if entity:  # an entity only another person's notes name is not found (cairn.people)
            self._entity_seen(entity)
        from cairn.search.hybrid import search
        needs_vectors = mode in ("hybrid", "semantic")

        def run() -> "SearchResult":
            return search(self.conn, self.vectors if needs_vectors else None,
                          self.embedder if needs_vectors else None, query,
                          k=k or self.settings.search.k, mode=mode,
                          fusion=fusion or self.settings.search.fusion, types=types,
                          since=since, group=group, until=until, tag=tag or None, entity=entity,
                          person=self.settings.owner, status=status, input_source=input_source,
                          settings=self.settings.search if semantic_floor is None else
                          dataclasses.replace(self.settings.search, semantic_floor=semantic_floor))
        res = run()
        gone = gone_notes(self.settings.vault, res.hits)
        if gone and self._follow_gone(gone):  # moved or deleted on disk: the index follows, the search runs again
            res = run()
            res.warnings.append(f"the index followed {len(gone)} note file(s) moved or deleted on disk since it "
                                f"last saw them ({', '.join(sorted(gone)[:3])})")
            gone = gone_notes(self.settings.vault, res.hits)
        if gone:
            from cairn import vault as V  # only when a file is gone: a cold search stays without hashlib and yaml
        if gone and V.first_note_file(self.settings.vault) is None:
            # no note file at all: an unmounted drive, not deletions; the index is kept (as sync keeps it)
            res.warnings.append("the vault holds no notes (missing or unmounted?): these results come from the "
                                "index alone, and their files cannot be opened")
        elif gone:  # deleted or moved on disk since the last sync: never shown or cited
            res.hits = [h for h in res.hits if h.path not in gone]
            res.warnings.append(f"{len(gone)} note(s) left out: their files are gone from the vault "
                                f"({', '.join(sorted(gone)[:3])}); `cairn sync` updates the index")
        if not res.hits:
            empty_index = self._unindexed_vault()  # "no note contains X" over a deleted index: say so
            if empty_index:
                res.warnings.append(empty_index)
        if needs_vectors:
            res.vectors_pending = self._vectors_pending()
            if res.vectors_pending:
                res.warnings.append(
                    f"{res.vectors_pending} chunk(s) are not embedded yet, so results by meaning are "
                    "incomplete (embedding runs after ingest; `cairn jobs run` finishes it)")
        return res

    def preload(self, mode: str = "hybrid") -> None:
        """Start loading what a search in `mode` needs that a new process lacks, on a
        background thread, and return at once: for hybrid and semantic, the embedding
        model's session for queries (cairn.embed.start_loading, query=True). Errors are
        left for the search itself to raise."""
        if mode not in ("hybrid", "semantic"):
            return
        try:
            embedder = self.embedder
        except Exception:  # an unknown embedder name: the search reports it
            return
        from cairn.embed import start_loading
        start_loading(embedder, query=True)

    def _vectors_pending(self) -> int:
        """Chunks that should have a vector and do not yet (two-phase ingest: text is
        searchable first): eligible chunks minus the vectors the loaded index holds. Cached
        per index state (store.db.index_state), so a warm search pays nothing."""
        from cairn.store.db import index_state
        state = index_state(self.conn)
        if self._pending_cache is None or self._pending_cache[0] != state:
            have = len(self.vectors)
            # The largest chunk id bounds the count from above for free: when it is no more
            # than the vectors held, nothing is pending (a cold search at 1M chunks skips a
            # count(*) of 4 ms warm, ~130 ms from a cold page cache). Else count(*) of all
            # chunks reads the smallest index (0.2 ms at 6k chunks); the exact count of
            # eligible chunks scans one (3 ms at 6k): only when vectors are short.
            pending = self.store.keywords.max_chunk_id() - have
            if pending > 0:
                pending = self.store.keywords.chunk_count() - have
            if pending > 0:
                eligible = self.store.keywords.embeddable_chunk_count(self.settings.chunk.embed_max_chunks)
                pending = eligible - have
            self._pending_cache = (state, max(0, pending))
        return self._pending_cache[1]

    def search_batch(self, queries: Iterable[tuple[str, str]], **kwargs) -> Iterator[R.BatchHits]:
        """Run many queries: yields {"query_id", "hits", "warnings"} per (id, query)."""
        for qid, query in queries:
            res = self.search(query, **kwargs)
            yield R.BatchHits({"query_id": qid, **res.to_json()})

    def ask(self, question: str, *, llm: str | None = None, k: int = 8, trace=None,
            memories: bool = True) -> Answer:
        """Answer with checked citations. llm: "none", "embedded", "openai:BASE_URL:MODEL"
        or None for the configured/default one. A question naming one chat participant
        also gets a second search without the name, for the person check
        (answer/answerability.py). Raises InvalidInput for an empty question or a bad llm spec.
        trace: a cairn.traces.Trace to record the stages in (default: a new one); it is
        saved under <home>/traces and its id set as `answer.trace_id`. memories: False leaves
        the person's memories out (a caller that weighs them itself: the knowledge answer,
        ops/knowledge.py). A declined answer in a home without notes says how to add some
        (`cairn ingest PATH`). Publishes answer.produced."""
        check_question(question)
        from cairn.search.codewords import as_code_word
        from cairn.llm import default_llm_spec, get_llm
        from cairn.traces import Trace
        trace = trace or Trace("answer", {"question": question})
        trace.input = trace.input or {"question": question}
        try:
            # "whats the combo for the gate": searched and answered as the code it asks for (search/codewords.py)
            ans = self._ask(as_code_word(question), llm, k, trace, get_llm, default_llm_spec, memories)
            ans.question = question
        except BaseException:
            trace.save(self.settings.home, self.settings.owner)
            raise
        ans.trace_id = trace.save(self.settings.home, self.settings.owner)["id"]
        self.events.publish("answer.produced", {"question": question[:200], "verdict": ans.verdict,
                                               "citations": len(ans.citations), "trace_id": ans.trace_id})
        return ans

    def _ask(self, question, llm, k, trace, get_llm, default_llm_spec, memories: bool = True) -> Answer:
        from cairn.answer import answer_question
        from cairn.answer.answerability import CONTEXT_K, named_people, strip_people
        from cairn.answer.premise import question_names, unknown_names
        from cairn.search.hybrid import document_frequency
        from cairn.search.query import parse_question
        with trace.stage("model", {"llm": llm}) as out:
            spec = llm or self.settings.llm or default_llm_spec()
            model = get_llm(spec)
            out["llm"] = getattr(model, "name", None) or spec
        with trace.stage("search", {"question": question, "k": k}) as out:
            # parsed once (search/query.py); every search of this question below reuses it
            parsed = parse_question(question)
            res = self.search(parsed, k=k, group=False)
            out.update(hits=len(res.hits), top=[h.title for h in res.hits[:3]], warnings=res.warnings,
                       query=parsed.to_json())
        # What the person told Cairn (memories) answers before notes: put first, cited as memories.
        with trace.stage("memories", {"question": question}) as out:
            mem = self._memory_hits(parsed) if memories else []
            out["memories"] = len(mem)
        if mem:
            res.hits = mem + [h for h in res.hits]
        # The person check (answer/answerability.py) also looks at who else the topic
        # belongs to: the same search without the named person's name.
        context = None
        people = named_people(question, res.hits)
        if len(people) == 1:
            topic = strip_people(question, people)
            if topic:
                with trace.stage("context_search", {"person": sorted(people)[0], "topic": topic}) as out:
                    context = self.search(topic, k=max(k, CONTEXT_K), group=False).hits
                    out["hits"] = len(context)
        # The premise check (answer/premise.py): names in the question that no chunk holds.
        # The index's word counts cover every person's notes, so for a named person
        # (cairn.people) "the notes never mention X" would tell them that X is in someone
        # else's note whenever it is not said: the checks that rest on those counts (premise,
        # unknown key terms) treat every word as present; relevance and the other checks stay.
        if self.settings.owner is None:
            df = lambda w, prefix: document_frequency(self.conn, w, prefix)  # noqa: E731
        else:
            df = lambda w, prefix: 1  # noqa: E731
        with trace.stage("premise", {"question": question}) as out:
            known = {h.speaker for h in res.hits + (context or []) if h.speaker}
            if question_names(question, known):
                known |= self._aliases()
            unknown = unknown_names(question, df, exclude=known)
            out["unknown_names"] = sorted(unknown) if unknown else []
        # the turn each chat hit replies to (extractive_draft ranks a reply by the question it answers)
        from cairn.store.graph import replied_to
        chat = [int(h.id[1:]) for h in res.hits if h.type == "chat" and h.id[1:].isdigit()]
        replies = {f"c{c}": text for c, text in replied_to(self.conn, chat).items()} if chat else {}
        with trace.stage("answer", {"evidence_hits": len(res.hits)}) as out:
            ans = answer_question(question, res.hits, self.embedder, model,
                                  floor=self.settings.search.answer_floor, context=context,
                                  unknown_names=unknown, replies=replies, parsed=parsed)
            ans.problems.extend(_ask_warnings(res))
            if ans.abstained and not ans.pointers and not res.hits:
                # every hit was under the relevance floor: still point at the nearest notes; not for input with
                # no topic ("???", "🤔"): the same chit-chat reply, whatever an emoji's embedding lands near
                from cairn.answer import CHIT_CHAT_REPLY
                from cairn.answer.offtopic import pointers
                ans.pointers = [] if ans.answer == CHIT_CHAT_REPLY else \
                    pointers(self.search(parsed, k=3, group=False, semantic_floor=0.0).hits)
                if ans.pointers and "Nearest notes:" not in ans.answer:
                    ans.answer += " Nearest notes: " + "; ".join(f"{p['title']} ({p['path']})"
                                                                 for p in ans.pointers) + "."
                if not ans.pointers and not mem and not self.store.notes.counts()["notes"]:
                    empty_index = self._unindexed_vault(0)
                    ans.answer += (f" {empty_index[0].upper()}{empty_index[1:]}." if empty_index else
                                   " Your Cairn holds no notes yet: add some with `cairn ingest PATH` "
                                   "(files, folders or URLs), then ask again.")  # an empty home
            out.update(verdict=ans.verdict, mode=ans.mode, citations=len(ans.citations),
                       problems=ans.problems[:5])
        return ans

    def _memory_hits(self, question, k: int = MEMORY_K) -> list:
        """The person's own memories (source "user": what they told Cairn) most relevant to
        `question` (text or a search.query.ParsedQuery) as search hits (type "memory",
        id "m<memory id>", title "Memory (<kind>)", the memory's vault mirror as path), for
        `ask`: at most `k` whose cosine similarity to the question reaches MEMORY_FLOOR.
        Read without reinforcing them (recall's touch=False): asking is not using."""
        from cairn.memory import recall
        from cairn.memory.mirror import memory_path
        from cairn.model import Hit
        from cairn.people import memory_scope, memory_visible
        person = self.settings.owner
        try:
            found = recall(self.conn, self.embedder, question, scope=memory_scope(person, None), k=4 * k,
                           settings=self.settings.memory, touch=False)
        except ValueError:
            return []
        out = []
        for r in found:
            m = r.memory
            if (m.source != "user" or not memory_visible(m.scope, person)
                    or r.signals.get("semantic", 0.0) < MEMORY_FLOOR):
                # what the person told Cairn; a fact drawn from a chat or note is cited from there
                continue
            try:
                path = str(memory_path(self.settings.vault, m.id).relative_to(self.settings.vault))
            except ValueError:
                path = ""
            out.append(Hit(id=f"m{m.id}", note_id=m.id, source_id=m.id, title=f"Memory ({m.kind})", path=path,
                           source="memory", snippet=m.text, text=m.text, start=0, end=len(m.text), page=None,
                           score=1.0, signals={"semantic": r.signals.get("semantic", 0.0)}, type="memory",
                           event_time=m.event_time))
        return out[:k]

    def ask_batch(self, questions: Iterable[tuple[str, str]], *, llm: str | None = None,
                  k: int = 8) -> Iterator[R.AnswerRow]:
        """Answer many questions in this process: yields, per (id, question), {"id",
        "verdict", "answer", "citations", "mode", "llm", "fallback", "problems"} (citations as
        in `Answer.citations`: source_id, path, page, quote, ...). Same checks as `ask`."""
        for qid, question in questions:
            ans = self.ask(question, llm=llm, k=k)
            row = ans.to_json()
            yield R.AnswerRow({"id": qid, **{key: row[key] for key in ("verdict", "answer", "citations", "mode",
                                                                       "llm", "fallback", "problems")}})

    def _aliases(self) -> frozenset[str]:
        """Every alias of a note (frontmatter `aliases`) or of a memory entity: names the
        premise check must treat as known even where no chunk's text holds them. Read once
        per index state (`db.index_state`, as search's term statistics): any write to the
        index, on this connection or another, reads them again."""
        state = db.index_state(self.conn)
        if self._alias_cache is None or self._alias_cache[0] != state:
            self._alias_cache = (state, frozenset(self._read_aliases()))
        return self._alias_cache[1]

    def _read_aliases(self) -> set[str]:
        """The aliases of `_aliases`, read from the index."""
        out: set[str] = set()
        for raw in self.store.notes.note_aliases():
            try:
                out.update(str(a) for a in json.loads(raw) if a)
            except (ValueError, TypeError):
                continue
        out.update(self.store.memories.alias_names())
        return out


def read_batch_file(path: Path) -> list[tuple[str, str]]:
    """Read a `--batch` JSONL file of {"id", "query"} (UTF-8) into (id, query) pairs; a
    missing id is the line number. Raises ValueError "PATH: line N: problem" for a line
    that is not UTF-8 or not such an object (query a string, id a string or a number),
    OSError when the file cannot be read."""
    out = []
    for lineno, line in _utf8_lines(path):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{path}: line {lineno}: not valid JSON ({exc})") from exc
        if not isinstance(obj, dict) or "query" not in obj:
            raise InvalidInput(f"{path}: line {lineno}: expected an object with 'id' and 'query'")
        qid, query = obj.get("id", lineno), obj["query"]
        if not isinstance(query, str):  # str(None) would search for "None"
            raise InvalidInput(f"{path}: line {lineno}: query must be a string, got {json_type_name(query)}")
        if isinstance(qid, bool) or not isinstance(qid, (str, int, float)):
            raise InvalidInput(f"{path}: line {lineno}: id must be a string or a number, "
                               f"got {json_type_name(qid)}")
        if query.strip():  # an empty query finds nothing (REST's batch allows it); a long one is refused
            try:
                check_query(query)
            except InvalidInput as exc:
                raise InvalidInput(f"{path}: line {lineno}: {exc.message}") from None
        out.append((str(qid), query))
    return out


def _utf8_lines(path: Path | str):
    """(line number from 1, line) of a UTF-8 file; InvalidInput "PATH: line N: not UTF-8 text"."""
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                yield lineno, raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InvalidInput(f"{path}: line {lineno}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def read_questions(path: Path | str) -> list[tuple[str, str]]:
    """(id, question) pairs of an `ask --batch` file, in file order: JSONL when the first
    non-blank line starts with "{" (objects with a non-empty string `question` and an optional
    `id`, a string or number; default the line number), else one question per non-blank line
    (its id the line number). Blank lines are skipped; a file with no question is an error.

    Raises ValueError "PATH: line N: problem" for a line that is not UTF-8, not valid JSON
    (JSONL file), not an object with a string `question`, with an empty question, with an
    id that is not a string or number, or that repeats an earlier id; ValueError "PATH: no
    questions" for a file with none; OSError when the file cannot be read."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    jsonl: bool | None = None
    for lineno, line in _utf8_lines(path):
        text = line.strip().lstrip("\ufeff")
        if not text:
            continue
        if jsonl is None:
            jsonl = text.startswith("{")
        if jsonl:
            qid, question = _json_line(path, lineno, text)
        else:
            qid, question = str(lineno), text
        if qid in seen:
            raise ValueError(f"{path}: line {lineno}: id {qid!r} repeats an earlier line's id")
        try:
            check_question(question)  # every line checked before the first is answered
        except InvalidInput as exc:
            raise ValueError(f"{path}: line {lineno}: {exc.message}") from None
        seen.add(qid)
        out.append((qid, question))
    if not out:
        raise ValueError(f"{path}: no questions (the file is empty or holds only blank lines)")
    return out


def _json_line(path, lineno: int, text: str) -> tuple[str, str]:
    """(id, question) of one JSONL line; ValueError naming the problem."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: line {lineno}: not valid JSON ({exc.msg} at column {exc.colno})") from exc
    if not isinstance(obj, dict):
        raise ValueError(f"{path}: line {lineno}: expected an object with 'id' and 'question', "
                         f"got {json_type_name(obj)}")
    if "question" not in obj:
        raise ValueError(f"{path}: line {lineno}: missing 'question' (expected an object with 'id' and 'question')")
    question = obj["question"]
    if not isinstance(question, str):
        raise ValueError(f"{path}: line {lineno}: question must be a string, got {json_type_name(question)}")
    if not question.strip():
        raise ValueError(f"{path}: line {lineno}: the question is empty")
    qid = obj.get("id", lineno)
    if isinstance(qid, bool) or not isinstance(qid, (str, int, float)):
        raise ValueError(f"{path}: line {lineno}: id must be a string or a number, got {json_type_name(qid)}")
    return str(qid), question.strip()


def _ask_warnings(res) -> list[str]:
    """The search's warnings an answer's `problems` carries: all of them (a keyword search
    that failed, results below the relevance floor...), except that "no note contains"
    names only the words worth telling (answer.offtopic.telling_missing: no asking words
    such as 'much' or 'should', which every "How much…" question reported) and is left out
    when none is left."""
    from cairn.answer.offtopic import telling_missing
    from cairn.search.hybrid import missing_warning
    line = missing_warning(res.missing_words) if res.missing_words else None
    out = []
    for warning in res.warnings:
        if line is not None and warning == line:
            told = telling_missing(res.missing_words)
            if told:
                out.append(missing_warning(told))
        else:
            out.append(warning)
    return out

