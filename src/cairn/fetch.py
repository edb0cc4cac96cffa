"""Fetch one web page for ingest, refusing requests that could reach internal services (SSRF).

`fetch_url(url, allow_private=...)` rules, checked for the URL and again for every redirect:

- scheme http or https only (file:, gopher:, ftp:, data: ... are refused); no user:password@;
- the host is resolved ONCE (`resolver`, injectable) and refused if ANY address is loopback,
  private (RFC 1918, IPv6 unique-local fc00::/7), link-local, carrier-grade NAT
  (100.64.0.0/10), unspecified, multicast, reserved (240/4, 192.0.0.0/24, 198.18/15,
  broadcast), or a cloud metadata address (169.254.169.254, fd00:ec2::254, 100.100.100.200,
  169.254.170.2) — also when written as IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
  (::a.b.c.d), NAT64 (64:ff9b::/96), 6to4 or Teredo IPv6. `localhost` and `*.localhost`
  are loopback without a lookup (RFC 6761); metadata names (metadata.google.internal,
  metadata.goog, metadata) are refused without a lookup. Numeric host forms are normalised first, as browsers and
  inet_aton do (WHATWG URL IPv4 parser): 2130706433, 0x7f000001, 017700000001 and 127.1
  are all 127.0.0.1. Documentation ranges (192.0.2/24, 198.51.100/24, 203.0.113/24) are not
  refused: nothing answers there, and tests use them as "public" addresses.
- the connection goes to the validated address (pinned): a second DNS answer cannot rebind
  the request to another host. The Host header, TLS SNI and certificate check still use the
  real hostname (httpcore with a network backend that connects to the pinned IP).
- redirects (301/302/303/307/308) are followed by hand, at most `max_redirects`, each target
  re-validated as above;
- the body is streamed and the download aborted past `max_bytes`; the whole fetch
  (redirects included) is bounded by `timeout_s` (checked between reads; one stalled read
  waits at most the time left when the request started). `Accept-Encoding: identity` is
  sent; a gzip/deflate body is decompressed with the same cap.

allow_private=True (the person's own `[fetch] allow_private = true`) permits loopback,
private, link-local and CGNAT addresses; unspecified, multicast, reserved and metadata
addresses stay refused. A model-driven tool must always pass allow_private=False.
Environment proxies are not used. Every request carries `X-Cairn-Outgoing: fetch`
(OUTGOING_HEADER): Cairn's server refuses it the trust it gives the person at this machine.

Errors: URLRefused (policy; permanent), FetchTooLarge (permanent), FetchFailed (HTTP error or
network failure; `.transient` says whether a retry may help), FetchTimeout (transient),
FetchUnreachable (a FetchFailed that is permanent: the host name does not exist — getaddrinfo
EAI_NONAME/EAI_NODATA, or a `.invalid` name, RFC 6761 §6.4 — or its TLS certificate fails
verification). A temporary DNS failure (EAI_AGAIN, EAI_FAIL: no answer from the resolver,
e.g. offline) stays transient.
"""

from __future__ import annotations

import ipaddress
import socket
import time
import zlib
from dataclasses import dataclass, field
from typing import Callable
from urllib.parse import urljoin, urlsplit
from cairn.errors import InvalidInput, TooLarge, Unavailable

Resolver = Callable[[str, int], list[str]]  # (host, port) -> IP address strings
Connector = Callable[[str, int, float | None], object]  # (ip, port, timeout) -> httpcore NetworkStream

USER_AGENT = "Cairn/0.1 (+local-first memory; one page per request)"
# Sent with every request Cairn makes for a page: Cairn's own server never trusts a request
# carrying it as the person at this machine (cairn.interfaces.rest.security), so a fetch
# that reaches the server itself (a redirect, `[fetch] allow_private`) gets no loopback trust.
OUTGOING_HEADER = "X-Cairn-Outgoing"
REDIRECTS = (301, 302, 303, 307, 308)


class FetchError(Unavailable):
    """Base class: the URL could not be fetched; `str(exc)` names the URL and the reason.
    `transient` is True when trying again later may succeed."""

    transient = False


class URLRefused(FetchError, InvalidInput):
    """The URL (or a redirect target) is not allowed: scheme, credentials, or an address
    that is loopback/private/link-local/metadata/... (message names the address and why)."""

    http_status, category = InvalidInput.http_status, InvalidInput.category


