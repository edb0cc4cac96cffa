"""Settings: one place that reads the environment and `<home>/config.toml`.

Precedence (highest first): explicit arguments (e.g. the CLI's `--home`), environment
variables (`CAIRN_HOME`, `CAIRN_LLM`), `<home>/config.toml`, built-in defaults.

Example `config.toml`::

    llm = "openai:http://127.0.0.1:11434/v1:llama3.2"   # or "embedded" / "none"
    [search]
    k = 10
    recency_tau_days = 365
    [chunk]
    max_tokens = 320
    [memory]
    fact_keys = true        # index chat messages with their extracted facts
    extract_llm = "none"    # model for `cairn extract` / import chat ("none" = rules)
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """config.toml is unreadable or holds a value of the wrong type (message names the key)."""


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


@dataclass
class ChunkSettings:
    """Chunk sizes in *approximate tokens* (1 token ~ 0.75 words, see chunk.py)."""

    max_tokens: int = 320
    min_tokens: int = 60
    overlap_tokens: int = 40
    embed_max_chunks: int = 400  # per note; later chunks of huge notes are keyword-only


@dataclass
class MemorySettings:
    """Memory about the person. fact_keys: index each chat message together with the facts
    extracted from it (fact-augmented keys; false = the message alone). extract_on_import:
    `cairn import chat` extracts facts after importing. extract_llm: the model used for
    extraction ("none" = the rule-based extractor; "embedded"; "openai:BASE_URL:MODEL")."""

    fact_keys: bool = True
    extract_on_import: bool = True
    extract_llm: str = "none"


@dataclass
class Settings:
    """Resolved settings for one Cairn home folder.

    home/vault/index_path/config_path: filesystem locations.
    llm: "none", "embedded" or "openai:BASE_URL:MODEL" (empty = pick the best installed).
    """

    home: Path
    llm: str = ""
    search: SearchSettings = field(default_factory=SearchSettings)
    chunk: ChunkSettings = field(default_factory=ChunkSettings)
    memory: MemorySettings = field(default_factory=MemorySettings)
    max_file_bytes: int = 50_000_000

    @property
    def vault(self) -> Path:
        return self.home / "vault"

    @property
    def index_path(self) -> Path:
        return self.home / "index.db"

    @property
    def config_path(self) -> Path:
        return self.home / "config.toml"

    def ensure_dirs(self) -> None:
        """Create home and vault folders if missing."""
        self.vault.mkdir(parents=True, exist_ok=True)


def default_home() -> Path:
    """`$CAIRN_HOME` or `~/.cairn`."""
    env = os.environ.get("CAIRN_HOME")
    return Path(env).expanduser() if env else Path("~/.cairn").expanduser()


def _apply(obj: Any, values: dict[str, Any], section: str) -> None:
    for key, value in values.items():
        if not hasattr(obj, key):
            raise ConfigError(f"config.toml: unknown key {section}{key!r}")
        current = getattr(obj, key)
        if isinstance(current, bool):
            if not isinstance(value, bool):
                raise ConfigError(f"config.toml: {section}{key} must be true or false, got {value!r}")
            setattr(obj, key, value)
            continue
        if not isinstance(value, (int, float, str)):
            raise ConfigError(f"config.toml: {section}{key} has unsupported value {value!r}")
        if isinstance(current, (int, float)) and not isinstance(value, (int, float)):
            raise ConfigError(f"config.toml: {section}{key} must be a number, got {value!r}")
        setattr(obj, key, type(current)(value))


def load_settings(home: Path | str | None = None) -> Settings:
    """Resolve settings for `home` (or the default home).

    Raises ConfigError when config.toml exists but is not valid TOML or has bad keys.
    """
    home_path = Path(home).expanduser() if home else default_home()
    settings = Settings(home=home_path.resolve())
    cfg = settings.config_path
    if cfg.exists():
        try:
            data = tomllib.loads(cfg.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{cfg}: not valid TOML: {exc}") from exc
        for section in ("search", "chunk", "memory"):
            if section in data:
                if not isinstance(data[section], dict):
                    raise ConfigError(f"config.toml: [{section}] must be a table")
                _apply(getattr(settings, section), data.pop(section), f"{section}.")
        if "llm" in data:
            settings.llm = str(data.pop("llm"))
        if "max_file_bytes" in data:
            settings.max_file_bytes = int(data.pop("max_file_bytes"))
        if data:
            raise ConfigError(f"config.toml: unknown key(s) {sorted(data)}")
    if os.environ.get("CAIRN_LLM"):
        settings.llm = os.environ["CAIRN_LLM"]
    return settings
