"""The sections of `config.toml` (`[search]`, `[chunk]`, `[memory]`, ...): one dataclass each,
with its defaults. :mod:`cairn.config` assembles them into :class:`cairn.config.Settings` and
reads the file; docs/install.md describes every field (tests/unit/test_docs.py checks it)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import time

@dataclass
class SearchSettings:
    """Retrieval knobs. `rrf_k` is the constant of reciprocal rank fusion
    (Cormack, Clarke & Buettcher 2009: score = sum 1 / (k + rank))."""

    k: int = 10
    fusion: str = "weighted"  # "weighted" (convex combination) or "rrf"; see search/hybrid.py
    rrf_k: int = 60
    candidates: int = 100  # per channel, before fusion
    recency_tau_days: float = 365.0  # recency = exp(-age_days / tau)
    recency_weight: float = 0.1  # weight of the recency channel in fusion
    keyword_weight: float = 1.0
    semantic_weight: float = 1.0
    answer_floor: float = 0.35  # minimum evidence support to cite a chunk
    # Relevance floor: a hit that contains no query word must be at least this close in
    # meaning (cosine) to be shown; 0 shows the nearest notes whatever they are.
    semantic_floor: float = 0.1
    # Graph signal (graph/signal.py): units one hop (hop1) or two hops (hop2) from the
    # query's entities or the best direct hits; EchoGarden's 0.7 / 0.4 as the start.
    graph_weight: float = 0.1
    graph_hop1: float = 0.7
    graph_hop2: float = 0.4
    # source boost by kind of material (graph/signal.py); constant, so rank-neutral, within a
    # collection of one kind; 0.25 puts a highlight above a visited page saying the same thing
    # (tests/test_capture.py), where 0.05 did not
    source_weight: float = 0.25
    context_weight: float = 0.6  # neighbour context of chat messages (graph/signal.py)
    speaker_weight: float = 0.4  # messages by the participant the question names (graph/signal.py)
    # Adjacent query word pairs as phrases (sequential dependence): their BM25, times this,
    # is added to each keyword candidate's BM25 (search/hybrid.py; tuned on SciFact's even ids)
    phrase_weight: float = 0.15
    time_weight: float = 0.8  # units dated near a date the question names (graph/signal.py, search/dates.py; tuned on LoCoMo)


@dataclass
class ChunkSettings:
    """Chunk sizes in *approximate tokens* (1 token ~ 0.75 words, see chunk.py)."""

    max_tokens: int = 320
    min_tokens: int = 60
    overlap_tokens: int = 40
    embed_max_chunks: int = 400  # per note; later chunks of huge notes are keyword-only


# --- jobs, url ingest
@dataclass
class FetchSettings:
    """URL ingest limits (see cairn.fetch). allow_private: let the person's own `cairn ingest
    URL` reach loopback/private/link-local/CGNAT addresses (metadata addresses stay refused);
    a model-driven tool never reads this and always passes False."""

    allow_private: bool = False
    max_url_bytes: int = 25_000_000  # body cap, bytes (download aborted beyond it)
    timeout_s: float = 30.0  # total time cap per URL, seconds, redirects included
    max_redirects: int = 5


@dataclass
class JobSettings:
    """Job queue policy (see cairn.jobs). Retry delay after the n-th failed attempt:
    min(backoff_base_s * 2**(n-1), backoff_max_s) seconds (exponential back-off)."""

    max_attempts: int = 5
    backoff_base_s: float = 1.0
    backoff_max_s: float = 300.0
    lease_s: float = 3600.0  # a running job whose claim is older than this is requeued
    batch: int = 32  # jobs claimed per transaction (a job tried before is claimed alone)


# The longest text one memory may hold (characters, after whitespace is collapsed). A memory
# is a statement ("I live in Porto"), not a document: longer text belongs in the vault as a
# note (`cairn ingest`). `remember` raises ValueError naming this limit.
MAX_MEMORY_CHARS = 4000


@dataclass
class MemorySettings:
    """Memory recall knobs (see memory/recall.py for the formula, after EchoVessel's
    five-factor score). Weights multiply signals in [0, 1]; `half_life_days` is the recency
    half-life, `recency_min` its lower bound (old memories never score 0 on recency),
    `min_relevance` the floor that only entity- or slot-anchored memories may bypass (the
    emotional weight, `w_impact` and `w_relational`, only ranks what passed it), `core_limit`
    how many memories `core_context` returns (EchOS injects its top 15).

    Extraction: fact_keys — index each chat message together with the facts extracted from
    it (fact-augmented keys; false = the message alone); neighbour_keys — alpha of the
    neighbour-carrying message vectors (ingest/neighbours.py; 0 = off); extract_on_import — `cairn import
    chat` extracts facts after importing; extract_llm — the model used for extraction
    ("none" = the rule-based extractor; "embedded"; "openai:BASE_URL:MODEL");
    store_extracted — extracted facts also go into the memory store (`cairn memories`)."""

    half_life_days: float = 30.0
    recency_min: float = 0.1
    min_relevance: float = 0.3
    semantic_share: float = 0.7  # relevance = share * cosine + (1 - share) * keyword coverage
    w_relevance: float = 3.0
    w_recency: float = 0.5
    w_importance: float = 1.0
    w_reinforcement: float = 0.5
    w_confidence: float = 0.5
    w_anchor: float = 1.5
    w_slot: float = 1.5  # the query asks about a slot the memory fills (memory/recall.py)
    w_impact: float = 1.0  # |emotional impact| / 10 (memory/affect.py)
    w_relational: float = 0.5  # any identity/vulnerability/turning_point/commitment/correction tag
    core_limit: int = 15
    fact_keys: bool = True
    # a chat message's vector carries its neighbours: normalise(v + alpha x mean(previous,
    # next message of the session)); 0 = the message alone (ingest/neighbours.py)
    neighbour_keys: float = 0.3
    extract_on_import: bool = True
    extract_llm: str = "none"
    store_extracted: bool = True


@dataclass
class IngestSettings:
    """What ingest may run on a file: `ocr` (images, PDF pages without a text layer) and
    `asr` (speech-to-text of audio). Off = the file is still kept, with a warning.
    max_ocr_pages: pages without a text layer OCR'd per PDF at most (OCR takes seconds a
    page, so a long scan would run for an hour); later pages are left out with a warning.
    Same default as cairn.parse.pdf.MAX_OCR_PAGES."""

    ocr: bool = True
    asr: bool = True
    max_ocr_pages: int = 50
    # Images, audio and PDFs are parsed in worker processes (cairn.parse.pool): how many
    # (0 = in the ingest process itself), each one's address-space cap in MiB (0 = none)
    # and the wall seconds one file may take there.
    parse_workers: int = 1
    parse_memory_mib: int = 3072
    parse_timeout_s: float = 600.0
    # Enrichment of each ingested note (cairn.enrich): "auto" = an extractive gist written with
    # the note, then, when a model is configured (`enrich_llm`, else `llm`), the model's
    # category, tags, gist and key points after the embeddings; "extractive" = the gist
    # only; "off" = nothing.
    enrich: str = "auto"
    enrich_llm: str = ""  # model for enrichment: "" = the `llm` setting; "none" = no model


@dataclass
class SyncSettings:
    """Vault watching (`cairn watch`). inbox: folders whose new files are ingested like
    `cairn ingest`; settle_ms: quiet time after a file's last event before it is indexed;
    missing_settle_ms: longer quiet time before a vanished or truncated (0-byte) note is
    acted on, so editors' delete-then-write and truncate-then-write saves never drop it;
    rescan_s: seconds between full reconciles while watching (an OS event queue can
    overflow under a burst of changes), 0 = off."""

    inbox: list[str] = field(default_factory=list)
    settle_ms: int = 300
    missing_settle_ms: int = 1200
    rescan_s: int = 600  # full reconcile this often while watching (0 = never): a safety net for lost events


def quiet_window(text: str) -> tuple[time, time] | None:
    """`[time] quiet_hours` read: "22:00-08:00" -> (22:00, 08:00) (local wall times, the
    window may wrap midnight); "" or blanks -> None (no quiet hours). Raises ValueError for
    any other form, an hour past 23 or a minute past 59 included."""
    text = (text or "").strip()
    if not text:
        return None
    m = re.fullmatch(r"(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})", text)
    if not m or int(m.group(1)) > 23 or int(m.group(3)) > 23 or int(m.group(2)) > 59 or int(m.group(4)) > 59:
        raise ValueError(f"quiet_hours must look like \"22:00-08:00\", got {text!r}")
    return time(int(m.group(1)), int(m.group(2))), time(int(m.group(3)), int(m.group(4)))


def zone_known(name: str) -> bool:
    """Whether `name` is an IANA time zone this machine knows, as `schedule.when.zone` reads
    it (any case, spaces around it ignored: "europe/lisbon"); "" (the machine's zone) is."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones
    name = (name or "").strip()
    if not name:
        return True
    try:
        ZoneInfo(name)
        return True
    except (ZoneInfoNotFoundError, ValueError):
        return name.lower() in {n.lower() for n in available_timezones()}


@dataclass
class TimeSettings:
    """Reminders, scheduled jobs and proactive messages (docs/reminders.md).
    timezone: IANA zone the person lives in ("" = this machine's zone); naive times are read
    in it. max_attempts: deliveries tried before a reminder becomes a dead letter, with
    back-off retry_base_s * 2^(n-1) capped at retry_max_s. grace_s: a recurring run missed
    by more than this (Cairn was down) is skipped and recorded as missed; runs missed within
    it are coalesced into one. quiet_hours "HH:MM-HH:MM" (empty = none), daily_cap and
    topic_cooldown_h gate proactive messages (digest, follow-ups); proactive = false is the
    kill switch."""

    timezone: str = ""
    max_attempts: int = 3
    retry_base_s: float = 30.0
    retry_max_s: float = 3600.0
    grace_s: float = 3600.0
    quiet_hours: str = "22:00-08:00"
    daily_cap: int = 3
    topic_cooldown_h: float = 24.0
    proactive: bool = True


@dataclass
class TelegramSettings:
    """The Telegram channel (`cairn telegram`, docs/telegram.md). token: the bot token from
    @BotFather (or env CAIRN_TELEGRAM_TOKEN); allow: Telegram user ids allowed to talk to the
    bot (empty = nobody); base_url: a self-hosted Bot API server ("" = Telegram's)."""

    token: str = ""
    allow: list[str] = field(default_factory=list)
    base_url: str = ""


@dataclass
class ImapSettings:
    """`cairn import imap`, a live mail source read without changing anything on the server
    (docs/import.md): host ("" = not configured), port, user, password (or env
    CAIRN_IMAP_PASSWORD), the folders to read, ssl (IMAP over TLS; false only for a server
    on this machine)."""

    host: str = ""
    port: int = 993
    user: str = ""
    password: str = ""
    folders: list[str] = field(default_factory=lambda: ["INBOX"])
    ssl: bool = True


@dataclass
class VoiceSettings:
    """Spoken replies on message channels (docs/telegram.md, cairn.assistant.voice).
    persona: the persona the assistant speaks as; voices: "NAME=MODEL" items, one voice per
    persona (MODEL: a piper .onnx file with NAME.onnx.json beside it, or an installed package
    shipping one); model: the voice of any other persona ("" = the packaged joe-us voice)."""

    persona: str = "default"
    voices: list[str] = field(default_factory=list)
    model: str = ""


@dataclass
class PersonaSettings:
    """[persona]: who the assistant speaks as (docs/assistant.md#persona, assistant/persona.py).
    name: its name ("" = no persona: the plain rules); tone: a few words ("warm, informal");
    rules: style rules, one sentence each; sources: the notes or folders it was distilled from
    (`cairn persona distill`). Used in the system prompt; its voice is `[voice] voices`' entry
    of the same name."""

    name: str = ""
    tone: str = ""
    rules: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)


@dataclass
class MatrixSettings:
    """The Matrix channel (`cairn matrix`, docs/matrix.md). homeserver: the client-server
    API root, e.g. "https://matrix.example.org"; token: the bot account's access token (or
    env CAIRN_MATRIX_TOKEN); allow: Matrix user ids allowed to talk (empty = nobody)."""

    homeserver: str = ""
    token: str = ""
    allow: list[str] = field(default_factory=list)


@dataclass
class ServerSettings:
    """`cairn serve` (docs/server.md). host/port: where it listens by default.
    trust_loopback: requests from 127.0.0.0/8 and ::1 need no API key (scope admin); false
    makes every request show a key. allowed_hosts: extra Host header names accepted besides
    localhost, 127.0.0.1, ::1 and the bind address (DNS-rebinding defence). cors_origins:
    origins allowed to call from a browser (none by default; a request carrying any other
    Origin is refused). rate_per_s / rate_burst: token bucket per API key (or per client
    address), requests per second and bucket size. max_upload_bytes: largest request body
    (413 beyond it). read_workers: threads serving reads (writes run on one writer thread)."""

    host: str = "127.0.0.1"
    port: int = 8765
    trust_loopback: bool = True
    allowed_hosts: list[str] = field(default_factory=list)
    cors_origins: list[str] = field(default_factory=list)
    rate_per_s: float = 20.0
    rate_burst: int = 60
    max_upload_bytes: int = 50_000_000
    read_workers: int = 4


@dataclass
class PluginSettings:
    """Subprocess plugins (docs/plugins.md). paths: extra folders searched for executables
    named `cairn-plugin-*` besides `<home>/plugins/`; call_timeout_s: seconds a tool call may
    take before the plugin is treated as hung (the call fails, the plugin restarts);
    start_timeout_s: seconds to answer `initialize`; max_result_bytes: largest result a tool
    may return (JSON bytes); restart_max_s: longest back-off between restarts of a crashing
    plugin. Each plugin's own settings are the table `[plugin.NAME]` (NAME = the executable
    name without `cairn-plugin-`), sent to it in `initialize`."""

    paths: list[str] = field(default_factory=list)
    call_timeout_s: float = 30.0
    start_timeout_s: float = 10.0
    max_result_bytes: int = 1_000_000
    restart_max_s: float = 60.0


@dataclass
class AssistantSettings:
    """The assistant (`cairn chat`, docs/assistant.md). model: its model spec ("" = `llm`,
    else the default); tools: how the model calls tools — "auto" (by model), "native"
    (OpenAI `tools`), "json" (JSON-schema constrained choice), "none" (the offline understanding layer, cairn.assistant.nlu);
    step_limit: model calls per turn at most; tool_retries / retry_backoff_s: a failing tool
    is retried this often, waiting backoff * 2**attempt seconds; veto_s: seconds a medium
    call waits for a veto (interactive channels); approval_timeout_s: seconds a high call
    waits for an answer before it counts as denied; budgets in tokens and US dollars (0 = no
    limit) per call, session and day; idle_minutes: a session quiet this long is ended
    (its transcript goes to memory extraction); recall_k / notes_k: memories and notes put in
    each turn's prompt; files: folders the read_file tool may read (the vault always);
    write_folders: folders write_file / edit_file may write (none by default; tools/filewrite.py);
    shell: the run_command tool on (off by default); shell_allow: the programs it may run
    (argv[0] matched exactly); shell_timeout_s / shell_output_chars: its time limit in seconds
    and output cap in characters (tools/shell.py); turn_workers: chat turns message channels
    run at once (approvals and reminder presses have their own lane, interfaces/lanes.py);
    llm_judge: ask the model for a second risk opinion (it can only raise the level);
    context_tokens: the model's context window in tokens (the prompt compiler's budget is
    this minus max_reply_tokens and the tool schemas); semantic_turns: embed each turn
    once as it arrives so older turns are also found by meaning (max(BM25, semantic));
    reflection (kill switch),
    reflection_tokens (tokens of the person's turns one pass reads) and reflection_daily
    (passes per UTC day): the reflection pass between sessions (context/reflect.py);
    artifacts_days: artifacts (tool outputs, saved conversations) older than this many days
    are pruned by the daily export-cleanup job (0 = kept for ever; store/artifacts.py prune)."""

    model: str = ""
    tools: str = "auto"
    step_limit: int = 6
    tool_retries: int = 2
    retry_backoff_s: float = 0.2
    veto_s: float = 5.0
    approval_timeout_s: float = 120.0
    call_tokens: int = 0
    session_tokens: int = 0
    day_tokens: int = 0
    session_cost: float = 0.0
    day_cost: float = 0.0
    idle_minutes: float = 30.0
    recall_k: int = 5
    notes_k: int = 3
    max_reply_tokens: int = 400
    files: list[str] = field(default_factory=list)
    write_folders: list[str] = field(default_factory=list)
    shell: bool = False
    shell_allow: list[str] = field(default_factory=list)
    shell_timeout_s: float = 10.0
    shell_output_chars: int = 4000
    turn_workers: int = 2
    llm_judge: bool = False
    context_tokens: int = 8192
    semantic_turns: bool = True
    reflection: bool = True
    reflection_tokens: int = 1500
    reflection_daily: int = 3
    artifacts_days: float = 90.0


@dataclass
class BackupSettings:
    """[backup]: the daily snapshots `cairn serve` takes (store/backup.py). keep: how many
    daily snapshots to keep (0: the daemon takes none; `cairn backup` works regardless);
    dir: the folder they go to (relative to the home; default `backups` inside the home,
    which snapshots skip); pg_bin: the folder holding `pg_dump` and `pg_restore`
    for a PostgreSQL store ("" = the PATH)."""

    keep: int = 0
    dir: str = "backups"
    pg_bin: str = ""
