"""Settings: one place that reads the environment and `<home>/config.toml`.

Precedence (highest first): explicit arguments (e.g. the CLI's `--home`), environment
variables (`CAIRN_HOME`, `CAIRN_LLM`), `<home>/config.toml`, built-in defaults.

Example `config.toml`::

    llm = "openai:http://127.0.0.1:11434/v1:llama3.2"   # or "embedded" / "none"
    vault = "~/Documents/notes"   # an existing folder as the vault (default <home>/vault)
    [search]
    k = 10
    recency_tau_days = 365
    [chunk]
    max_tokens = 320
    [memory]
    half_life_days = 30
    min_relevance = 0.3
    fact_keys = true        # index chat messages with their extracted facts
    extract_llm = "none"    # model for `cairn extract` / import chat ("none" = rules)
    [fetch]
    allow_private = false    # true lets `cairn ingest URL` reach your own private network
    [jobs]
    max_attempts = 5
    [ingest]
    ocr = true     # read text in images and scanned PDF pages (RapidOCR)
    max_ocr_pages = 50   # scanned pages of one PDF read by OCR at most
    asr = true     # transcribe audio files (faster-whisper tiny.en)
    [sync]
    inbox = ["~/Downloads/to-cairn"]   # files dropped here are ingested by `cairn watch`
    [server]
    port = 8765
    trust_loopback = true    # loopback callers need no API key (see docs/server.md)
    allowed_hosts = ["cairn.lan"]   # extra Host names accepted (DNS-rebinding defence)
    cors_origins = ["http://localhost:3000"]   # browser origins allowed to call the API
    rate_per_s = 20          # per-key token bucket: refill per second ...
    rate_burst = 60          # ... and bucket size
    max_upload_bytes = 50000000
    [assistant]
    model = "openai:http://127.0.0.1:11434/v1:qwen2.5:7b"   # default: llm, else none (the understanding layer)
    session_tokens = 50000   # 0 = no limit; also call_tokens, day_tokens, session_cost, day_cost
    files = ["~/Documents"]  # folders the read_file tool may read
"""

from __future__ import annotations

import errno
import math
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from cairn.config_peek import CONFIG_FILE, default_home, home_path  # noqa: F401  (default_home: API)
from cairn.errors import InvalidInput, Unavailable


class ConfigError(InvalidInput):
    """config.toml is unreadable or holds a value of the wrong type (message names the key)."""


def _os_reason(exc: OSError) -> str:
    """The OS reason of `exc` in lower case ("permission denied", "read-only file system")."""
    return (exc.strerror or str(exc)).lower()


def _nearest_existing(path: Path) -> Path | None:
    """`path` itself or its nearest parent that exists (None when none does)."""
    return next((p for p in (path, *path.parents) if p.exists()), None)


class HomeNotWritable(Unavailable):
    """The Cairn home folder cannot be written. Cairn writes there even to read: SQLite in
    WAL mode keeps `index.db-wal` and `index.db-shm` beside the index. `home`: the folder;
    `reason`: the OS reason ("permission denied", "read-only file system"); the message
    names both and the fix (for a home that does not exist yet, its nearest existing parent)."""

    def __init__(self, home: Path, reason: str) -> None:
        self.home, self.reason = home, reason
        folder = _nearest_existing(home) or home
        if "read-only file system" in reason.lower():  # chmod cannot help on a read-only mount
            fix = ("choose a home on a writable disk with --home or CAIRN_HOME (or remount "
                   f"the file system of {folder} read-write)")
        else:
            fix = (f"make the folder writable (chmod u+w {folder}) or choose another home with "
                   "--home or CAIRN_HOME")
        super().__init__(f"CAIRN_HOME {home} is not writable: {reason} — Cairn keeps its index there "
                         f"and writes beside it even to read (index.db-wal, index.db-shm); {fix}")


def write_problem(folder: Path) -> str | None:
    """Why no file can be created in `folder` ("permission denied", "read-only file
    system", "no such file or directory"), or None when one can. Tested by creating and
    removing a temporary file: os.access misses read-only mounts and root's capabilities."""
    import tempfile
    try:
        with tempfile.TemporaryFile(dir=folder):
            return None
    except OSError as exc:
        return _os_reason(exc)


