"""Enrichment: a gist, key points, tags and a category for a note, each grounded in its text.

With a language model, the model proposes {category, tags, gist, key_points} (JSON-schema
constrained); every item is checked against the note and dropped when unsupported:
- a key point or gist sentence needs GROUNDING (0.6) of its content terms in the note
  (lexical.term_overlap, crude stemming), and any number it states must occur there;
- a tag must be a word (or hyphenated words) whose stem occurs in the note;
- the category must be one of CATEGORIES.
Without a model (or when every gist sentence is dropped) the gist is extractive: the
EXTRACT_SENTENCES sentences nearest the note's centroid (cosine of the local embeddings), in
document order, at most GIST_CHARS characters.

The result is stored in the note's frontmatter under one key, `enrichment` ({category, tags,
gist, key_points, by, at}), which the person may edit; a note that already has that key is
left as it is (never overwritten), and nothing else in the frontmatter is touched. A note
whose frontmatter cannot be parsed is not rewritten (case B04).

On ingest ([ingest] enrich, cairn.ingest.files) each new note is written with a block whose
gist is lexical (`lexical_gist`: no embeddings, so ingest stays fast) and `by: ingest`. That
block, and only that one, may later be replaced: by the model's enrichment after the ingest
when a model is configured, or by `cairn enrich`, as long as the vault copy is exactly as
Cairn wrote it (the person has not edited it).

While it works, enrichment is published on the event bus as it is produced (EchOS E18;
`GET /events`): `enrich.started`, then one `enrich.item` per category, tag, gist or key point
the moment the streaming model has written it whole (cairn.llm.stream_items), already checked
against the note (`kept`, and `why` when dropped), then `enrich.done` with what was stored.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

from cairn.lexical import content_terms, numbers_supported, sentences, stem, term_overlap
from cairn.errors import Conflict, InvalidInput

GROUNDING = 0.6
EXTRACT_SENTENCES = 2
GIST_CHARS = 500
CATEGORIES = ("work", "personal", "health", "finance", "home", "travel", "learning", "reference",
              "project", "people", "other")
SCHEMA = {"type": "object", "additionalProperties": False,
          "required": ["category", "tags", "gist", "key_points"],
          "properties": {"category": {"enum": list(CATEGORIES)},
                         "tags": {"type": "array", "maxItems": 6, "items": {"type": "string", "maxLength": 30}},
                         "gist": {"type": "string", "maxLength": 500},
                         "key_points": {"type": "array", "maxItems": 5,
                                        "items": {"type": "string", "maxLength": 200}}}}


@dataclass
class Enrichment:
    """What enrichment stored (`added`), what it dropped as unsupported and why, and how."""

    note_id: str
    path: str
    method: str  # "extractive" | "llm:<model>" | "skipped"
    added: dict = field(default_factory=dict)
    dropped: list[dict] = field(default_factory=list)
    reason: str | None = None

    def to_json(self) -> dict:
        return {"note_id": self.note_id, "path": self.path, "method": self.method, "added": self.added,
                "dropped": self.dropped, "reason": self.reason}


def supported(claim: str, text: str) -> bool:
    """True when `claim`'s content terms are grounded in `text` (>= GROUNDING) and every
    number it states occurs in `text`."""
    return bool(content_terms(claim)) and term_overlap(claim, text) >= GROUNDING and numbers_supported(claim, text)


_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t].*$", re.M)


def _without_headings(body: str) -> str:
    """`body` with its markdown heading lines blanked (same length, so offsets hold): a
    heading is a title, not a sentence, and without a full stop it would run into the next
    line's sentence ("Lunch with Ada Met Ada at the cafe ...")."""
    return _HEADING.sub(lambda m: " " * len(m.group(0)), body)


