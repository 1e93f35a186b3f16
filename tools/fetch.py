"""Fetching one web page safely and turning it into readable text.

- **SSRF guard.** Only http and https. Every connection (the first and one per redirect) resolves its host through an
  injectable resolver, refuses loopback, private, link-local, shared, reserved, multicast and cloud-metadata
  addresses, and then connects to the address it vetted (pinned), so a DNS answer that changes between the check and
  the connect (DNS rebinding) cannot slip through. An IPv6 address that carries an IPv4 one (IPv4-mapped, 6to4,
  NAT64, Teredo) is judged by the IPv4 address it reaches. ``allow_private_addresses`` lifts the guard (metadata
  addresses stay refused, in every form); ``trusted_networks`` exempts named networks (an intranet wiki, a test server).
- **Bounded.** One deadline covers the whole exchange (DNS, connect, TLS, headers, body, every redirect): each
  socket operation gets only the time left, so a server dribbling its headers a byte a second cannot hold a fetch. A
  redirect cap, and a byte cap on the *decoded* body: compressed bodies (gzip, deflate, and zstd when ``zstandard`` is
  installed) are decoded here in steps of at most ``DECODE_STEP`` bytes, so a compression bomb costs the cap, not
  its expanded size; stacked (``gzip, gzip``) or unknown encodings are refused. The content type is checked before
  the body is read (HTML, XHTML and plain text only).
- **Never raises.** An unknown or hostile ``charset`` falls back to detection; every failure is a ``FetchedPage``
  with an outcome and an error.
- **Readable text.** Hidden elements are dropped first (``tools.html_text.drop_hidden``), then the page chrome
  (menus, cookie banners, breadcrumbs, footers: ``drop_chrome``); trafilatura then extracts
  the main text (boilerplate, menus and footers dropped); when it finds nothing, the stdlib extractor gives the
  visible text. When trafilatura cannot be imported, that is said once in the log and on every page read without it
  (``extraction_degraded``). Text shorter than ``min_source_chars`` is ``thin``: a 404 page, a paywall or a
  JavaScript shell is not a page read (design §6).

Environment proxies are ignored on purpose: through a proxy the guard would vet the proxy, not the destination.
"""

from __future__ import annotations

import codecs
import contextvars
import functools
import ipaddress
import logging
import re
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Literal
from urllib.parse import urljoin, urlsplit

import httpcore
import httpx

from satiate.state.settings import Settings, setting_default
from satiate.tools.html_text import drop_chrome, drop_hidden, html_to_text

try:  # optional: zstd is accepted only when it can be decoded in bounded steps
    import zstandard
except ImportError:  # pragma: no cover - depends on the environment
    zstandard = None  # type: ignore[assignment]

logger = logging.getLogger(__name__)

FetchOutcome = Literal["read", "thin", "http_error", "unsupported", "refused", "failed"]
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], list[str]]

ALLOWED_SCHEMES = frozenset({"http", "https"})
TEXT_CONTENT_TYPES = frozenset({"text/html", "application/xhtml+xml", "text/plain"})
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200")
)
USER_AGENT = "satiate/0.1 (research agent; reads pages it cites)"
DECODE_STEP = 64 * 1024  # the most a decoder may produce at once: bounds memory whatever the compression ratio
RAW_SLACK = 64 * 1024  # raw bytes allowed beyond the cap (framing); a stream that decodes to nothing stops here
ZSTD_MAX_WINDOW = 8 * 1024 * 1024  # RFC 9659: an HTTP zstd window is at most 8 MB (the library default is 128 MB)
NAT64_PREFIX = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052's well-known prefix: the last 32 bits are IPv4
NAT64_LOCAL_PREFIX = ipaddress.ip_network("64:ff9b:1::/48")  # RFC 8215: operator-chosen layout
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated ::a.b.c.d form


class FetchRefused(Exception):
    """The guard will not fetch this URL; the message says why (scheme, address)."""


