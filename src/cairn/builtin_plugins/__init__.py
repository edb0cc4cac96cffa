"""Cairn's built-in features as plugins (datasette's default_* modules, llm's default
plugins): each module implements one registration hook of cairn.hookspecs and is listed in
cairn.plugins.BUILTINS.

    llm_backends  "none", "embedded", "openai"        (register_llm_backends)
    parsers       every format of docs/formats.md      (register_parsers)
    embedders     "minilm"                             (register_embedders)
    importers     "notes", "chat"                      (register_importers)

These modules import only cairn.hookspecs at load time; each registered function imports
its backend, parser or model when it is called, so loading the plugins stays cheap.
"""