def extractive_gist(body: str, embedder) -> str:
    """The EXTRACT_SENTENCES sentences nearest the centroid of all sentences, in order
    (heading lines are not sentences)."""
    body = _without_headings(body)
    spans = [(s, e) for s, e in sentences(body) if len(content_terms(body[s:e])) >= 3]
    if not spans:
        return body.strip()[:GIST_CHARS]
    texts = [" ".join(body[s:e].split()) for s, e in spans]
    if len(texts) <= EXTRACT_SENTENCES:
        return " ".join(texts)[:GIST_CHARS]
    import numpy as np
    vecs = np.asarray(embedder.embed(texts), dtype=np.float32)
    centre = vecs.mean(axis=0)
    order = np.argsort(-(vecs @ centre))[:EXTRACT_SENTENCES]
    out = ""
    for i in sorted(int(i) for i in order):
        if len(out) + len(texts[i]) > GIST_CHARS:
            break
        out = (out + " " + texts[i]).strip()
    return out or texts[int(order[0])][:GIST_CHARS]


def lexical_gist(body: str) -> str:
    """An extractive gist without embeddings: the EXTRACT_SENTENCES sentences (of at least 3
    content terms) whose stemmed-term vector has the highest cosine with the whole note's
    term-frequency vector (centroid-based summarisation: Radev et al., "Centroid-based
    summarization of multiple documents", Information Processing & Management 40(6), 2004),
    in document order, at most GIST_CHARS characters; "" for a note without such sentences
    and without text. Heading lines are not sentences."""
    import math
    from collections import Counter
    body = _without_headings(body)
    terms_of = [(s, e, content_terms(body[s:e])) for s, e in sentences(body)]
    kept = [(s, e, terms) for s, e, terms in terms_of if len(terms) >= 3]
    if not kept:
        return " ".join(body.split())[:GIST_CHARS]
    texts = [" ".join(body[s:e].split()) for s, e, _ in kept]
    if len(texts) <= EXTRACT_SENTENCES:
        return " ".join(texts)[:GIST_CHARS]
    vectors = [Counter(stem(t) for t in terms) for _, _, terms in kept]
    centre: Counter = Counter()
    for v in vectors:
        centre.update(v)
    centre_norm = math.sqrt(sum(c * c for c in centre.values()))

    def cosine(v: Counter) -> float:
        norm = math.sqrt(sum(c * c for c in v.values()))
        return sum(c * centre[t] for t, c in v.items()) / (norm * centre_norm) if norm and centre_norm else 0.0
    order = sorted(range(len(texts)), key=lambda i: (-cosine(vectors[i]), i))[:EXTRACT_SENTENCES]
    out = ""
    for i in sorted(order):
        if len(out) + len(texts[i]) + 1 > GIST_CHARS:
            break
        out = (out + " " + texts[i]).strip()
    return out or texts[order[0]][:GIST_CHARS]


INGEST_METHOD = "ingest"  # `by` of the block written with a newly ingested note


