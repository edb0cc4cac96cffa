"""The command line prints Cairn's own reasons, not a library's log lines (probe23):
ingesting a page without readable text (a script-only page) printed trafilatura's
"WARNING trafilatura.core: discarding data: None" above Cairn's "no visible text in the HTML
page" (`--verbose` still shows such lines)."""

from __future__ import annotations

import os
import subprocess
import sys


def test_a_page_without_text_is_reported_without_the_extractors_log_line(tmp_path):
    page = tmp_path / "app.html"
    page.write_text("<html><head><title>App</title></head><body><script>boot()</script></body></html>")

    def ingest(*flags):
        return subprocess.run([sys.executable, "-m", "cairn", "--home", str(tmp_path / "home"), *flags,
                               "ingest", str(page)], capture_output=True, text=True, timeout=300,
                              env=dict(os.environ))
    r = ingest()
    assert r.returncode == 0 and "no visible text in the HTML page" in r.stderr, r.stderr
    assert "trafilatura" not in r.stderr and "discarding data" not in r.stderr, r.stderr