def system_resolver(host: str, port: int) -> list[str]:
    """The addresses ``socket.getaddrinfo`` gives for a host (IPv6 scope ids dropped)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]).split("%", 1)[0] for info in infos))


def embedded_ipv4(address: IPAddress) -> list[tuple[str, ipaddress.IPv4Address]]:
    """The IPv4 addresses an IPv6 address carries, each with the form's name (empty for an IPv4 or plain IPv6)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return []
    packed = address.packed
    found: list[tuple[str, ipaddress.IPv4Address]] = []
    if address.ipv4_mapped is not None:
        found.append(("IPv4-mapped", address.ipv4_mapped))
    if address.sixtofour is not None:
        found.append(("6to4", address.sixtofour))
    if address in NAT64_PREFIX:
        found.append(("NAT64", ipaddress.IPv4Address(packed[12:])))
    if address in NAT64_LOCAL_PREFIX:  # the layout is the operator's: the /96 one and RFC 6052's /48 one
        found.append(("local NAT64", ipaddress.IPv4Address(packed[12:])))
        found.append(("local NAT64", ipaddress.IPv4Address(packed[6:8] + packed[9:11])))
    if address.teredo is not None:
        server, client = address.teredo
        found += [("Teredo server", server), ("Teredo client", client)]
    if address in IPV4_COMPATIBLE and int(address) > 1:
        found.append(("IPv4-compatible", ipaddress.IPv4Address(packed[12:])))
    return found


# Forms whose packets go to the embedded IPv4 address: that address alone decides. (The others are refused as
# reserved or private by their IPv6 address as well.)
TRANSLATED_FORMS = frozenset({"IPv4-mapped", "6to4", "NAT64"})


def is_metadata_address(address: IPAddress) -> bool:
    """A cloud metadata endpoint, directly or inside an IPv6 form (``::ffff:169.254.169.254``, NAT64, 6to4)."""
    return address in METADATA_ADDRESSES or any(v4 in METADATA_ADDRESSES for _, v4 in embedded_ipv4(address))


def _plain_refusal(address: IPAddress) -> str | None:
    if address in METADATA_ADDRESSES:
        return "a cloud metadata address"
    checks = (
        ("is_loopback", "a loopback address"),
        ("is_link_local", "a link-local address"),
        ("is_unspecified", "an unspecified address"),
        ("is_multicast", "a multicast address"),
        ("is_reserved", "a reserved address"),
        ("is_private", "a private address"),
    )
    for attribute, reason in checks:
        if getattr(address, attribute):
            return reason
    if not address.is_global:
        return "not a public address"
    return None


def address_refusal(address: IPAddress) -> str | None:
    """Why an address must not be fetched from, or None for a public address.

    An IPv6 address carrying an IPv4 one is refused when that IPv4 address is (``2002:7f00:1::`` is 6to4 for
    127.0.0.1); a NAT64 or 6to4 address of a public IPv4 address passes, as on an IPv6-only network with DNS64.
    """
    forms = embedded_ipv4(address)
    for form, ipv4 in forms:
        reason = _plain_refusal(ipv4)
        if reason:
            return f"{reason} ({form} form of {ipv4})"
    if any(form in TRANSLATED_FORMS for form, _ in forms):
        return None
    return _plain_refusal(address)


@dataclass(frozen=True)
class AddressPolicy:
    """Which addresses page fetching may connect to."""

    allow_private: bool = False
    trusted_networks: tuple[IPNetwork, ...] = ()

    def refusal(self, address: IPAddress) -> str | None:
        if any(address in network for network in self.trusted_networks):
            return None
        reason = address_refusal(address)
        if reason is None:
            return None
        if self.allow_private and not is_metadata_address(address):
            return None
        return reason


def vetted_address(host: str, port: int, policy: AddressPolicy, resolver: Resolver) -> str:
    """The address to connect to for ``host``; raises FetchRefused if any address it resolves to is refused.

    Every resolved address must pass, not just the first: a DNS answer mixing a public and a private address is an
    attack, not an accident.
    """
    try:
        addresses = [ipaddress.ip_address(host.strip("[]"))]
    except ValueError:
        try:
            addresses = [ipaddress.ip_address(a) for a in resolver(host, port)]
        except OSError as exc:
            raise httpcore.ConnectError(f"cannot resolve {host}: {exc}") from exc
    if not addresses:
        raise httpcore.ConnectError(f"cannot resolve {host}: no addresses")
    for address in addresses:
        reason = policy.refusal(address)
        if reason:
            raise FetchRefused(f"{host} resolves to {address}, {reason} (setting allow_private_addresses)")
    return str(addresses[0])


