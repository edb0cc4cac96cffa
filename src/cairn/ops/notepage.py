"""`NotePageOps`: what a note's page shows beside the note (`Cairn.note_context`) and the
images its markdown references (`Cairn.note_asset`), as operations of cairn.service.Cairn.

    note_context(ref) -> R.NoteContext {"entities": [{"id", "name", "count"}],
                                        "related": [{"id", "title", "path", "why", "score"}]}
    note_asset(ref, src) -> Path of an image file inside the vault

Related notes come by meaning (a semantic search for the note's title and opening text,
score = its fused score) and by shared entities (+0.15 per shared entity, at most 0.45);
`why` says which ("similar meaning", "mentions Ana, Porto"). Only notes the service's
person may read are listed.

`note_asset` resolves `src` as written in the note's markdown: relative to the note's
folder in the vault, then to the vault root (an absolute "/assets/x.png" or a vault path),
then, for a bare file name (Obsidian's `![[x.png]]`), the first file of that name in the
vault. The result must lie inside the vault (symlinks resolved: a link pointing outside is
refused), be a file, and have an image suffix (IMAGE_TYPES). NotFound otherwise, naming
`src`; a web address or a `..` that leaves the vault never reaches the disk outside it.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from cairn import results as R
from cairn.errors import NotFound

IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
               ".webp": "image/webp", ".svg": "image/svg+xml", ".avif": "image/avif", ".bmp": "image/bmp"}
ENTITY_BONUS, ENTITY_BONUS_MAX = 0.15, 0.45


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root)
        return True
    except (ValueError, OSError):
        return False


class NotePageOps:
    """Entities, related notes and images of one note (see the module docstring)."""

    def note_context(self, ref: str, *, k: int = 6) -> R.NoteContext:
        """The entities the note mentions and up to `k` related notes (best first)."""
        from cairn.store import graph as G
        note = self._visible_note(ref)
        entities = G.entities_of_note(self.conn, note.id)
        related: dict[str, dict] = {}
        body = (note.title or "") + "\n" + self.note_show(note.id)["body"][:400]
        if body.strip():
            for hit in self.search(body, mode="semantic", k=k + 4).hits:
                if hit.note_id != note.id and hit.note_id not in related:
                    related[hit.note_id] = {"id": hit.note_id, "title": hit.title, "path": hit.path,
                                            "why": "similar meaning", "score": round(hit.score, 3)}
        for other in G.notes_sharing_entities(self.conn, note.id, limit=k + 4):
            try:
                self._visible_note(other["id"])
            except (NotFound, ValueError):
                continue
            bonus = min(ENTITY_BONUS_MAX, ENTITY_BONUS * len(other["shared"]))
            why = "mentions " + ", ".join(other["shared"][:3])
            row = related.setdefault(other["id"], {"id": other["id"], "title": other["title"],
                                                   "path": other["path"], "why": why, "score": 0.0})
            if row["why"] != why:
                row["why"] = f"{row['why']}; {why}"
            row["score"] = round(row["score"] + bonus, 3)
        best = sorted(related.values(), key=lambda r: -r["score"])[:k]
        return R.NoteContext(entities=entities, related=best)

    def note_asset(self, ref: str, src: str) -> Path:
        """The image file `src` (as written in note `ref`'s markdown) inside the vault."""
        note = self._visible_note(ref)
        vault = Path(self.settings.vault).resolve()
        raw = unquote((src or "").split("#")[0].split("?")[0]).strip()
        missing = NotFound(f"no image {src!r} in the vault for note {note.path}")
        if not raw or "://" in raw or raw.startswith(("data:", "//")) or "\x00" in raw:
            raise missing
        if Path(raw).suffix.lower() not in IMAGE_TYPES:
            raise NotFound(f"{src!r} is not an image ({', '.join(sorted(IMAGE_TYPES))})")
        rel = PurePosixPath(raw.replace("\\", "/"))
        folder = (vault / note.path).parent
        candidates = [vault / str(rel).lstrip("/")] if raw.startswith("/") else [folder / str(rel), vault / str(rel)]
        if len(rel.parts) == 1:  # a bare name: the first file of that name anywhere in the vault
            candidates += sorted(p for p in vault.rglob(rel.name) if ".trash" not in p.parts)[:1]
        for path in candidates:
            if _inside(path, vault) and path.resolve().is_file():
                return path.resolve()
        raise missing
