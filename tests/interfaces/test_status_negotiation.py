"""/status answers a browser with the page and a script with the JSON of `cairn status --json`."""

from __future__ import annotations

from rest_support import RestServer


def test_status_page_or_json_by_accept(tmp_path):
    with RestServer(tmp_path / "home") as srv, srv.client() as c:
        page = c.get("/status", headers={"Accept": "text/html,application/xhtml+xml"})
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        data = c.get("/status", headers={"Accept": "application/json"}).json()
        assert data["missing_vectors"] == 0 and data == c.get("/api/status").json()
        import json
        import urllib.request
        req = urllib.request.Request(srv.base + "/status")  # urllib sends no Accept header: JSON
        assert "notes" in json.loads(urllib.request.urlopen(req, timeout=60).read())
