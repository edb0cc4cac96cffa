"""A local fake of the three YouTube endpoints a transcript fetch uses (watch page, player API,
timed text), and a requests.Session that sends https://www.youtube.com/... to it.

    with FakeYouTube({"abcdefghijk": [("Hello there.", 0.0, 2.0), ...]}) as yt:
        session = yt.session()
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape


class FakeYouTube:
    def __init__(self, videos: dict[str, list[tuple[str, float, float]]]):
        self.videos = videos
        self.requests: list[str] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _send(self, status, body: str, ctype="text/html"):
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                fake.requests.append(self.path)
                u = urlsplit(self.path)
                q = parse_qs(u.query)
                if u.path == "/watch":
                    return self._send(200, '<html><script>var cfg = {"INNERTUBE_API_KEY":"fakeKey_123"};</script></html>')
                if u.path == "/api/timedtext":
                    lines = fake.videos.get(q.get("v", [""])[0], [])
                    xml = "<transcript>" + "".join(
                        f'<text start="{s}" dur="{d}">{escape(t)}</text>' for t, s, d in lines) + "</transcript>"
                    return self._send(200, xml, "text/xml")
                self._send(404, "not found")

            def do_POST(self):
                fake.requests.append(self.path)
                n = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(n) or b"{}")
                vid = body.get("videoId", "")
                if vid not in fake.videos:
                    out = {"playabilityStatus": {"status": "ERROR", "reason": "This video is unavailable"}}
                else:
                    out = {"playabilityStatus": {"status": "OK"},
                           "captions": {"playerCaptionsTracklistRenderer": {"captionTracks": [{
                               "baseUrl": f"https://www.youtube.com/api/timedtext?v={vid}&lang=en",
                               "name": {"runs": [{"text": "English"}]}, "languageCode": "en",
                               "isTranslatable": False}], "translationLanguages": []}}}
                self._send(200, json.dumps(out), "application/json")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def session(self):
        """A requests.Session whose every request goes to this fake instead."""
        import requests
        from requests.adapters import HTTPAdapter
        port = self.port

        class ToFake(HTTPAdapter):
            def send(self, request, **kw):
                u = urlsplit(request.url)
                request.url = f"http://127.0.0.1:{port}{u.path}" + (f"?{u.query}" if u.query else "")
                return super().send(request, **kw)
        s = requests.Session()
        s.mount("https://", ToFake())
        s.mount("http://", ToFake())
        return s

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
