"""config.toml values out of range are refused when the settings load, naming the key —
before any command can act on them (a zero chunk size used to empty the index on reindex)."""

from __future__ import annotations

import pytest

from cairn.config import ConfigError, load_settings


def _load(tmp_path, text):
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    (home / "config.toml").write_text(text, encoding="utf-8")
    return load_settings(home)


@pytest.mark.parametrize("text, key", [
    ("[chunk]\nmax_tokens = 0\n", "chunk.max_tokens"),
    ("[chunk]\nmax_tokens = -1\n", "chunk.max_tokens"),
    ("[chunk]\nmin_tokens = 500\n", "chunk.min_tokens"),
    ("[search]\nrecency_tau_days = 0\n", "search.recency_tau_days"),
    ("[search]\nk = 0\n", "search.k"),
    ("[search]\nk = -5\n", "search.k"),
    ("[search]\nfusion = \"best\"\n", "search.fusion"),
    ("[search]\nanswer_floor = -0.1\n", "search.answer_floor"),
    ("[jobs]\nmax_attempts = 0\n", "jobs.max_attempts"),
    ("[fetch]\ntimeout_s = -1\n", "fetch.timeout_s"),
    ("[sync]\nsettle_ms = -100\n", "sync.settle_ms"),
    ("[memory]\nhalf_life_days = 0\n", "memory.half_life_days"),
    ("max_file_bytes = true\n", "max_file_bytes"),
    ("max_file_bytes = -1\n", "max_file_bytes"),
    ("llm = 5\n", "llm"),
    ("llm = \"gpt4\"\n", "llm"),
    ("[memory]\nextract_llm = \"gpt4\"\n", "memory.extract_llm"),
    ("[search]\nkeyword_weight = nan\n", "search.keyword_weight"),  # every score would be NaN
    ("[memory]\nhalf_life_days = nan\n", "memory.half_life_days"),
    ("[fetch]\ntimeout_s = nan\n", "fetch.timeout_s"),
    ("[search]\nrecency_tau_days = inf\n", "search.recency_tau_days"),
    ("[jobs]\nbackoff_base_s = inf\n", "jobs.backoff_base_s"),
    ("[search]\nanswer_floor = 5\n", "search.answer_floor"),  # every question would abstain
    ("[server]\nport = 99999\n", "server.port"),  # review3: `cairn serve` died in uvicorn's bind()
    ("[imap]\nport = 70000\n", "imap.port"),
    ("[search]\nk = 100000000\n", "search.k"),  # `--k` allows 1000
])
def test_out_of_range_or_malformed_values_are_refused(tmp_path, text, key):
    with pytest.raises(ConfigError) as info:
        _load(tmp_path, text)
    assert key in str(info.value)


def test_valid_values_load(tmp_path):
    s = _load(tmp_path, "llm = \"openai:http://127.0.0.1:8080/v1:m\"\nmax_file_bytes = 1000\n"
                        "[chunk]\nmax_tokens = 200\n[search]\nk = 3\nfusion = \"rrf\"\n")
    assert (s.chunk.max_tokens, s.search.k, s.search.fusion, s.max_file_bytes) == (200, 3, "rrf", 1000)


def test_a_bad_config_loses_nothing_on_reindex(tmp_path, embedder):
    """The index built before the bad value is still there once the value is fixed."""
    from cairn.service import Cairn
    home = tmp_path / "home"
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# Boiler\n\nThe boiler pressure is 1.5 bar.\n", encoding="utf-8")
    with Cairn(home, embedder=embedder) as app:
        app.ingest([notes])
    (home / "config.toml").write_text("[chunk]\nmax_tokens = 0\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        Cairn(home, embedder=embedder)
    (home / "config.toml").write_text("", encoding="utf-8")
    with Cairn(home, embedder=embedder) as app:
        assert app.status()["notes"] == 1
        assert app.search("boiler pressure", mode="keyword").hits


def test_the_removed_answer_check_setting_is_refused_by_name(tmp_path):
    """`[search] answer_check` (the model's answer check, removed in session 21) is no setting
    any more: a config that still sets it is refused with an error naming the key."""
    (tmp_path / "config.toml").write_text("[search]\nanswer_check = true\n")
    with pytest.raises(ConfigError, match="answer_check"):
        load_settings(tmp_path)


@pytest.mark.parametrize("text", [
    "[assistant]\nmodel = \"nonsense:xx\"\n",  # newuser26: `cairn chat` ran on "none", no word said
    "[assistant]\nmodel = 3\n",
    "[assistant]\nmodel = \"gpt4\"\n",
    "[assistant]\nmodel = \"anthropic:\"\n",
])
def test_an_assistant_model_that_is_no_spec_is_refused_by_name(tmp_path, text):
    """`cairn chat --model nonsense:xx` is refused; the same spec in config.toml was taken and
    every new session quietly fell back to the offline layer (model "none", exit 0)."""
    with pytest.raises(ConfigError) as info:
        _load(tmp_path, text)
    assert "assistant.model" in str(info.value) and "anthropic:MODEL" in str(info.value)


@pytest.mark.parametrize("spec", ["", "none", "embedded", "embedded:qwen2.5-coder-0.5b",
                                  "openai:http://127.0.0.1:11434/v1:llama3", "anthropic:claude-x",
                                  "anthropic:https://example.org:claude-x"])
def test_every_assistant_model_form_still_loads(tmp_path, spec):
    assert _load(tmp_path, f"[assistant]\nmodel = \"{spec}\"\n").assistant.model == spec
