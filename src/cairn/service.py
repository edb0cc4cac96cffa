"""The application service: the one set of functions every interface calls.

The CLI (and later the REST API, bot and MCP server) are thin adapters over `Cairn`; no
logic lives in them. `Cairn` owns the settings, the index connection, the vector index and
the (lazily loaded) embedder for one home folder.

    from cairn.service import Cairn
    app = Cairn("~/.cairn")
    app.ingest([Path("~/notes")])
    print(app.search("boiler pressure").hits[0].title)
    print(app.ask("When was the boiler serviced?", llm="none").answer)
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Iterable, Iterator

from cairn.answer import Answer, answer_question
from cairn.answer.answerability import named_people, strip_people
from cairn.config import Settings, load_settings
from cairn.ingest import (IngestReport, Progress, import_chat_jsonl, import_notes_jsonl,
                          ingest_paths, reindex)
from cairn.search.hybrid import SearchResult, search
from cairn.store import db
from cairn.store import notes as N
from cairn.store.vectors import VectorIndex


class Cairn:
    """Cairn for one home folder (`home`: path, or None for $CAIRN_HOME / ~/.cairn).

    embedder: optional object with `embed(list[str]) -> (n, dim) array` and `model_name`
    (tests pass a counting wrapper); by default the packaged all-MiniLM-L6-v2.
    """

    def __init__(self, home: str | Path | None = None, *, embedder=None, settings: Settings | None = None):
        self.settings = settings or load_settings(home)
        self.settings.ensure_dirs()
        self._conn: sqlite3.Connection | None = None
        self._embedder = embedder
        self._vectors: VectorIndex | None = None

    # ------------------------------------------------------------------ resources
    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = db.connect(self.settings.index_path)
        return self._conn

    @property
    def embedder(self):
        if self._embedder is None:
            from cairn.embed import get_embedder
            self._embedder = get_embedder()
        return self._embedder

    @property
    def vectors(self) -> VectorIndex:
        if self._vectors is None:
            self._vectors = VectorIndex(self.conn, self.settings.home)
        return self._vectors

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            self._vectors = None

    def __enter__(self) -> "Cairn":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------ ingest
    def ingest(self, paths: Iterable[str | Path], progress: Progress | None = None) -> IngestReport:
        """Ingest files/folders (see ingest.ingest_paths)."""
        return ingest_paths(self.conn, self.settings, [Path(p).expanduser() for p in paths],
                            self.embedder, progress)

    def import_notes(self, path: str | Path, progress: Progress | None = None) -> IngestReport:
        """Import a JSONL file of notes (see ingest.import_notes_jsonl)."""
        return import_notes_jsonl(self.conn, self.settings, Path(path), self.embedder, progress)

    def import_chat(self, path: str | Path, progress: Progress | None = None) -> IngestReport:
        """Import a JSONL chat transcript (see ingest.import_chat_jsonl)."""
        return import_chat_jsonl(self.conn, self.settings, Path(path), self.embedder, progress)

    def reindex(self, progress: Progress | None = None) -> IngestReport:
        """Rebuild the index from the vault alone."""
        return reindex(self.conn, self.settings, self.embedder, progress)

    def status(self) -> dict:
        """Counts and health of the index (notes, chunks, vectors, missing rows)."""
        c = N.counts(self.conn)
        keyword_only = self.conn.execute(
            "SELECT count(*) FROM chunks WHERE ord >= ?", (self.settings.chunk.embed_max_chunks,)).fetchone()[0]
        c["keyword_only_chunks"] = keyword_only
        c["missing_vectors"] = max(0, c["missing_vectors"] - keyword_only)
        by_type = dict(self.conn.execute("SELECT type, count(*) FROM notes GROUP BY type").fetchall())
        c["vector_models"] = dict(self.conn.execute(
            "SELECT model, count(*) FROM vectors GROUP BY model").fetchall())
        return {"home": str(self.settings.home), "vault": str(self.settings.vault),
                "index": str(self.settings.index_path), "schema_version": db.schema_version(self.conn),
                **c, "notes_by_type": by_type}

    # ------------------------------------------------------------------ search
    def search(self, query: str, *, k: int | None = None, mode: str = "hybrid", fusion: str | None = None,
               types: list[str] | None = None, since: str | None = None, group: bool = True) -> SearchResult:
        """Hybrid search (see search.hybrid.search). Raises ValueError for a bad mode."""
        needs_vectors = mode in ("hybrid", "semantic")
        return search(self.conn, self.vectors, self.embedder if needs_vectors else None, query,
                      k=k or self.settings.search.k, mode=mode,
                      fusion=fusion or self.settings.search.fusion, types=types,
                      since=since, settings=self.settings.search, group=group)

    def search_batch(self, queries: Iterable[tuple[str, str]], **kwargs) -> Iterator[dict]:
        """Run many queries: yields {"query_id", "hits", "warnings"} per (id, query)."""
        for qid, query in queries:
            res = self.search(query, **kwargs)
            yield {"query_id": qid, "hits": [h.to_json() for h in res.hits], "warnings": res.warnings}

    # ------------------------------------------------------------------ answer
    def ask(self, question: str, *, llm: str | None = None, k: int = 8) -> Answer:
        """Answer with checked citations. llm: "none", "embedded", "openai:BASE_URL:MODEL"
        or None for the configured/default one. A question naming one chat participant
        also gets a second search without the name, for the person check
        (answer/answerability.py). Raises ValueError for a bad llm spec."""
        from cairn.llm import default_llm_spec, get_llm
        spec = llm or self.settings.llm or default_llm_spec()
        model = get_llm(spec)
        res = self.search(question, k=k, group=False)
        # The person check (answer/answerability.py) also looks at who else the topic
        # belongs to: the same search without the named person's name.
        context = None
        people = named_people(question, res.hits)
        if len(people) == 1:
            topic = strip_people(question, people)
            if topic:
                context = self.search(topic, k=k, group=False).hits
        ans = answer_question(question, res.hits, self.embedder, model,
                              floor=self.settings.search.answer_floor, context=context)
        ans.problems.extend(res.warnings)
        return ans


def read_batch_file(path: Path) -> list[tuple[str, str]]:
    """Read a `--batch` JSONL file of {"id", "query"}; ValueError names a bad line."""
    out = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}: line {lineno}: not valid JSON ({exc})") from exc
            if not isinstance(obj, dict) or "query" not in obj:
                raise ValueError(f"{path}: line {lineno}: expected an object with 'id' and 'query'")
            out.append((str(obj.get("id", lineno)), str(obj["query"])))
    return out