def ingest_block(body: str, now: datetime | None = None, *, gist: str | None = None) -> dict | None:
    """The `enrichment` block written with a newly ingested note ([ingest] enrich): its
    lexical gist (`gist` when the caller computed `lexical_gist(body)` already, as the
    ingest's text lane does in a worker), `by: ingest` and `at` (UTC ISO time); None when
    the note has no text."""
    if gist is None:
        gist = lexical_gist(body)
    if not gist.strip():
        return None
    return {"gist": gist, "by": INGEST_METHOD,
            "at": (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")}


def _model_proposal(llm, title: str, body: str, on_item=None) -> dict:
    """The model's proposal (a dict of SCHEMA). on_item(field, value): called for each item
    as soon as it is complete (cairn.llm.stream_items), while the reply streams when the model
    can stream (`chat_stream`), else once the whole reply is in."""
    from cairn.llm.stream_items import ItemStream
    prompt = (f"Note title: {title}\n\nNote text:\n{body[:6000]}\n\n"
              "Describe this note: category (one of " + ", ".join(CATEGORIES) + "), up to 6 one-word tags "
              "taken from the text, a one-paragraph gist, and up to 5 key points. Use only facts in the note.")
    msgs = [{"role": "system", "content": "You summarise notes faithfully. Answer with JSON only."},
            {"role": "user", "content": prompt}]
    items = ItemStream()

    def feed(piece: str) -> None:
        for field_name, value in items.feed(piece):
            on_item(field_name, value)
    if on_item is not None and hasattr(llm, "chat_stream"):
        raw = llm.chat_stream(msgs, feed, max_tokens=400, json_schema=SCHEMA)
    else:
        raw = llm.chat(msgs, max_tokens=400, json_schema=SCHEMA)
        if on_item is not None:
            feed(raw)
    data = json.loads(raw)
    if not isinstance(data, dict):
        raise ValueError("the model did not answer with a JSON object")
    return data


def ground(proposal: dict, body: str) -> tuple[dict, list[dict]]:
    """(kept items, dropped items with reasons) of a model's proposal, checked against `body`."""
    kept: dict = {}
    dropped: list[dict] = []
    if proposal.get("category") in CATEGORIES:
        kept["category"] = proposal["category"]
    elif proposal.get("category"):
        dropped.append({"item": "category", "value": proposal["category"], "why": "not a known category"})
    stems = {stem(t) for t in content_terms(body)}
    tags = []
    for tag in proposal.get("tags") or []:
        words = [w for w in re.split(r"[-\s]+", str(tag).lower().strip("# ")) if w]
        if words and all(stem(w) in stems for w in words) and len(tags) < 6:
            tags.append("-".join(words))
        else:
            dropped.append({"item": "tag", "value": tag, "why": "not in the note"})
    if tags:
        kept["tags"] = sorted(set(tags), key=tags.index)
    gist_parts = []
    gist = str(proposal.get("gist") or "")
    for s, e in sentences(gist):
        part = gist[s:e]
        (gist_parts.append(part) if supported(part, body)
         else dropped.append({"item": "gist", "value": part, "why": "not supported by the note"}))
    if gist_parts:
        kept["gist"] = " ".join(gist_parts)
    points = []
    for p in proposal.get("key_points") or []:
        p = str(p).strip()
        (points.append(p) if p and supported(p, body)
         else dropped.append({"item": "key_point", "value": p, "why": "not supported by the note"}))
    if points:
        kept["key_points"] = points
    return kept, dropped


ITEM_FIELDS = {"category": "category", "tag": "tags", "gist": "gist", "key_point": "key_points"}


def ground_item(field_name: str, value: str, body: str) -> tuple[str | None, str | None]:
    """One streamed item (field "category", "tag", "gist" or "key_point") checked like
    `ground` checks a whole proposal: (the value kept — for a gist, its supported sentences —
    or None, and why it was dropped)."""
    key = ITEM_FIELDS[field_name]
    kept, dropped = ground({key: [value] if key in ("tags", "key_points") else value}, body)
    got = kept.get(key)
    if isinstance(got, list):
        got = got[0] if got else None
    return got, (dropped[0]["why"] if dropped and got is None else None)


def _publisher(app, note):
    """A function publishing enrich.* events of `note` on the service's bus (a no-op without one)."""
    bus = getattr(app, "events", None)

    def publish(kind: str, data: dict) -> None:
        if bus is not None:
            bus.publish(kind, {"note_id": note.id, "title": note.title, **data})
    return publish


def enrich(app, ref: str, llm: str | None = None, now: datetime | None = None, *,
           model_only: bool = False) -> Enrichment:
    """Enrich the note `ref` names (see the module docstring). llm: a model spec ("none",
    "embedded", "openai:BASE:MODEL"); None = "none". The block Cairn wrote at ingest
    (`by: ingest`) is replaced as long as the vault copy is still exactly as Cairn wrote it
    (cairn.conflicts: the person has not edited it); any other block is kept.
    model_only (the pass after an ingest): only a model's enrichment replaces the ingest
    block; without a model, or when the model fails, it stays. Raises
    NoteNotFound/AmbiguousNote, InvalidInput for a bad spec, Conflict when the frontmatter
    cannot be parsed, paths.PathOutside when the note's file leads out of the vault. Model failures fall back to the extractive gist, with the reason."""
    from cairn import vault as V
    from cairn.llm import get_llm
    from cairn.parse.text import note_text_to_rewrite
    from cairn import paths as P
    note = app.find_note(ref)
    path = app.settings.vault / note.path
    reason = P.escape_reason(app.settings.vault, path)  # as noteops.note_file (which imports this module)
    if reason is not None:
        raise P.PathOutside(f"note {note.path}: {reason}; Cairn does not read, change or move files "
                            "outside the vault (`cairn sync` drops this note from the index)")
    text, meta, body = V.read_for_rewrite(path, note.path, note_text_to_rewrite)
    result = Enrichment(note.id, note.path, "skipped")
    from cairn import conflicts as C
    cairns_copy = not C.copy_edited(app.conn, path, note.id, note.file_hash)
    own_block = cairns_copy and _ingest_block(meta)
    if "enrichment" in meta and not own_block:
        result.reason = "the note already has an enrichment block (remove it to redo)"
        return result
    try:
        model = get_llm(llm or "none")
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    if model_only and model is None:
        result.reason = "no model configured: the extractive gist written at ingest stays"
        return result
    added: dict = {}
    publish = _publisher(app, note)  # each item on the event bus as it is produced (E18)
    publish("enrich.started", {"model": getattr(model, "name", None) if model is not None else None})

    def on_item(field_name: str, value: str) -> None:
        kept, why = ground_item(field_name, value, body)
        publish("enrich.item", {"field": field_name, "value": kept if kept is not None else value,
                                "kept": kept is not None, **({"why": why} if why else {})})
    if model is not None:
        try:
            added, result.dropped = ground(_model_proposal(model, note.title, body, on_item), body)
            result.method = f"llm:{getattr(model, 'model', llm)}"
        except Exception as exc:  # a model failure never loses the extractive gist
            result.reason = f"the model failed ({exc}); extractive gist only"
            if model_only:  # the block written at ingest stays as it was
                publish("enrich.done", {"stored": False, "reason": result.reason})
                return result
    if "gist" not in added:
        added["gist"] = extractive_gist(body, app.embedder)
        publish("enrich.item", {"field": "gist", "value": added["gist"], "kept": True, "extractive": True})
        result.method = result.method if result.method != "skipped" else "extractive"
    added["by"] = result.method
    added["at"] = (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    new_text = V.add_frontmatter_keys(text, {"enrichment": added})
    if new_text is None:
        raise Conflict(f"{note.path}: its frontmatter is not a mapping; not rewritten")
    from cairn.parse.text import encode_like
    data = path.read_bytes()
    new_data = encode_like(V.with_newlines_of(new_text, data), data, note.path)  # its own encoding
    if cairns_copy:  # still Cairn's copy of its source: a later ingest may replace it
        from cairn.store.copies import record_write
        record_write(app.conn, note.id, V.sha256_bytes(new_data))
    from cairn.store import history as H  # the note's state before Cairn rewrites it is kept
    H.record(app.settings.home, note.id, note.path, data, by="outside", action="seen", only_if_new=True)
    V.atomic_write_bytes(path, new_data)
    app.sync([path])
    result.added = added
    publish("enrich.done", {"stored": True, "method": result.method, "added": added,
                            "dropped": len(result.dropped)})
    return result


def _ingest_block(meta: dict) -> bool:
    """True when the note's enrichment block is the one written at ingest."""
    block = meta.get("enrichment")
    return isinstance(block, dict) and block.get("by") == INGEST_METHOD
