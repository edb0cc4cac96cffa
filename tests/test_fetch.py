"""URL ingest and its SSRF guard (case B28), against a real HTTP server on loopback.

How the real server is reached: most tests give `fetch_url` a stub resolver that maps a
public-looking test hostname (*.example.test) to a documentation address (203.0.113.x,
which the guard allows: nothing answers there) and a connector that records the pinned
address it is asked for and opens a real TCP connection to the loopback server instead.
So the guard runs exactly as in production (the validated address is the address the
connector gets, the Host header carries the real hostname) while the bytes come from a
real http.server. One test fetches 127.0.0.1 directly with allow_private=True and the
default resolver and connector; one uses a real HTTPS server (certificate from a CA the test
makes with `cryptography`) to show SNI and the certificate check use the hostname while the
TCP connection goes to the pinned address.
"""

from __future__ import annotations

import io
import socket
import threading
import tracemalloc
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpcore
import pytest

from cairn.fetch import (FetchFailed, FetchTimeout, FetchTooLarge, FetchUnreachable, URLRefused,
                         address_problem, check_url, fetch_url, parse_ipv4_host)

CASE = Path(__file__).parent / "cases" / "B28-ssrf-url-ingest"

ARTICLE = """<!doctype html><html><head><title>Kestrel nesting survey</title>
<meta name="author" content="Mara Quill"><meta property="article:published_time" content="2024-03-05">
</head><body><nav>Home | About | Login</nav><article><h1>Kestrel nesting survey</h1>
<p>The spring survey counted nineteen kestrel nests along the quarry ridge, token zephyrquarry.</p>
<p>Most nests faced south-east, sheltered from the prevailing wind, and three were new this year.</p>
</article><footer>Copyright footer text</footer></body></html>"""


def make_pdf(text: str) -> bytes:
    from reportlab.pdfgen import canvas
    buf = io.BytesIO()
    c = canvas.Canvas(buf)
    c.drawString(72, 720, text)
    c.showPage()
    c.save()
    return buf.getvalue()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    seen_hosts: list[str] = []
    state = {"flaky_ok": False}

    def log_message(self, *a):  # keep test output clean
        pass

    def _send(self, status, body: bytes, ctype="text/html; charset=utf-8", extra=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):  # noqa: N802
        Handler.seen_hosts.append(self.headers.get("Host", ""))
        path = self.path
        try:
            if path == "/article":
                self._send(200, ARTICLE.encode())
            elif path == "/hop":
                self._send(302, b"", extra=[("Location", "/article")])
            elif path == "/to-metadata":
                self._send(302, b"", extra=[("Location", "http://169.254.169.254/latest/meta-data/")])
            elif path == "/loop":
                self._send(302, b"", extra=[("Location", "/loop")])
            elif path == "/report":
                self._send(200, make_pdf("Quarterly heron census report, token heronledger."))
            elif path == "/huge":  # declares 2 GB, then streams zeros until the client leaves
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(2 * 1024 ** 3))
                self.end_headers()
                self._stream_forever()
            elif path == "/endless":  # no length: body ends when the connection closes (never)
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Connection", "close")
                self.end_headers()
                self._stream_forever()
            elif path == "/drip":  # a byte at a time, slowly, forever
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Connection", "close")
                self.end_headers()
                import time
                for _ in range(200):
                    self.wfile.write(b"<")
                    self.wfile.flush()
                    time.sleep(0.05)
            elif path == "/flaky":
                if Handler.state["flaky_ok"]:
                    self._send(200, ARTICLE.replace("zephyrquarry", "flakyrecovered").encode())
                else:
                    self._send(503, b"busy")
            else:
                self._send(404, b"not here")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _stream_forever(self):
        block = b"<p>" + b"x" * 65536
        try:
            for _ in range(40_000):  # 2.6 GB at most
                self.wfile.write(block)
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass


@pytest.fixture(scope="module")
def server():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield srv
    srv.shutdown()
    srv.server_close()


class Wire:
    """Stub DNS + connector: `names` maps host -> list of address lists (one per lookup);
    every connection the connector is asked for is recorded and sent to the loopback server."""

    def __init__(self, server, names):
        self.port = server.server_address[1]
        self.names = {h: list(v) for h, v in names.items()}
        self.lookups: list[str] = []
        self.connects: list[tuple[str, int]] = []

    def resolver(self, host, port):
        self.lookups.append(host)
        seq = self.names[host]
        return seq.pop(0) if len(seq) > 1 else seq[0]

    def connector(self, ip, port, timeout):
        self.connects.append((ip, port))
        return httpcore.SyncBackend().connect_tcp("127.0.0.1", self.port, timeout=timeout)


