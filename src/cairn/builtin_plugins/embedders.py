"""The built-in embedder, registered through the `register_embedders` hook like any
plugin's: "minilm", all-MiniLM-L6-v2 (384-d) on onnxruntime (cairn.embed.minilm), created on
first use."""

from __future__ import annotations

from cairn.hookspecs import hookimpl


def minilm():
    """The process-wide shared all-MiniLM-L6-v2 embedder (cairn.embed.get_embedder)."""
    from cairn.embed import shared_minilm
    return shared_minilm()


@hookimpl
def register_embedders(register):
    register("minilm", minilm)
