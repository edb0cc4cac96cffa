"""YouTube transcripts through the real youtube-transcript-api client against a local fake of
the endpoints: paragraphs with a link to their second in the video; bad addresses and videos
without a transcript are refused with the reason."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/fakes is a plain folder

from fakes.youtube_site import FakeYouTube  # noqa: E402

from cairn.fetch import FetchFailed  # noqa: E402
from cairn.sources.youtube import fetch_transcript, stamp, video_id  # noqa: E402

VID = "hEr0n_Hide1"
LINES = [("Welcome to the heron hide.", 0.0, 2.5), ("The herons arrive in March.", 2.5, 3.0),
         ("They nest in the alders by the mill pond.", 40.0, 4.0), ("Bring binoculars.", 3700.0, 2.0)]


@pytest.mark.parametrize("url, vid", [
    (f"https://www.youtube.com/watch?v={VID}", VID), (f"https://youtu.be/{VID}?t=3", VID),
    (f"https://m.youtube.com/shorts/{VID}", VID), (f"https://www.youtube.com/embed/{VID}", VID),
    ("https://www.youtube.com/watch?v=short", None), ("https://example.org/watch?v=" + VID, None),
    ("ftp://youtu.be/" + VID, None), ("not a url", None)])
def test_video_ids(url, vid):
    assert video_id(url) == vid


def test_transcript_paragraphs_link_to_their_second():
    with FakeYouTube({VID: LINES}) as yt:
        doc = fetch_transcript(f"https://youtu.be/{VID}", session=yt.session())
    paras = doc.body.split("\n\n")
    assert paras[0] == (f"[00:00](https://www.youtube.com/watch?v={VID}&t=0s) Welcome to the heron hide. "
                        "The herons arrive in March.")
    assert paras[1].startswith(f"[00:40](https://www.youtube.com/watch?v={VID}&t=40s) They nest in the alders")
    assert paras[2].startswith(f"[1:01:40](https://www.youtube.com/watch?v={VID}&t=3700s)")
    assert doc.meta["youtube_id"] == VID and doc.meta["transcript_language"] == "en"
    assert stamp(3700) == "1:01:40"


def test_unavailable_video_and_bad_address_are_refused():
    with FakeYouTube({VID: LINES}) as yt:
        with pytest.raises(FetchFailed, match="no transcript could be fetched"):
            fetch_transcript("https://www.youtube.com/watch?v=AAAAAAAAAAA", session=yt.session())
    with pytest.raises(FetchFailed, match="not a YouTube video address"):
        fetch_transcript("https://example.org/video")


def test_cairn_ingest_of_a_youtube_address_makes_a_cited_note(app, monkeypatch):
    from cairn.sources import youtube
    with FakeYouTube({VID: LINES}) as yt:
        monkeypatch.setattr(youtube, "session_factory", yt.session)
        report = app.ingest([f"https://www.youtube.com/watch?v={VID}"])
        assert not report.failed and not report.skipped, report.to_json()
        missing = app.ingest(["https://youtu.be/AAAAAAAAAAA"])
        assert missing.skipped and "no transcript" in missing.skipped[0][1]
    hits = app.search("where do the herons nest", k=3).hits
    assert hits[0].source == f"https://www.youtube.com/watch?v={VID}"
    ans = app.ask("Where do the herons nest?", llm="none")
    assert ans.verdict != "abstain" and "alders" in ans.answer
    assert f"watch?v={VID}&t=40s" in app.note_show(hits[0].note_id)["body"]
