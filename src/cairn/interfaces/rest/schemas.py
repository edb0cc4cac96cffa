"""The JSON shapes of the REST API: one model per shape, the same shapes `cairn ... --json`
prints (they document the service's `to_json()` output; extra keys are allowed so a new
field in the service never breaks a response). Request bodies are strict: an unknown key or
a wrong type is a 400 naming the field."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from cairn.model import FUSIONS, MEMORY_KINDS, NOTE_UPDATE_MODES, SEARCH_MODES
from cairn.validate import MAX_QUESTION_CHARS

SearchMode = Literal[SEARCH_MODES]  # type: ignore[valid-type]
FusionName = Literal[FUSIONS]  # type: ignore[valid-type]
MemoryKind = Literal[MEMORY_KINDS]  # type: ignore[valid-type]
UpdateMode = Literal[NOTE_UPDATE_MODES]  # type: ignore[valid-type]
Scope = Literal["read", "write", "admin"]


class Shape(BaseModel):
    """A response shape: the listed keys, and any the service adds."""

    model_config = ConfigDict(extra="allow")


class Body(BaseModel):
    """A request body: unknown keys are refused."""

    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- errors, system
class ErrorBody(Shape):
    """Every error: {"error": category, "message": one line, "request_id", ...details}."""

    error: str
    message: str
    request_id: Optional[str] = None


class Health(Shape):
    ok: bool
    version: str


class Status(Shape):
    """`cairn status --json`."""

    home: str
    vault: str
    notes: int
    chunks: int
    missing_vectors: int


class AuditEntry(Shape):
    at: str
    actor: str
    action: str
    target: Optional[str] = None
    outcome: str
    detail: dict[str, Any] = {}
    person: Optional[str] = None


class Stage(Shape):
    name: str
    input: dict[str, Any] = {}
    output: dict[str, Any] = {}
    ms: float


class TraceOut(Shape):
    """What Cairn did for one ingest or answer (cairn.traces)."""

    id: str
    kind: str
    at: str
    stages: list[Stage]
    outcome: str
    total_ms: float


class TraceHead(Shape):
    id: Optional[str] = None
    kind: Optional[str] = None
    at: Optional[str] = None
    outcome: Optional[str] = None
    total_ms: Optional[float] = None


class Task(Shape):
    """A server task (sync, reindex): state queued | running | done | failed."""

    id: str
    kind: str
    state: str
    progress: dict[str, Any] = {}
    result: Optional[dict[str, Any]] = None
    error: Optional[str] = None
    created: str
    finished: Optional[str] = None


# ---------------------------------------------------------------- notes, links
class NoteRef(Shape):
    """`cairn note create|update --json`: {"action", "id", "path", "title"}."""

    action: str
    id: str
    path: str
    title: str


class NoteSummary(Shape):
    id: str
    path: str
    title: str
    type: str
    tags: list[str] = []


class NotePage(Shape):
    total: int
    limit: int
    offset: int
    notes: list[NoteSummary]


class Note(Shape):
    """`cairn note show --json`."""

    id: str
    path: str
    title: str
    type: str
    tags: list[Any] = []
    aliases: list[Any] = []
    body: str
    status: str = "saved"
    enrichment: Optional[dict] = None


class NoteVersion(Shape):
    version: int
    at: str
    by: str
    action: str
    path: str
    hash: Optional[str] = None
    size: int


class NoteHistory(Shape):
    """`cairn note history --json`: the note and its versions, newest first."""

    note: dict
    versions: list[NoteVersion]


class NoteDiff(Shape):
    note: dict
    version: int
    against: str
    diff: str


class NoteRestored(Shape):
    """`cairn note restore --json` / `cairn undo --json`."""

    note: dict
    version: Optional[int] = None
    recorded: Optional[int] = None
    action: str
    undid: dict


class NoteDeleted(Shape):
    id: str
    path: str
    title: Optional[str] = None
    trash_path: Optional[str] = None


class Link(Shape):
    source_id: str
    source_path: str
    target: str
    kind: str
    resolved_id: Optional[str] = None
    resolved_path: Optional[str] = None


class NoteHead(Shape):
    id: str
    path: str
    title: str


class Links(Shape):
    """`cairn links NOTE --json`."""

    note: NoteHead
    outgoing: list[Link]
    backlinks: list[Link]


class NoteCreate(Body):
    title: str = Field(min_length=1, max_length=200)
    body: str = ""
    folder: str = ""
    tags: Optional[list[str]] = None


class NoteUpdate(Body):
    body: str = Field(min_length=1)
    mode: UpdateMode = "overwrite"  # type: ignore[valid-type]
    # the note's `file_hash` when the client read it (GET /api/notes/{ref}): a file changed since is 409, nothing written
    expected_hash: Optional[str] = Field(None, pattern=r"^[0-9a-f]{64}$")


# ---------------------------------------------------------------- search, ask
class Hit(Shape):
    """One search hit (`cairn search --json` prints a list of these)."""

    id: str
    note_id: str
    title: str
    path: str
    score: float
    snippet: str
    signals: dict[str, float] = {}


class BatchQuery(Body):
    id: str | int
    query: str = Field(max_length=MAX_QUESTION_CHARS)


class SearchBody(Body):
    """POST /api/search: one `query`, or `batch` [{id, query}] (as `cairn search --batch`)."""

    query: Optional[str] = Field(None, min_length=1, max_length=MAX_QUESTION_CHARS)  # as GET's q
    batch: Optional[list[BatchQuery]] = Field(None, max_length=1000)
    k: Optional[int] = Field(None, ge=1, le=1000)
    mode: SearchMode = "hybrid"  # type: ignore[valid-type]
    fusion: Optional[FusionName] = None  # type: ignore[valid-type]
    type: Optional[list[str]] = None
    since: Optional[str] = None
    until: Optional[str] = None
    tag: Optional[str] = Field(None, min_length=1)
    entity: Optional[str] = None
    semantic_floor: Optional[float] = Field(None, ge=0, le=1)


class BatchRow(Shape):
    query_id: str
    hits: list[Hit]
    warnings: list[str] = []


class AskBody(Body):
    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    llm: Optional[str] = None
    k: int = Field(8, ge=1, le=100)


class Citation(Shape):
    n: int
    path: str
    title: str
    source_id: Optional[str] = None


class AnswerOut(Shape):
    """`cairn ask --json`."""

    question: str
    answer: str
    verdict: str
    citations: list[Citation]
    mode: str
    problems: list[str] = []


# ---------------------------------------------------------------- ingest, jobs
class IngestReport(Shape):
    """`cairn ingest --json` (also jobs retry/run and reindex)."""

    added: int
    updated: int
    unchanged: int
    embedded_chunks: int
    skipped: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    warnings: list[dict[str, Any]] = []
    tombstoned: list[Any] = []


class SyncReport(Shape):
    """`cairn sync --json`."""

    added: list[str]
    updated: list[str]
    removed: list[str]
    unchanged: int
    failed: list[dict[str, Any]] = []


class IngestUrl(Body):
    url: str = Field(pattern=r"^https?://", max_length=4000)


class IngestText(Body):
    text: str = Field(min_length=1)
    title: Optional[str] = Field(None, max_length=200)
    tags: Optional[list[str]] = None
    folder: str = "inbox"


class Job(Shape):
    id: int
    source: str
    state: str
    attempts: int
    last_error: Optional[str] = None


class Jobs(Shape):
    """`cairn jobs --json`."""

    counts: dict[str, int]
    dead: list[Job]
    running: list[Job]
    queued: list[Job]


JobId = Annotated[int, Field(ge=1, le=2**63 - 1)]


class RetryBody(Body):
    ids: Optional[list[JobId]] = Field(None, min_length=1, max_length=10000)
    all: bool = False


# ---------------------------------------------------------------- memory
class Memory(Shape):
    id: str
    text: str
    kind: str
    scope: str
    status: str
    confidence: float


class MemoryChange(Shape):
    """`cairn remember --json` (and forget): action add | reinforce | supersede | forget | none."""

    action: str
    reason: str
    memory: Memory
    previous: Optional[Memory] = None


class Recalled(Shape):
    score: float
    signals: dict[str, float]
    memory: Memory


class Core(Shape):
    """`cairn core --json`."""

    blocks: dict[str, str]
    memories: list[Memory]


class RememberBody(Body):
    text: str = Field(min_length=1, max_length=4000)
    kind: Optional[MemoryKind] = None  # type: ignore[valid-type]
    scope: str = Field("global", min_length=1, max_length=100)
    at: Optional[str] = None


class CoreBody(Body):
    text: str = Field(max_length=20000)


class Entity(Shape):
    id: str
    name: str
    aliases: list[str]
    memories: int = 0
    notes: int = 0  # notes mentioning it (the entity graph, issue 17)


class AliasBody(Body):
    name: str = Field(min_length=1, max_length=200)
    alias: str = Field(min_length=1, max_length=200)


# ---------------------------------------------------------------- export
class ExportBody(Body):
    """POST /api/export: what to export and how (Cairn.export / `cairn export`): `format`
    markdown (one note) | text | json | zip; select by `ids` (note references), `query` (top
    `k` hits), or all notes, narrowed by `tag`, `type`, `since` / `until` (YYYY-MM-DD)."""

    format: Optional[Literal["markdown", "text", "json", "zip"]] = None
    ids: Optional[list[str]] = Field(None, max_length=10000)
    tag: Optional[str] = None
    type: Optional[str] = None
    since: Optional[str] = None
    until: Optional[str] = None
    query: Optional[str] = Field(None, max_length=4000)
    name: Optional[str] = Field(None, max_length=150)
    k: int = Field(20, ge=1, le=1000)


class ExportOut(Shape):
    """`cairn export --json`: the file written under exports/ (fetch it from /api/exports/{name})."""

    name: str
    format: str
    count: int
    notes: list[dict[str, Any]] = []
    bytes: int
    created: str
    expires: str