# The monotonic time by which the fetch running in this thread must be over; None outside a fetch.
_FETCH_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("satiate_fetch_deadline", default=None)


def _time_left(timeout: float | None, timed_out: type[Exception]) -> float | None:
    """The socket time-out for one operation: the per-operation one, cut to what is left of the fetch's deadline."""
    deadline = _FETCH_DEADLINE.get()
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise timed_out("the whole-fetch deadline passed")
    return left if timeout is None else min(timeout, left)


def _resolve_by_deadline(resolver: Resolver, host: str, port: int) -> list[str]:
    """``resolver(host, port)``, given up on when the fetch's deadline passes (``getaddrinfo`` takes no time-out).

    The lookup runs in a daemon thread; one that outlives the deadline is abandoned and ends on its own.
    """
    left = _time_left(None, httpcore.ConnectTimeout)
    if left is None:
        return resolver(host, port)
    outcome: dict[str, object] = {}

    def resolve() -> None:
        try:
            outcome["addresses"] = resolver(host, port)
        except BaseException as exc:  # handed to the fetching thread below
            outcome["error"] = exc

    thread = threading.Thread(target=resolve, name="satiate-resolve", daemon=True)
    thread.start()
    thread.join(left)
    if thread.is_alive():
        raise httpcore.ConnectTimeout(f"resolving {host} outlasted the fetch's deadline")
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["addresses"]  # type: ignore[return-value]


