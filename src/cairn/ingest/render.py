"""The vault note of an ingested source: where it goes in the vault and its text.

A markdown source is copied as written, with Cairn's keys added to its frontmatter (never
rewriting a malformed block). Any other kind (PDF, web page, image, audio, email, ...)
becomes a generated note: frontmatter with the document's metadata (`generator: cairn`), the
parsed text as body, the original file kept under `_files/<sha256><ext>` and linked from the
note for images and recordings; page offsets are shifted to stay valid in the written body.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from cairn import paths as P
from cairn import vault as V
from cairn.config import Settings
from cairn.model import input_source_of
from cairn.model import ParsedDocument
from cairn.parse import original_suffix
from cairn.parse.markdown import note_stem
from cairn.parse.text import decode_bytes
from cairn.store import notes as N
from cairn.people import keeps_owner

# Metadata copied from a parsed document into a generated note: as text, and as they are.
_TEXT_META = ("author", "url", "date", "sitename", "from", "to", "cc", "subject", "camera", "taken", "format",
              "language")
_VALUE_META = ("width", "height", "duration", "file_size", "slides", "sheets", "attachments", "ocr_pages",
               "asr", "ocr")


@dataclass
class VaultNote:
    """A note to write: its id, vault-relative path, full text, and `conflict(relpath)`, the
    text of the same version written as a conflict copy at `relpath` beside an edited copy."""

    note_id: str
    relpath: str
    text: str
    conflict: Callable[[str], str]


def markdown_relpath(src: Path, root: Path | None, real_src: Path | None = None) -> str:
    """`notes/<root folder name>/<path under root>` for a file of an ingested folder, else
    `notes/<file name>`, each name made portable (cairn.paths.portable_name: "What?" ->
    "What-", "CON" -> "CON_", a trailing dot or space dropped). real_src:
    `cairn.paths.resolved(src)` when the caller has it already."""
    if root is not None:
        real_root = P.resolved(root)
        relpath = (Path(real_root.name or "root") / (real_src or P.resolved(src)).relative_to(real_root)).as_posix()
    else:
        relpath = src.name
    parts = _NAME_CONTROLS.sub(_name_char, relpath).split("/")
    return "notes/" + "/".join(P.portable_name(part) for part in parts)


# Control characters in a source's file name (a line break, an escape sequence: legal on Linux)
# are left out of its vault copy's name, a line break or tab read as a space: the vault is
# plain files other tools (editors, sync apps, other systems) must be able to name.
_NAME_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")


def _name_char(m: re.Match) -> str:
    return " " if m.group(0) in "\t\n\r" else ""


def _portable_suffix(ext: str | None) -> str | None:
    """The suffix of an original kept under `_files/`: its letters and digits only (a source
    named `scan.ti*f` is kept as `<sha256>.tif`), at most 10; ".bin" when none is left."""
    if not ext:
        return ext
    kept = re.sub(r"[^0-9A-Za-z]", "", ext)[:10]
    return f".{kept}" if kept else ".bin"


def generated_relpath(kind: str, title: str, created: str | None) -> str:
    """`<kind>/<YYYY-MM-DD>-<slug of title>.md` (the day the document was created, else today)."""
    day = (created or N.now_iso())[:10]
    return f"{kind}/{day}-{V.slugify(title)}.md"


def render_markdown(settings: Settings, src: Path, root: Path | None, data: bytes, source: str,
                    source_hash: str, existing: N.NoteRow | None, enrichment: dict | None = None,
                    real_src: Path | None = None, title: str | None = None) -> VaultNote:
    """The vault copy of a markdown source: its text with cairn_id / cairn_source /
    cairn_source_hash (and `enrichment`, when given) added to the frontmatter (verbatim when
    the block is malformed), at the existing note's path or a new unique one. real_src:
    `cairn.paths.resolved(src)` when the caller has it. title: the source's title as parsed;
    when it is its file name and that name had to be made portable (`markdown_relpath`), it
    is written as `title:` so the note keeps the name the person gave it."""
    vault = settings.vault
    note_id = existing.id if existing else V.stable_id("src:" + source)
    text = decode_bytes(data)[0] if data.strip() else ""
    keys: dict[str, Any] = {"cairn_id": note_id, "cairn_source": source, "cairn_source_hash": source_hash,
                            **keeps_owner(existing.meta if existing else None, settings.owner)}
    if enrichment:
        keys["enrichment"] = enrichment
    if title and P.portable_name(src.name) != src.name and title == note_stem(src.name):
        keys = {"title": title, **keys}  # the file name made portable: the name given stays the title
    new_text = V.add_frontmatter_keys(text, keys)
    if new_text is None:
        new_text = text  # malformed frontmatter: copy verbatim, never rewrite the block
    relpath = existing.path if existing else V.own_or_unique(
        vault, markdown_relpath(src, root, real_src), note_id, new_text)

    def conflict(crel: str) -> str:
        ckeys = {"cairn_id": V.stable_id("conflict:" + crel), "cairn_source_hash": source_hash,
                 "cairn_conflict_of": relpath, "cairn_conflict_source": source}
        return V.add_frontmatter_keys(text, ckeys) or text
    return VaultNote(note_id, relpath, new_text, conflict)


def render_generated(settings: Settings, src: Path, doc: ParsedDocument, source: str, source_hash: str,
                     existing: N.NoteRow | None, enrichment: dict | None = None) -> VaultNote:
    """The generated note of a parsed non-markdown document (see the module docstring), with
    its `enrichment` block when given.
    Copies the original file into `_files/` once (by content hash). Raises OSError if that
    copy cannot be written."""
    vault = settings.vault
    note_id = existing.id if existing else V.stable_id("src:" + source)
    title = doc.title or src.stem
    relpath = existing.path if existing else V.own_or_unique(
        vault, generated_relpath(doc.kind, title, doc.created), note_id, None)
    fm: dict[str, Any] = {**keeps_owner(existing.meta if existing else None, settings.owner), "generator": "cairn", "id": note_id, "title": title,
                          "type": doc.kind,
                          "source": source, "source_hash": source_hash,
                          "created": doc.created or N.now_iso(), "ingested": N.now_iso(),
                          "input_source": input_source_of({"source": source}, doc.kind)}
    for key, value in (("updated", doc.updated), ("tags", doc.tags), ("encoding", doc.encoding)):
        if value:
            fm[key] = value
    if doc.pages:
        fm["pages"] = None  # keeps its place among the keys; offsets filled in below
    fm.update({k: str(doc.meta[k]) for k in _TEXT_META if doc.meta.get(k)})
    fm.update({k: doc.meta[k] for k in _VALUE_META if doc.meta.get(k)})
    if doc.warnings:
        fm["warnings"] = doc.warnings
    if enrichment:
        fm["enrichment"] = enrichment
    ext = _portable_suffix(original_suffix(doc, src))
    dest = vault / "_files" / f"{source_hash}{ext}"
    if ext:
        if not dest.exists():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
        fm["file"] = f"_files/{source_hash}{ext}"
    # The vault body is the parsed text stripped of outer blank space; page offsets are
    # shifted to match so they stay valid when the note is read back.
    lead = len(doc.body) - len(doc.body.lstrip())
    body = doc.body.strip()
    if ext and doc.kind in ("image", "audio"):
        # Images and recordings are shown/linked from their note by a relative markdown link
        # (rendered by Obsidian and other editors), after the text so that search snippets
        # start with the OCR text / transcript; page offsets are unaffected.
        link = os.path.relpath(dest, (vault / relpath).parent).replace(os.sep, "/")
        label = title.replace("]", ")").replace("[", "(")
        ref = f"![{label}]({link})" if doc.kind == "image" else f"[{label}]({link})"
        body = f"{body}\n\n{ref}" if body else ref
    if doc.pages:
        fm["pages"] = [[p.page, max(0, p.start - lead), min(len(body), max(0, p.end - lead))] for p in doc.pages]

    def conflict(crel: str) -> str:
        cfm = {k: v for k, v in fm.items() if k != "source"}
        cfm.update(id=V.stable_id("conflict:" + crel), conflict_of=relpath, conflict_source=source)
        return V.render_note(cfm, body)
    return VaultNote(note_id, relpath, V.render_note(fm, body), conflict)
