"""YouTube videos: the transcript, with a timestamp link per paragraph, as a document.

`cairn ingest https://www.youtube.com/watch?v=ID` (also youtu.be/ID, /shorts/ID, /embed/ID)
stores the video's transcript through the youtube-transcript-api library (MIT): a network
request the person made by ingesting the address. Each paragraph of the note starts with a
link to its second in the video, `[MM:SS](https://www.youtube.com/watch?v=ID&t=Ss)`, so a
citation of that paragraph points at the moment it was said. Paragraphs gather snippets until
PARAGRAPH_S seconds or a sentence end past half of it. The transcript language is English
when there is one, else the first listed. Errors: FetchFailed naming the video and reason.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from cairn.model import ParsedDocument

PARAGRAPH_S = 30.0
# A callable returning the requests.Session transcript fetches use (None = a plain one);
# tests point it at a local fake of the endpoints.
session_factory = None
_ID = re.compile(r"^[A-Za-z0-9_-]{11}$")


def video_id(url: str) -> str | None:
    """The 11-character video id of a YouTube address, or None for anything else."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if parts.scheme not in ("http", "https"):
        return None
    if host == "youtu.be":
        vid = parts.path.strip("/").split("/")[0]
    elif host in ("youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com"):
        if parts.path == "/watch":
            vid = (parse_qs(parts.query).get("v") or [""])[0]
        else:
            m = re.match(r"^/(shorts|embed|live|v)/([^/?#]+)", parts.path)
            vid = m.group(2) if m else ""
    else:
        return None
    return vid if _ID.match(vid) else None


def stamp(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60:02d}:{s % 60:02d}"


def transcript_document(vid: str, snippets: list[dict], language: str = "", generated: bool = False) -> ParsedDocument:
    """A ParsedDocument from transcript snippets [{"text", "start", "duration"}] (seconds)."""
    paras: list[tuple[float, list[str]]] = []
    for sn in snippets:
        text = " ".join(str(sn.get("text", "")).split())
        if not text:
            continue
        start = float(sn.get("start", 0.0))
        if not paras or start - paras[-1][0] >= PARAGRAPH_S or (
                start - paras[-1][0] >= PARAGRAPH_S / 2 and re.search(r"[.!?]$", paras[-1][1][-1])):
            paras.append((start, []))
        paras[-1][1].append(text)
    body = "\n\n".join(f"[{stamp(t)}](https://www.youtube.com/watch?v={vid}&t={int(t)}s) " + " ".join(words)
                       for t, words in paras)
    warnings = [] if body else ["the transcript is empty"]
    meta = {"youtube_id": vid, "transcript_language": language, "transcript_generated": generated}
    return ParsedDocument(kind="youtube", title=f"YouTube video {vid}", body=body, meta=meta, warnings=warnings)


def fetch_transcript(url: str, session=None) -> ParsedDocument:
    """Fetch the transcript of the video at `url`. session: a requests.Session (tests route it
    to a local fake). Raises FetchFailed (from cairn.fetch) with the reason."""
    from cairn.fetch import FetchFailed
    vid = video_id(url)
    if vid is None:
        raise FetchFailed(f"{url}: not a YouTube video address", transient=False)
    try:
        from youtube_transcript_api import YouTubeTranscriptApi
        api = YouTubeTranscriptApi(http_client=session)
        listing = api.list(vid)
        try:
            tr = listing.find_transcript(["en", "en-US", "en-GB"])
        except Exception:
            tr = next(iter(listing))
        fetched = tr.fetch()
    except StopIteration:
        raise FetchFailed(f"{url}: the video has no transcript", transient=False) from None
    except Exception as exc:
        reason = str(exc).strip().splitlines()
        raise FetchFailed(f"{url}: no transcript could be fetched ({type(exc).__name__}: "
                          f"{(reason[0] if reason else '')[:200]})", transient=False) from None
    return transcript_document(vid, fetched.to_raw_data(), fetched.language_code, fetched.is_generated)