class FetchTooLarge(FetchError, TooLarge):
    """The body is larger than the cap (declared by Content-Length or seen while streaming)."""

    http_status, category = TooLarge.http_status, TooLarge.category


class FetchTimeout(FetchError):
    """The total time cap ran out."""

    transient = True


class FetchFailed(FetchError):
    """Network failure or an HTTP error status; transient for 5xx, 408, 429 and network errors."""

    def __init__(self, message: str, *, transient: bool) -> None:
        super().__init__(message)
        self.transient = transient


class FetchUnreachable(FetchFailed):
    """The URL can never be fetched as written: its host name does not exist, or the
    server's TLS certificate fails verification (untrusted, self-signed, expired, wrong
    name). Permanent (retrying cannot help); the message names the host and the reason."""

    def __init__(self, message: str) -> None:
        super().__init__(message, transient=False)


@dataclass
class FetchResult:
    """A fetched page. url: as requested; final_url: after redirects; address: the pinned
    IP the body came from; data: the body bytes (at most max_bytes); redirects: the chain."""

    url: str
    final_url: str
    status: int
    content_type: str
    data: bytes
    address: str
    redirects: list[str] = field(default_factory=list)


# ----------------------------------------------------------------------------- addresses

_METADATA_IPS = {ipaddress.ip_address(a) for a in
                 ("169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254")}
_METADATA_NAMES = {"metadata.google.internal", "metadata.goog", "metadata", "instance-data",
                   "instance-data.ec2.internal"}
_NETS = [(ipaddress.ip_network(n), why) for n, why in [
    ("0.0.0.0/8", "unspecified"), ("::/128", "unspecified"),
    ("127.0.0.0/8", "loopback"), ("::1/128", "loopback"),
    ("10.0.0.0/8", "private"), ("172.16.0.0/12", "private"), ("192.168.0.0/16", "private"),
    ("fc00::/7", "private"),
    ("169.254.0.0/16", "link-local"), ("fe80::/10", "link-local"),
    ("100.64.0.0/10", "carrier-grade NAT"),
    ("224.0.0.0/4", "multicast"), ("ff00::/8", "multicast"),
    ("240.0.0.0/4", "reserved"), ("192.0.0.0/24", "reserved"), ("198.18.0.0/15", "reserved"),
    ("fec0::/10", "reserved"), ("100::/64", "reserved"),
]]
PRIVATE_KINDS = {"loopback", "private", "link-local", "carrier-grade NAT"}


