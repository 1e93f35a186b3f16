"""Web search through ``ddgs`` (the maintained successor of ``duckduckgo-search``), with honest failure classes.

ddgs reports almost everything as ``DDGSException``; this module turns each outcome into one of ok / empty /
failed(retryable) / failed(final):

- ``TimeoutException``: retryable.
- ``DDGSException("No results found.")``: ddgs raises this both when engines answered with nothing and when they
  answered non-200 (a rate limit or a block: ddgs never raises its own ``RatelimitException``). The two cannot be
  told apart from the outside, and calling a rate limit "empty" would feed the saturation gate a false "nothing new",
  so it is a *retryable failure*, never an empty result. A genuinely empty query then costs a few retries and ends as
  a failed search, which reflect reformulates: the cheaper mistake.
- DNS and connection errors (and time-outs): retryable (transient on a machine that has a network), but after
  ``circuit_consecutive_failures`` of them in a row the backend fails fast (final, no network call) for
  ``web_circuit_cooldown_s``, so an offline machine falls through to the next backend at once instead of spending
  every retry of every query on a network that is not there.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any, Literal, Protocol

from ddgs.exceptions import DDGSException, TimeoutException

from satiate.state.settings import Settings
from satiate.tools.search.base import RawHit, SearchFailure, failure_reason

WebErrorKind = Literal["timeout", "network", "no_results", "invalid_query", "other"]

_NETWORK_ERROR = re.compile(
    r"dns|resolv|name or service|getaddrinfo|connect|connection (refused|reset|aborted)|unreachable|no route|"
    r"network is down|tls|ssl|certificate",
    re.IGNORECASE,
)
_NO_RESULTS = "no results found"


class TextSearchClient(Protocol):
    """The part of ``ddgs.DDGS`` used here: ``text(query, max_results=..., backend=...)`` -> [{title, href, body}]."""

    def text(self, query: str, **kwargs: Any) -> list[dict[str, Any]]: ...


ClientFactory = Callable[[float], TextSearchClient]


def ddgs_client(timeout_s: float) -> TextSearchClient:
    from ddgs import DDGS

    return DDGS(timeout=timeout_s)  # type: ignore[arg-type]  # ddgs passes it on to primp and futures.wait: floats work


def classify_ddgs_error(error: DDGSException) -> WebErrorKind:
    """Which failure a ddgs exception is (see the module docstring for why each class is retried or not)."""
    if isinstance(error, TimeoutException) or "timed out" in str(error).lower():
        return "timeout"
    message = str(error)
    if _NETWORK_ERROR.search(message):
        return "network"
    if _NO_RESULTS in message.lower():
        return "no_results"
    if "query is mandatory" in message.lower():
        return "invalid_query"
    return "other"


class ConnectivityBreaker:
    """Counts connection failures in a row; once open, it stays open for a cooldown, then lets one call probe.

    Thread-safe: a round's parallel queries share one backend, so the first few failures open it for all of them.
    """

    def __init__(self, threshold: int, cooldown_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.threshold = threshold
        self.cooldown_s = cooldown_s
        self.clock = clock
        self.last_reason = ""  # why the last connection failed, so a fast failure can still say why
        self._failures = 0
        self._opened_at: float | None = None
        self._lock = threading.Lock()

    def open_for(self) -> float | None:
        """Seconds the breaker stays open, or None when calls may go out."""
        with self._lock:
            if self._opened_at is None:
                return None
            remaining = self.cooldown_s - (self.clock() - self._opened_at)
            if remaining <= 0:
                self._opened_at = None  # half-open: the next failure re-opens it at once
                self._failures = self.threshold - 1
                return None
            return remaining

    def failure(self, reason: str = "") -> None:
        with self._lock:
            self.last_reason = reason or self.last_reason
            self._failures += 1
            if self._failures >= self.threshold and self._opened_at is None:
                self._opened_at = self.clock()

    def success(self) -> None:
        with self._lock:
            self._failures = 0
            self._opened_at = None


def to_raw_hits(rows: list[dict[str, Any]], max_results: int) -> list[RawHit]:
    """ddgs rows {title, href, body} as RawHits; rows without a URL are dropped (nothing to cite or read)."""
    hits: list[RawHit] = []
    for row in rows:
        url = str(row.get("href") or row.get("url") or "").strip()
        if not url:
            continue
        hits.append(RawHit(title=str(row.get("title") or "").strip(), url=url, body=str(row.get("body") or "").strip()))
    return hits[:max_results]


class WebBackend:
    """DuckDuckGo (or ddgs's metasearch) as a search backend."""

    name = "web"

    def __init__(
        self,
        settings: Settings,
        *,
        client_factory: ClientFactory = ddgs_client,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine = settings.web_engine
        self.timeout_s = settings.web_timeout_s
        self.client_factory = client_factory
        self.cache_scope = f"web:{self.engine}"
        self.description = (
            f"web search via ddgs ({'metasearch over several engines' if self.engine == 'auto' else self.engine}): "
            "short keyword queries work best"
        )
        self.breaker = ConnectivityBreaker(settings.circuit_consecutive_failures, settings.web_circuit_cooldown_s,
                                           clock)

    def search(self, query: str, max_results: int) -> list[RawHit]:
        wait = self.breaker.open_for()
        if wait is not None:
            cause = f" ({self.breaker.last_reason})" if self.breaker.last_reason else ""
            raise SearchFailure(
                f"web unreachable{cause}: {self.breaker.threshold} connection failures in a row; not retrying for "
                f"{wait:.0f} s (setting web_circuit_cooldown_s)",
                retryable=False,
                backend=self.name,
            )
        try:
            rows = self.client_factory(self.timeout_s).text(query, max_results=max_results, backend=self.engine)
        except DDGSException as error:
            raise self._failure(error) from error
        self.breaker.success()
        return to_raw_hits(rows or [], max_results)

    def _failure(self, error: DDGSException) -> SearchFailure:
        kind = classify_ddgs_error(error)
        detail = str(error).splitlines()[0][:300] if str(error) else type(error).__name__
        if kind == "network":
            self.breaker.failure(failure_reason(detail))
            return SearchFailure(f"web unreachable: {detail}", retryable=True, backend=self.name)
        if kind == "timeout":  # a firewall that drops packets looks like this, not like a DNS error
            self.breaker.failure(f"timed out after {self.timeout_s:g} s")
            return SearchFailure(f"web search timed out after {self.timeout_s:g} s: {detail}", retryable=True,
                                 backend=self.name)
        self.breaker.success()  # the network answered, whatever it said
        if kind == "no_results":
            return SearchFailure("web search returned no results (ddgs cannot tell this from a rate limit)",
                                 retryable=True, backend=self.name)
        if kind == "invalid_query":
            return SearchFailure(f"web search refused the query: {detail}", retryable=False, backend=self.name)
        return SearchFailure(f"web search failed: {detail}", retryable=True, backend=self.name)
