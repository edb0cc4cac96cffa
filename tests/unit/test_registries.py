"""LLM backends, parsers, importers and embedders come from the plugin hooks: the built-ins
are registered like any plugin (cairn.builtin_plugins), a plugin can add a name or replace a
built-in one, and an unknown name is refused naming what is registered."""

from __future__ import annotations

import numpy as np
import pytest

from cairn import registries
from cairn.errors import InvalidInput, NotFound
from cairn.hookspecs import hookimpl
from cairn.plugins import load


class Echo:
    name = "echo"

    def __init__(self, spec):
        self.spec = spec

    def chat(self, messages, **kw):
        return messages[-1]["content"]


class TinyEmbedder:
    model_name = "tiny-hash"
    dim = 8

    def embed(self, texts):
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            out[i, hash(t) % self.dim] = 1.0
        return out


class Plugin:
    """A third-party plugin registered in-process (tests/interfaces covers entry points)."""

    imported: list = []

    @hookimpl
    def register_llm_backends(self, register):
        register("echo", Echo)

    @hookimpl
    def register_embedders(self, register):
        register("tiny", TinyEmbedder)

    @hookimpl
    def register_importers(self, register):
        def lines(app, path, progress=None, **options):
            Plugin.imported.append(path.name)
            for line in path.read_text().splitlines():
                app.ingest_text(line, folder="lines")
            from cairn.ingest import IngestReport
            return IngestReport()
        register("lines", lines)

    @hookimpl
    def register_parsers(self, register):
        def upper(data, name, **options):
            from cairn.model import ParsedDocument
            return ParsedDocument(kind="text", title="loud", body=data.decode().upper())
        register("text", upper)  # replaces the built-in plain-text parser


@pytest.fixture
def plugin():
    pm = load()
    p = Plugin()
    pm.register(p, name="test-plugin")
    registries.reset()
    yield p
    pm.unregister(name="test-plugin")
    registries.reset()


def test_builtins_are_registered_through_the_hooks():
    assert {"none", "embedded", "openai"} <= set(registries.llm_backends())
    assert {"pdf", "docx", "html", "markdown", "text", "image", "audio", "ipynb"} <= set(registries.parsers())
    assert set(registries.importers()) >= {"notes", "chat"}
    assert "minilm" in registries.embedders()


def test_llm_spec_picks_the_backend_by_scheme(plugin):
    from cairn.llm import get_llm
    from cairn.llm.client import OpenAICompatClient
    assert get_llm("none") is None
    assert isinstance(get_llm("openai:http://127.0.0.1:9/v1:m"), OpenAICompatClient)
    model = get_llm("echo:loud")
    assert isinstance(model, Echo) and model.spec == "echo:loud"
    for bad in ("nonsense", "none:x", "openai", "openai:not-a-url"):
        with pytest.raises(InvalidInput, match="invalid LLM spec"):
            get_llm(bad)


def test_a_plugin_embedder_is_chosen_by_name(plugin):
    from cairn.embed import get_embedder
    assert isinstance(get_embedder("tiny"), TinyEmbedder)
    with pytest.raises(InvalidInput, match="unknown embedder 'nope'.*minilm.*tiny"):
        get_embedder("nope")


def test_a_plugin_parser_replaces_a_builtin_one(plugin, tmp_path):
    from cairn.parse import parse_file
    f = tmp_path / "a.txt"
    f.write_text("quiet words\n")
    doc = parse_file(f)
    assert (doc.title, doc.body) == ("loud", "QUIET WORDS\n")


def test_builtin_parser_without_plugins(tmp_path):
    from cairn.parse import parse_file
    f = tmp_path / "a.txt"
    f.write_text("quiet words\n")
    assert parse_file(f).body == "quiet words\n"


def test_import_file_runs_a_plugin_importer_and_refuses_an_unknown_one(plugin, tmp_path):
    from cairn.service import Cairn
    src = tmp_path / "in.lines"
    src.write_text("the heron nests by the mill\nthe kettle whistles\n")
    with Cairn(tmp_path / "h", embedder=TinyEmbedder()) as app:
        app.import_file("lines", src)
        assert Plugin.imported == ["in.lines"]
        assert app.notes_list()["total"] == 2
        with pytest.raises(NotFound, match="no importer .csv.; registered: applenotes, bookmarks, chat, chatgpt, .*lines, .*notes"):
            app.import_file("csv", src)


def test_entry_point_prescan_finds_a_cairn_plugin_section(tmp_path, monkeypatch):
    """The cheap scan that spares importlib.metadata when no distribution declares a
    `cairn.plugins` entry point: it sees a declared one (any spacing), ignores other groups,
    and leaves a zip on sys.path to importlib.metadata."""
    from cairn import plugins
    site = tmp_path / "site"
    other = site / "other-1.0.dist-info"
    other.mkdir(parents=True)
    (other / "entry_points.txt").write_text("[console_scripts]\nx = y:z\n[cairn.plugins.extra]\na = b\n")
    monkeypatch.setattr("sys.path", [str(site), str(tmp_path / "missing")])
    assert plugins._scan_entry_points() is False
    mine = site / "mine-2.0.dist-info"
    mine.mkdir()
    (mine / "entry_points.txt").write_text("[console_scripts]\nm = n\n\n [ cairn.plugins ]\r\nmine = mine_mod\r\n")
    assert plugins._scan_entry_points() is True
    (mine / "entry_points.txt").unlink()
    zipped = tmp_path / "plugins.zip"
    zipped.write_bytes(b"PK\x05\x06" + b"\0" * 18)
    monkeypatch.setattr("sys.path", [str(site), str(zipped)])
    assert plugins._scan_entry_points() is True


def test_each_registry_hook_has_one_builtin_module():
    """plugins.load_for registers only cairn.builtin_plugins.<kind> to build a registry when
    no third-party plugin is installed: no other built-in may implement those hooks."""
    import importlib

    from cairn.plugins import BUILTINS
    for kind, hook in registries.HOOKS.items():
        having = [name for name in BUILTINS if hasattr(importlib.import_module(name), hook)]
        assert having == [f"cairn.builtin_plugins.{kind}"], (hook, having)
