"""Fetching one web page safely and turning it into readable text.

- **SSRF guard.** Only http and https. Every connection (the first and one per redirect) resolves its host through an
  injectable resolver, refuses loopback, private, link-local, shared, reserved, multicast and cloud-metadata
  addresses, and then connects to the address it vetted (pinned), so a DNS answer that changes between the check and
  the connect (DNS rebinding) cannot slip through. ``allow_private_addresses`` lifts the guard (metadata addresses
  stay refused); ``trusted_networks`` exempts named networks (an intranet wiki, a test server).
- **Bounded.** Per-operation and whole-fetch time-outs, a redirect cap, a byte cap (the body is streamed and reading
  stops at the cap; the part read is kept), and a content-type check before the body is read (HTML, XHTML and plain
  text only).
- **Readable text.** trafilatura extracts the main text of HTML (boilerplate, menus and footers dropped); when it
  finds nothing, the stdlib extractor of ``local_corpus`` gives the visible text. Text shorter than
  ``min_source_chars`` is ``thin``: a 404 page, a paywall or a JavaScript shell is not a page read (seed 003 §4).

Environment proxies are ignored on purpose: through a proxy the guard would vet the proxy, not the destination.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urljoin, urlsplit

import httpcore
import httpx

from satiate.state.settings import Settings

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


class FetchRefused(Exception):
    """The guard will not fetch this URL; the message says why (scheme, address)."""


def system_resolver(host: str, port: int) -> list[str]:
    """The addresses ``socket.getaddrinfo`` gives for a host (IPv6 scope ids dropped)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]).split("%", 1)[0] for info in infos))


def address_refusal(address: IPAddress) -> str | None:
    """Why an address must not be fetched from, or None for a public address."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
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
        mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
        if self.allow_private and (mapped or address) not in METADATA_ADDRESSES:
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


class GuardedNetworkBackend(httpcore.SyncBackend):
    """httpcore's socket backend, but every TCP connection goes to an address the policy vetted."""

    def __init__(self, policy: AddressPolicy, resolver: Resolver) -> None:
        self.policy = policy
        self.resolver = resolver

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable | None = None) -> httpcore.NetworkStream:
        address = vetted_address(host, port, self.policy, self.resolver)
        # TLS still verifies the certificate against the host name: httpcore passes the origin's host as SNI.
        return super().connect_tcp(address, port, timeout, local_address, socket_options)


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


def extract_text(body: str, content_type: str) -> tuple[str, str]:
    """(title, main text) of a page; trafilatura first, the stdlib extractor when it finds nothing."""
    if content_type == "text/plain":
        return "", body.strip()
    from satiate.tools.search.local_corpus import html_to_text

    fallback_title, fallback_text = html_to_text(body)
    try:
        import trafilatura

        document = trafilatura.bare_extraction(body, with_metadata=True, include_comments=False, include_tables=True,
                                               favor_recall=True)
    except Exception:  # a parser crash on hostile HTML is a reason to use the simple extractor, not to fail
        document = None
    text = (getattr(document, "text", None) or "").strip()
    title = (getattr(document, "title", None) or "").strip() or fallback_title
    return title, text or fallback_text


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
    timeout_s: float = 10.0
    max_bytes: int = 2_000_000
    max_redirects: int = 5
    min_chars: int = 200
    max_chars: int = 20_000

    @classmethod
    def from_settings(cls, settings: Settings) -> FetchLimits:
        return cls(timeout_s=settings.fetch_timeout_s, max_bytes=settings.fetch_max_bytes,
                   max_redirects=settings.fetch_max_redirects, min_chars=settings.min_source_chars,
                   max_chars=settings.page_max_chars)


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
            headers={"User-Agent": USER_AGENT, "Accept": "text/html,application/xhtml+xml,text/plain;q=0.9"},
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
        chunks: list[bytes] = []
        for chunk in response.iter_bytes():  # decoded, as they arrive: the cap also stops a compression bomb
            room = self.limits.max_bytes - page.bytes_read
            chunks.append(chunk[:room])
            page.bytes_read += min(len(chunk), room)
            if len(chunk) >= room:
                declared = response.headers.get("content-length", "")
                page.truncated = len(chunk) > room or declared != str(page.bytes_read)
                break  # leaving the stream closes the connection: the rest is never downloaded
            if self.clock() > deadline:
                page.error = f"timed out reading the body after {self.limits.timeout_s:g} s"
                return page
        body = b"".join(chunks).decode(response.charset_encoding or "utf-8", errors="replace")
        page.title, text = extract_text(body, page.content_type)
        page.text = text[: self.limits.max_chars]
        page.outcome = "read" if len(page.text) >= self.limits.min_chars else "thin"
        if page.outcome == "thin":
            page.error = f"{len(page.text)} readable characters (< {self.limits.min_chars}): not a page read"
        return page