def address_problem(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """Why `ip` must not be fetched from ("loopback", "private", "link-local",
    "carrier-grade NAT", "unspecified", "multicast", "reserved", "cloud metadata", each
    prefixed "IPv4-mapped "/... for an IPv4 address inside an IPv6 one), or None if fine."""
    if ip in _METADATA_IPS:
        return "cloud metadata"
    if isinstance(ip, ipaddress.IPv6Address):
        inner, form = None, ""
        if ip.ipv4_mapped is not None:
            inner, form = ip.ipv4_mapped, "IPv4-mapped"
        elif ip in ipaddress.ip_network("64:ff9b::/96"):
            inner, form = ipaddress.IPv4Address(ip.packed[-4:]), "NAT64"
        elif ip in ipaddress.ip_network("::/96") and int(ip) > 1:
            inner, form = ipaddress.IPv4Address(ip.packed[-4:]), "IPv4-compatible"
        elif ip.sixtofour is not None:
            inner, form = ip.sixtofour, "6to4"
        elif ip.teredo is not None:
            inner, form = ip.teredo[1], "Teredo"
        if inner is not None:
            why = address_problem(inner)
            if why:
                return f"{form} {why}"
    for net, why in _NETS:
        if ip.version == net.version and ip in net:
            return why
    if ip == ipaddress.IPv4Address("255.255.255.255"):
        return "reserved"
    return None


def _is_allowed_private(why: str) -> bool:
    return any(why == k or why.endswith(" " + k) for k in PRIVATE_KINDS)


def parse_ipv4_host(host: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address a numeric host stands for, per the WHATWG URL IPv4 parser (1-4
    dot-separated parts, each decimal, 0x-hex or 0-octal; the last part fills the remaining
    bytes): "2130706433", "0x7f000001", "017700000001", "127.1" -> 127.0.0.1. None when
    `host` is not numeric. Raises URLRefused for a numeric host that is out of range."""
    parts = host.split(".")
    if parts and parts[-1] == "":
        parts = parts[:-1]
    if not parts or len(parts) > 4:
        return None
    nums = []
    for p in parts:
        try:
            if p[:2].lower() == "0x":
                n = int(p[2:] or "0", 16)
            elif len(p) > 1 and p[0] == "0":
                n = int(p[1:], 8)
            else:
                if not p.isdigit():
                    return None
                n = int(p, 10)
        except ValueError:
            return None
        nums.append(n)
    if any(n > 255 for n in nums[:-1]) or nums[-1] >= 256 ** (5 - len(nums)):
        raise URLRefused(f"numeric host {host!r} is not a valid IPv4 address — refused")
    value = nums[-1]
    for i, n in enumerate(nums[:-1]):
        value += n << (8 * (3 - i))
    return ipaddress.IPv4Address(value)


# getaddrinfo errors that mean "this name has no address" (NXDOMAIN, or no A/AAAA record):
# permanent. EAI_AGAIN / EAI_FAIL (resolver unreachable or failing) stay transient.
_NO_SUCH_NAME = {getattr(socket, n) for n in ("EAI_NONAME", "EAI_NODATA", "EAI_ADDRFAMILY") if hasattr(socket, n)}


def system_resolver(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (getaddrinfo, TCP). Raises FetchUnreachable
    (permanent) when the name does not exist (EAI_NONAME, EAI_NODATA), FetchFailed
    (transient) for other resolver failures (EAI_AGAIN: temporary, e.g. offline)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        reason = (exc.strerror or str(exc)).lower()
        if exc.errno in _NO_SUCH_NAME:
            raise FetchUnreachable(f"cannot resolve {host}: {reason} (the host name does not exist; "
                                   "check the URL)") from exc
        raise FetchFailed(f"cannot resolve {host}: {reason} (temporary DNS failure)", transient=True) from exc
    out: list[str] = []
    for info in infos:
        addr = info[4][0].split("%")[0]
        if addr not in out:
            out.append(addr)
    return out


@dataclass
class Target:
    """A validated URL: where to connect (the pinned addresses) and what to ask for."""

    url: str
    scheme: str
    host: str  # ASCII (IDNA) hostname or IP literal, without brackets
    port: int
    addresses: list[str]


def check_url(url: str, *, allow_private: bool = False, resolver: Resolver | None = None) -> Target:
    """Validate `url` and resolve its host once. Returns the Target with every address
    checked; raises URLRefused naming the address and the reason, FetchUnreachable when the
    name does not exist, or FetchFailed (transient) when DNS fails for now. No connection
    is made."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise URLRefused(f"{url}: not a valid URL ({exc}) — refused") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise URLRefused(f"{url}: scheme {scheme + ':' if scheme else '(none)'} is not allowed "
                         "(only http and https) — refused")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise URLRefused(f"{url}: URLs with credentials (user:password@) are not allowed — refused")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise URLRefused(f"{url}: no host — refused")
    port = port or (443 if scheme == "https" else 80)
    if ":" in host:  # IPv6 literal (a zone id "%eth0" is dropped: the address decides)
        try:
            ipaddress.ip_address(host.split("%")[0])
        except ValueError:
            raise URLRefused(f"{url}: host {host!r} is not a valid IPv6 address — refused") from None
        host = host.split("%")[0]
    try:
        literal: ipaddress.IPv4Address | ipaddress.IPv6Address | None = ipaddress.ip_address(host)
    except ValueError:
        literal = parse_ipv4_host(host) if all(c in "0123456789abcdefxABCDEFX." for c in host) else None
    if literal is None:
        try:
            host = host.encode("idna").decode("ascii").lower()
        except UnicodeError:
            raise URLRefused(f"{url}: host {host!r} is not a valid domain name — refused") from None
        if host in _METADATA_NAMES:
            raise URLRefused(f"{url}: host {host} is a cloud metadata service — refused")
        if host == "localhost" or host.endswith(".localhost"):
            addresses = ["127.0.0.1"]  # RFC 6761: always loopback, never asked of DNS
        elif host == "invalid" or host.endswith(".invalid"):
            # RFC 6761 §6.4: never resolves; answered here, without asking DNS.
            raise FetchUnreachable(f"cannot resolve {host}: .invalid names never resolve (RFC 6761)")
        else:
            addresses = (resolver or system_resolver)(host, port)
        if not addresses:
            raise FetchFailed(f"cannot resolve {host}: no address", transient=True)
    else:
        addresses = [str(literal)]
        host = str(literal)
    for a in addresses:
        try:
            ip = ipaddress.ip_address(a.split("%")[0])
        except ValueError:
            raise URLRefused(f"{url}: resolver returned {a!r}, not an IP address — refused") from None
        why = address_problem(ip)
        if why and not (allow_private and _is_allowed_private(why)):
            hint = "" if not _is_allowed_private(why) else " (set [fetch] allow_private = true to allow your own network)"
            raise URLRefused(f"{url} resolves to {ip} ({why}) — refused{hint}")
    return Target(url=url, scheme=scheme, host=host, port=port, addresses=addresses)


# ----------------------------------------------------------------------------- fetching

def _default_connector(ip: str, port: int, timeout: float | None):
    import httpcore
    return httpcore.SyncBackend().connect_tcp(ip, port, timeout=timeout)


class _PinnedBackend:
    """httpcore network backend that ignores the URL's host and connects to the validated
    addresses only (in order, first that answers)."""

    def __init__(self, addresses: list[str], connector: Connector):
        self.addresses = addresses
        self.connector = connector
        self.connected: list[str] = []

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        import httpcore
        last: Exception | None = None
        for ip in self.addresses:
            try:
                stream = self.connector(ip, port, timeout)
                self.connected.append(ip)
                return stream
            except (httpcore.ConnectError, httpcore.ConnectTimeout, OSError) as exc:
                last = exc
        raise httpcore.ConnectError(f"cannot connect to {host} ({', '.join(self.addresses)}): {last}")

    def connect_unix_socket(self, *a, **k):  # pragma: no cover - never used
        raise OSError("unix sockets are not used for fetching")

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


def _read_body(stream, *, url: str, encoding: str, max_bytes: int, deadline: float) -> bytes:
    buf = bytearray()
    dec = None
    if encoding in ("gzip", "x-gzip"):
        dec = zlib.decompressobj(16 + zlib.MAX_WBITS)
    elif encoding == "deflate":
        dec = zlib.decompressobj()
    elif encoding not in ("", "identity"):
        raise FetchFailed(f"{url}: unsupported Content-Encoding {encoding!r}", transient=False)
    for chunk in stream:
        if dec is not None:
            chunk = dec.decompress(chunk, max_bytes + 1 - len(buf))
        buf += chunk
        if len(buf) > max_bytes:
            raise FetchTooLarge(f"{url}: body larger than the {max_bytes:,}-byte cap "
                                "([fetch] max_url_bytes) — download aborted, nothing stored")
        if time.monotonic() > deadline:
            raise FetchTimeout(f"{url}: took longer than the time cap ([fetch] timeout_s) — aborted, nothing stored")
    return bytes(buf)


class _Lookup(Exception):
    """Raised by refused_at_once's resolver: the check reached a DNS lookup."""


def refused_at_once(url: str, *, allow_private: bool = False) -> str | None:
    """Why check_url refuses `url` on its own form, asking no DNS: a scheme other than http
    and https (file:, data:, ftp:), credentials, no host, a malformed address, a cloud
    metadata name, a literal loopback / private / link-local address or `localhost` (unless
    `allow_private` allows it). Such a refusal is the same on every try, so a caller reports
    it instead of queueing a job to retry. None when the form is fine so far (a name DNS
    must resolve is checked again at fetch time, with every redirect)."""
    def stop(host: str, port: int) -> list[str]:
        raise _Lookup
    try:
        check_url(url, allow_private=allow_private, resolver=stop)
    except URLRefused as exc:
        return str(exc)
    except (_Lookup, FetchError):
        return None
    return None


def fetch_url(url: str, *, allow_private: bool = False, max_bytes: int = 25_000_000,
              timeout_s: float = 30.0, max_redirects: int = 5,
              resolver: Resolver | None = None, connector: Connector | None = None,
              ssl_context=None) -> FetchResult:
    """GET `url` under the rules in the module docstring and return its body.

    allow_private: see module docstring (a model-driven caller passes False, always).
    max_bytes: body cap in bytes; timeout_s: total seconds for the fetch and its redirects.
    resolver(host, port) -> [ip, ...] and connector(ip, port, timeout) -> httpcore stream
    are injectable (tests); defaults are getaddrinfo and a plain TCP connection.
    ssl_context: the TLS client context (default: httpcore's, certifi's CA bundle, with
    hostname checking); tests pass one that trusts their own CA.
    Raises URLRefused, FetchTooLarge, FetchTimeout, FetchUnreachable or FetchFailed (never
    another exception for network problems).
    """
    import httpcore

    deadline = time.monotonic() + timeout_s
    current = url
    chain: list[str] = []
    for hop in range(max_redirects + 1):
        target = check_url(current, allow_private=allow_private, resolver=resolver)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise FetchTimeout(f"{url}: took longer than the time cap ([fetch] timeout_s) — aborted")
        backend = _PinnedBackend(target.addresses, connector or _default_connector)
        headers = [(b"User-Agent", USER_AGENT.encode()), (OUTGOING_HEADER.encode(), b"fetch"),
                   (b"Accept-Encoding", b"identity"),
                   (b"Accept", b"text/html,application/xhtml+xml,application/pdf,text/*;q=0.9,*/*;q=0.5")]
        try:
            with httpcore.ConnectionPool(network_backend=backend, retries=0, max_connections=1,
                                         ssl_context=ssl_context) as pool:
                with pool.stream("GET", current, headers=headers,
                                 extensions={"timeout": {"connect": remaining, "read": remaining,
                                                         "write": remaining, "pool": remaining}}) as resp:
                    hdrs = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in resp.headers}
                    status = resp.status
                    if status in REDIRECTS:
                        location = hdrs.get("location")
                        if not location:
                            raise FetchFailed(f"{current}: HTTP {status} redirect without a Location", transient=False)
                        chain.append(current)
                        current = urljoin(current, location.strip())
                        continue
                    if status >= 400:
                        transient = status >= 500 or status in (408, 429)
                        raise FetchFailed(f"{current}: HTTP {status}", transient=transient)
                    declared = hdrs.get("content-length", "")
                    if declared.isdigit() and int(declared) > max_bytes and \
                            hdrs.get("content-encoding", "identity") in ("", "identity"):
                        raise FetchTooLarge(f"{current}: Content-Length {int(declared):,} bytes is over the "
                                            f"{max_bytes:,}-byte cap ([fetch] max_url_bytes) — refused, nothing stored")
                    data = _read_body(resp.iter_stream(), url=current,
                                      encoding=hdrs.get("content-encoding", "").strip().lower(),
                                      max_bytes=max_bytes, deadline=deadline)
                    return FetchResult(url=url, final_url=current, status=status,
                                       content_type=hdrs.get("content-type", ""), data=data,
                                       address=backend.connected[-1] if backend.connected else "",
                                       redirects=chain)
        except FetchError:
            raise
        except httpcore.TimeoutException as exc:
            raise FetchTimeout(f"{current}: timed out ({type(exc).__name__}) — aborted, nothing stored") from None
        except (httpcore.UnsupportedProtocol, httpcore.LocalProtocolError) as exc:
            raise FetchFailed(f"{current}: cannot request this URL: {exc or type(exc).__name__}",
                              transient=False) from None
        except (httpcore.NetworkError, httpcore.ProtocolError, OSError) as exc:
            bad_cert = _certificate_error(exc)
            if bad_cert is not None:
                raise FetchUnreachable(f"{current}: TLS certificate verification failed: "
                                       f"{bad_cert.verify_message or bad_cert} — not fetched (a "
                                       "certificate problem is not retried)") from None
            raise FetchFailed(f"{current}: network error: {exc or type(exc).__name__}", transient=True) from None
    raise URLRefused(f"{url}: more than {max_redirects} redirects — refused")


def _certificate_error(exc: BaseException) -> BaseException | None:
    """The ssl.SSLCertVerificationError behind `exc` (httpcore wraps it in ConnectError), if any."""
    import ssl
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, ssl.SSLCertVerificationError):
            return cur
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return None