def case_urls():
    out = []
    for line in (CASE / "urls.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            out.append(line.strip())
    return out


@pytest.fixture
def egress_spy(monkeypatch):
    """Records (and blocks) every outbound socket connection and DNS lookup."""
    calls = []

    def spy(name):
        def f(*a, **k):
            calls.append((name, a))
            raise AssertionError(f"{name} called: {a}")
        return f

    monkeypatch.setattr(socket.socket, "connect", spy("socket.connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", spy("socket.connect_ex"))
    monkeypatch.setattr(socket, "create_connection", spy("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", spy("getaddrinfo"))
    return calls


# ----------------------------------------------------------------------------- B28 refusals

# Refused even when the person allows their private network ([fetch] allow_private = true).
ALWAYS_REFUSED = {"http://0.0.0.0:8765/", "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
                  "http://metadata.google.internal/computeMetadata/v1/", "file:///etc/passwd",
                  "file:///home/user/.ssh/id_ed25519", "gopher://127.0.0.1:6379/_INFO", "ftp://127.0.0.1/",
                  "data:text/html,<script>alert(1)</script>", "http://user:pass@127.0.0.1:8765/"}
STUB_DNS = {"loopback-alias.example.test": ["127.0.0.1"]}


@pytest.mark.parametrize("url", case_urls())
def test_b28_every_url_is_refused_before_any_socket(url, egress_spy):
    """Each URL of the case is refused with no connection and no real DNS lookup (the one
    hostname is answered by a stub resolver), as a model-driven tool (allow_private=False,
    always) and the default `cairn ingest URL` see it."""
    with pytest.raises(URLRefused) as info:
        fetch_url(url, resolver=lambda h, p: STUB_DNS[h])
    assert "refused" in str(info.value)
    assert egress_spy == []


@pytest.mark.parametrize("url", sorted(ALWAYS_REFUSED))
def test_b28_allow_private_still_refuses_metadata_schemes_and_credentials(url, egress_spy):
    with pytest.raises(URLRefused):
        fetch_url(url, allow_private=True, resolver=lambda h, p: STUB_DNS[h])
    assert egress_spy == []


@pytest.mark.parametrize("url", sorted(set(case_urls()) - ALWAYS_REFUSED))
def test_b28_allow_private_lets_the_person_reach_their_own_network(url):
    """With the person's setting the private/loopback URLs get as far as connecting — to the
    validated address only (the connector records it and refuses)."""
    tried = []

    def connector(ip, port, timeout):
        tried.append(ip)
        raise httpcore.ConnectError("no server in this test")

    with pytest.raises(FetchFailed, match="network error"):
        fetch_url(url, allow_private=True, resolver=lambda h, p: STUB_DNS[h], connector=connector)
    assert len(tried) == 1 and address_problem(__import__("ipaddress").ip_address(tried[0]))


def test_refusal_messages_name_the_address_and_reason():
    with pytest.raises(URLRefused, match=r"^http://127\.0\.0\.1/ resolves to 127\.0\.0\.1 \(loopback\) — refused"):
        check_url("http://127.0.0.1/")
    with pytest.raises(URLRefused, match=r"169\.254\.169\.254 \(cloud metadata\)"):
        check_url("http://169.254.169.254/", allow_private=True)  # metadata stays refused
    with pytest.raises(URLRefused, match=r"0\.0\.0\.0 \(unspecified\)"):
        check_url("http://0.0.0.0/", allow_private=True)
    with pytest.raises(URLRefused, match=r"^http://mixed\.example\.test/ resolves to 10\.1\.2\.3 \(private\)"):
        # ANY address bad -> refused, even when another answer is public
        check_url("http://mixed.example.test/", resolver=lambda h, p: ["203.0.113.7", "10.1.2.3"])


@pytest.mark.parametrize("host,expected", [
    ("2130706433", "127.0.0.1"), ("0x7f000001", "127.0.0.1"), ("017700000001", "127.0.0.1"),
    ("127.1", "127.0.0.1"), ("127.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"),
    ("0300.0250.0.1", "192.168.0.1"), ("8.8.8.8", "8.8.8.8"), ("example", None), ("cafe.be", None),
])
def test_numeric_hosts_are_normalised(host, expected):
    got = parse_ipv4_host(host)
    assert (str(got) if got else None) == expected


def test_numeric_host_out_of_range_is_refused():
    with pytest.raises(URLRefused, match="not a valid IPv4"):
        check_url("http://4294967296/")


@pytest.mark.parametrize("addr,why", [
    ("::ffff:10.0.0.1", "IPv4-mapped private"), ("::127.0.0.1", "IPv4-compatible loopback"),
    ("64:ff9b::a9fe:a9fe", "cloud metadata"), ("64:ff9b::7f00:1", "NAT64 loopback"),
    ("2002:7f00:1::", "6to4 loopback"), ("fe80::1", "link-local"), ("ff02::1", "multicast"),
    ("224.0.0.1", "multicast"), ("255.255.255.255", "reserved"), ("240.0.0.1", "reserved"),
    ("100.127.255.254", "carrier-grade NAT"), ("fd00:ec2::254", "cloud metadata"),
    ("93.184.215.14", None), ("2606:4700::1111", None), ("203.0.113.10", None),
])
def test_address_classes(addr, why):
    import ipaddress
    got = address_problem(ipaddress.ip_address(addr))
    if why == "cloud metadata" and addr.startswith("64:ff9b"):
        assert got == "NAT64 cloud metadata"
    else:
        assert got == why


# ----------------------------------------------------------------------------- B28 bypasses

def test_redirect_to_metadata_is_blocked(server, tmp_path):
    """B28: public.example.test -> 302 to http://169.254.169.254/... : re-validated and blocked;
    only the first (allowed) address was ever connected to, nothing is stored."""
    wire = Wire(server, {"public.example.test": [["203.0.113.10"]]})
    with pytest.raises(URLRefused, match=r"169\.254\.169\.254 \(cloud metadata\) — refused"):
        fetch_url("http://public.example.test/to-metadata", resolver=wire.resolver, connector=wire.connector)
    assert wire.connects == [("203.0.113.10", 80)]


def test_dns_rebinding_cannot_move_the_connection(server):
    """B28: the resolver answers public first, loopback second. The host is resolved once and
    the connection goes to the address that was validated."""
    wire = Wire(server, {"rebind.example.test": [["203.0.113.10"], ["127.0.0.1"]]})
    res = fetch_url("http://rebind.example.test/article", resolver=wire.resolver, connector=wire.connector)
    assert wire.lookups == ["rebind.example.test"]
    assert wire.connects == [("203.0.113.10", 80)] and res.address == "203.0.113.10"
    assert b"zephyrquarry" in res.data
    # The real hostname travels in the Host header (and would be the TLS SNI name).
    assert Handler.seen_hosts[-1] == "rebind.example.test"


def test_redirects_are_followed_and_revalidated(server):
    wire = Wire(server, {"news.example.test": [["203.0.113.20"]]})
    res = fetch_url("http://news.example.test/hop", resolver=wire.resolver, connector=wire.connector)
    assert res.final_url == "http://news.example.test/article" and res.redirects == ["http://news.example.test/hop"]
    assert wire.lookups == ["news.example.test", "news.example.test"]  # each hop validated
    with pytest.raises(URLRefused, match="more than 5 redirects"):
        fetch_url("http://news.example.test/loop", resolver=wire.resolver, connector=wire.connector)


@pytest.mark.parametrize("path", ["/huge", "/endless"])
def test_huge_or_endless_body_is_aborted_at_the_cap(server, path):
    """B28: 2 GB declared (refused from the header) / never-ending body (aborted while
    streaming); memory stays near the cap (tracemalloc peak)."""
    wire = Wire(server, {"big.example.test": [["203.0.113.11"]]})
    cap = 1_000_000
    tracemalloc.start()
    try:
        with pytest.raises(FetchTooLarge, match="cap") as info:
            fetch_url(f"http://big.example.test{path}", resolver=wire.resolver, connector=wire.connector,
                      max_bytes=cap, timeout_s=60)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * cap, peak
    if path == "/huge":
        assert "Content-Length 2,147,483,648" in str(info.value)


def test_total_time_cap(server):
    wire = Wire(server, {"slow.example.test": [["203.0.113.13"]]})
    with pytest.raises(FetchTimeout, match="time cap|timed out"):
        fetch_url("http://slow.example.test/drip", resolver=wire.resolver, connector=wire.connector,
                  timeout_s=0.5)


def test_http_errors_say_whether_to_retry(server):
    wire = Wire(server, {"e.example.test": [["203.0.113.14"]]})
    with pytest.raises(FetchFailed, match="HTTP 404") as info:
        fetch_url("http://e.example.test/missing", resolver=wire.resolver, connector=wire.connector)
    assert info.value.transient is False
    Handler.state["flaky_ok"] = False
    with pytest.raises(FetchFailed, match="HTTP 503") as info:
        fetch_url("http://e.example.test/flaky", resolver=wire.resolver, connector=wire.connector)
    assert info.value.transient is True


def test_connection_refused_is_a_transient_error():
    def refuse(ip, port, timeout):
        raise httpcore.ConnectError("connection refused")
    with pytest.raises(FetchFailed, match="network error") as info:
        fetch_url("http://down.example.test/", resolver=lambda h, p: ["203.0.113.15"], connector=refuse)
    assert info.value.transient is True


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory):
    """A real HTTPS server on loopback whose certificate (from a CA made here) is valid for
    secure.example.test only; it records the SNI name each client sends."""
    import datetime
    import ssl

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    folder = tmp_path_factory.mktemp("tls")
    now = datetime.datetime.now(datetime.timezone.utc)

    def cert(subject, issuer, key, signer, san=None, ca=False):
        b = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
             .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
             .public_key(key.public_key()).serial_number(x509.random_serial_number())
             .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=2))
             .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if san:
            b = b.add_extension(x509.SubjectAlternativeName([x509.DNSName(san)]), critical=False)
        return b.sign(signer, hashes.SHA256())

    ca_key, leaf_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = cert("Cairn test CA", "Cairn test CA", ca_key, ca_key, ca=True)
    leaf = cert("secure.example.test", "Cairn test CA", leaf_key, ca_key, san="secure.example.test")
    (folder / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    (folder / "leaf.pem").write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    (folder / "leaf.key").write_bytes(leaf_key.private_bytes(serialization.Encoding.PEM,
                                      serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_ctx.load_cert_chain(folder / "leaf.pem", folder / "leaf.key")
    sni_seen: list[str | None] = []
    server_ctx.sni_callback = lambda sock, name, ctx: sni_seen.append(name)
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.socket = server_ctx.wrap_socket(srv.socket, server_side=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    client_ctx = ssl.create_default_context(cafile=str(folder / "ca.pem"))
    yield srv, client_ctx, sni_seen
    srv.shutdown()
    srv.server_close()


def test_https_to_the_pinned_address_keeps_sni_and_certificate_check_for_the_hostname(tls_server):
    srv, client_ctx, sni_seen = tls_server
    wire = Wire(srv, {"secure.example.test": [["203.0.113.30"]], "impostor.example.test": [["203.0.113.31"]]})
    res = fetch_url("https://secure.example.test/article", resolver=wire.resolver, connector=wire.connector,
                    ssl_context=client_ctx)
    assert b"zephyrquarry" in res.data and wire.connects == [("203.0.113.30", 443)]
    assert sni_seen[-1] == "secure.example.test" and Handler.seen_hosts[-1] == "secure.example.test"
    # Same server, another name: the certificate does not match it, so the fetch fails.
    with pytest.raises(FetchUnreachable, match="certificate verification failed.*impostor.example.test"):
        fetch_url("https://impostor.example.test/article", resolver=wire.resolver, connector=wire.connector,
                  ssl_context=client_ctx)
    assert sni_seen[-1] == "impostor.example.test"


def test_allow_private_fetches_loopback_with_real_sockets(server):
    """The person's own setting: a real fetch from 127.0.0.1 with the default resolver and
    connector. Without the setting the same URL is refused."""
    url = f"http://127.0.0.1:{server.server_address[1]}/article"
    res = fetch_url(url, allow_private=True)
    assert res.status == 200 and b"zephyrquarry" in res.data and res.address == "127.0.0.1"
    with pytest.raises(URLRefused, match="loopback"):
        fetch_url(url)


# ----------------------------------------------------------------------------- ingest

def test_ingest_url_keeps_article_title_author_date_and_url(app, server, monkeypatch):
    from cairn import ingest as ingest_mod
    wire = Wire(server, {"news.example.test": [["203.0.113.20"]]})
    report = ingest_mod.ingest_paths(app.conn, app.settings, ["http://news.example.test/hop"], app.embedder,
                                     resolver=wire.resolver, connector=wire.connector)
    assert report.added == ["http://news.example.test/hop"] and report.failed == []
    note = app.conn.execute("SELECT * FROM notes").fetchone()
    assert note["source"] == "http://news.example.test/hop" and note["type"] == "html"
    assert note["title"] == "Kestrel nesting survey"
    text = (app.settings.vault / note["path"]).read_text()
    assert "author: Mara Quill" in text and "url: http://news.example.test/article" in text
    assert "2024-03-05" in text
    assert "nineteen kestrel nests" in text and "Home | About" not in text
    hits = app.search("zephyrquarry", mode="keyword").hits
    assert hits and hits[0].source == "http://news.example.test/hop"
    # Fetched again, same bytes: unchanged, no duplicate.
    report = ingest_mod.ingest_paths(app.conn, app.settings, ["http://news.example.test/hop"], app.embedder,
                                     resolver=wire.resolver, connector=wire.connector)
    assert report.unchanged == ["http://news.example.test/hop"]
    assert app.conn.execute("SELECT count(*) FROM notes").fetchone()[0] == 1


def test_pdf_served_as_html_is_parsed_as_pdf(app, server):
    """B28: Content-Type says text/html, the bytes are a PDF: sniffed, parsed as PDF."""
    from cairn import ingest as ingest_mod
    wire = Wire(server, {"pdf.example.test": [["203.0.113.12"]]})
    report = ingest_mod.ingest_paths(app.conn, app.settings, ["http://pdf.example.test/report"], app.embedder,
                                     resolver=wire.resolver, connector=wire.connector)
    assert len(report.added) == 1, report.to_json()
    note = app.conn.execute("SELECT type, source FROM notes").fetchone()
    assert note["type"] == "pdf" and note["source"] == "http://pdf.example.test/report"
    assert app.search("heronledger", mode="keyword").hits


def test_too_large_page_is_skipped_and_nothing_is_stored(app, server):
    from cairn import ingest as ingest_mod
    app.settings.fetch.max_url_bytes = 200_000
    wire = Wire(server, {"big.example.test": [["203.0.113.11"]]})
    report = ingest_mod.ingest_paths(app.conn, app.settings, ["http://big.example.test/endless"], app.embedder,
                                     resolver=wire.resolver, connector=wire.connector)
    (name, reason), = report.skipped
    assert name == "http://big.example.test/endless" and "200,000-byte cap" in reason
    assert app.status()["notes"] == 0 and not list((app.settings.home / "tmp").rglob("*.*"))
    assert app.jobs()["counts"]["done"] == 1  # a permanent problem: not retried


def test_refused_url_fails_with_the_reason_and_loses_nothing(app, tmp_path, egress_spy):
    """A refusal is a failure (issue 10: it exited 0, so a script could not tell it from
    success), not retried, with the reason; the rest of the batch is stored."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.md").write_text("# A\n\nA note about canoes.\n")
    report = app.ingest([str(tmp_path / "in"), "http://169.254.169.254/latest/meta-data/", "file:///etc/passwd"])
    assert report.added == [str(tmp_path / "in" / "a.md")]
    assert not report.skipped and len(report.failed) == 2
    reasons = dict(report.failed)
    assert "cloud metadata" in reasons["http://169.254.169.254/latest/meta-data/"]
    assert "scheme file:" in reasons["file:///etc/passwd"]
    assert egress_spy == []
    assert app.status()["notes"] == 1


def test_cli_url_refusal_is_clear_not_a_traceback(tmp_path):
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "cairn.cli", "--home", str(tmp_path / "h"), "ingest", "-q",
                        "http://127.0.0.1/", "http://0x7f000001/"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "Traceback" not in r.stderr  # refused: not a success
    assert "http://127.0.0.1/ resolves to 127.0.0.1 (loopback) — refused" in r.stderr
    assert "http://0x7f000001/ resolves to 127.0.0.1 (loopback) — refused" in r.stderr
    assert "failed 2" in r.stdout


# ----------------------------------------------------------------------------- permanent failures

def test_invalid_name_fails_at_once_without_a_lookup(egress_spy):
    """RFC 6761 §6.4: a `.invalid` name never resolves; answered here, no DNS asked, and
    marked permanent (no retries)."""
    with pytest.raises(FetchUnreachable, match=r"cannot resolve nowhere\.invalid: \.invalid names never resolve") as info:
        fetch_url("https://nowhere.invalid/page")
    assert info.value.transient is False and egress_spy == []


@pytest.mark.parametrize("code, permanent", [("EAI_NONAME", True), ("EAI_NODATA", True),
                                             ("EAI_AGAIN", False), ("EAI_FAIL", False)])
def test_dns_answers_decide_whether_to_retry(monkeypatch, code, permanent):
    """'No such name' (NXDOMAIN, no address record) is permanent; a resolver that does not
    answer now (EAI_AGAIN: e.g. offline; EAI_FAIL) is transient. The getaddrinfo errors are
    the real socket.gaierror values the C library returns for each case."""
    errno_ = getattr(socket, code)

    def getaddrinfo(host, port, *a, **k):
        raise socket.gaierror(errno_, {"EAI_NONAME": "Name or service not known",
                                       "EAI_NODATA": "No address associated with hostname",
                                       "EAI_AGAIN": "Temporary failure in name resolution",
                                       "EAI_FAIL": "Non-recoverable failure in name resolution"}[code])
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    with pytest.raises(FetchFailed) as info:
        fetch_url("https://gone.example.test/")
    assert info.value.transient is (not permanent)
    assert isinstance(info.value, FetchUnreachable) is permanent
    assert "cannot resolve gone.example.test" in str(info.value)
    assert ("does not exist" if permanent else "temporary DNS failure") in str(info.value)


@pytest.fixture(scope="module")
def self_signed_server(tmp_path_factory):
    """A real HTTPS server on loopback with a self-signed certificate for
    selfsigned.example.test (trusted by no CA bundle)."""
    import datetime
    import ssl

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    folder = tmp_path_factory.mktemp("selfsigned")
    now = datetime.datetime.now(datetime.timezone.utc)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "selfsigned.example.test")])
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("selfsigned.example.test")]), critical=False)
            .sign(key, hashes.SHA256()))
    (folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                       serialization.NoEncryption()))
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(folder / "cert.pem", folder / "key.pem")
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_untrusted_certificate_is_permanent(self_signed_server):
    wire = Wire(self_signed_server, {"selfsigned.example.test": [["203.0.113.40"]]})
    with pytest.raises(FetchUnreachable, match="TLS certificate verification failed: self.signed certificate") as info:
        fetch_url("https://selfsigned.example.test/article", resolver=wire.resolver, connector=wire.connector)
    assert info.value.transient is False


def test_ingest_missing_host_and_bad_certificate_are_dead_letters_after_one_attempt(app, self_signed_server, tmp_path):
    """Neither a host that does not exist nor an untrusted certificate is retried: one
    attempt, then a dead letter reported as failed with the reason; the rest is ingested."""
    from cairn import ingest as ingest_mod
    note = tmp_path / "in" / "a.md"
    note.parent.mkdir()
    note.write_text("# A\n\nA note about herons.\n")
    wire = Wire(self_signed_server, {"selfsigned.example.test": [["203.0.113.41"]]})
    tls_url, dns_url = "https://selfsigned.example.test/article", "https://nowhere.invalid/page"
    report = ingest_mod.ingest_paths(app.conn, app.settings, [tls_url, dns_url, note], app.embedder,
                                     resolver=wire.resolver, connector=wire.connector)
    assert report.added == [str(note)] and report.retried == 0
    failed = dict(report.failed)
    assert "TLS certificate verification failed" in failed[tls_url] and "dead letter" in failed[tls_url]
    assert ".invalid names never resolve" in failed[dns_url]
    dead = {j["source"]: j for j in app.jobs()["dead"]}
    assert dead[tls_url]["attempts"] == 1 and dead[dns_url]["attempts"] == 1
    assert len(wire.connects) == 1  # the TLS URL was tried once


def test_ingest_retries_a_temporary_dns_failure(app, monkeypatch):
    from cairn import ingest as ingest_mod

    def getaddrinfo(host, port, *a, **k):
        raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    app.settings.jobs.max_attempts = 2
    app.settings.jobs.backoff_base_s = 0.01
    report = ingest_mod.ingest_paths(app.conn, app.settings, ["https://offline.example.test/"], app.embedder)
    (name, reason), = report.failed
    assert report.retried == 1 and "temporary DNS failure" in reason and "gave up after 2 attempts" in reason