from cairn.config_sections import (  # noqa: F401  (the sections are part of this module's API)
    MAX_MEMORY_CHARS, quiet_window, zone_known, SearchSettings, ChunkSettings, FetchSettings, JobSettings, MemorySettings, IngestSettings, SyncSettings, TimeSettings, TelegramSettings, ImapSettings, VoiceSettings, PersonaSettings, MatrixSettings, ServerSettings, PluginSettings, AssistantSettings, BackupSettings)

@dataclass
class Settings:
    """Resolved settings for one Cairn home folder.

    home/vault/index_path/config_path: filesystem locations. The vault is `<home>/vault`
    unless `vault_dir` (config key `vault`) names another folder, indexed in place.
    llm: "none", "embedded" or "openai:BASE_URL:MODEL" (empty = the default, "none": the
    extractive answer; cairn.llm.default_llm_spec).
    """

    home: Path
    llm: str = ""
    embedder: str = "minilm"
    store: str = "sqlite"  # the storage backend (store/backend.py): "sqlite" or "postgresql"
    store_url: str = ""  # [store] url = "postgresql://..." (env CAIRN_STORE_URL wins)
    search: SearchSettings = field(default_factory=SearchSettings)
    chunk: ChunkSettings = field(default_factory=ChunkSettings)
    memory: MemorySettings = field(default_factory=MemorySettings)
    fetch: FetchSettings = field(default_factory=FetchSettings)  # --- jobs, url ingest
    jobs: JobSettings = field(default_factory=JobSettings)  # --- jobs, url ingest
    ingest: IngestSettings = field(default_factory=IngestSettings)
    sync: SyncSettings = field(default_factory=SyncSettings)
    time: TimeSettings = field(default_factory=TimeSettings)
    telegram: TelegramSettings = field(default_factory=TelegramSettings)
    imap: ImapSettings = field(default_factory=ImapSettings)
    voice: VoiceSettings = field(default_factory=VoiceSettings)
    persona: PersonaSettings = field(default_factory=PersonaSettings)
    matrix: MatrixSettings = field(default_factory=MatrixSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    plugins: PluginSettings = field(default_factory=PluginSettings)
    plugin_config: dict = field(default_factory=dict)  # [plugin.NAME] tables, as written
    assistant: AssistantSettings = field(default_factory=AssistantSettings)
    backup: BackupSettings = field(default_factory=BackupSettings)
    max_file_bytes: int = 50_000_000
    vault_dir: Path | None = None
    # The owner this service acts for (not a config key: the service's context, cairn.people):
    # the named person (env CAIRN_PERSON, an API key's person) whose rows it reads and writes;
    # None = the home's own person, who sees every note; a name sees only their own and shared ones.
    owner: str | None = None

    @property
    def vault(self) -> Path:
        return self.vault_dir or self.home / "vault"

    @property
    def inbox_dirs(self) -> list[Path]:
        """Configured inbox folders (`[sync] inbox`), `~` expanded, relative to home."""
        return [(self.home / Path(p).expanduser()).resolve() for p in self.sync.inbox]

    @property
    def index_path(self) -> Path:
        return self.home / "index.db"

    @property
    def config_path(self) -> Path:
        return self.home / CONFIG_FILE

    def ensure_dirs(self) -> None:
        """Create home and vault folders if missing. A configured vault folder (key `vault`)
        is never created: ConfigError when it does not exist (a typo, or a drive that is not
        mounted, must not look like an empty vault). HomeNotWritable when a folder cannot be
        created for lack of permission or on a read-only file system. ConfigError when the
        home (or a folder above it, or the vault) is a file, not a directory."""
        existing = _nearest_existing(self.home)
        if existing is not None and not existing.is_dir():
            where = "is a file" if existing == self.home else f"cannot be created: {existing} is a file"
            raise ConfigError(f"the Cairn home {self.home} {where}, not a directory — "
                              "choose a folder with --home or CAIRN_HOME")
        if self.vault.exists() and not self.vault.is_dir():
            raise ConfigError(f"the vault {self.vault} is a file, not a directory"
                              + (" (fix the `vault` setting in config.toml)" if self.vault_dir is not None
                                 else " (move it away; Cairn keeps its notes in this folder)"))
        try:
            if self.vault_dir is not None:
                self.home.mkdir(parents=True, exist_ok=True)
                if not self.vault_dir.is_dir():
                    raise ConfigError(f"config.toml: the vault folder {self.vault_dir} does not exist "
                                      "(create it, or fix the `vault` setting)")
                return
            self.vault.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise HomeNotWritable(self.home, _os_reason(exc)) from None
            raise


_INT_LIST_KEYS = {"telegram.allow"}  # list settings whose items may be numbers (Telegram user ids)


def _apply(obj: Any, values: dict[str, Any], section: str) -> None:
    for key, value in values.items():
        if not hasattr(obj, key):
            raise ConfigError(f"config.toml: unknown key {section}{key!r}")
        current = getattr(obj, key)
        if isinstance(current, bool):  # --- jobs, url ingest: boolean settings
            if not isinstance(value, bool):
                raise ConfigError(f"config.toml: {section}{key} must be true or false, got {value!r}")
            setattr(obj, key, value)
            continue
        if isinstance(current, list):  # a list of strings; one string is a list of one
            ints = f"{section}{key}" in _INT_LIST_KEYS  # ids that may be written as numbers
            items = [value] if isinstance(value, str) or (ints and isinstance(value, int)
                                                          and not isinstance(value, bool)) else value
            if not isinstance(items, list) or not all(
                    (isinstance(p, str) and p.strip()) or (ints and isinstance(p, int) and not isinstance(p, bool))
                    for p in items):
                raise ConfigError(f"config.toml: {section}{key} must be a list of non-empty strings, "
                                  f"got {value!r}")
            setattr(obj, key, [str(p) for p in items])
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ConfigError(f"config.toml: {section}{key} has unsupported value {value!r}")
        if isinstance(current, (int, float)) and not isinstance(value, (int, float)):
            raise ConfigError(f"config.toml: {section}{key} must be a number, got {value!r}")
        if isinstance(current, int) and isinstance(value, float) and not value.is_integer():
            raise ConfigError(f"config.toml: {section}{key} must be a whole number, got {value!r}")
        setattr(obj, key, type(current)(value))


# Lower bounds of numeric settings: (section, key) -> (minimum, strict). Every other number
# must be >= 0. A value outside its range would empty the index (chunk sizes), divide by
# zero (recency tau) or stop work (attempts, limits), so it is refused when config.toml loads.
_MINIMUMS: dict[tuple[str, str], tuple[float, bool]] = {
    ("search", "k"): (1, False), ("search", "rrf_k"): (1, False),
    ("search", "candidates"): (1, False), ("search", "recency_tau_days"): (0, True),
    ("chunk", "max_tokens"): (16, False), ("chunk", "embed_max_chunks"): (1, False),
    ("memory", "half_life_days"): (0, True), ("memory", "core_limit"): (1, False),
    ("fetch", "max_url_bytes"): (1, False), ("fetch", "timeout_s"): (0, True),
    ("jobs", "max_attempts"): (1, False), ("jobs", "batch"): (1, False),
    ("jobs", "lease_s"): (0, True), ("", "max_file_bytes"): (1, False),
    ("ingest", "max_ocr_pages"): (1, False), ("ingest", "parse_timeout_s"): (0, True),
    ("time", "max_attempts"): (1, False), ("time", "retry_base_s"): (0, True),
    ("server", "port"): (1, False), ("imap", "port"): (1, False), ("server", "rate_per_s"): (0, True),
    ("server", "rate_burst"): (1, False), ("server", "max_upload_bytes"): (1, False),
    ("server", "read_workers"): (1, False),
    ("plugins", "call_timeout_s"): (0, True), ("plugins", "start_timeout_s"): (0, True),
    ("plugins", "max_result_bytes"): (1, False),
    ("assistant", "step_limit"): (1, False), ("assistant", "max_reply_tokens"): (16, False),
    ("assistant", "context_tokens"): (256, False), ("assistant", "turn_workers"): (1, False),
    ("assistant", "shell_timeout_s"): (0.1, False), ("assistant", "shell_output_chars"): (0, False),
}
# Upper bounds: fractions at most 1 (a floor of 5 would make every answer abstain), ports, k.
_MAXIMUMS: dict[tuple[str, str], float] = {("search", "answer_floor"): 1.0, ("search", "semantic_floor"): 1.0,
                                           **{("search", k): 1.0 for k in ("graph_weight", "source_weight",
                                                                             "context_weight", "speaker_weight", "time_weight", "phrase_weight",
                                                                             "graph_hop1", "graph_hop2")},
                                           ("memory", "neighbour_keys"): 1.0,
                                           # a TCP port; the hits `--k` allows
                                           ("server", "port"): 65535, ("imap", "port"): 65535,
                                           ("search", "k"): 1000}
# The [table] sections of config.toml, each a settings dataclass attribute of Settings.
_SECTIONS = ("search", "chunk", "memory", "fetch", "jobs", "ingest", "sync", "time", "telegram", "imap", "voice",
             "persona", "matrix", "server", "plugins", "assistant", "backup")
_LLM_FORMS = '"none", "embedded", "embedded:NAME" (a packaged model) or "openai:BASE_URL:MODEL"'


def _check_llm_spec(value: object, key: str) -> str:
    """A model spec as written in config.toml (syntax only; the model is not loaded here, and
    the NAME of "embedded:NAME" is checked when the model is asked for)."""
    low = value.strip().lower() if isinstance(value, str) else ""
    if not isinstance(value, str) or not (
            low in ("none", "embedded") or low.startswith("openai:")
            or (low.startswith("embedded:") and low.split(":", 1)[1].strip())):
        raise ConfigError(f"config.toml: {key} must be {_LLM_FORMS}, got {value!r}")
    return value.strip()


ASSISTANT_SPEC_FORMS = (  # the model specs `cairn chat --model` and assistant.model take (cairn.assistant.models)
    '"none", "embedded", "embedded:NAME", "openai:BASE_URL:MODEL", "anthropic:MODEL" or '
    '"anthropic:BASE_URL:MODEL"')


def _check_assistant_spec(value: str) -> None:
    """assistant.model as written in config.toml: "" (use `llm`) or one of the forms
    `cairn chat --model` takes (syntax only, as `_check_llm_spec`; ASSISTANT_SPEC_FORMS,
    which cairn.assistant.models reads as its SPEC_FORMS). Raises ConfigError."""
    low = value.strip().lower()
    if not low or low in ("none", "embedded") or low.startswith("openai:"):
        return
    if low.startswith(("embedded:", "anthropic:")) and low.split(":", 1)[1].strip():
        return
    raise ConfigError(f"config.toml: assistant.model must be {ASSISTANT_SPEC_FORMS} (or left out), got {value!r}")


def validate(settings: "Settings") -> None:
    """Check value ranges after loading (numbers finite — no nan or inf — and >= 0, see
    `_MINIMUMS` and `_MAXIMUMS`; fusion one of weighted/rrf; chunk.min_tokens <=
    max_tokens). Raises ConfigError naming the key."""
    sections = {name: getattr(settings, name) for name in _SECTIONS} | {"": settings}
    for name, obj in sections.items():
        for key, value in vars(obj).items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            label = f"{name}.{key}" if name else key
            if not math.isfinite(value):
                raise ConfigError(f"config.toml: {label} must be a finite number, got {value!r}")
            low, strict = _MINIMUMS.get((name, key), (0, False))
            if value < low or (strict and value == low):
                bound = f"greater than {low:g}" if strict else f"at least {low:g}"
                raise ConfigError(f"config.toml: {label} must be {bound}, got {value!r}")
            high = _MAXIMUMS.get((name, key))
            if high is not None and value > high:
                raise ConfigError(f"config.toml: {label} must be at most {high:g}, got {value!r}")
    if settings.search.fusion not in ("weighted", "rrf"):
        raise ConfigError(f"config.toml: search.fusion must be \"weighted\" or \"rrf\", got {settings.search.fusion!r}")
    if settings.chunk.min_tokens > settings.chunk.max_tokens:
        raise ConfigError("config.toml: chunk.min_tokens must not exceed chunk.max_tokens")
    backups = (settings.home / Path(settings.backup.dir).expanduser()).resolve()
    if backups == settings.home.resolve():
        raise ConfigError(f"config.toml: backup.dir {settings.backup.dir!r} is the home folder itself; name "
                          "a folder inside it (default \"backups\") or outside it")
    for folder in settings.inbox_dirs:
        if folder == settings.home.resolve():
            raise ConfigError(f"config.toml: sync.inbox {str(folder)!r} is the Cairn home folder itself "
                              "(its index, logs and config are no files to ingest); name a folder new "
                              "files arrive in")
    if not zone_known(settings.time.timezone):
        raise ConfigError(f"config.toml: time.timezone {settings.time.timezone!r} is not an IANA time "
                          "zone this machine knows (e.g. \"Europe/Lisbon\"; \"\" = this machine's zone)")
    try:
        quiet_window(settings.time.quiet_hours)
    except ValueError as exc:
        raise ConfigError(f"config.toml: time.{exc}") from None
    for item in settings.voice.voices:
        who, _, model = item.partition("=")
        if not (who.strip() and model.strip()):
            raise ConfigError(f"config.toml: voice.voices items are \"PERSONA=MODEL\", got {item!r}")


def _apply_data(settings: Settings, data: dict, check_vault: bool = True) -> None:
    """Apply a config table (`data`, consumed) to `settings` and validate the result.
    ConfigError names the key."""
    for section in _SECTIONS:
        if section in data:
            if not isinstance(data[section], dict):
                raise ConfigError(f"config.toml: [{section}] must be a table")
            _apply(getattr(settings, section), data.pop(section), f"{section}.")
    if "plugin" in data:
        tables = data.pop("plugin")
        if not isinstance(tables, dict) or not all(isinstance(v, dict) for v in tables.values()):
            raise ConfigError("config.toml: [plugin.NAME] entries must be tables, one per plugin")
        settings.plugin_config = tables
    if "llm" in data:
        settings.llm = _check_llm_spec(data.pop("llm"), "llm")
    if settings.memory.extract_llm:
        _check_llm_spec(settings.memory.extract_llm, "memory.extract_llm")
    if settings.ingest.enrich_llm:
        _check_llm_spec(settings.ingest.enrich_llm, "ingest.enrich_llm")
    if settings.ingest.enrich not in ("auto", "extractive", "off"):
        raise ConfigError("config.toml: ingest.enrich must be \"auto\", \"extractive\" or \"off\", "
                          f"got {settings.ingest.enrich!r}")
    _check_assistant_spec(settings.assistant.model)
    if settings.assistant.tools not in ("auto", "native", "json", "none"):
        raise ConfigError("config.toml: assistant.tools must be \"auto\", \"native\", \"json\" or "
                          f"\"none\", got {settings.assistant.tools!r}")
    if "vault" in data:
        vault = data.pop("vault")
        if not isinstance(vault, str) or not vault.strip():
            raise ConfigError(f"config.toml: vault must be a folder path, got {vault!r}")
        # `~` is expanded; a relative path is relative to the home folder.
        settings.vault_dir = (settings.home / Path(vault).expanduser()).resolve()
        if check_vault and settings.vault_dir.exists() and not settings.vault_dir.is_dir():
            raise ConfigError(f"config.toml: vault {vault!r} is not a folder")
        home = settings.home.resolve()
        if check_vault and (settings.vault_dir == home or settings.vault_dir in home.parents) and not any(
                part.startswith(".") for part in home.relative_to(settings.vault_dir).parts):  # hidden: not scanned
            raise ConfigError(f"config.toml: vault {vault!r} holds the Cairn home {home} itself: its exports, uploads "
                              "and backups would be indexed as notes; choose a vault beside the home, or keep the "
                              "home in a hidden folder of it (such as .cairn)")
    if "store" in data:
        store = data.pop("store")
        if isinstance(store, dict):  # [store] url = "postgresql://..."
            url = store.pop("url", "")
            if store:
                raise ConfigError(f"config.toml: unknown key(s) {sorted('store.' + k for k in store)}")
            if not isinstance(url, str) or not url.startswith(("postgresql://", "postgres://")):
                raise ConfigError("config.toml: [store] url must be a postgresql:// URL")
            settings.store, settings.store_url = "postgresql", url
        elif store != "sqlite":
            raise ConfigError(f"config.toml: store must be \"sqlite\" or a [store] table with "
                              f"url = \"postgresql://...\", got {store!r}")
        else:
            settings.store = store
    if "embedder" in data:
        embedder = data.pop("embedder")
        if not isinstance(embedder, str) or not embedder.strip():
            raise ConfigError(f"config.toml: embedder must be an embedder name (see `cairn plugins`), "
                              f"got {embedder!r}")
        settings.embedder = embedder.strip()
    if "max_file_bytes" in data:
        _apply(settings, {"max_file_bytes": data.pop("max_file_bytes")}, "")
    if data:
        raise ConfigError(f"config.toml: unknown key(s) {sorted(data)}")
    validate(settings)


def _read_layer(path: Path) -> dict:
    """The TOML table of config file `path` ({} when it does not exist, also when a folder
    above it is a file: Settings.ensure_dirs names that). ConfigError naming the file when it
    is not valid TOML or not UTF-8, when it is a symbolic link to nothing (a dotfiles folder
    not mounted: its settings would be silently dropped), or when it is not a regular file
    (a FIFO would block every command)."""
    import stat as st
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        if path.is_symlink():
            raise ConfigError(f"{path}: a symbolic link to {os.readlink(path)}, which does not exist") from None
        return {}
    except OSError:
        mode = None  # a loop and the like: the read below names it
    if mode is not None and not st.S_ISREG(mode) and not st.S_ISDIR(mode):
        raise ConfigError(f"{path}: not a regular file")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, NotADirectoryError):
        return {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc


def layers(home: Path) -> tuple[dict, dict, list[tuple[str, Path | None, bool]]]:
    """(the merged config table, {"dotted.key": the file its value came from}, [(layer
    "global" | "home", path, exists)]): the global config under the home's config.toml
    (config_peek.merge: the home's wins key by key). ConfigError for an unreadable file."""
    from cairn.config_peek import global_config_path, merge
    gpath, hpath = global_config_path(), home / CONFIG_FILE
    shared = _read_layer(gpath) if gpath is not None else {}
    own = _read_layer(hpath)
    merged, origins = merge(shared, own, low_name=str(gpath), high_name=str(hpath))
    files = ([("global", gpath, gpath.is_file())] if gpath is not None else []) + [("home", hpath, hpath.is_file())]
    return merged, origins, files


def load_settings(home: Path | str | None = None) -> Settings:
    """Resolve settings for `home` (or the default home): the global config, then the home's
    config.toml over it (config_peek: layers), then the environment.

    Raises ConfigError when a config file is not valid TOML, has unknown keys, values of the
    wrong type or values out of range (see `validate`); an error of the global file alone
    names that file.
    """
    import copy
    settings = Settings(home=home_path(home))
    data, _origins, files = layers(settings.home)
    glob = next((p for layer, p, there in files if layer == "global" and there), None)
    if glob is not None:  # the global file on its own, so that its own errors name it
        try:
            _apply_data(Settings(home=settings.home), copy.deepcopy(_read_layer(glob)), check_vault=False)
        except ConfigError as exc:
            raise ConfigError(f"{glob}: {exc}") from exc
    if data:
        _apply_data(settings, data)
    if os.environ.get("CAIRN_LLM"):
        settings.llm = os.environ["CAIRN_LLM"]
    return settings
