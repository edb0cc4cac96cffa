"""Ingest a web page: fetch it (cairn.fetch: size, time and address limits) into a local
copy, then ingest that copy as a file with the URL as its source.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from cairn import vault as V
from cairn.config import Settings
from cairn.report import IngestReport
from cairn.ingest.files import ingest_file


_URL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+://")


def is_url(text: str) -> bool:
    """True when a command-line source is a URL (`scheme://...` or `data:`), not a path.
    Any scheme counts, so `file://` and `gopher://` reach the fetcher and are refused there
    by name instead of being looked up as odd file names."""
    return bool(_URL_RE.match(text)) or text[:5].lower() == "data:"


def _url_name(url: str, content_type: str) -> str:
    """A local file name for a fetched URL: host and last path segment, slugged, with a
    suffix that keeps markdown/plain text apart (content sniffing decides everything else)."""
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    stem = Path(parts.path.rstrip("/")).stem if parts.path.strip("/") else ""
    base = V.slugify(f"{parts.hostname or 'page'}-{stem}" if stem else (parts.hostname or "page"), 80)
    ctype = content_type.split(";")[0].strip().lower()
    if ctype in ("text/markdown", "text/x-markdown") or parts.path.lower().endswith((".md", ".markdown")):
        return base + ".md"
    return base + ".txt"


def ingest_url(conn: sqlite3.Connection, settings: Settings, url: str, report: IngestReport, *,
               resolver=None, connector=None, public_only: bool = False) -> None:
    """Fetch `url` (cairn.fetch: SSRF guard, size/time caps, `[fetch]` settings) and ingest
    the response like a file: its type is sniffed from the bytes; the note's source is the
    URL, `url` in its frontmatter the final URL after redirects. A refused or too large URL
    (or an HTTP 4xx) is reported as skipped (permanent, about the content); network errors
    and HTTP 5xx/429 are raised (FetchFailed with transient=True) for the job queue to retry;
    a host that does not exist or a TLS certificate that fails verification is raised as
    FetchUnreachable (permanent: the job is a dead letter at once, reported as failed).
    public_only: never a private or loopback address, whatever `[fetch] allow_private`
    (a URL a model asked for)."""
    import tempfile
    from cairn.fetch import FetchError, FetchUnreachable, URLRefused, fetch_url
    from cairn.sources import youtube

    if youtube.video_id(url):
        _ingest_youtube(conn, settings, url, report)
        return
    f = settings.fetch
    try:
        res = fetch_url(url, allow_private=f.allow_private and not public_only, max_bytes=min(f.max_url_bytes, settings.max_file_bytes),
                        timeout_s=f.timeout_s, max_redirects=f.max_redirects,
                        resolver=resolver, connector=connector)
    except FetchError as exc:
        if exc.transient or isinstance(exc, (FetchUnreachable, URLRefused)):
            raise  # a refusal is a failure (exit 1), not a skip: a script must tell it from success
        report.skipped.append((url, str(exc)))
        return
    tmp_root = settings.home / "tmp"
    tmp_root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        local = Path(tmp) / _url_name(res.final_url, res.content_type)
        local.write_bytes(res.data)
        ingest_file(conn, settings, local, None, report, source=url, name=url,
                    extra_meta={"url": res.final_url}, raise_errors=True)


def _ingest_youtube(conn: sqlite3.Connection, settings: Settings, url: str, report: IngestReport) -> None:
    """A YouTube address: its transcript (cairn.sources.youtube) stored as a markdown note
    whose paragraphs link to their second in the video. No transcript: skipped, with why."""
    import tempfile

    import yaml

    from cairn.fetch import FetchFailed
    from cairn.sources import youtube
    try:
        doc = youtube.fetch_transcript(url, session=youtube.session_factory() if youtube.session_factory else None)
    except FetchFailed as exc:
        if exc.transient:
            raise
        report.skipped.append((url, str(exc)))
        return
    tmp_root = settings.home / "tmp"
    tmp_root.mkdir(parents=True, exist_ok=True)
    head = yaml.safe_dump({"title": doc.title, **doc.meta}, sort_keys=False, allow_unicode=True)
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        local = Path(tmp) / f"youtube-{doc.meta['youtube_id']}.md"
        local.write_text(f"---\n{head}---\n\n{doc.body}\n", encoding="utf-8")
        ingest_file(conn, settings, local, None, report, source=url, name=url,
                    extra_meta={"url": url}, raise_errors=True)
