"""Enrichment: a gist, key points, tags and a category for a note, each grounded in its text.

With a language model, the model proposes {category, tags, gist, key_points} (JSON-schema
constrained); every item is checked against the note and dropped when unsupported:
- a key point or gist sentence needs GROUNDING (0.6) of its content terms in the note
  (answer.support.term_overlap, crude stemming), and any number it states must occur there;
- a tag must be a word (or hyphenated words) whose stem occurs in the note;
- the category must be one of CATEGORIES.
Without a model (or when every gist sentence is dropped) the gist is extractive: the
EXTRACT_SENTENCES sentences nearest the note's centroid (cosine of the local embeddings), in
document order, at most GIST_CHARS characters.

The result is stored in the note's frontmatter under one key, `enrichment` ({category, tags,
gist, key_points, by, at}), which the person may edit; a note that already has that key is
left as it is (never overwritten), and nothing else in the frontmatter is touched. A note
whose frontmatter cannot be parsed is not rewritten (case B04).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

from cairn.answer.support import content_terms, numbers_supported, sentences, stem, term_overlap
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


def extractive_gist(body: str, embedder) -> str:
    """The EXTRACT_SENTENCES sentences nearest the centroid of all sentences, in order."""
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


def _model_proposal(llm, title: str, body: str) -> dict:
    prompt = (f"Note title: {title}\n\nNote text:\n{body[:6000]}\n\n"
              "Describe this note: category (one of " + ", ".join(CATEGORIES) + "), up to 6 one-word tags "
              "taken from the text, a one-paragraph gist, and up to 5 key points. Use only facts in the note.")
    raw = llm.chat([{"role": "system", "content": "You summarise notes faithfully. Answer with JSON only."},
                    {"role": "user", "content": prompt}], max_tokens=400, json_schema=SCHEMA)
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


def enrich(app, ref: str, llm: str | None = None, now: datetime | None = None) -> Enrichment:
    """Enrich the note `ref` names (see the module docstring). llm: a model spec ("none",
    "embedded", "openai:BASE:MODEL"); None = "none". Raises NoteNotFound/AmbiguousNote,
    InvalidInput for a bad spec, Conflict when the frontmatter cannot be parsed. Model
    failures fall back to the extractive gist, with the reason."""
    from cairn import vault as V
    from cairn.llm import get_llm
    note = app.find_note(ref)
    path = app.settings.vault / note.path
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        meta, body = V.split_frontmatter(text)
    except ValueError as exc:
        raise Conflict(f"{note.path}: its frontmatter cannot be parsed ({exc}); not rewritten") from None
    result = Enrichment(note.id, note.path, "skipped")
    if "enrichment" in meta:
        result.reason = "the note already has an enrichment block (edit or remove it to redo)"
        return result
    try:
        model = get_llm(llm or "none")
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    added: dict = {}
    if model is not None:
        try:
            added, result.dropped = ground(_model_proposal(model, note.title, body), body)
            result.method = f"llm:{getattr(model, 'model', llm)}"
        except Exception as exc:  # a model failure never loses the extractive gist
            result.reason = f"the model failed ({exc}); extractive gist only"
    if "gist" not in added:
        added["gist"] = extractive_gist(body, app.embedder)
        result.method = result.method if result.method != "skipped" else "extractive"
    added["by"] = result.method
    added["at"] = (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    new_text = V.add_frontmatter_keys(text, {"enrichment": added})
    if new_text is None:
        raise Conflict(f"{note.path}: its frontmatter is not a mapping; not rewritten")
    V.atomic_write(path, new_text)
    app.sync([path])
    result.added = added
    return result
