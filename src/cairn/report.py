"""The report of an ingest, import or reindex run, and the progress callback's shape.

Kept apart from cairn.ingest (which imports numpy, the parsers and the vault code) so the
service and the adapters can name these types without paying for the ingest pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

Progress = Callable[[str, int, int], None]  # (phase, done, total)


@dataclass
class IngestReport:
    """Outcome of one ingest/import/reindex run. skipped/failed/warnings hold (name, detail)
    pairs, the other lists names. tombstoned: sources left alone because a note made from
    exactly these bytes was deleted in Cairn (only with `skip_tombstoned`, the watcher's
    inbox scan)."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)
    tombstoned: list[str] = field(default_factory=list)
    note_ids: list[str] = field(default_factory=list)  # notes added or updated (not in the JSON)
    embedded: int = 0
    reused_vectors: int = 0
    retried: int = 0  # transient job failures retried after a back-off
    # seconds since the process started at which each ingest phase ended (see ingest.run_jobs):
    # keyword_searchable_s (text sources indexed), parsed_s (images/audio/PDF too), embedded_s
    timings: dict[str, float] = field(default_factory=dict)
    # peak resident memory in MiB: "ingest" (this process), "parse_workers" (the largest worker)
    peak_rss_mib: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "added": len(self.added), "updated": len(self.updated),
            "unchanged": len(self.unchanged), "embedded_chunks": self.embedded,
            "skipped": [{"name": n, "reason": r} for n, r in self.skipped],
            "failed": [{"name": n, "reason": r} for n, r in self.failed],
            "warnings": [{"name": n, "warning": w} for n, w in self.warnings],
            "tombstoned": list(self.tombstoned),
            "timings": dict(self.timings), "peak_rss_mib": dict(self.peak_rss_mib),
        }


def json_type_name(value: Any) -> str:
    """How a JSON value's type is named in error messages: "a string", "a number", "null"..."""
    return {bool: "a boolean", int: "a number", float: "a number", list: "an array",
            dict: "an object", type(None): "null"}.get(type(value), type(value).__name__)


@dataclass
class ImportReport(IngestReport):
    """Outcome of `cairn import SOURCE PATH`: the IngestReport lists plus the importer's
    name and whether it was a dry run (then added/updated say what would change and nothing
    was written). JSON: IngestReport's keys plus "source", "dry_run", "facts_extracted" and "counts"
    {added, updated, unchanged, skipped} (numbers); "reminders" {added, updated, unchanged, past,
    skipped} when `cairn import ics --reminders` made reminders of the events."""

    source: str = ""
    dry_run: bool = False
    facts_extracted: int = 0  # facts found in the conversations added or updated
    reminders: dict | None = None  # cairn.schedule.calendar.CalendarReminders.to_json()

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out.update(source=self.source, dry_run=self.dry_run, facts_extracted=self.facts_extracted,
                   counts={"added": len(self.added), "updated": len(self.updated),
                           "unchanged": len(self.unchanged), "skipped": len(self.skipped)})
        if self.reminders is not None:
            out["reminders"] = self.reminders
        return out