class DeadlineStream(httpcore.NetworkStream):
    """A socket stream whose every read, write and TLS handshake ends by the fetch's deadline.

    httpx's time-outs are per operation: a server sending one header byte a second never trips them.
    """

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self.inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self.inner.read(max_bytes, _time_left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.inner.write(buffer, _time_left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self.inner.close()

    def start_tls(self, ssl_context, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        return DeadlineStream(self.inner.start_tls(ssl_context, server_hostname,
                                                   _time_left(timeout, httpcore.ConnectTimeout)))

    def get_extra_info(self, info: str):
        return self.inner.get_extra_info(info)


class GuardedNetworkBackend(httpcore.SyncBackend):
    """httpcore's socket backend, but every TCP connection goes to an address the policy vetted, and every socket
    operation ends by the fetch's deadline."""

    def __init__(self, policy: AddressPolicy, resolver: Resolver) -> None:
        self.policy = policy
        self.resolver = resolver

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable | None = None) -> httpcore.NetworkStream:
        address = vetted_address(host, port, self.policy, functools.partial(_resolve_by_deadline, self.resolver))
        # TLS still verifies the certificate against the host name: httpcore passes the origin's host as SNI.
        stream = super().connect_tcp(address, port, _time_left(timeout, httpcore.ConnectTimeout), local_address,
                                     socket_options)
        return DeadlineStream(stream)


def guarded_transport(policy: AddressPolicy, resolver: Resolver) -> httpx.HTTPTransport:
    """An httpx transport whose connection pool connects through the guard.

    httpx does not take a network backend as an argument, so the pool's backend is replaced; if a future httpx or
    httpcore renames that attribute, this fails loudly instead of fetching unguarded.
    """
    transport = httpx.HTTPTransport(retries=0)
    pool = getattr(transport, "_pool", None)
    if pool is None or not hasattr(pool, "_network_backend"):
        raise RuntimeError("httpx/httpcore internals changed: the SSRF guard cannot pin connections")
    pool._network_backend = GuardedNetworkBackend(policy, resolver)
    return transport


def content_type_of(header: str | None) -> str:
    return (header or "").split(";", 1)[0].strip().lower()


# --- content encodings, decoded in bounded steps --------------------------------------------------------------------
class UnsupportedEncoding(Exception):
    """A Content-Encoding this fetcher does not decode (stacked, unknown, or zstd without ``zstandard``)."""


Decoder = Callable[[Iterator[bytes]], Iterator[bytes]]


def _zlib_steps(raw: Iterator[bytes], wbits: int) -> Iterator[bytes]:
    """zlib output, at most ``DECODE_STEP`` bytes a piece: ``max_length`` keeps the rest of the input for later."""
    decoder = zlib.decompressobj(wbits)
    for chunk in raw:
        data = chunk
        while True:
            piece = decoder.decompress(data, DECODE_STEP)
            if piece:
                yield piece
            if decoder.eof:
                return  # bytes after the stream's end (a second gzip member, trailing junk) are not read
            data = decoder.unconsumed_tail
            if not data and len(piece) < DECODE_STEP:
                break  # input used up and no output pending: wait for the next chunk


def _gzip_steps(raw: Iterator[bytes]) -> Iterator[bytes]:
    return _zlib_steps(raw, 16 + zlib.MAX_WBITS)


def _deflate_steps(raw: Iterator[bytes]) -> Iterator[bytes]:
    """HTTP "deflate" is meant to be zlib-wrapped, but servers send raw deflate too: the first two bytes tell."""
    head = b""
    for chunk in raw:
        head += chunk
        if len(head) >= 2:
            break
    wrapped = len(head) >= 2 and head[0] & 0x0F == 8 and int.from_bytes(head[:2], "big") % 31 == 0
    return _zlib_steps(_chain(head, raw), zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    if first:
        yield first
    yield from rest


class _RawReader:
    """Raw chunks as a file-like ``read(size)``, for zstandard's ``stream_reader``."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self.chunks = chunks
        self.pending = b""

    def read(self, size: int = -1) -> bytes:
        if not self.pending:
            self.pending = next(self.chunks, b"")
        size = len(self.pending) if size is None or size < 0 else size
        piece, self.pending = self.pending[:size], self.pending[size:]
        return piece


def _zstd_steps(raw: Iterator[bytes]) -> Iterator[bytes]:
    decompressor = zstandard.ZstdDecompressor(max_window_size=ZSTD_MAX_WINDOW)
    source: Any = _RawReader(raw)  # a read(size) is all stream_reader uses of a file
    with decompressor.stream_reader(source, read_size=DECODE_STEP, read_across_frames=True) as reader:
        while piece := reader.read(DECODE_STEP):
            yield piece


DECODERS: dict[str, Decoder] = {"gzip": _gzip_steps, "x-gzip": _gzip_steps, "deflate": _deflate_steps}
if zstandard is not None:
    DECODERS["zstd"] = _zstd_steps
ACCEPT_ENCODING = ", ".join(name for name in DECODERS if not name.startswith("x-"))
DECODE_ERRORS: tuple[type[Exception], ...] = (zlib.error,) + ((zstandard.ZstdError,) if zstandard else ())


def body_decoder(content_encoding: str | None) -> Decoder:
    """The bounded decoder for a Content-Encoding header; raises UnsupportedEncoding for stacked or unknown ones.

    Stacking is refused rather than decoded: no real server compresses twice, and each layer multiplies the ratio.
    """
    codings = [c.strip().lower() for c in (content_encoding or "").split(",")]
    codings = [c for c in codings if c and c != "identity"]
    if not codings:
        return lambda raw: raw
    if len(codings) > 1:
        raise UnsupportedEncoding(f"stacked content encodings {content_encoding!r} are refused")
    if codings[0] not in DECODERS:
        raise UnsupportedEncoding(f"content encoding {codings[0]!r} is not decoded (accepted: {ACCEPT_ENCODING})")
    return DECODERS[codings[0]]


# --- charsets ---------------------------------------------------------------------------------------------------------
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_META_CHARSET = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]{1,40})""", re.IGNORECASE)


# Python codecs no browser uses for a page: each would turn visible escape sequences into text the page never showed.
NOT_PAGE_ENCODINGS = frozenset({"unicode-escape", "raw-unicode-escape", "utf-7", "punycode", "idna", "undefined"})


def _decoded(raw: bytes, encoding: str) -> str | None:
    """``raw`` in ``encoding`` (bad bytes replaced), or None when that is not a usable page encoding."""
    try:
        if codecs.lookup(encoding).name in NOT_PAGE_ENCODINGS:
            return None
        return raw.decode(encoding, errors="replace")
    except (LookupError, UnicodeError, ValueError, TypeError):  # unknown name, a bytes-to-bytes codec, idna's rules
        return None


def decode_body(raw: bytes, declared: str | None, content_type: str) -> tuple[str, str | None]:
    """(text, note): the body decoded by its BOM, its declared charset, its ``<meta charset>``, UTF-8 or detection.

    The note says when a declared charset could not be used. A bad charset is the page's mistake, never an exception.
    """
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            return raw.decode(encoding, errors="replace"), None
    if declared:
        text = _decoded(raw, declared)
        if text is not None:
            return text, None
    text, used = _undeclared(raw, content_type)
    note = f"declared charset {declared[:40]!r} is unknown or not a page encoding: read as {used}" if declared else None
    return text, note


def _undeclared(raw: bytes, content_type: str) -> tuple[str, str]:
    """(text, encoding used) for a body without a usable declared charset: ``<meta charset>``, UTF-8, detection."""
    if content_type != "text/plain":
        meta = _META_CHARSET.search(raw[:4096])
        if meta:
            encoding = meta.group(1).decode("ascii")
            text = _decoded(raw, encoding)
            if text is not None:
                return text, f"{encoding} (its <meta charset>)"
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        if exc.start >= len(raw) - 3 and exc.reason == "unexpected end of data":
            return raw.decode("utf-8", errors="replace"), "utf-8"  # a character cut in two by the byte cap
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(raw).best()
        guess = best.encoding if best is not None else None
    except Exception:  # detection is a nicety; cp1252 below still gives text
        guess = None
    for encoding in (guess, "cp1252"):
        text = _decoded(raw, encoding) if encoding else None
        if text is not None:
            return text, f"{encoding} (detected)"
    return raw.decode("latin-1"), "latin-1"


# --- extraction -------------------------------------------------------------------------------------------------------
@functools.cache
def _load_trafilatura() -> tuple[ModuleType | None, str | None]:
    """(trafilatura, None), or (None, why not): tried once a process, and a failure is logged once."""
    try:
        import trafilatura
    except Exception as exc:  # a broken install can fail in any way on import (lxml 6 raises ImportError inside)
        detail = " ".join(str(exc).split())[:200]
        notice = f"page extraction degraded: trafilatura unavailable ({type(exc).__name__}: {detail})"
        logger.warning("%s. Pages are read with the simple extractor: menus and footers stay in the text. "
                       "Fix: pip install lxml_html_clean (or reinstall satiate).", notice)
        return None, notice
    return trafilatura, None


def extraction_degraded() -> str | None:
    """"page extraction degraded: trafilatura unavailable (<reason>)" when the main-text extractor cannot be
    imported, else None. For a run's preflight and progress output."""
    return _load_trafilatura()[1]


@dataclass(frozen=True)
class Extraction:
    """What the extractor made of a body: title, text, which extractor gave the text, and a note when degraded."""

    title: str
    text: str
    extractor: Literal["trafilatura", "stdlib", "plain"]
    note: str | None = None


def extract_page(body: str, content_type: str) -> Extraction:
    """Title and main text of a page: hidden elements dropped, trafilatura first, the stdlib extractor when it finds
    nothing or is unavailable (said in ``note``)."""
    if content_type == "text/plain":
        return Extraction("", body.strip(), "plain")
    visible = drop_hidden(body)
    fallback_title, fallback_text = html_to_text(visible)
    article = drop_chrome(visible)
    _, article_text = html_to_text(article)
    if article_text:  # a page that is all chrome (a link list) keeps it: the extractor decides what is main text
        visible, fallback_text = article, article_text
    trafilatura, note = _load_trafilatura()
    document = None
    if trafilatura is not None:
        try:
            document = trafilatura.bare_extraction(visible, with_metadata=True, include_comments=False,
                                                   include_tables=True, favor_recall=True)
        except Exception as exc:  # a parser crash on hostile HTML is a reason to use the simple extractor, not to fail
            note = f"trafilatura failed on this page ({type(exc).__name__}): read with the simple extractor"
    text = (getattr(document, "text", None) or "").strip()
    title = (getattr(document, "title", None) or "").strip() or fallback_title
    if text:
        return Extraction(title, text, "trafilatura")
    return Extraction(title, fallback_text, "stdlib", note)


def extract_text(body: str, content_type: str) -> tuple[str, str]:
    """(title, main text) of a page; see ``extract_page``."""
    extraction = extract_page(body, content_type)
    return extraction.title, extraction.text


@dataclass
class FetchedPage:
    """What fetching one URL gave: readable text or a classified reason why not."""

    url: str
    outcome: FetchOutcome
    final_url: str = ""
    status: int | None = None
    content_type: str = ""
    title: str = ""
    text: str = ""
    error: str | None = None
    bytes_read: int = 0
    truncated: bool = False
    redirects: list[str] = field(default_factory=list)
    from_store: bool = False
    notes: list[str] = field(default_factory=list)  # read, but degraded: no main-text extractor, a bad charset

    @property
    def readable(self) -> bool:
        return self.outcome == "read"

    @property
    def storable(self) -> bool:
        """Worth remembering for the TTL: the page's own answer (text, 4xx, binary), not a transient failure."""
        if self.outcome in ("read", "thin", "unsupported"):
            return True
        return self.outcome == "http_error" and self.status is not None and 400 <= self.status < 500


@dataclass(frozen=True)
class FetchLimits:
    """What one page fetch may take and keep; the defaults are the settings' defaults (``from_settings`` for a run)."""

    timeout_s: float = setting_default("fetch_timeout_s")
    max_bytes: int = setting_default("fetch_max_bytes")
    max_redirects: int = setting_default("fetch_max_redirects")
    min_chars: int = setting_default("min_source_chars")
    max_chars: int = setting_default("page_max_chars")

    @classmethod
    def from_settings(cls, settings: Settings) -> FetchLimits:
        return cls(timeout_s=settings.fetch_timeout_s, max_bytes=settings.fetch_max_bytes,
                   max_redirects=settings.fetch_max_redirects, min_chars=settings.min_source_chars,
                   max_chars=settings.page_max_chars)


class _BodyTooSlow(Exception):
    """The whole-fetch deadline passed while the body was being read."""


class PageFetcher:
    """Fetches pages through the guard; one instance holds one connection pool and is safe to share between threads."""

    def __init__(
        self,
        limits: FetchLimits,
        policy: AddressPolicy,
        *,
        resolver: Resolver = system_resolver,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits = limits
        self.policy = policy
        self.clock = clock
        self.client = httpx.Client(
            transport=guarded_transport(policy, resolver),
            timeout=httpx.Timeout(limits.timeout_s),
            follow_redirects=False,  # redirects are followed here, one checked hop at a time
            trust_env=False,
            headers={"User-Agent": USER_AGENT, "Accept": "text/html,application/xhtml+xml,text/plain;q=0.9",
                     "Accept-Encoding": ACCEPT_ENCODING},  # only what _read decodes in bounded steps
        )

    @classmethod
    def from_settings(cls, settings: Settings, *, resolver: Resolver = system_resolver,
                      trusted_networks: Sequence[str] = ()) -> PageFetcher:
        policy = AddressPolicy(allow_private=settings.allow_private_addresses,
                               trusted_networks=tuple(ipaddress.ip_network(n) for n in trusted_networks))
        return cls(FetchLimits.from_settings(settings), policy, resolver=resolver)

    def close(self) -> None:
        self.client.close()

    def fetch(self, url: str) -> FetchedPage:
        """Fetch and read one URL; never raises for anything the page or the network does."""
        token = _FETCH_DEADLINE.set(time.monotonic() + self.limits.timeout_s)
        try:
            return self._fetch(url)
        except Exception as exc:  # the contract: a page's or network's oddity is an outcome, never a crash of the run
            logger.warning("fetching %s failed unexpectedly", url, exc_info=True)
            return FetchedPage(url, "failed", final_url=url, error=f"{type(exc).__name__}: {exc}")
        finally:
            _FETCH_DEADLINE.reset(token)

    def _fetch(self, url: str) -> FetchedPage:
        deadline = self.clock() + self.limits.timeout_s
        current = url
        redirects: list[str] = []
        for _ in range(self.limits.max_redirects + 1):
            if self.clock() > deadline:
                return FetchedPage(url, "failed", final_url=current, redirects=redirects,
                                   error=f"timed out after {self.limits.timeout_s:g} s following redirects")
            scheme = urlsplit(current).scheme.lower()
            if scheme not in ALLOWED_SCHEMES:
                return FetchedPage(url, "refused", final_url=current, redirects=redirects,
                                   error=f"scheme {scheme or '(none)'!r} is not fetched: only http and https")
            try:
                with self.client.stream("GET", current) as response:
                    if response.is_redirect:
                        current = urljoin(current, response.headers["location"])
                        redirects.append(current)
                        continue
                    return self._read(url, current, response, redirects, deadline)
            except FetchRefused as refused:
                return FetchedPage(url, "refused", final_url=current, redirects=redirects, error=str(refused))
            except httpx.TimeoutException as exc:
                return FetchedPage(url, "failed", final_url=current, redirects=redirects,
                                   error=f"timed out after {self.limits.timeout_s:g} s ({type(exc).__name__})")
            except (httpx.HTTPError, httpx.InvalidURL, OSError) as exc:
                return FetchedPage(url, "failed", final_url=current, redirects=redirects,
                                   error=f"{type(exc).__name__}: {exc}")
        return FetchedPage(url, "failed", final_url=current, redirects=redirects,
                           error=f"more than {self.limits.max_redirects} redirects (setting fetch_max_redirects)")

    def _raw_body(self, response: httpx.Response, page: FetchedPage, deadline: float) -> Iterator[bytes]:
        """The body as sent (not decoded), cut at the byte cap plus framing slack, ending by the deadline."""
        limit = self.limits.max_bytes + RAW_SLACK
        received = 0
        for chunk in response.iter_raw():
            if self.clock() > deadline:
                raise _BodyTooSlow
            if received + len(chunk) > limit:
                page.truncated = True
                yield chunk[: limit - received]
                return
            received += len(chunk)
            yield chunk

    def _read(self, url: str, final_url: str, response: httpx.Response, redirects: list[str],
              deadline: float) -> FetchedPage:
        page = FetchedPage(url, "failed", final_url=final_url, status=response.status_code, redirects=redirects,
                           content_type=content_type_of(response.headers.get("content-type")))
        if response.status_code >= 400:
            page.outcome, page.error = "http_error", f"HTTP {response.status_code}"
            return page
        if page.content_type not in TEXT_CONTENT_TYPES:
            page.outcome = "unsupported"
            page.error = f"content type {page.content_type or '(none)'!r} is not a readable page"
            return page
        try:
            decoder = body_decoder(response.headers.get("content-encoding"))
        except UnsupportedEncoding as refused:
            page.outcome, page.error = "unsupported", str(refused)
            return page
        pieces: list[bytes] = []
        try:
            for piece in decoder(self._raw_body(response, page, deadline)):
                room = self.limits.max_bytes - page.bytes_read
                if len(piece) > room:  # the cap counts decoded bytes; leaving closes the connection
                    pieces.append(piece[:room])
                    page.bytes_read += room
                    page.truncated = True
                    break
                pieces.append(piece)
                page.bytes_read += len(piece)
                if self.clock() > deadline:
                    raise _BodyTooSlow
        except (_BodyTooSlow, httpx.TimeoutException):
            page.error = f"timed out reading the body after {self.limits.timeout_s:g} s"
            return page
        except DECODE_ERRORS as exc:
            page.error = f"cannot decode the {response.headers.get('content-encoding')} body: {exc}"
            return page
        raw = b"".join(pieces)
        del pieces  # the joined copy is all that is needed: keep peak memory near the cap
        body, charset_note = decode_body(raw, response.charset_encoding, page.content_type)
        del raw
        extraction = extract_page(body, page.content_type)
        page.title = extraction.title
        page.text = extraction.text[: self.limits.max_chars]
        page.notes = [note for note in (charset_note, extraction.note) if note]
        page.outcome = "read" if len(page.text) >= self.limits.min_chars else "thin"
        if page.outcome == "thin":
            page.error = f"{len(page.text)} readable characters (< {self.limits.min_chars}): not a page read"
        return page
